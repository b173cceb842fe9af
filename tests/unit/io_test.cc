// SPDX-License-Identifier: GPL-3.0-or-later
// io over a scripted OS: the cache advice nocache and the O_DIRECT tail make,
// call for call as GNU dd 9.1 makes them.
#include "io.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "fakes/fake_os.h"

namespace ddtime {
namespace {

using testing::FakeOs;

std::vector<std::string> advice_calls(const FakeOs& os) {
  std::vector<std::string> advice;
  for (const std::string& call : os.calls) {
    if (call.rfind("fadvise ", 0) == 0 || call.rfind("lseek ", 0) == 0) advice.push_back(call);
  }
  return advice;
}

using Calls = std::vector<std::string>;

TEST(CacheAdvice, WaitsForAWhole128KiBBatchBeforeAdvising) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  input.transferred(100000, 100000);
  EXPECT_TRUE(advice_calls(os).empty());
  input.transferred(100000, 200000);
  EXPECT_EQ(advice_calls(os), Calls({"fadvise 0 0 131072"}));
}

TEST(CacheAdvice, AdvisesNothingUntilEnabled) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.transferred(1 << 20, 1 << 20);
  EXPECT_TRUE(advice_calls(os).empty());
}

TEST(CacheAdvice, FinishAdvisesExactlyThePendingRange) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  for (std::int64_t offset = 5120 + 512; offset <= 10240; offset += 512) input.transferred(512, offset);
  EXPECT_EQ(input.finish(10240), 0);
  EXPECT_EQ(advice_calls(os), Calls({"fadvise 0 5120 5120"}));
}

TEST(CacheAdvice, FinishWithNothingPendingAdvisesNothing) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  EXPECT_EQ(input.finish(0), 0);
  EXPECT_TRUE(advice_calls(os).empty());
}

TEST(CacheAdvice, ToEndOfFileStartsAtThePageOfThePendingBytes) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  input.transferred(1048576, 1048576);
  input.transferred(185991, 1234567);
  input.reach_end_of_file();
  EXPECT_EQ(input.finish(1234567), 0);
  EXPECT_EQ(advice_calls(os), Calls({"fadvise 0 0 1048576", "fadvise 0 1048576 131072", "fadvise 0 1179648 0"}));
}

TEST(CacheAdvice, AnInputThatCannotSeekCannotBeAdvised) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  input.reach_end_of_file();
  EXPECT_EQ(input.finish(-1), ESPIPE);
  EXPECT_TRUE(advice_calls(os).empty());
}

TEST(CacheAdvice, OutputAsksTheKernelForItsOffsetOnceThenCountsAsGnuDoes) {
  FakeOs os;
  os.output.assign(200000, 'x');
  ASSERT_TRUE(os.lseek(kOutputFd, 200000, SEEK_SET).ok());
  os.calls.clear();
  CacheAdvice output(os, kOutputFd);
  output.enable();
  output.transferred(100000, -1);
  output.transferred(100000, -1);
  output.transferred(100000, -1);
  // 200000 - 131072 - 68928 = 0, then the offset moves by the batch and the
  // new remainder: 200000 + 131072 + 37856 - 168928 = 200000.
  EXPECT_EQ(advice_calls(os),
            Calls({"lseek 1 0 " + std::to_string(SEEK_CUR), "fadvise 1 0 131072", "fadvise 1 200000 131072"}));
}

TEST(CacheAdvice, AnOutputThatCannotSeekReportsWhy) {
  FakeOs os;
  os.output_seekable = false;
  CacheAdvice output(os, kOutputFd);
  output.enable();
  output.reach_end_of_file();
  EXPECT_EQ(output.finish(-1), ESPIPE);
  EXPECT_EQ(output.finish(-1), ESPIPE) << "asked once; the answer stays";
  EXPECT_EQ(os.count_calls("lseek 1"), 1u);
}

}  // namespace
}  // namespace ddtime
