// SPDX-License-Identifier: GPL-3.0-or-later
// Summary text: formatted once per run, per SIGUSR1 and, with
// status=progress, once a second, so it matters for start-up only; these
// keep it from growing unnoticed.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "model/settings.h"
#include "model/stats.h"
#include "report/report.h"

namespace ddtime {
namespace {

Stats typical_stats() {
  Stats stats;
  stats.full_records_in = 4096;
  stats.partial_records_in = 1;
  stats.full_records_out = 4096;
  stats.partial_records_out = 1;
  stats.bytes_out = 4096LL * 1048576 + 17;
  return stats;
}

void BM_Summary(benchmark::State& state) {
  const Stats stats = typical_stats();
  Reporter reporter(StatusLevel::kDefault);
  for (auto _ : state) {
    std::string text = reporter.summary(stats, 812'345'678);
    benchmark::DoNotOptimize(text);
  }
}
BENCHMARK(BM_Summary);

void BM_SummaryWithTruncated(benchmark::State& state) {
  Stats stats = typical_stats();
  stats.truncated_records = 3;
  Reporter reporter(StatusLevel::kDefault);
  for (auto _ : state) {
    std::string text = reporter.summary(stats, 812'345'678);
    benchmark::DoNotOptimize(text);
  }
}
BENCHMARK(BM_SummaryWithTruncated);

// bytes from "1 B" up to the largest count, so each unit and rounding
// branch of the human-readable sizes is taken.
void BM_TransferLine(benchmark::State& state) {
  const std::int64_t bytes = state.range(0);
  const bool progress_style = state.range(1) != 0;
  for (auto _ : state) {
    std::string line = transfer_line(bytes, 1'234'567'891, progress_style);
    benchmark::DoNotOptimize(line);
  }
}
BENCHMARK(BM_TransferLine)
    ->ArgNames({"bytes", "progress"})
    ->Args({1, 0})
    ->Args({999'999, 0})
    ->Args({4LL << 30, 0})
    ->Args({9'223'372'036'854'775'807LL, 0})
    ->Args({4LL << 30, 1});

void BM_Progress(benchmark::State& state) {
  const Stats stats = typical_stats();
  Reporter reporter(StatusLevel::kProgress);
  for (auto _ : state) {
    std::string text = reporter.progress(stats, 3'000'000'000);
    benchmark::DoNotOptimize(text);
  }
}
BENCHMARK(BM_Progress);

}  // namespace
}  // namespace ddtime
