// SPDX-License-Identifier: GPL-3.0-or-later
// compare_stats — whether one set of runs is faster than another: the
// Mann-Whitney U rank test (two-sided; exact below kExactPairs pairs
// without ties, else normal with tie and continuity corrections), the
// ratio of medians and its distribution-free 95% interval (Hodges-Lehmann
// and Moses, on the log scale), and the verdict at p < 0.05. Pure
// arithmetic on rates (higher is faster); the words are report_compare's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ddtime {

// Up to this many pairs (m*n) the U distribution is counted exactly;
// beyond, and whenever there are ties, the normal approximation is used.
inline constexpr std::size_t kExactPairs = 400;
inline constexpr double kSignificance = 0.05;

// The number of ways U (of a sample of m against one of n) takes each value
// 0..m*n, for samples without ties; the sum is C(m+n, m).
// Requires: m*n <= kExactPairs.
std::vector<double> u_counts(std::size_t m, std::size_t n);

struct RankTest {
  double u = 0;        // pairs (a, b) with b > a, ties counting one half
  double p = 1;        // two-sided
  bool exact = false;  // counted, rather than the normal approximation
};
// O((m+n) log(m+n)): U from the sorted samples, never pair by pair.
// Requires: a and b are not empty.
RankTest mann_whitney(std::span<const double> a, std::span<const double> b);

// The smallest two-sided p the test can give samples of m and n: that of
// complete separation, 2 / C(m+n, m) (capped at 1).
double smallest_p(std::size_t m, std::size_t n);

// How many of the m*n ratios lie outside the 95% interval at each end: the
// largest C with P(U <= C-1) <= 0.025 (exact up to kExactPairs pairs, else
// normal with a continuity correction). 0: too few runs for an interval.
std::size_t interval_rank(std::size_t m, std::size_t n);

struct RatioInterval {
  double low = 0;
  double high = 0;
};
// The interval of median(b)/median(a): the C-th smallest and C-th largest
// of the ratios b_j/a_i, each exactly the value a sort of all m*n ratios
// would give, found in O((m+n) log(m+n)) time and O(m+n) memory. Absent
// when interval_rank is 0.
// Requires: every value is above 0.
std::optional<RatioInterval> ratio_interval(std::span<const double> a, std::span<const double> b);

enum class Verdict {
  kFaster,    // b is faster (higher rates), p < 0.05
  kSlower,    // b is slower, p < 0.05
  kTooFew,    // even complete separation could not reach p < 0.05
  kNoChange,  // p >= 0.05
  kNoRuns,    // a side has no runs
};

struct RowComparison {
  std::size_t baseline_runs = 0;
  std::size_t other_runs = 0;
  // Runs left out for a rate of 0 (they moved nothing): said, never
  // counted as absent.
  std::size_t baseline_zero_runs = 0;
  std::size_t other_zero_runs = 0;
  std::optional<double> baseline_median;
  std::optional<double> other_median;
  std::optional<double> ratio;  // other's median over the baseline's
  std::optional<RatioInterval> interval;
  std::optional<RankTest> test;
  double smallest_p = 1;
  Verdict verdict = Verdict::kNoRuns;
};
// Rates of the baseline's runs and of the other's; values at or below 0
// (a run that moved nothing) are left out of the test, and counted apart.
RowComparison compare_rates(std::span<const double> baseline, std::span<const double> other);

}  // namespace ddtime
