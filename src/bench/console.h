// SPDX-License-Identifier: GPL-3.0-or-later
// console — everything the user sees of a run, a session or a read-back:
// it implements Events (GNU's messages, progress, the statistics on
// SIGUSR1, SIGINT heard), words the measured line, prints ddtime's lines
// and GNU's summary from the records, and hands each record to the
// exporters built once from the plan's outputs (output_formats.h), writing
// what they answer to the report files it opens. It keeps no run's state
// but a copy of the running run's settings, handed over in the run's start
// event; what runs and when is the driver's.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "measure/cache_state.h"
#include "measure/measured.h"
#include "measure/profile_record.h"
#include "measure/record.h"
#include "measure/run_window.h"
#include "measure/verify.h"
#include "model/capacity.h"
#include "model/events.h"
#include "model/plan.h"
#include "model/settings.h"
#include "report/diag.h"
#include "report/exporter.h"
#include "report/messages.h"
#include "report/output_formats.h"
#include "report/report.h"
#include "report/report_files.h"
#include "system/os.h"

namespace ddtime {

// A session's or a read-back's steps, as they happen: each a line of the
// text report, a failed cache step a message whatever the report.
struct GeneratorMeasured {
  double bytes_per_second;
};
struct CachePrepared {
  std::string_view setting;
  const CacheState& state;
};
struct CacheFailed {
  CacheMode mode;
  const CacheFailure& failure;
};
struct CacheDropped {
  std::int64_t ns;
};
struct ReadBuffered {
  const std::string& path;
  std::int64_t bytes;
  std::int64_t where;
  std::int64_t alignment;
};
struct Verified {
  const VerifyOutcome& outcome;
  std::int64_t ns;
};
// --capacity's end (CapacityReport) is the last step of its passes.
using SessionStep =
    std::variant<GeneratorMeasured, CachePrepared, CacheFailed, CacheDropped, ReadBuffered, Verified, CapacityReport>;

class Console final : public Events {
 public:
  // settings and plan: the command line's, until resolved() replaces them;
  // command_line: argv as given, for the JSON's environment and the SVG's
  // heading. The exporters are built here, from plan's outputs; they hold
  // references into the console, which is neither copied nor moved (its
  // report files are not).
  Console(Os& os, Diag& diag, RunWindow& window, const Settings& settings, const Plan& plan, bool stderr_is_terminal,
          std::vector<std::string> command_line = {});

  // Before anything else: a report on stderr replaces every line of text,
  // refusals included, so diag is muted from here.
  void begin();
  const Messages& messages() const noexcept { return messages_; }
  // What every run is reported against once resolve has decided it: the
  // report files are opened (all or none: the problem is returned, and
  // nothing else changes), and the exporters told, before the first run's
  // window opens.
  std::optional<ReportPathProblem> resolved(const Settings& settings, const Plan& plan, std::vector<CpuCache> caches);
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
  std::string measured_words(const Settings& settings, FileKinds kinds);

  // One plain run's end (or its stop by a signal): ddtime's report, GNU's
  // summary, the reports; a run GNU ends without statistics (report
  // kJsonOnly) only the reports. Returns nonzero when a report could not
  // be written.
  int run_ended(const RunRecord& run);

  // Nonzero when a report could not be written (--capacity's JSON).
  int session_step(const SessionStep& step);
  // A finished run of a session or pass of a read-back: its CSV line on
  // stderr at once, then as dd GNU's lines, as ddtime its line.
  void session_run_ended(const SessionRecord& session, const RunRecord& run);
  // The end of a session or read-back (session.exit_status, or a signal):
  // the statistics, the table, GNU's lines last, the reports. Returns the
  // exit status, 1 when a report could not be written.
  int session_ended(const SessionRecord& session);
  // --profile's end (complete, failed or stopped by a signal): the table
  // and its footer, the reports (console_profile.cc). Returns the exit
  // status, 1 when a report could not be written.
  int profile_ended(const ProfileRecord& record);
  // Where a profile stands ("SEQ1M Q8T1 read, run 2 of 3"), on a terminal
  // only: one line overwritten in place, cleared before the table (B8).
  void profile_step(std::string_view step);

 private:
  // ddtime's lines and GNU's summary of a run or a snapshot.
  void present(const RunRecord& run);
  // Each exporter's answer to what (none: nothing now) to its target; a
  // failed write says so. Returns 1 when one failed, else 0.
  int export_all(const std::function<std::optional<std::string>(Exporter&)>& what);

  Os& os_;
  Diag& diag_;
  RunWindow& window_;
  Settings settings_;  // the command line's, then as resolved
  Plan plan_;
  std::vector<std::string> command_line_;          // argv as given
  ExportContext context_;                          // the exporters' view of the three above
  Settings run_settings_;                          // the running (or last) run's, as its start event gave them
  std::shared_ptr<const Timeline> live_timeline_;  // --timeline: the running (or last) run's samples
  std::shared_ptr<const LiveTime> live_time_;      // --time: where the running (or last) run stands
  Messages messages_;                              // names its files from run_settings_
  Reporter reporter_;
  bool stderr_is_terminal_;
  std::vector<CpuCache> caches_;  // --sweep=bs=memory: the CPU's data caches
  ReportFiles files_;             // open from resolved() on
  std::vector<FormatExporter> exporters_;
  bool stderr_taken_ = false;                // a report (JSON or CSV) in place of the text: diag muted, no text
  bool session_text_ = false;                // whether a session prints ddtime's lines
  std::optional<std::int64_t> total_bytes_;  // for --progress
  std::string running_;                      // which run of a session is running, for SIGUSR1
  std::size_t profile_step_shown_ = 0;       // the columns of the profile's step line on the terminal
  int interrupt_ = 0;                        // the signal that stopped the run
  std::int64_t begun_ns_ = 0;                // when begin() was called, on the window's clock
};

}  // namespace ddtime
