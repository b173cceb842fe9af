// SPDX-License-Identifier: GPL-3.0-or-later
// The fault matrix against faultfs (issue 6): read errors at the first, a
// middle and the last block under each error-handling mode, write errors in
// the middle of a block, failing syncs, flushes and truncations, and short
// reads and writes of assorted sizes. Each row holds what GNU dd 9.1 did
// against the same faulty file (see fault_case.h for how they were learned);
// the binary under test must do the same, request for request.
//
// Files: "in" is 4196 pattern bytes (8 blocks of 512 and a 100-byte tail)
// served by faultfs; a local "in" is used where the output side is faulty.
// The loop_* rows put a loop device over a faultfs file ("loop disk" in the
// setup), which makes a 64 KiB block device with bad sectors: O_DIRECT
// errors, and writeback errors that only conv=fsync/fdatasync report.
#include "fault/fault_fs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <sstream>
#include <string_view>
#include <thread>

#include "e2e/harness.h"
#include "fault/fault_case.h"

namespace ddtime::fault {
namespace {

using namespace std::chrono_literals;

class FaultFsMatrix : public e2e::DdTest, public ::testing::WithParamInterface<Case> {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    if (HasFatalFailure()) return;
    std::string why = why_fault_fs_unavailable();
    if (why.empty()) why = fs_.mount(dir());
    if (!why.empty()) {
      if (fault_fs_required()) FAIL() << why << " (and DDTIME_FAULT_REQUIRED is set)";
      GTEST_SKIP() << "cannot mount the fault filesystem: " << why;
    }
  }

  // Attaches a loop device to mnt/NAME and links NAME in the test
  // directory to it, so that messages name it the same way whichever device
  // it got. Sets skip_reason_ when loop devices cannot be made here.
  void attach_loop(const std::string& name) {
    std::string why = why_loop_unavailable();
    if (why.empty()) why = loop_.attach(fs_.mount_point() / name);
    if (!why.empty()) {
      skip_reason_ = "cannot make a loop device: " + why;
      return;
    }
    std::filesystem::create_symlink(loop_.device(), path(name));
  }

  void TearDown() override {
    EXPECT_EQ(loop_.detach(), "");
    EXPECT_EQ(fs_.unmount(), "");
    EXPECT_FALSE(is_mount_point(fs_.mount_point()));
    DdTest::TearDown();
  }

  FaultFs fs_;
  LoopDevice loop_;
  std::string skip_reason_;
};

TEST_P(FaultFsMatrix, MatchesGnuDd) {
  const Case& c = GetParam();
  if (*c.input != '\0') write_file("in", expand_layout(c.input));
  // "loop NAME" lines are ours: a loop device over mnt/NAME, attached once
  // faultfs has made the file. The other lines go to faultfs.
  std::string loop_file;
  std::string control;
  {
    std::istringstream in{std::string(c.setup)};
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("loop ", 0) == 0) {
        loop_file = line.substr(5);
      } else {
        control += line + "\n";
      }
    }
  }
  ASSERT_EQ(fs_.control(control), "");
  if (!loop_file.empty()) {
    attach_loop(loop_file);
    if (!skip_reason_.empty()) {
      if (fault_fs_required() && ::access("/dev/loop-control", F_OK) == 0) FAIL() << skip_reason_;
      GTEST_SKIP() << skip_reason_;
    }
    // Attaching reads and syncs the file; only the copy's requests count.
    fs_.clear_log();
  }
  e2e::Options o = opts(c.operands());
  o.timeout = 20s;
  if (*c.stdin_pipe != '\0') o.in = e2e::Stdin::pipe(expand_layout(c.stdin_pipe));
  const e2e::Result r = dd(o);
  // A loop device writes back to its file from a kernel worker, which may
  // still be at it when dd has exited: give the log the time to show what
  // the row expects (a missing request still fails), then to settle.
  if (!loop_file.empty()) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (log_digest(fs_.log()).size() < std::string_view(c.io).size() &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(10ms);
    }
    std::this_thread::sleep_for(20ms);
  }
  // The log first: reading the output back goes through faultfs too.
  const std::string io = log_digest(fs_.log());
  const bool to_stdout = *c.out == '\0';
  std::string output = r.out;
  if (!to_stdout) output = exists(c.out) ? read_file(c.out) : std::string("<no file>");
  const std::string layout = to_stdout || exists(c.out) ? describe_layout(output) : output;
  EXPECT_ROW(c, r, layout, io);
  EXPECT_EQ(fs_.server_errors(), "");
}

// clang-format off
const Case kRows[] = {
    {"read_eio_first_plain", "file in size=4196\nfault in read EIO at=0-512 always", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n",
     "exit 1", "",
     "in flush - - 0\nin read 0 512 EIO\nin flush - - 0\n"},
    {"read_eio_first_noerror", "file in size=4196\nfault in read EIO at=0-512 always", {"if=mnt/in", "of=out", "bs=512", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n7+1 records in\n7+1 records out\n3684 bytes (3.7 kB, 3.6 KiB) copied, <T> s, <R>\n",
     "exit 0", "P512+3684",
     "in flush - - 0\nin read 0 512 EIO\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_first_noerror_sync", "file in size=4196\nfault in read EIO at=0-512 always", {"if=mnt/in", "of=out", "bs=512", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n7+2 records in\n9+0 records out\n4608 bytes (4.6 kB, 4.5 KiB) copied, <T> s, <R>\n",
     "exit 0", "Z512 P512+3684 Z412",
     "in flush - - 0\nin read 0 512 EIO\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_first_fullblock", "file in size=4196\nfault in read EIO at=0-512 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n",
     "exit 1", "",
     "in flush - - 0\nin read 0 512 EIO\nin flush - - 0\n"},
    {"read_eio_first_fullblock_noerror_sync", "file in size=4196\nfault in read EIO at=0-512 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n7+2 records in\n9+0 records out\n4608 bytes (4.6 kB, 4.5 KiB) copied, <T> s, <R>\n",
     "exit 0", "Z512 P512+3684 Z412",
     "in flush - - 0\nin read 0 512 EIO\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 412 0\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_middle_plain", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2048",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EIO\nin flush - - 0\n"},
    {"read_eio_middle_noerror", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "of=out", "bs=512", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n7+1 records in\n7+1 records out\n3684 bytes (3.7 kB, 3.6 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2048 P2560+1636",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EIO\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_middle_noerror_sync", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "of=out", "bs=512", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n7+2 records in\n9+0 records out\n4608 bytes (4.6 kB, 4.5 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2048 Z512 P2560+1636 Z412",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EIO\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_middle_fullblock", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2048",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EIO\nin flush - - 0\n"},
    {"read_eio_middle_fullblock_noerror_sync", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n7+2 records in\n9+0 records out\n4608 bytes (4.6 kB, 4.5 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2048 Z512 P2560+1636 Z412",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EIO\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 412 0\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_last_plain", "file in size=4196\nfault in read EIO at=4096-4196 always", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n8+0 records in\n8+0 records out\n4096 bytes (4.1 kB, 4.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4096",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 EIO\nin flush - - 0\n"},
    {"read_eio_last_noerror", "file in size=4196\nfault in read EIO at=4096-4196 always", {"if=mnt/in", "of=out", "bs=512", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n8+0 records in\n8+0 records out\n4096 bytes (4.1 kB, 4.0 KiB) copied, <T> s, <R>\n8+0 records in\n8+0 records out\n4096 bytes (4.1 kB, 4.0 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4096",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 EIO\nin read 4608 512 0\nin flush - - 0\n"},
    {"read_eio_last_noerror_sync", "file in size=4196\nfault in read EIO at=4096-4196 always", {"if=mnt/in", "of=out", "bs=512", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n8+0 records in\n8+0 records out\n4096 bytes (4.1 kB, 4.0 KiB) copied, <T> s, <R>\n8+1 records in\n9+0 records out\n4608 bytes (4.6 kB, 4.5 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4096 Z512",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 EIO\nin read 4608 512 0\nin flush - - 0\n"},
    {"read_eio_last_fullblock", "file in size=4196\nfault in read EIO at=4096-4196 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n8+0 records in\n8+0 records out\n4096 bytes (4.1 kB, 4.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4096",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 EIO\nin flush - - 0\n"},
    {"read_eio_last_fullblock_noerror_sync", "file in size=4196\nfault in read EIO at=4096-4196 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n8+0 records in\n8+0 records out\n4096 bytes (4.1 kB, 4.0 KiB) copied, <T> s, <R>\n8+1 records in\n9+0 records out\n4608 bytes (4.6 kB, 4.5 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4096 Z512",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 EIO\nin read 4608 512 0\nin flush - - 0\n"},
    {"read_eio_cut_noerror_sync", "file in size=4196\nfault in read EIO at=2100-2200 always cut", {"if=mnt/in", "of=out", "bs=512", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+1 records in\n5+0 records out\n2560 bytes (2.6 kB, 2.5 KiB) copied, <T> s, <R>\n7+2 records in\n9+0 records out\n4608 bytes (4.6 kB, 4.5 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2100 Z460 P2560+1636 Z412",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 52\nin read 2100 512 EIO\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_cut_noerror", "file in size=4196\nfault in read EIO at=2100-2200 always cut", {"if=mnt/in", "of=out", "bs=512", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+1 records in\n4+1 records out\n2100 bytes (2.1 kB, 2.1 KiB) copied, <T> s, <R>\n7+2 records in\n7+2 records out\n3736 bytes (3.7 kB, 3.6 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2100 P2560+1636",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 52\nin read 2100 512 EIO\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_cut_fullblock_noerror_sync", "file in size=4196\nfault in read EIO at=2100-2200 always cut", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n7+2 records in\n9+0 records out\n4608 bytes (4.6 kB, 4.5 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2100 Z460 P2560+1636 Z412",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 52\nin read 2100 460 EIO\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 412 0\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_reblock_noerror_sync", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "of=out", "ibs=1024", "obs=512", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n2+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n3+2 records in\n10+0 records out\n5120 bytes (5.1 kB, 5.0 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2048 Z1024 P3072+1124 Z924",
     "in flush - - 0\nin read 0 1024 1024\nin read 1024 1024 1024\nin read 2048 1024 EIO\nin read 3072 1024 1024\nin read 4096 1024 100\nin read 4196 1024 0\nin flush - - 0\n"},
    {"read_eio_reblock_noerror", "file in size=4196\nfault in read EIO at=1024-1100 always", {"if=mnt/in", "of=out", "ibs=512", "obs=1536", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n2+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n7+1 records in\n2+1 records out\n3684 bytes (3.7 kB, 3.6 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+1024 P1536+2660",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 EIO\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_count_noerror", "file in size=4196\nfault in read EIO at=1024-1536 always", {"if=mnt/in", "of=out", "bs=512", "count=4", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n2+0 records in\n2+0 records out\n1024 bytes (1.0 kB, 1.0 KiB) copied, <T> s, <R>\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+1024 P1536+1024",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 EIO\nin read 1536 512 512\nin read 2048 512 512\nin flush - - 0\n"},
    {"read_eio_after_skip_noerror", "file in size=4196\nfault in read EIO at=1024-1536 always", {"if=mnt/in", "of=out", "bs=512", "skip=2", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n5+1 records in\n5+1 records out\n2660 bytes (2.7 kB, 2.6 KiB) copied, <T> s, <R>\n",
     "exit 0", "P1536+2660",
     "in flush - - 0\nin read 1024 512 EIO\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_once_noerror", "file in size=4196\nfault in read EIO at=2048-2560", {"if=mnt/in", "of=out", "bs=512", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n7+1 records in\n7+1 records out\n3684 bytes (3.7 kB, 3.6 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2048 P2560+1636",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EIO\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eio_stdout_noerror_sync", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "bs=1024", "conv=noerror,sync"}, "", "", "",
     "dd: error reading 'mnt/in': Input/output error\n2+0 records in\n2+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n3+2 records in\n5+0 records out\n5120 bytes (5.1 kB, 5.0 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2048 Z1024 P3072+1124 Z924",
     "in flush - - 0\nin read 0 1024 1024\nin read 1024 1024 1024\nin read 2048 1024 EIO\nin read 3072 1024 1024\nin read 4096 1024 100\nin read 4196 1024 0\nin flush - - 0\n"},
    {"read_eio_direct", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "of=out", "bs=512", "iflag=direct"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2048",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EIO\nin flush - - 0\n"},
    {"read_eio_direct_noerror", "file in size=4196\nfault in read EIO at=2048-2560 always", {"if=mnt/in", "of=out", "bs=4096", "iflag=direct", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Input/output error\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n0+1 records in\n0+1 records out\n100 bytes copied, <T> s, <R>\n",
     "exit 0", "P4096+100",
     "in flush - - 0\nin read 0 4096 EIO\nin read 4096 4096 100\nin read 4196 4096 0\nin flush - - 0\n"},
    {"read_eintr_once", "file in size=4196\nfault in read EINTR at=2048-2560", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EINTR\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eintr_every_block_fullblock", "file in size=4196\nfault in read EINTR times=8", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock"}, "", "", "out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "in flush - - 0\nin read 0 512 EINTR\nin read 0 512 EINTR\nin read 0 512 EINTR\nin read 0 512 EINTR\nin read 0 512 EINTR\nin read 0 512 EINTR\nin read 0 512 EINTR\nin read 0 512 EINTR\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 412 0\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_eagain_once", "file in size=4196\nfault in read EAGAIN at=2048-2560", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "dd: error reading 'mnt/in': Resource temporarily unavailable\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2048",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EAGAIN\nin flush - - 0\n"},
    {"read_eagain_once_noerror", "file in size=4196\nfault in read EAGAIN at=2048-2560", {"if=mnt/in", "of=out", "bs=512", "conv=noerror"}, "", "", "out",
     "dd: error reading 'mnt/in': Resource temporarily unavailable\n4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n7+1 records in\n7+1 records out\n3684 bytes (3.7 kB, 3.6 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2048 P2560+1636",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 EAGAIN\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_zero_middle", "file in size=4196\nfault in read zero at=2048-2560", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "4+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+2048",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 0\nin flush - - 0\n"},
    {"read_short1_bs", "file in size=4196\nfault in read short=1 always", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "0+4196 records in\n0+4196 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "4199 lines, fnv1a 220a9ea9c6e6e4ec\n"},
    {"read_short1_fullblock", "file in size=4196\nfault in read short=1 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock"}, "", "", "out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "4200 lines, fnv1a 8c6c2ff5c8912c2d\n"},
    {"read_short1_reblock", "file in size=4196\nfault in read short=1 always", {"if=mnt/in", "of=out", "ibs=512", "obs=1000"}, "", "", "out",
     "0+4196 records in\n4+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "4199 lines, fnv1a 220a9ea9c6e6e4ec\n"},
    {"read_short100_bs", "file in size=4196\nfault in read short=100 always", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "0+42 records in\n0+42 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "45 lines, fnv1a 496b218665f2f3f7\n"},
    {"read_short100_fullblock", "file in size=4196\nfault in read short=100 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock"}, "", "", "out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "53 lines, fnv1a cd8dcdddc1cda119\n"},
    {"read_short100_reblock", "file in size=4196\nfault in read short=100 always", {"if=mnt/in", "of=out", "ibs=512", "obs=1000"}, "", "", "out",
     "0+42 records in\n4+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "45 lines, fnv1a 496b218665f2f3f7\n"},
    {"read_short511_bs", "file in size=4196\nfault in read short=511 always", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "0+9 records in\n0+9 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "in flush - - 0\nin read 0 512 511\nin read 511 512 511\nin read 1022 512 511\nin read 1533 512 511\nin read 2044 512 511\nin read 2555 512 511\nin read 3066 512 511\nin read 3577 512 511\nin read 4088 512 108\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_short511_fullblock", "file in size=4196\nfault in read short=511 always", {"if=mnt/in", "of=out", "bs=512", "iflag=fullblock"}, "", "", "out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "in flush - - 0\nin read 0 512 511\nin read 511 1 1\nin read 512 512 511\nin read 1023 1 1\nin read 1024 512 511\nin read 1535 1 1\nin read 1536 512 511\nin read 2047 1 1\nin read 2048 512 511\nin read 2559 1 1\nin read 2560 512 511\nin read 3071 1 1\nin read 3072 512 511\nin read 3583 1 1\nin read 3584 512 511\nin read 4095 1 1\nin read 4096 512 100\nin read 4196 412 0\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_short511_reblock", "file in size=4196\nfault in read short=511 always", {"if=mnt/in", "of=out", "ibs=512", "obs=1000"}, "", "", "out",
     "0+9 records in\n4+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "in flush - - 0\nin read 0 512 511\nin read 511 512 511\nin read 1022 512 511\nin read 1533 512 511\nin read 2044 512 511\nin read 2555 512 511\nin read 3066 512 511\nin read 3577 512 511\nin read 4088 512 108\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_short100_sync", "file in size=4196\nfault in read short=100 at=1024-2048 always", {"if=mnt/in", "of=out", "bs=512", "conv=sync"}, "", "", "out",
     "6+12 records in\n18+0 records out\n9216 bytes (9.2 kB, 9.0 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+1124 Z412 P1124+100 Z412 P1224+100 Z412 P1324+100 Z412 P1424+100 Z412 P1524+100 Z412 P1624+100 Z412 P1724+100 Z412 P1824+100 Z412 P1924+100 Z412 P2024+100 Z412 P2124+2072 Z488",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 100\nin read 1124 512 100\nin read 1224 512 100\nin read 1324 512 100\nin read 1424 512 100\nin read 1524 512 100\nin read 1624 512 100\nin read 1724 512 100\nin read 1824 512 100\nin read 1924 512 100\nin read 2024 512 100\nin read 2124 512 512\nin read 2636 512 512\nin read 3148 512 512\nin read 3660 512 512\nin read 4172 512 24\nin read 4196 512 0\nin flush - - 0\n"},
    {"read_short100_count_warning", "file in size=4196\nfault in read short=100 always", {"if=mnt/in", "of=out", "bs=512", "count=3"}, "", "", "out",
     "dd: warning: partial read (100 bytes); suggest iflag=fullblock\n0+3 records in\n0+3 records out\n300 bytes copied, <T> s, <R>\n",
     "exit 0", "P0+300",
     "in flush - - 0\nin read 0 512 100\nin read 100 512 100\nin read 200 512 100\nin flush - - 0\n"},
    {"read_short_once_middle", "file in size=4196\nfault in read short=7 at=2048-2560", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "8+2 records in\n8+2 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "in flush - - 0\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 7\nin read 2055 512 512\nin read 2567 512 512\nin read 3079 512 512\nin read 3591 512 512\nin read 4103 512 93\nin read 4196 512 0\nin flush - - 0\n"},
    {"write_enospc_mid_block", "file out\nfault out write ENOSPC at=2148- always cut", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': No space left on device\n5+0 records in\n4+0 records out\n2148 bytes (2.1 kB, 2.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2148",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 100\nout write 2148 412 ENOSPC\nout flush - - 0\n"},
    {"write_enospc_mid_block_reblock", "file out\nfault out write ENOSPC at=2148- always cut", {"if=in", "of=mnt/out", "ibs=512", "obs=1024"}, "P0+4196", "", "mnt/out",
     "dd: writing to 'mnt/out': No space left on device\n6+0 records in\n2+1 records out\n2148 bytes (2.1 kB, 2.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2148",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 1024 1024\nout write 1024 1024 1024\nout write 2048 1024 100\nout write 2148 924 ENOSPC\nout flush - - 0\n"},
    {"write_enospc_mid_block_noerror", "file out\nfault out write ENOSPC at=2148- always cut", {"if=in", "of=mnt/out", "bs=512", "conv=noerror"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': No space left on device\n5+0 records in\n4+0 records out\n2148 bytes (2.1 kB, 2.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2148",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 100\nout write 2148 412 ENOSPC\nout flush - - 0\n"},
    {"write_enospc_whole_block", "file out\nfault out write ENOSPC at=2048- always", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': No space left on device\n5+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2048",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 ENOSPC\nout flush - - 0\n"},
    {"write_enospc_first_block", "file out\nfault out write ENOSPC at=0- always cut", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': No space left on device\n1+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n",
     "exit 1", "",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 ENOSPC\nout flush - - 0\n"},
    {"write_enospc_last_partial", "file out\nfault out write ENOSPC at=4150- always cut", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': No space left on device\n8+1 records in\n8+0 records out\n4150 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4150",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 54\nout write 4150 46 ENOSPC\nout flush - - 0\n"},
    {"write_enospc_conv_sync_tail", "file out\nfault out write ENOSPC at=4300- always cut", {"if=in", "of=mnt/out", "bs=512", "conv=sync"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': No space left on device\n8+1 records in\n8+0 records out\n4300 bytes (4.3 kB, 4.2 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4196 Z104",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 512 204\nout write 4300 308 ENOSPC\nout flush - - 0\n"},
    {"write_enospc_fsync", "file out\nfault out write ENOSPC at=2148- always cut", {"if=in", "of=mnt/out", "bs=512", "conv=fsync"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': No space left on device\n5+0 records in\n4+0 records out\n2148 bytes (2.1 kB, 2.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2148",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 100\nout write 2148 412 ENOSPC\nout fsync - - 0\nout flush - - 0\n"},
    {"write_eio_middle", "file out\nfault out write EIO at=2048-2560 always", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': Input/output error\n5+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2048",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 EIO\nout flush - - 0\n"},
    {"write_efbig_mid_block", "file out\nfault out write EFBIG at=3000- always cut", {"if=in", "of=mnt/out", "bs=1024"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': File too large\n3+0 records in\n2+0 records out\n3000 bytes (3.0 kB, 2.9 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+3000",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 1024 1024\nout write 1024 1024 1024\nout write 2048 1024 952\nout write 3000 72 EFBIG\nout flush - - 0\n"},
    {"write_zero_middle", "file out\nfault out write zero at=2048-2560", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': No space left on device\n5+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2048",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 0\nout flush - - 0\n"},
    {"write_eintr_once", "file out\nfault out write EINTR at=2048-2560", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 EINTR\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout flush - - 0\n"},
    {"write_eagain_once", "file out\nfault out write EAGAIN at=2048-2560", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: error writing 'mnt/out': Resource temporarily unavailable\n5+0 records in\n4+0 records out\n2048 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2048",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 EAGAIN\nout flush - - 0\n"},
    {"write_short1_bs512", "file out\nfault out write short=1 always", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "4199 lines, fnv1a deb171442f3f03cf\n"},
    {"write_short1_bs4096", "file out\nfault out write short=1 always", {"if=in", "of=mnt/out", "bs=4096"}, "P0+4196", "", "mnt/out",
     "1+1 records in\n1+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "4199 lines, fnv1a e1e8ca0fb9e8dfb2\n"},
    {"write_short100_bs512", "file out\nfault out write short=100 always", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "52 lines, fnv1a 6a23ff389df385ba\n"},
    {"write_short100_bs4096", "file out\nfault out write short=100 always", {"if=in", "of=mnt/out", "bs=4096"}, "P0+4196", "", "mnt/out",
     "1+1 records in\n1+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "45 lines, fnv1a c382818e96a0eaff\n"},
    {"write_short511_bs512", "file out\nfault out write short=511 always", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 511\nout write 511 1 1\nout write 512 512 511\nout write 1023 1 1\nout write 1024 512 511\nout write 1535 1 1\nout write 1536 512 511\nout write 2047 1 1\nout write 2048 512 511\nout write 2559 1 1\nout write 2560 512 511\nout write 3071 1 1\nout write 3072 512 511\nout write 3583 1 1\nout write 3584 512 511\nout write 4095 1 1\nout write 4096 100 100\nout flush - - 0\n"},
    {"write_short511_bs4096", "file out\nfault out write short=511 always", {"if=in", "of=mnt/out", "bs=4096"}, "P0+4196", "", "mnt/out",
     "1+1 records in\n1+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 4096 511\nout write 511 3585 511\nout write 1022 3074 511\nout write 1533 2563 511\nout write 2044 2052 511\nout write 2555 1541 511\nout write 3066 1030 511\nout write 3577 519 511\nout write 4088 8 8\nout write 4096 100 100\nout flush - - 0\n"},
    {"write_short1000_bs512", "file out\nfault out write short=1000 always", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout flush - - 0\n"},
    {"write_short1000_bs4096", "file out\nfault out write short=1000 always", {"if=in", "of=mnt/out", "bs=4096"}, "P0+4196", "", "mnt/out",
     "1+1 records in\n1+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 4096 1000\nout write 1000 3096 1000\nout write 2000 2096 1000\nout write 3000 1096 1000\nout write 4000 96 96\nout write 4096 100 100\nout flush - - 0\n"},
    {"write_short100_sparse", "file out\nfault out write short=100 always", {"if=in", "of=mnt/out", "bs=512", "conv=sparse,notrunc"}, "P0+1024 Z1024 P2048+2148", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+1024 Z1024 P2048+2148",
     "out flush - - 0\nout write 0 512 100\nout write 100 412 100\nout write 200 312 100\nout write 300 212 100\nout write 400 112 100\nout write 500 12 12\nout write 512 512 100\nout write 612 412 100\nout write 712 312 100\nout write 812 212 100\nout write 912 112 100\nout write 1012 12 12\nout write 2048 512 100\nout write 2148 412 100\nout write 2248 312 100\nout write 2348 212 100\nout write 2448 112 100\nout write 2548 12 12\nout write 2560 512 100\nout write 2660 412 100\nout write 2760 312 100\nout write 2860 212 100\nout write 2960 112 100\nout write 3060 12 12\nout write 3072 512 100\nout write 3172 412 100\nout write 3272 312 100\nout write 3372 212 100\nout write 3472 112 100\nout write 3572 12 12\nout write 3584 512 100\nout write 3684 412 100\nout write 3784 312 100\nout write 3884 212 100\nout write 3984 112 100\nout write 4084 12 12\nout write 4096 100 100\nout flush - - 0\n"},
    {"fsync_eio", "file out\nfault out fsync EIO", {"if=in", "of=mnt/out", "bs=512", "conv=fsync"}, "P0+4196", "", "mnt/out",
     "dd: fsync failed for 'mnt/out': Input/output error\n8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout fsync - - EIO\nout flush - - 0\n"},
    {"fsync_enospc", "file out\nfault out fsync ENOSPC", {"if=in", "of=mnt/out", "bs=512", "conv=fsync"}, "P0+4196", "", "mnt/out",
     "dd: fsync failed for 'mnt/out': No space left on device\n8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout fsync - - ENOSPC\nout flush - - 0\n"},
    {"fdatasync_eio", "file out\nfault out fdatasync EIO", {"if=in", "of=mnt/out", "bs=512", "conv=fdatasync"}, "P0+4196", "", "mnt/out",
     "dd: fdatasync failed for 'mnt/out': Input/output error\n8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout fdatasync - - EIO\nout fsync - - 0\nout flush - - 0\n"},
    {"fdatasync_einval_falls_back_to_fsync", "file out\nfault out fdatasync EINVAL", {"if=in", "of=mnt/out", "bs=512", "conv=fdatasync"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout fdatasync - - EINVAL\nout fsync - - 0\nout flush - - 0\n"},
    {"fdatasync_einval_then_fsync_eio", "file out\nfault out fdatasync EINVAL\nfault out fsync EIO", {"if=in", "of=mnt/out", "bs=512", "conv=fdatasync"}, "P0+4196", "", "mnt/out",
     "dd: fsync failed for 'mnt/out': Input/output error\n8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout fdatasync - - EINVAL\nout fsync - - EIO\nout flush - - 0\n"},
    {"fsync_ok_when_only_fdatasync_fails", "file out\nfault out fdatasync EIO", {"if=in", "of=mnt/out", "bs=512", "conv=fsync"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout fsync - - 0\nout flush - - 0\n"},
    {"fsync_and_fdatasync_eio", "file out\nfault out fsync EIO\nfault out fdatasync EIO", {"if=in", "of=mnt/out", "bs=512", "conv=fsync,fdatasync"}, "P0+4196", "", "mnt/out",
     "dd: fdatasync failed for 'mnt/out': Input/output error\ndd: fsync failed for 'mnt/out': Input/output error\n8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout fdatasync - - EIO\nout fsync - - EIO\nout flush - - 0\n"},
    {"oflag_dsync_fdatasync_eio", "file out\nfault out fdatasync EIO always", {"if=in", "of=mnt/out", "bs=1024", "oflag=dsync"}, "P0+4196", "", "mnt/out",
     "4+1 records in\n4+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - 0\nout write 0 1024 1024\nout write 1024 1024 1024\nout write 2048 1024 1024\nout write 3072 1024 1024\nout write 4096 100 100\nout flush - - 0\n"},
    {"flush_eio_always", "file out\nfault out flush EIO always", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: closing output file 'mnt/out': Input/output error\n",
     "exit 1", "P0+4196",
     "out truncate 0 - 0\nout flush - - EIO\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout flush - - EIO\n"},
    {"flush_eio_once", "file out\nfault out flush EIO", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+4196",
     "out truncate 0 - 0\nout flush - - EIO\nout write 0 512 512\nout write 512 512 512\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 100 100\nout flush - - 0\n"},
    {"input_flush_eio_always", "file in size=4196\nfault in flush EIO always", {"if=mnt/in", "of=out", "bs=512"}, "", "", "out",
     "dd: closing input file 'mnt/in': Input/output error\n",
     "exit 1", "P0+4196",
     "in flush - - EIO\nin read 0 512 512\nin read 512 512 512\nin read 1024 512 512\nin read 1536 512 512\nin read 2048 512 512\nin read 2560 512 512\nin read 3072 512 512\nin read 3584 512 512\nin read 4096 512 100\nin read 4196 512 0\nin flush - - EIO\n"},
    {"truncate_at_seek_eio", "file out size=8192\nfault out truncate EIO at=1024", {"if=in", "of=mnt/out", "bs=512", "seek=2"}, "P0+4196", "", "mnt/out",
     "dd: failed to truncate to 1024 bytes in output file 'mnt/out': Input/output error\n8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+1024 P0+4196 P5220+2972",
     "out flush - - 0\nout truncate 1024 - EIO\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 512 512\nout write 4608 512 512\nout write 5120 100 100\nout flush - - 0\n"},
    {"truncate_on_open_eio", "file out size=8192\nfault out truncate EIO at=0", {"if=in", "of=mnt/out", "bs=512"}, "P0+4196", "", "mnt/out",
     "dd: failed to open 'mnt/out': Input/output error\n",
     "exit 1", "P0+8192",
     "out truncate 0 - EIO\n"},
    {"truncate_at_seek_eio_notrunc", "file out size=8192\nfault out truncate EIO always", {"if=in", "of=mnt/out", "bs=512", "seek=2", "conv=notrunc"}, "P0+4196", "", "mnt/out",
     "8+1 records in\n8+1 records out\n4196 bytes (4.2 kB, 4.1 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+1024 P0+4196 P5220+2972",
     "out flush - - 0\nout write 1024 512 512\nout write 1536 512 512\nout write 2048 512 512\nout write 2560 512 512\nout write 3072 512 512\nout write 3584 512 512\nout write 4096 512 512\nout write 4608 512 512\nout write 5120 100 100\nout flush - - 0\n"},
    {"loop_read_eio_direct", "file disk size=65536\nfault disk read EIO at=8192-12288 always\nloop disk", {"if=disk", "of=out", "bs=4096", "iflag=direct"}, "", "", "out",
     "dd: error reading 'disk': Input/output error\n2+0 records in\n2+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+8192",
     "disk read 0 4096 4096\ndisk read 4096 4096 4096\ndisk read 8192 4096 EIO\n"},
    {"loop_read_eio_direct_noerror", "file disk size=65536\nfault disk read EIO at=8192-12288 always\nloop disk", {"if=disk", "of=out", "bs=4096", "iflag=direct", "conv=noerror"}, "", "", "out",
     "dd: error reading 'disk': Input/output error\n2+0 records in\n2+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\n15+0 records in\n15+0 records out\n61440 bytes (61 kB, 60 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+8192 P12288+53248",
     "disk read 0 4096 4096\ndisk read 4096 4096 4096\ndisk read 8192 4096 EIO\ndisk read 12288 4096 4096\ndisk read 16384 4096 4096\ndisk read 20480 4096 4096\ndisk read 24576 4096 4096\ndisk read 28672 4096 4096\ndisk read 32768 4096 4096\ndisk read 36864 4096 4096\ndisk read 40960 4096 4096\ndisk read 45056 4096 4096\ndisk read 49152 4096 4096\ndisk read 53248 4096 4096\ndisk read 57344 4096 4096\ndisk read 61440 4096 4096\n"},
    {"loop_read_eio_direct_noerror_sync", "file disk size=65536\nfault disk read EIO at=8192-12288 always\nloop disk", {"if=disk", "of=out", "bs=4096", "iflag=direct", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'disk': Input/output error\n2+0 records in\n2+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\n15+1 records in\n16+0 records out\n65536 bytes (66 kB, 64 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+8192 Z4096 P12288+53248",
     "disk read 0 4096 4096\ndisk read 4096 4096 4096\ndisk read 8192 4096 EIO\ndisk read 12288 4096 4096\ndisk read 16384 4096 4096\ndisk read 20480 4096 4096\ndisk read 24576 4096 4096\ndisk read 28672 4096 4096\ndisk read 32768 4096 4096\ndisk read 36864 4096 4096\ndisk read 40960 4096 4096\ndisk read 45056 4096 4096\ndisk read 49152 4096 4096\ndisk read 53248 4096 4096\ndisk read 57344 4096 4096\ndisk read 61440 4096 4096\n"},
    {"loop_read_eio_direct_fullblock_noerror_sync", "file disk size=65536\nfault disk read EIO at=8192-12288 always\nloop disk", {"if=disk", "of=out", "bs=8192", "iflag=direct,fullblock", "conv=noerror,sync"}, "", "", "out",
     "dd: error reading 'disk': Input/output error\n1+0 records in\n1+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\n7+1 records in\n8+0 records out\n65536 bytes (66 kB, 64 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+8192 Z8192 P16384+49152",
     "disk read 0 8192 8192\ndisk read 8192 8192 EIO\ndisk read 16384 8192 8192\ndisk read 24576 8192 8192\ndisk read 32768 8192 8192\ndisk read 40960 8192 8192\ndisk read 49152 8192 8192\ndisk read 57344 8192 8192\n"},
    {"loop_read_eio_direct_bs512_noerror", "file disk size=65536\nfault disk read EIO at=8192-12288 always\nloop disk", {"if=disk", "of=out", "bs=512", "iflag=direct", "conv=noerror"}, "", "", "out",
     "dd: error reading 'disk': Input/output error\n16+0 records in\n16+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\ndd: error reading 'disk': Input/output error\n16+0 records in\n16+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\ndd: error reading 'disk': Input/output error\n16+0 records in\n16+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\ndd: error reading 'disk': Input/output error\n16+0 records in\n16+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\ndd: error reading 'disk': Input/output error\n16+0 records in\n16+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\ndd: error reading 'disk': Input/output error\n16+0 records in\n16+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\ndd: error reading 'disk': Input/output error\n16+0 records in\n16+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\ndd: error reading 'disk': Input/output error\n16+0 records in\n16+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\n120+0 records in\n120+0 records out\n61440 bytes (61 kB, 60 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+8192 P12288+53248",
     "128 lines, fnv1a 60a632e5334f7e26\n"},
    {"loop_write_eio_direct", "file disk size=65536 fill=zero\nfault disk write EIO at=16384-20480 always\nloop disk", {"if=in", "of=disk", "bs=4096", "oflag=direct"}, "P0+32768", "", "mnt/disk",
     "dd: error writing 'disk': Input/output error\n5+0 records in\n4+0 records out\n16384 bytes (16 kB, 16 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+16384 Z49152",
     "disk write 0 4096 4096\ndisk write 4096 4096 4096\ndisk write 8192 4096 4096\ndisk write 12288 4096 4096\ndisk write 16384 4096 EIO\n"},
    {"loop_write_eio_direct_noerror", "file disk size=65536 fill=zero\nfault disk write EIO at=16384-20480 always\nloop disk", {"if=in", "of=disk", "bs=4096", "oflag=direct", "conv=noerror"}, "P0+32768", "", "mnt/disk",
     "dd: error writing 'disk': Input/output error\n5+0 records in\n4+0 records out\n16384 bytes (16 kB, 16 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+16384 Z49152",
     "disk write 0 4096 4096\ndisk write 4096 4096 4096\ndisk write 8192 4096 4096\ndisk write 12288 4096 4096\ndisk write 16384 4096 EIO\n"},
    {"loop_writeback_eio_fsync", "file disk size=65536 fill=zero\nfault disk write EIO at=16384-20480 always\nloop disk", {"if=in", "of=disk", "bs=4096", "conv=fsync"}, "P0+32768", "", "mnt/disk",
     "dd: fsync failed for 'disk': Input/output error\n8+0 records in\n8+0 records out\n32768 bytes (33 kB, 32 KiB) copied, <T> s, <R>\n",
     "exit 1", "Z65536",
     "disk write 0 32768 EIO\n"},
    {"loop_writeback_eio_fdatasync", "file disk size=65536 fill=zero\nfault disk write EIO at=16384-20480 always\nloop disk", {"if=in", "of=disk", "bs=4096", "conv=fdatasync"}, "P0+32768", "", "mnt/disk",
     "dd: fdatasync failed for 'disk': Input/output error\n8+0 records in\n8+0 records out\n32768 bytes (33 kB, 32 KiB) copied, <T> s, <R>\n",
     "exit 1", "Z65536",
     "disk write 0 32768 EIO\ndisk fsync - - 0\n"},
    {"loop_writeback_eio_unreported", "file disk size=65536 fill=zero\nfault disk write EIO at=16384-20480 always\nloop disk", {"if=in", "of=disk", "bs=4096"}, "P0+32768", "", "mnt/disk",
     "8+0 records in\n8+0 records out\n32768 bytes (33 kB, 32 KiB) copied, <T> s, <R>\n",
     "exit 0", "Z65536",
     "disk write 0 32768 EIO\n"},
    {"loop_skip_past_end", "file disk size=65536\nloop disk", {"if=disk", "of=out", "bs=4096", "skip=20"}, "", "", "out",
     "dd: disk: cannot skip: Invalid argument\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n",
     "exit 1", "",
     ""},
    {"loop_skip_past_end_direct", "file disk size=65536\nloop disk", {"if=disk", "of=out", "bs=4096", "skip=20", "iflag=direct"}, "", "", "out",
     "dd: disk: cannot skip: Invalid argument\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n",
     "exit 1", "",
     ""},
    {"loop_seek_past_end", "file disk size=65536 fill=zero\nloop disk", {"if=in", "of=disk", "bs=4096", "seek=20"}, "P0+8192", "", "mnt/disk",
     "dd: disk: cannot seek: Invalid argument\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n",
     "exit 1", "Z65536",
     ""},
    {"loop_seek_to_end_direct", "file disk size=65536 fill=zero\nloop disk", {"if=in", "of=disk", "bs=4096", "seek=15", "oflag=direct"}, "P0+8192", "", "mnt/disk",
     "dd: error writing 'disk': No space left on device\n2+0 records in\n1+0 records out\n4096 bytes (4.1 kB, 4.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "Z61440 P0+4096",
     "disk write 61440 4096 4096\n"},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Fuse, FaultFsMatrix, ::testing::ValuesIn(kRows), RowName{});

}  // namespace
}  // namespace ddtime::fault
