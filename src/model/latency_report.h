// SPDX-License-Identifier: GPL-3.0-or-later
// latency_report — --latency's figures as plain values: the percentiles
// every report shows (one list), one side's summary, and a run's report
// with what its durations mean. latency's recorders make them; every
// report reads them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ddtime {

// The percentiles reported, in this order: the one list every report
// reads (the text, the JSON's keys, the charts' marks, OpenMetrics'
// quantiles, the profile's p99).
struct LatencyPercentile {
  double value;                   // 99.9
  std::int64_t per_ten_thousand;  // 9990: the nearest rank's share, exact
  std::int64_t fewest_samples;    // 1000: with fewer, the percentile is not shown
  const char* key;                // "99.9": the JSON's key
  const char* label;              // "p99.9": the report's and the charts' word
  const char* quantile;           // "0.999": OpenMetrics' quantile label
};
inline constexpr std::array<LatencyPercentile, 5> kLatencyPercentiles = {{
    {50, 5000, 2, "50", "p50", "0.5"},
    {90, 9000, 10, "90", "p90", "0.9"},
    {99, 9900, 100, "99", "p99", "0.99"},
    {99.9, 9990, 1000, "99.9", "p99.9", "0.999"},
    {99.99, 9999, 10000, "99.99", "p99.99", "0.9999"},
}};

// Where a percentile stands in kLatencyPercentiles (a compile-time error
// for one not in it).
consteval std::size_t percentile_index(double value) {
  for (std::size_t i = 0; i < kLatencyPercentiles.size(); ++i) {
    if (kLatencyPercentiles[i].value == value) return i;
  }
  throw "not a reported percentile";
}

struct LatencyBucket {
  std::int64_t le_ns = 0;  // upper bound of a power-of-two bucket: durations <= le_ns and > le_ns / 2
  std::int64_t count = 0;
};

struct LatencySummary {
  std::int64_t count = 0;
  std::int64_t min_ns = 0;
  double mean_ns = 0;
  double sd_ns = 0;  // sample standard deviation; 0 below 2 samples
  std::int64_t max_ns = 0;
  // Nearest rank; absent where the count cannot support it (p needs at
  // least 1 / (1 - p/100) samples: p99.9 needs 1000). Never above max_ns.
  std::array<std::optional<std::int64_t>, kLatencyPercentiles.size()> percentiles;
  bool exact = true;                     // from every sample, or (false) from the histogram
  std::vector<LatencyBucket> histogram;  // power-of-two buckets, first to last non-empty
};

// What a duration is: one system call alone, a system call chained from
// the end of the one before (LatencyOs's chain), or a queued request from
// its submission to the reaping of its completion. report_run words it.
enum class LatencyDefinition { kPerCall, kChained, kQueued };

// One run's --latency figures, per side, and what they mean.
struct LatencyReport {
  LatencyDefinition definition = LatencyDefinition::kPerCall;
  double clock_cost_ns = 0;
  // Chained: the mean of the sampled work between one call's end and the
  // next one's start, which each duration includes; absent when none was
  // sampled.
  std::optional<double> between_calls_ns;
  LatencySummary read;
  LatencySummary write;
};

}  // namespace ddtime
