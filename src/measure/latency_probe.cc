// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/latency_probe.h"

#include <algorithm>

namespace ddtime {

namespace {

std::shared_ptr<LatencyRecorders> sized_recorders(const Settings& settings, std::optional<std::int64_t> bytes) {
  constexpr std::int64_t kMostSamples = 2'000'000;
  const std::int64_t reads = bytes ? *bytes / settings.ibs + 2 : kMostSamples;
  const std::int64_t writes = bytes ? *bytes / settings.obs + 2 : kMostSamples;
  return std::make_shared<LatencyRecorders>(static_cast<std::size_t>(std::min(reads, kMostSamples)),
                                            static_cast<std::size_t>(std::min(writes, kMostSamples)));
}

}  // namespace

bool latency_chains(const Settings& settings) noexcept {
  return !settings.two_buffers() && !settings.conv.sync && !settings.conv.sparse && !settings.ext.progress &&
         settings.status != StatusLevel::kProgress;
}

LatencyProbe::LatencyProbe(Os& os, Events& events, Clock& clock, const Settings& settings,
                           std::optional<std::int64_t> expected_bytes, bool seeks_each_record)
    : clock_(clock),
      recorders_(sized_recorders(settings, expected_bytes)),
      calls_(os, *recorders_, latency_chains(settings) && !seeks_each_record),
      events_(events, calls_),
      reading_cost_ticks_(reading_cost(read_ticks)) {
  // The calibration starts after the clock's cost was measured: both ends
  // of it read the two clocks back to back.
  start_ns_ = clock_.now_ns();
  start_ticks_ = read_ticks();
}

void LatencyProbe::copy_ended(bool queued) noexcept {
  if (queued) {
    definition_ = kLatencyQueued;
    return;
  }
  if (!calls_.chained()) return;
  definition_ = kLatencyChained;
  if (calls_.gaps_sampled() > 0) {
    gap_ticks_ = static_cast<double>(calls_.gap_ticks()) / static_cast<double>(calls_.gaps_sampled());
  }
}

double LatencyProbe::ns_per_tick() const noexcept {
  // Ticks to nanoseconds by the whole run's ticks against its clock.
  const std::int64_t ns = clock_.now_ns() - start_ns_;
  const std::uint64_t ticks = read_ticks() - start_ticks_;
  return ticks > 0 && ns > 0 ? static_cast<double>(ns) / static_cast<double>(ticks) : 1.0;
}

void LatencyProbe::report(RunResult& result) const {
  const double ns_per_tick = this->ns_per_tick();
  result.latency = LatencyReport{definition_, reading_cost_ticks_ * ns_per_tick,
                                 gap_ticks_ ? std::optional(*gap_ticks_ * ns_per_tick) : std::nullopt,
                                 recorders_->reads.summary(ns_per_tick), recorders_->writes.summary(ns_per_tick)};
  result.latency_samples = recorders_;
  result.latency_ns_per_tick = ns_per_tick;
}

}  // namespace ddtime
