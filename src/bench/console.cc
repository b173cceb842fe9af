// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/console.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <utility>

#include "bench/console_internal.h"
#include "dd/io.h"
#include "measure/environment.h"
#include "measure/timekeeper.h"
#include "report/output_formats.h"
#include "report/report_mix.h"
#include "report/report_run.h"
#include "report/report_session.h"
#include "report/report_timeline.h"
#include "system/file_kind.h"
#include "system/signals.h"

namespace ddtime {

namespace {

using console_internal::timeline_report;
using console_internal::units_of;

// A report (JSON or CSV) takes the place of the text on standard error.
bool stderr_taken(const Plan& plan) {
  for (const OutputRequest& asked : plan.outputs) {
    if (!asked.path) return true;
  }
  return false;
}

bool session_text(const Settings& settings, const Plan& plan) {
  return settings.ext.timing_report(plan.latency) && settings.status != StatusLevel::kNone && !stderr_taken(plan);
}

// A SIGUSR1 snapshot's record: the counters and times as they stand.
RunRecord snapshot_of(const Settings& settings, const Plan& plan, const Diag& diag, const Stats& stats,
                      const RunTimes& times) {
  RunRecord snapshot{.settings = settings, .errors = diag.history()};
  snapshot.result.stats = stats;
  snapshot.result.times = times;
  snapshot.pass = Pass::kSnapshot;
  snapshot.depth = plan.iodepth;
  snapshot.cache = plan.cache;
  return snapshot;
}

// --time: the snapshot of a timed run says where it stands. Inside the
// ramp every count so far is the ramp's, and it says so; after it, the
// window is the measured one (restarted at the ramp's end), and so are the
// counts: the ramp's taken away, as the final report does.
void time_the_snapshot(RunRecord& snapshot, const LiveTime& live) {
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

}  // namespace

std::string console_internal::timeline_report(Os& os, const Diag& diag, const Timeline& timeline,
                                              const SteadyRule& rule, RateUnits units) {
  // Every line is one of ours, "PROGRAM: " first, as wide as the terminal
  // standard error is (80 columns when it is none).
  const std::string prefix = std::string(diag.program()) + ": ";
  // Not a terminal: $COLUMNS when set (as ls takes it), else 80.
  const IoResult columns = os.terminal_columns(STDERR_FILENO);
  unsigned width = columns.ok() && columns.n > 0 ? static_cast<unsigned>(columns.n) : 80;
  if (!columns.ok()) {
    const char* asked = std::getenv("COLUMNS");
    const long number = asked != nullptr ? std::strtol(asked, nullptr, 10) : 0;
    if (number >= 40 && number <= 1000) width = static_cast<unsigned>(number);
  }
  const unsigned room = width > prefix.size() + 20 ? width - static_cast<unsigned>(prefix.size()) : 20;
  const std::string lines = timeline_text(timeline, analyse_timeline(timeline, rule), room, diag.utf8_quotes(), units);
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

Console::Console(Os& os, Diag& diag, RunWindow& window, const Settings& settings, const Plan& plan,
                 bool stderr_is_terminal, std::vector<std::string> command_line)
    : os_(os),
      diag_(diag),
      window_(window),
      settings_(settings),
      plan_(plan),
      command_line_(std::move(command_line)),
      context_{os, settings_, plan_, command_line_},
      run_settings_(settings),
      messages_(diag, run_settings_),
      reporter_(settings.status, units_of(settings)),
      stderr_is_terminal_(stderr_is_terminal),
      files_(os),
      exporters_(make_exporters(context_)),
      stderr_taken_(stderr_taken(plan)),
      session_text_(session_text(settings, plan)) {}

void Console::begin() {
  begun_ns_ = window_.now_ns();
  // Only JSON words a refusal; CSV's place on stderr is taken at resolve.
  if (plan_.on_stderr("json")) diag_.set_muted(true);
}

std::optional<ReportPathProblem> Console::resolved(const Settings& settings, const Plan& plan,
                                                   std::vector<CpuCache> caches) {
  if (std::optional<ReportPathProblem> problem = files_.open(requested_reports(plan))) return problem;
  settings_ = settings;
  plan_ = plan;
  run_settings_ = settings;
  caches_ = std::move(caches);
  stderr_taken_ = stderr_taken(plan_);
  session_text_ = session_text(settings_, plan_);
  if (stderr_taken_) diag_.set_muted(true);
  for (const FormatExporter& each : exporters_) each.exporter->resolved();
  return std::nullopt;
}

int Console::refused() {
  for (const FormatExporter& each : exporters_) {
    if (const std::optional<std::string> text = each.exporter->refused(diag_.history())) {
      write_all(os_, STDERR_FILENO, *text);
    }
  }
  return 1;
}

int Console::export_all(const std::function<std::optional<std::string>(Exporter&)>& what) {
  int status = 0;
  for (const FormatExporter& each : exporters_) {
    const std::optional<std::string> text = what(*each.exporter);
    if (!text) continue;
    // A report in place of the text bypasses the muted diag; as with GNU's
    // summary, a report that cannot be written fails.
    if (const int err = files_.write(each.format->name, *text); err != 0) {
      const std::optional<std::string>& path = each.exporter->path();
      if (path) messages_.report_failed(each.format->title, *path, err);
      status = 1;
    }
  }
  return status;
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
    if (!running_.empty() && session_text_) diag_.raw(phase_line(diag_.program(), running_));
    const RunTimes now = window_.measure();
    const RunRecord counted = snapshot_of(run_settings_, plan_, diag_, stats, now);
    RunRecord snapshot = counted;
    // --timeline: the samples so far, with the statistics so far.
    if (live_timeline_) snapshot.result.timeline = *live_timeline_;
    if (live_time_ && live_time_->limit_ns > 0) time_the_snapshot(snapshot, *live_time_);
    present(snapshot);
    export_all([&](Exporter& exporter) { return exporter.snapshot(snapshot, counted); });
  }
}

void Console::present(const RunRecord& run) {
  const Settings& settings = run.settings;
  const RunResult& result = run.result;
  std::string text;
  // ddtime's lines come first, so that GNU's summary stays last: scripts
  // read dd's result with tail -1, awk 'END{print}' or a grep for one rate.
  if (settings.ext.timing_report(plan_.latency) && settings.status != StatusLevel::kNone) {
    text = reporter_.end_progress_line();
    if (result.random) text += random_line(diag_.program(), *result.random, result.stats, result.times, settings.ibs);
    if (result.mix) text += mix_line(diag_.program(), *result.mix, result.times.real_ns, units_of(settings));
    if (result.timed) text += timed_lines(diag_.program(), *result.timed, result.times, settings.ibs);
    if (run.shows_engine) text += engine_line(diag_.program(), result.engine);
    text += jobs_line(diag_.program(), result.engine, result.times, result.stats);
    text += timing_report(diag_.program(), result.stats, result.times, settings);
    if (result.latency) text += latency_report(diag_.program(), *result.latency, diag_.utf8_quotes());
    if (result.timeline) {
      text += timeline_report(os_, diag_, *result.timeline, result.steady_rule, units_of(settings_));
      if (result.mix) text += mix_timeline_line(diag_.program(), *result.timeline, units_of(settings_));
    }
    if (run.pass != Pass::kSnapshot) text += run.measured;
  }
  text += reporter_.summary(result.stats, result.times.real_ns);
  if (!text.empty()) diag_.raw(text);
}

int Console::run_ended(const RunRecord& run) {
  if (run.result.report == RunResult::Report::kSummary) present(run);
  return export_all([&](Exporter& exporter) { return exporter.run_ended(run); });
}

bool Console::interrupted_in(std::string_view phase, const SessionRecord* so_far) {
  while (signals::pending()) {
    const signals::Taken taken = signals::take();
    if (taken.interrupt != 0) {
      interrupt_ = taken.interrupt;
      return true;
    }
    if (!taken.info) break;
    if (session_text_) {
      diag_.raw(phase_line(diag_.program(), phase));
    } else if (stderr_taken_) {
      // A single run not begun: nothing moved, nothing timed.
      RunTimes unmeasured;
      unmeasured.measured = false;
      RunRecord unbegun = snapshot_of(settings_, plan_, diag_, Stats{}, unmeasured);
      unbegun.phase = phase;
      export_all([&](Exporter& exporter) { return exporter.phase(unbegun, so_far); });
    } else if (so_far != nullptr && !so_far->runs.empty()) {
      // --readback's dd command as typed is its write pass.
      const RunRecord& latest = so_far->readback ? so_far->runs.front() : so_far->runs.back();
      diag_.raw(reporter_.summary(latest.result.stats, latest.result.times.real_ns));
    } else {
      // The copy to come, as GNU's would be if it had started when we did.
      diag_.raw(reporter_.summary(Stats{}, window_.now_ns() - begun_ns_));
    }
  }
  return false;
}

std::string Console::measured_words(const Settings& settings, FileKinds kinds) {
  if (!settings.ext.timing_report(plan_.latency) || settings.status == StatusLevel::kNone || stderr_taken_) return {};
  MeasuredFacts facts;
  // --mix's data is the generator's, but what it measures is the target's
  // reads and writes: said as a copy from it to it.
  facts.pattern = plan_.pattern.has_value() && !plan_.mix;
  // An output not there yet is the regular file dd will create.
  facts.input = side_kind_of(once_opened(kinds.input));
  facts.output = side_kind_of(once_opened(kinds.output));
  facts.input_name = settings.input_file.value_or("standard input");
  facts.output_name = settings.output_file.value_or("standard output");
  facts.bs = settings.ibs;
  facts.input_direct = settings.iflag.direct;
  facts.output_flushed = settings.conv.fsync || settings.conv.fdatasync || settings.oflag.sync ||
                         settings.oflag.dsync || settings.oflag.direct;
  if (facts.input == SideKind::kRegular && !facts.input_direct) {
    // Of the bytes this copy reads, not of the whole file.
    const std::optional<Residency> range =
        CacheStateSetter(os_, settings, kinds, CacheMode::kAsIs).input_range_residency();
    if (range && range->pages > 0 && range->resident) {
      facts.input_resident = static_cast<double>(*range->resident) / static_cast<double>(range->pages);
    }
    facts.input_residency_unknown = range && !range->resident;
  }
  facts.caches = caches_.empty() ? read_cpu_caches(os_, "/sys/devices/system/cpu/cpu0/cache") : caches_;
  return measured_line(diag_.program(), facts);
}

}  // namespace ddtime
