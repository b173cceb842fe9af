// SPDX-License-Identifier: GPL-3.0-or-later
// driver_internal — what driver.cc, driver_session.cc and driver_readback.cc
// share: the small conversions between operands and a run, and the one
// way the process ends by a signal. Not for other modules.
#pragma once

#include <cstdint>
#include <string>

#include "model/settings.h"

namespace ddtime::driver_detail {

// Dies by sig with its default action, after the statistics, as GNU does.
[[noreturn]] void die_by(int sig) noexcept;

// count= as a number of bytes (count_bytes), whatever the block size.
void count_bytes(Settings& settings, std::int64_t bytes) noexcept;

// skip= or seek= counted again in blocks of a new size.
void reblock(std::int64_t& records, std::int64_t& bytes, std::int64_t old_size, std::int64_t new_size) noexcept;

}  // namespace ddtime::driver_detail
