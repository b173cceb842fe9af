// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/engines.h"

#include "dd/engine_queued.h"
#include "dd/engine_sync.h"

namespace ddtime {

CopyResult run_copy(const CopyJob& job) {
  return job.queue.ring != nullptr ? run_queued_copy(job) : run_sync_copy(job);
}

}  // namespace ddtime
