// SPDX-License-Identifier: GPL-3.0-or-later
// svg_charts — --svg's charts, each from plain values so that it can be
// tested and reused: labelled bars (linear or six decades of log scale),
// the rate over the bytes moved with its cliff and steady state, a latency
// histogram on a log scale with its percentiles, ratios with their
// intervals around 1, and where a run's time went. A page stacks panels of
// one fixed size under a heading. Which figures go in is report_svg's.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "report/svg.h"

namespace ddtime {

// The page's geometry (pixels): every panel is as wide as the page, under
// a heading kSvgHeadingHeight high when the command fits one line (a line
// more for each line it wraps to); a panel is kSvgPanelHeight high, but
// for a comparison's, which is as high as its rows need.
inline constexpr double kSvgWidth = 800;
inline constexpr double kSvgHeadingHeight = 64;
inline constexpr double kSvgPanelHeight = 360;

// The plot area inside a panel, from the panel's top left corner; the
// title takes up to two lines above it.
inline constexpr double kSvgPlotLeft = 90;
inline constexpr double kSvgPlotRight = 770;
inline constexpr double kSvgPlotTop = 56;
inline constexpr double kSvgPlotBottom = 290;

// A figure's unit as an axis names it: "MiB/s" with size 1048576 means a
// value of 1048576 (bytes/s) is drawn as 1.
struct SvgUnit {
  std::string name;
  double size = 1;
};

struct SvgBar {
  std::string label;                // "64k d1"
  double value = 0;                 // in the chart's unit
  std::optional<double> low, high;  // an interval around the value (a whisker)
  std::string mark;                 // "knee", "best": said over the bar, drawn in the mark colour
  std::size_t series = 0;           // which of the chart's series ("read", "write") it is
  bool missing = false;             // a slot left empty: "did not run" is said in it
};

struct BarChart {
  std::string title;
  std::string value_axis;  // "MiB/s"; the log scale adds "(log scale)"
  bool log_scale = false;  // six decades, down from the decade at or above the largest value
  std::vector<SvgBar> bars;
  // Names: the bars of one label are drawn side by side, one colour a
  // series (two at most), the label once under them, the names in a
  // legend; a single name says what every bar is ("read").
  std::vector<std::string> series = {};
};

// One interval of a timeline: from start to end bytes at rate (bytes/s).
struct SvgStep {
  double start_bytes = 0, end_bytes = 0, rate = 0;
};

struct SvgMarker {
  double at = 0;  // bytes (timeline) or ns (latency)
  std::string label;
};

struct SvgSpan {
  double from = 0, to = 0;  // bytes
  std::string label;
};

struct TimelineChart {
  std::string title;
  SvgUnit bytes{"GiB", 1073741824.0};
  SvgUnit rate{"MiB/s", 1048576.0};
  std::vector<SvgStep> steps;
  std::optional<SvgMarker> cliff;  // a vertical line with its label
  std::optional<SvgSpan> steady;   // the steady-state window, shaded
};

// A histogram bucket: the durations above low_ns and up to high_ns.
struct SvgBin {
  double low_ns = 0, high_ns = 0, count = 0;
};

struct LatencySeries {
  std::string name;              // "read", "write"
  std::vector<SvgBin> bins;      // drawn as each bin's share of the series' count
  std::vector<SvgMarker> marks;  // p50, p99, p99.9 at their ns
};

struct LatencyChart {
  std::string title;
  std::vector<LatencySeries> series;  // at most two are drawn
};

// A comparison's row: the ratio of two measurements, its interval when
// there is one, and what it means in words.
struct RatioRow {
  std::string label;
  double ratio = 1;
  std::optional<double> low, high;
  std::string verdict;  // beside the row, wrapped: it says the ratio itself when it needs to
  // The label's phrases ("bs=1M", "depth 1"): a line breaks only between
  // them. Empty: the label's words.
  std::vector<std::string> phrases = {};
};

struct IntervalChart {
  std::string title;
  std::vector<RatioRow> rows;
  // Ratios the axis must reach beyond the rows' own (0: none), so that
  // several panels share one scale.
  double low = 0, high = 0;
};

// Where a run's time went: the real time split (read, write, flush,
// other) and the CPU's (user, sys, off the CPU), in seconds; drawn in the
// unit that shows the larger total (ns, µs, ms or s).
struct SvgSegment {
  std::string name;
  double seconds = 0;
};

struct TimeChart {
  std::string title;
  std::vector<SvgSegment> real;
  std::vector<SvgSegment> cpu;
};

using SvgPanel = std::variant<BarChart, TimelineChart, LatencyChart, IntervalChart, TimeChart>;

// What the heading says: the command as given and the machine and date.
struct SvgHeading {
  std::string command;
  std::string subtitle;
};

// Each chart drawn into a panel whose top edge is at top.
void draw_bars(SvgDocument& svg, double top, const BarChart& chart);
void draw_timeline(SvgDocument& svg, double top, const TimelineChart& chart);
void draw_latency(SvgDocument& svg, double top, const LatencyChart& chart);
void draw_intervals(SvgDocument& svg, double top, const IntervalChart& chart);
void draw_time(SvgDocument& svg, double top, const TimeChart& chart);

// Seconds in the unit that shows them, three significant digits at most:
// "31 µs", "1.25 ms", "12.5 s".
std::string svg_duration(double seconds);

// A panel's height, and the page's under the heading.
double svg_panel_height(const SvgPanel& panel);
double svg_page_height(const SvgHeading& heading, const std::vector<SvgPanel>& panels);

// The document: the heading, then the panels stacked, top to bottom.
std::string svg_page(const SvgHeading& heading, const std::vector<SvgPanel>& panels);

}  // namespace ddtime
