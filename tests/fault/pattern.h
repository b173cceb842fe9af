// SPDX-License-Identifier: GPL-3.0-or-later
// pattern — the deterministic content of a fault filesystem file, shared by
// the filesystem that serves it and the tests that check copies of it. Every
// byte is nonzero, so zero padding in an output is never mistaken for data,
// and any 8 consecutive bytes identify their offset in a file of a few MiB.
#pragma once

#include <cstdint>

namespace ddtime::fault {

inline unsigned char pattern_byte(std::uint64_t offset) noexcept {
  std::uint64_t x = offset * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 32;
  return static_cast<unsigned char>(1 + x % 255);
}

}  // namespace ddtime::fault
