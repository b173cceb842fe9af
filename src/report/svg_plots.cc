// SPDX-License-Identifier: GPL-3.0-or-later
// The charts over a continuous axis: the rate over the bytes moved, the
// latency histogram, and the ratios with their intervals.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/svg_charts.h"
#include "report/svg_charts_internal.h"

namespace ddtime {

using namespace svg_charts_internal;

namespace {

bool usable(double value) { return std::isfinite(value) && value >= 0; }

std::vector<std::string> labels_of(const std::vector<double>& ticks, std::string (*text)(double)) {
  std::vector<std::string> labels;
  for (const double tick : ticks) labels.push_back(text(tick));
  return labels;
}

}  // namespace

void draw_timeline(SvgDocument& svg, double top, const TimelineChart& chart) {
  panel_title(svg, top, chart.title);
  double last_bytes = 0, top_rate = 0;
  for (const SvgStep& step : chart.steps) {
    if (usable(step.end_bytes)) last_bytes = std::max(last_bytes, step.end_bytes);
    if (usable(step.rate)) top_rate = std::max(top_rate, step.rate);
  }
  const double bytes_unit = chart.bytes.size > 0 ? chart.bytes.size : 1;
  const double rate_unit = chart.rate.size > 0 ? chart.rate.size : 1;
  const Scale x{0, linear_top(last_bytes / bytes_unit), false, kSvgPlotLeft, kSvgPlotRight};
  const Scale y{0, linear_top(top_rate / rate_unit), false, top + kSvgPlotBottom, top + kSvgPlotTop};
  if (chart.steady) {
    const double from = x.at(chart.steady->from / bytes_unit), to = x.at(chart.steady->to / bytes_unit);
    svg.rect(from, y.to, to - from, y.from - y.to, "steady");
    // The label runs into the plot from the window's left edge where it
    // fits before the plot's right (svg_text_width's bound), else back
    // from its right edge.
    const bool from_left = from + 4 + svg_text_width(chart.steady->label, 11) <= kSvgPlotRight;
    svg.text(from_left ? from + 4 : to - 4, y.to + 14, chart.steady->label, "steady-label",
             from_left ? SvgAnchor::kStart : SvgAnchor::kEnd);
  }
  value_axis(svg, y, linear_ticks(y.low, y.high), chart.rate.name);
  const std::vector<double> x_ticks = linear_ticks(x.low, x.high);
  bottom_axis(svg, y.from, x, x_ticks, {}, "bytes moved (" + chart.bytes.name + ")");
  if (chart.steps.empty()) {
    nothing_to_draw(svg, top, "no interval was sampled");
    return;
  }
  // A step per interval: level across it, straight down or up between.
  std::vector<double> points;
  for (const SvgStep& step : chart.steps) {
    const double rate = usable(step.rate) ? step.rate / rate_unit : 0;
    for (const double bytes : {step.start_bytes, step.end_bytes}) {
      points.push_back(x.at((usable(bytes) ? bytes : 0) / bytes_unit));
      points.push_back(y.at(rate));
    }
  }
  svg.polyline(points, "step");
  if (chart.cliff) {
    const double at = x.at(chart.cliff->at / bytes_unit);
    svg.line(at, y.from, at, y.to, "cliff");
    // The label stays inside the plot, on whichever side has room.
    const bool left = at > (kSvgPlotLeft + kSvgPlotRight) / 2;
    svg.text(left ? at - 5 : at + 5, y.to + 30, chart.cliff->label, "cliff-label",
             left ? SvgAnchor::kEnd : SvgAnchor::kStart);
  }
}

namespace {

double series_count(const LatencySeries& series) {
  double total = 0;
  for (const SvgBin& bin : series.bins) {
    if (usable(bin.count)) total += bin.count;
  }
  return total;
}

// The range of durations every drawn series spans, widened to decades.
Scale latency_x(const std::vector<LatencySeries>& series) {
  double low = 0, high = 0;
  for (const LatencySeries& one : series) {
    for (const SvgBin& bin : one.bins) {
      if (!(bin.count > 0) || !(bin.high_ns > 0)) continue;
      const double bin_low = bin.low_ns > 0 ? bin.low_ns : bin.high_ns / 2;
      low = low > 0 ? std::min(low, bin_low) : bin_low;
      high = std::max(high, bin.high_ns);
    }
  }
  if (!(low > 0) || !(high > low)) return {100, 1e6, true, kSvgPlotLeft, kSvgPlotRight};
  return {power_of_ten(static_cast<int>(std::floor(log10_of(low)))), decade_top(high * 1.0001), true, kSvgPlotLeft,
          kSvgPlotRight};
}

// The largest share of one series' calls in one bin, in percent.
double largest_share(const std::vector<LatencySeries>& series) {
  double top_share = 0;
  for (const LatencySeries& one : series) {
    const double total = series_count(one);
    for (const SvgBin& bin : one.bins) {
      if (total > 0 && usable(bin.count)) top_share = std::max(top_share, 100 * bin.count / total);
    }
  }
  return top_share;
}

}  // namespace

void draw_latency(SvgDocument& svg, double top, const LatencyChart& chart) {
  const std::size_t drawn = std::min<std::size_t>(chart.series.size(), 2);
  const std::vector<LatencySeries> series(chart.series.begin(), chart.series.begin() + static_cast<long>(drawn));
  std::vector<std::string> names, classes;
  for (std::size_t s = 0; s < series.size(); ++s) {
    names.push_back(series[s].name);
    classes.push_back(fmt::format("series{}", s));
  }
  panel_title(svg, top, chart.title, legend_width(names));
  legend(svg, top, names, classes);
  const double top_share = largest_share(series);
  const Scale x = latency_x(series);
  const Scale y{0, linear_top(top_share), false, top + kSvgPlotBottom, top + kSvgPlotTop};
  value_axis(svg, y, linear_ticks(y.low, y.high), "share of the calls (%)");
  const std::vector<double> x_ticks = decade_ticks(x.low, x.high);
  bottom_axis(svg, y.from, x, x_ticks, labels_of(x_ticks, duration_text), "latency (log scale)");
  if (top_share <= 0) {
    nothing_to_draw(svg, top, "no call was timed");
    return;
  }
  // The percentiles' labels, each in the first row where it overlaps no
  // label already placed: close marks stagger instead of colliding.
  struct Placed {
    double left, right;
    std::size_t row;
  };
  std::vector<Placed> placed;
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double total = series_count(series[s]);
    for (const SvgBin& bin : series[s].bins) {
      if (!(bin.count > 0) || total <= 0 || !(bin.high_ns > 0)) continue;
      const double left = x.at(bin.low_ns > 0 ? bin.low_ns : bin.high_ns / 2), right = x.at(bin.high_ns);
      const double height = y.at(100 * bin.count / total);
      svg.rect(left, height, right - left, y.from - height, classes[s]);
    }
    for (const SvgMarker& mark : series[s].marks) {
      if (!(mark.at > 0)) continue;
      const double at = x.at(mark.at);
      svg.line(at, y.from, at, y.to, fmt::format("mark{}", s));
      const std::string words = mark.label + " " + duration_text(mark.at);
      const double width = svg_text_width(words, 10) + 4;
      // Right of its line, or left of it when the plot's edge is near.
      const bool leftward = at + 2 + width > kSvgPlotRight;
      const double left = leftward ? at - 2 - width : at + 2, right = left + width;
      std::size_t row = 0;
      for (bool clash = true; clash; ++row) {
        clash = false;
        for (const Placed& other : placed)
          clash = clash || (other.row == row && left < other.right && other.left < right);
        if (!clash) break;
      }
      placed.push_back({left, right, row});
      svg.text(leftward ? at - 2 : at + 2, y.to + 10 + 12 * static_cast<double>(row), words, "small",
               leftward ? SvgAnchor::kEnd : SvgAnchor::kStart);
    }
  }
}

namespace {

// A comparison panel's columns: the labels' at the left, the verdicts' at
// the right, the plot between; fixed, so that panels share their scale.
constexpr double kLabelLeft = 20;
constexpr double kLabelWidth = 150;
constexpr double kVerdictWidth = 220;
constexpr double kIntervalLeft = kLabelLeft + kLabelWidth + 10;
constexpr double kVerdictLeft = kSvgWidth - 20 - kVerdictWidth;
constexpr double kIntervalRight = kVerdictLeft - 14;
constexpr double kLinePitch = 12;
constexpr double kAxisRoom = 56;  // under the plot: the ticks' labels and the axis's name

std::vector<std::string> label_lines(const RatioRow& row) {
  if (row.phrases.empty()) return svg_wrap(row.label, kLabelWidth, 10);
  return svg_wrap(row.phrases, kLabelWidth, 10);
}

std::vector<std::string> verdict_lines(const RatioRow& row) { return svg_wrap(row.verdict, kVerdictWidth, 10); }

double row_height(const RatioRow& row) {
  const std::size_t lines = std::max<std::size_t>({label_lines(row).size(), verdict_lines(row).size(), 1});
  return std::max(28.0, kLinePitch * static_cast<double>(lines) + 12);
}

double rows_height(const IntervalChart& chart) {
  double height = 0;
  for (const RatioRow& row : chart.rows) height += row_height(row);
  return chart.rows.empty() ? 60 : height;
}

Scale ratio_scale(const IntervalChart& chart) {
  double low = 1, high = 1;
  std::vector<std::optional<double>> values{chart.low > 0 ? std::optional<double>(chart.low) : std::nullopt,
                                            chart.high > 0 ? std::optional<double>(chart.high) : std::nullopt};
  for (const RatioRow& row : chart.rows) values.insert(values.end(), {row.ratio, row.low, row.high});
  for (const std::optional<double>& v : values) {
    if (v && std::isfinite(*v) && *v > 0) {
      low = std::min(low, *v);
      high = std::max(high, *v);
    }
  }
  // Symmetric about 1 on the log scale, at least x0.5 to x2, so that a
  // halving looks as large as a doubling, and a quarter of a doubling
  // beyond the farthest value, so that no point sits on the axis's end.
  const double reach = std::max({2.0, high, 1 / low}) * 1.25;
  return {1 / reach, reach, true, kIntervalLeft, kIntervalRight};
}

// 1, 2 and 5 times each power of ten while a decade is wide enough for
// their labels; only the powers of ten when it is not.
std::vector<double> ratio_ticks(const Scale& scale) {
  const double decade_pixels = (scale.to - scale.from) / (log10_of(scale.high) - log10_of(scale.low));
  const bool crowded = decade_pixels * 0.301 < 36;  // from 1 to 2, the closest: 0.3 of a decade
  std::vector<double> ticks;
  for (const double decade : decade_ticks(scale.low / 10, scale.high * 10)) {
    for (const double factor : {1.0, 2.0, 5.0}) {
      if (crowded && factor != 1.0) continue;
      const double tick = decade * factor;
      if (tick >= scale.low && tick <= scale.high) ticks.push_back(tick);
    }
  }
  return ticks;
}

}  // namespace

double svg_charts_internal::interval_panel_height(const IntervalChart& chart) {
  return kSvgPlotTop + rows_height(chart) + kAxisRoom;
}

void draw_intervals(SvgDocument& svg, double top, const IntervalChart& chart) {
  panel_title(svg, top, chart.title);
  const Scale x = ratio_scale(chart);
  const double bottom = top + kSvgPlotTop + rows_height(chart);
  const std::vector<double> ticks = ratio_ticks(x);
  for (const double tick : ticks) svg.line(x.at(tick), top + kSvgPlotTop, x.at(tick), bottom, "grid");
  bottom_axis(svg, bottom, x, ticks, labels_of(ticks, tick_text), "ratio (log scale)");
  svg.line(x.at(1), top + kSvgPlotTop - 6, x.at(1), bottom, "unity");
  if (chart.rows.empty()) {
    svg.text((x.from + x.to) / 2, top + kSvgPlotTop + 34, "nothing was compared", "note", SvgAnchor::kMiddle);
    return;
  }
  double row_top = top + kSvgPlotTop;
  for (const RatioRow& row : chart.rows) {
    const double height = row_height(row);
    const double y = row_top + height / 2;
    row_top += height;
    // The label's lines and the verdict's, each centred on the row.
    for (const bool verdict : {false, true}) {
      const std::vector<std::string> lines = verdict ? verdict_lines(row) : label_lines(row);
      if (lines.empty()) continue;
      const double first = y + 4 - kLinePitch * static_cast<double>(lines.size() - 1) / 2;
      for (std::size_t i = 0; i < lines.size(); ++i) {
        svg.text(verdict ? kVerdictLeft : kIntervalLeft - 8, first + kLinePitch * static_cast<double>(i), lines[i],
                 "small", verdict ? SvgAnchor::kStart : SvgAnchor::kEnd);
      }
    }
    if (row.low && row.high && *row.low > 0 && *row.high > 0) {
      svg.line(x.at(*row.low), y, x.at(*row.high), y, "whisker");
      svg.line(x.at(*row.low), y - 5, x.at(*row.low), y + 5, "whisker");
      svg.line(x.at(*row.high), y - 5, x.at(*row.high), y + 5, "whisker");
    }
    if (std::isfinite(row.ratio) && row.ratio > 0) {
      svg.element("circle",
                  {{"cx", svg_number(x.at(row.ratio))}, {"cy", svg_number(y)}, {"r", "4"}, {"class", "point"}});
    }
  }
}

}  // namespace ddtime
