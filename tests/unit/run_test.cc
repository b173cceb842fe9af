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
#include "fakes/fake_ring.h"
#include "fakes/recording_events.h"

namespace ddtime {
namespace {

using testing::block_size;
using testing::Bytes;
using testing::Fail;
using testing::FakeOs;
using testing::FakeRing;
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

// A queued engine whose ring copies through the test's FakeOs and, when
// released, finds a SIGINT pending: as libaio's io_destroy, which waits
// for the kernel's RCU grace period, leaves time for one to arrive.
FakeOs* slow_release_os = nullptr;
RingOpened open_released_slowly(unsigned depth, bool /*for_another_thread*/) {
  auto ring = std::make_unique<FakeRing>(*slow_release_os, depth);
  ring->torn_down = [] { signals_internal::any_pending = 1; };
  return {std::move(ring), 0};
}
constexpr RingEngine kReleasedSlowly[] = {
    {EngineChoice::kLibaio, "slow", open_released_slowly, RingEngine::Opens::kBeforeFiles, false, EngineChoice::kLibaio,
     std::nullopt, std::nullopt, false},
};

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

TEST(Run, ASigintWhileTheRingIsReleasedEndsTheRunAsInterrupted) {
  FakeOs os;
  os.input.assign(4096, 'x');
  slow_release_os = &os;
  Plan plan;
  plan.engine = EngineChoice::kLibaio;
  plan.iodepth = 2;
  plan.iodepth_given = true;
  Performed done;
  done.events.stop_on_signal = true;
  {
    FixedClock clock;
    RunWindow window(clock, false);
    ddtime::Run run(os, done.events, window, block_size(512), testing::kinds_of(os), plan, nullptr, kReleasedSlowly);
    done.result = run.perform();
  }
  EXPECT_EQ(done.events.signals_handled, 1);
  EXPECT_EQ(done.result.ending, Ending::kInterrupted) << "no report that says the run went on";
  EXPECT_EQ(done.result.stats.bytes_out, 4096) << "the copy itself had ended";
  EXPECT_FALSE(signals::pending());
}

}  // namespace
}  // namespace ddtime
