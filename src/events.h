// SPDX-License-Identifier: GPL-3.0-or-later
// events — how the copy path tells the outside world what happened without
// formatting anything: each GNU diagnostic the copy can produce is a Notice,
// and the runner turns it into text through diag. Calls happen only on
// events (errors, warnings, signals), never per block in a healthy copy.
#pragma once

#include <cstdint>

#include "stats.h"

namespace ddtime {

enum class Side { kInput, kOutput };

enum class Notice {
  kPartialRead,              // value: bytes of the short read (warning)
  kReadError,                // err: "error reading 'in'"
  kWriteError,               // err: "error writing 'out'" (write of a read as is)
  kBlockWriteError,          // err: "writing to 'out'" (a full reblocked output
                             // block, or the zeros standing for seek=)
  kCannotSkipToOffset,       // "in: cannot skip to specified offset" (warning)
  kCannotSkip,               // err: "in: cannot skip"
  kCannotSeek,               // err, side: "x: cannot seek"
  kCannotFstat,              // err, side
  kTruncateFailed,           // err, value: size
  kFdatasyncFailed,          // err
  kFsyncFailed,              // err
  kDirectOffFailed,          // err: could not clear O_DIRECT for the last block
  kCacheDropFailed,          // err, side
  kOffsetOverflow,           // input offset overflow after a read error
  kInvalidOffsetAfterRead,   // warning after a failed read moved the offset oddly
  kKernelBugWorkaround,      // "cannot work around kernel bug after all"
  kInputBufferExhausted,     // value: ibs
  kOutputBufferExhausted,    // value: obs
};

class Events {
 public:
  virtual ~Events() = default;
  virtual void notice(Notice what, Side side, int err, std::int64_t value) noexcept = 0;
  // Print the statistics now (SIGUSR1, conv=noerror after a read error).
  virtual void show_stats(const Stats& stats) noexcept = 0;
  // A signal arrived (signals::pending() was true): handle it. May not
  // return (SIGINT: close, print, die).
  virtual void handle_signals(const Stats& stats) noexcept = 0;
  // status=progress: called when a second has passed since the last line.
  virtual void progress(const Stats& stats, std::int64_t now_ns) noexcept = 0;
};

}  // namespace ddtime
