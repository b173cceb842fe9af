// SPDX-License-Identifier: GPL-3.0-or-later
// The faults a filesystem cannot express, injected with fault_shim.so
// (LD_PRELOAD): EINTR storms on every read, write and sync, write() returning
// 0, short reads and writes on pipes, ftruncate, fsync and fdatasync
// failing, and EFBIG from RLIMIT_FSIZE with SIGXFSZ ignored or not. Each row holds what GNU dd 9.1
// did under the same shim (see fault_case.h); "io" lists the injections, so a row also proves that
// the binary made the same calls as often as GNU dd did.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "e2e/harness.h"
#include "fault/fault_case.h"
#include "fault/fault_fs.h"

namespace ddtime::fault {
namespace {

using namespace std::chrono_literals;

class ShimMatrix : public e2e::DdTest, public ::testing::WithParamInterface<Case> {
 protected:
  static void SetUpTestSuite() {
    // A sanitizer build's runtime insists on coming first in the library
    // list; the shim only forwards to it, so that check is turned off. The
    // harness passes our ASAN_OPTIONS on to the child.
    std::string options;
    if (const char* inherited = std::getenv("ASAN_OPTIONS")) options = inherited;
    if (options.find("verify_asan_link_order") == std::string::npos) {
      options += (options.empty() ? "" : ":") + std::string("verify_asan_link_order=0");
      ::setenv("ASAN_OPTIONS", options.c_str(), 1);
    }
  }

  void SetUp() override {
    e2e::DdTest::SetUp();
    if (*DDTIME_PRELOAD_SKIP_REASON != '\0') GTEST_SKIP() << DDTIME_PRELOAD_SKIP_REASON;
  }
};

TEST_P(ShimMatrix, MatchesGnuDd) {
  const Case& c = GetParam();
  if (*c.input != '\0') write_file("in", expand_layout(c.input));
  e2e::Options o = opts(c.operands());
  o.timeout = 20s;
  const std::string log_path = path("shim.log").string();
  o.extra_env = {{"LD_PRELOAD", DDTIME_FAULT_SHIM}, {"DDTIME_SHIM", c.setup}, {"DDTIME_SHIM_LOG", log_path}};
  if (*c.stdin_pipe != '\0') o.in = e2e::Stdin::pipe(expand_layout(c.stdin_pipe));
  const e2e::Result r = dd(o);
  std::vector<std::string> injections;
  if (exists("shim.log")) {
    std::string text = read_file("shim.log");
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) injections.push_back(line);
  }
  const bool to_stdout = *c.out == '\0';
  std::string output = r.out;
  if (!to_stdout) output = exists(c.out) ? read_file(c.out) : std::string("<no file>");
  const std::string layout = to_stdout || exists(c.out) ? describe_layout(output) : output;
  EXPECT_ROW(c, r, layout, log_digest(injections));
}

// clang-format off
const Case kRows[] = {
    {"eintr_storm_copy", "read:0:eintr=3;write:1:eintr=3", {"if=in", "of=out", "bs=1000"}, "P0+5000", "", "out",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "read 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\n"},
    {"eintr_storm_reblock", "read:0:eintr=3;write:1:eintr=3", {"if=in", "of=out", "ibs=1000", "obs=300"}, "P0+5000", "", "out",
     "5+0 records in\n16+1 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "69 lines, fnv1a 0712e2fb4185cba1\n"},
    {"eintr_storm_sync", "read:0:eintr=2;write:1:eintr=2", {"if=in", "of=out", "bs=1024", "conv=sync"}, "P0+5000", "", "out",
     "4+1 records in\n5+0 records out\n5120 bytes (5.1 kB, 5.0 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000 Z120",
     "read 0 read:0:eintr=2\nread 0 read:0:eintr=2\nwrite 1 write:1:eintr=2\nwrite 1 write:1:eintr=2\nread 0 read:0:eintr=2\nread 0 read:0:eintr=2\nwrite 1 write:1:eintr=2\nwrite 1 write:1:eintr=2\nread 0 read:0:eintr=2\nread 0 read:0:eintr=2\nwrite 1 write:1:eintr=2\nwrite 1 write:1:eintr=2\nread 0 read:0:eintr=2\nread 0 read:0:eintr=2\nwrite 1 write:1:eintr=2\nwrite 1 write:1:eintr=2\nread 0 read:0:eintr=2\nread 0 read:0:eintr=2\nwrite 1 write:1:eintr=2\nwrite 1 write:1:eintr=2\nread 0 read:0:eintr=2\nread 0 read:0:eintr=2\n"},
    {"eintr_storm_fullblock_pipe", "read:0:eintr=3;write:1:eintr=3", {"of=out", "bs=4096", "iflag=fullblock"}, "", "P0+5000", "out",
     "1+1 records in\n1+1 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "read 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nwrite 1 write:1:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\nread 0 read:0:eintr=3\n"},
    {"eintr_storm_skip_seek_pipe", "read:0:eintr=3;write:1:eintr=3", {"of=out", "bs=512", "skip=2", "seek=1"}, "", "P0+5000", "out",
     "7+1 records in\n7+1 records out\n3976 bytes (4.0 kB, 3.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "Z512 P1024+3976",
     "57 lines, fnv1a 5553102f92f59ad9\n"},
    {"eintr_storm_stdout_pipe", "read:0:eintr=3;write:1:eintr=3", {"bs=700"}, "", "P0+5000", "",
     "7+1 records in\n7+1 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "51 lines, fnv1a ebe1e2c8a22edd61\n"},
    {"eintr_storm_fsync", "fsync:1:eintr=3", {"if=in", "of=out", "bs=1000", "conv=fsync"}, "P0+5000", "", "out",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "fsync 1 fsync:1:eintr=3\nfsync 1 fsync:1:eintr=3\nfsync 1 fsync:1:eintr=3\n"},
    {"eintr_storm_fdatasync", "fdatasync:1:eintr=3", {"if=in", "of=out", "bs=1000", "conv=fdatasync"}, "P0+5000", "", "out",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "fdatasync 1 fdatasync:1:eintr=3\nfdatasync 1 fdatasync:1:eintr=3\nfdatasync 1 fdatasync:1:eintr=3\n"},
    {"eintr_storm_ftruncate", "ftruncate:1:eintr=3", {"if=in", "of=out", "bs=1000", "seek=1"}, "P0+5000", "", "out",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "Z1000 P0+5000",
     "ftruncate 1 ftruncate:1:eintr=3\nftruncate 1 ftruncate:1:eintr=3\nftruncate 1 ftruncate:1:eintr=3\n"},
    {"write_zero_first", "write:1:zero:times=1", {"if=in", "of=out", "bs=1000"}, "P0+5000", "", "out",
     "dd: error writing 'out': No space left on device\n1+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n",
     "exit 1", "",
     "write 1 write:1:zero:times=1\n"},
    {"write_zero_middle", "write:1:zero:after=2:times=1", {"if=in", "of=out", "bs=1000"}, "P0+5000", "", "out",
     "dd: error writing 'out': No space left on device\n3+0 records in\n2+0 records out\n2000 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2000",
     "write 1 write:1:zero:after=2:times=1\n"},
    {"write_zero_middle_noerror", "write:1:zero:after=2:times=1", {"if=in", "of=out", "bs=1000", "conv=noerror"}, "P0+5000", "", "out",
     "dd: error writing 'out': No space left on device\n3+0 records in\n2+0 records out\n2000 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2000",
     "write 1 write:1:zero:after=2:times=1\n"},
    {"write_zero_reblock", "write:1:zero:after=1:times=1", {"if=in", "of=out", "ibs=1000", "obs=1500"}, "P0+5000", "", "out",
     "dd: writing to 'out': No space left on device\n3+0 records in\n1+0 records out\n1500 bytes (1.5 kB, 1.5 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+1500",
     "write 1 write:1:zero:after=1:times=1\n"},
    {"write_zero_after_short", "write:1:short=300:times=1;write:1:zero:times=1", {"if=in", "of=out", "bs=1000"}, "P0+5000", "", "out",
     "dd: error writing 'out': No space left on device\n1+0 records in\n0+0 records out\n300 bytes copied, <T> s, <R>\n",
     "exit 1", "P0+300",
     "write 1 write:1:short=300:times=1\nwrite 1 write:1:zero:times=1\n"},
    {"write_zero_pipe", "write:1:zero:after=1:times=1", {"bs=1000"}, "", "P0+5000", "",
     "dd: error writing 'standard output': No space left on device\n2+0 records in\n1+0 records out\n1000 bytes (1.0 kB) copied, <T> s, <R>\n",
     "exit 1", "P0+1000",
     "write 1 write:1:zero:after=1:times=1\n"},
    {"ftruncate_eio_regular", "ftruncate:1:EIO", {"if=in", "of=out", "bs=1000", "seek=1"}, "P0+5000", "", "out",
     "dd: failed to truncate to 1000 bytes in output file 'out': Input/output error\n5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "Z1000 P0+5000",
     "ftruncate 1 ftruncate:1:EIO\n"},
    {"ftruncate_eperm_regular_seek_bytes", "ftruncate:1:EPERM", {"if=in", "of=out", "bs=1000", "seek=1500", "oflag=seek_bytes"}, "P0+5000", "", "out",
     "dd: failed to truncate to 1500 bytes in output file 'out': Operation not permitted\n5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "Z1500 P0+5000",
     "ftruncate 1 ftruncate:1:EPERM\n"},
    {"ftruncate_einval_dev_null", "ftruncate:1:EINVAL", {"if=in", "of=/dev/null", "bs=1000", "seek=1"}, "P0+5000", "", "",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "",
     "ftruncate 1 ftruncate:1:EINVAL\n"},
    {"fsync_eio", "fsync:1:EIO", {"if=in", "of=out", "bs=1000", "conv=fsync"}, "P0+5000", "", "out",
     "dd: fsync failed for 'out': Input/output error\n5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+5000",
     "fsync 1 fsync:1:EIO\n"},
    {"fdatasync_enosys_falls_back", "fdatasync:1:ENOSYS", {"if=in", "of=out", "bs=1000", "conv=fdatasync"}, "P0+5000", "", "out",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "fdatasync 1 fdatasync:1:ENOSYS\n"},
    {"fdatasync_enosys_fsync_eio", "fdatasync:1:ENOSYS;fsync:1:EIO", {"if=in", "of=out", "bs=1000", "conv=fdatasync"}, "P0+5000", "", "out",
     "dd: fsync failed for 'out': Input/output error\n5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+5000",
     "fdatasync 1 fdatasync:1:ENOSYS\nfsync 1 fsync:1:EIO\n"},
    {"pipe_short_read1", "read:0:short=1", {"of=out", "bs=1000"}, "", "P0+5000", "out",
     "0+5000 records in\n0+5000 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "5001 lines, fnv1a 975de3d48d764dff\n"},
    {"pipe_short_read1_fullblock", "read:0:short=1", {"of=out", "bs=1000", "iflag=fullblock"}, "", "P0+5000", "out",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "5001 lines, fnv1a 975de3d48d764dff\n"},
    {"pipe_short_write1", "write:1:short=1", {"if=in", "bs=1000"}, "P0+5000", "", "",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "5000 lines, fnv1a c64ebce7e1ceb175\n"},
    {"pipe_short_read100", "read:0:short=100", {"of=out", "bs=1000"}, "", "P0+5000", "out",
     "0+50 records in\n0+50 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "51 lines, fnv1a 9677f077edf84fa3\n"},
    {"pipe_short_read100_fullblock", "read:0:short=100", {"of=out", "bs=1000", "iflag=fullblock"}, "", "P0+5000", "out",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "51 lines, fnv1a 9677f077edf84fa3\n"},
    {"pipe_short_write100", "write:1:short=100", {"if=in", "bs=1000"}, "P0+5000", "", "",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "50 lines, fnv1a d8bd662282347a49\n"},
    {"pipe_short_read999", "read:0:short=999", {"of=out", "bs=1000"}, "", "P0+5000", "out",
     "0+6 records in\n0+6 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "read 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\n"},
    {"pipe_short_read999_fullblock", "read:0:short=999", {"of=out", "bs=1000", "iflag=fullblock"}, "", "P0+5000", "out",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "read 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\nread 0 read:0:short=999\n"},
    {"pipe_short_write999", "write:1:short=999", {"if=in", "bs=1000"}, "P0+5000", "", "",
     "5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "write 1 write:1:short=999\nwrite 1 write:1:short=999\nwrite 1 write:1:short=999\nwrite 1 write:1:short=999\nwrite 1 write:1:short=999\nwrite 1 write:1:short=999\nwrite 1 write:1:short=999\nwrite 1 write:1:short=999\nwrite 1 write:1:short=999\nwrite 1 write:1:short=999\n"},
    {"pipe_short_read_count_warning", "read:0:short=100", {"of=out", "bs=1000", "count=3"}, "", "P0+5000", "out",
     "dd: warning: partial read (100 bytes); suggest iflag=fullblock\n0+3 records in\n0+3 records out\n300 bytes copied, <T> s, <R>\n",
     "exit 0", "P0+300",
     "read 0 read:0:short=100\nread 0 read:0:short=100\nread 0 read:0:short=100\n"},
    {"pipe_short_read_reblock_sync", "read:0:short=300", {"of=out", "ibs=1000", "obs=512", "conv=sync"}, "", "P0+5000", "out",
     "0+17 records in\n33+1 records out\n17000 bytes (17 kB, 17 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+300 Z700 P300+300 Z700 P600+300 Z700 P900+300 Z700 P1200+300 Z700 P1500+300 Z700 P1800+300 Z700 P2100+300 Z700 P2400+300 Z700 P2700+300 Z700 P3000+300 Z700 P3300+300 Z700 P3600+300 Z700 P3900+300 Z700 P4200+300 Z700 P4500+300 Z700 P4800+200 Z800",
     "read 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\nread 0 read:0:short=300\n"},
    {"read_eagain_once", "read:0:EAGAIN:after=2:times=1", {"if=in", "of=out", "bs=1000"}, "P0+5000", "", "out",
     "dd: error reading 'in': Resource temporarily unavailable\n2+0 records in\n2+0 records out\n2000 bytes (2.0 kB, 2.0 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2000",
     "read 0 read:0:EAGAIN:after=2:times=1\n"},
    {"read_eio_pipe_noerror_sync", "read:0:EIO:after=1:times=1", {"of=out", "bs=1000", "conv=noerror,sync"}, "", "P0+5000", "out",
     "dd: error reading 'standard input': Input/output error\n1+0 records in\n1+0 records out\n1000 bytes (1.0 kB) copied, <T> s, <R>\n5+1 records in\n6+0 records out\n6000 bytes (6.0 kB, 5.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+1000 Z1000 P1000+4000",
     "read 0 read:0:EIO:after=1:times=1\n"},
    {"read_eio_pipe_noerror", "read:0:EIO:after=1:times=2", {"of=out", "bs=1000", "conv=noerror"}, "", "P0+5000", "out",
     "dd: error reading 'standard input': Input/output error\n1+0 records in\n1+0 records out\n1000 bytes (1.0 kB) copied, <T> s, <R>\ndd: error reading 'standard input': Input/output error\n1+0 records in\n1+0 records out\n1000 bytes (1.0 kB) copied, <T> s, <R>\n5+0 records in\n5+0 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n",
     "exit 0", "P0+5000",
     "read 0 read:0:EIO:after=1:times=2\nread 0 read:0:EIO:after=1:times=2\n"},
    {"write_eio_pipe", "write:1:EIO:after=1:times=1", {"bs=1000"}, "", "P0+5000", "",
     "dd: error writing 'standard output': Input/output error\n2+0 records in\n1+0 records out\n1000 bytes (1.0 kB) copied, <T> s, <R>\n",
     "exit 1", "P0+1000",
     "write 1 write:1:EIO:after=1:times=1\n"},
    {"efbig_ulimit_xfsz_ignored", "rlimit:fsize:2500;signal:XFSZ:ignore", {"if=in", "of=out", "bs=1000"}, "P0+5000", "", "out",
     "dd: error writing 'out': File too large\n3+0 records in\n2+0 records out\n2500 bytes (2.5 kB, 2.4 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2500",
     ""},
    {"efbig_ulimit_xfsz_ignored_reblock", "rlimit:fsize:2500;signal:XFSZ:ignore", {"if=in", "of=out", "ibs=1000", "obs=1500"}, "P0+5000", "", "out",
     "dd: writing to 'out': File too large\n3+0 records in\n1+1 records out\n2500 bytes (2.5 kB, 2.4 KiB) copied, <T> s, <R>\n",
     "exit 1", "P0+2500",
     ""},
    {"efbig_ulimit_xfsz_default", "rlimit:fsize:2500", {"if=in", "of=out", "bs=1000"}, "P0+5000", "", "out",
     "",
     "signal SIGXFSZ", "P0+2500",
     ""},
    {"ftruncate_efbig_ulimit_xfsz_ignored", "rlimit:fsize:1024;signal:XFSZ:ignore", {"if=/dev/null", "of=out", "bs=512", "seek=4"}, "", "", "out",
     "dd: failed to truncate to 2048 bytes in output file 'out': File too large\n0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n",
     "exit 0", "",
     ""},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Preload, ShimMatrix, ::testing::ValuesIn(kRows), RowName{});

}  // namespace
}  // namespace ddtime::fault
