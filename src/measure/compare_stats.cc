// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/compare_stats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

// Boost 1.74's root finders (boost/math/tools/roots.hpp, which the normal's
// quantile reaches) include <iostream> for debugging output they print
// only under BOOST_MATH_INSTRUMENT, and with it the static initialisation
// of the standard streams that no source of ddtime's may run before main
// (tests/link/linkage_test.sh). libstdc++'s include guard, set here, makes
// that include empty; nothing of Boost's that is compiled uses a stream.
#ifndef _GLIBCXX_IOSTREAM
#define _GLIBCXX_IOSTREAM 1
#endif
#include <boost/math/distributions/normal.hpp>

namespace ddtime {
namespace {

constexpr double kHalfAlpha = kSignificance / 2;

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// P(Z > z) for a standard normal Z.
double upper_tail(double z) {
  const boost::math::normal standard;
  return boost::math::cdf(boost::math::complement(standard, z));
}

// U from the sorted samples: for each value of b, the values of a below
// it, and half those equal to it; two pointers walk both once, so U costs
// the sorting, not m*n comparisons.
double u_statistic(std::span<const double> sorted_a, std::span<const double> sorted_b) {
  double u = 0;
  std::size_t below = 0, not_above = 0;  // values of a < y, and <= y
  for (const double y : sorted_b) {
    while (below < sorted_a.size() && sorted_a[below] < y) ++below;
    not_above = std::max(not_above, below);
    while (not_above < sorted_a.size() && sorted_a[not_above] <= y) ++not_above;
    u += static_cast<double>(below) + static_cast<double>(not_above - below) / 2;
  }
  return u;
}

// The sum of t^3 - t over the groups of equal values in both samples
// together: what ties take from U's variance.
double tie_term(std::span<const double> a, std::span<const double> b) {
  std::vector<double> all(a.begin(), a.end());
  all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end());
  double term = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j] == all[i]) ++j;
    const double t = static_cast<double>(j - i);
    term += t * t * t - t;
    i = j;
  }
  return term;
}

// The exact two-sided p of u: twice the smaller tail, counted.
double exact_p(std::size_t m, std::size_t n, double u) {
  const std::vector<double> counts = u_counts(m, n);
  double total = 0, below = 0, above = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    total += counts[k];
    if (static_cast<double>(k) <= u) below += counts[k];
    if (static_cast<double>(k) >= u) above += counts[k];
  }
  return std::min(1.0, 2 * std::min(below, above) / total);
}

// The normal approximation, with the variance ties leave and a continuity
// correction of one half.
double normal_p(std::size_t m, std::size_t n, double u, double ties) {
  const double mn = static_cast<double>(m * n);
  const double total = static_cast<double>(m + n);
  const double variance = mn / 12 * ((total + 1) - ties / (total * (total - 1)));
  if (variance <= 0) return 1;  // every value equal: nothing to tell apart
  const double z = std::max(0.0, std::abs(u - mn / 2) - 0.5) / std::sqrt(variance);
  return std::min(1.0, 2 * upper_tail(z));
}

}  // namespace

std::vector<double> u_counts(std::size_t m, std::size_t n) {
  // ways[i][j][u]: orderings of i values of the first sample and j of the
  // second with U = u. The largest value is either the first sample's
  // (below no value of the second: U unchanged) or the second's (above
  // all i of the first: U grows by i).
  std::vector<std::vector<std::vector<double>>> ways(m + 1, std::vector<std::vector<double>>(n + 1));
  for (std::size_t i = 0; i <= m; ++i) {
    for (std::size_t j = 0; j <= n; ++j) {
      std::vector<double>& here = ways[i][j];
      here.assign(i * j + 1, 0.0);
      if (i == 0 || j == 0) {
        here[0] = 1;
        continue;
      }
      const std::vector<double>& first_largest = ways[i - 1][j];
      const std::vector<double>& second_largest = ways[i][j - 1];
      for (std::size_t u = 0; u < first_largest.size(); ++u) here[u] += first_largest[u];
      for (std::size_t u = 0; u < second_largest.size(); ++u) here[u + i] += second_largest[u];
    }
  }
  return ways[m][n];
}

RankTest mann_whitney(std::span<const double> a, std::span<const double> b) {
  std::vector<double> sorted_a(a.begin(), a.end()), sorted_b(b.begin(), b.end());
  std::sort(sorted_a.begin(), sorted_a.end());
  std::sort(sorted_b.begin(), sorted_b.end());
  RankTest test;
  test.u = u_statistic(sorted_a, sorted_b);
  const double ties = tie_term(a, b);
  test.exact = ties == 0 && a.size() * b.size() <= kExactPairs;
  test.p = test.exact ? exact_p(a.size(), b.size(), test.u) : normal_p(a.size(), b.size(), test.u, ties);
  return test;
}

double smallest_p(std::size_t m, std::size_t n) {
  // C(m+n, m) built up as a product of ratios, stopping once it is so
  // large that the p is far below any threshold.
  double ways = 1;
  for (std::size_t k = 1; k <= std::min(m, n) && ways < 1e12; ++k) {
    ways = ways * static_cast<double>(m + n - std::min(m, n) + k) / static_cast<double>(k);
  }
  return std::min(1.0, 2 / ways);
}

std::size_t interval_rank(std::size_t m, std::size_t n) {
  const std::size_t pairs = m * n;
  if (pairs == 0) return 0;
  if (pairs <= kExactPairs) {
    const std::vector<double> counts = u_counts(m, n);
    double total = 0;
    for (const double c : counts) total += c;
    // The largest C with P(U <= C-1) <= alpha/2.
    std::size_t rank = 0;
    double below = 0;
    while (rank < counts.size() && (below + counts[rank]) <= kHalfAlpha * total) below += counts[rank++];
    return rank;
  }
  const double mn = static_cast<double>(pairs);
  const double sd = std::sqrt(mn * static_cast<double>(m + n + 1) / 12);
  const double z = boost::math::quantile(boost::math::normal(), 1 - kHalfAlpha);
  const double rank = std::floor(mn / 2 + 0.5 - z * sd);
  return rank < 1 ? 0 : static_cast<std::size_t>(rank);
}

namespace {

// How many of the ratios y/x (x of a, y of b, both sorted ascending) are at
// most t. Division rounds monotonically, so the ratios computed fall as x
// grows and rise as y grows: for each x, from the smallest up, the ys
// with y/x <= t only grow in number, and one pointer walks b once.
std::size_t ratios_at_most(std::span<const double> sorted_a, std::span<const double> sorted_b, double t) {
  std::size_t count = 0, j = 0;
  for (const double x : sorted_a) {
    while (j < sorted_b.size() && sorted_b[j] / x <= t) ++j;
    count += j;
  }
  return count;
}

// The k-th smallest (1-based) of the m*n ratios y/x, exactly the value a
// sort of them all would put there: the smallest double t with at least k
// ratios at most t, found by bisection on t's bits (positive doubles order
// as their bit patterns do). About 64 counts of O(m+n) each, in place of
// m*n values in memory.
double kth_ratio(std::span<const double> sorted_a, std::span<const double> sorted_b, std::size_t k) {
  std::uint64_t low = 0;                                                                       // +0: no ratio below
  std::uint64_t high = std::bit_cast<std::uint64_t>(std::numeric_limits<double>::infinity());  // every ratio at most
  while (low < high) {
    const std::uint64_t middle = low + (high - low) / 2;
    if (ratios_at_most(sorted_a, sorted_b, std::bit_cast<double>(middle)) >= k) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return std::bit_cast<double>(low);
}

}  // namespace

std::optional<RatioInterval> ratio_interval(std::span<const double> a, std::span<const double> b) {
  const std::size_t rank = interval_rank(a.size(), b.size());
  if (rank == 0) return std::nullopt;
  // Ordering the ratios orders their logarithms: the interval of the shift
  // on the log scale, taken back.
  std::vector<double> sorted_a(a.begin(), a.end()), sorted_b(b.begin(), b.end());
  std::sort(sorted_a.begin(), sorted_a.end());
  std::sort(sorted_b.begin(), sorted_b.end());
  const std::size_t pairs = a.size() * b.size();
  return RatioInterval{kth_ratio(sorted_a, sorted_b, rank), kth_ratio(sorted_a, sorted_b, pairs - rank + 1)};
}

RowComparison compare_rates(std::span<const double> baseline, std::span<const double> other) {
  std::vector<double> a, b;
  std::copy_if(baseline.begin(), baseline.end(), std::back_inserter(a), [](double x) { return x > 0; });
  std::copy_if(other.begin(), other.end(), std::back_inserter(b), [](double x) { return x > 0; });
  RowComparison row;
  row.baseline_runs = a.size();
  row.other_runs = b.size();
  row.baseline_zero_runs = baseline.size() - a.size();
  row.other_zero_runs = other.size() - b.size();
  if (!a.empty()) row.baseline_median = median_of(a);
  if (!b.empty()) row.other_median = median_of(b);
  if (a.empty() || b.empty()) return row;
  row.ratio = *row.other_median / *row.baseline_median;
  row.interval = ratio_interval(a, b);
  row.test = mann_whitney(a, b);
  row.smallest_p = smallest_p(a.size(), b.size());
  // Checked first: with ties, the normal approximation can dip under 0.05
  // where no arrangement of so few runs could.
  if (row.smallest_p >= kSignificance) {
    row.verdict = Verdict::kTooFew;
  } else if (row.test->p < kSignificance) {
    const double middle = static_cast<double>(a.size() * b.size()) / 2;
    row.verdict = row.test->u > middle ? Verdict::kFaster : Verdict::kSlower;
  } else {
    row.verdict = Verdict::kNoChange;
  }
  return row;
}

}  // namespace ddtime
