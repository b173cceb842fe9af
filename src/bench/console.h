// SPDX-License-Identifier: GPL-3.0-or-later
// console — everything the user sees of a run, a session or a read-back,
// and where the reports go: it implements Events (GNU's messages, progress,
// the statistics on SIGUSR1, SIGINT heard), words the measured line, prints
// ddtime's lines and GNU's summary from the records, and delivers CSV and
// JSON to their targets, opened once as (format, target) pairs. It keeps
// no run's state but a copy of the running run's settings, handed over in
// the run's start event; what runs and when is the driver's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "measure/cache_state.h"
#include "measure/measured.h"
#include "measure/profile_record.h"
#include "measure/record.h"
#include "measure/run_window.h"
#include "measure/verify.h"
#include "model/environment_facts.h"
#include "model/events.h"
#include "model/plan.h"
#include "model/settings.h"
#include "report/diag.h"
#include "report/messages.h"
#include "report/report.h"
#include "report/report_files.h"
#include "report/svg_charts.h"
#include "system/os.h"

namespace ddtime {

class Console final : public Events {
 public:
  // settings and plan: the command line's, until resolved() replaces them;
  // command_line: argv as given, for the JSON's environment.
  Console(Os& os, Diag& diag, RunWindow& window, const Settings& settings, const Plan& plan, bool stderr_is_terminal,
          std::vector<std::string> command_line = {});

  // Before anything else: JSON on stderr replaces every line of text,
  // refusals included, so diag is muted from here.
  void begin();
  const Messages& messages() const noexcept { return messages_; }
  // What every run is reported against once resolve has decided it, and
  // the reports' targets, open until finished(). With --json, the
  // environment is gathered here, before the first run's window opens.
  void resolved(const Settings& settings, const Plan& plan, std::vector<CpuCache> caches, ReportFiles& reports);
  void finished() noexcept { reports_ = nullptr; }
  // The command line as given, for --svg's heading.
  void command_line(std::vector<std::string> argv) { command_line_ = std::move(argv); }
  // A command refused before anything ran: with --json on standard error
  // its refusal document there. Returns the exit status, 1.
  int refused();

  // Before each run: its settings, whose names its messages use, and in a
  // session or a read-back which run it is, said with a SIGUSR1 snapshot.
  void run_begins(const Settings& settings, std::string label = {});
  void run_ends() { running_.clear(); }

  void notice(Notice what, Side side, int err, std::int64_t value) override;
  void alignment_refused(const AlignmentProblem& problem) override;
  void written_out_of_order(const WrittenOutOfOrder& blocks) override;
  void starting(const RunStart& start) override;
  void show_stats(const Stats& stats) override;
  bool handle_signals(const Stats& stats) override;
  void progress(const Stats& stats, std::int64_t now_ns) override;

  // The SIGINT heard (0: none): the driver stops, reports, and dies by it.
  int interrupt() const noexcept { return interrupt_; }
  // Between runs and passes, a signal that arrived: SIGUSR1 says what is
  // going on (phase; so_far: the session's runs, null before a single run)
  // and carries on; true for SIGINT.
  bool interrupted_in(std::string_view phase, const SessionRecord* so_far);

  // What the coming run will measure, in plain words (the input's
  // residency among the facts); empty as dd or without the text report.
  std::string measured_words(const Settings& settings);
  // Whether a session prints ddtime's lines.
  bool session_text() const {
    return settings_.ext.timing_report && settings_.status != StatusLevel::kNone && !machine_output_on_stderr();
  }

  // One plain run's end (or its stop by a signal): ddtime's report, GNU's
  // summary, the JSON. Returns nonzero when a report could not be written.
  int run_ended(const RunRecord& run);
  // A run GNU would end without statistics: --json still gets its object.
  void run_ended_without_summary(const RunRecord& run);

  // A session's or a read-back's steps, as they happen.
  void generator_measured(double bytes_per_second);
  void cache_prepared(std::string_view setting, const CacheState& state);
  void cache_failed(CacheMode mode, const CacheFailure& failure);
  // A finished run of a session: its CSV line on stderr at once, then as
  // dd GNU's lines, as ddtime its line.
  void session_run_ended(const SessionRecord& session, const RunRecord& run);
  void pass_ended(const RunRecord& pass);
  void cache_dropped(std::int64_t ns);
  void read_buffered(const std::string& path, std::int64_t bytes, std::int64_t where, std::int64_t alignment);
  void verified(const VerifyOutcome& outcome, std::int64_t ns);
  // The end of a session or read-back (session.exit_status, or a signal):
  // the statistics, the table, GNU's lines last, CSV and JSON. Returns the
  // exit status, 1 when a report could not be written.
  int session_ended(const SessionRecord& session);
  // --profile's end (complete, failed or stopped by a signal): the table
  // and its footer, CSV, SVG, JSON (console_profile.cc). Returns the exit
  // status, 1 when a report could not be written.
  int profile_ended(const ProfileRecord& record);
  // Where a profile stands ("SEQ1M Q8T1 read, run 2 of 3"), on a terminal
  // only: one line overwritten in place, cleared before the table (B8).
  void profile_step(std::string_view step);

 private:
  // ddtime's lines, GNU's summary and the JSON of a run or a snapshot.
  int present(const RunRecord& run);
  void print_rows(const SessionRecord& session);
  void print_session_end(const SessionRecord& session);
  void print_readback_end(const SessionRecord& session);
  int deliver_json(const std::string& json, bool final);
  int deliver_csv(const std::string& csv);
  // --svg: the document, once, when the run or the session ends.
  int deliver_svg(const RunRecord* run, const SessionRecord* session);
  int deliver_svg_document(const std::vector<SvgPanel>& panels);
  void stream_csv(const RunRecord& run);
  void time_lines(const RunRecord& run);
  // --timeline's chart and analysis, each line ours, fitted to the terminal.
  std::string timeline_report(const Timeline& timeline, const SteadyRule& rule);
  // One line per run, or with --timeline one per sample.
  std::string csv_of(std::span<const RunRecord> runs, bool header) const;
  std::string csv_table(std::span<const RunRecord> runs);
  std::string csv_snapshot(const Stats& stats, const RunTimes& times);
  void phase_snapshot(std::string_view phase, const SessionRecord* so_far);
  std::string phase_json(std::string_view phase, const SessionRecord* so_far);
  RunRecord snapshot_of(const Stats& stats, const RunTimes& times) const;
  void time_the_snapshot(RunRecord& snapshot, const LiveTime& live) const;
  // JSON or CSV in place of the text on stderr: diag is muted, no text.
  bool machine_output_on_stderr() const {
    return (settings_.ext.json && !settings_.ext.json_path) || (plan_.csv && !plan_.csv_path);
  }
  RateUnits rate_units() const noexcept { return settings_.ext.units.value_or(RateUnits::kIecAndBytes); }
  // The JSON's environment: gathered once, from the settings as they
  // stand, the first time a document needs it (resolved() sees to it that
  // this is never inside a measured window).
  const Environment& environment();

  Os& os_;
  Diag& diag_;
  RunWindow& window_;
  Settings settings_;  // the command line's, then as resolved
  Plan plan_;
  Settings run_settings_;                          // the running (or last) run's, as its start event gave them
  std::shared_ptr<const Timeline> live_timeline_;  // --timeline: the running (or last) run's samples
  std::shared_ptr<const LiveTime> live_time_;      // --time: where the running (or last) run stands
  Messages messages_;                              // names its files from run_settings_
  Reporter reporter_;
  bool stderr_is_terminal_;
  std::vector<CpuCache> caches_;             // --sweep=bs=memory: the CPU's data caches
  ReportFiles* reports_ = nullptr;           // open from resolved() to finished()
  bool json_on_stderr_ = false;              // --json with no PATH: JSON replaces the text
  std::optional<std::int64_t> total_bytes_;  // for --progress
  std::string running_;                      // which run of a session is running, for SIGUSR1
  std::size_t profile_step_shown_ = 0;       // the columns of the profile's step line on the terminal
  int interrupt_ = 0;                        // the signal that stopped the run
  std::int64_t begun_ns_ = 0;                // when begin() was called, on the window's clock
  bool csv_header_sent_ = false;             // --csv on stderr: the header goes once
  std::size_t csv_rows_sent_ = 0;            // --csv on stderr: lines streamed so far
  std::vector<std::string> command_line_;    // argv as given
  std::optional<Environment> environment_;   // --json: gathered once
};

}  // namespace ddtime
