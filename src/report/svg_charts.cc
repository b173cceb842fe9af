// SPDX-License-Identifier: GPL-3.0-or-later
// The charts' shared scales and axes, the bar chart, the chart of where
// the time went, and the page that stacks them.
#include "report/svg_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "model/units.h"
#include "report/svg_charts_internal.h"

namespace ddtime {
namespace svg_charts_internal {

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
  if (ns >= static_cast<double>(kNanosecondsPerSecond)) return tick_text(in_seconds(ns)) + " s";
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

void panel_title(SvgDocument& svg, double top, std::string_view title, double beside) {
  constexpr double kSize = 13;  // .panel-title
  const double left = kSvgPlotLeft - 70;
  std::vector<std::string> lines = svg_wrap(title, kSvgWidth - 2 * left - beside, kSize, true);
  // Two lines fit above the plot; a third, never seen but for a path
  // hundreds of characters long, is cut rather than drawn over the plot.
  if (lines.size() > 2) lines[1] = svg_fit(lines[1] + " " + lines[2], lines[1].size());
  for (std::size_t i = 0; i < lines.size() && i < 2; ++i) {
    svg.text(left, top + 22 + 16 * static_cast<double>(i), lines[i], "panel-title");
  }
}

double legend_width(const std::vector<std::string>& names) {
  double width = 0;
  for (const std::string& name : names) width += 14 + svg_text_width(name, 10) + 12;
  return width;
}

void legend(SvgDocument& svg, double top, const std::vector<std::string>& names,
            const std::vector<std::string>& classes) {
  double x = kSvgPlotRight - legend_width(names) + 12;
  for (std::size_t i = 0; i < names.size() && i < classes.size(); ++i) {
    svg.rect(x, top + 13, 10, 10, classes[i]);
    svg.text(x + 14, top + 22, names[i], "small");
    x += 14 + svg_text_width(names[i], 10) + 12;
  }
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

}  // namespace svg_charts_internal

using namespace svg_charts_internal;

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

std::string bar_class(const SvgBar& bar) {
  if (!bar.mark.empty()) return "bar-mark";
  // A series each: read, write, and a profile's mix.
  return bar.series == 0 ? "bar" : bar.series == 1 ? "bar1" : "bar2";
}

// room: the width the bar's figure may take, its share of the slot.
void draw_bar(SvgDocument& svg, const Scale& scale, const SvgBar& bar, double x, double width, double room) {
  const double middle = x + width / 2;
  const double base = scale.from;
  if (bar.missing) {
    // Upright, so that it fits however narrow the slot.
    svg.turned_text(middle + 4, base - 6, -90, "did not run", "missing", SvgAnchor::kStart);
    return;
  }
  const double value = std::isfinite(bar.value) && bar.value > 0 ? bar.value : 0;
  const double y = value > 0 ? scale.at(value) : base;
  svg.rect(x, y, width, base - y, bar_class(bar));
  if (bar.low && bar.high && std::isfinite(*bar.low) && std::isfinite(*bar.high)) {
    const double y_low = scale.at(*bar.low), y_high = scale.at(*bar.high);
    svg.line(middle, y_low, middle, y_high, "whisker");
    svg.line(middle - 4, y_low, middle + 4, y_low, "whisker");
    svg.line(middle - 4, y_high, middle + 4, y_high, "whisker");
  }
  const double above = std::min(y, bar.high ? scale.at(*bar.high) : y) - 4;
  const std::string figure = figure_text(value);
  if (svg_text_width(figure, 10) <= room - 2 && svg_text_width(bar.mark, 10) <= room - 2) {
    svg.text(middle, above, figure, "small", SvgAnchor::kMiddle);
    if (!bar.mark.empty()) svg.text(middle, above - 12, bar.mark, "small", SvgAnchor::kMiddle);
    return;
  }
  // Too many bars for level figures: upright ones, inside a bar tall
  // enough to hold them, else above it, where a short bar leaves room.
  const std::string words = bar.mark.empty() ? figure : bar.mark + " " + figure;
  const double length = svg_text_width(words, 10);
  if (base - y >= length + 8 && !bar.high) {
    svg.turned_text(middle - 3.5, y + 4, 90, words, "inside", SvgAnchor::kStart);
  } else {
    svg.turned_text(middle + 3.5, above, -90, words, "small", SvgAnchor::kStart);
  }
}

// A slot's label under the axis: one line when it fits the slot, two
// when its words do, else turned.
void slot_label(SvgDocument& svg, double base, double middle, double slot, const std::string& label) {
  const double room = slot - 8;
  const std::vector<std::string> lines = svg_wrap(label, room, 10);
  bool fits = lines.size() <= 2;
  for (const std::string& line : lines) fits = fits && svg_text_width(line, 10) <= room;
  if (fits) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      svg.text(middle, base + 15 + 12 * static_cast<double>(i), lines[i], "small", SvgAnchor::kMiddle);
    }
    return;
  }
  // Turned labels are a slot apart across their lines: 40 degrees keeps
  // 10 px lines apart down to 16 px slots, upright ones down to 11 px.
  if (slot >= 16) {
    svg.turned_text(middle + 3, base + 12, -40, label, "small", SvgAnchor::kEnd);
  } else {
    svg.turned_text(middle + 3.5, base + 6, -90, label, "small", SvgAnchor::kEnd);
  }
}

}  // namespace

void draw_bars(SvgDocument& svg, double top, const BarChart& chart) {
  const bool grouped = !chart.series.empty();
  const std::vector<std::string> classes{"bar", "bar1", "bar2"};
  panel_title(svg, top, chart.title, grouped ? legend_width(chart.series) : 0);
  if (grouped) legend(svg, top, chart.series, classes);
  const Scale scale = bar_scale(chart, top);
  const std::vector<double> ticks =
      scale.log ? decade_ticks(scale.low, scale.high) : linear_ticks(scale.low, scale.high);
  value_axis(svg, scale, ticks, scale.log ? chart.value_axis + " (log scale)" : chart.value_axis);
  svg.line(kSvgPlotLeft, scale.from, kSvgPlotRight, scale.from, "axis");
  if (chart.bars.empty()) {
    nothing_to_draw(svg, top, "no run was counted");
    return;
  }
  // A slot per label when grouped (the series side by side in it), else a
  // slot per bar.
  std::vector<std::string> labels;
  std::vector<std::vector<const SvgBar*>> slots;
  for (const SvgBar& bar : chart.bars) {
    const auto found = std::find(labels.begin(), labels.end(), bar.label);
    if (grouped && found != labels.end()) {
      slots[static_cast<std::size_t>(found - labels.begin())].push_back(&bar);
      continue;
    }
    labels.push_back(bar.label);
    slots.push_back({&bar});
  }
  const double per_slot = grouped ? static_cast<double>(chart.series.size()) : 1.0;
  const double slot = (kSvgPlotRight - kSvgPlotLeft) / static_cast<double>(slots.size());
  const double width = std::min(slot * 0.7 / per_slot, 60.0);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const double middle = kSvgPlotLeft + slot * (static_cast<double>(i) + 0.5);
    for (const SvgBar* bar : slots[i]) {
      const double place = grouped ? static_cast<double>(std::min(bar->series, chart.series.size() - 1)) : 0;
      draw_bar(svg, scale, *bar, middle - width * per_slot / 2 + width * place, width, slot / per_slot);
    }
    slot_label(svg, scale.from, middle, slot, labels[i]);
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

// The unit that shows seconds up to largest: its name and its size in seconds.
std::pair<std::string_view, double> duration_unit(double largest) {
  if (largest >= 1) return {"s", 1};
  if (largest >= 1e-3) return {"ms", 1e-3};
  if (largest >= 1e-6) return {"\xc2\xb5s", 1e-6};  // µs
  return {"ns", 1e-9};
}

// One stacked bar at y, its segments' names and times in a legend under
// it; the scale is in the unit's size.
void stacked_bar(SvgDocument& svg, const Scale& scale, double unit, std::string_view unit_name, double y,
                 std::string_view name, const std::vector<SvgSegment>& segments, std::string_view class_stem) {
  constexpr double kHeight = 36;
  svg.text(kSvgPlotLeft - 8, y + kHeight / 2 + 4, name, "note", SvgAnchor::kEnd);
  double at = 0;
  double legend_x = kSvgPlotLeft;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const double seconds = std::isfinite(segments[i].seconds) && segments[i].seconds > 0 ? segments[i].seconds : 0;
    const std::string css = fmt::format("{}{}", class_stem, std::min<std::size_t>(i, 3));
    svg.rect(scale.at(at / unit), y, scale.at((at + seconds) / unit) - scale.at(at / unit), kHeight, css);
    at += seconds;
    svg.rect(legend_x, y + kHeight + 8, 10, 10, css);
    // A part that took no time says 0 in the axis's unit.
    const std::string words =
        segments[i].name + " " + (seconds > 0 ? svg_duration(seconds) : fmt::format("0 {}", unit_name));
    svg.text(legend_x + 14, y + kHeight + 17, words, "small");
    legend_x += 14 + svg_text_width(words, 10) + 14;
  }
}

}  // namespace

std::string svg_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return "0 s";
  const auto [name, size] = duration_unit(seconds);
  std::string figure = figure_text(seconds / size);
  // "31 µs", not "31.0 µs": the digits after the point say only what they add.
  if (figure.find('.') != std::string::npos) {
    while (figure.back() == '0') figure.pop_back();
    if (figure.back() == '.') figure.pop_back();
  }
  return fmt::format("{} {}", figure, name);
}

void draw_time(SvgDocument& svg, double top, const TimeChart& chart) {
  panel_title(svg, top, chart.title);
  const double largest = std::max(total_seconds(chart.real), total_seconds(chart.cpu));
  // The axis in the unit that shows the larger total: a run of 31 µs
  // reads "31 µs", not "0.0000 s".
  const auto [unit_name, unit] = duration_unit(largest);
  const Scale scale{0, linear_top(largest / unit), false, kSvgPlotLeft, kSvgPlotRight};
  const std::vector<double> ticks = linear_ticks(scale.low, scale.high);
  for (const double tick : ticks) svg.line(scale.at(tick), top + kSvgPlotTop + 20, scale.at(tick), top + 250, "grid");
  stacked_bar(svg, scale, unit, unit_name, top + kSvgPlotTop + 24, "real", chart.real, "time");
  stacked_bar(svg, scale, unit, unit_name, top + kSvgPlotTop + 114, "CPU", chart.cpu, "cpu");
  bottom_axis(svg, top + 250, scale, ticks, {}, largest > 0 ? fmt::format("time ({})", unit_name) : "seconds");
  if (largest <= 0) nothing_to_draw(svg, top, "no time was measured");
}

namespace {

constexpr double kCommandSize = 12;  // .command, monospace
constexpr double kCommandPitch = 16;

std::vector<std::string> command_lines(const SvgHeading& heading) {
  // Wrapped between its words, never cut, and never at a space inside
  // single quotes (shell_command's), so that a quoted word stays whole
  // on its line unless it is longer than a line.
  std::vector<std::string> words(1);
  bool quoted = false;
  for (const char c : heading.command) {
    if (c == '\'') quoted = !quoted;
    if (c == ' ' && !quoted) {
      words.emplace_back();
      continue;
    }
    words.back() += c;
  }
  std::vector<std::string> lines = svg_wrap(words, kSvgWidth - 40, kCommandSize, false, true);
  if (lines.empty()) lines.emplace_back();
  return lines;
}

double heading_height(const std::vector<std::string>& command) {
  return kSvgHeadingHeight + kCommandPitch * static_cast<double>(command.size() - 1);
}

}  // namespace

double svg_panel_height(const SvgPanel& panel) {
  if (const IntervalChart* chart = std::get_if<IntervalChart>(&panel)) return interval_panel_height(*chart);
  return kSvgPanelHeight;
}

double svg_page_height(const SvgHeading& heading, const std::vector<SvgPanel>& panels) {
  double height = heading_height(command_lines(heading));
  for (const SvgPanel& panel : panels) height += svg_panel_height(panel);
  return height;
}

std::string svg_page(const SvgHeading& heading, const std::vector<SvgPanel>& panels) {
  SvgDocument svg(kSvgWidth, svg_page_height(heading, panels));
  const std::vector<std::string> command = command_lines(heading);
  for (std::size_t i = 0; i < command.size(); ++i) {
    svg.text(20, 26 + kCommandPitch * static_cast<double>(i), command[i], "command");
  }
  const double below = heading_height(command) - kSvgHeadingHeight;
  svg.text(20, 46 + below, heading.subtitle, "subtitle");
  double top = heading_height(command);
  for (const SvgPanel& panel : panels) {
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
        panel);
    top += svg_panel_height(panel);
  }
  return svg.finish();
}

}  // namespace ddtime
