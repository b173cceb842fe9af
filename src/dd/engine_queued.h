// SPDX-License-Identifier: GPL-3.0-or-later
// engine_queued — dd's straight copy (bs=, no conversions) with up to
// depth reads and writes in flight over a Ring: each record is read at its
// own offset (the input's position after skip=, plus its index times bs)
// and written at the output's (after seek=), or in record order at the
// output's own position when it cannot take positioned writes (a pipe,
// oflag=append). Completions come in any order; records are counted, and
// an error or the end of input is acted on, in record order, so that the
// records lines, the exit status and the messages are the sync engine's.
// The final partial block goes through io's Writer, as in the sync engine.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "dd/engine.h"
#include "model/plan.h"
#include "system/buffer.h"
#include "system/file_kind.h"
#include "system/ring_registry.h"

namespace ddtime {

// The queued engine's resources for one run: its slots (one allocation,
// each slot starting on the alignment) and its ring. Set up before the
// measured window opens, released after it closes.
class QueueResources {
 public:
  // engines: the table the engine asked for is found in (a test's own).
  explicit QueueResources(RingEngines engines = kRingEngines) noexcept : engines_(engines) {}

  struct Request {
    Os& os;
    Events& events;
    const Settings& settings;
    FileKinds kinds;  // as the run opened the files
    const Plan& plan;
    bool input_seekable;
    std::size_t alignment;
    // --pattern: wraps each job's ring so that a generator answers the
    // input's reads (measure's PatternRing, built by the run, which the
    // engine below it does not know); empty: the input is read.
    std::function<std::unique_ptr<Ring>(std::unique_ptr<Ring>)> generate_input;
  };
  // Before any file is opened: every job's ring of the engine asked for
  // (ring_registry), where it opens before the files: io_uring, a Linux
  // AIO context (not the threads engine's threads, which set_up starts
  // with the slots). false: the run ends here, every file as it was (a
  // notice said why).
  bool open_kernel_rings(Os& os, const Plan& plan, Events& events, EngineUse& engine);
  // After open_kernel_rings, with the files open.
  // false: the run ends here (a notice said why). true with queue.ring
  // null: the sync engine copies (engine.fallback says why, when a queue
  // was asked for).
  bool set_up(const Request& request, EngineUse& engine, QueueSetup& queue);
  // Job 0's ring (null: none).
  Ring* ring() const noexcept { return rings_.empty() ? nullptr : rings_.front().get(); }
  // The engine whose rings copy: the one asked for, or auto's fallback;
  // kSync where there are none.
  EngineChoice engine() const noexcept { return ring() != nullptr ? engine_->choice : EngineChoice::kSync; }
  // Every job's counters, summed.
  RingCounters counters() const noexcept;
  // After a copy a SIGINT stopped, which the process dies by as soon as
  // it has said its statistics: rings whose teardown waits are left
  // standing, their workers parked with nothing in flight, for the signal
  // to take with the process (the threads engine joins each worker: the
  // 28,672 of --jobs=64 --iodepth=1024 took over a second after the
  // signal).
  void abandon() noexcept;
  // The ring first: its threads or the kernel may still hold the slots.
  void release() noexcept;

 private:
  bool allocate_slots(const Request& request);
  // Job job's part of the slots.
  std::span<const std::span<unsigned char>> job_slots(unsigned job) const noexcept;

  AlignedBuffer slot_memory_;  // the slots, back to back, slots_per_job_ per job
  std::size_t slots_per_job_ = 0;
  std::vector<std::span<unsigned char>> slots_;
  // Opens every job's ring of engine_ (opened with the slots: depth,
  // the slots' count). false: refused (a notice said why, unless
  // fell_back: auto's pick was refused and engine_ is its fallback).
  bool open_rings(Events& events, const Plan& plan, unsigned depth, EngineUse& engine);
  // Each ring reaches if= and of= as it will (Ring::open_target).
  bool open_targets(const Request& request);
  // Once every ring is set up: the files and buffers registered, each
  // ring wrapped as the run asks, one lane a job.
  void hand_out_lanes(const Request& request, QueueSetup& queue);

  RingEngines engines_;
  const RingEngine* engine_ = nullptr;        // what copies; null: sync
  std::vector<std::unique_ptr<Ring>> rings_;  // one per job
  std::vector<QueueLane> lanes_;
};

// Requires: job.queue.ring and job.queue.slots set, the input seekable, the
// settings a straight copy (no conversion, sync, noerror, sparse, nocache).
CopyResult run_queued_copy(const CopyRequest& request);

}  // namespace ddtime
