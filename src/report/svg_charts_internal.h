// SPDX-License-Identifier: GPL-3.0-or-later
// svg_charts_internal — what svg_charts' files share: a scale from values
// to pixels (linear or logarithmic), the ticks of each, their labels, and
// the axes drawn with them. Not for use outside svg_charts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/svg.h"
#include "report/svg_charts.h"

namespace ddtime::svg_charts_internal {

// log10 and 10^k without libm, which the static-runtime build must not
// need (tests/link): log10_of(x) for x > 0 (0 otherwise), to about 1e-15.
double log10_of(double value);
double power_of_ten(int exponent);

// Values [low, high] onto pixels [from, to]; a log scale clamps values at
// or below low to low. Requires: low < high, and low > 0 when log.
struct Scale {
  double low = 0, high = 1;
  bool log = false;
  double from = 0, to = 1;
  double at(double value) const;
};

// A linear scale's ticks from low to high: multiples of 1, 2 or 5 x 10^k,
// about `about` of them.
std::vector<double> linear_ticks(double low, double high, int about = 5);
// A log scale's ticks: every power of ten in [low, high].
std::vector<double> decade_ticks(double low, double high);
// The largest value rounded up to a tick of linear_ticks (1 when nothing
// is above 0): the top of a linear axis that starts at 0.
double linear_top(double largest);
// The decade at or above largest (1 when nothing is above 0).
double decade_top(double largest);

// A tick's label, with as many decimals as the value needs: "0", "250",
// "2.5", "0.01".
std::string tick_text(double value);
// Nanoseconds in the unit that suits them: "100 ns", "1 µs", "10 ms", "1 s".
std::string duration_text(double ns);
// The figure beside a bar or a point: three significant digits at most.
std::string figure_text(double value);

// The panel's own title, at its top left, in up to two lines that leave
// `beside` pixels free at the right for a legend.
void panel_title(SvgDocument& svg, double top, std::string_view title, double beside = 0);
// A legend on the title's first line, at the panel's right: a swatch of
// each class and its name. Returns how wide it is, for panel_title.
double legend_width(const std::vector<std::string>& names);
void legend(SvgDocument& svg, double top, const std::vector<std::string>& names,
            const std::vector<std::string>& classes);
// A vertical value axis at the plot's left, with grid lines at the ticks
// and the axis's name turned along it.
void value_axis(SvgDocument& svg, const Scale& scale, const std::vector<double>& ticks, std::string_view name);
// A horizontal axis at the plot's bottom (y), labels under the ticks,
// the name under them.
void bottom_axis(SvgDocument& svg, double y, const Scale& scale, const std::vector<double>& ticks,
                 const std::vector<std::string>& labels, std::string_view name);
// The height of a comparison's panel: as its rows' lines need.
double interval_panel_height(const IntervalChart& chart);
// A plot with nothing to draw says so in its middle.
void nothing_to_draw(SvgDocument& svg, double top, std::string_view why);

}  // namespace ddtime::svg_charts_internal
