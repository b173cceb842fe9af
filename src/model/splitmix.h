// SPDX-License-Identifier: GPL-3.0-or-later
// splitmix — the one mixing function behind every stream of draws made
// from a seed (a random order's keys, --mix's choice of each I/O,
// --capacity's random blocks): SplitMix64, whose finaliser carries every
// bit of its input into every bit of its output, and whose step adds the
// golden-ratio constant before mixing. (--pattern's generator has a
// cheaper mixer of its own, for speed.)
#pragma once

#include <cstdint>

namespace ddtime {

inline constexpr std::uint64_t kSplitmixStep = 0x9e3779b97f4a7c15ULL;

constexpr std::uint64_t splitmix_finalise(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The stream's next draw.
constexpr std::uint64_t splitmix_next(std::uint64_t& state) noexcept {
  return splitmix_finalise(state += kSplitmixStep);
}

}  // namespace ddtime
