// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <ctime>

#include "measure/timeline.h"
#include "model/units.h"
#include "report/report.h"
#include "report/report_run.h"
#include "report/report_session.h"

namespace ddtime {
namespace {

bool si_units(RateUnits units) { return units == RateUnits::kSi; }

SvgUnit rate_unit(RateUnits units) { return si_units(units) ? SvgUnit{"MB/s", 1e6} : SvgUnit{"MiB/s", 1048576.0}; }

// The bytes axis in the unit that suits the run's size.
SvgUnit bytes_unit(double largest, RateUnits units) {
  const double kilo = si_units(units) ? 1000.0 : 1024.0;
  const char* const names[2][4] = {{"B", "KiB", "MiB", "GiB"}, {"B", "kB", "MB", "GB"}};
  double size = 1;
  int level = 0;
  while (level < 3 && largest >= size * kilo) {
    size *= kilo;
    ++level;
  }
  return {names[si_units(units) ? 1 : 0][level], size};
}

// "405 MiB/s", "1.25 GiB/s"-style: three significant digits in the axis's unit.
std::string rate_words(double bytes_per_second, const SvgUnit& unit) {
  const double value = std::isfinite(bytes_per_second) ? bytes_per_second / unit.size : 0;
  const int decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return fmt::format("{:.{}f} {}", value, decimals, unit.name);
}

std::string percent_words(double value) { return fmt::format("{:g}%", value); }

// "SIGINT", or "signal 40" for one without a name here.
std::string signal_words(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGPIPE:
      return "SIGPIPE";
    default:
      return fmt::format("signal {}", signal);
  }
}

TimelineChart timeline_chart(const Timeline& timeline, const SteadyRule& rule, RateUnits units) {
  const std::vector<TimelineInterval> intervals = timeline_intervals(timeline);
  const TimelineAnalysis analysis = analyse_timeline(timeline, rule);
  TimelineChart chart;
  chart.title = fmt::format("rate over the bytes moved, one step per {} interval",
                            svg_duration(in_seconds(static_cast<double>(timeline.interval_ns))));
  chart.rate = rate_unit(units);
  const double last = intervals.empty() ? 0 : static_cast<double>(intervals.back().end_bytes);
  chart.bytes = bytes_unit(last, units);
  for (const TimelineInterval& interval : intervals) {
    // An interval that moved nothing has no width on the bytes axis.
    if (interval.end_bytes <= interval.start_bytes) continue;
    chart.steps.push_back(
        {static_cast<double>(interval.start_bytes), static_cast<double>(interval.end_bytes), interval.rate});
  }
  if (analysis.cliff) {
    const Cliff& cliff = *analysis.cliff;
    chart.cliff =
        SvgMarker{static_cast<double>(cliff.at_bytes),
                  fmt::format("cliff: {} -> {} at {}", rate_words(cliff.before_rate, chart.rate),
                              rate_words(cliff.after_rate, chart.rate), human_size(cliff.at_bytes, si_units(units)))};
  }
  // The first window that met steady state, deviation's definition first.
  for (const SteadyState* state : {&analysis.deviation, &analysis.slope}) {
    if (!state->reached || state->at_interval >= intervals.size()) continue;
    std::size_t first = state->at_interval, found = 0;
    for (std::size_t k = state->at_interval + 1; k-- > 0 && found < state->window;) {
      if (intervals[k].counted) {
        ++found;
        first = k;
      }
    }
    const bool deviation = state->criterion == SteadyState::Criterion::kDeviation;
    chart.steady = SvgSpan{
        static_cast<double>(intervals[first].start_bytes), static_cast<double>(intervals[state->at_interval].end_bytes),
        fmt::format("steady: {} within {} over {} intervals, mean {}", deviation ? "deviation" : "slope",
                    percent_words(state->limit_percent), state->window, rate_words(state->window_mean, chart.rate))};
    break;
  }
  return chart;
}

LatencySeries latency_series(const char* name, const LatencySummary& summary) {
  LatencySeries series{name, {}, {}};
  for (const LatencyBucket& bucket : summary.histogram) {
    const double high = static_cast<double>(bucket.le_ns);
    series.bins.push_back({high / 2, high, static_cast<double>(bucket.count)});
  }
  // p50, p99 and p99.9: where the body ends and the tail begins.
  for (const std::size_t index : {percentile_index(50), percentile_index(99), percentile_index(99.9)}) {
    if (summary.percentiles[index]) {
      series.marks.push_back({static_cast<double>(*summary.percentiles[index]),
                              fmt::format("{} {}", name, kLatencyPercentiles[index].label)});
    }
  }
  return series;
}

LatencyChart latency_chart(const LatencyReport& latency, std::string_view which) {
  LatencyChart chart;
  chart.title = fmt::format("latency{} ({}; {} reads, {} writes)", which, latency_definition_words(latency.definition),
                            latency.read.count, latency.write.count);
  if (latency.read.count > 0) chart.series.push_back(latency_series("read", latency.read));
  if (latency.write.count > 0) chart.series.push_back(latency_series("write", latency.write));
  return chart;
}

double seconds(std::int64_t ns) { return in_seconds(static_cast<double>(ns)); }

TimeChart time_chart(const RunRecord& run) {
  const RunTimes& times = run.result.times;
  TimeChart chart;
  chart.title = fmt::format("where the time went: real {}", svg_duration(seconds(times.real_ns)));
  if (run.result.ending == Ending::kInterrupted && run.signal != 0) {
    chart.title += fmt::format("; interrupted by {}", signal_words(run.signal));
  }
  const std::int64_t flush = times.flushed ? times.flush_ns : 0;
  if (times.split) {
    const std::int64_t other = std::max<std::int64_t>(0, times.real_ns - times.read_ns - times.write_ns - flush);
    chart.real = {{"read", seconds(times.read_ns)},
                  {"write", seconds(times.write_ns)},
                  {"flush", seconds(flush)},
                  {"other", seconds(other)}};
  } else {
    // Without --split-times the copy's calls are not told apart.
    const std::int64_t copy = times.copy_ns > 0 ? times.copy_ns : times.real_ns - flush;
    const std::int64_t other = std::max<std::int64_t>(0, times.real_ns - copy - flush);
    chart.real = {{"copy", seconds(copy)}, {"flush", seconds(flush)}, {"other", seconds(other)}};
  }
  const std::int64_t off_cpu = std::max<std::int64_t>(0, times.real_ns - times.user_ns - times.sys_ns);
  chart.cpu = {{"user", seconds(times.user_ns)}, {"sys", seconds(times.sys_ns)}, {"off the CPU", seconds(off_cpu)}};
  return chart;
}

// The row a sweep's line names: "64k d1", or a read-back's pass.
std::string row_label(const RowRecord& row, bool readback) {
  if (readback) return std::string(pass_name(row.pass));
  return fmt::format("{} d{}", bs_text(row.bs), row.depth);
}

// What a chart of medians says of their intervals: drawn as whiskers, or
// why not (fewer than the 6 runs a 95% interval of a median needs).
std::string interval_words(bool drawn, unsigned runs) {
  if (drawn) return ", its 95% interval as a whisker";
  if (runs < 6) return "; the 95% interval needs 6 or more";
  return "";
}

bool any_whisker(const std::vector<SvgBar>& bars) {
  return std::any_of(bars.begin(), bars.end(), [](const SvgBar& bar) { return bar.low && bar.high; });
}

BarChart rows_chart(const SessionRecord& session, RateUnits units) {
  BarChart chart;
  const SvgUnit unit = rate_unit(units);
  chart.value_axis = unit.name;
  double best = 0;
  for (const RowRecord& row : session.rows) {
    if (row.summary) best = std::max(best, row.summary->bytes_per_second.median);
  }
  // A session a signal ended keeps a slot for each setting it did not
  // get to, saying so; otherwise a row without counted runs is left out.
  const bool interrupted = session.signal != 0;
  std::size_t shown = 0;
  for (const RowRecord& row : session.rows) {
    if (!row.summary) {
      if (interrupted)
        chart.bars.push_back({row_label(row, session.readback), 0, std::nullopt, std::nullopt, {}, 0, true});
      continue;
    }
    ++shown;
    const Figure& rate = row.summary->bytes_per_second;
    SvgBar bar{row_label(row, session.readback), rate.median / unit.size, std::nullopt, std::nullopt, {}};
    if (rate.median_low && rate.median_high) {
      bar.low = *rate.median_low / unit.size;
      bar.high = *rate.median_high / unit.size;
    }
    const bool is_best = !session.readback && rate.median == best && best > 0;
    bar.mark = row.knee && is_best ? "knee, best" : row.knee ? "knee" : is_best ? "best" : "";
    chart.bars.push_back(std::move(bar));
  }
  const unsigned runs = session.plan.repeat;
  // A read-back runs each pass once: no median to speak of.
  chart.title = session.readback ? "rate of each pass, one run each"
                                 : fmt::format("median rate of each setting's {} run{}{}", runs, runs == 1 ? "" : "s",
                                               interval_words(any_whisker(chart.bars), runs));
  if (interrupted) {
    chart.title += fmt::format("; interrupted by {}", signal_words(session.signal));
    // bs=auto adds rows as it goes: how many it would have run is unknown.
    if (!session.plan.sweep_bs_auto) chart.title += fmt::format(": {} of {} settings", shown, session.rows.size());
  }
  return chart;
}

// The latency a session shows: the best row's, its runs merged, or the
// last run's that has any.
std::optional<LatencyChart> session_latency(const SessionRecord& session) {
  const RowRecord* best = nullptr;
  for (const RowRecord& row : session.rows) {
    if (!row.summary || !row.latency) continue;
    if (best == nullptr || row.summary->bytes_per_second.median > best->summary->bytes_per_second.median) best = &row;
  }
  const std::string which = session.names_rows() && best != nullptr ? ", " + row_label(*best, false) : "";
  if (best != nullptr) return latency_chart(*best->latency, which);
  for (auto run = session.runs.rbegin(); run != session.runs.rend(); ++run) {
    if (run->result.latency) return latency_chart(*run->result.latency, "");
  }
  return std::nullopt;
}

}  // namespace

std::string shell_command(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& word : argv) {
    if (!line.empty()) line += ' ';
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_@%+=:,./-") == std::string::npos;
    if (plain) {
      line += word;
      continue;
    }
    line += '\'';
    for (const char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

std::string svg_date(std::int64_t unix_seconds) {
  const std::time_t when = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  if (gmtime_r(&when, &utc) == nullptr) return {};
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02} UTC", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                     utc.tm_min);
}

std::vector<SvgPanel> run_panels(const RunRecord& run, RateUnits units) {
  std::vector<SvgPanel> panels;
  if (run.result.timeline) panels.emplace_back(timeline_chart(*run.result.timeline, run.result.steady_rule, units));
  if (run.result.latency) panels.emplace_back(latency_chart(*run.result.latency, ""));
  if (panels.empty()) panels.emplace_back(time_chart(run));
  return panels;
}

std::vector<SvgPanel> session_panels(const SessionRecord& session, RateUnits units) {
  std::vector<SvgPanel> panels;
  panels.emplace_back(rows_chart(session, units));
  if (std::optional<LatencyChart> latency = session_latency(session)) panels.emplace_back(std::move(*latency));
  for (auto run = session.runs.rbegin(); run != session.runs.rend(); ++run) {
    if (!run->result.timeline) continue;
    panels.emplace_back(timeline_chart(*run->result.timeline, run->result.steady_rule, units));
    break;
  }
  return panels;
}

std::vector<SvgPanel> profile_panels(const ProfileRecord& record) {
  BarChart chart;
  chart.value_axis = "MB/s";
  chart.log_scale = true;
  chart.series = {"read"};
  if (record.writes) chart.series.push_back("write");
  if (record.writes && record.mix_percent) chart.series.push_back(fmt::format("mix {}% reads", *record.mix_percent));
  // Every test and side of the preset has its slot, in the order run; one
  // that did not run (an interrupted profile) is left empty and says so.
  std::size_t planned = 0, finished = 0;
  for (unsigned series = 0; series < chart.series.size(); ++series) {
    const ProfileSide side = series == 0 ? ProfileSide::kRead : series == 1 ? ProfileSide::kWrite : ProfileSide::kMix;
    for (const ProfileTest& test : record.preset->tests) {
      ++planned;
      const auto row = std::find_if(record.rows.begin(), record.rows.end(),
                                    [&](const ProfileRow& r) { return r.side == side && r.test.label == test.label; });
      SvgBar bar{std::string(test.label), 0, std::nullopt, std::nullopt, {}, series, true};
      if (row != record.rows.end() && row->rate) {
        bar.missing = false;
        bar.value = row->rate->median / 1e6;
        if (row->rate->median_low && row->rate->median_high) {
          bar.low = *row->rate->median_low / 1e6;
          bar.high = *row->rate->median_high / 1e6;
        }
      }
      if (row != record.rows.end()) {
        const auto measured =
            std::count_if(row->runs.begin(), row->runs.end(), [](const ProfileRun& run) { return !run.warmup(); });
        if (measured >= static_cast<long>(record.repeat)) ++finished;
      }
      chart.bars.push_back(std::move(bar));
    }
  }
  // "diskmark, /dev/loop1, 256 MiB, O_DIRECT": what was measured, and how.
  std::string what = fmt::format("{}, {}, {}", record.preset->name, record.target, human_size(record.range, false));
  if (record.start != 0) what += fmt::format(" from byte {}", record.start);
  if (record.direct) what += ", O_DIRECT";
  chart.title = fmt::format("{}: median of {} run{} per test{}", what, record.repeat, record.repeat == 1 ? "" : "s",
                            interval_words(any_whisker(chart.bars), record.repeat));
  if (!record.complete) {
    const std::string by = record.signal != 0 ? "interrupted by " + signal_words(record.signal) : "incomplete";
    chart.title += fmt::format("; {}: {} of {} tests", by, finished, planned);
  }
  std::vector<SvgPanel> panels;
  panels.emplace_back(std::move(chart));
  return panels;
}

std::string svg_report(const SvgTitle& title, const std::vector<SvgPanel>& panels) {
  std::string subtitle = title.host.empty() ? "on an unnamed machine" : "on " + title.host;
  if (!title.date.empty()) subtitle += ", " + title.date;
  subtitle += fmt::format(" (ddtime {})", DDTIME_VERSION);
  return svg_page({title.command, subtitle}, panels);
}

}  // namespace ddtime
