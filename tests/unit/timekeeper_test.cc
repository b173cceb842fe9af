// SPDX-License-Identifier: GPL-3.0-or-later
// --time, --ramp and --timeline over simulated time: a clock that moves a
// millisecond per read. The Timekeeper's own rules (the clock read at a
// stride that keeps a reading about every millisecond), then whole timed
// runs over FakeOs: passes over the range, every record counted, the ramp
// left out, the output holding the range's bytes.
#include "measure/timekeeper.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "bench/run.h"
#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"
#include "fakes/recording_events.h"

namespace ddtime {
namespace {

using testing::FakeOs;
using testing::in_to_out;
using testing::named_files;
using testing::RecordingEvents;

constexpr std::int64_t kMs = 1'000'000;

class StepClock final : public Clock {
 public:
  std::int64_t now_ns() noexcept override {
    ++readings;
    return now;
  }
  std::int64_t now = 1'000 * kMs;
  std::int64_t readings = 0;
};

// Each read takes a millisecond.
class SimulatedTime final : public OsWrapper {
 public:
  SimulatedTime(Os& target, StepClock& clock) : OsWrapper(target), clock_(clock) {}
  IoResult read(int fd, void* buffer, std::size_t length) noexcept override {
    clock_.now += kMs;
    return OsWrapper::read(fd, buffer, length);
  }
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override {
    clock_.now += kMs;
    return OsWrapper::pread(fd, buffer, length, offset);
  }

 private:
  StepClock& clock_;
};

Stats moved(std::int64_t records, std::int64_t bs) {
  Stats stats;
  stats.full_records_in = stats.full_records_out = records;
  stats.bytes_in = stats.bytes_out = records * bs;
  return stats;
}

TEST(Timekeeper, SaysStopOnlyOnceTheTimeIsUp) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.time_ns = 10 * kMs});
  keeper.start(nullptr);
  clock.now += 9 * kMs;
  EXPECT_FALSE(keeper.tick(moved(9, 512)));
  clock.now += 1 * kMs;
  EXPECT_TRUE(keeper.tick(moved(10, 512)));
  EXPECT_EQ(keeper.ended_by(), TimedEnd::kTime);
}

TEST(Timekeeper, SamplesTheCumulativeBytesAtEachIntervalAndTheCopysEnd) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.time_ns = 100 * kMs, .timeline = true});
  keeper.start(nullptr);
  // --time=100ms: a twentieth of it, 5 ms, so that there are 20 samples.
  EXPECT_EQ(keeper.timeline().interval_ns, 5 * kMs);
  clock.now += 5 * kMs;
  keeper.tick(moved(5, 100));
  clock.now += 7 * kMs;  // a late tick: the next one is still due at 15 ms
  keeper.tick(moved(12, 100));
  clock.now += 1 * kMs;
  keeper.copy_ended(moved(13, 100));
  const std::vector<TimelineSample>& samples = keeper.timeline().samples;
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].end_ns, 5 * kMs);
  EXPECT_EQ(samples[0].bytes, 500);
  EXPECT_EQ(samples[1].end_ns, 12 * kMs);
  EXPECT_EQ(samples[1].records, 12);
  EXPECT_EQ(samples[2].end_ns, 13 * kMs);
  EXPECT_EQ(samples[2].bytes, 1300);
}

TEST(Timekeeper, AnUntimedRunsTimelineDoublesItsIntervalRatherThanHoldMoreThanFortyFineSamples) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.timeline = true});
  keeper.start(nullptr);
  const std::int64_t first = keeper.timeline().interval_ns;
  EXPECT_EQ(first, Timekeeper::kLongestInterval / 64);
  std::int64_t records = 0;
  for (int i = 0; i < 400; ++i) {
    clock.now += first;
    keeper.tick(moved(++records, 512));
  }
  const Timeline& timeline = keeper.timeline();
  EXPECT_LE(timeline.samples.size(), Timekeeper::kMostFineSamples);
  EXPECT_GE(timeline.samples.size(), Timekeeper::kMostFineSamples / 2);
  EXPECT_GT(timeline.interval_ns, first);
  // Every sample kept ends an interval on the doubled grid, in order.
  for (std::size_t i = 0; i < timeline.samples.size(); ++i) {
    EXPECT_EQ(timeline.samples[i].end_ns % timeline.interval_ns, 0) << i;
    if (i > 0) {
      EXPECT_GT(timeline.samples[i].end_ns, timeline.samples[i - 1].end_ns);
    }
  }
}

TEST(Timekeeper, TheRampIsLeftOutAndTheTimeCountsFromItsEnd) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  const std::int64_t opened = window.start_ns();
  Timekeeper keeper(window, {.time_ns = 10 * kMs, .ramp_ns = 5 * kMs, .timeline = true});
  keeper.start(nullptr);
  clock.now += 5 * kMs;
  EXPECT_FALSE(keeper.tick(moved(50, 10)));
  EXPECT_EQ(window.start_ns(), opened + 5 * kMs);
  EXPECT_EQ(keeper.ramp_stats().full_records_out, 50);
  EXPECT_EQ(keeper.ramp_elapsed_ns(), 5 * kMs);
  clock.now += 9 * kMs;
  EXPECT_FALSE(keeper.tick(moved(59, 10)));
  clock.now += 1 * kMs;
  EXPECT_TRUE(keeper.tick(moved(60, 10)));
  ASSERT_FALSE(keeper.timeline().samples.empty());
  EXPECT_EQ(keeper.timeline().samples.back().bytes, 100);  // the ramp's 500 bytes left out
}

// --mix: each sample says how many of its records were reads, by the
// choice that made them, the ramp's left out.
TEST(Timekeeper, WithMixEachSampleCountsTheReadsAmongItsRecordsAfterTheRamp) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.time_ns = 10 * kMs, .ramp_ns = 5 * kMs, .timeline = true});
  const MixChoice choice{70, 11};
  keeper.set_mix(choice, 4096, 1);
  keeper.start(nullptr);
  auto reads_below = [&](std::int64_t records) {
    std::int64_t reads = 0;
    for (std::int64_t record = 0; record < records; ++record) reads += choice.reads(0, record) ? 1 : 0;
    return reads;
  };
  clock.now += 5 * kMs;
  keeper.tick(moved(300, 4096));  // the ramp's end
  clock.now += 10 * kMs;
  EXPECT_TRUE(keeper.tick(moved(1300, 4096)));
  ASSERT_FALSE(keeper.timeline().samples.empty());
  const TimelineSample& last = keeper.timeline().samples.back();
  ASSERT_TRUE(last.read_records.has_value());
  EXPECT_EQ(*last.read_records, reads_below(1300) - reads_below(300));
  EXPECT_EQ(*last.read_bytes, *last.read_records * 4096);
  EXPECT_NEAR(static_cast<double>(*last.read_records) / 1000.0, 0.7, 0.06);
}

// --mix with --jobs: each job decides its own records by its own index,
// so the reads are counted per job, from the records each said it retired.
TEST(Timekeeper, WithMixAndJobsEachJobsRecordsAreCountedByItsOwnChoices) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.time_ns = 10 * kMs, .timeline = true});
  const MixChoice choice{30, 5};
  keeper.set_mix(choice, 4096, 3);
  keeper.start(nullptr);
  auto reads_below = [&](unsigned job, std::int64_t records) {
    std::int64_t reads = 0;
    for (std::int64_t record = 0; record < records; ++record) reads += choice.reads(job, record) ? 1 : 0;
    return reads;
  };
  const std::int64_t retired[] = {400, 250, 350};
  keeper.jobs_retired(retired);
  clock.now += 10 * kMs;
  EXPECT_TRUE(keeper.tick(moved(1000, 4096)));
  ASSERT_FALSE(keeper.timeline().samples.empty());
  const TimelineSample& last = keeper.timeline().samples.back();
  ASSERT_TRUE(last.read_records.has_value());
  EXPECT_EQ(*last.read_records, reads_below(0, 400) + reads_below(1, 250) + reads_below(2, 350));
  EXPECT_NE(*last.read_records, reads_below(0, 1000)) << "not job 0's choices over every record";
}

// --jobs asked, but the range made one part: job 0 copied alone, and the
// run's records are its own.
TEST(Timekeeper, WithMixAndJobsThatNeverToldTheRunsRecordsAreJobZeros) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.time_ns = 10 * kMs, .timeline = true});
  const MixChoice choice{50, 9};
  keeper.set_mix(choice, 512, 4);
  keeper.start(nullptr);
  clock.now += 10 * kMs;
  keeper.tick(moved(200, 512));
  std::int64_t reads = 0;
  for (std::int64_t record = 0; record < 200; ++record) reads += choice.reads(0, record) ? 1 : 0;
  ASSERT_FALSE(keeper.timeline().samples.empty());
  EXPECT_EQ(keeper.timeline().samples.back().read_records, reads);
}

TEST(Timekeeper, WithoutMixTheSamplesSayNoSides) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.time_ns = 10 * kMs, .timeline = true});
  keeper.start(nullptr);
  clock.now += 10 * kMs;
  keeper.tick(moved(10, 512));
  ASSERT_FALSE(keeper.timeline().samples.empty());
  EXPECT_FALSE(keeper.timeline().samples.back().read_records.has_value());
}

TEST(Timekeeper, SteadyEndsTheRunOnceTheLastWindowHoldsByBothDefinitions) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  const SteadyRule rule{10, 1, 5};
  Timekeeper keeper(window, {.time_ns = 1000 * kMs, .timeline = true, .steady = rule});
  keeper.start(nullptr);
  const std::int64_t interval = keeper.timeline().interval_ns;  // 50 ms
  // A rising start, then a flat rate of 1000 records an interval: the
  // window of five is steady once it holds only flat intervals.
  std::int64_t records = 0;
  const std::int64_t per_interval[] = {100, 300, 600, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
  int ended_at = -1;
  for (int i = 0; i < 10 && ended_at < 0; ++i) {
    clock.now += interval;
    records += per_interval[i];
    if (keeper.tick(moved(records, 512))) ended_at = i;
  }
  EXPECT_EQ(ended_at, 7);  // intervals 4..8 (0-based 3..7) are the first flat five
  EXPECT_EQ(keeper.ended_by(), TimedEnd::kSteady);
}

// --jobs' job 0 adds up every job's counts for the timekeeper: only at a
// reading of the clock, not at every reaped batch.
TEST(Timekeeper, MakesCountsThatCostSomethingOnlyWhenItReadsTheClock) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.time_ns = 100 * kMs});
  keeper.start(nullptr);
  std::int64_t records = 0;
  std::int64_t counted = 0;
  const std::int64_t readings_before = clock.readings;
  bool stopped = false;
  while (!stopped) {
    clock.now += 1000;
    ++records;
    stopped = keeper.due_counting([&] {
      ++counted;
      return moved(records, 512);
    });
  }
  // 100,000 batches a microsecond apart, the clock read at most every
  // kLongestStride of them: counted that often, and no more.
  EXPECT_GE(records, 100'000);
  EXPECT_EQ(counted, clock.readings - readings_before);
  EXPECT_LE(counted, records / Timekeeper::kLongestStride + 16);
}

TEST(Timekeeper, ReadsTheClockAboutEveryMillisecondWhateverThePace) {
  StepClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  Timekeeper keeper(window, {.time_ns = 1000 * kMs});
  keeper.start(nullptr);
  // A record every microsecond for 100 ms: the stride grows until a
  // reading comes about every millisecond.
  std::int64_t records = 0;
  for (int i = 0; i < 100'000; ++i) {
    clock.now += 1000;
    keeper.due(moved(++records, 512));
  }
  // The deadline is still met within a millisecond of the pace: at a
  // record per microsecond the copy stops by 1001 ms.
  bool stopped = false;
  while (!stopped && clock.now - window.start_ns() < 2000 * kMs) {
    clock.now += 1000;
    stopped = keeper.due(moved(++records, 512));
  }
  EXPECT_TRUE(stopped);
  EXPECT_LE(clock.now - window.start_ns(), 1002 * kMs);
  // The pace falls to a record every 10 ms: the next reading is at most
  // the longest stride away, and the time is noticed by then.
  Timekeeper slow(window, {.time_ns = 100 * kMs});
  window.start(nullptr);
  slow.start(nullptr);
  for (int i = 0; i < 1000; ++i) {
    clock.now += 1000;
    slow.due(moved(++records, 512));
  }
  stopped = false;
  int late = 0;
  while (!stopped) {
    clock.now += 10 * kMs;
    stopped = slow.due(moved(++records, 512));
    if (clock.now - window.start_ns() > 100 * kMs) ++late;
  }
  EXPECT_LE(late, Timekeeper::kLongestStride);
}

struct TimedRun {
  RunResult result;
  RecordingEvents events;
};

TimedRun run_timed(FakeOs& fake, const Settings& settings, const Plan& plan) {
  TimedRun out;
  StepClock clock;
  SimulatedTime os(fake, clock);
  RunWindow window(clock, false);
  Run run(os, out.events, window, settings, testing::kinds_of(os), plan);
  out.result = run.perform();
  return out;
}

TEST(TimedRun, GoesRoundTheRangeUntilTheTimeIsUpAndCountsEveryRecord) {
  std::vector<unsigned char> input(4 * 512 + 100);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<unsigned char>(i * 7);
  FakeOs fake = named_files(input);
  Plan plan;
  plan.time_ns = 50 * kMs;
  plan.engine = EngineChoice::kSync;
  const TimedRun done = run_timed(fake, in_to_out(512), plan);
  EXPECT_EQ(done.result.ending, Ending::kFinished);
  EXPECT_EQ(done.result.exit_status, 0);
  // A read a millisecond: about 50 records in 50 ms, 4 to a pass.
  const Stats& stats = done.result.stats;
  EXPECT_GE(stats.full_records_in, 48);
  EXPECT_LE(stats.full_records_in, 52);
  EXPECT_EQ(stats.partial_records_in, 0);
  EXPECT_EQ(stats.full_records_out, stats.full_records_in);
  EXPECT_EQ(stats.bytes_out, stats.full_records_out * 512);
  ASSERT_TRUE(done.result.timed);
  EXPECT_EQ(done.result.timed->range_blocks, 4);
  EXPECT_DOUBLE_EQ(done.result.timed->passes, static_cast<double>(stats.full_records_out) / 4);
  EXPECT_EQ(done.result.timed->ended_by, TimedEnd::kTime);
  // The output holds the range's whole blocks, each where the copy puts it.
  EXPECT_EQ(fake.output, std::vector<unsigned char>(input.begin(), input.begin() + 4 * 512));
}

TEST(TimedRun, AtRandomVisitsEveryBlockOncePerPassAndLeavesTheSameOutput) {
  std::vector<unsigned char> input(8 * 512);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<unsigned char>(i / 512 + 1);
  FakeOs fake = named_files(input);
  Plan plan;
  plan.time_ns = 40 * kMs;
  plan.engine = EngineChoice::kSync;
  plan.random = true;
  plan.random_seed = 9;
  const TimedRun done = run_timed(fake, in_to_out(512), plan);
  EXPECT_EQ(done.result.exit_status, 0);
  EXPECT_EQ(fake.output, input);
  // Each record is read at its block (pread): the input's reads, eight
  // to a pass, are each pass a permutation of the eight blocks, and the
  // passes' orders differ.
  std::vector<std::int64_t> offsets;
  for (const std::string& call : fake.calls) {
    long long offset = 0;
    if (std::sscanf(call.c_str(), "pread 0 512 %lld", &offset) == 1) offsets.push_back(offset);
  }
  ASSERT_GE(offsets.size(), 24u);
  std::vector<std::vector<std::int64_t>> passes;
  for (std::size_t start = 0; start + 8 <= offsets.size(); start += 8) {
    passes.emplace_back(offsets.begin() + static_cast<std::ptrdiff_t>(start),
                        offsets.begin() + static_cast<std::ptrdiff_t>(start + 8));
    std::vector<std::int64_t> sorted = passes.back();
    std::sort(sorted.begin(), sorted.end());
    for (std::int64_t block = 0; block < 8; ++block) EXPECT_EQ(sorted[static_cast<std::size_t>(block)], block * 512);
  }
  EXPECT_NE(passes[0], passes[1]);
  ASSERT_TRUE(done.result.random);
  EXPECT_TRUE(done.result.random->per_pass);
  EXPECT_GE(done.result.timed->passes, 4.0);
}

TEST(TimedRun, TheRampsRecordsAreNotInTheSummary) {
  FakeOs fake = named_files(std::vector<unsigned char>(4 * 512, 'r'));
  Plan plan;
  plan.time_ns = 20 * kMs;
  plan.ramp_ns = 10 * kMs;
  plan.engine = EngineChoice::kSync;
  const TimedRun done = run_timed(fake, in_to_out(512), plan);
  ASSERT_TRUE(done.result.timed);
  const std::int64_t ramp = done.result.timed->ramp_stats.full_records_out;
  const std::int64_t measured = done.result.stats.full_records_out;
  EXPECT_GE(ramp, 9);
  EXPECT_LE(ramp, 11);
  EXPECT_GE(measured, 18);
  EXPECT_LE(measured, 22);
  EXPECT_EQ(done.result.stats.bytes_out, measured * 512);
}

}  // namespace
}  // namespace ddtime
