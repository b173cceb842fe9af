// SPDX-License-Identifier: GPL-3.0-or-later
// events — how a run tells the outside world what happened without
// formatting anything: each GNU diagnostic a run can produce is a Notice,
// which the driver words through messages. Calls happen only on events
// (errors, warnings, signals), never per block in a healthy copy.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "model/stats.h"

namespace ddtime {

enum class Side { kInput, kOutput };

enum class Notice {
  kPartialRead,             // value: bytes of the short read (warning)
  kReadError,               // err: "error reading 'in'"
  kWriteError,              // err: "error writing 'out'" (write of a read as is)
  kBlockWriteError,         // err: "writing to 'out'" (a full reblocked output
                            // block, or the zeros standing for seek=)
  kCannotSkipToOffset,      // "in: cannot skip to specified offset" (warning)
  kCannotSkip,              // err: "in: cannot skip"
  kCannotSeek,              // err, side: "x: cannot seek"
  kCannotFstat,             // err, side
  kTruncateFailed,          // err, value: size
  kFdatasyncFailed,         // err
  kFsyncFailed,             // err
  kDirectOffFailed,         // err: could not clear O_DIRECT for the last block
  kCacheDropFailed,         // err, side
  kOffsetOverflow,          // input offset overflow after a read error
  kInvalidOffsetAfterRead,  // warning after a failed read moved the offset oddly
  kKernelBugWorkaround,     // "cannot work around kernel bug after all"
  kInputBufferExhausted,    // value: ibs
  kOutputBufferExhausted,   // value: obs
  kQueueBuffersExhausted,   // value: the depth; one ibs buffer per I/O in flight
  kOpenFailed,              // err, side: "failed to open 'x'"
  kSetFlagsFailed,          // err, side: iflag=/oflag= on a standard stream
  kSeekTooLargeToTruncate,  // value: seek= records, in obs blocks
  kCloseFailed,             // err, side: "closing input file 'x'"
  kUringUnavailable,        // err: --engine=io_uring, and io_uring_setup refused
  kUringRingsExhausted,     // err, value: io_uring set up value jobs' rings, then refused the next job's
  kEngineUnavailable,       // err, value: the EngineChoice of an engine with no words of its own, refused
  kThreadsUnavailable,      // err, value: the threads engine's depth threads could not be started
  kPreallocateFailed,       // err: --preallocate could not allocate the output's blocks
};

// A direct-I/O operand the device would refuse, found before the copy
// (invoked as ddtime; as dd the kernel's EINVAL speaks, as with GNU).
struct AlignmentProblem {
  enum class Kind { kBlockSize, kCountBytes, kStartOffset };
  Kind kind;
  Side side;
  bool logical_block_size;  // the kernel's answer came from BLKSSZGET, not statx
  std::int64_t block;       // what sizes and offsets must be a multiple of
  const char* operand;      // "bs", "ibs", "obs", "skip", "seek"; "count=" or "--size" for kCountBytes
  std::int64_t value;       // the size, the count in bytes, or the offset
};

struct Settings;

// Rule 2 of issue 28 for a block device, which keeps what was written:
// after an error, the blocks written past where one copy in turn would
// have stopped (stop_block), in blocks of block_size from the range's
// start: how many, the first and the last.
struct WrittenOutOfOrder {
  std::int64_t stop_block = 0;
  std::int64_t blocks = 0;
  std::int64_t first_block = 0;
  std::int64_t last_block = 0;
  std::int64_t block_size = 0;
};

// What a run knows as its measured window opens.
struct Timeline;

struct LiveTime;  // measure/timekeeper.h

struct RunStart {
  std::optional<std::int64_t> expected_bytes;  // for --progress; nullopt: unknown
  // The operands as the run resolved them (--direct per side), for the
  // call only: whoever reports the run keeps a copy, never a pointer.
  const Settings* settings = nullptr;
  // --timeline: the samples as they gather, for a SIGUSR1 view.
  std::shared_ptr<const Timeline> timeline = nullptr;
  // --time: where the run stands (the ramp, its counts), for a SIGUSR1 view.
  std::shared_ptr<const LiveTime> time = nullptr;
};

class Events {
 public:
  virtual ~Events() = default;
  // Nothing here is noexcept: wording a message may allocate, and a
  // bad_alloc must unwind to main's "memory exhausted".
  virtual void notice(Notice what, Side side, int err, std::int64_t value) = 0;
  virtual void alignment_refused(const AlignmentProblem& problem) = 0;
  virtual void written_out_of_order(const WrittenOutOfOrder& blocks) = 0;
  virtual void starting(const RunStart& start) = 0;
  // Print the statistics now (SIGUSR1, conv=noerror after a read error).
  virtual void show_stats(const Stats& stats) = 0;
  // A signal arrived (signals::pending() was true): handle it. True when
  // the run must stop (SIGINT): the copy then returns at once with
  // Ending::kInterrupted, and whoever started the run ends the process.
  virtual bool handle_signals(const Stats& stats) = 0;
  // status=progress: called when a second has passed since the last line.
  virtual void progress(const Stats& stats, std::int64_t now_ns) = 0;
};

}  // namespace ddtime
