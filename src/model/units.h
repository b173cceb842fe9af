// SPDX-License-Identifier: GPL-3.0-or-later
// units — one name for 10^9, the nanoseconds in a second, which every
// clock reading, duration and rate goes through: as an integer for exact
// arithmetic (GNU's rates, the clocks), and through in_seconds and
// per_second for floating point, each a single operation in the order the
// figures always took (so no figure moves by a rounding).
#pragma once

#include <cstdint>

namespace ddtime {

inline constexpr std::int64_t kNanosecondsPerSecond = 1'000'000'000;

// ns nanoseconds in seconds.
constexpr double in_seconds(double ns) noexcept { return ns / static_cast<double>(kNanosecondsPerSecond); }

// count things in ns nanoseconds, per second.
constexpr double per_second(double count, double ns) noexcept {
  return count * static_cast<double>(kNanosecondsPerSecond) / ns;
}

}  // namespace ddtime
