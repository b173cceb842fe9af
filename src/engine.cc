// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine.h"

namespace ddtime {

void end_before_copy(PositionEnd end, CopyResult& result) noexcept {
  result.exit_status = end == PositionEnd::kStop ? 0 : 1;
  result.ending = end == PositionEnd::kQuit  ? Ending::kQuit
                  : end == PositionEnd::kDie ? Ending::kDie
                                             : Ending::kInterrupted;
}

}  // namespace ddtime
