// SPDX-License-Identifier: GPL-3.0-or-later
// The records every report reads: which runs a row's statistics are of,
// and what a run that did not end by itself owes.
#include "measure/record.h"

#include <gtest/gtest.h>

#include <csignal>
#include <initializer_list>
#include <memory>

#include "measure/latency.h"

namespace ddtime {
namespace {

// A run of a row that moved bytes in real_ns.
RunRecord run_of(std::size_t row, std::int64_t real_ns, std::int64_t bytes = 1000) {
  RunRecord run;
  run.row = row;
  run.result.times.real_ns = real_ns;
  run.result.stats.bytes_out = bytes;
  run.result.stats.full_records_in = 2;
  return run;
}

TEST(Record, ARowIsSummarisedFromItsCountedMeasuredRunsOnly) {
  SessionRecord session;
  session.rows = {RowRecord{.bs = 512}, RowRecord{.bs = 1024}};
  RunRecord warmup = run_of(0, 9'000'000'000);
  warmup.warmup = true;
  RunRecord failed = run_of(0, 8'000'000'000);
  failed.result.exit_status = 1;
  RunRecord stopped = run_of(0, 7'000'000'000);
  stopped.result.ending = Ending::kInterrupted;
  stopped.signal = SIGINT;
  session.runs = {warmup, run_of(0, 1'000'000'000), failed, run_of(0, 3'000'000'000, 3000), stopped};
  summarise_rows(session);
  ASSERT_TRUE(session.rows[0].summary);
  EXPECT_EQ(session.rows[0].counted, 2u);
  EXPECT_DOUBLE_EQ(session.rows[0].summary->real.min, 1.0);
  EXPECT_DOUBLE_EQ(session.rows[0].summary->real.max, 3.0);
  EXPECT_EQ(session.rows[0].bytes, 3000) << "the bytes of the row's last counted run";
  EXPECT_EQ(session.rows[0].records, 2);
  EXPECT_FALSE(session.rows[1].summary) << "a row with no counted run has no summary";
  EXPECT_EQ(session.rows[1].counted, 0u);
}

TEST(Record, ARunStoppedByASignalIsNotCompleteAndHasNoExitStatus) {
  RunRecord run = run_of(0, 1);
  EXPECT_TRUE(run.complete());
  EXPECT_EQ(run.exit_status(), 0);
  run.result.ending = Ending::kInterrupted;
  EXPECT_FALSE(run.complete());
  EXPECT_FALSE(run.exit_status());
  EXPECT_FALSE(run.counted());
}

TEST(Record, ASnapshotIsNeverCounted) {
  RunRecord run = run_of(0, 1);
  run.pass = Pass::kSnapshot;
  EXPECT_FALSE(run.complete());
  EXPECT_FALSE(run.counted());
  EXPECT_FALSE(run.exit_status());
}

TEST(Record, ARunGnuWouldEndWithoutStatisticsIsNotCounted) {
  RunRecord run = run_of(0, 1);
  run.result.report = RunResult::Report::kJsonOnly;
  EXPECT_TRUE(run.complete());
  EXPECT_FALSE(run.counted());
}

TEST(Record, FiguresAreSecondsAndBytesOutPerSecond) {
  RunRecord run = run_of(0, 2'000'000'000, 4000);
  run.result.times.user_ns = 500'000'000;
  run.result.times.sys_ns = 250'000'000;
  const RunFigures figures = run.figures();
  EXPECT_DOUBLE_EQ(figures.real, 2.0);
  EXPECT_DOUBLE_EQ(figures.user, 0.5);
  EXPECT_DOUBLE_EQ(figures.sys, 0.25);
  EXPECT_DOUBLE_EQ(figures.bytes_per_second, 2000.0);
  EXPECT_DOUBLE_EQ(run_of(0, 0).figures().bytes_per_second, 0.0) << "no time, no rate";
}

TEST(Record, PassesHaveTheNamesCsvAndJsonGiveThem) {
  EXPECT_EQ(pass_name(Pass::kCopy), "copy");
  EXPECT_EQ(pass_name(Pass::kWrite), "write");
  EXPECT_EQ(pass_name(Pass::kRead), "read");
  EXPECT_EQ(pass_name(Pass::kSnapshot), "snapshot");
}

// A run with --latency: reads of the durations given, in ticks of 2 ns.
RunRecord sampled_run(std::size_t row, std::initializer_list<std::int64_t> reads) {
  RunRecord run = run_of(row, 1'000'000);
  auto samples = std::make_shared<LatencyRecorders>(16, 16);
  for (const std::int64_t ticks : reads) samples->reads.record(ticks);
  run.result.latency_samples = samples;
  run.result.latency_ns_per_tick = 2.0;
  run.result.latency = LatencyReport{};
  run.result.latency->read = samples->reads.summary(2.0);
  return run;
}

TEST(Record, LatencyIsMergedOverTheRowsMeasuredRunsWithSamples) {
  SessionRecord session;
  session.plan.latency = true;
  session.plan.repeat = 2;
  session.rows = {RowRecord{.bs = 512}, RowRecord{.bs = 1024}};
  EXPECT_FALSE(merged_latency(session, 0)) << "no run yet";
  RunRecord warmup = sampled_run(0, {1000, 1000});
  warmup.warmup = true;
  session.runs = {warmup, sampled_run(0, {10, 20}), sampled_run(0, {30}), sampled_run(1, {5})};
  summarise_rows(session);
  ASSERT_TRUE(session.rows[0].latency);
  EXPECT_EQ(session.rows[0].latency->read.count, 3) << "the warm-up's samples are not the row's";
  EXPECT_EQ(session.rows[0].latency->read.max_ns, 60);
  EXPECT_EQ(session.rows[0].latency->read.min_ns, 20);
  ASSERT_TRUE(session.rows[1].latency);
  EXPECT_EQ(session.rows[1].latency->read.count, 1);
  session.plan.repeat = 1;
  summarise_rows(session);
  EXPECT_FALSE(session.rows[0].latency) << "one run per row: its own report is the row's";
}

}  // namespace
}  // namespace ddtime
