// SPDX-License-Identifier: GPL-3.0-or-later
// driver — runs what was asked (one session, or a session of runs per the
// Plan: --repeat, --warmup, --sweep) and is its Events: puts GNU's words on
// what happened (messages), prints GNU's statistics, ddtime's report and
// JSON, aggregates repeated runs, and decides the exit status. With main, the
// only place that ends the process: a run stopped by SIGINT is reported,
// then the process dies by the signal, as GNU dd does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "measure/cache_state.h"
#include "report/diag.h"
#include "model/events.h"
#include "system/file_kind.h"
#include "measure/measured.h"
#include "report/messages.h"
#include "system/os.h"
#include "model/plan.h"
#include "report/report.h"
#include "report/report_files.h"
#include "report/report_json.h"
#include "report/report_session.h"
#include "report/report_run.h"
#include "measure/verify.h"
#include "measure/run_window.h"
#include "bench/run.h"
#include "model/settings.h"
#include "measure/timing.h"

namespace ddtime {

class Driver final : public Events {
 public:
  // diag is muted here when --json sends JSON to stderr in place of text.
  Driver(Os& os, Clock& clock, Diag& diag, const Settings& settings, const Plan& plan = {},
         bool stderr_is_terminal = false);
  ~Driver() override;
  Driver(const Driver&) = delete;
  Driver& operator=(const Driver&) = delete;

  // The exit status; does not return when a SIGINT stopped the run.
  int run();

  void notice(Notice what, Side side, int err, std::int64_t value) override;
  void alignment_refused(const AlignmentProblem& problem) override;
  void starting(const RunStart& start) override;
  void show_stats(const Stats& stats) override;
  bool handle_signals(const Stats& stats) override;
  void progress(const Stats& stats, std::int64_t now_ns) override;

 private:
  // One setting of a session: a row of the sweep table.
  struct RowSetting {
    std::int64_t bs;
    unsigned depth;
  };
  // One run of a session, kept for the statistics and the JSON.
  struct SessionRun {
    std::size_t row;
    bool warmup;
    unsigned index;  // 1-based among the row's warm-ups or measured runs
    Settings settings;
    RunResult result;
    std::vector<std::string> errors;  // what diag said during the run
    CacheState cache;                 // with --cache: what was resident as it began
    std::optional<std::uint64_t> seed;  // --pattern: the generator's
    std::string measured = {};          // its "measured:" line, worded before it ran
    // A sample of the statistics: it ran to its end without an error. A
    // run that failed or was stopped is listed and marked, never counted.
    bool counted() const noexcept {
      return result.report == RunResult::Report::kSummary && result.ending == Ending::kFinished &&
             result.exit_status == 0;
    }
  };

  int run_session();
  // A row's warm-ups and runs; the session's exit status once one ends it.
  std::optional<int> run_row(const std::vector<RowSetting>& rows, std::size_t row, std::vector<SessionRun>& runs);
  std::optional<int> after_run(const std::vector<RowSetting>& rows, std::vector<SessionRun>& runs,
                               const std::string& setting);
  [[noreturn]] int stopped_session(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs);
  void extend_auto_sweep(std::vector<RowSetting>& rows, std::size_t row, const std::vector<SessionRun>& runs,
                         std::vector<Figure>& rates);
  // --cache: the page cache as asked before a run, what it then holds of
  // the run's ranges, and the cache line. False when it could not be set
  // up (reported) or a SIGINT came (interrupt_ is then set).
  bool prepare_cache(const Settings& settings, std::string_view setting, std::optional<CacheState>& state);
  // A session's run as its JSON object.
  JsonSessionRun json_session_run(const SessionRun& run, int signal, bool show_engine) const;
  // The units a session's rates are in: --units, IEC by default.
  RateUnits rate_units() const noexcept { return settings_.ext.units.value_or(RateUnits::kIecAndBytes); }
  // What a readback measured besides its two runs.
  struct PassExtras {
    std::int64_t drop_ns = 0;    // dropping the output's cached pages
    bool verified = false;
    VerifyOutcome verify;
    std::int64_t verify_ns = 0;
  };
  // --readback: the write pass, a timed drop of the output's cached pages,
  // the read pass of the same bytes, and --verify's comparison.
  int run_readback();
  // --readback's steps, each ending the read-back when it must: a pass
  // that failed (status set, true) or was stopped (the process dies).
  bool readback_pass_ended(const std::vector<SessionRun>& runs, const PassExtras& extras, int& status);
  void say_pass(std::string_view pass, const SessionRun& run);
  void stop_if_interrupted(std::string_view phase, const std::vector<SessionRun>& runs, const PassExtras& extras);
  bool drop_output_cache(const Settings& written, std::int64_t& took_ns, const std::vector<SessionRun>& runs,
                         const PassExtras& extras);
  bool direct_read_aligned(const Settings& read, std::int64_t where, std::int64_t bytes);
  int verify_readback(std::vector<SessionRun>& runs, PassExtras& extras, std::int64_t where,
                      const PatternSource* pattern);
  int finish_readback(const std::vector<SessionRun>& runs, const PassExtras& extras,
                      std::optional<int> exit_status, int signal);
  // The plain run: one copy, GNU's summary, ddtime's report and JSON.
  int run_single();
  // A command refused before anything ran: with --json on standard error
  // its refusal document there. Returns the exit status, 1.
  int refused();
  // Between the runs and passes, a signal that arrived: SIGUSR1 says what
  // is going on (phase) and carries on; true for SIGINT, after which the
  // caller reports what was measured and dies by it.
  bool interrupted_in(std::string_view phase);
  // One run of settings, its diagnostics kept.
  SessionRun run_once(const Settings& settings, const Plan& plan, std::size_t row, bool warmup, unsigned index,
                      const PatternSource* pattern = nullptr);
  // --pattern: the generator for the next run, with a seed of its own, and
  // the generator's rate said before the first.
  PatternSource next_pattern(const Settings& settings);
  void measure_pattern();
  // What the coming run will measure, in plain words, gathered before it
  // (the input's residency among the facts); empty as dd or without the
  // text report.
  std::string measured_words(const Settings& settings);
  std::vector<RowSetting> session_rows() const;
  // The command line's settings for one row: bs= and the bytes to move.
  Settings row_settings(std::int64_t bs) const;
  // The statistics and table of what was measured, the last run's GNU
  // summary, and the session's JSON; returns the exit status.
  // A session's rows summarised: what JSON, the sweep table and --latency's
  // merged reports read. latency is reserved before use: rows point into it.
  struct SessionSummaries {
    std::vector<JsonSessionRow> rows;
    std::vector<SweepRow> table;
    std::vector<LatencyReport> latency;
  };
  void summarise_rows(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs,
                      SessionSummaries& out);
  void print_session_end(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs,
                         const SessionSummaries& summaries);
  int finish_session(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs,
                     std::optional<int> exit_status, int signal);

  // GNU's summary, with ddtime's report before it and JSON after it as the
  // settings ask. exit_status is absent for a snapshot (SIGUSR1) or a run
  // stopped by a signal. Returns nonzero when the report could not be
  // written where it was asked to go.
  // engine: what ran, at the end of a run with --iodepth or --engine.
  int summarise(const Stats& stats, const RunTimes& times, bool complete, std::optional<int> exit_status,
                int signal, const EngineUse* engine = nullptr, const LatencyReport* latency = nullptr);
  // No statistics (as GNU), but --json still gets its object.
  int report_without_summary(const RunResult& result);
  int deliver_json(const std::string& json, bool final);
  // --csv's lines, to its file or to stderr; nonzero when they could not be written.
  int deliver_csv(const std::string& csv);
  CsvRun csv_run(const SessionRun& run, std::int64_t bs, unsigned depth, std::string_view pass) const;
  // SIGUSR1 with CSV on stderr: the header and the running run so far,
  // its pass "snapshot" and its exit_status empty.
  std::string csv_snapshot(const Stats& stats, const RunTimes& times);
  // --csv on stderr: a finished run's line as soon as it is known; the
  // table at the end then adds only the lines not yet sent.
  void stream_csv(const CsvRun& line);
  std::string csv_table(std::span<const CsvRun> lines);
  // A SIGUSR1 outside a copy (phase: what is going on): the labelled line
  // in ddtime's text, a snapshot document with --json on stderr, GNU's
  // lines of the latest run (zeros before the first) as dd; with --csv on
  // stderr every finished run's line is there already.
  void phase_snapshot(std::string_view phase);
  std::string phase_json(std::string_view phase) const;
  // The session's one JSON document, to its file or stderr.
  int deliver_session_json(std::span<const JsonSessionRun> runs, std::span<const JsonSessionRow> rows,
                           std::optional<int> exit_status, int signal);
  // A session's run as its JSON object; signal names what stopped it.
  JsonRun json_run(const SessionRun& run, int signal, bool show_engine) const;
  // --latency over a row's measured runs, their samples merged.
  std::optional<LatencyReport> merged_latency(const std::vector<SessionRun>& runs, std::size_t row) const;
  // JSON or CSV in place of the text on stderr: diag is muted, no text.
  bool machine_output_on_stderr() const {
    return (settings_.ext.json && !settings_.ext.json_path) || (plan_.csv && !plan_.csv_path);
  }
  // Whether a session prints ddtime's lines.
  bool session_text() const {
    return settings_.ext.timing_report && settings_.status != StatusLevel::kNone && !machine_output_on_stderr();
  }
  // Whether the runs end with a timing report, JSON or CSV, which need CPU times.
  bool reports_times() const { return settings_.ext.timing_report || settings_.ext.json || plan_.csv; }
  const Settings& reported() const { return run_settings_ != nullptr ? *run_settings_ : settings_; }

  Os& os_;
  Diag& diag_;
  ReportFiles* reports_ = nullptr;  // open from resolve to the end of run()
  FileKind input_kind_ = FileKind::kUnknown;  // if=, as resolve classified it
  std::string running_;  // in a session or a read-back: which run is running, for SIGUSR1
  bool json_on_stderr_ = false;     // --json with no PATH: JSON replaces the text
  Settings settings_;
  Plan plan_;
  Messages messages_;
  Reporter reporter_;
  RunWindow window_;
  bool stderr_is_terminal_;
  std::optional<std::int64_t> total_bytes_;  // for --progress
  int interrupt_ = 0;                        // the signal that stopped the run
  const Settings* run_settings_ = nullptr;   // the session's, while it lives
  std::optional<std::int64_t> sweep_bytes_;  // what every row of a sweep moves
  std::optional<std::int64_t> range_bytes_;  // what one run moves, where resolve could tell
  std::optional<std::size_t> knee_row_;      // --sweep=bs=auto: where doubling stopped paying
  std::uint64_t pattern_seeds_ = 0;          // --pattern: the seeds handed out so far
  std::optional<double> generator_rate_;     // --pattern: bytes per second, measured first
  std::string measured_;                     // the "measured:" line, once known
  std::vector<CpuCache> caches_;             // --sweep=bs=memory: the CPU's data caches
  // A session's or a read-back's runs while it lives, for a SIGUSR1
  // between them; passes: they are --readback's write and read passes.
  const std::vector<SessionRun>* runs_so_far_ = nullptr;
  bool runs_are_passes_ = false;
  std::int64_t begun_ns_ = 0;      // when run() began, on the window's clock
  int device_claim_ = -1;          // resolve's O_EXCL hold on a block-device output
  bool csv_header_sent_ = false;   // --csv on stderr: the header goes once
  std::size_t csv_rows_sent_ = 0;  // --csv on stderr: lines streamed so far

  // Points runs_so_far_ at a session's runs for as long as they live.
  class RunsInView {
   public:
    RunsInView(Driver& driver, const std::vector<SessionRun>& runs, bool passes) noexcept : driver_(driver) {
      driver_.runs_so_far_ = &runs;
      driver_.runs_are_passes_ = passes;
    }
    ~RunsInView() { driver_.runs_so_far_ = nullptr; }
    RunsInView(const RunsInView&) = delete;
    RunsInView& operator=(const RunsInView&) = delete;

   private:
    Driver& driver_;
  };
};

}  // namespace ddtime
