// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/console.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <utility>

#include "dd/io.h"
#include "measure/environment.h"
#include "measure/timekeeper.h"
#include "report/report_json.h"
#include "report/report_run.h"
#include "report/report_session.h"
#include "report/report_svg.h"
#include "report/report_timeline.h"
#include "system/file_kind.h"
#include "system/signals.h"

namespace ddtime {

Console::Console(Os& os, Diag& diag, RunWindow& window, const Settings& settings, const Plan& plan,
                 bool stderr_is_terminal, std::vector<std::string> command_line)
    : os_(os),
      diag_(diag),
      window_(window),
      settings_(settings),
      plan_(plan),
      run_settings_(settings),
      messages_(diag, run_settings_),
      reporter_(settings.status, settings.ext.units.value_or(RateUnits::kIecAndBytes)),
      stderr_is_terminal_(stderr_is_terminal),
      command_line_(std::move(command_line)) {}

void Console::begin() {
  begun_ns_ = window_.now_ns();
  json_on_stderr_ = settings_.ext.json && !settings_.ext.json_path;
  if (json_on_stderr_) diag_.set_muted(true);
}

void Console::resolved(const Settings& settings, const Plan& plan, std::vector<CpuCache> caches, ReportFiles& reports) {
  settings_ = settings;
  plan_ = plan;
  run_settings_ = settings;
  caches_ = std::move(caches);
  reports_ = &reports;
  if (machine_output_on_stderr()) diag_.set_muted(true);
  // Now, while no window is open, and of the files as resolved.
  environment_.reset();
  if (settings_.ext.json) environment();
}

const Environment& Console::environment() {
  if (!environment_) {
    environment_ = gather_environment(os_, command_line_, settings_.input_file, settings_.output_file);
    // Every run of --random goes in the order of the plan's one seed.
    if (plan_.random) environment_->random_seed = plan_.random_seed;
  }
  return *environment_;
}

int Console::refused() {
  if (!json_on_stderr_) return 1;
  write_all(os_, STDERR_FILENO, json_refusal(diag_.history(), environment(), DDTIME_VERSION));
  return 1;
}

void Console::run_begins(const Settings& settings, std::string label) {
  run_settings_ = settings;
  running_ = std::move(label);
}

void Console::notice(Notice what, Side side, int err, std::int64_t value) { messages_.notice(what, side, err, value); }

void Console::alignment_refused(const AlignmentProblem& problem) { messages_.alignment(problem); }

void Console::written_out_of_order(const WrittenOutOfOrder& blocks) { messages_.written_out_of_order(blocks); }

void Console::starting(const RunStart& start) {
  total_bytes_ = start.expected_bytes;
  // --direct resolved per side: what the run reports as its operands.
  if (start.settings != nullptr) run_settings_ = *start.settings;
  live_timeline_ = start.timeline;
  live_time_ = start.time;
}

void Console::show_stats(const Stats& stats) {
  // After a read error under conv=noerror GNU prints its statistics; the
  // timing report waits for the end.
  const std::string text = reporter_.summary(stats, window_.now_ns() - window_.start_ns());
  if (!text.empty()) diag_.raw(text);
}

void Console::progress(const Stats& stats, std::int64_t now_ns) {
  const std::int64_t elapsed = now_ns - window_.start_ns();
  if (settings_.ext.progress) {
    diag_.raw(reporter_.extended_progress(diag_.program(), stats, elapsed, total_bytes_, stderr_is_terminal_));
  } else {
    diag_.raw(reporter_.progress(stats, elapsed));
  }
}

RunRecord Console::snapshot_of(const Stats& stats, const RunTimes& times) const {
  RunRecord snapshot{.settings = run_settings_, .errors = diag_.history()};
  snapshot.result.stats = stats;
  snapshot.result.times = times;
  snapshot.pass = Pass::kSnapshot;
  snapshot.depth = plan_.iodepth;
  snapshot.cache = plan_.cache;
  return snapshot;
}

// --time: the snapshot of a timed run says where it stands. Inside the
// ramp every count so far is the ramp's, and it says so; after it, the
// window is the measured one (restarted at the ramp's end), and so are the
// counts: the ramp's taken away, as the final report does.
void Console::time_the_snapshot(RunRecord& snapshot, const LiveTime& live) const {
  TimedRun timed{live.limit_ns, live.ramp_ns, live.ramp_elapsed_ns, live.ramp_stats};
  timed.ended_by = TimedEnd::kRunning;
  Stats& stats = snapshot.result.stats;
  if (live.ramping) {
    timed.in_ramp = true;
    timed.ramp_elapsed_ns = snapshot.result.times.real_ns;
    timed.ramp_stats = stats;
    snapshot.phase = "ramp";  // --ramp alone has phases
  } else {
    take_away_ramp(stats, live.ramp_stats);
    if (live.ramp_ns > 0) snapshot.phase = "measured";
  }
  if (live.range_blocks > 0) {
    timed.range_blocks = live.range_blocks;
    timed.range_bytes = live.range_blocks * snapshot.settings.ibs;
    timed.passes = static_cast<double>(stats.full_records_out + stats.partial_records_out) /
                   static_cast<double>(live.range_blocks);
  }
  snapshot.result.timed = timed;
}

bool Console::handle_signals(const Stats& stats) {
  while (true) {
    const signals::Taken taken = signals::take();
    if (taken.interrupt != 0) {
      // The run stops, closes and comes back to the driver to be reported.
      interrupt_ = taken.interrupt;
      return true;
    }
    if (!taken.info) return false;
    // In a session or a read-back, which run the snapshot below is of.
    if (!running_.empty() && session_text()) diag_.raw(phase_line(diag_.program(), running_));
    const RunTimes now = window_.measure();
    RunRecord snapshot = snapshot_of(stats, now);
    // --timeline: the samples so far, with the statistics so far.
    if (live_timeline_) snapshot.result.timeline = *live_timeline_;
    if (live_time_ && live_time_->limit_ns > 0) time_the_snapshot(snapshot, *live_time_);
    present(snapshot);
    // CSV in place of the text: the snapshot is a CSV line of its own.
    if (plan_.csv && !plan_.csv_path) deliver_csv(csv_snapshot(stats, now));
  }
}

std::string Console::timeline_report(const Timeline& timeline, const SteadyRule& rule) {
  // Every line is one of ours, "PROGRAM: " first, as wide as the terminal
  // standard error is (80 columns when it is none).
  const std::string prefix = std::string(diag_.program()) + ": ";
  // Not a terminal: $COLUMNS when set (as ls takes it), else 80.
  const IoResult columns = os_.terminal_columns(STDERR_FILENO);
  unsigned width = columns.ok() && columns.n > 0 ? static_cast<unsigned>(columns.n) : 80;
  if (!columns.ok()) {
    const char* asked = std::getenv("COLUMNS");
    const long number = asked != nullptr ? std::strtol(asked, nullptr, 10) : 0;
    if (number >= 40 && number <= 1000) width = static_cast<unsigned>(number);
  }
  const unsigned room = width > prefix.size() + 20 ? width - static_cast<unsigned>(prefix.size()) : 20;
  const std::string lines =
      timeline_text(timeline, analyse_timeline(timeline, rule), room, diag_.utf8_quotes(), rate_units());
  std::string text;
  for (std::size_t start = 0; start < lines.size();) {
    const std::size_t end = lines.find('\n', start);
    text += prefix;
    text.append(lines, start, end == std::string::npos ? std::string::npos : end - start + 1);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return text;
}

int Console::present(const RunRecord& run) {
  const Settings& settings = run.settings;
  const RunResult& result = run.result;
  const bool snapshot = run.pass == Pass::kSnapshot;
  std::string text;
  // ddtime's lines come first, so that GNU's summary stays last: scripts
  // read dd's result with tail -1, awk 'END{print}' or a grep for one rate.
  if (settings.ext.timing_report && settings.status != StatusLevel::kNone) {
    text = reporter_.end_progress_line();
    if (result.random) text += random_line(diag_.program(), *result.random, result.stats, result.times, settings.ibs);
    if (result.timed) text += timed_lines(diag_.program(), *result.timed, result.times, settings.ibs);
    if (run.shows_engine) text += engine_line(diag_.program(), result.engine);
    text += jobs_line(diag_.program(), result.engine, result.times, result.stats);
    text += timing_report(diag_.program(), result.stats, result.times, settings);
    if (result.latency) text += latency_report(diag_.program(), *result.latency, diag_.utf8_quotes());
    if (result.timeline) text += timeline_report(*result.timeline, result.steady_rule);
    if (!snapshot) text += run.measured;
  }
  text += reporter_.summary(result.stats, result.times.real_ns);
  if (!text.empty()) diag_.raw(text);
  if (!settings.ext.json) return 0;
  return deliver_json(json_report(run, environment(), DDTIME_VERSION), !snapshot);
}

int Console::run_ended(const RunRecord& run) {
  const int status = present(run);
  return deliver_svg(&run, nullptr) != 0 ? 1 : status;
}

void Console::run_ended_without_summary(const RunRecord& run) {
  if (run.settings.ext.json) deliver_json(json_report(run, environment(), DDTIME_VERSION), true);
  // The chart of a run that never measured says so: the file is an SVG.
  deliver_svg(&run, nullptr);
}

int Console::deliver_svg(const RunRecord* run, const SessionRecord* session) {
  if (reports_ == nullptr || !reports_->wanted(ReportFormat::kSvg)) return 0;
  return deliver_svg_document(session != nullptr ? session_panels(*session, rate_units())
                                                 : run_panels(*run, rate_units()));
}

int Console::deliver_svg_document(const std::vector<SvgPanel>& panels) {
  SvgTitle title{shell_command(command_line_), {}, {}};
  struct utsname names {};
  if (os_.system_names(names).ok()) title.host = names.nodename;
  if (const IoResult now = os_.wall_clock_seconds(); now.ok()) title.date = svg_date(now.n);
  const std::string xml = svg_report(title, panels);
  if (const int err = reports_->write(ReportFormat::kSvg, xml); err != 0) {
    if (const std::optional<std::string> path = reports_->path(ReportFormat::kSvg)) {
      messages_.svg_report_failed(*path, err);
    }
    return 1;
  }
  return 0;
}

int Console::deliver_csv(const std::string& csv) {
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

int Console::deliver_json(const std::string& json, bool final) {
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

bool Console::interrupted_in(std::string_view phase, const SessionRecord* so_far) {
  while (signals::pending()) {
    const signals::Taken taken = signals::take();
    if (taken.interrupt != 0) {
      interrupt_ = taken.interrupt;
      return true;
    }
    if (!taken.info) break;
    phase_snapshot(phase, so_far);
  }
  return false;
}

void Console::phase_snapshot(std::string_view phase, const SessionRecord* so_far) {
  if (session_text()) {
    diag_.raw(phase_line(diag_.program(), phase));
    return;
  }
  if (json_on_stderr_) {
    deliver_json(phase_json(phase, so_far), false);
    return;
  }
  if (machine_output_on_stderr()) return;
  const RunRecord* latest = nullptr;
  if (so_far != nullptr && !so_far->runs.empty()) {
    // --readback's dd command as typed is its write pass.
    latest = so_far->readback ? &so_far->runs.front() : &so_far->runs.back();
  }
  if (latest != nullptr) {
    diag_.raw(reporter_.summary(latest->result.stats, latest->result.times.real_ns));
  } else {
    // The copy to come, as GNU's would be if it had started when we did.
    diag_.raw(reporter_.summary(Stats{}, window_.now_ns() - begun_ns_));
  }
}

std::string Console::phase_json(std::string_view phase, const SessionRecord* so_far) {
  if (so_far == nullptr) {
    // A single run not begun: its document, nothing moved, nothing timed.
    RunTimes unmeasured;
    unmeasured.measured = false;
    RunRecord run = snapshot_of(Stats{}, unmeasured);
    run.settings = settings_;
    run.phase = phase;
    return json_report(run, environment(), DDTIME_VERSION);
  }
  SessionRecord snapshot = *so_far;
  snapshot.complete = false;
  snapshot.phase = phase;
  snapshot.exit_status.reset();
  snapshot.signal = 0;
  return json_session_report(snapshot, environment(), DDTIME_VERSION);
}

std::string Console::measured_words(const Settings& settings) {
  if (!settings.ext.timing_report || settings.status == StatusLevel::kNone || machine_output_on_stderr()) return {};
  MeasuredFacts facts;
  struct stat status {};
  auto kind = [&](const std::optional<std::string>& path, int fd) {
    if (!path) return os_.fstat(fd, status).ok() ? side_kind_of(status) : SideKind::kUnknown;
    const IoResult found = os_.stat_path(path->c_str(), status);
    // An output not there yet is the regular file dd will create.
    if (!found.ok()) return found.err == ENOENT ? SideKind::kRegular : SideKind::kUnknown;
    return side_kind_of(status);
  };
  facts.pattern = plan_.pattern.has_value();
  facts.input = kind(settings.input_file, STDIN_FILENO);
  facts.output = kind(settings.output_file, STDOUT_FILENO);
  facts.input_name = settings.input_file.value_or("standard input");
  facts.output_name = settings.output_file.value_or("standard output");
  facts.bs = settings.ibs;
  facts.input_direct = settings.iflag.direct;
  facts.output_flushed = settings.conv.fsync || settings.conv.fdatasync || settings.oflag.sync ||
                         settings.oflag.dsync || settings.oflag.direct;
  if (facts.input == SideKind::kRegular && !facts.input_direct) {
    // Of the bytes this copy reads, not of the whole file.
    const std::optional<Residency> range = CacheStateSetter(os_, settings, CacheMode::kAsIs).input_range_residency();
    if (range && range->pages > 0 && range->resident) {
      facts.input_resident = static_cast<double>(*range->resident) / static_cast<double>(range->pages);
    }
    facts.input_residency_unknown = range && !range->resident;
  }
  facts.caches = caches_.empty() ? read_cpu_caches(os_, "/sys/devices/system/cpu/cpu0/cache") : caches_;
  return measured_line(diag_.program(), facts);
}

}  // namespace ddtime
