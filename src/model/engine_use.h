// SPDX-License-Identifier: GPL-3.0-or-later
// engine_use — what a copy's engine was and how it went, as plain values:
// the engine, its depth and set-up, how full it was kept, what it cost in
// system calls, why not the engine asked for, and how --jobs' jobs went.
// Flags and counts, no words: the run fills it from the engine's result,
// report_run words it (an engine's word is its ring_registry row's).
#pragma once

#include <cstdint>
#include <optional>

#include "model/plan.h"
#include "model/ring_setup.h"
#include "model/units.h"

namespace ddtime {

// What the jobs of a --jobs copy report back with the copy's result, and
// the run's EngineUse keeps whole: the jobs that copied (fewer than asked
// when the range has fewer records), when the first and the last ended,
// and how busy their submitting threads were (CPU time over real time,
// the mean of the jobs): near 1, the submitters, not the device, set the
// pace.
struct JobsUse {
  unsigned ran = 1;
  std::int64_t range_records = -1;  // the records the range held; -1: no end known
  std::int64_t first_end_ns = 0;
  std::int64_t last_end_ns = 0;
  double busy = 0;
  // How far apart the first and the last job ended, in seconds.
  double spread_s() const noexcept { return in_seconds(static_cast<double>(last_end_ns - first_end_ns)); }
};

// What ran, for the report and the JSON: the engine, its depth and setup,
// how full it was kept and what it cost in system calls, and, where the
// engine asked for could not be had, why.
struct EngineUse {
  EngineChoice kind = EngineChoice::kSync;  // never kAuto: what auto picked
  unsigned depth = 1;
  RingSetup setup{};  // a queued engine's; all clear for the sync engine
  double mean_in_flight = 1;
  double system_calls_per_io = 0;  // 0: not measured (the sync engine)
  // Why not what was asked for (the report words it).
  enum class Fallback { kNone, kInputCannotSeek, kInputReadInOrder, kEngineRefused };
  Fallback fallback = Fallback::kNone;
  int fallback_err = 0;                                // kEngineRefused: the errno its ring was refused with
  std::optional<EngineChoice> refused = std::nullopt;  // kEngineRefused: the engine auto picked
  // --jobs=N: how many were asked, how they went, and the CPUs there were.
  unsigned jobs_asked = 1;
  JobsUse jobs{};
  // A SIGINT came while the jobs' rings were set up: the jobs set up so
  // far copied, and stopped at their first look at the signals.
  bool setup_interrupted = false;
  unsigned online_cpus = 0;  // 0: unknown
  // The submitters were busy most of the time: the signal to add jobs,
  // only where more could run: every job asked for had records, and
  // there are CPUs to spare.
  bool cpu_limited() const noexcept {
    return jobs.ran > 1 && jobs.ran == jobs_asked && (online_cpus == 0 || jobs.ran < online_cpus) && jobs.busy >= 0.9;
  }
};

}  // namespace ddtime
