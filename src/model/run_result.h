// SPDX-License-Identifier: GPL-3.0-or-later
// run_result — what one run hands back, as plain values: its counters,
// times and ending, what it owes the user on its way out, the engine that
// ran, --latency's figures, --random's order, --time's passes and
// --timeline's samples. The run fills it, record keeps it in a RunRecord,
// and the reports read it; nothing here measures or words.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "model/ending.h"
#include "model/engine_use.h"
#include "model/latency_report.h"
#include "model/mix.h"
#include "model/run_times.h"
#include "model/stats.h"
#include "model/timeline_samples.h"

namespace ddtime {

// Only pointed to: --latency's recorders are measure's (latency.h), which
// a session includes to merge a row's runs.
struct LatencyRecorders;

// How a timed run ended.
enum class TimedEnd {
  kRange,   // the copy's own end came first (an input that cannot go round again, an error, a signal)
  kTime,    // --time ran out
  kSteady,  // --steady: both definitions held over the window
  kRunning  // not yet: a SIGUSR1 snapshot of a run still going
};

// --random: the order's seed and the range it was drawn over.
struct RandomAccess {
  std::uint64_t seed = 0;
  std::int64_t input_offset = 0;   // where the range starts in the input (skip=)
  std::int64_t output_offset = 0;  // and in the output (seek=)
  std::int64_t bytes = 0;          // its length
  std::int64_t blocks = 0;         // its whole blocks, each visited once; a partial one comes last
  bool per_pass = false;           // --time: once each pass, a new order each pass
};

// --time: how long was asked, what the ramp moved unmeasured, how many
// passes the range took and what ended the run.
struct TimedRun {
  std::int64_t limit_ns = 0;         // --time
  std::int64_t ramp_ns = 0;          // --ramp, as asked
  std::int64_t ramp_elapsed_ns = 0;  // as it ran
  Stats ramp_stats{};                // what the ramp moved (not in the run's own stats)
  std::int64_t range_bytes = -1;     // the range gone round; -1: endless (one pass)
  std::int64_t range_blocks = 0;     // its whole blocks, a pass
  double passes = 0;                 // the measured records over range_blocks
  TimedEnd ended_by = TimedEnd::kRange;
  // A SIGUSR1 snapshot taken inside the ramp: the counts and times are
  // the ramp's so far (ramp_elapsed_ns), nothing is measured yet.
  bool in_ramp = false;
};

// What one run hands back: its counters, times and ending.
struct RunResult {
  // What the run owes the user on its way out.
  enum class Report {
    kSummary,   // GNU's statistics (and, as ddtime, the report and JSON)
    kJsonOnly,  // no statistics, as GNU; --json still gets its object
    kNothing,   // GNU's die(): the message is all there is
  };
  Stats stats{};
  RunTimes times{};
  int exit_status = 0;
  Ending ending = Ending::kFinished;
  Report report = Report::kSummary;
  EngineUse engine{};
  std::optional<LatencyReport> latency = std::nullopt;  // --latency
  // --latency's samples themselves (ticks) and their length in ns, for a
  // session to merge a row's runs.
  std::shared_ptr<const LatencyRecorders> latency_samples = nullptr;
  double latency_ns_per_tick = 1.0;
  // Where the first write landed in the output (-1: unknown): where
  // --readback reads the bytes back from.
  std::int64_t first_write = -1;
  std::optional<RandomAccess> random = std::nullopt;  // --random
  std::optional<MixResult> mix = std::nullopt;        // --mix
  std::optional<TimedRun> timed = std::nullopt;       // --time
  std::optional<Timeline> timeline = std::nullopt;    // --timeline: the samples
  SteadyRule steady_rule{};                           // what the analysis holds the timeline to
};

}  // namespace ddtime
