// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/units.h"
#include "report/report.h"

namespace ddtime {
namespace {

constexpr int kRows = 8;
constexpr int kEighthsPerRow = 8;
// Below this many columns a chart says too little to be worth its lines.
constexpr std::size_t kMinimumColumns = 16;

// A rate in the summary's SI words and rounding ("4.5 GB/s", "750 MB/s").
// One unit, as --units names it (SI for both and all, which would make
// every label three figures long); GNU's rounding.
std::string rate_text(double bytes_per_second, RateUnits units) {
  const auto rate = static_cast<std::int64_t>(std::max(bytes_per_second, 0.0) + 0.5);
  switch (units) {
    case RateUnits::kIec:
    case RateUnits::kIecAndBytes:
      return human_rate(rate, kNanosecondsPerSecond, false);
    case RateUnits::kBytes:
      return fmt::format("{} B/s", rate);
    case RateUnits::kSi:
    case RateUnits::kBoth:
    case RateUnits::kAll:
      break;
  }
  return human_rate(rate, kNanosecondsPerSecond, true);
}

// Seconds to three significant digits, short enough for an axis label:
// "0 s", "0.250 s", "1.00 s", "12.5 s", "281 s".
std::string seconds_text(double seconds) {
  if (seconds <= 0) return "0 s";
  if (seconds < 1) return fmt::format("{:.3f} s", seconds);
  if (seconds < 10) return fmt::format("{:.2f} s", seconds);
  if (seconds < 100) return fmt::format("{:.1f} s", seconds);
  return fmt::format("{:.0f} s", seconds);
}

std::string seconds_text(std::int64_t ns) { return seconds_text(in_seconds(static_cast<double>(ns))); }

// A line as phrases that are never split ("4.5 GB/s," stays whole), so
// that folding never leaves a unit apart from its number.
using Phrases = std::vector<std::string>;

// The phrases joined by spaces, folded so that no line is wider than
// width, the lines after the first indented by two. A phrase wider than
// the width stays whole.
void append_folded(std::string& out, const Phrases& phrases, std::size_t width) {
  std::string line;
  for (const std::string& phrase : phrases) {
    if (line.empty()) {
      line = phrase;
    } else if (columns_of(line) + 1 + columns_of(phrase) <= width) {
      line += ' ' + phrase;
    } else {
      out += line + '\n';
      line = "  " + phrase;
    }
  }
  out += line + '\n';
}

// When the run had moved `bytes`: the first moment the cumulative count
// reached it, linear between the samples around it.
// Requires: the samples' bytes never decrease (they are cumulative).
double time_at_bytes(const std::vector<TimelineSample>& samples, double bytes) {
  const auto reached = std::partition_point(samples.begin(), samples.end(), [&](const TimelineSample& sample) {
    return static_cast<double>(sample.bytes) < bytes;
  });
  if (reached == samples.end()) return samples.empty() ? 0 : static_cast<double>(samples.back().end_ns);
  double start_ns = 0;
  double start_bytes = 0;
  if (reached != samples.begin()) {
    start_ns = static_cast<double>(std::prev(reached)->end_ns);
    start_bytes = static_cast<double>(std::prev(reached)->bytes);
  }
  if (bytes <= start_bytes) return start_ns;
  const double share = (bytes - start_bytes) / (static_cast<double>(reached->bytes) - start_bytes);
  return start_ns + share * (static_cast<double>(reached->end_ns) - start_ns);
}

// Each column's rate: its span of bytes over the time they took. A span
// that took no time (samples at one instant) is given a nanosecond rather
// than a division by zero.
std::vector<double> column_rates(const Timeline& timeline, double total_bytes, std::size_t columns) {
  std::vector<double> rates(columns);
  double start_ns = 0;
  for (std::size_t column = 0; column < columns; ++column) {
    const double end_bytes = total_bytes * static_cast<double>(column + 1) / static_cast<double>(columns);
    const double end_ns = time_at_bytes(timeline.samples, end_bytes);
    rates[column] = total_bytes / static_cast<double>(columns) / std::max(end_ns - start_ns, 1.0) *
                    static_cast<double>(kNanosecondsPerSecond);
    start_ns = end_ns;
  }
  return rates;
}

// The chart's top: the least of 1, 1.5, 2, 3, 4, 5, 6 and 8 times a power
// of ten at or above the highest column, so that the labels are round,
// whose half is a whole number of bytes/s, so that the middle label is
// exact (never 0.75 B/s, which the summary's rounding would call "1 B/s").
double round_top(double highest) {
  double power = 1;
  while (power * 10 <= highest) power *= 10;
  // A rate that is a round number give or take the floating point's last
  // bits stays the top, rather than jumping to the next.
  const double target = highest * (1 - 1e-9);
  for (const double step : {1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0}) {
    const double top = step * power;
    if (top >= target && std::floor(top / 2) == top / 2) return top;
  }
  return 10 * power;
}

// A column's height in eighths of a row, as report_session's bars round;
// a rate above 0 shows at least one eighth, so it never reads as a stall.
int eighths_of(double rate, double top) {
  const int eighths = static_cast<int>(rate / top * kRows * kEighthsPerRow + 0.5);
  return std::min(rate > 0 ? std::max(eighths, 1) : eighths, kRows * kEighthsPerRow);
}

// One cell filled `fill` eighths from the bottom.
void append_cell(std::string& line, int fill, bool utf8) {
  static constexpr std::string_view kBlocks = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588";
  if (fill <= 0) {
    line += ' ';
  } else if (utf8) {
    line += kBlocks.substr(static_cast<std::size_t>(std::min(fill, kEighthsPerRow) - 1) * 3, 3);
  } else {
    line += fill >= kEighthsPerRow ? '#' : fill * 2 >= kEighthsPerRow ? '.' : ' ';
  }
}

void trim_trailing_spaces(std::string& line) { line.erase(line.find_last_not_of(' ') + 1); }

// The y axis' labels are right-aligned in a margin as wide as the widest
// label a round top can have in the units asked for ("150 MB/s",
// "1.5 GiB/s", "1500000000 B/s"), so that the columns can be counted
// before the rates that decide the labels.
constexpr std::size_t kLabelWidth = 8;
std::size_t label_width(RateUnits units) {
  switch (units) {
    case RateUnits::kIec:
    case RateUnits::kIecAndBytes:
      return kLabelWidth + 1;
    case RateUnits::kBytes:
      return kLabelWidth + 8;
    case RateUnits::kSi:
    case RateUnits::kBoth:
    case RateUnits::kAll:
      break;
  }
  return kLabelWidth;
}

// The labels: the top, the middle (the top of row kRows / 2 - 1) and 0
// (on the baseline).
struct YAxis {
  std::string top, middle, bottom;
  std::size_t margin = kLabelWidth;  // label width, without the space and the axis after it
};

YAxis y_axis(double top, RateUnits units) {
  YAxis axis{rate_text(top, units), rate_text(top / 2, units), rate_text(0, units), label_width(units)};
  axis.margin = std::max({axis.margin, axis.top.size(), axis.middle.size(), axis.bottom.size()});
  return axis;
}

void append_rows(std::string& out, const YAxis& axis, const std::vector<int>& eighths, bool utf8) {
  for (int row = kRows - 1; row >= 0; --row) {
    // Views of the axis' own strings: a ?: mixing them with "" would make
    // a temporary std::string to view.
    std::string_view label;
    if (row == kRows - 1) label = axis.top;
    if (row == kRows / 2 - 1) label = axis.middle;
    std::string line = fmt::format("{:>{}} ", label, axis.margin);
    line += label.empty() ? (utf8 ? "\u2502" : "|") : (utf8 ? "\u2524" : "+");
    for (const int height : eighths) append_cell(line, height - row * kEighthsPerRow, utf8);
    trim_trailing_spaces(line);
    out += line + '\n';
  }
}

// A label under the baseline at column `anchor`.
struct XLabel {
  std::size_t anchor = 0;
  std::string text;
};

// The labels in one row of `columns`: the first from column 0, the last
// ending at the last column, the others centred on their anchor; nothing
// when two would come closer than two spaces.
std::optional<std::string> placed(const std::vector<XLabel>& labels, std::size_t columns) {
  std::string row;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const std::size_t length = labels[i].text.size();
    std::size_t start = labels[i].anchor >= length / 2 ? labels[i].anchor - length / 2 : 0;
    if (i == 0) start = 0;
    if (i + 1 == labels.size() && i > 0) start = columns >= length ? columns - length : 0;
    if (start + length > columns || (i > 0 && start < row.size() + 2)) return std::nullopt;
    row.append(start - row.size(), ' ');
    row += labels[i].text;
  }
  return row;
}

// total x i / parts without overflowing 63 bits.
std::int64_t share_of(std::int64_t total, std::size_t i, std::size_t parts) {
  const auto n = static_cast<std::int64_t>(parts);
  const auto k = static_cast<std::int64_t>(i);
  return total / n * k + total % n * k / n;
}

void append_baseline(std::string& out, const YAxis& axis, const std::vector<XLabel>& ticks, std::size_t columns,
                     bool utf8) {
  std::string baseline = fmt::format("{:>{}} {}", axis.bottom, axis.margin, utf8 ? "\u2514" : "+");
  for (std::size_t column = 0, next = 0; column < columns; ++column) {
    const bool tick = next < ticks.size() && ticks[next].anchor == column;
    if (tick) ++next;
    baseline += tick ? (utf8 ? "\u252c" : "+") : (utf8 ? "\u2500" : "-");
  }
  out += baseline + '\n';
}

// The baseline with a tick under each label, then the bytes and the time
// at the same places: in quarters when they fit, else halves, else the
// ends; a chart of a few bytes too narrow for even those has none.
void append_x_axis(std::string& out, const Timeline& timeline, std::int64_t total_bytes, std::size_t columns,
                   const YAxis& axis, bool utf8) {
  const std::string margin(axis.margin + 2, ' ');
  for (const std::size_t parts : {4, 2, 1}) {
    std::vector<XLabel> bytes_labels, time_labels;
    for (std::size_t i = 0; i <= parts; ++i) {
      const std::size_t anchor = i == parts ? columns - 1 : (i * columns + parts / 2) / parts;
      const std::int64_t bytes = share_of(total_bytes, i, parts);
      bytes_labels.push_back({anchor, human_size(bytes, true)});
      time_labels.push_back(
          {anchor, seconds_text(in_seconds(time_at_bytes(timeline.samples, static_cast<double>(bytes))))});
    }
    const std::optional<std::string> bytes_row = placed(bytes_labels, columns);
    const std::optional<std::string> time_row = placed(time_labels, columns);
    if (!bytes_row || !time_row) continue;
    append_baseline(out, axis, bytes_labels, columns, utf8);
    out += margin + *bytes_row + '\n' + margin + *time_row + '\n';
    return;
  }
  append_baseline(out, axis, {}, columns, utf8);
}

// The chart, or a line saying why there is none.
void append_chart(std::string& out, const Timeline& timeline, unsigned width, bool utf8, RateUnits units) {
  const std::int64_t total_bytes = timeline.samples.empty() ? 0 : timeline.samples.back().bytes;
  if (total_bytes <= 0) {
    append_folded(out, {"timeline:", "nothing was moved,", "so there is no rate to chart"}, width);
    return;
  }
  const std::size_t margin = label_width(units);
  const std::size_t room = width > margin + 2 ? width - margin - 2 : 0;
  if (room < kMinimumColumns) {
    append_folded(out, {"timeline:", fmt::format("{} columns are too few", width), "for the rate chart"}, width);
    return;
  }
  // A column holds at least one byte.
  const std::size_t columns = std::min<std::size_t>(room, static_cast<std::size_t>(total_bytes));
  const std::vector<double> rates = column_rates(timeline, static_cast<double>(total_bytes), columns);
  const double top = round_top(*std::max_element(rates.begin(), rates.end()));
  std::vector<int> eighths;
  for (const double rate : rates) eighths.push_back(eighths_of(rate, top));
  const YAxis axis = y_axis(top, units);
  append_folded(out,
                {fmt::format("rate per {} moved,", human_size(total_bytes / static_cast<std::int64_t>(columns), true)),
                 "against data moved and time:"},
                width);
  append_rows(out, axis, eighths, utf8);
  append_x_axis(out, timeline, total_bytes, columns, axis, utf8);
}

// "over 12 intervals of 1.00 s", and the intervals too short to count.
void append_counted(Phrases& line, const Timeline& timeline, std::size_t counted) {
  std::size_t left_out = 0;
  for (const TimelineInterval& interval : timeline_intervals(timeline)) left_out += interval.counted ? 0 : 1;
  const std::string interval = seconds_text(timeline.interval_ns);
  line.push_back(
      fmt::format("over {} interval{} of {}{}", counted, counted == 1 ? "" : "s", interval, left_out > 0 ? "," : ""));
  if (left_out > 0) line.push_back(fmt::format("not counting {} shorter than half of it", left_out));
}

Phrases spread_line(const Timeline& timeline, const std::optional<RateSpread>& spread, RateUnits units) {
  if (!spread) {
    return {"interval rates:", "none to count",
            fmt::format("(none lasted half of {} or more)", seconds_text(timeline.interval_ns))};
  }
  // One interval has no spread to speak of, nor has a mean of nothing.
  const bool has_cv = spread->intervals >= 2 && spread->mean > 0;
  const std::string cv = has_cv ? fmt::format("{:.1f}%", spread->cv * 100) : "n/a";
  Phrases line{"interval rates:", fmt::format("min {},", rate_text(spread->min, units)),
               fmt::format("median {},", rate_text(spread->median, units)),
               fmt::format("max {},", rate_text(spread->max, units)), fmt::format("CV {}", cv)};
  append_counted(line, timeline, spread->intervals);
  return line;
}

Phrases cliff_line(const TimelineAnalysis& analysis, RateUnits units) {
  const std::string fraction = fmt::format("{:g}%", kCliffFraction * 100);
  if (analysis.cliff) {
    const Cliff& cliff = *analysis.cliff;
    return {"cliff:",
            fmt::format("fell from {}", rate_text(cliff.before_rate, units)),
            fmt::format("to {}", rate_text(cliff.after_rate, units)),
            fmt::format("after {},", human_size(cliff.at_bytes, true)),
            fmt::format("{} in", seconds_text(cliff.at_ns)),
            "(from there on,",
            fmt::format("the median rate was below {}", fraction),
            "of the first plateau)"};
  }
  const std::size_t counted = analysis.spread ? analysis.spread->intervals : 0;
  if (counted < kCliffMinimumIntervals) {
    return {"cliff:", "too few intervals to tell", fmt::format("({} of {})", counted, kCliffMinimumIntervals)};
  }
  return {"cliff: none", fmt::format("(no fall below {}", fraction), "of the first plateau", "that lasted)"};
}

// "steady state (DEFINITION, N intervals): OUTCOME"
Phrases steady_line(const SteadyState& state, RateUnits units) {
  const bool deviation = state.criterion == SteadyState::Criterion::kDeviation;
  const std::string limit = fmt::format("<= {:g}%{}", state.limit_percent, deviation ? "," : "");
  Phrases line = deviation ? Phrases{"steady state", "(max deviation", "from the window mean", limit}
                           : Phrases{"steady state", "(least-squares slope", limit, "of the mean per interval,"};
  line.push_back(fmt::format("{} intervals):", state.window));
  if (!state.enough_intervals) {
    line.insert(line.end(), {"too few intervals", fmt::format("({} of {})", state.counted_intervals, state.window)});
  } else if (state.reached) {
    line.insert(line.end(), {fmt::format("reached at {},", seconds_text(state.at_ns)), human_size(state.at_bytes, true),
                             fmt::format("({} {:.1f}%,", deviation ? "deviation" : "slope", state.value_percent),
                             fmt::format("window mean {})", rate_text(state.window_mean, units))});
  } else if (state.mean_above_zero) {
    line.insert(line.end(), {"not reached", fmt::format("(smallest {:.1f}%)", state.value_percent)});
  } else {
    line.insert(line.end(), {"not reached", "(no window moved a byte)"});
  }
  return line;
}

}  // namespace

std::string timeline_text(const Timeline& timeline, const TimelineAnalysis& analysis, unsigned width, bool utf8,
                          RateUnits units) {
  std::string out;
  append_chart(out, timeline, width, utf8, units);
  for (const Phrases& line : {spread_line(timeline, analysis.spread, units), cliff_line(analysis, units),
                              steady_line(analysis.deviation, units), steady_line(analysis.slope, units)}) {
    append_folded(out, line, width);
  }
  return out;
}

}  // namespace ddtime
