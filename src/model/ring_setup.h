// SPDX-License-Identifier: GPL-3.0-or-later
// ring_setup — what a queued engine's ring set up, as flags and counts:
// the ring says it (Ring::setup), the run keeps it in its EngineUse and
// report_run words it. Apart from engine_use.h so that ring.h stays light.
#pragma once

namespace ddtime {

// What a queued engine's ring set up, as the ring says (Ring::setup);
// which of it means anything depends on the engine that ran.
struct RingSetup {
  // io_uring: its buffers and files registered with the kernel, and the
  // set-up flags the kernel accepted.
  bool registered_buffers = false;
  bool registered_files = false;
  bool single_issuer = false;
  bool cooperative_task_run = false;
  bool deferred_task_run = false;
  // The requests the engine's own resources hold in flight at most, for
  // an engine whose report counts them (the threads engine's workers, a
  // Linux AIO context's events); 0 for one that has none to count. One
  // field for every engine, so that a new one needs none of its own.
  unsigned entries = 0;
  bool operator==(const RingSetup&) const = default;
};

}  // namespace ddtime
