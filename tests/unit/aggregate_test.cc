// SPDX-License-Identifier: GPL-3.0-or-later
// The statistics of repeated runs against values worked out by hand: the
// order-statistic interval of the median (binomial tables), mean and sample
// standard deviation, and the median-absolute-deviation outlier rule.
#include "measure/aggregate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ddtime {
namespace {

TEST(MedianInterval, IsAbsentBelowSixValues) {
  for (std::size_t n = 0; n < 6; ++n) EXPECT_FALSE(median_interval_ranks(n).has_value()) << n;
}

TEST(MedianInterval, SixValuesNeedTheWholeRange) {
  // P(0 < B < 6) = 1 - 2/64 = 0.969; P(1 < B < 5) = 50/64 = 0.78.
  const auto ranks = median_interval_ranks(6);
  ASSERT_TRUE(ranks.has_value());
  EXPECT_EQ(ranks->low, 0u);
  EXPECT_EQ(ranks->high, 5u);
}

TEST(MedianInterval, MatchesTheBinomialTablesAtTextbookSizes) {
  // n=10: x(1)..x(8), 97.9%; n=20: x(5)..x(14), 95.9%; n=9: x(1)..x(7), 96.1%.
  EXPECT_EQ(median_interval_ranks(10)->low, 1u);
  EXPECT_EQ(median_interval_ranks(10)->high, 8u);
  EXPECT_EQ(median_interval_ranks(20)->low, 5u);
  EXPECT_EQ(median_interval_ranks(20)->high, 14u);
  EXPECT_EQ(median_interval_ranks(9)->low, 1u);
  EXPECT_EQ(median_interval_ranks(9)->high, 7u);
}

TEST(MedianInterval, CoversAtLeastNinetyFivePercentAndNoRankMoreCould) {
  for (std::size_t n = 6; n < 200; ++n) {
    const auto ranks = median_interval_ranks(n);
    ASSERT_TRUE(ranks.has_value()) << n;
    auto coverage = [n](std::size_t j) {
      double inside = 0;
      for (std::size_t k = j + 1; k + j < n; ++k) {
        inside += std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(k) + 1) - std::lgamma(double(n - k) + 1) -
                           double(n) * std::log(2.0));
      }
      return inside;
    };
    EXPECT_GE(coverage(ranks->low), 0.95) << n;
    EXPECT_LT(coverage(ranks->low + 1), 0.95) << n;
    EXPECT_EQ(ranks->low + ranks->high, n - 1) << "symmetric";
  }
}

TEST(SummariseFigure, OneValueIsItsOwnEverything) {
  const std::vector<double> one{2.5};
  const Figure f = summarise_figure(one);
  EXPECT_EQ(f.count, 1u);
  EXPECT_EQ(f.min, 2.5);
  EXPECT_EQ(f.median, 2.5);
  EXPECT_EQ(f.mean, 2.5);
  EXPECT_EQ(f.sd, 0);
  EXPECT_EQ(f.max, 2.5);
  EXPECT_FALSE(f.median_low.has_value());
  EXPECT_TRUE(f.outliers.empty());
}

TEST(SummariseFigure, WorkedByHandOnFiveRuns) {
  // Sorted 1 2 4 4 9: median 4, mean 4, squares 9+4+0+0+25 = 38, sd sqrt(38/4).
  const std::vector<double> runs{4, 1, 9, 2, 4};
  const Figure f = summarise_figure(runs);
  EXPECT_EQ(f.min, 1);
  EXPECT_EQ(f.median, 4);
  EXPECT_DOUBLE_EQ(f.mean, 4);
  EXPECT_DOUBLE_EQ(f.sd, std::sqrt(38.0 / 4));
  EXPECT_EQ(f.max, 9);
  EXPECT_FALSE(f.median_low.has_value()) << "n/a below 6 runs";
  // Deviations 0 3 5 2 0 → sorted 0 0 2 3 5, MAD 2; 9 scores 0.6745*5/2 = 1.69.
  EXPECT_TRUE(f.outliers.empty());
}

TEST(SummariseFigure, AnEvenCountTakesTheMiddlePairsMean) {
  const std::vector<double> runs{1, 2, 3, 10, 11, 12};
  const Figure f = summarise_figure(runs);
  EXPECT_EQ(f.median, 6.5);
  ASSERT_TRUE(f.median_low.has_value());
  EXPECT_EQ(*f.median_low, 1);
  EXPECT_EQ(*f.median_high, 12);
}

TEST(SummariseFigure, FlagsAStallByTheMadRule) {
  // Ten runs near 1.00 s and one at 1.40 s: median 1.00, MAD 0.01, the
  // stall scores 0.6745 * 0.40 / 0.01 = 27 > 3.5; 1.02 scores 1.35.
  const std::vector<double> runs{1.00, 0.99, 1.01, 1.00, 1.40, 0.98, 1.02, 1.00, 0.99, 1.01, 1.00};
  const Figure f = summarise_figure(runs);
  EXPECT_EQ(f.median, 1.00);
  ASSERT_EQ(f.outliers.size(), 1u);
  EXPECT_EQ(f.outliers[0], 4u);
  ASSERT_TRUE(f.median_low.has_value());
  // n=11: x(1)..x(9), 98.8% (x(2)..x(8) would be 93.5%).
  EXPECT_EQ(*f.median_low, 0.99);
  EXPECT_EQ(*f.median_high, 1.02);
}

TEST(SummariseFigure, IdenticalRunsHaveNoOutliers) {
  const std::vector<double> runs(8, 3.0);
  const Figure f = summarise_figure(runs);
  EXPECT_EQ(f.sd, 0);
  EXPECT_TRUE(f.outliers.empty()) << "a MAD of 0 cannot scale the rule";
}

TEST(SummariseFigure, TheMeanAndSdStayExactForLargeCloseValues) {
  // 1e9 + {1, 2, 3}: a two-sum formula loses the digits, Welford keeps them.
  const std::vector<double> runs{1e9 + 1, 1e9 + 2, 1e9 + 3};
  const Figure f = summarise_figure(runs);
  EXPECT_DOUBLE_EQ(f.mean, 1e9 + 2);
  EXPECT_DOUBLE_EQ(f.sd, 1.0);
}

TEST(SummariseRuns, SummarisesEachFigureOnItsOwn) {
  const std::vector<RunFigures> runs{{1.0, 0.1, 0.5, 100}, {3.0, 0.3, 0.7, 300}, {2.0, 0.2, 0.6, 200}};
  const RowSummary row = summarise_runs(runs);
  EXPECT_EQ(row.real.median, 2.0);
  EXPECT_EQ(row.user.max, 0.3);
  EXPECT_EQ(row.sys.min, 0.5);
  EXPECT_EQ(row.bytes_per_second.median, 200);
  EXPECT_EQ(row.bytes_per_second.count, 3u);
}

Figure rate(double median, std::size_t count = 1, double sd = 0) {
  Figure f;
  f.count = count;
  f.median = f.mean = median;
  f.sd = sd;
  return f;
}

TEST(KneeSearch, GoesOnWhileDoublingPays) {
  const std::vector<Figure> rows{rate(100), rate(180), rate(300)};
  EXPECT_TRUE(knee_search(rows).more);
}

TEST(KneeSearch, StopsAfterTwoFlatDoublingsAndMarksTheRowBeforeThem) {
  // 100 -> 180 (+80%) -> 185 (+2.8%) -> 187 (+1.1%): the knee is 180.
  const std::vector<Figure> rows{rate(100), rate(180), rate(185), rate(187)};
  const KneeSearch search = knee_search(rows);
  EXPECT_FALSE(search.more);
  ASSERT_TRUE(search.knee.has_value());
  EXPECT_EQ(*search.knee, 1u);
}

TEST(KneeSearch, OneFlatDoublingIsNotEnough) {
  const std::vector<Figure> rows{rate(100), rate(102), rate(200)};
  EXPECT_TRUE(knee_search(rows).more);
  const std::vector<Figure> dip{rate(100), rate(180), rate(181), rate(250)};
  EXPECT_TRUE(knee_search(dip).more);
}

TEST(KneeSearch, AGainInsideTheRunToRunSpreadIsFlat) {
  // +4% twice, runs varying by 10%: flat.
  const std::vector<Figure> noisy{rate(100, 5, 10), rate(104, 5, 10.4), rate(108.2, 5, 10.8)};
  EXPECT_FALSE(knee_search(noisy).more);
  // +4% twice, runs varying by 1%: the gain is real, go on.
  const std::vector<Figure> steady{rate(100, 5, 1), rate(104, 5, 1.04), rate(108.2, 5, 1.08)};
  EXPECT_TRUE(knee_search(steady).more);
}

TEST(KneeSearch, ALossIsFlat) {
  const std::vector<Figure> rows{rate(100), rate(200), rate(150), rate(120)};
  const KneeSearch search = knee_search(rows);
  EXPECT_FALSE(search.more);
  EXPECT_EQ(*search.knee, 1u);
}

}  // namespace
}  // namespace ddtime
