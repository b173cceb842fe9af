// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/engine.h"

namespace ddtime {

void end_before_copy(Ending end, CopyResult& result) noexcept {
  // A stop asked for by a signal is not a failure of its own: the signal
  // decides how the process ends.
  result.exit_status = end == Ending::kInterrupted ? 0 : 1;
  result.ending = end;
}

}  // namespace ddtime
