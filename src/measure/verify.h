// SPDX-License-Identifier: GPL-3.0-or-later
// verify — --verify's comparison: the bytes read back from the output
// against the bytes the write pass was given, streamed a block at a time
// from both (no second copy of the data in memory), naming the first byte
// that differs. The expected side is a file read again, or zeros
// (/dev/zero, /dev/full), or --pattern's generator made again with the
// write's seed. Through os only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "measure/pattern.h"
#include "system/os.h"

namespace ddtime {

struct VerifySource {
  int fd = -1;                               // -1: zeros, or the generator
  std::int64_t offset = 0;                   // where the written bytes begin in it
  const PatternSource* generator = nullptr;  // --pattern's, with the write pass's seed
};

struct VerifyOutcome {
  int err = 0;                            // a read failed (errno); the comparison is incomplete
  bool stopped = false;                   // stop() asked it to end (SIGINT): incomplete
  bool read_expected = false;             // err came from the expected side
  std::int64_t compared = 0;              // bytes found equal before the end or the first difference
  std::optional<std::int64_t> first_bad;  // offset into the output file of the first difference
};

// Asked between blocks with the bytes found equal so far: true to end
// the comparison now (a SIGINT).
using VerifyStop = std::function<bool(std::int64_t compared)>;

// Compares bytes bytes of actual_fd from actual_offset with source.
// A side that ends early differs at its end.
VerifyOutcome verify_bytes(Os& os, const VerifySource& source, int actual_fd, std::int64_t actual_offset,
                           std::int64_t bytes, const VerifyStop& stop = {});

}  // namespace ddtime
