// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/driver.h"

#include <signal.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <csignal>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "measure/aggregate.h"
#include "bench/driver_internal.h"
#include "bench/resolve.h"
#include "dd/io.h"
#include "report/report_session.h"
#include "system/signals.h"

namespace ddtime {

namespace driver_detail {

// Dies by sig with its default action, after the statistics, as GNU does.
void die_by(int sig) noexcept {
  std::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  std::raise(sig);
  // Only reached if the signal could not kill us.
  _exit(128 + sig);
}

// count= as a number of bytes (count_bytes), whatever the block size.
void count_bytes(Settings& settings, std::int64_t bytes) noexcept {
  settings.max_records = bytes / settings.ibs;
  settings.max_bytes = bytes % settings.ibs;
}

// skip= or seek= counted again in blocks of a new size.
void reblock(std::int64_t& records, std::int64_t& bytes, std::int64_t old_size, std::int64_t new_size) noexcept {
  std::int64_t total = 0;
  if (!multiply_add_fits(records, old_size, bytes, total)) return;
  records = total / new_size;
  bytes = total % new_size;
}

RunFigures figures_of(const RunResult& result) {
  RunFigures figures;
  figures.real = static_cast<double>(result.times.real_ns) / 1e9;
  figures.user = static_cast<double>(result.times.user_ns) / 1e9;
  figures.sys = static_cast<double>(result.times.sys_ns) / 1e9;
  const double bytes = result.stats.bytes_out > 0 ? static_cast<double>(result.stats.bytes_out) : 0;
  figures.bytes_per_second = figures.real > 0 ? bytes / figures.real : 0;
  return figures;
}

}  // namespace driver_detail

using namespace driver_detail;


Driver::Driver(Os& os, Clock& clock, Diag& diag, const Settings& settings, const Plan& plan,
               bool stderr_is_terminal)
    : os_(os),
      diag_(diag),
      settings_(settings),
      plan_(plan),
      messages_(diag, settings_),
      reporter_(settings.status, settings.ext.units.value_or(RateUnits::kIecAndBytes)),
      window_(clock, reports_times()),  // settings_ and plan_ are set by now
      stderr_is_terminal_(stderr_is_terminal) {}

Driver::~Driver() {
  if (device_claim_ >= 0) os_.close(device_claim_);
}

void Driver::notice(Notice what, Side side, int err, std::int64_t value) {
  messages_.notice(what, side, err, value);
}

void Driver::alignment_refused(const AlignmentProblem& problem) { messages_.alignment(problem); }

void Driver::starting(const RunStart& start) { total_bytes_ = start.expected_bytes; }

void Driver::show_stats(const Stats& stats) {
  // After a read error under conv=noerror GNU prints its statistics; the
  // timing report waits for the end.
  std::string text = reporter_.summary(stats, window_.now_ns() - window_.start_ns());
  if (!text.empty()) diag_.raw(text);
}

void Driver::progress(const Stats& stats, std::int64_t now_ns) {
  const std::int64_t elapsed = now_ns - window_.start_ns();
  if (settings_.ext.progress) {
    diag_.raw(reporter_.extended_progress(diag_.program(), stats, elapsed, total_bytes_, stderr_is_terminal_));
  } else {
    diag_.raw(reporter_.progress(stats, elapsed));
  }
}

bool Driver::handle_signals(const Stats& stats) {
  while (true) {
    const signals::Taken taken = signals::take();
    if (taken.interrupt != 0) {
      // The run stops, closes and comes back here to be reported.
      interrupt_ = taken.interrupt;
      return true;
    }
    if (!taken.info) return false;
    // In a session or a read-back, which run the snapshot below is of.
    if (!running_.empty() && session_text()) diag_.raw(phase_line(diag_.program(), running_));
    const RunTimes now = window_.measure();
    summarise(stats, now, false, std::nullopt, 0);
    // CSV in place of the text: the snapshot is a CSV line of its own.
    if (plan_.csv && !plan_.csv_path) deliver_csv(csv_snapshot(stats, now));
  }
}

int Driver::summarise(const Stats& stats, const RunTimes& times, bool complete, std::optional<int> exit_status,
                      int signal, const EngineUse* engine, const LatencyReport* latency) {
  const Settings& settings = reported();
  std::string text;
  // ddtime's lines come first, so that GNU's summary stays last: scripts
  // read dd's result with tail -1, awk 'END{print}' or a grep for one rate.
  if (settings.ext.timing_report && settings.status != StatusLevel::kNone) {
    text = reporter_.end_progress_line();
    if (engine != nullptr) text += engine_line(diag_.program(), *engine);
    text += timing_report(diag_.program(), stats, times, settings);
    if (latency != nullptr) text += latency_report(diag_.program(), *latency, diag_.utf8_quotes());
    if (complete || signal != 0) text += measured_;
  }
  text += reporter_.summary(stats, times.real_ns);
  if (!text.empty()) diag_.raw(text);
  if (!settings.ext.json) return 0;
  JsonRun run{settings, stats, times, complete, exit_status, signal, diag_.history(), DDTIME_VERSION, engine, latency};
  return deliver_json(json_report(run), complete || signal != 0);
}

int Driver::report_without_summary(const RunResult& result) {
  if (!settings_.ext.json) return result.exit_status;
  RunTimes no_time;
  no_time.measured = false;  // the window never opened
  JsonRun run{reported(), result.stats, no_time, true, result.exit_status, 0, diag_.history(), DDTIME_VERSION};
  deliver_json(json_report(run), true);
  return result.exit_status;
}

int Driver::deliver_csv(const std::string& csv) {
  if (reports_ == nullptr) return 0;
  // CSV in place of the text on stderr bypasses the muted diag; as with
  // GNU's summary, a report that cannot be written fails.
  if (const int err = reports_->write(ReportFormat::kCsv, csv); err != 0) {
    if (const std::optional<std::string> path = reports_->path(ReportFormat::kCsv)) {
      messages_.csv_report_failed(*path, err);
    }
    return 1;
  }
  return 0;
}

int Driver::deliver_json(const std::string& json, bool final) {
  if (reports_ == nullptr) return 0;
  const std::optional<std::string> path = reports_->path(ReportFormat::kJson);
  // A file holds the last word only: the end of the run, or its signal.
  if (path && !final) return 0;
  if (const int err = reports_->write(ReportFormat::kJson, json); err != 0) {
    if (path) messages_.json_report_failed(*path, err);
    return 1;
  }
  return 0;
}

int Driver::refused() {
  if (!json_on_stderr_) return 1;
  const std::string json = json_refusal(diag_.history(), DDTIME_VERSION);
  write_all(os_, STDERR_FILENO, json);
  return 1;
}

bool Driver::interrupted_in(std::string_view phase) {
  while (signals::pending()) {
    const signals::Taken taken = signals::take();
    if (taken.interrupt != 0) {
      interrupt_ = taken.interrupt;
      return true;
    }
    if (!taken.info) break;
    phase_snapshot(phase);
  }
  return false;
}

void Driver::phase_snapshot(std::string_view phase) {
  if (session_text()) {
    diag_.raw(phase_line(diag_.program(), phase));
    return;
  }
  if (json_on_stderr_) {
    deliver_json(phase_json(phase), false);
    return;
  }
  if (machine_output_on_stderr()) return;
  const SessionRun* latest = nullptr;
  if (runs_so_far_ != nullptr && !runs_so_far_->empty()) {
    // --readback's dd command as typed is its write pass.
    latest = runs_are_passes_ ? &runs_so_far_->front() : &runs_so_far_->back();
  }
  if (latest != nullptr) {
    diag_.raw(reporter_.summary(latest->result.stats, latest->result.times.real_ns));
  } else {
    // The copy to come, as GNU's would be if it had started when we did.
    diag_.raw(reporter_.summary(Stats{}, window_.now_ns() - begun_ns_));
  }
}

int Driver::run() {
  begun_ns_ = window_.now_ns();
  const std::vector<ReportRequest> reports = requested_reports(settings_, plan_);
  // JSON replaces every line of text on stderr, refusals included.
  json_on_stderr_ = settings_.ext.json && !settings_.ext.json_path;
  if (json_on_stderr_) diag_.set_muted(true);
  // Everything besides GNU's own copy that takes time (calibration,
  // warm-up, cache drop, preallocation, the passes) happens with the
  // handlers in place: a SIGUSR1 then never kills, and a SIGINT is heard.
  if (plan_.session() || plan_.readback || plan_.preallocate) signals::install_as_gnu();
  std::optional<Job> job = resolve(os_, settings_, plan_, messages_);
  if (!job) return refused();
  settings_ = std::move(job->settings);
  plan_ = std::move(job->plan);
  sweep_bytes_ = job->sweep_bytes;
  range_bytes_ = job->bytes;
  input_kind_ = job->input;
  caches_ = std::move(job->caches);
  device_claim_ = job->device_claim;
  ReportFiles files(os_);
  if (const std::optional<ReportPathProblem> problem = files.open(reports)) {
    messages_.report_path_refused(*problem);
    return refused();
  }
  reports_ = &files;
  if (machine_output_on_stderr()) diag_.set_muted(true);
  const int status = plan_.readback ? run_readback() : plan_.session() ? run_session() : run_single();
  reports_ = nullptr;
  return status;
}

int Driver::run_single() {
  measured_ = measured_words(settings_);
  Run run(os_, *this, window_, settings_, plan_);
  run_settings_ = &run.settings();
  const RunResult result = run.perform();
  switch (result.report) {
    case RunResult::Report::kNothing:
      return result.exit_status;
    case RunResult::Report::kJsonOnly:
      return report_without_summary(result);
    case RunResult::Report::kSummary:
      break;
  }
  const bool show_engine = plan_.shows_engine();
  const EngineUse* engine = show_engine ? &result.engine : nullptr;
  if (result.ending == Ending::kInterrupted) {
    summarise(result.stats, result.times, false, std::nullopt, interrupt_, engine,
              result.latency ? &*result.latency : nullptr);
    die_by(interrupt_);
  }
  int status = result.exit_status;
  // The JSON carries the status as it stood; failing to write it fails too.
  if (summarise(result.stats, result.times, true, status, 0, engine, result.latency ? &*result.latency : nullptr) != 0) {
    status = 1;
  }
  return status;
}


}  // namespace ddtime
