// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/engines.h"

#include "dd/engine_queued.h"
#include "dd/engine_sync.h"

namespace ddtime {

CopyResult run_copy(const CopyRequest& request) {
  return request.queue.ring != nullptr ? run_queued_copy(request) : run_sync_copy(request);
}

}  // namespace ddtime
