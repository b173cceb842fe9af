// SPDX-License-Identifier: GPL-3.0-or-later
// The console's sessions and read-backs: a line per run or pass as it
// ends, the statistics, the sweep table, GNU's lines last, CSV and JSON,
// all read from the session's record.
#include <fmt/format.h>

#include <algorithm>

#include "bench/console.h"
#include "bench/console_internal.h"
#include "report/report_capacity.h"
#include "report/report_mix.h"
#include "report/report_run.h"
#include "report/report_session.h"

namespace ddtime {

namespace {

using console_internal::timeline_report;
using console_internal::units_of;

// --random leads with the I/Os per second: records over real time.
std::optional<double> random_iops(const RunRecord& run) {
  const RunFigures figures = run.figures();
  if (!run.result.random || figures.real <= 0) return std::nullopt;
  return static_cast<double>(run.records_in()) / figures.real;
}

// What the text of a session is written with.
struct Screen {
  Os& os;
  const Diag& diag;
  Reporter& reporter;
  const Settings& settings;
  const Plan& plan;
};

// --time and --timeline in a session: each run's passes and chart under its line.
void time_lines(const Screen& screen, const RunRecord& run) {
  const RunResult& done = run.result;
  const std::string& program = screen.diag.program();
  if (done.timed) screen.diag.raw(timed_lines(program, *done.timed, done.times, run.settings.ibs));
  if (done.timeline) {
    screen.diag.raw(
        timeline_report(screen.os, screen.diag, *done.timeline, done.steady_rule, units_of(screen.settings)));
    if (done.mix) screen.diag.raw(mix_timeline_line(program, *done.timeline, units_of(screen.settings)));
  }
}

// A run's line (a session's) or a pass's (a read-back's), then its latency
// and time.
void run_lines(const Screen& screen, const SessionRecord& session, const RunRecord& run) {
  const Diag& diag = screen.diag;
  const RunFigures figures = run.figures();
  const RunLineFigures line{figures, run.result.times, units_of(screen.settings), screen.settings.ext.split_times,
                            random_iops(run)};
  diag.raw(screen.reporter.end_progress_line());
  if (session.readback) {
    diag.raw(pass_line(diag.program(), pass_name(run.pass), line));
  } else {
    const std::string_view setting = session.names_rows() ? std::string_view(session.rows[run.row].setting) : "";
    const unsigned of = run.warmup ? session.plan.warmup : session.plan.repeat;
    diag.raw(
        session_run_line(diag.program(), {setting, run.warmup, run.index, of, !run.warmup && !run.counted()}, line));
  }
  if (run.result.mix)
    diag.raw(mix_line(diag.program(), *run.result.mix, run.result.times.real_ns, units_of(screen.settings)));
  if (run.result.latency) diag.raw(latency_report(diag.program(), *run.result.latency, diag.utf8_quotes()));
  time_lines(screen, run);
}

// Each row's statistics (as text with --repeat), with its runs' latency
// merged.
void print_rows(const Screen& screen, const SessionRecord& session) {
  const Diag& diag = screen.diag;
  if (screen.plan.repeat <= 1) return;
  for (const RowRecord& row : session.rows) {
    if (!row.summary) continue;
    const std::string_view setting = session.rows.size() > 1 ? std::string_view(row.setting) : "";
    diag.raw(session_statistics(diag.program(), setting, *row.summary, screen.plan.warmup, diag.utf8_quotes(),
                                units_of(screen.settings)));
    if (!row.latency) continue;
    diag.raw(fmt::format("{}: the {} runs' latency together:\n", diag.program(), row.counted));
    diag.raw(latency_report(diag.program(), *row.latency, diag.utf8_quotes()));
  }
}

// The sweep table, the knee, then GNU's lines last: the last run's, as dd
// would have printed them.
void print_session_end(const Screen& screen, const SessionRecord& session) {
  const Diag& diag = screen.diag;
  const bool any_summary = std::any_of(session.rows.begin(), session.rows.end(),
                                       [](const RowRecord& row) { return row.summary.has_value(); });
  if (session.names_rows() && any_summary) {
    diag.raw(sweep_table(diag.program(), session.rows, diag.utf8_quotes(), units_of(screen.settings)));
  }
  for (const RowRecord& row : session.rows) {
    if (row.knee) diag.raw(knee_line(diag.program(), row.bs, screen.plan.repeat > 1));
  }
  if (session.runs.empty() || session.runs.back().result.report != RunResult::Report::kSummary) return;
  const RunRecord& last = session.runs.back();
  if (last.shows_engine) diag.raw(engine_line(diag.program(), last.result.engine));
  diag.raw(jobs_line(diag.program(), last.result.engine, last.result.times, last.result.stats));
  // The measured line of the run whose GNU lines follow: in a sweep, the
  // last row's, and it says so.
  diag.raw(session.rows.size() > 1 ? row_labelled(last.measured, session.rows[last.row].setting) : last.measured);
  diag.raw(screen.reporter.summary(last.result.stats, last.result.times.real_ns));
}

// GNU's lines last: the write pass's, the dd command as typed.
void print_readback_end(const Screen& screen, const SessionRecord& session, bool text, bool stderr_taken) {
  const Diag& diag = screen.diag;
  if (session.runs.empty() || session.runs.front().result.report != RunResult::Report::kSummary) return;
  if (!text && stderr_taken) return;
  const RunRecord& write = session.runs.front();
  if (text && write.shows_engine) diag.raw(engine_line(diag.program(), write.result.engine));
  if (text) diag.raw(jobs_line(diag.program(), write.result.engine, write.result.times, write.result.stats));
  diag.raw(screen.reporter.summary(write.result.stats, write.result.times.real_ns));
}

}  // namespace

int Console::session_step(const SessionStep& step) {
  const std::string& program = diag_.program();
  if (const auto* failed = std::get_if<CacheFailed>(&step)) {
    messages_.cache_failed(cache_mode_name(failed->mode), failed->failure.err, failed->failure.doing,
                           failed->failure.path);
    return 0;
  }
  if (const auto* capacity = std::get_if<CapacityReport>(&step)) {
    const CapacityProblem& problem = capacity->problem;
    if (problem.what != CapacityProblem::What::kNone && problem.what != CapacityProblem::What::kInterrupted) {
      const CapacityProblemWords words =
          capacity_problem_words(problem, capacity->result, diag_.quote(*settings_.output_file));
      if (!words.text.empty()) diag_.error(words.err, words.text);
    }
    if (capacity->complete() && session_text_) {
      diag_.raw(capacity_text(program, capacity->result, diag_.quote(*settings_.output_file)));
    }
    return export_all([&](Exporter& exporter) { return exporter.capacity_ended(*capacity); });
  }
  if (!session_text_) return 0;
  const RateUnits units = units_of(settings_);
  if (const auto* rate = std::get_if<GeneratorMeasured>(&step)) {
    diag_.raw(generator_line(program, pattern_name(*plan_.pattern), rate->bytes_per_second, units));
  } else if (const auto* cache = std::get_if<CachePrepared>(&step)) {
    diag_.raw(cache_line(program, cache->setting, plan_.cache, cache->state));
  } else if (const auto* drop = std::get_if<CacheDropped>(&step)) {
    diag_.raw(drop_line(program, drop->ns));
  } else if (const auto* read = std::get_if<ReadBuffered>(&step)) {
    diag_.raw(buffered_read_line(program, read->path, read->bytes, read->where, read->alignment));
  } else if (const auto* verified = std::get_if<Verified>(&step)) {
    diag_.raw(verify_line(program, verified->outcome, verified->ns, units));
  }
  return 0;
}

void Console::session_run_ended(const SessionRecord& session, const RunRecord& run) {
  export_all([&](Exporter& exporter) { return exporter.session_run_ended(run); });
  if (session.readback) {
    if (session_text_ && run.counted()) run_lines({os_, diag_, reporter_, settings_, plan_}, session, run);
    return;
  }
  const RunResult& done = run.result;
  // A run GNU would end with die(): its message is all there is.
  if (done.report != RunResult::Report::kSummary) return;
  // As dd, each run says what dd says, as so many dd commands would; one
  // that a SIGINT stopped too, as GNU's handler does before it dies.
  if (!session_text_ && !stderr_taken_) diag_.raw(reporter_.summary(done.stats, done.times.real_ns));
  if (!run.complete() || !session_text_) return;
  run_lines({os_, diag_, reporter_, settings_, plan_}, session, run);
}

int Console::session_ended(const SessionRecord& session) {
  const Screen screen{os_, diag_, reporter_, settings_, plan_};
  if (session.readback) {
    print_readback_end(screen, session, session_text_, stderr_taken_);
  } else if (session_text_) {
    print_rows(screen, session);
    print_session_end(screen, session);
  }
  int status = session.exit_status.value_or(1);
  if (export_all([&](Exporter& exporter) { return exporter.session_ended(session); }) != 0) status = 1;
  return status;
}

}  // namespace ddtime
