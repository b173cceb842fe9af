// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine.h"

#include "engine_queued.h"
#include "engine_sync.h"

namespace ddtime {

// The session chose before the first read: a ring means the queued engine.
CopyResult run_copy(const CopyJob& job) {
  return job.queue.ring != nullptr ? run_queued_copy(job) : run_sync_copy(job);
}

void end_before_copy(PositionEnd end, CopyResult& result) noexcept {
  result.exit_status = end == PositionEnd::kStop ? 0 : 1;
  result.ending = end == PositionEnd::kQuit  ? Ending::kQuit
                  : end == PositionEnd::kDie ? Ending::kDie
                                             : Ending::kInterrupted;
}

}  // namespace ddtime
