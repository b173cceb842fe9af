// SPDX-License-Identifier: GPL-3.0-or-later
// The console's sessions and read-backs: a line per run or pass as it
// ends, the statistics, the sweep table, GNU's lines last, CSV and JSON,
// all read from the session's record.
#include <fmt/format.h>

#include <algorithm>

#include "bench/console.h"
#include "report/report_json.h"
#include "report/report_run.h"
#include "report/report_session.h"

namespace ddtime {

namespace {

// --random leads with the I/Os per second: records over real time.
std::optional<double> random_iops(const RunRecord& run) {
  const RunFigures figures = run.figures();
  if (!run.result.random || figures.real <= 0) return std::nullopt;
  return static_cast<double>(run.records_in()) / figures.real;
}

}  // namespace

void Console::generator_measured(double bytes_per_second) {
  if (!session_text()) return;
  diag_.raw(generator_line(diag_.program(), pattern_name(*plan_.pattern), bytes_per_second, rate_units()));
}

void Console::cache_prepared(std::string_view setting, const CacheState& state) {
  if (session_text()) diag_.raw(cache_line(diag_.program(), setting, plan_.cache, state));
}

void Console::cache_failed(CacheMode mode, const CacheFailure& failure) {
  messages_.cache_failed(cache_mode_name(mode), failure.err, failure.doing, failure.path);
}

void Console::session_run_ended(const SessionRecord& session, const RunRecord& run) {
  stream_csv(run);
  const RunResult& done = run.result;
  // A run GNU would end with die(): its message is all there is.
  if (done.report != RunResult::Report::kSummary) return;
  // As dd, each run says what dd says, as so many dd commands would; one
  // that a SIGINT stopped too, as GNU's handler does before it dies.
  if (!session_text() && !machine_output_on_stderr()) diag_.raw(reporter_.summary(done.stats, done.times.real_ns));
  if (!run.complete() || !session_text()) return;
  diag_.raw(reporter_.end_progress_line());
  const RunFigures figures = run.figures();
  const std::string_view setting = session.names_rows() ? std::string_view(session.rows[run.row].setting) : "";
  const unsigned of = run.warmup ? session.plan.warmup : session.plan.repeat;
  diag_.raw(session_run_line(diag_.program(), {setting, run.warmup, run.index, of, !run.warmup && !run.counted()},
                             {figures, done.times, rate_units(), settings_.ext.split_times, random_iops(run)}));
  if (done.latency) diag_.raw(latency_report(diag_.program(), *done.latency, diag_.utf8_quotes()));
  time_lines(run);
}

// --time and --timeline in a session: each run's passes and chart under its line.
void Console::time_lines(const RunRecord& run) {
  const RunResult& done = run.result;
  if (done.timed) diag_.raw(timed_lines(diag_.program(), *done.timed, done.times, run.settings.ibs));
  if (done.timeline) diag_.raw(timeline_report(*done.timeline, done.steady_rule));
}

void Console::pass_ended(const RunRecord& pass) {
  stream_csv(pass);
  if (!session_text() || !pass.counted()) return;
  const RunFigures figures = pass.figures();
  diag_.raw(reporter_.end_progress_line());
  diag_.raw(pass_line(diag_.program(), pass_name(pass.pass),
                      {figures, pass.result.times, rate_units(), settings_.ext.split_times, random_iops(pass)}));
  if (pass.result.latency) diag_.raw(latency_report(diag_.program(), *pass.result.latency, diag_.utf8_quotes()));
  time_lines(pass);
}

void Console::cache_dropped(std::int64_t ns) {
  if (session_text()) diag_.raw(drop_line(diag_.program(), ns));
}

void Console::read_buffered(const std::string& path, std::int64_t bytes, std::int64_t where, std::int64_t alignment) {
  if (session_text()) diag_.raw(buffered_read_line(diag_.program(), path, bytes, where, alignment));
}

void Console::verified(const VerifyOutcome& outcome, std::int64_t ns) {
  if (session_text()) diag_.raw(verify_line(diag_.program(), outcome, ns, rate_units()));
}

std::string Console::csv_of(std::span<const RunRecord> runs, bool header) const {
  return plan_.timeline ? timeline_csv(runs, header) : session_csv(runs, header);
}

void Console::stream_csv(const RunRecord& run) {
  if (!plan_.csv || plan_.csv_path) return;
  deliver_csv(csv_of({&run, 1}, !csv_header_sent_));
  csv_header_sent_ = true;
  ++csv_rows_sent_;
}

std::string Console::csv_table(std::span<const RunRecord> runs) {
  if (!plan_.csv || plan_.csv_path) return csv_of(runs, true);
  const std::size_t sent = std::min(csv_rows_sent_, runs.size());
  std::string text = csv_of(runs.subspan(sent), !csv_header_sent_);
  csv_header_sent_ = true;
  csv_rows_sent_ = runs.size();
  return text;
}

std::string Console::csv_snapshot(const Stats& stats, const RunTimes& times) {
  const RunRecord snapshot = snapshot_of(stats, times);
  std::string text = csv_of({&snapshot, 1}, !csv_header_sent_);
  csv_header_sent_ = true;
  return text;
}

// Each row's statistics (as text with --repeat), with its runs' latency
// merged.
void Console::print_rows(const SessionRecord& session) {
  if (plan_.repeat <= 1) return;
  for (const RowRecord& row : session.rows) {
    if (!row.summary) continue;
    const std::string_view setting = session.rows.size() > 1 ? std::string_view(row.setting) : "";
    diag_.raw(
        session_statistics(diag_.program(), setting, *row.summary, plan_.warmup, diag_.utf8_quotes(), rate_units()));
    if (!row.latency) continue;
    diag_.raw(fmt::format("{}: the {} runs' latency together:\n", diag_.program(), row.counted));
    diag_.raw(latency_report(diag_.program(), *row.latency, diag_.utf8_quotes()));
  }
}

// The sweep table, the knee, then GNU's lines last: the last run's, as dd
// would have printed them.
void Console::print_session_end(const SessionRecord& session) {
  const bool any_summary = std::any_of(session.rows.begin(), session.rows.end(),
                                       [](const RowRecord& row) { return row.summary.has_value(); });
  if (session.names_rows() && any_summary) {
    diag_.raw(sweep_table(diag_.program(), session.rows, diag_.utf8_quotes(), rate_units()));
  }
  for (const RowRecord& row : session.rows) {
    if (row.knee) diag_.raw(knee_line(diag_.program(), row.bs, plan_.repeat > 1));
  }
  if (session.runs.empty() || session.runs.back().result.report != RunResult::Report::kSummary) return;
  const RunRecord& last = session.runs.back();
  if (last.shows_engine) diag_.raw(engine_line(diag_.program(), last.result.engine));
  diag_.raw(jobs_line(diag_.program(), last.result.engine, last.result.times, last.result.stats));
  // The measured line of the run whose GNU lines follow: in a sweep, the
  // last row's, and it says so.
  diag_.raw(session.rows.size() > 1 ? row_labelled(last.measured, session.rows[last.row].setting) : last.measured);
  diag_.raw(reporter_.summary(last.result.stats, last.result.times.real_ns));
}

// GNU's lines last: the write pass's, the dd command as typed.
void Console::print_readback_end(const SessionRecord& session) {
  const bool text = session_text();
  if (session.runs.empty() || session.runs.front().result.report != RunResult::Report::kSummary) return;
  if (!text && machine_output_on_stderr()) return;
  const RunRecord& write = session.runs.front();
  if (text && write.shows_engine) diag_.raw(engine_line(diag_.program(), write.result.engine));
  if (text) diag_.raw(jobs_line(diag_.program(), write.result.engine, write.result.times, write.result.stats));
  diag_.raw(reporter_.summary(write.result.stats, write.result.times.real_ns));
}

int Console::session_ended(const SessionRecord& session) {
  if (session.readback) {
    print_readback_end(session);
  } else if (session_text()) {
    print_rows(session);
    print_session_end(session);
  }
  int status = session.exit_status.value_or(1);
  if (plan_.csv && deliver_csv(csv_table(session.runs)) != 0) status = 1;
  if (deliver_svg(nullptr, &session) != 0) status = 1;
  if (!settings_.ext.json) return status;
  if (deliver_json(json_session_report(session, environment(), DDTIME_VERSION), true) != 0) status = 1;
  return status;
}

}  // namespace ddtime
