// SPDX-License-Identifier: GPL-3.0-or-later
// The charts' shared scales and axes, the bar chart, the chart of where
// the time went, and the page that stacks them.
#include "report/svg_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/svg_charts_internal.h"

namespace ddtime {
namespace svg_detail {

double log10_of(double value) {
  if (!(value > 0) || !std::isfinite(value)) return 0;
  constexpr double kLn2 = 0.693147180559945309417;
  constexpr double kLn10 = 2.302585092994045684018;
  int exponent = 0;
  while (value >= 2) {
    value /= 2;
    ++exponent;
  }
  while (value < 1) {
    value *= 2;
    --exponent;
  }
  // ln m = 2 atanh(t), t = (m - 1) / (m + 1) <= 1/3 for m in [1, 2).
  const double t = (value - 1) / (value + 1);
  double term = t, sum = 0;
  for (int k = 1; k < 64; k += 2) {
    sum += term / k;
    term *= t * t;
  }
  return (2 * sum + exponent * kLn2) / kLn10;
}

double power_of_ten(int exponent) {
  if (exponent < 0) return 1 / power_of_ten(-exponent);
  double power = 1;
  for (int k = 0; k < exponent && k < 400; ++k) power *= 10;
  return power;
}

double Scale::at(double value) const {
  if (!std::isfinite(value)) value = low;
  if (log) {
    const double clamped = std::clamp(value, low, high);
    return from + (log10_of(clamped) - log10_of(low)) / (log10_of(high) - log10_of(low)) * (to - from);
  }
  return from + (std::clamp(value, low, high) - low) / (high - low) * (to - from);
}

namespace {

// 1, 2 or 5 x 10^k: the step nearest above raw.
double nice_step(double raw) {
  const double decade = power_of_ten(static_cast<int>(std::floor(log10_of(raw))));
  for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * decade >= raw * 0.999) return factor * decade;
  }
  return 10 * decade;
}

}  // namespace

std::vector<double> linear_ticks(double low, double high, int about) {
  std::vector<double> ticks;
  if (!(high > low) || about < 1) return ticks;
  const double step = nice_step((high - low) / about);
  for (double k = std::ceil(low / step - 1e-9); k * step <= high + step * 1e-9; k += 1) ticks.push_back(k * step);
  return ticks;
}

std::vector<double> decade_ticks(double low, double high) {
  std::vector<double> ticks;
  if (!(low > 0) || !(high > low)) return ticks;
  for (int k = static_cast<int>(std::ceil(log10_of(low) - 1e-9)); power_of_ten(k) <= high * (1 + 1e-9); ++k) {
    ticks.push_back(power_of_ten(k));
  }
  return ticks;
}

double linear_top(double largest) {
  if (!(largest > 0) || !std::isfinite(largest)) return 1;
  const double step = nice_step(largest / 5);
  return std::ceil(largest / step - 1e-9) * step;
}

double decade_top(double largest) {
  if (!(largest > 0) || !std::isfinite(largest)) return 1;
  return power_of_ten(static_cast<int>(std::ceil(log10_of(largest) - 1e-9)));
}

std::string tick_text(double value) {
  if (!std::isfinite(value) || value == 0) return "0";
  const double magnitude = std::fabs(value);
  if (magnitude >= 1 && std::fabs(value - std::floor(value + 0.5)) < 1e-9 * magnitude) return svg_number(value, 0);
  // Enough decimals to show the first significant digit and the next.
  const int decimals = std::clamp(1 - static_cast<int>(std::floor(log10_of(magnitude))), 1, 12);
  std::string text = svg_number(value, decimals);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string duration_text(double ns) {
  if (ns >= 1e9) return tick_text(ns / 1e9) + " s";
  if (ns >= 1e6) return tick_text(ns / 1e6) + " ms";
  if (ns >= 1e3) return tick_text(ns / 1e3) + " \xc2\xb5s";  // µs
  return tick_text(ns) + " ns";
}

std::string figure_text(double value) {
  if (!std::isfinite(value)) return "0";
  const double magnitude = std::fabs(value);
  if (magnitude >= 100) return svg_number(value, 0);
  if (magnitude >= 10) return svg_number(value, 1);
  if (magnitude >= 0.01 || magnitude == 0) return svg_number(value, 2);
  return svg_number(value, 4);
}

void panel_title(SvgDocument& svg, double top, std::string_view title) {
  svg.text(kSvgPlotLeft - 70, top + 24, svg_fit(title, 100), "panel-title");
}

void value_axis(SvgDocument& svg, const Scale& scale, const std::vector<double>& ticks, std::string_view name) {
  for (const double tick : ticks) {
    const double y = scale.at(tick);
    svg.line(kSvgPlotLeft, y, kSvgPlotRight, y, "grid");
    svg.text(kSvgPlotLeft - 6, y + 4, tick_text(tick), "small", SvgAnchor::kEnd);
  }
  svg.line(kSvgPlotLeft, scale.from, kSvgPlotLeft, scale.to, "axis");
  const double middle = (scale.from + scale.to) / 2;
  svg.turned_text(kSvgPlotLeft - 62, middle, -90, name, "note", SvgAnchor::kMiddle);
}

void bottom_axis(SvgDocument& svg, double y, const Scale& scale, const std::vector<double>& ticks,
                 const std::vector<std::string>& labels, std::string_view name) {
  svg.line(scale.from, y, scale.to, y, "axis");
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    const double x = scale.at(ticks[i]);
    svg.line(x, y, x, y + 4, "axis");
    svg.text(x, y + 17, i < labels.size() ? labels[i] : tick_text(ticks[i]), "small", SvgAnchor::kMiddle);
  }
  svg.text((scale.from + scale.to) / 2, y + 36, name, "note", SvgAnchor::kMiddle);
}

void nothing_to_draw(SvgDocument& svg, double top, std::string_view why) {
  svg.text((kSvgPlotLeft + kSvgPlotRight) / 2, top + (kSvgPlotTop + kSvgPlotBottom) / 2, why, "note",
           SvgAnchor::kMiddle);
}

}  // namespace svg_detail

using namespace svg_detail;

namespace {

double largest_bar(const std::vector<SvgBar>& bars) {
  double largest = 0;
  for (const SvgBar& bar : bars) {
    for (const double v : {bar.value, bar.high.value_or(0)}) {
      if (std::isfinite(v)) largest = std::max(largest, v);
    }
  }
  return largest;
}

Scale bar_scale(const BarChart& chart, double top) {
  const double largest = largest_bar(chart.bars);
  if (chart.log_scale) {
    // Six decades, as a disk benchmark's chart draws them.
    const double high = decade_top(largest);
    return {high / 1e6, high, true, top + kSvgPlotBottom, top + kSvgPlotTop};
  }
  return {0, linear_top(largest), false, top + kSvgPlotBottom, top + kSvgPlotTop};
}

void draw_bar(SvgDocument& svg, const Scale& scale, const SvgBar& bar, double x, double width, bool turn) {
  const double value = std::isfinite(bar.value) && bar.value > 0 ? bar.value : 0;
  const double base = scale.from;
  const double y = value > 0 ? scale.at(value) : base;
  svg.rect(x, y, width, base - y, bar.mark.empty() ? "bar" : "bar-mark");
  const double middle = x + width / 2;
  if (bar.low && bar.high && std::isfinite(*bar.low) && std::isfinite(*bar.high)) {
    const double y_low = scale.at(*bar.low), y_high = scale.at(*bar.high);
    svg.line(middle, y_low, middle, y_high, "whisker");
    svg.line(middle - 4, y_low, middle + 4, y_low, "whisker");
    svg.line(middle - 4, y_high, middle + 4, y_high, "whisker");
  }
  const double above = std::min(y, bar.high ? scale.at(*bar.high) : y) - 4;
  svg.text(middle, above, figure_text(value), "small", SvgAnchor::kMiddle);
  if (!bar.mark.empty()) svg.text(middle, above - 12, bar.mark, "small", SvgAnchor::kMiddle);
  if (turn) {
    svg.turned_text(middle + 3, base + 12, -35, svg_fit(bar.label, 18), "small", SvgAnchor::kEnd);
  } else {
    svg.text(middle, base + 15, svg_fit(bar.label, 18), "small", SvgAnchor::kMiddle);
  }
}

}  // namespace

void draw_bars(SvgDocument& svg, double top, const BarChart& chart) {
  panel_title(svg, top, chart.title);
  const Scale scale = bar_scale(chart, top);
  const std::vector<double> ticks =
      scale.log ? decade_ticks(scale.low, scale.high) : linear_ticks(scale.low, scale.high);
  value_axis(svg, scale, ticks, scale.log ? chart.value_axis + " (log scale)" : chart.value_axis);
  svg.line(kSvgPlotLeft, scale.from, kSvgPlotRight, scale.from, "axis");
  if (chart.bars.empty()) {
    nothing_to_draw(svg, top, "no run was counted");
    return;
  }
  const double slot = (kSvgPlotRight - kSvgPlotLeft) / static_cast<double>(chart.bars.size());
  const double width = std::min(slot * 0.7, 80.0);
  // Labels wider than their slot are turned, so that they never overlap.
  const bool turn = slot < 70;
  for (std::size_t i = 0; i < chart.bars.size(); ++i) {
    const double x = kSvgPlotLeft + slot * (static_cast<double>(i) + 0.5) - width / 2;
    draw_bar(svg, scale, chart.bars[i], x, width, turn);
  }
}

namespace {

double total_seconds(const std::vector<SvgSegment>& segments) {
  double total = 0;
  for (const SvgSegment& segment : segments) {
    if (std::isfinite(segment.seconds) && segment.seconds > 0) total += segment.seconds;
  }
  return total;
}

// One stacked bar at y, its segments' names and times in a legend under it.
void stacked_bar(SvgDocument& svg, const Scale& scale, double y, std::string_view name,
                 const std::vector<SvgSegment>& segments, std::string_view class_stem) {
  constexpr double kHeight = 36;
  svg.text(kSvgPlotLeft - 8, y + kHeight / 2 + 4, name, "note", SvgAnchor::kEnd);
  double at = 0;
  double legend_x = kSvgPlotLeft;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const double seconds = std::isfinite(segments[i].seconds) && segments[i].seconds > 0 ? segments[i].seconds : 0;
    const std::string css = fmt::format("{}{}", class_stem, std::min<std::size_t>(i, 3));
    svg.rect(scale.at(at), y, scale.at(at + seconds) - scale.at(at), kHeight, css);
    at += seconds;
    svg.rect(legend_x, y + kHeight + 8, 10, 10, css);
    const std::string words = segments[i].name + " " + svg_number(seconds, 4) + " s";
    svg.text(legend_x + 14, y + kHeight + 17, words, "small");
    legend_x += 24 + 6.5 * static_cast<double>(words.size());
  }
}

}  // namespace

void draw_time(SvgDocument& svg, double top, const TimeChart& chart) {
  panel_title(svg, top, chart.title);
  const double largest = std::max(total_seconds(chart.real), total_seconds(chart.cpu));
  const Scale scale{0, linear_top(largest), false, kSvgPlotLeft, kSvgPlotRight};
  const std::vector<double> ticks = linear_ticks(scale.low, scale.high);
  for (const double tick : ticks) svg.line(scale.at(tick), top + kSvgPlotTop + 20, scale.at(tick), top + 250, "grid");
  stacked_bar(svg, scale, top + kSvgPlotTop + 30, "real", chart.real, "time");
  stacked_bar(svg, scale, top + kSvgPlotTop + 130, "CPU", chart.cpu, "cpu");
  bottom_axis(svg, top + 250, scale, ticks, {}, "seconds");
  if (largest <= 0) nothing_to_draw(svg, top, "no time was measured");
}

double svg_page_height(std::size_t panels) { return kSvgHeadingHeight + kSvgPanelHeight * static_cast<double>(panels); }

std::string svg_page(const SvgHeading& heading, const std::vector<SvgPanel>& panels) {
  SvgDocument svg(kSvgWidth, svg_page_height(panels.size()));
  // About 7.2 px a monospace character at 12 px: the command fits the width.
  svg.text(20, 26, svg_fit(heading.command, 104), "command");
  svg.text(20, 46, svg_fit(heading.subtitle, 120), "subtitle");
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const double top = kSvgHeadingHeight + kSvgPanelHeight * static_cast<double>(i);
    svg.line(10, top + 4, kSvgWidth - 10, top + 4, "grid");
    std::visit(
        [&](const auto& chart) {
          using Chart = std::decay_t<decltype(chart)>;
          if constexpr (std::is_same_v<Chart, BarChart>) draw_bars(svg, top, chart);
          if constexpr (std::is_same_v<Chart, TimelineChart>) draw_timeline(svg, top, chart);
          if constexpr (std::is_same_v<Chart, LatencyChart>) draw_latency(svg, top, chart);
          if constexpr (std::is_same_v<Chart, IntervalChart>) draw_intervals(svg, top, chart);
          if constexpr (std::is_same_v<Chart, TimeChart>) draw_time(svg, top, chart);
        },
        panels[i]);
  }
  return svg.finish();
}

}  // namespace ddtime
