// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/latency.h"

#include <algorithm>
#include <cmath>

namespace ddtime {
namespace {

// The nearest rank (1-based) of a percentile among n samples.
std::int64_t nearest_rank(std::int64_t per_ten_thousand, std::int64_t n) {
  const std::int64_t rank = (per_ten_thousand * n + 9999) / 10000;
  return std::max<std::int64_t>(rank, 1);
}

// Ticks (or whatever unit was recorded) to nanoseconds, rounded.
std::int64_t to_ns(std::int64_t units, double ns_per_unit) {
  return static_cast<std::int64_t>(static_cast<double>(units) * ns_per_unit + 0.5);
}

std::int64_t bucket_bottom(std::size_t bucket) {
  if (bucket < LatencyRecorder::kSubBuckets) return static_cast<std::int64_t>(bucket);
  const std::size_t exponent = (bucket - LatencyRecorder::kSubBuckets) / LatencyRecorder::kSubBuckets + 6;
  const std::size_t sub = (bucket - LatencyRecorder::kSubBuckets) % LatencyRecorder::kSubBuckets;
  return static_cast<std::int64_t>((std::uint64_t{1} << exponent) + (sub << (exponent - 6)));
}

}  // namespace

LatencyRecorder::LatencyRecorder(std::size_t raw_capacity)
    : raw_capacity_(raw_capacity), raw_(raw_capacity > 0 ? new std::int64_t[raw_capacity] : nullptr) {
  spilled_.histogram.assign(kBuckets, 0);
  // A first chunk made resident now, before any timed window. The whole
  // store (16 MB a side for a timed run's 2 million samples) took 60 ms
  // to fault in, and a --time run lasted that much longer for the few
  // samples most runs keep; the rest becomes resident a chunk at a time as
  // the samples reach it: a page fault (about 1.4 us) for every 512
  // samples, a few nanoseconds each.
  ready_ = std::min(raw_capacity_, kResidentFirst);
  std::fill_n(raw_.get(), ready_, 0);
}

void LatencyRecorder::beyond_ready(std::int64_t units) noexcept {
  if (ready_ >= raw_capacity_) return spill(units);
  const std::size_t next = std::min(raw_capacity_, ready_ + kResidentChunk);
  std::fill(raw_.get() + ready_, raw_.get() + next, 0);
  ready_ = next;
  raw_[kept_++] = units;
}

std::int64_t LatencyRecorder::bucket_top(std::size_t bucket) noexcept {
  if (bucket < kSubBuckets) return static_cast<std::int64_t>(bucket);
  const std::size_t exponent = (bucket - kSubBuckets) / kSubBuckets + 6;
  const std::int64_t bottom = bucket_bottom(bucket);
  const std::int64_t width = std::int64_t{1} << (exponent - 6);
  return bottom > INT64_MAX - width ? INT64_MAX : bottom + width - 1;
}

void LatencyRecorder::Aggregate::add(std::int64_t units) noexcept {
  ++histogram[bucket_of(units)];
  ++count;
  min = std::min(min, units);
  max = std::max(max, units);
  __extension__ using Wide = unsigned __int128;
  sum += static_cast<Wide>(units);
  squares += static_cast<Wide>(units) * static_cast<Wide>(units);
}

void LatencyRecorder::Aggregate::add(const Aggregate& other) noexcept {
  if (other.count == 0) return;
  for (std::size_t i = 0; i < kBuckets; ++i) histogram[i] += other.histogram[i];
  count += other.count;
  min = std::min(min, other.min);
  max = std::max(max, other.max);
  sum += other.sum;
  squares += other.squares;
}

LatencyRecorder::Aggregate LatencyRecorder::everything() const {
  Aggregate all = spilled_;
  for (std::size_t i = 0; i < kept_; ++i) all.add(raw_[i]);
  return all;
}

void LatencyRecorder::forget_first(std::int64_t first) noexcept {
  if (first <= 0) return;
  if (static_cast<std::size_t>(first) > kept_) {
    clear();
    return;
  }
  const auto from = static_cast<std::size_t>(first);
  std::copy(raw_.get() + from, raw_.get() + kept_, raw_.get());
  kept_ -= from;
}

void LatencyRecorder::clear() noexcept {
  kept_ = 0;
  std::fill(spilled_.histogram.begin(), spilled_.histogram.end(), 0);
  spilled_.count = 0;
  spilled_.min = INT64_MAX;
  spilled_.max = 0;
  spilled_.sum = 0;
  spilled_.squares = 0;
}

std::optional<LatencyRecorder::Slice> LatencyRecorder::slice(std::size_t from, std::size_t to,
                                                             double ns_per_unit) const {
  if (from >= to || to > kept_) return std::nullopt;
  std::vector<std::int64_t> units(raw_.get() + from, raw_.get() + to);
  const auto n = static_cast<std::int64_t>(units.size());
  auto at_rank = [&](std::int64_t per_ten_thousand) {
    const auto index = static_cast<std::ptrdiff_t>(nearest_rank(per_ten_thousand, n) - 1);
    std::nth_element(units.begin(), units.begin() + index, units.end());
    return to_ns(units[static_cast<std::size_t>(index)], ns_per_unit);
  };
  Slice figures;
  figures.p50_ns = at_rank(5000);
  figures.p99_ns = at_rank(9900);
  figures.max_ns = to_ns(*std::max_element(units.begin(), units.end()), ns_per_unit);
  return figures;
}

void LatencyRecorder::merge(const LatencyRecorder& other) {
  if (other.count() == 0) return;
  // Only a whole set of samples keeps the percentiles exact.
  if (exact() && other.exact() && other.kept_ <= raw_capacity_ - kept_) {
    std::copy(other.raw_.get(), other.raw_.get() + other.kept_, raw_.get() + kept_);
    kept_ += other.kept_;
    ready_ = std::max(ready_, kept_);
    return;
  }
  // Inexact from now on: every sample of both goes to the histogram.
  for (std::size_t i = 0; i < kept_; ++i) spilled_.add(raw_[i]);
  kept_ = 0;
  spilled_.add(other.everything());
}

// Power-of-two buckets [2^k, 2^(k+1)) ns (and one for 0) from the fine
// histogram, from the first to the last that holds anything, the empty
// ones between included, as bcc draws them.
std::vector<LatencyBucket> LatencyRecorder::power_of_two_buckets(const std::vector<std::int64_t>& fine,
                                                                 double ns_per_unit) {
  std::array<std::int64_t, 65> by_power{};  // [0]: zero; [k + 1]: [2^k, 2^(k+1))
  for (std::size_t bucket = 0; bucket < kBuckets; ++bucket) {
    if (fine[bucket] == 0) continue;
    const std::int64_t bottom = to_ns(bucket_bottom(bucket), ns_per_unit);
    const std::size_t power =
        bottom == 0 ? 0 : static_cast<std::size_t>(64 - __builtin_clzll(static_cast<std::uint64_t>(bottom)));
    by_power[power] += fine[bucket];
  }
  std::vector<LatencyBucket> out;
  std::size_t first = 0;
  while (by_power[first] == 0) ++first;
  std::size_t last = by_power.size() - 1;
  while (by_power[last] == 0) --last;
  for (std::size_t power = first; power <= last; ++power) {
    const std::int64_t top = power == 0 ? 0 : power >= 63 ? INT64_MAX : (std::int64_t{1} << power) - 1;
    out.push_back({top, by_power[power]});
  }
  return out;
}

LatencySummary LatencyRecorder::summary(double ns_per_unit) const {
  LatencySummary out;
  const Aggregate all = everything();
  out.count = all.count;
  if (all.count == 0) return out;
  auto ns = [ns_per_unit](std::int64_t units) { return to_ns(units, ns_per_unit); };
  out.min_ns = ns(all.min);
  out.max_ns = ns(all.max);
  const long double n = static_cast<long double>(all.count);
  const long double mean = static_cast<long double>(all.sum) / n;
  out.mean_ns = static_cast<double>(mean * ns_per_unit);
  if (all.count > 1) {
    const long double spread = static_cast<long double>(all.squares) - static_cast<long double>(all.sum) * mean;
    const long double variance = spread > 0 ? spread / (n - 1) : 0;
    out.sd_ns = std::sqrt(static_cast<double>(variance)) * ns_per_unit;
  }
  out.exact = exact();
  // Selection, not a sort: the ranks ascend, so each nth_element works on
  // what is left above the last, and the whole takes time linear in the
  // samples (a sort of 300,000 of them was most of what --latency cost).
  // It reorders the store, which no figure depends on.
  std::int64_t* const samples = raw_.get();
  std::int64_t* selected_from = samples;
  for (std::size_t i = 0; i < kLatencyPercentiles.size(); ++i) {
    if (all.count < kLatencyPercentiles[i].fewest_samples) continue;
    const std::int64_t rank = nearest_rank(kLatencyPercentiles[i].per_ten_thousand, all.count);
    std::int64_t value = 0;
    if (out.exact) {
      std::int64_t* const nth = samples + (rank - 1);
      if (nth >= selected_from) {
        std::nth_element(selected_from, nth, samples + kept_);
        selected_from = nth + 1;
      }
      value = ns(*nth);
    } else {
      // The bucket holding the rank-th sample, at its middle: within half
      // a bucket, under 1% of the value.
      std::int64_t seen = 0;
      std::size_t bucket = 0;
      while (bucket + 1 < kBuckets && seen + all.histogram[bucket] < rank) seen += all.histogram[bucket++];
      value = ns(bucket_bottom(bucket) + (bucket_top(bucket) - bucket_bottom(bucket)) / 2);
      value = std::clamp(value, out.min_ns, out.max_ns);
    }
    out.percentiles[i] = std::min(value, out.max_ns);
  }
  out.histogram = power_of_two_buckets(all.histogram, ns_per_unit);
  return out;
}

}  // namespace ddtime
