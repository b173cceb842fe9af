// SPDX-License-Identifier: GPL-3.0-or-later
// One run over a scripted OS, without the driver: what Run::perform()
// hands back (the bytes, the ending, what it owes the user) and what it
// asks of the OS in which order, for the endings GNU dd distinguishes.
#include "bench/run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"
#include "fakes/recording_events.h"

namespace ddtime {
namespace {

using testing::block_size;
using testing::Bytes;
using testing::Fail;
using testing::FakeOs;
using testing::FixedClock;
using testing::RecordingEvents;

struct Performed {
  RunResult result;
  RecordingEvents events;
};

Performed perform(FakeOs& os, const Settings& settings, const Plan& plan = {}) {
  Performed out;
  FixedClock clock;
  RunWindow window(clock, false);
  Run run(os, out.events, window, settings, testing::kinds_of(os), plan);
  out.result = run.perform();
  return out;
}

std::size_t position_of(const FakeOs& os, const std::string& call) {
  const auto at = std::find(os.calls.begin(), os.calls.end(), call);
  return static_cast<std::size_t>(at - os.calls.begin());
}

TEST(Run, ACopyThatFinishesOwesTheSummaryAndCountsEveryRecord) {
  FakeOs os;
  os.input.assign(1000, 'x');
  const Performed done = perform(os, block_size(512));
  EXPECT_EQ(done.result.ending, Ending::kFinished);
  EXPECT_EQ(done.result.report, RunResult::Report::kSummary);
  EXPECT_EQ(done.result.exit_status, 0);
  EXPECT_EQ(done.result.stats.full_records_in, 1);
  EXPECT_EQ(done.result.stats.partial_records_in, 1);
  EXPECT_EQ(done.result.stats.bytes_out, 1000);
  EXPECT_EQ(os.output_text(), std::string(1000, 'x'));
}

TEST(Run, TheFlushComesAfterTheLastWriteAndBeforeTheClose) {
  FakeOs os;
  os.input.assign(100, 'x');
  Settings settings = block_size(512);
  settings.conv.fsync = true;
  perform(os, settings);
  const std::size_t last_write = position_of(os, "write 1 100");
  const std::size_t fsync = position_of(os, "fsync 1");
  const std::size_t close = position_of(os, "close 1");
  ASSERT_LT(fsync, os.calls.size());
  EXPECT_LT(last_write, fsync);
  EXPECT_LT(fsync, close);
}

TEST(Run, AFailedFlushFailsTheRunButStillOwesTheSummary) {
  FakeOs os;
  os.input.assign(100, 'x');
  os.fsync_error = EIO;
  Settings settings = block_size(512);
  settings.conv.fsync = true;
  const Performed done = perform(os, settings);
  EXPECT_EQ(done.result.exit_status, 1);
  EXPECT_EQ(done.result.report, RunResult::Report::kSummary);
}

// GNU ends the copy there and still flushes, closes and reports: the copy
// returns (kFinished) with status 1.
TEST(Run, AReadErrorWithoutNoerrorEndsTheCopyWithStatusOneAndTheBytesSoFar) {
  FakeOs os;
  os.input.assign(2048, 'x');
  os.on_read({Bytes(512), Fail(EIO)});
  const Performed done = perform(os, block_size(512));
  EXPECT_EQ(done.result.ending, Ending::kFinished);
  EXPECT_EQ(done.result.exit_status, 1);
  EXPECT_EQ(done.result.report, RunResult::Report::kSummary);
  EXPECT_EQ(done.result.stats.bytes_out, 512);
}

TEST(Run, AWriteErrorEndsTheCopyWithStatusOneAndSaysSo) {
  FakeOs os;
  os.input.assign(1024, 'x');
  os.on_write({Fail(ENOSPC)});
  const Performed done = perform(os, block_size(512));
  EXPECT_EQ(done.result.exit_status, 1);
  EXPECT_EQ(done.result.report, RunResult::Report::kSummary);
  EXPECT_EQ(done.result.stats.bytes_out, 0);
  ASSERT_FALSE(done.events.notices.empty());
  EXPECT_EQ(done.events.notices.front().err, ENOSPC);
}

TEST(Run, NothingToReadIsAFinishedRunOfZeroRecords) {
  FakeOs os;
  const Performed done = perform(os, block_size(512));
  EXPECT_EQ(done.result.ending, Ending::kFinished);
  EXPECT_EQ(done.result.stats.full_records_in + done.result.stats.partial_records_in, 0);
  EXPECT_TRUE(os.output.empty());
}

TEST(Run, CountStopsTheCopyAtItsRecord) {
  FakeOs os;
  os.input.assign(4096, 'x');
  Settings settings = block_size(512);
  settings.max_records = 3;
  const Performed done = perform(os, settings);
  EXPECT_EQ(done.result.stats.bytes_out, 1536);
  EXPECT_EQ(os.count_calls("read 0"), 3u);
}

}  // namespace
}  // namespace ddtime
