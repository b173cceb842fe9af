// SPDX-License-Identifier: GPL-3.0-or-later
// engine — the one entry point every copy engine shares: a CopyRequest in, a
// CopyResult value out. An engine positions the files (skip=, seek=),
// copies with GNU's record counting and ends the output; it never formats
// text (everything worth saying goes to Events) and never ends the
// process: a stop is an Ending. Two engines implement it, engine_sync and
// engine_queued; engines.h holds run_copy(), which picks one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "dd/block_order.h"
#include "dd/io.h"
#include "dd/io_position.h"
#include "dd/io_tap.h"
#include "dd/pacer.h"
#include "model/ending.h"
#include "model/engine_use.h"
#include "model/events.h"
#include "model/mix.h"
#include "model/settings.h"
#include "model/stats.h"
#include "model/units.h"
#include "system/clock.h"
#include "system/file_kind.h"
#include "system/os.h"
#include "system/ring.h"

namespace ddtime {

// Only pointed to here: the engines, which use them, include them.

struct CopyResult {
  Stats stats;
  int exit_status = 0;
  Ending ending = Ending::kFinished;
  bool output_needs_fsync = false;  // the O_DIRECT tail went through the page cache
  std::int64_t input_offset = -1;   // where the input stands, for cache advice; -1: cannot seek
  std::int64_t first_write = -1;    // where the copy's first write landed (first_write_offset); -1: unknown
  JobsUse jobs;                     // --jobs: how the jobs went
  // After an error, a timed run's counts are the prefix one sequential copy
  // leaves, from the range's start, ramp included: nothing to take away.
  bool counts_from_start = false;
};

// A queued request's tag: the record index (of its job's part), with the
// top bit set for a write; a ring that answers some requests itself
// (PatternRing) reads the record from it.
inline constexpr std::uint64_t kWriteTag = std::uint64_t{1} << 63;

// One job's ring and its slots.
struct QueueLane {
  Ring* ring = nullptr;
  std::span<const std::span<unsigned char>> slots;
};

// For the queued engine, set up before the measured window opens: the ring
// and its buffers, one bs-sized slot per I/O in flight.
struct QueueSetup {
  Ring* ring = nullptr;  // null: the sync engine
  std::span<const std::span<unsigned char>> slots;
  bool positional_output = true;  // false: writes in order at the file's own position
  // Not positional, but order is unobservable (/dev/null): writes go out
  // as their reads complete, at the file's own position.
  bool order_free_output = false;
  // The input is /dev/zero or another memory device, which io_uring may cut
  // short when its own work is pending: a short read is read on, not the end.
  bool refill_short_reads = false;
  // --pattern: the ring answers the input's reads from the generator
  // (PatternRing); they fetch nothing and are not timed.
  bool generated_input = false;
  // --mix: the ring answers the reads of the records that are writes from
  // the generator, and the writes of those that are reads at once; only
  // the I/Os that reach the target are timed.
  std::optional<MixChoice> mix = std::nullopt;
  // A SIGINT came during set-up: job 0 alone starts, and stops at its
  // first look at the signals, before the others' threads would start and
  // fill their queues.
  bool setup_interrupted = false;
  // Which block each record goes to: in turn, or --random's permutation.
  BlockOrder order{};
  // --jobs=N: each job's ring and slots; lanes[0] is ring and slots above.
  // Empty or one: a single job.
  std::span<const QueueLane> lanes = {};
};

// Everything an engine needs, decided before the first read.
// Requires: fd 0 and fd 1 are the opened input and output; alignment is a
// power of two.
struct CopyRequest {
  Os& os;
  Events& events;
  Clock& clock;
  const Settings& settings;
  // What fd 0 and fd 1 are, as resolve found them (an absent output as the
  // regular file its open made): no engine probes a file to learn it again.
  FileKinds kinds;
  std::size_t alignment;
  InputPosition input_position;  // as probed when the input was opened
  CacheAdvice& input_cache;
  CacheAdvice& output_cache;
  std::int64_t start_ns;  // when the measured window began (progress counts from it)
  QueueSetup queue = {};
  // --latency with a queued engine: each job's tap (job 0's first; one
  // without --jobs), told how long each request took from its queueing to
  // the reaping of its completion (the sync engine's calls are timed by
  // measure's LatencyOs around its Os). Empty: nothing is timed.
  std::span<IoTap* const> taps = {};
  // --time, --ramp, --timeline: asked once per record or reaped batch
  // whether to stop (time_to_stop); measure's Timekeeper. Null: nothing
  // is timed.
  Pacer* timekeeper = nullptr;
};

// The copy loop's check for a timed run's turn: a countdown, and the
// clock read when it runs out (Pacer::due). True when the copy is to
// stop starting I/O.
inline bool time_to_stop(const CopyRequest& request, const Stats& stats) {
  return request.timekeeper != nullptr && request.timekeeper->due(stats);
}

// status=progress and --progress: one update for each second of the
// window, checked between records.
class ProgressTicker {
 public:
  ProgressTicker(Clock& clock, Events& events, std::int64_t start_ns) noexcept
      : clock_(clock), events_(events), next_ns_(start_ns + kNanosecondsPerSecond) {}
  void poll(const Stats& stats) {
    poll_counting([&]() -> const Stats& { return stats; });
  }
  // poll() for counts that cost something to make (--jobs' supervisor
  // adds up every job's): counted() is called only when an update is due.
  template <typename Counted>
  void poll_counting(Counted&& counted) {
    const std::int64_t now = clock_.now_ns();
    if (next_ns_ > now) return;
    events_.progress(counted(), now);
    next_ns_ += kNanosecondsPerSecond;
  }

 private:
  Clock& clock_;
  Events& events_;
  std::int64_t next_ns_;
};

// How a copy that did not get past skip= and seek= ends: GNU's quit(1) or
// die(), or a stop. Requires: end is not Ending::kFinished.
void end_before_copy(Ending end, CopyResult& result) noexcept;

}  // namespace ddtime
