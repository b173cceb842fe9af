// SPDX-License-Identifier: GPL-3.0-or-later
// driver_internal — what driver.cc, driver_session.cc and driver_readback.cc
// share: the small conversions between operands and a run, and the one
// way the process ends by a signal. Not for other modules.
#pragma once

#include <cstdint>
#include <string>

#include "model/settings.h"

namespace ddtime::driver_internal {

// Dies by sig with its default action, after the statistics, as GNU does.
[[noreturn]] void die_by(int sig) noexcept;

}  // namespace ddtime::driver_internal
