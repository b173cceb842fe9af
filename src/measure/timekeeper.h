// SPDX-License-Identifier: GPL-3.0-or-later
// timekeeper — one run's clock beyond GNU's window: --time's deadline,
// --ramp's unmeasured start, --timeline's samples and --steady's early
// end. No system call per I/O, and no clock reading per I/O: the copy loop
// counts down a stride once per record (or reaped batch) and reads the
// clock only when it runs out, the stride (1 to 16) kept so that a reading
// comes about every millisecond (or twentieth of an interval) where the
// pace allows. (A timer signal would be cheaper still, but it cuts a read of
// /dev/zero or a pipe short, which the summary would count as partial
// records; a timer thread makes the process multi-threaded, and the
// kernel then takes a reference on the file at every read and write,
// which cost 20% at bs=4k.) Samples are cumulative (time, bytes, records,
// latency samples so far), so a coarser timeline is the same one with
// every other sample dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "dd/pacer.h"
#include "measure/latency.h"
#include "measure/run_window.h"
#include "measure/timeline.h"
#include "model/mix.h"
#include "model/run_result.h"
#include "model/stats.h"
#include "model/units.h"

namespace ddtime {

// Where a timed run stands, for a SIGUSR1 snapshot: shared with whoever
// reports it, written by the copy's thread (job 0's, which also hears the
// signals) at the start and at the ramp's end.
struct LiveTime {
  std::int64_t limit_ns = 0;  // --time; 0: none
  std::int64_t ramp_ns = 0;   // --ramp, as asked
  bool ramping = false;       // the ramp has not ended: every count so far is its
  std::int64_t ramp_elapsed_ns = 0;
  Stats ramp_stats{};             // what the ramp moved, once it ended
  std::int64_t range_blocks = 0;  // the whole blocks a pass goes over; 0: endless
};

// What a timed run measured: its counts less what the ramp before the
// window moved (the final report's and a SIGUSR1 snapshot's alike).
void take_away_ramp(Stats& stats, const Stats& ramp) noexcept;

class Timekeeper final : public Pacer {
 public:
  struct Rules {
    std::optional<std::int64_t> time_ns{};      // --time
    std::int64_t ramp_ns = 0;                   // --ramp
    bool timeline = false;                      // --timeline or --steady
    std::optional<std::int64_t> interval_ns{};  // --timeline=INTERVAL; else chosen here
    std::optional<SteadyRule> steady{};         // --steady
  };
  // The interval without one given: a twentieth of --time, at most a
  // second; for an untimed run, from a 64th of a second, doubled (every
  // other sample dropped) each time kMostFineSamples gather, up to a second.
  static constexpr std::int64_t kLongestInterval = kNanosecondsPerSecond;
  static constexpr std::size_t kMostFineSamples = 40;
  static constexpr std::int64_t kLongestReadingGap = 1'000'000;
  // At most 16 records between readings: a reading costs about 20 ns, a
  // record of /dev/zero to /dev/null at bs=4k about 800, so 0.2% at the
  // fastest; and when the pace falls (a cache filling up), the next
  // reading is at most 16 slow records away.
  static constexpr std::int64_t kLongestStride = 16;

  Timekeeper(RunWindow& window, const Rules& rules);  // may throw bad_alloc
  Timekeeper(const Timekeeper&) = delete;
  Timekeeper& operator=(const Timekeeper&) = delete;

  // When the window opens. latency: --latency's recorders, emptied when
  // the ramp ends, or null. interval_latency: each sample marks how many
  // they held, for its interval's figures (not with --jobs, whose jobs
  // keep samples of their own and forget the ramp's themselves: see
  // Pacer::leave_samples_to_jobs).
  void start(LatencyRecorders* latency, bool interval_latency = true);
  // The copy loop asks due() (Pacer) once per record or reaped batch; the
  // clock is read once every stride. tick(): the clock read now, and what
  // is due done; true when the copy is to stop starting I/O.
  bool tick(const Stats& stats);
  void leave_samples_to_jobs() noexcept override { latency_ = nullptr; }
  // After the copy: the last sample taken.
  void copy_ended(const Stats& stats);
  // --latency: each interval's figures from the samples kept; before the
  // probe's summary, which reorders them.
  void add_latency(const LatencyRecorders& latency, double ns_per_tick);

  // What --ramp moved, unmeasured (zero without a ramp), and how long it took.
  const Stats& ramp_stats() const noexcept { return ramp_stats_; }
  std::int64_t ramp_elapsed_ns() const noexcept { return ramp_elapsed_ns_; }
  TimedEnd ended_by() const noexcept { return ended_by_; }
  // The samples so far (a SIGUSR1 view) or, after copy_ended, all of them.
  const Timeline& timeline() const noexcept { return *timeline_; }
  // The same, shared: a SIGUSR1 view may be asked for while it grows.
  std::shared_ptr<const Timeline> shared_timeline() const noexcept { return timeline_; }
  bool samples() const noexcept { return rules_.timeline; }
  // Where the run stands, for SIGUSR1 snapshots. range_blocks: a pass's.
  std::shared_ptr<const LiveTime> live() const noexcept { return live_; }
  void set_range_blocks(std::int64_t blocks) noexcept { live_->range_blocks = blocks; }
  // --mix: each sample says how many of its records were reads, from the
  // choice that made them (records of block_bytes each); with --jobs,
  // each job's own, from the records it retired (jobs_retired).
  void set_mix(const MixChoice& choice, std::int64_t block_bytes, unsigned jobs) {
    mix_ = choice;
    mix_block_bytes_ = block_bytes;
    mix_jobs_.assign(jobs, {});
  }
  void jobs_retired(std::span<const std::int64_t> records) noexcept override {
    mix_jobs_told_ = true;
    for (std::size_t job = 0; job < records.size() && job < mix_jobs_.size(); ++job)
      mix_jobs_[job].retired = records[job];
  }
  // --mix: how many of the ramp's records were reads (set_mix first).
  std::int64_t mix_ramp_reads() const noexcept { return mix_ramp_reads_; }

 private:
  void end_ramp(const Stats& stats, std::int64_t now);
  void take_sample(const Stats& stats, std::int64_t now);
  // --mix: the reads among the records retired so far (stats' alone, or
  // with --jobs each job's as it last told).
  std::int64_t mix_reads(const Stats& stats) noexcept;
  // Halves the samples: every other one dropped, the interval doubled.
  void coarsen();
  // The next stride, from the time since the last reading.
  void pace(std::int64_t now);

  RunWindow& window_;
  Rules rules_;
  bool due_now(const Stats& stats) override { return tick(stats); }

  LatencyRecorders* latency_ = nullptr;
  bool interval_latency_ = true;
  bool adaptive_ = false;  // no interval given: coarsened as samples gather
  std::int64_t ramp_end_ns_ = 0;
  std::optional<std::int64_t> deadline_ns_;
  std::int64_t next_sample_ns_ = 0;  // absolute, on the window's clock
  std::int64_t reading_gap_ns_ = kLongestReadingGap;
  std::int64_t last_reading_ns_ = 0;
  std::int64_t stride_ = 1;  // records (or batches) between readings; Pacer's countdown_ counts them down
  Stats ramp_stats_{};
  std::int64_t ramp_elapsed_ns_ = 0;
  TimedEnd ended_by_ = TimedEnd::kRange;
  std::shared_ptr<Timeline> timeline_;  // written only by the copy's thread
  std::shared_ptr<LiveTime> live_;      // likewise
  std::optional<MixChoice> mix_;
  std::int64_t mix_block_bytes_ = 0;
  struct MixJob {
    std::int64_t retired = 0;  // --jobs: the records it told it retired
    std::int64_t counted = 0;  // records whose choice was counted
    std::int64_t reads = 0;    // how many of them were reads
  };
  std::vector<MixJob> mix_jobs_;  // [job]; one for the only job
  // The jobs told what they retired: else job 0 copied alone (the range
  // made one part), and the run's records are its own.
  bool mix_jobs_told_ = false;
  std::int64_t mix_ramp_reads_ = 0;  // of the reads, the ramp's
  // --latency: how many reads and writes each recorder held at each sample.
  std::vector<std::pair<std::size_t, std::size_t>> latency_marks_;
};

}  // namespace ddtime
