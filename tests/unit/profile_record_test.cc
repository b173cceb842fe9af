// SPDX-License-Identifier: GPL-3.0-or-later
// profile_record: a row's figures from its runs. Warm-ups and failed runs
// are listed but not counted; the rate is the median with the best run
// beside it; IOPS the median over the block size; latency measured, for
// one job or many alike.
#include "measure/profile_record.h"

#include <gtest/gtest.h>

#include "unit/profile_runs.h"

namespace ddtime {
namespace {

ProfileRun run(double rate, std::optional<double> mean_ns = std::nullopt, std::optional<double> p99_ns = std::nullopt,
               bool warmup = false) {
  return profile_run_at(rate, warmup, mean_ns, p99_ns);
}

// B19: a run keeps what a comparison between machines needs: its engine,
// its time and its bytes, beside its rate.
TEST(ProfileRecord, ARunKeepsItsEngineItsTimeAndItsBytes) {
  RunRecord record;
  record.result.stats.bytes_out = 3 << 20;
  record.result.times.real_ns = 500'000'000;
  record.result.engine.kind = EngineChoice::kThreads;
  const ProfileRun kept{record, ProfileSide::kRead};
  EXPECT_EQ(kept.engine(), EngineChoice::kThreads);
  EXPECT_EQ(kept.bytes(), 3 << 20);
  EXPECT_EQ(kept.real_ns(), 500'000'000);
  EXPECT_DOUBLE_EQ(kept.bytes_per_second(), (3 << 20) / 0.5);
}

TEST(ProfileRecord, TheMedianAndTheBestComeFromTheMeasuredRunsOnly) {
  ProfileRow row{.test = kDiskmarkTests[0]};
  row.runs = {run(9e9, 1e6, 2e6, true), run(1e9, 1e6, 2e6), run(3e9, 3e6, 4e6), run(2e9, 2e6, 9e6)};
  ProfileRun failed = run(8e9);
  failed.record.result.exit_status = 1;  // ran into an error: listed, not counted
  row.runs.push_back(failed);
  summarise_profile_row(row);
  ASSERT_TRUE(row.rate.has_value());
  EXPECT_EQ(row.rate->count, 3u);
  EXPECT_DOUBLE_EQ(row.rate->median, 2e9);
  EXPECT_DOUBLE_EQ(row.rate->max, 3e9);
  EXPECT_FALSE(row.rate->median_low.has_value()) << "three runs hold no 95% interval";
  EXPECT_DOUBLE_EQ(row.iops, 2e9 / (1 << 20));
  EXPECT_DOUBLE_EQ(*row.mean_latency_s, 2e-3);  // the mean of the runs' means
  EXPECT_DOUBLE_EQ(*row.p99_latency_s, 4e-3);   // the median of their p99s
}

TEST(ProfileRecord, ManyJobsTakeTheirLatencyFromTheirMergedSamplesAsOneJobDoes) {
  ProfileRow row{.test = kNvmeTests[2]};  // RND4K Q32T16
  row.runs = {run(4096.0 * 100000, 4e6, 9e6), run(4096.0 * 90000, 6e6, 7e6)};
  summarise_profile_row(row);
  EXPECT_DOUBLE_EQ(row.iops, 95000);
  EXPECT_DOUBLE_EQ(*row.mean_latency_s, 5e-3);
  EXPECT_DOUBLE_EQ(*row.p99_latency_s, 8e-3);
}

TEST(ProfileRecord, ARowWithNoCountedRunHasNoFigures) {
  ProfileRow row{.test = kDiskmarkTests[3]};
  row.runs = {run(1e9, 1e6, 1e6, true)};
  summarise_profile_row(row);
  EXPECT_FALSE(row.rate.has_value());
  EXPECT_FALSE(row.mean_latency_s.has_value());
}

// --mix: a mixed run's rate is both sides'; each side's median comes from
// its own bytes over the window, its latency from its own samples; the
// row's mean is over every I/O and its p99 none (two sides' p99s do not
// combine into one).
ProfileRun mixed_run(std::int64_t read_bytes, std::int64_t write_bytes, double read_mean_ns, double write_mean_ns) {
  ProfileRun mixed = profile_run_at(static_cast<double>(read_bytes + write_bytes));
  mixed.side = ProfileSide::kMix;
  mixed.record.result.mix =
      MixResult{MixChoice{70, 1}, MixCounts{read_bytes / 4096, read_bytes, write_bytes / 4096, write_bytes}};
  LatencyReport latency;
  latency.read.count = read_bytes / 4096;
  latency.read.mean_ns = read_mean_ns;
  latency.read.percentiles[percentile_index(99)] = static_cast<std::int64_t>(read_mean_ns * 3);
  latency.write.count = write_bytes / 4096;
  latency.write.mean_ns = write_mean_ns;
  latency.write.percentiles[percentile_index(99)] = static_cast<std::int64_t>(write_mean_ns * 3);
  mixed.record.result.latency = latency;
  return mixed;
}

TEST(ProfileRecord, AMixRowGivesEachSideItsOwnRateAndLatencyAndAMeanOverEveryIo) {
  ProfileRow row{.test = kDiskmarkTests[3], .side = ProfileSide::kMix};
  row.runs = {mixed_run(7000 * 4096, 3000 * 4096, 100e3, 200e3), mixed_run(7100 * 4096, 2900 * 4096, 110e3, 210e3),
              mixed_run(6900 * 4096, 3100 * 4096, 90e3, 190e3)};
  summarise_profile_row(row);
  ASSERT_TRUE(row.rate.has_value());
  EXPECT_DOUBLE_EQ(row.rate->median, 10000.0 * 4096) << "both sides together";
  ASSERT_TRUE(row.mix_reads.has_value());
  ASSERT_TRUE(row.mix_writes.has_value());
  EXPECT_DOUBLE_EQ(row.mix_reads->bytes_per_second, 7000.0 * 4096);
  EXPECT_DOUBLE_EQ(row.mix_writes->bytes_per_second, 3000.0 * 4096);
  EXPECT_DOUBLE_EQ(*row.mix_reads->mean_latency_s, 100e-6);
  EXPECT_DOUBLE_EQ(*row.mix_writes->p99_latency_s, 600e-6);
  // The first run's mean over its 10,000 I/Os is 130 us; the three runs'
  // (130, 140, 120 us) average to 130 us.
  EXPECT_NEAR(*row.mean_latency_s, 130e-6, 1e-12);
  EXPECT_FALSE(row.p99_latency_s.has_value());
}

TEST(ProfileRecord, OnlyAMixRowHasSides) {
  ProfileRow row{.test = kDiskmarkTests[3], .side = ProfileSide::kWrite};
  row.runs = {profile_run_at(1e9)};
  summarise_profile_row(row);
  EXPECT_FALSE(row.mix_reads.has_value());
  EXPECT_EQ(profile_side_name(ProfileSide::kMix), "mix");
  EXPECT_EQ(profile_side_name(ProfileSide::kWrite), "write");
  EXPECT_EQ(profile_side_name(ProfileSide::kRead), "read");
}

TEST(ProfileRecord, EveryPresetIsFoundByNameAndNoOtherName) {
  EXPECT_EQ(find_profile("diskmark")->tests.size(), 4u);
  EXPECT_EQ(find_profile("nvme")->tests[2].jobs, 16u);
  EXPECT_EQ(find_profile("flash")->pause_ns, 30 * kNanosecondsPerSecond);
  EXPECT_EQ(find_profile("flash")->time_ns, kNanosecondsPerSecond);
  EXPECT_EQ(find_profile("peak")->tests.size(), 2u);
  EXPECT_EQ(find_profile("peak")->tests[1].iodepth, 32u);
  EXPECT_EQ(find_profile("real")->tests[0].label, "SEQ1M Q1T1");
  EXPECT_EQ(find_profile("real")->tests[1].iodepth, 1u);
  EXPECT_EQ(find_profile("crystal"), nullptr);
}

}  // namespace
}  // namespace ddtime
