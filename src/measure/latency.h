// SPDX-License-Identifier: GPL-3.0-or-later
// latency — --latency's record of how long each read and each write took.
// One recorder per side takes every duration with no allocation: into a
// raw store sized before the run (exact nearest-rank percentiles while it
// lasts), and beyond it into a log-linear histogram (64 sub-buckets per
// power of two: under 1% relative error) with exact sums for the mean and
// variance. The summary, made after the run, says which the percentiles
// came from.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dd/io_tap.h"
#include "model/latency_report.h"

namespace ddtime {

class LatencyRecorder {
 public:
  // raw_capacity: how many samples are kept exactly; the rest only count
  // in the histogram.
  explicit LatencyRecorder(std::size_t raw_capacity);

  // units: nanoseconds, or any clock's ticks that summary() is told the
  // length of. While the store has room, one store and nothing else: the
  // histogram, sums and extremes of the kept samples are made by
  // summary(), after the run, so recording costs the copy next to nothing.
  void record(std::int64_t units) noexcept {
    if (kept_ < ready_) [[likely]] {
      raw_[kept_++] = units > 0 ? units : 0;
      return;
    }
    beyond_ready(units > 0 ? units : 0);
  }

  // Forgets every sample (--ramp's end): what follows is measured alone.
  void clear() noexcept;
  // Forgets the first `first` samples recorded (count() when the ramp
  // ended: another --jobs job's, which hears of it later): the ones after
  // stay. Every sample when some of the first were only counted, which the
  // histogram cannot tell apart from later ones.
  void forget_first(std::int64_t first) noexcept;

  // The figures of the samples recorded [from, to) (a --timeline
  // interval), in nanoseconds; absent when there are none or they were not
  // all kept. Call before summary(), which reorders the store.
  struct Slice {
    std::int64_t p50_ns = 0, p99_ns = 0, max_ns = 0;
  };
  std::optional<Slice> slice(std::size_t from, std::size_t to, double ns_per_unit) const;

  // Adds another recorder's samples (a row's runs merged); raw samples
  // that do not fit make the merged percentiles the histogram's.
  void merge(const LatencyRecorder& other);

  std::int64_t count() const noexcept { return static_cast<std::int64_t>(kept_) + spilled_.count; }
  // Samples in the raw store: all of them while exact().
  std::size_t kept() const noexcept { return kept_; }
  bool exact() const noexcept { return spilled_.count == 0; }
  // The figures in nanoseconds: ns_per_unit converts what was recorded.
  LatencySummary summary(double ns_per_unit = 1.0) const;

  // The fine histogram: values below 64 have a bucket each, then 64 per
  // power of two. Public for the tests.
  static constexpr std::size_t kSubBuckets = 64;
  static constexpr std::size_t kBuckets = kSubBuckets + (63 - 6) * kSubBuckets;
  // Made resident at construction (2 MiB: an untimed run's store whole
  // up to 262,144 records), and then a chunk (32 KiB) at a time.
  static constexpr std::size_t kResidentFirst = std::size_t{1} << 18;
  static constexpr std::size_t kResidentChunk = 4096;
  static std::size_t bucket_of(std::int64_t ns) noexcept {
    const auto v = static_cast<std::uint64_t>(ns);
    if (v < kSubBuckets) return static_cast<std::size_t>(v);
    const int exponent = 63 - __builtin_clzll(v);  // >= 6
    const auto sub = static_cast<std::size_t>((v >> (exponent - 6)) & (kSubBuckets - 1));
    return kSubBuckets + static_cast<std::size_t>(exponent - 6) * kSubBuckets + sub;
  }
  // The largest value a bucket holds.
  static std::int64_t bucket_top(std::size_t bucket) noexcept;

 private:
  // Samples counted without being kept: the histogram and exact integer
  // sums (the mean and variance made from them lose nothing to
  // cancellation along the way).
  struct Aggregate {
    std::vector<std::int64_t> histogram;  // kBuckets counts
    std::int64_t count = 0;
    std::int64_t min = INT64_MAX;
    std::int64_t max = 0;
    __extension__ unsigned __int128 sum = 0;
    __extension__ unsigned __int128 squares = 0;
    void add(std::int64_t units) noexcept;
    void add(const Aggregate& other) noexcept;
  };

  // The summary's histogram, from a non-empty fine one.
  static std::vector<LatencyBucket> power_of_two_buckets(const std::vector<std::int64_t>& fine, double ns_per_unit);

  // A sample beyond the store.
  void spill(std::int64_t units) noexcept { spilled_.add(units); }
  // A sample past the resident part: the next chunk made resident, or,
  // the store full, spilled.
  void beyond_ready(std::int64_t units) noexcept;
  // spilled_ with the kept samples added: every sample's figures.
  Aggregate everything() const;

  std::size_t raw_capacity_;
  // summary() reorders it (selection for the percentiles): the samples
  // stay the same, their order means nothing.
  std::unique_ptr<std::int64_t[]> raw_;
  // The store's first ready_ samples are resident: a first chunk from
  // construction, then a chunk more each time the samples reach its end.
  std::size_t ready_ = 0;
  std::size_t kept_ = 0;
  Aggregate spilled_;  // its histogram allocated once, at construction
};

// The recorders a run fills, sized before it starts. They record the
// CPU's time-stamp ticks (read_ticks(): a few nanoseconds a reading, where
// clock_gettime costs tens), turned into nanoseconds at the end by the
// ticks the whole run took against its clock.
// A queued copy fills them through its IoTap.
struct LatencyRecorders final : IoTap {
  LatencyRecorders(std::size_t read_capacity, std::size_t write_capacity)
      : reads(read_capacity), writes(write_capacity) {}
  void completed(bool write, std::int64_t ticks) noexcept override { (write ? writes : reads).record(ticks); }
  Counts counts() const noexcept override { return {reads.count(), writes.count()}; }
  void forget_all() noexcept override {
    reads.clear();
    writes.clear();
  }
  void forget_first(const Counts& first) noexcept override {
    reads.forget_first(first.reads);
    writes.forget_first(first.writes);
  }
  LatencyRecorder reads;
  LatencyRecorder writes;
};

// What one reading of a clock costs, in its own units, from a few
// thousand back to back: said with the figures, never subtracted.
template <typename Read>
double reading_cost(Read read) {
  constexpr int kReads = 4096;
  const auto start = read();
  auto last = start;
  for (int i = 0; i < kReads; ++i) last = read();
  return static_cast<double>(last - start) / kReads;
}

}  // namespace ddtime
