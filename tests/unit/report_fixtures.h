// SPDX-License-Identifier: GPL-3.0-or-later
// What the tests of ddtime's own reports (timing text, --progress, --json)
// build their inputs from: round durations, a finished copy's counters and
// a run's times.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include "model/run_times.h"
#include "model/settings.h"
#include "model/stats.h"
#include "report/report_json.h"

namespace ddtime::report_fixtures {

inline constexpr std::int64_t kMillisecond = 1'000'000;
inline constexpr std::int64_t kSecond = 1'000'000'000;
inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t kGiB = std::int64_t{1} << 30;

// full + partial records in and out, and bytes read and written.
inline Stats copied(std::int64_t full, std::int64_t partial, std::int64_t bytes) {
  Stats stats;
  stats.full_records_in = full;
  stats.partial_records_in = partial;
  stats.full_records_out = full;
  stats.partial_records_out = partial;
  stats.bytes_in = bytes;
  stats.bytes_out = bytes;
  return stats;
}

// A run whose copy took all of real, with no flush and no read/write split.
inline RunTimes timed(std::int64_t real, std::int64_t user = 0, std::int64_t sys = 0) {
  RunTimes times;
  times.real_ns = real;
  times.copy_ns = real;
  times.user_ns = user;
  times.sys_ns = sys;
  return times;
}

// A finished run with no errors, every other field at its default.
inline RunRecord plain_run(const Settings& settings, const Stats& stats, const RunTimes& times) {
  RunRecord run{.settings = settings, .result = {.stats = stats, .times = times}, .errors = {}};
  return run;
}

// A run a signal stopped: not complete, no exit status.
inline RunRecord stopped_run(const Settings& settings, const Stats& stats, const RunTimes& times, int signal) {
  RunRecord run = plain_run(settings, stats, times);
  run.result.ending = Ending::kInterrupted;
  run.signal = signal;
  return run;
}

}  // namespace ddtime::report_fixtures
