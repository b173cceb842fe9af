// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/compare_stats.h"

#include <algorithm>
#include <cmath>
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

double u_statistic(std::span<const double> a, std::span<const double> b) {
  double u = 0;
  for (const double x : a) {
    for (const double y : b) u += y > x ? 1.0 : y == x ? 0.5 : 0.0;
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
  RankTest test;
  test.u = u_statistic(a, b);
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

std::optional<RatioInterval> ratio_interval(std::span<const double> a, std::span<const double> b) {
  const std::size_t rank = interval_rank(a.size(), b.size());
  if (rank == 0) return std::nullopt;
  // Sorting the ratios sorts their logarithms: the interval of the shift
  // on the log scale, taken back.
  std::vector<double> ratios;
  ratios.reserve(a.size() * b.size());
  for (const double x : a) {
    for (const double y : b) ratios.push_back(y / x);
  }
  std::sort(ratios.begin(), ratios.end());
  return RatioInterval{ratios[rank - 1], ratios[ratios.size() - rank]};
}

RowComparison compare_rates(std::span<const double> baseline, std::span<const double> other) {
  std::vector<double> a, b;
  std::copy_if(baseline.begin(), baseline.end(), std::back_inserter(a), [](double x) { return x > 0; });
  std::copy_if(other.begin(), other.end(), std::back_inserter(b), [](double x) { return x > 0; });
  RowComparison row;
  row.baseline_runs = a.size();
  row.other_runs = b.size();
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
