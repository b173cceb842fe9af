// SPDX-License-Identifier: GPL-3.0-or-later
// What a timeline's samples say: interval rates, their spread, the cliff
// and steady state by both definitions. Every expected figure is worked
// out by hand here, never by asking the code under test.
#include "measure/timeline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace ddtime {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;
constexpr double kMB = 1e6;

// One sample per second, each interval moving rate x 1 s; records are
// 1 MB each.
Timeline every_second(const std::vector<double>& rates) {
  Timeline timeline;
  timeline.interval_ns = kSecond;
  std::int64_t bytes = 0;
  for (std::size_t k = 0; k < rates.size(); ++k) {
    bytes += static_cast<std::int64_t>(std::llround(rates[k]));
    timeline.samples.push_back({static_cast<std::int64_t>(k + 1) * kSecond, bytes, bytes / 1'000'000, {}, {}, {}, {}});
  }
  return timeline;
}

std::vector<double> repeated(double rate, std::size_t count) { return std::vector<double>(count, rate); }

std::vector<double> joined(std::vector<double> first, const std::vector<double>& second) {
  first.insert(first.end(), second.begin(), second.end());
  return first;
}

TEST(Timeline, EachIntervalRunsFromTheSampleBeforeAndItsRateIsBytesOverSeconds) {
  Timeline timeline;
  timeline.interval_ns = kSecond;
  // 0 -> 0.5 s: 50 MB; 0.5 s -> 2 s: 30 MB in 1.5 s (20 MB/s), 6 records.
  timeline.samples = {{kSecond / 2, 50'000'000, 10, {}, {}, {}, {}}, {2 * kSecond, 80'000'000, 16, {}, {}, {}, {}}};
  const std::vector<TimelineInterval> intervals = timeline_intervals(timeline);
  ASSERT_EQ(intervals.size(), 2u);
  EXPECT_EQ(intervals[0].start_ns, 0);
  EXPECT_EQ(intervals[0].start_bytes, 0);
  EXPECT_DOUBLE_EQ(intervals[0].rate, 100 * kMB);
  EXPECT_DOUBLE_EQ(intervals[0].iops, 20);
  EXPECT_TRUE(intervals[0].counted);  // exactly half the interval still counts
  EXPECT_EQ(intervals[1].start_ns, kSecond / 2);
  EXPECT_EQ(intervals[1].start_bytes, 50'000'000);
  EXPECT_EQ(intervals[1].end_bytes, 80'000'000);
  EXPECT_DOUBLE_EQ(intervals[1].rate, 20 * kMB);
  EXPECT_DOUBLE_EQ(intervals[1].iops, 4);
}

TEST(Timeline, AFlatSeriesIsSteadyByBothDefinitionsAtTheEndOfItsFirstWindow) {
  const TimelineAnalysis analysis = analyse_timeline(every_second(repeated(100 * kMB, 15)));
  ASSERT_TRUE(analysis.spread);
  EXPECT_EQ(analysis.spread->intervals, 15u);
  EXPECT_DOUBLE_EQ(analysis.spread->min, 100 * kMB);
  EXPECT_DOUBLE_EQ(analysis.spread->median, 100 * kMB);
  EXPECT_DOUBLE_EQ(analysis.spread->max, 100 * kMB);
  EXPECT_DOUBLE_EQ(analysis.spread->cv, 0);
  EXPECT_FALSE(analysis.cliff);
  for (const SteadyState* state : {&analysis.deviation, &analysis.slope}) {
    EXPECT_TRUE(state->enough_intervals);
    EXPECT_TRUE(state->reached);
    EXPECT_EQ(state->window, 10u);
    EXPECT_EQ(state->at_interval, 9u);  // the tenth interval ends the first window
    EXPECT_EQ(state->at_ns, 10 * kSecond);
    EXPECT_EQ(state->at_bytes, 1'000'000'000);
    EXPECT_DOUBLE_EQ(state->value_percent, 0);
    EXPECT_DOUBLE_EQ(state->window_mean, 100 * kMB);
  }
  EXPECT_EQ(analysis.deviation.criterion, SteadyState::Criterion::kDeviation);
  EXPECT_DOUBLE_EQ(analysis.deviation.limit_percent, 10);
  EXPECT_EQ(analysis.slope.criterion, SteadyState::Criterion::kSlope);
  EXPECT_DOUBLE_EQ(analysis.slope.limit_percent, 1);
}

// Rates 100, 102, 98, 101, 99 MB/s over a window of 5:
//   mean m = 500 / 5 = 100; |y - m| = 0, 2, 2, 1, 1, so deviation = 2%.
//   x = 0..4: sum x = 10, sum x^2 = 30, sum y = 500,
//   sum xy = 0 + 102 + 196 + 303 + 396 = 997;
//   slope = (997 - 10 x 500 / 5) / (30 - 10^2 / 5) = -3 / 10 = -0.3 MB/s
//   per interval, so the slope criterion = 100 x 0.3 / 100 = 0.3%.
TEST(Timeline, TheCriteriaOfAHandWorkedWindowAreTwoAndThreeTenthsPercent) {
  const SteadyRule rule{10, 1, 5};
  const TimelineAnalysis analysis =
      analyse_timeline(every_second({100 * kMB, 102 * kMB, 98 * kMB, 101 * kMB, 99 * kMB}), rule);
  ASSERT_TRUE(analysis.deviation.reached);
  EXPECT_NEAR(analysis.deviation.value_percent, 2.0, 1e-9);
  EXPECT_NEAR(analysis.deviation.window_mean, 100 * kMB, 1e-3);
  EXPECT_EQ(analysis.deviation.at_interval, 4u);
  ASSERT_TRUE(analysis.slope.reached);
  EXPECT_NEAR(analysis.slope.value_percent, 0.3, 1e-9);
  // Tighter than either value: not reached, and the smallest is the one window's.
  const TimelineAnalysis strict =
      analyse_timeline(every_second({100 * kMB, 102 * kMB, 98 * kMB, 101 * kMB, 99 * kMB}), {1.9, 0.29, 5});
  EXPECT_FALSE(strict.deviation.reached);
  EXPECT_NEAR(strict.deviation.value_percent, 2.0, 1e-9);
  EXPECT_FALSE(strict.slope.reached);
  EXPECT_NEAR(strict.slope.value_percent, 0.3, 1e-9);
}

// 100, 102, ..., 138 MB/s. Every window of 10 rises 2 MB/s per interval,
// so its slope is 2 / mean: 2 / 109 = 1.83% for the first window down to
// 2 / 129 = 1.55% for the last (120..138), never 1%. The first window's
// deviation is |100 - 109| / 109 = 8.26%, within 10% at once.
TEST(Timeline, ARisingRampFailsTheSlopeButMeetsTheDeviation) {
  std::vector<double> rates;
  for (int k = 0; k < 20; ++k) rates.push_back((100 + 2 * k) * kMB);
  const TimelineAnalysis analysis = analyse_timeline(every_second(rates));
  ASSERT_TRUE(analysis.deviation.reached);
  EXPECT_EQ(analysis.deviation.at_interval, 9u);
  EXPECT_NEAR(analysis.deviation.value_percent, 100.0 * 9 / 109, 1e-9);
  EXPECT_NEAR(analysis.deviation.window_mean, 109 * kMB, 1e-3);
  EXPECT_TRUE(analysis.slope.enough_intervals);
  EXPECT_FALSE(analysis.slope.reached);
  EXPECT_TRUE(analysis.slope.mean_above_zero);
  EXPECT_NEAR(analysis.slope.value_percent, 100.0 * 2 / 129, 1e-9);
  EXPECT_NEAR(analysis.slope.window_mean, 129 * kMB, 1e-3);
  EXPECT_FALSE(analysis.cliff);
}

// Ten intervals at 4.5 GB/s, then ten at 2.0 GB/s. The plateau is the
// median of the first max(3, 20 / 10) = 3 intervals, 4.5 GB/s; 0.8 of it is
// 3.6 GB/s. Interval 10 is the first below, and so is the median of the ten
// from it, 2.0 GB/s. It starts after 10 x 4.5 GB = 45 GB, 10 s in.
TEST(Timeline, ARateThatFellFromFourAndAHalfToTwoHasItsCliffWhereItFell) {
  const TimelineAnalysis analysis = analyse_timeline(every_second(joined(repeated(4.5e9, 10), repeated(2.0e9, 10))));
  ASSERT_TRUE(analysis.cliff);
  EXPECT_DOUBLE_EQ(analysis.cliff->before_rate, 4.5e9);
  EXPECT_DOUBLE_EQ(analysis.cliff->after_rate, 2.0e9);
  EXPECT_EQ(analysis.cliff->at_interval, 10u);
  EXPECT_EQ(analysis.cliff->at_bytes, 45'000'000'000);
  EXPECT_EQ(analysis.cliff->at_ns, 10 * kSecond);
  ASSERT_TRUE(analysis.spread);
  EXPECT_DOUBLE_EQ(analysis.spread->median, (4.5e9 + 2.0e9) / 2);
}

// 100 MB/s, two intervals at 20, then 100 again: at the dip the rate is
// below 80, but the median from there on is 100. No cliff.
TEST(Timeline, ASingleDipThatRecoversIsNoCliff) {
  const auto rates = joined(joined(repeated(100 * kMB, 10), repeated(20 * kMB, 2)), repeated(100 * kMB, 10));
  EXPECT_FALSE(analyse_timeline(every_second(rates)).cliff);
}

// The fall must be below 0.8 of the plateau, not at it.
TEST(Timeline, AFallToExactlyTheFractionIsNoCliffAndJustBelowIsOne) {
  EXPECT_FALSE(analyse_timeline(every_second(joined(repeated(100 * kMB, 10), repeated(80 * kMB, 10)))).cliff);
  const auto below = analyse_timeline(every_second(joined(repeated(100 * kMB, 10), repeated(79 * kMB, 10))));
  ASSERT_TRUE(below.cliff);
  EXPECT_EQ(below.cliff->at_interval, 10u);
}

// A fall in the last two intervals leaves fewer than three after it.
TEST(Timeline, AFallWithFewerThanThreeIntervalsAfterItIsNoCliff) {
  EXPECT_FALSE(analyse_timeline(every_second(joined(repeated(100 * kMB, 10), repeated(10 * kMB, 2)))).cliff);
  EXPECT_TRUE(analyse_timeline(every_second(joined(repeated(100 * kMB, 10), repeated(10 * kMB, 3)))).cliff);
}

// Five full seconds at 100 MB/s, then the run ends 0.4 s into the sixth
// having moved 4 MB (10 MB/s): drawn, but not counted anywhere.
TEST(Timeline, AShortLastIntervalIsLeftOutOfTheStatistics) {
  Timeline timeline = every_second(repeated(100 * kMB, 5));
  timeline.samples.push_back({5 * kSecond + 400'000'000, 504'000'000, 504, {}, {}, {}, {}});
  const std::vector<TimelineInterval> intervals = timeline_intervals(timeline);
  ASSERT_EQ(intervals.size(), 6u);
  EXPECT_FALSE(intervals[5].counted);
  EXPECT_DOUBLE_EQ(intervals[5].rate, 10 * kMB);
  const TimelineAnalysis analysis = analyse_timeline(timeline, {10, 1, 5});
  ASSERT_TRUE(analysis.spread);
  EXPECT_EQ(analysis.spread->intervals, 5u);
  EXPECT_DOUBLE_EQ(analysis.spread->min, 100 * kMB);
  EXPECT_TRUE(analysis.deviation.reached);
  EXPECT_TRUE(analysis.slope.reached);
  EXPECT_EQ(analysis.slope.at_interval, 4u);
}

TEST(Timeline, TooFewIntervalsReachNoSteadyStateAndNoCliff) {
  const TimelineAnalysis analysis = analyse_timeline(every_second(repeated(100 * kMB, 5)));
  EXPECT_FALSE(analysis.cliff);  // 5 of the 6 a cliff needs
  for (const SteadyState* state : {&analysis.deviation, &analysis.slope}) {
    EXPECT_FALSE(state->enough_intervals);
    EXPECT_FALSE(state->reached);
    EXPECT_EQ(state->counted_intervals, 5u);
    EXPECT_EQ(state->window, 10u);
  }
}

TEST(Timeline, OneIntervalHasASpreadWithoutVariation) {
  const TimelineAnalysis analysis = analyse_timeline(every_second({300 * kMB}));
  ASSERT_TRUE(analysis.spread);
  EXPECT_EQ(analysis.spread->intervals, 1u);
  EXPECT_DOUBLE_EQ(analysis.spread->median, 300 * kMB);
  EXPECT_DOUBLE_EQ(analysis.spread->cv, 0);
}

TEST(Timeline, NoSamplesHaveNoSpread) {
  Timeline timeline;
  timeline.interval_ns = kSecond;
  const TimelineAnalysis analysis = analyse_timeline(timeline);
  EXPECT_FALSE(analysis.spread);
  EXPECT_FALSE(analysis.cliff);
  EXPECT_FALSE(analysis.deviation.enough_intervals);
  EXPECT_FALSE(steady_now(timeline.samples, timeline.interval_ns, {}));
}

// A stalled run: every window's mean is 0, which meets neither criterion
// (a percentage of nothing), and no window has a value to report.
TEST(Timeline, ZeroRateIntervalsAreNeverSteady) {
  const TimelineAnalysis analysis = analyse_timeline(every_second(repeated(0, 12)));
  ASSERT_TRUE(analysis.spread);
  EXPECT_DOUBLE_EQ(analysis.spread->max, 0);
  EXPECT_DOUBLE_EQ(analysis.spread->cv, 0);
  EXPECT_FALSE(analysis.cliff);  // a plateau of 0 has nothing below it
  EXPECT_TRUE(analysis.deviation.enough_intervals);
  EXPECT_FALSE(analysis.deviation.reached);
  EXPECT_FALSE(analysis.deviation.mean_above_zero);
  EXPECT_FALSE(analysis.slope.reached);
  EXPECT_FALSE(steady_now(every_second(repeated(0, 12)).samples, kSecond, {}));
}

// 100 and 0 MB/s alternating, window 4: mean 50, every rate 50 away
// (100%); slope over 100, 0, 100, 0 about x = 1.5:
// (-1.5 x 100 + 0.5 x 100) / (2.25 + 0.25 + 0.25 + 2.25) = -100 / 5 = -20,
// 40% of 50; starting at 0: +20, 40% too.
TEST(Timeline, ZeroRateIntervalsAmongOthersCountAtTheirRateOfZero) {
  std::vector<double> rates;
  for (int k = 0; k < 6; ++k) rates.push_back(k % 2 == 0 ? 100 * kMB : 0);
  const TimelineAnalysis analysis = analyse_timeline(every_second(rates), {10, 1, 4});
  ASSERT_TRUE(analysis.spread);
  EXPECT_DOUBLE_EQ(analysis.spread->min, 0);
  EXPECT_DOUBLE_EQ(analysis.spread->median, 50 * kMB);
  EXPECT_FALSE(analysis.deviation.reached);
  EXPECT_NEAR(analysis.deviation.value_percent, 100, 1e-9);
  EXPECT_FALSE(analysis.slope.reached);
  EXPECT_NEAR(analysis.slope.value_percent, 40, 1e-9);
}

// Two samples at the same instant: an interval of no time has no rate and
// is not counted.
TEST(Timeline, AnIntervalOfNoTimeIsNotCounted) {
  Timeline timeline = every_second(repeated(100 * kMB, 3));
  timeline.samples.push_back(timeline.samples.back());
  const std::vector<TimelineInterval> intervals = timeline_intervals(timeline);
  EXPECT_FALSE(intervals[3].counted);
  EXPECT_DOUBLE_EQ(intervals[3].rate, 0);
}

// 60, 70, 80, 90, then 100 MB/s, window 5 (deviation 10%, slope 1%):
//   ending at 6: 80 90 100 100 100, mean 94, deviation 14 / 94 = 14.9%: no.
//   ending at 7: 90 100 100 100 100, mean 98, deviation 8 / 98 = 8.2%: met;
//     slope about x = 2: (-2 x 90 - 100 + 100 + 2 x 100) / 10 = 2, 2.04%: not.
//   ending at 8: all 100: both met.
// So steady_now first holds with 9 samples, and from then on.
TEST(Timeline, SteadyNowAgreesWithTheAnalysisOnEveryPrefix) {
  const std::vector<double> rates = joined({60 * kMB, 70 * kMB, 80 * kMB, 90 * kMB}, repeated(100 * kMB, 7));
  const Timeline timeline = every_second(rates);
  const SteadyRule rule{10, 1, 5};
  const TimelineAnalysis analysis = analyse_timeline(timeline, rule);
  EXPECT_EQ(analysis.deviation.at_interval, 7u);
  EXPECT_EQ(analysis.slope.at_interval, 8u);
  const std::span<const TimelineSample> samples = timeline.samples;
  for (std::size_t n = 0; n <= samples.size(); ++n) {
    EXPECT_EQ(steady_now(samples.first(n), timeline.interval_ns, rule), n >= 9) << n << " samples";
  }
  // A short last interval at another rate is skipped, as the analysis skips it.
  Timeline ended = timeline;
  ended.samples.push_back({11 * kSecond + 100'000'000, ended.samples.back().bytes + 1'000'000, 0, {}, {}, {}, {}});
  EXPECT_TRUE(steady_now(ended.samples, ended.interval_ns, rule));
  EXPECT_TRUE(analyse_timeline(ended, rule).slope.reached);
}

}  // namespace
}  // namespace ddtime
