// SPDX-License-Identifier: GPL-3.0-or-later
// record — what a run produced and what a session of runs produced, as one
// value each: a RunRecord per run (the settings as the run resolved them,
// its result, residency, seed, diagnostics, read-back extras) and a
// SessionRecord (the plan, the rows with their summaries, the knee and
// merged latency, the runs, the exit status and signal, the generator's
// rate). Every report, the text lines, the sweep table, CSV and both JSON
// schemas, reads these and nothing else; the driver only fills them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "measure/aggregate.h"
#include "measure/cache_state.h"
#include "measure/verify.h"
#include "model/ending.h"
#include "model/plan.h"
#include "model/profile.h"
#include "model/run_result.h"
#include "model/settings.h"

namespace ddtime {

// Which pass of its mode a run was: a plain or session copy, --readback's
// write or read pass, or a SIGUSR1 view of a run still going.
enum class Pass { kCopy, kWrite, kRead, kMix, kSnapshot };  // kMix: a profile's mix test
std::string_view pass_name(Pass pass) noexcept;

struct RunRecord {
  Settings settings = {};  // as the run resolved them (--direct, a sweep row's bs=)
  RunResult result = {};
  std::vector<std::string> errors = {};  // what was said during the run, without prefix
  int signal = 0;                        // the signal that stopped it, or 0
  bool shows_engine = false;             // --iodepth, --engine or a depth sweep asked: the engine is reported
  std::string phase = {};                // a snapshot outside the copy: what was going on

  // Its place in a session: the row, the pass, warm-up or measured, its
  // 1-based number among the row's warm-ups or measured runs.
  std::size_t row = 0;
  Pass pass = Pass::kCopy;
  bool warmup = false;
  unsigned index = 1;
  unsigned depth = 1;  // the queue depth asked for (the engine says what ran)
  CacheMode cache = CacheMode::kAsIs;
  std::optional<CacheState> residency = std::nullopt;  // --cache: what was resident as it began
  std::optional<std::uint64_t> seed = std::nullopt;    // --pattern: the generator's
  std::string measured = {};                           // its "measured:" line, worded before it ran (text only)

  // --readback's read pass: the drop of cached pages before it, and --verify.
  std::optional<std::int64_t> drop_cache_ns = std::nullopt;
  std::optional<VerifyOutcome> verify = std::nullopt;
  std::int64_t verify_ns = 0;

  // It ran to its end: not a snapshot, not stopped by a signal.
  bool complete() const noexcept { return pass != Pass::kSnapshot && result.ending != Ending::kInterrupted; }
  // Absent when not complete: a snapshot, or killed by a signal.
  std::optional<int> exit_status() const noexcept {
    return complete() ? std::optional<int>(result.exit_status) : std::nullopt;
  }
  // A sample of the statistics: it ran to its end without an error. A
  // run that failed or was stopped is listed and marked, never counted.
  bool counted() const noexcept {
    return result.report == RunResult::Report::kSummary && complete() && result.exit_status == 0;
  }
  // Seconds, and bytes out over real seconds.
  RunFigures figures() const noexcept;
  std::int64_t records_in() const noexcept { return result.stats.full_records_in + result.stats.partial_records_in; }
};

// One setting of a session: a row of the sweep table, or one pass of a
// read-back; its summary once it has counted runs.
struct RowRecord {
  std::int64_t bs = 0;
  unsigned depth = 1;
  Pass pass = Pass::kCopy;
  std::string setting = {};  // "bs=64k depth 4" in a sweep's lines, else empty
  std::string fits = {};     // --sweep=bs=memory: the cache level the buffer fits in ("L2", "memory")
  bool knee = false;         // --sweep=bs=auto: where doubling stopped paying
  std::optional<RowSummary> summary = std::nullopt;
  unsigned counted = 0;                                 // the runs the summary is of
  std::int64_t bytes = 0;                               // bytes out of its last counted run
  std::int64_t records = 0;                             // input records of that run, for IOPS
  std::optional<LatencyReport> latency = std::nullopt;  // --latency with --repeat: its runs merged
  // --profile: the test the row runs, on the side pass says (kRead or kWrite).
  std::optional<ProfileTest> test = std::nullopt;
};

struct SessionRecord {
  Plan plan = {};
  bool readback = false;  // its rows are --readback's write and read passes
  std::vector<RowRecord> rows = {};
  std::vector<RunRecord> runs = {};
  std::optional<double> generator_rate = std::nullopt;  // --pattern: bytes per second
  std::optional<int> exit_status = std::nullopt;        // absent when killed by a signal
  int signal = 0;
  bool complete = true;    // false: a SIGUSR1 snapshot, the runs so far
  std::string phase = {};  // a snapshot: what was going on

  // Whether the session's lines name each run's row (a sweep).
  bool names_rows() const noexcept { return rows.size() > 1 || plan.sweep_bs_auto; }
};

// A row's counted measured runs summarised; nullopt while it has none.
std::optional<RowSummary> summarise_row(const SessionRecord& session, std::size_t row);

// Each row's summary of its counted measured runs, and with --latency and
// --repeat its runs' samples merged. Rows without counted runs keep none.
void summarise_rows(SessionRecord& session);

// --latency over a row's measured runs, their samples merged: exact
// percentiles while the samples together stay within a few million.
std::optional<LatencyReport> merged_latency(const SessionRecord& session, std::size_t row);

}  // namespace ddtime
