// SPDX-License-Identifier: GPL-3.0-or-later
// The charts over a continuous axis: the rate over the bytes moved, the
// latency histogram, and the ratios with their intervals.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/svg_charts.h"
#include "report/svg_charts_internal.h"

namespace ddtime {

using namespace svg_detail;

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
    // The label runs into the plot from whichever edge of the window leaves it room.
    const bool from_left = from < (kSvgPlotLeft + kSvgPlotRight) / 2;
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
  return {power_of_ten(static_cast<int>(std::floor(log10_of(low)))), decade_top(high * 1.0001), true, kSvgPlotLeft, kSvgPlotRight};
}

}  // namespace

void draw_latency(SvgDocument& svg, double top, const LatencyChart& chart) {
  panel_title(svg, top, chart.title);
  const std::size_t drawn = std::min<std::size_t>(chart.series.size(), 2);
  const std::vector<LatencySeries> series(chart.series.begin(), chart.series.begin() + static_cast<long>(drawn));
  double top_share = 0;
  for (const LatencySeries& one : series) {
    const double total = series_count(one);
    for (const SvgBin& bin : one.bins) {
      if (total > 0 && usable(bin.count)) top_share = std::max(top_share, 100 * bin.count / total);
    }
  }
  const Scale x = latency_x(series);
  const Scale y{0, linear_top(top_share), false, top + kSvgPlotBottom, top + kSvgPlotTop};
  value_axis(svg, y, linear_ticks(y.low, y.high), "share of the calls (%)");
  const std::vector<double> x_ticks = decade_ticks(x.low, x.high);
  bottom_axis(svg, y.from, x, x_ticks, labels_of(x_ticks, duration_text), "latency (log scale)");
  if (top_share <= 0) {
    nothing_to_draw(svg, top, "no call was timed");
    return;
  }
  for (std::size_t s = 0; s < series.size(); ++s) {
    const double total = series_count(series[s]);
    const std::string fill = fmt::format("series{}", s);
    for (const SvgBin& bin : series[s].bins) {
      if (!(bin.count > 0) || total <= 0 || !(bin.high_ns > 0)) continue;
      const double left = x.at(bin.low_ns > 0 ? bin.low_ns : bin.high_ns / 2), right = x.at(bin.high_ns);
      const double height = y.at(100 * bin.count / total);
      svg.rect(left, height, right - left, y.from - height, fill);
    }
    // Each series' legend on the title's line, then its percentiles as
    // dashed lines, labelled a row apart so that close marks stay readable.
    const double legend_x = kSvgPlotRight - 110 + 60 * static_cast<double>(s);
    svg.rect(legend_x, top + 15, 10, 10, fill);
    svg.text(legend_x + 14, top + 24, series[s].name, "small");
    for (std::size_t m = 0; m < series[s].marks.size(); ++m) {
      const SvgMarker& mark = series[s].marks[m];
      if (!(mark.at > 0)) continue;
      const double at = x.at(mark.at);
      svg.line(at, y.from, at, y.to, fmt::format("mark{}", s));
      const bool right_half = at > (kSvgPlotLeft + kSvgPlotRight) / 2;
      svg.text(right_half ? at - 2 : at + 2, y.to + 10 + 11 * static_cast<double>(m) + 36 * static_cast<double>(s),
               mark.label + " " + duration_text(mark.at), "small", right_half ? SvgAnchor::kEnd : SvgAnchor::kStart);
    }
  }
}

namespace {

Scale ratio_scale(const std::vector<RatioRow>& rows) {
  double low = 1, high = 1;
  for (const RatioRow& row : rows) {
    for (const std::optional<double>& v : {std::optional<double>(row.ratio), row.low, row.high}) {
      if (v && std::isfinite(*v) && *v > 0) {
        low = std::min(low, *v);
        high = std::max(high, *v);
      }
    }
  }
  // Symmetric about 1 on the log scale, at least x0.5 to x2, so that a
  // halving looks as large as a doubling.
  const double reach = std::max({2.0, high, 1 / low}) * 1.1;
  return {1 / reach, reach, true, kSvgPlotLeft, kSvgPlotRight - 150};
}

std::vector<double> ratio_ticks(const Scale& scale) {
  std::vector<double> ticks;
  for (const double decade : decade_ticks(scale.low / 10, scale.high * 10)) {
    for (const double factor : {1.0, 2.0, 5.0}) {
      const double tick = decade * factor;
      if (tick >= scale.low && tick <= scale.high) ticks.push_back(tick);
    }
  }
  return ticks;
}

}  // namespace

void draw_intervals(SvgDocument& svg, double top, const IntervalChart& chart) {
  panel_title(svg, top, chart.title);
  const Scale x = ratio_scale(chart.rows);
  const double bottom = top + kSvgPlotBottom;
  const std::vector<double> ticks = ratio_ticks(x);
  for (const double tick : ticks) svg.line(x.at(tick), top + kSvgPlotTop, x.at(tick), bottom, "grid");
  bottom_axis(svg, bottom, x, ticks, labels_of(ticks, tick_text), "ratio (log scale)");
  svg.line(x.at(1), top + kSvgPlotTop - 6, x.at(1), bottom, "unity");
  if (chart.rows.empty()) {
    nothing_to_draw(svg, top, "nothing was compared");
    return;
  }
  const double row_height = (kSvgPlotBottom - kSvgPlotTop) / static_cast<double>(chart.rows.size());
  for (std::size_t i = 0; i < chart.rows.size(); ++i) {
    const RatioRow& row = chart.rows[i];
    const double y = top + kSvgPlotTop + row_height * (static_cast<double>(i) + 0.5);
    // A long label ("SEQ1M Q8T1 read") in two lines, its last word under
    // the rest, so that rows that differ only there stay told apart.
    const std::size_t last_word = row.label.rfind(' ');
    if (row.label.size() > 12 && last_word != std::string::npos) {
      svg.text(kSvgPlotLeft - 8, y - 2, svg_fit(row.label.substr(0, last_word), 12), "small", SvgAnchor::kEnd);
      svg.text(kSvgPlotLeft - 8, y + 10, svg_fit(row.label.substr(last_word + 1), 12), "small", SvgAnchor::kEnd);
    } else {
      svg.text(kSvgPlotLeft - 8, y + 4, svg_fit(row.label, 12), "small", SvgAnchor::kEnd);
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
    const std::string words = "\xc3\x97" + figure_text(row.ratio) + "  " + row.verdict;  // ×
    svg.text(x.to + 12, y + 4, svg_fit(words, 32), "small");
  }
}

}  // namespace ddtime
