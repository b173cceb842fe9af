// SPDX-License-Identifier: GPL-3.0-or-later
// timeline_samples — --timeline's samples as plain values (cumulative
// time, bytes, records and each interval's latency) and the rule steady
// state is judged by. The timekeeper takes them, timeline analyses them,
// the reports draw them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ddtime {

// One direction's latency over one interval (--latency with --timeline).
struct TimelineLatency {
  std::int64_t p50_ns = 0, p99_ns = 0, max_ns = 0;
};

struct TimelineSample {
  std::int64_t end_ns = 0;   // since the measured window opened
  std::int64_t bytes = 0;    // cumulative bytes moved at end_ns (the summary's "bytes copied")
  std::int64_t records = 0;  // cumulative records moved at end_ns (for IOPS)
  std::optional<TimelineLatency> read_latency, write_latency;  // --latency: this interval's figures
  // --mix (one job): how many of the records were reads, and their bytes,
  // cumulative as records and bytes are; the rest were writes.
  std::optional<std::int64_t> read_records, read_bytes;
};

struct Timeline {
  std::int64_t interval_ns = 0;  // the sampling interval
  // In time order; interval k runs from sample k-1 (or 0 ns, 0 bytes,
  // 0 records for the first) to sample k.
  std::vector<TimelineSample> samples;
};

// The limits of steady state. A window is `window` consecutive counted
// intervals; one shorter than 2 is taken as 2, since a slope needs two points.
struct SteadyRule {
  double deviation_percent = 10;
  double slope_percent = 1;
  std::size_t window = 10;  // in intervals
};

}  // namespace ddtime
