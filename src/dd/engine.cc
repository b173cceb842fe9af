// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/engine.h"

#include "measure/timekeeper.h"

namespace ddtime {

void end_before_copy(Ending end, CopyResult& result) noexcept {
  // A stop asked for by a signal is not a failure of its own: the signal
  // decides how the process ends.
  result.exit_status = end == Ending::kInterrupted ? 0 : 1;
  result.ending = end;
}

bool take_turn(const CopyJob& job, const Stats& stats) {
  if (job.timekeeper == nullptr) {
    alarm::take();
    return false;
  }
  return job.timekeeper->tick(stats);
}

}  // namespace ddtime
