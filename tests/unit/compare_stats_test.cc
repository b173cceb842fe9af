// SPDX-License-Identifier: GPL-3.0-or-later
// The rank test, the interval of the ratio and the verdict against values
// worked out by hand (and the Mann-Whitney tables of two-sided critical
// values at 0.05: m=n=4: none below 1, m=n=5: 2, m=n=6: 5, m=n=10: 23).
#include "measure/compare_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <utility>
#include <vector>

namespace ddtime {
namespace {

// The definitions, pair by pair: what the O((m+n) log(m+n)) code must
// reproduce exactly.
double brute_u(const std::vector<double>& a, const std::vector<double>& b) {
  double u = 0;
  for (const double x : a) {
    for (const double y : b) u += y > x ? 1.0 : y == x ? 0.5 : 0.0;
  }
  return u;
}

std::optional<RatioInterval> brute_interval(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t rank = interval_rank(a.size(), b.size());
  if (rank == 0) return std::nullopt;
  std::vector<double> ratios;
  for (const double x : a) {
    for (const double y : b) ratios.push_back(y / x);
  }
  std::sort(ratios.begin(), ratios.end());
  return RatioInterval{ratios[rank - 1], ratios[ratios.size() - rank]};
}

// Rates drawn so that ties are common (few distinct values) or rare.
std::vector<double> draw(std::mt19937_64& random, std::size_t count, bool ties) {
  std::vector<double> values(count);
  std::uniform_int_distribution<int> few(1, 6);
  std::lognormal_distribution<double> spread(20, 1);
  for (double& value : values) value = ties ? few(random) * 1e8 / 3 : spread(random);
  return values;
}

TEST(UCounts, ThreeAgainstThreeHasTheTextbookDistribution) {
  // The 20 orderings of 3 and 3: U = 0..9 in 1,1,2,3,3,3,3,2,1,1 ways.
  const std::vector<double> expected{1, 1, 2, 3, 3, 3, 3, 2, 1, 1};
  EXPECT_EQ(u_counts(3, 3), expected);
}

TEST(UCounts, SumToTheNumberOfOrderings) {
  double total = 0;
  for (const double c : u_counts(5, 7)) total += c;
  EXPECT_EQ(total, 792);  // C(12, 5)
}

TEST(MannWhitney, ThreeAgainstThreeFullySeparatedGivesOneInTen) {
  // U = 0, reached by 1 of the 20 orderings; two-sided: 2/20.
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  const RankTest test = mann_whitney(a, b);
  EXPECT_TRUE(test.exact);
  EXPECT_EQ(test.u, 9);  // every b above every a
  EXPECT_DOUBLE_EQ(test.p, 0.1);
}

TEST(MannWhitney, FiveAgainstFiveFullySeparatedGivesTwoIn252) {
  const std::vector<double> a{10, 11, 12, 13, 14}, b{1, 2, 3, 4, 5};
  const RankTest test = mann_whitney(a, b);
  EXPECT_EQ(test.u, 0);
  EXPECT_DOUBLE_EQ(test.p, 2.0 / 252);
}

TEST(MannWhitney, InterleavedFivesAreFarFromSignificant) {
  // a = 1,3,5,7,9 and b = 2,4,...,10: U = 1+2+3+4+5 = 15; P(U >= 15) is
  // 87 of the 252 orderings, so p = 174/252.
  const std::vector<double> a{1, 3, 5, 7, 9}, b{2, 4, 6, 8, 10};
  const RankTest test = mann_whitney(a, b);
  EXPECT_EQ(test.u, 15);
  EXPECT_DOUBLE_EQ(test.p, 174.0 / 252);
}

TEST(MannWhitney, TiesTakeTheNormalApproximationWithItsCorrections) {
  // a = 10,20,20,30 and b = 20,30,40,50,60. U = 5 + 4.5 + 4.5 + 3.5 = 17.5;
  // mn/2 = 10. Ties: three 20s (27-3 = 24) and two 30s (8-2 = 6), so 30;
  // N = 9. Var = 20/12 * (10 - 30/72) = 15.97222; sd = 3.99653;
  // z = (7.5 - 0.5)/sd = 1.75152; p = 2 * (1 - Phi(z)) = 0.0798562.
  const std::vector<double> a{10, 20, 20, 30}, b{20, 30, 40, 50, 60};
  const RankTest test = mann_whitney(a, b);
  EXPECT_FALSE(test.exact);
  EXPECT_EQ(test.u, 17.5);
  EXPECT_NEAR(test.p, 0.0798562, 1e-6);
}

TEST(MannWhitney, AllEqualValuesCannotBeToldApart) {
  const std::vector<double> a{5, 5, 5, 5}, b{5, 5, 5, 5};
  EXPECT_EQ(mann_whitney(a, b).p, 1);
}

TEST(SmallestP, IsCompleteSeparationsTwoSidedP) {
  EXPECT_DOUBLE_EQ(smallest_p(3, 3), 0.1);
  EXPECT_DOUBLE_EQ(smallest_p(3, 4), 2.0 / 35);
  EXPECT_DOUBLE_EQ(smallest_p(4, 4), 2.0 / 70);
  EXPECT_DOUBLE_EQ(smallest_p(1, 1), 1);
}

TEST(IntervalRank, MatchesTheCriticalValuesOfTheTables) {
  EXPECT_EQ(interval_rank(3, 3), 0u);  // P(U <= 0) = 1/20 > 0.025
  EXPECT_EQ(interval_rank(4, 4), 1u);  // 1/70 <= 0.025 < 2/70
  EXPECT_EQ(interval_rank(5, 5), 3u);  // P(U <= 2) = 4/252 <= 0.025 < 7/252
  EXPECT_EQ(interval_rank(6, 6), 6u);
  EXPECT_EQ(interval_rank(10, 10), 24u);
}

TEST(IntervalRank, UsesTheNormalApproximationForManyPairs) {
  // 25 and 25: floor(625/2 + 0.5 - 1.959964 * sqrt(625 * 51 / 12)) =
  // floor(313 - 101.015) = 211.
  EXPECT_EQ(interval_rank(25, 25), 211u);
}

TEST(RatioInterval, FourAgainstFourSpansTheExtremeRatios) {
  // C = 1: the smallest and the largest of the 16 ratios b/a.
  const std::vector<double> a{100, 101, 102, 103}, b{110, 111, 112, 113};
  const auto interval = ratio_interval(a, b);
  ASSERT_TRUE(interval.has_value());
  EXPECT_DOUBLE_EQ(interval->low, 110.0 / 103);
  EXPECT_DOUBLE_EQ(interval->high, 113.0 / 100);
}

TEST(RatioInterval, FiveAgainstFiveDropsTwoRatiosAtEachEnd) {
  // a = 1..5, b = 10: ratios 10/5, 10/4, 10/3, 10/2, 10/1 five times each
  // when b is constant; C = 3: the 3rd smallest (2) and 3rd largest (10).
  const std::vector<double> a{1, 2, 3, 4, 5}, b{10, 10, 10, 10, 10};
  const auto interval = ratio_interval(a, b);
  ASSERT_TRUE(interval.has_value());
  EXPECT_DOUBLE_EQ(interval->low, 2);
  EXPECT_DOUBLE_EQ(interval->high, 10);
}

TEST(RatioInterval, IsAbsentForThreeAgainstThree) {
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  EXPECT_FALSE(ratio_interval(a, b).has_value());
}

TEST(CompareRates, FasterRunsGiveTheRatioOfMediansAndFaster) {
  const std::vector<double> a{100, 101, 102, 103, 104}, b{130, 131, 132, 133, 134};
  const RowComparison row = compare_rates(a, b);
  EXPECT_EQ(row.verdict, Verdict::kFaster);
  EXPECT_DOUBLE_EQ(*row.ratio, 132.0 / 102);
  EXPECT_DOUBLE_EQ(row.test->p, 2.0 / 252);
  ASSERT_TRUE(row.interval.has_value());
  EXPECT_EQ(row.baseline_runs, 5u);
}

TEST(CompareRates, SlowerRunsSaySlower) {
  const std::vector<double> a{130, 131, 132, 133, 134}, b{100, 101, 102, 103, 104};
  EXPECT_EQ(compare_rates(a, b).verdict, Verdict::kSlower);
}

TEST(CompareRates, ThreeRunsEachAreTooFewEvenWhenSeparated) {
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  const RowComparison row = compare_rates(a, b);
  EXPECT_EQ(row.verdict, Verdict::kTooFew);
  EXPECT_DOUBLE_EQ(row.smallest_p, 0.1);
}

TEST(CompareRates, ThreeRunsEachWithTiesAreStillTooFew) {
  // The normal approximation gives p = 0.047 here (three 1s and three 2s:
  // var = 9/12 * (7 - 48/30)), which no ordering of 3 and 3 could.
  const std::vector<double> a{1, 1, 1}, b{2, 2, 2};
  EXPECT_EQ(compare_rates(a, b).verdict, Verdict::kTooFew);
}

TEST(CompareRates, OverlappingRunsAreNoChange) {
  const std::vector<double> a{1, 3, 5, 7, 9}, b{2, 4, 6, 8, 10};
  EXPECT_EQ(compare_rates(a, b).verdict, Verdict::kNoChange);
}

TEST(CompareRates, ASideWithoutMeasuredRunsHasNoVerdict) {
  const std::vector<double> a{1, 2, 3}, b{0};
  const RowComparison row = compare_rates(a, b);
  EXPECT_EQ(row.verdict, Verdict::kNoRuns);
  EXPECT_EQ(row.other_runs, 0u);
  EXPECT_FALSE(row.ratio.has_value());
}

TEST(MannWhitney, UFromRanksEqualsThePairByPairCountOnRandomSamples) {
  std::mt19937_64 random(28);
  for (int round = 0; round < 400; ++round) {
    const std::size_t m = 1 + random() % 40, n = 1 + random() % 40;
    const bool ties = round % 2 == 0;
    const std::vector<double> a = draw(random, m, ties), b = draw(random, n, ties);
    ASSERT_EQ(mann_whitney(a, b).u, brute_u(a, b)) << "round " << round;
  }
}

TEST(RatioInterval, SelectionEqualsTheSortOfAllRatiosOnRandomSamples) {
  std::mt19937_64 random(4);
  for (int round = 0; round < 400; ++round) {
    const std::size_t m = 1 + random() % 60, n = 1 + random() % 60;
    const bool ties = round % 2 == 0;
    const std::vector<double> a = draw(random, m, ties), b = draw(random, n, ties);
    const auto fast = ratio_interval(a, b);
    const auto slow = brute_interval(a, b);
    ASSERT_EQ(fast.has_value(), slow.has_value()) << "round " << round;
    if (!slow) continue;
    // Exactly the same doubles: the same order statistics of the same
    // computed ratios.
    ASSERT_EQ(fast->low, slow->low) << "round " << round;
    ASSERT_EQ(fast->high, slow->high) << "round " << round;
  }
}

TEST(RatioInterval, SelectionEqualsTheSortOfAllRatiosOnTheWorkedCases) {
  const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases{
      {{100, 101, 102, 103}, {110, 111, 112, 113}},
      {{1, 2, 3, 4, 5}, {10, 10, 10, 10, 10}},
      {{100, 101, 102, 103, 104}, {130, 131, 132, 133, 134}},
      {{1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}},
      {{5, 5, 5, 5}, {5, 5, 5, 5}},
      {{1e300, 1.1e300, 1.2e300, 1.3e300, 1.4e300}, {1.5e300, 1.6e300, 1.7e300, 1.8e300, 1.9e300}},
      {{1e-300, 2e-300, 3e-300, 4e-300}, {1e300, 2e300, 3e300, 4e300}},  // ratios overflow to inf
  };
  for (const auto& [a, b] : cases) {
    const auto fast = ratio_interval(a, b);
    const auto slow = brute_interval(a, b);
    ASSERT_EQ(fast.has_value(), slow.has_value());
    if (!slow) continue;
    EXPECT_EQ(fast->low, slow->low);
    EXPECT_EQ(fast->high, slow->high);
  }
}

// 10^10 pairs: the old pair-by-pair code needed 80 GB for the ratios (it
// threw bad_alloc) and 10^10 comparisons for U.
TEST(RatioInterval, AHundredThousandRunsASideNeedNoMemoryPerPair) {
  std::mt19937_64 random(100000);
  const std::vector<double> a = draw(random, 100000, false), b = draw(random, 100000, false);
  const auto interval = ratio_interval(a, b);
  ASSERT_TRUE(interval.has_value());
  EXPECT_LT(interval->low, interval->high);
  EXPECT_GT(interval->low, 0.9);
  EXPECT_LT(interval->high, 1.1);
}

TEST(MannWhitney, AHundredThousandRunsASideAreRankedNotPaired) {
  std::vector<double> a(100000), b(100000);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<double>(2 * i);
    b[i] = static_cast<double>(2 * i + 1);
  }
  // Every b_i is above a_0..a_i: U = 1 + 2 + ... + 10^5.
  EXPECT_EQ(mann_whitney(a, b).u, 100000.0 * 100001 / 2);
}

TEST(CompareRates, RunsOfZeroBytesPerSecondAreCountedApart) {
  const std::vector<double> a{0, 0, 0}, b{0, 0, 0};
  const RowComparison row = compare_rates(a, b);
  EXPECT_EQ(row.verdict, Verdict::kNoRuns);
  EXPECT_EQ(row.baseline_zero_runs, 3u);
  EXPECT_EQ(row.other_zero_runs, 3u);
}

}  // namespace
}  // namespace ddtime
