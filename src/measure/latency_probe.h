// SPDX-License-Identifier: GPL-3.0-or-later
// latency_probe — --latency for one run, whichever engine copies: the
// recorders sized from what the copy will move, the clock's own cost
// measured, the copy's Os and Events tapped (each system call timed alone,
// or chained from the end of the one before, see LatencyOs), the queued
// engine handed the recorders it fills itself (submit to reap), and after
// the window the ticks turned into the run's LatencyReport. The one owner
// of the measurement: the run only asks it for what to copy through.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "measure/latency.h"
#include "measure/record.h"
#include "measure/timing.h"
#include "model/events.h"
#include "model/settings.h"
#include "system/os.h"

namespace ddtime {

class LatencyProbe {
 public:
  // expected_bytes: what the copy will read, where known (sizes the
  // recorders; a few million samples at most are kept exactly). clock:
  // the window's, against which the ticks are scaled. seeks_each_record:
  // --random, whose lseek before each record leaves no chain to time.
  // jobs: --jobs' submitters, each filling recorders of its own (a share
  // of the samples each), merged into one report after the copy.
  LatencyProbe(Os& os, Events& events, Clock& clock, const Settings& settings,
               std::optional<std::int64_t> expected_bytes, bool seeks_each_record = false, unsigned jobs = 1);
  LatencyProbe(const LatencyProbe&) = delete;
  LatencyProbe& operator=(const LatencyProbe&) = delete;

  // What the copy goes through: the Os timing each call, the Events that
  // break its chain.
  Os& os() noexcept { return calls_; }
  Events& events() noexcept { return events_; }
  // For a queued copy: the recorders it fills from its submissions and
  // reaps.
  LatencyRecorders& recorders() noexcept { return *recorders_; }
  // --jobs: each job's recorders as the queued copy's taps, job 0's
  // (recorders()) first.
  std::span<IoTap* const> jobs_taps() const noexcept { return jobs_taps_; }

  // After the copy: what its durations were (queued: submit to reap).
  void copy_ended(bool queued) noexcept;
  // After the window: the report and the samples, into the run's result.
  void report(RunResult& result) const;
  // How long a recorded tick is, by the run's ticks against its clock so far.
  double ns_per_tick() const noexcept;

 private:
  Clock& clock_;
  std::shared_ptr<LatencyRecorders> recorders_;
  std::vector<std::unique_ptr<LatencyRecorders>> other_jobs_;  // --jobs: jobs 1..N-1
  std::vector<LatencyRecorders*> jobs_recorders_;
  std::vector<IoTap*> jobs_taps_;  // the same recorders, as the copy sees them
  LatencyOs calls_;
  ChainBreakingEvents events_;
  double reading_cost_ticks_ = 0;  // one read_ticks(), in ticks
  std::int64_t start_ns_ = 0;
  std::uint64_t start_ticks_ = 0;
  LatencyDefinition definition_ = LatencyDefinition::kPerCall;
  std::optional<double> gap_ticks_;  // chained: the mean sampled work between calls
};

// Whether a copy's calls can be chained: nothing but record keeping
// comes between one and the next (the straight copy), see LatencyOs.
bool latency_chains(const Settings& settings) noexcept;

}  // namespace ddtime
