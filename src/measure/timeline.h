// SPDX-License-Identifier: GPL-3.0-or-later
// timeline — what the samples of --timeline say about a run: the rate of
// each interval, their spread, where the rate fell off a cliff, and when it
// became steady by fio's two definitions (max deviation from the window's
// mean, least-squares slope). Pure arithmetic on the samples: taking them
// is the run's job, the words and the chart are report_timeline's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/timeline_samples.h"

namespace ddtime {

// One interval between two samples. rate = (end_bytes - start_bytes) /
// (end_ns - start_ns) in bytes/s, iops likewise with records; both 0 for
// an interval that took no time. counted is false for an interval shorter
// than half the sampling interval: it is drawn, but left out of the
// statistics, the cliff and steady state, where its few records would
// weigh as much as a whole interval's. Only a run's last interval is that
// short, as the sampler closes it where the run ended.
struct TimelineInterval {
  std::int64_t start_ns = 0, end_ns = 0;
  std::int64_t start_bytes = 0, end_bytes = 0;
  double rate = 0;  // bytes/s
  double iops = 0;  // records/s
  bool counted = false;
};

// One interval per sample, in the same order.
std::vector<TimelineInterval> timeline_intervals(const Timeline& timeline);

// The counted intervals' rates in bytes/s. median: the middle one, or the
// mean of the two middle ones; cv: sample standard deviation (n - 1) over
// the mean, 0 below 2 intervals or at a mean of 0.
struct RateSpread {
  std::size_t intervals = 0;
  double min = 0, median = 0, max = 0, mean = 0, cv = 0;
};
// The spread of any rates, as above; none for none.
std::optional<RateSpread> rate_spread(const std::vector<double>& rates);

// --mix (one job): each side's bytes a second from previous (a default
// sample before the first) to sample, from their cumulative reads; the
// writes are the rest. None without the reads counted, or without time.
struct SideRates {
  double read = 0, write = 0;
};
std::optional<SideRates> mix_side_rates(const TimelineSample& sample, const TimelineSample& previous) noexcept;

// The cliff: the rate falling and staying below a fraction of its first
// plateau. The plateau is the median rate of the first max(3, counted / 10)
// counted intervals. The cliff is at the first counted interval k after
// those whose rate, and the median of all counted intervals from k to the
// end, are both below kCliffFraction x plateau, with at least
// kCliffMinimumTail counted intervals from k to the end; no cliff is looked
// for below kCliffMinimumIntervals counted intervals.
inline constexpr double kCliffFraction = 0.8;
inline constexpr std::size_t kCliffMinimumIntervals = 6;
inline constexpr std::size_t kCliffMinimumTail = 3;
struct Cliff {
  double before_rate = 0;                // the plateau, bytes/s
  double after_rate = 0;                 // the median of the counted intervals from the cliff on, bytes/s
  std::int64_t at_bytes = 0, at_ns = 0;  // where interval at_interval starts
  std::size_t at_interval = 0;           // index into timeline_intervals()
};

// Steady state by one of fio's two definitions, over every window of
// counted intervals' rates y_0..y_{n-1} with mean m:
// - kDeviation: 100 x max |y_i - m| / m, met at or below deviation_percent;
// - kSlope: the least-squares slope b of y against x = 0..n-1,
//   b = (sum xy - sum x sum y / n) / (sum x^2 - (sum x)^2 / n), as
//   100 x |b| / m (percent of the mean per interval), met at or below
//   slope_percent.
// A window whose mean is 0 never meets either. Reached at the first window,
// by its end, that meets the criterion.
struct SteadyState {
  enum class Criterion { kDeviation, kSlope };
  Criterion criterion = Criterion::kDeviation;
  double limit_percent = 0;
  std::size_t window = 0;
  std::size_t counted_intervals = 0;  // over the whole run
  bool enough_intervals = false;      // at least `window` counted intervals
  bool reached = false;
  std::size_t at_interval = 0;           // reached: the last interval of the first window that met it
  std::int64_t at_ns = 0, at_bytes = 0;  // that interval's end
  // The criterion's value there; not reached: the smallest seen over all
  // windows whose mean was above 0 (see mean_above_zero).
  double value_percent = 0;
  double window_mean = 0;        // bytes/s, of that window
  bool mean_above_zero = false;  // some window's mean was above 0, so value_percent means something
};

struct TimelineAnalysis {
  std::optional<RateSpread> spread;  // absent without a counted interval
  std::optional<Cliff> cliff;        // absent when there is none, or too few intervals to tell
  SteadyState deviation, slope;
};

TimelineAnalysis analyse_timeline(const Timeline& timeline, const SteadyRule& rule = {});

// For --steady ending a run early, called once per interval on the samples
// so far: whether the last `window` counted intervals meet both rules, as
// analyse_timeline would judge that window. Allocates nothing and reads
// only the last window's samples: O(window) per call, whatever the run's
// length.
// Requires: samples start at the run's first sample.
bool steady_now(std::span<const TimelineSample> samples, std::int64_t interval_ns, const SteadyRule& rule);

}  // namespace ddtime
