// SPDX-License-Identifier: GPL-3.0-or-later
// run — one run, in GNU dd's order: open the input, open the output
// (cutting it at seek=), check direct-I/O alignment, catch signals, open
// the measured window, copy through an engine, flush, advise the page
// cache (nocache), close, and hand back a RunResult. It prints nothing and
// never ends the process: what happened travels as Events and as the
// result, and the driver decides what is said and how the process ends.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "dd/engine.h"
#include "dd/engine_queued.h"
#include "measure/latency_probe.h"
#include "measure/pattern.h"
#include "measure/record.h"
#include "measure/run_window.h"
#include "measure/timekeeper.h"
#include "measure/timing.h"
#include "model/events.h"
#include "model/plan.h"
#include "model/settings.h"
#include "model/stats.h"
#include "system/buffer.h"
#include "system/file_kind.h"
#include "system/os.h"
#include "system/ring.h"

namespace ddtime {

class Run {
 public:
  // settings: the run's operands; --direct resolves on a copy of them.
  // kinds: what its files are, as resolve found them (derive's for a read
  // pass: the written file, /dev/null). pattern: --pattern's generator,
  // which os (a PatternOs) already answers reads with; the queued engine
  // fills its records from it. engines: the queued engines' table (a
  // test hands one with a fake engine's row).
  Run(Os& os, Events& events, RunWindow& window, const Settings& settings, FileKinds kinds, const Plan& plan = {},
      const PatternSource* pattern = nullptr,
      RingEngines engines = kRingEngines);  // copies settings and plan: may throw bad_alloc

  RunResult perform();

  // The operands as the run uses them (--direct resolved to iflag= and
  // oflag=direct where the files take it), for reporting.
  const Settings& settings() const noexcept { return settings_; }

 private:
  bool open_files();
  // --preallocate: the blocks of the range the copy writes, before the
  // window opens. False when they could not be had (reported).
  bool allocate_output_blocks();
  // The buffer alignment direct I/O needs; false when an operand would be
  // refused (the problem is reported).
  bool check_direct_alignment(std::size_t& buffer_alignment);
  RunResult copy(std::size_t buffer_alignment);
  // The start event: the settings, and what --timeline, --time and
  // --progress will show of the run.
  void announce_start(const QueueSetup& queue);
  // What --jobs started and how they ended, into the engine's use.
  void note_jobs(const JobsUse& jobs);
  bool place_randomly(QueueSetup& queue);
  // --time: the range gone round pass after pass (when it has an end).
  void go_round(QueueSetup& queue);
  // --time, --timeline: the Timekeeper, before the window opens.
  void set_up_timekeeper();
  // What the timekeeper saw, into the result: the ramp taken out of the
  // counters, the passes, the samples.
  // counts_from_start: the copy's counts hold the ramp's (an error's refill).
  void describe_time(RunResult& result, const QueueSetup& queue, bool counts_from_start);
  RunResult after_copy(const CopyResult& copied);
  // Signals that arrived late, then GNU's cleanup: close both sides.
  RunResult finish(RunResult result);
  int advise_page_cache(const CopyResult& copied);
  RunResult ended_before_copy(int status) const;
  // For a queued run: the slots and the ring, set up before the window
  // opens; false when the engine asked for cannot be had (reported).

  // After the copy: the ring closed and the slots freed.
  void release_queue() noexcept;
  void describe_engine(RunResult& result) const;
  // --mix's choice, from the run's seed; none without --mix.
  std::optional<MixChoice> mix_choice() const noexcept;
  // What each job's ring is wrapped in: --pattern's generator (--mix's).
  std::function<std::unique_ptr<Ring>(std::unique_ptr<Ring>)> generated_rings();
  void set_up_latency(unsigned jobs);
  // --mix: what each side did, from the sync engine's MixOs or the rings.
  std::optional<MixResult> mix_result(const MixOs* mixed) const noexcept;

  Os& os_;
  Events& events_;
  RunWindow& window_;
  Settings settings_;
  Plan plan_;
  const PatternSource* pattern_;
  FileKinds kinds_;  // as the files stand once opened: an absent output is the regular file made
  InputPosition input_position_;
  bool output_created_ = false;  // of= was not there before this run opened it
  CacheAdvice input_cache_;
  CacheAdvice output_cache_;
  // Declared before the ring, so that the ring (and what the kernel still
  // holds of the buffers) goes first.
  QueueResources queue_;  // the queued engine's slots and ring
  EngineUse engine_;
  std::optional<LatencyProbe> latency_;        // --latency, set up before the window opens
  std::optional<RandomAccess> random_;         // --random: the order's seed and range
  std::optional<Timekeeper> timekeeper_;       // --time, --ramp, --timeline, --steady
  std::vector<const PatternRing*> mix_rings_;  // --mix with a queued engine: each job's, for its counts
};

}  // namespace ddtime
