// SPDX-License-Identifier: GPL-3.0-or-later
// A profile's run for the tests: a RunRecord that moved `rate` bytes in one
// second, a warm-up or not, with its read side's latency when given (a
// mean and a p99 in nanoseconds, as --latency leaves them).
#pragma once

#include <cstdint>
#include <optional>

#include "measure/latency.h"
#include "measure/profile_record.h"
#include "model/units.h"

namespace ddtime {

inline ProfileRun profile_run_at(double rate, bool warmup = false, std::optional<double> mean_ns = std::nullopt,
                                 std::optional<double> p99_ns = std::nullopt) {
  ProfileRun run;
  run.record.result.stats.bytes_out = static_cast<std::int64_t>(rate);
  run.record.result.times.real_ns = kNanosecondsPerSecond;
  run.record.warmup = warmup;
  if (mean_ns || p99_ns) {
    LatencyReport latency;
    latency.read.count = 1000;
    latency.read.mean_ns = mean_ns.value_or(0);
    if (p99_ns) latency.read.percentiles[percentile_index(99)] = static_cast<std::int64_t>(*p99_ns);
    run.record.result.latency = latency;
  }
  return run;
}

}  // namespace ddtime
