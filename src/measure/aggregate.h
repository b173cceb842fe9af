// SPDX-License-Identifier: GPL-3.0-or-later
// aggregate — what a careful engineer would accept as the figures of
// repeated runs: min, median with a distribution-free 95% interval from the
// order statistics, mean and sample standard deviation, max, and which
// runs are outliers by the median-absolute-deviation rule. Pure arithmetic
// on a list of values; it prints nothing.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace ddtime {

// The interval [x(low), x(high)] (0-based order statistics) that holds the
// median with at least 95% confidence whatever the distribution: the
// largest j with P(j < B <= n-1-j) >= 0.95 for B ~ Binomial(n, 1/2).
// Absent below 6 values, where even x(0)..x(n-1) holds it with less.
struct OrderInterval {
  std::size_t low = 0;
  std::size_t high = 0;
};
std::optional<OrderInterval> median_interval_ranks(std::size_t n) noexcept;

struct Figure {
  std::size_t count = 0;
  double min = 0;
  double median = 0;
  std::optional<double> median_low;  // the 95% interval; absent below 6
  std::optional<double> median_high;
  double mean = 0;
  double sd = 0;  // sample standard deviation (n-1); 0 for one value
  double max = 0;
  // Indices (into the values given) of the outliers: a modified z-score
  // 0.6745 |x - median| / MAD above 3.5 (Iglewicz and Hoaglin). None when
  // the MAD is 0, where the rule cannot scale.
  std::vector<std::size_t> outliers;
};

// Requires: values is not empty.
Figure summarise_figure(std::span<const double> values);

// One run's figures: seconds, and bytes out over real seconds.
struct RunFigures {
  double real = 0;
  double user = 0;
  double sys = 0;
  double bytes_per_second = 0;
};

// The figures of a row's measured runs, each summarised on its own.
struct RowSummary {
  Figure real;
  Figure user;
  Figure sys;
  Figure bytes_per_second;
};

// Requires: runs is not empty.
RowSummary summarise_runs(std::span<const RunFigures> runs);

// --sweep=bs=auto's rule, over the rate of each row measured so far (bs
// doubling from row to row): a doubling is flat when its gain in median
// rate is under 5% and under the run-to-run spread (the larger coefficient
// of variation of the two rows; with single runs there is none, and the 5%
// alone decides). Two flat doublings in a row stop the sweep; the knee is
// the row before them, the last whose doubling paid.
struct KneeSearch {
  bool more = true;
  std::optional<std::size_t> knee;
};
KneeSearch knee_search(std::span<const Figure> rates);

}  // namespace ddtime
