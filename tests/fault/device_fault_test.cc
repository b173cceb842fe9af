// SPDX-License-Identifier: GPL-3.0-or-later
// Rule 2 of issue 28, a block device's half, on a real one: a loop device
// over a faultfs file whose block 16 fails every write (EIO), as a disk's
// bad sector does. A copy in turn stops there; one in random order, at a
// depth or with jobs has written blocks past it. The device keeps them
// (nothing is cut or written again), and the report names how many and
// which, in agreement with what the device's backing file holds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "fault/fault_device_test.h"
#include "fault/fault_fs.h"

namespace ddtime::fault {
namespace {

constexpr std::int64_t kBlock = 4096;
constexpr std::int64_t kBlocks = 64;
constexpr std::int64_t kBadBlock = 16;

class BadSectorOnALoopDevice : public FaultDeviceTest {
 protected:
  void SetUp() override {
    FaultDeviceTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NO_FATAL_FAILURE(attach("disk", "file disk size=" + std::to_string(kBlocks * kBlock) + " fill=zero\n"));
    if (IsSkipped()) return;
    ASSERT_NO_FATAL_FAILURE(zero_the_disk());
    input_ = e2e::pattern(static_cast<std::size_t>(kBlocks * kBlock), 5);
    write_file("in", input_);
  }
  // The backing file all zeros again, with its bad sector. The loop device
  // keeps its descriptor: faultfs serves files by name, and with direct_io
  // nothing of the old bytes stays cached on the way.
  void zero_the_disk() {
    ASSERT_EQ(fs_.control("file disk size=" + std::to_string(kBlocks * kBlock) + " fill=zero\n"), "");
    ASSERT_EQ(fs_.control("fault disk write EIO at=" + std::to_string(kBadBlock * kBlock) + "-" +
                          std::to_string((kBadBlock + 1) * kBlock) + " times=always\n"),
              "");
  }

  // The blocks of the device's backing file that hold the input's bytes
  // for that block (the rest are still zero).
  std::vector<bool> blocks_on_disk() const {
    std::ifstream file(fs_.mount_point() / "disk", std::ios::binary);
    const std::string disk((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<bool> written(kBlocks);
    for (std::int64_t block = 0; block < kBlocks; ++block) {
      const auto at = static_cast<std::size_t>(block * kBlock);
      written[static_cast<std::size_t>(block)] =
          disk.size() >= at + kBlock && disk.compare(at, kBlock, input_, at, kBlock) == 0;
      if (!written[static_cast<std::size_t>(block)]) {
        EXPECT_EQ(disk.compare(at, kBlock, std::string(kBlock, '\0')), 0)
            << "block " << block << " holds neither the copy's bytes nor the old zeros";
      }
    }
    return written;
  }

  // Runs the copy and checks what it said against the backing file; true
  // when blocks past the bad one were written (and named), false when the
  // device holds a copy in turn alone (and nothing was said).
  bool copy_and_check(const std::vector<std::string>& order) {
    std::vector<std::string> args{"if=in", "of=" + device_, "bs=4096", "oflag=direct"};
    args.insert(args.end(), order.begin(), order.end());
    const e2e::Result r = ddtime(args);
    EXPECT_STATUS(r, "exit 1");
    EXPECT_NE(r.err.find("ddtime: error writing '" + device_ + "': Input/output error\n"), std::string::npos) << r.err;
    const std::vector<bool> written = blocks_on_disk();
    EXPECT_FALSE(written[kBadBlock]);
    std::smatch said;
    const std::regex words("ddtime: '" + device_ +
                           "' holds the copy in turn before block (\\d+) and (\\d+) blocks? of 4096 B written out "
                           "of order past it \\(blocks? (\\d+)(?: to (\\d+))?\\)\n");
    if (!std::regex_search(r.err, said, words)) {
      // Nothing said: then nothing may lie past the blocks in place from
      // the start, which end at the bad block or before it.
      const auto in_turn = std::find(written.begin(), written.end(), false) - written.begin();
      EXPECT_LE(in_turn, kBadBlock) << r.err;
      EXPECT_EQ(std::find(written.begin() + in_turn, written.end(), true), written.end())
          << "a block past " << in_turn << " was written and not named:\n"
          << r.err;
      return false;
    }
    const std::int64_t stop = std::stoll(said[1]);
    const std::int64_t first = std::stoll(said[3]);
    const std::int64_t last = said[4].matched ? std::stoll(said[4]) : first;
    EXPECT_LE(stop, kBadBlock);
    std::int64_t kept = 0;
    std::int64_t lowest = kBlocks;
    std::int64_t highest = -1;
    for (std::int64_t block = stop; block < kBlocks; ++block) {
      if (!written[static_cast<std::size_t>(block)]) continue;
      ++kept;
      lowest = std::min(lowest, block);
      highest = std::max(highest, block);
    }
    EXPECT_EQ(std::stoll(said[2]), kept) << r.err;
    EXPECT_EQ(first, lowest) << r.err;
    EXPECT_EQ(last, highest) << r.err;
    EXPECT_GT(highest, kBadBlock) << "a block past the bad one was written, and is kept";
    // Every block below where the report says one copy would stop is in place.
    for (std::int64_t block = 0; block < stop; ++block) EXPECT_TRUE(written[static_cast<std::size_t>(block)]) << block;
    return true;
  }

  std::string input_;
};

// Seed 3's order reaches blocks past 16 before 16 itself, whatever the timing.
TEST_F(BadSectorOnALoopDevice, ARandomCopyAtDepthOneSaysWhichBlocksItWroteOutOfOrder) {
  EXPECT_TRUE(copy_and_check({"--random=3"}));
}

TEST_F(BadSectorOnALoopDevice, ARandomCopyAtDepthEightSaysWhichBlocksItWroteOutOfOrder) {
  EXPECT_TRUE(copy_and_check({"--random=3", "--iodepth=8"}));
}

// Two jobs: job 0 writes blocks 0-31 and meets the bad block 16 after 16
// writes, job 1 writes from 32 meanwhile. Whether job 1 has written any
// block by then is the scheduler's choice (a loaded machine may start its
// thread late, and CI's once did with four jobs); every run's words must
// agree with the disk, and of a few runs one must have written past it.
TEST_F(BadSectorOnALoopDevice, JobsInTurnSayWhichBlocksTheyWrotePastTheBadOne) {
  constexpr int kTries = 5;
  bool wrote_past = false;
  for (int attempt = 0; attempt < kTries && !wrote_past && !HasFailure(); ++attempt) {
    if (attempt > 0) ASSERT_NO_FATAL_FAILURE(zero_the_disk());
    wrote_past = copy_and_check({"--jobs=2"});
  }
  EXPECT_TRUE(wrote_past) << "in " << kTries << " runs job 1 never wrote a block before job 0's error stopped it";
}

}  // namespace
}  // namespace ddtime::fault
