// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/latency_probe.h"

#include <algorithm>

namespace ddtime {

namespace {

// One job's recorders: its share of the records (--jobs splits them
// evenly), and of the most samples kept exactly in all.
std::unique_ptr<LatencyRecorders> sized_recorders(const Settings& settings, std::optional<std::int64_t> bytes,
                                                  unsigned jobs) {
  constexpr std::int64_t kMostSamples = 2'000'000;
  const std::int64_t most = kMostSamples / jobs;
  const std::int64_t reads = bytes ? *bytes / settings.ibs / jobs + 2 : most;
  const std::int64_t writes = bytes ? *bytes / settings.obs / jobs + 2 : most;
  return std::make_unique<LatencyRecorders>(static_cast<std::size_t>(std::min(reads, most)),
                                            static_cast<std::size_t>(std::min(writes, most)));
}

}  // namespace

bool latency_chains(const Settings& settings) noexcept {
  return !settings.two_buffers() && !settings.conv.sync && !settings.conv.sparse && !settings.ext.progress &&
         settings.status != StatusLevel::kProgress;
}

LatencyProbe::LatencyProbe(Os& os, Events& events, Clock& clock, const Settings& settings,
                           std::optional<std::int64_t> expected_bytes, bool seeks_each_record, unsigned jobs)
    : clock_(clock),
      recorders_(sized_recorders(settings, expected_bytes, jobs)),
      calls_(os, *recorders_, latency_chains(settings) && !seeks_each_record),
      events_(events, calls_),
      reading_cost_ticks_(reading_cost(read_ticks)) {
  jobs_recorders_.push_back(recorders_.get());
  for (unsigned job = 1; job < jobs; ++job) {
    other_jobs_.push_back(sized_recorders(settings, expected_bytes, jobs));
    jobs_recorders_.push_back(other_jobs_.back().get());
  }
  jobs_taps_.assign(jobs_recorders_.begin(), jobs_recorders_.end());
  // The calibration starts after the clock's cost was measured: both ends
  // of it read the two clocks back to back.
  start_ns_ = clock_.now_ns();
  start_ticks_ = read_ticks();
}

void LatencyProbe::copy_ended(bool queued) noexcept {
  if (queued) {
    definition_ = LatencyDefinition::kQueued;
    return;
  }
  if (!calls_.chained()) return;
  definition_ = LatencyDefinition::kChained;
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
  // --jobs: every job's samples in one report, kept exactly where each
  // job kept them.
  std::shared_ptr<LatencyRecorders> samples = recorders_;
  if (!other_jobs_.empty()) {
    std::size_t reads = 0, writes = 0;
    for (const LatencyRecorders* job : jobs_recorders_) {
      reads += job->reads.kept();
      writes += job->writes.kept();
    }
    samples = std::make_shared<LatencyRecorders>(reads, writes);
    for (const LatencyRecorders* job : jobs_recorders_) {
      samples->reads.merge(job->reads);
      samples->writes.merge(job->writes);
    }
  }
  result.latency = LatencyReport{definition_, reading_cost_ticks_ * ns_per_tick,
                                 gap_ticks_ ? std::optional(*gap_ticks_ * ns_per_tick) : std::nullopt,
                                 samples->reads.summary(ns_per_tick), samples->writes.summary(ns_per_tick)};
  result.latency_samples = samples;
  result.latency_ns_per_tick = ns_per_tick;
}

}  // namespace ddtime
