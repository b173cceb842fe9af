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
  unsigned threads = 0;     // the threads engine: its workers
  unsigned aio_events = 0;  // Linux AIO: the events its context holds
  bool operator==(const RingSetup&) const = default;
};

}  // namespace ddtime
