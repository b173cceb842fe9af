// SPDX-License-Identifier: GPL-3.0-or-later
// plan — plain benchmark intent, beside the dd operands: which engine moves
// the bytes and how many I/Os it keeps in flight. operands fills it in;
// the session reads it. No behaviour lives here.
#pragma once

#include <cstdint>

namespace ddtime {

// --engine=: auto takes io_uring when more than one I/O is to be in flight
// and the kernel allows it, else a pool of threads; sync is GNU's one
// system call at a time.
enum class EngineChoice { kAuto, kIoUring, kThreads, kSync };

struct Plan {
  EngineChoice engine = EngineChoice::kAuto;
  unsigned iodepth = 1;          // --iodepth=N, 1..kMaxIodepth
  bool iodepth_given = false;    // reported, and JSON's engine object, only then

  static constexpr unsigned kMaxIodepth = 1024;

  // Whether the queued engine is asked for: more than one I/O in flight,
  // or a queued engine named outright (io_uring or threads at depth 1, to
  // compare with sync).
  bool queued() const noexcept {
    return engine != EngineChoice::kSync && (iodepth > 1 || engine != EngineChoice::kAuto);
  }
};

}  // namespace ddtime
