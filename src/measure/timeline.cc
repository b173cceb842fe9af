// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/timeline.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include "model/units.h"

namespace ddtime {
namespace {

// A window of fewer than two intervals has no slope.
std::size_t window_of(const SteadyRule& rule) { return std::max<std::size_t>(rule.window, 2); }

// Interval k of a run, from sample k - 1 (or the window's opening) to
// sample k. An interval that took no time has no rate and is not counted.
TimelineInterval interval_at(std::span<const TimelineSample> samples, std::size_t k, std::int64_t interval_ns) {
  const TimelineSample opening;
  const TimelineSample& start = k > 0 ? samples[k - 1] : opening;
  const TimelineSample& end = samples[k];
  TimelineInterval interval;
  interval.start_ns = start.end_ns;
  interval.end_ns = end.end_ns;
  interval.start_bytes = start.bytes;
  interval.end_bytes = end.bytes;
  const std::int64_t duration_ns = end.end_ns - start.end_ns;
  if (duration_ns > 0) {
    const double seconds = in_seconds(static_cast<double>(duration_ns));
    interval.rate = static_cast<double>(end.bytes - start.bytes) / seconds;
    interval.iops = static_cast<double>(end.records - start.records) / seconds;
    // At least half the interval, written so that no doubling can overflow.
    interval.counted = duration_ns >= interval_ns - interval_ns / 2;
  }
  return interval;
}

// Both steady-state criteria of one window, in percent of its mean.
struct WindowCriteria {
  double mean = 0;
  double deviation_percent = 0;
  double slope_percent = 0;
};

// for_each_rate(f) calls f(y) for the window's n rates in order; it is
// called twice, so that the window need not be copied anywhere. The slope
// is the least-squares one, computed about the mean x = (n - 1) / 2:
// sum (x - mean x) y / sum (x - mean x)^2 is the same number as
// (sum xy - sum x sum y / n) / (sum x^2 - (sum x)^2 / n), without
// subtracting two large sums of GB/s.
template <typename ForEachRate>
WindowCriteria window_criteria(const ForEachRate& for_each_rate, std::size_t n) {
  double sum = 0;
  for_each_rate([&](double y) { sum += y; });
  WindowCriteria criteria;
  criteria.mean = sum / static_cast<double>(n);
  if (criteria.mean <= 0) return criteria;
  const double middle_x = static_cast<double>(n - 1) / 2;
  double largest_deviation = 0;
  double sum_xy = 0;
  double sum_xx = 0;
  double x = 0;
  for_each_rate([&](double y) {
    largest_deviation = std::max(largest_deviation, std::abs(y - criteria.mean));
    sum_xy += (x - middle_x) * y;
    sum_xx += (x - middle_x) * (x - middle_x);
    x += 1;
  });
  criteria.deviation_percent = 100 * largest_deviation / criteria.mean;
  criteria.slope_percent = 100 * std::abs(sum_xy / sum_xx) / criteria.mean;
  return criteria;
}

// The middle value, or the mean of the two middle values.
// Requires: values is not empty.
double median_of(std::vector<double> values) {
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle));
  return (lower + upper) / 2;
}

// medians[k] = the median of values[k..]: one pass from the end keeping the
// lower half in a max-heap and the upper half in a min-heap, so that a long
// run's cliff search stays O(n log n).
std::vector<double> suffix_medians(const std::vector<double>& values) {
  std::priority_queue<double> lower;
  std::priority_queue<double, std::vector<double>, std::greater<>> upper;
  std::vector<double> medians(values.size());
  for (std::size_t k = values.size(); k-- > 0;) {
    if (lower.empty() || values[k] <= lower.top()) {
      lower.push(values[k]);
    } else {
      upper.push(values[k]);
    }
    // The lower half holds the extra value when the count is odd.
    if (lower.size() > upper.size() + 1) {
      upper.push(lower.top());
      lower.pop();
    } else if (upper.size() > lower.size()) {
      lower.push(upper.top());
      upper.pop();
    }
    medians[k] = lower.size() > upper.size() ? lower.top() : (lower.top() + upper.top()) / 2;
  }
  return medians;
}

// The counted intervals, as the statistics, the cliff and steady state see
// them: their rates, and where each is in the whole list.
struct CountedRates {
  std::vector<double> rates;
  std::vector<std::size_t> index;  // into timeline_intervals()
};

CountedRates counted_rates(const std::vector<TimelineInterval>& intervals) {
  CountedRates counted;
  for (std::size_t k = 0; k < intervals.size(); ++k) {
    if (!intervals[k].counted) continue;
    counted.rates.push_back(intervals[k].rate);
    counted.index.push_back(k);
  }
  return counted;
}

std::optional<RateSpread> spread_of(const std::vector<double>& rates) {
  if (rates.empty()) return std::nullopt;
  RateSpread spread;
  spread.intervals = rates.size();
  const auto [low, high] = std::minmax_element(rates.begin(), rates.end());
  spread.min = *low;
  spread.max = *high;
  spread.median = median_of(rates);
  double sum = 0;
  for (const double rate : rates) sum += rate;
  spread.mean = sum / static_cast<double>(rates.size());
  if (rates.size() >= 2 && spread.mean > 0) {
    double squares = 0;
    for (const double rate : rates) squares += (rate - spread.mean) * (rate - spread.mean);
    spread.cv = std::sqrt(squares / static_cast<double>(rates.size() - 1)) / spread.mean;
  }
  return spread;
}

std::optional<Cliff> cliff_of(const std::vector<TimelineInterval>& intervals, const CountedRates& counted) {
  const std::vector<double>& rates = counted.rates;
  const std::size_t n = rates.size();
  if (n < kCliffMinimumIntervals) return std::nullopt;
  const std::size_t lead = std::max<std::size_t>(3, n / 10);
  const double plateau = median_of({rates.begin(), rates.begin() + static_cast<std::ptrdiff_t>(lead)});
  const double threshold = kCliffFraction * plateau;
  const std::vector<double> tails = suffix_medians(rates);
  for (std::size_t k = lead; k + kCliffMinimumTail <= n; ++k) {
    if (rates[k] >= threshold || tails[k] >= threshold) continue;
    const TimelineInterval& at = intervals[counted.index[k]];
    return Cliff{plateau, tails[k], at.start_bytes, at.start_ns, counted.index[k]};
  }
  return std::nullopt;
}

SteadyState steady_state_of(SteadyState::Criterion criterion, double limit_percent, std::size_t window,
                            const std::vector<TimelineInterval>& intervals, const CountedRates& counted) {
  SteadyState state;
  state.criterion = criterion;
  state.limit_percent = limit_percent;
  state.window = window;
  state.counted_intervals = counted.rates.size();
  state.enough_intervals = state.counted_intervals >= window;
  if (!state.enough_intervals) return state;
  double smallest = std::numeric_limits<double>::infinity();
  for (std::size_t first = 0; first + window <= counted.rates.size(); ++first) {
    const auto for_each_rate = [&](const auto& f) {
      for (std::size_t i = first; i < first + window; ++i) f(counted.rates[i]);
    };
    const WindowCriteria criteria = window_criteria(for_each_rate, window);
    if (criteria.mean <= 0) continue;
    const double value =
        criterion == SteadyState::Criterion::kDeviation ? criteria.deviation_percent : criteria.slope_percent;
    if (value <= limit_percent) {
      const std::size_t last = counted.index[first + window - 1];
      state.reached = true;
      state.at_interval = last;
      state.at_ns = intervals[last].end_ns;
      state.at_bytes = intervals[last].end_bytes;
      state.value_percent = value;
      state.window_mean = criteria.mean;
      state.mean_above_zero = true;
      return state;
    }
    if (value < smallest) {
      smallest = value;
      state.value_percent = value;
      state.window_mean = criteria.mean;
      state.mean_above_zero = true;
    }
  }
  return state;
}

}  // namespace

std::optional<RateSpread> rate_spread(const std::vector<double>& rates) { return spread_of(rates); }

std::optional<SideRates> mix_side_rates(const TimelineSample& sample, const TimelineSample& previous) noexcept {
  const std::int64_t ns = sample.end_ns - previous.end_ns;
  if (!sample.read_bytes || ns <= 0) return std::nullopt;
  const std::int64_t read = *sample.read_bytes - previous.read_bytes.value_or(0);
  const std::int64_t written = (sample.bytes - *sample.read_bytes) - (previous.bytes - previous.read_bytes.value_or(0));
  return SideRates{per_second(static_cast<double>(read), static_cast<double>(ns)),
                   per_second(static_cast<double>(written), static_cast<double>(ns))};
}

std::vector<TimelineInterval> timeline_intervals(const Timeline& timeline) {
  std::vector<TimelineInterval> intervals;
  intervals.reserve(timeline.samples.size());
  for (std::size_t k = 0; k < timeline.samples.size(); ++k) {
    intervals.push_back(interval_at(timeline.samples, k, timeline.interval_ns));
  }
  return intervals;
}

TimelineAnalysis analyse_timeline(const Timeline& timeline, const SteadyRule& rule) {
  const std::vector<TimelineInterval> intervals = timeline_intervals(timeline);
  const CountedRates counted = counted_rates(intervals);
  TimelineAnalysis analysis;
  analysis.spread = spread_of(counted.rates);
  analysis.cliff = cliff_of(intervals, counted);
  const std::size_t window = window_of(rule);
  analysis.deviation =
      steady_state_of(SteadyState::Criterion::kDeviation, rule.deviation_percent, window, intervals, counted);
  analysis.slope = steady_state_of(SteadyState::Criterion::kSlope, rule.slope_percent, window, intervals, counted);
  return analysis;
}

bool steady_now(std::span<const TimelineSample> samples, std::int64_t interval_ns, const SteadyRule& rule) {
  const std::size_t window = window_of(rule);
  // Walk back to the first sample of the last `window` counted intervals.
  std::size_t first = samples.size();
  std::size_t found = 0;
  while (first > 0 && found < window) {
    --first;
    if (interval_at(samples, first, interval_ns).counted) ++found;
  }
  if (found < window) return false;
  const auto for_each_rate = [&](const auto& f) {
    for (std::size_t k = first; k < samples.size(); ++k) {
      const TimelineInterval interval = interval_at(samples, k, interval_ns);
      if (interval.counted) f(interval.rate);
    }
  };
  const WindowCriteria criteria = window_criteria(for_each_rate, window);
  return criteria.mean > 0 && criteria.deviation_percent <= rule.deviation_percent &&
         criteria.slope_percent <= rule.slope_percent;
}

}  // namespace ddtime
