// SPDX-License-Identifier: GPL-3.0-or-later
// What the engine tests share: a clock that stands still, bytes that differ
// from one position to the next, and the settings of a bs= copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "measure/timing.h"
#include "model/settings.h"

namespace ddtime::testing {

class FixedClock final : public Clock {
 public:
  std::int64_t now_ns() noexcept override { return 0; }
};

inline std::vector<unsigned char> pattern(std::size_t size, unsigned stride = 1) {
  std::vector<unsigned char> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<unsigned char>('a' + i * stride % 26);
  return bytes;
}

inline Settings block_size(std::int64_t bs) {
  Settings settings;
  settings.ibs = settings.obs = bs;
  settings.bs_given = true;
  return settings;
}

// if=in of=out bs=BS: the two files FakeOs knows by name (named_files).
inline Settings in_to_out(std::int64_t bs) {
  Settings settings = block_size(bs);
  settings.input_file = "in";
  settings.output_file = "out";
  return settings;
}

}  // namespace ddtime::testing
