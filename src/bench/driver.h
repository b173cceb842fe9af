// SPDX-License-Identifier: GPL-3.0-or-later
// driver — runs what was asked: one run, a session of runs per the Plan
// (--repeat, --warmup, --sweep, --cache, --pattern) or write-then-read-back.
// It resolves the command line once (resolve), then schedules the runs,
// fills their records and hands them to the console, which says and
// writes everything. With main, the only place that ends the process: a
// run stopped by SIGINT is reported, then the process dies by the signal,
// as GNU dd does.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/capacity_run.h"
#include "bench/console.h"
#include "bench/derive.h"
#include "bench/resolve.h"
#include "bench/run.h"
#include "measure/pattern.h"
#include "measure/profile_record.h"
#include "measure/record.h"
#include "measure/run_window.h"
#include "measure/timing.h"
#include "model/plan.h"
#include "model/settings.h"
#include "report/diag.h"
#include "system/os.h"

namespace ddtime {

class Driver {
 public:
  // diag is muted here when --json sends JSON to stderr in place of text.
  // command_line: argv as given, which the JSON's environment repeats.
  Driver(Os& os, Clock& clock, Diag& diag, const Settings& settings, const Plan& plan = {},
         bool stderr_is_terminal = false, std::vector<std::string> command_line = {});
  ~Driver();

  // The exit status; does not return when a SIGINT stopped the run.
  int run();

 private:
  // What resolve decided; nothing rewrites it afterwards.
  const Settings& settings() const noexcept { return resolved_->settings; }
  const Plan& plan() const noexcept { return resolved_->plan; }

  // The plain run: one copy, GNU's summary, ddtime's report and JSON.
  int run_single();

  // --repeat, --warmup, --sweep, and --profile's tests: the rows' warm-ups
  // and runs, one row loop for every mode of many runs (the rows are a
  // sweep's block sizes and depths, or a profile's tests on each side);
  // the exit status once one ends it.
  int run_session();
  std::optional<int> run_row(SessionRecord& session, std::size_t row);
  // How a run's end ends the session (GNU's die(), a SIGINT, an error),
  // after the console said the run.
  std::optional<int> after_run(SessionRecord& session, const RunRecord& run);
  // The session's end: its rows summarised, then the console says it (a
  // profile's as its table, a view of the session).
  int finish(SessionRecord& session, std::optional<int> exit_status);
  // A SIGINT: the runs done so far reported, then the process dies by it.
  [[noreturn]] void stop(SessionRecord& session);

  // --profile (driver_profile.cc): the range written once, unmeasured,
  // before the first test; the pause between tests.
  std::optional<int> prepare_profile_range(SessionRecord& session);
  void profile_pause(SessionRecord& session);

  // --readback: the write pass, a timed drop of the output's cached pages,
  // the read pass of the same bytes, and --verify's comparison.
  int run_readback();
  bool pass_ended(SessionRecord& session, int& status);
  void stop_if_interrupted(std::string_view phase, SessionRecord& session);
  // of='s cached pages dropped (a SIGINT is the caller's to hear first):
  // the time it took, or none, said.
  std::optional<std::int64_t> drop_output_cache(const Settings& written);
  int verify_readback(SessionRecord& session, std::int64_t where, const PatternSource* pattern);

  // --capacity (driver_capacity.cc): the probe of of=, its verdict and
  // JSON; the exit status, or the SIGINT's end. =full: the write and read
  // passes of every block, each a run of the session, then the scan.
  int run_capacity();
  int run_capacity_full(const CapacityTarget& target);

  // --cache: the page cache as asked before a run, and what it then holds
  // of the run's ranges. False when it could not be set up (reported) or
  // a SIGINT came.
  bool prepare_cache(const Settings& settings, FileKinds kinds, std::string_view setting, SessionRecord& session,
                     std::optional<CacheState>& state);
  // --pattern: the generator's rate, measured before the first run.
  void measure_pattern(SessionRecord& session);
  // --pattern: the generator for the next run, with a seed of its own.
  PatternSource next_pattern(const Settings& settings);
  // One run of settings and plan (derive's), as its record: its
  // diagnostics, its generator's seed. label: which run of a session or
  // read-back it is, for SIGUSR1.
  // kinds: what its files are (the resolved run's, or derive's).
  RunRecord run_with(const Settings& settings, FileKinds kinds, const Plan& plan,
                     const PatternSource* pattern = nullptr, std::string label = {});

  Os& os_;
  Diag& diag_;
  Settings asked_;  // the command line's, until resolve decides
  Plan asked_plan_;
  std::unique_ptr<const ResolvedRun> resolved_;
  RunWindow window_;
  Console console_;
  std::uint64_t pattern_seeds_ = 0;       // --pattern: the seeds handed out so far
  std::optional<ProfileRecord> profile_;  // --profile: its parameters and the preparation's time
  std::size_t rows_begun_ = 0;            // a profile's rows (tests) begun so far
};

}  // namespace ddtime
