// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/pacer.h"

namespace ddtime {

bool Pacer::read_clock(const Stats& stats) { return due_now(stats); }

}  // namespace ddtime
