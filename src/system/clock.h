// SPDX-License-Identifier: GPL-3.0-or-later
// clock — the operating system's clocks: a monotonic clock behind a small
// interface, so that tests can supply their own, the calling thread's CPU
// time and the CPU's tick counter. A clock is read only when asked. What the readings mean (a
// run's window, its CPU share) is measure/'s business, not this module's.
#pragma once

#include <cstdint>

#include "model/units.h"

namespace ddtime {

class Clock {
 public:
  virtual ~Clock() = default;
  // Nanoseconds from an arbitrary fixed point; never goes backwards.
  virtual std::int64_t now_ns() noexcept = 0;
};

// CLOCK_MONOTONIC, the clock GNU dd measures its window with.
class MonotonicClock final : public Clock {
 public:
  std::int64_t now_ns() noexcept override;
};

// CPU time consumed by the calling thread so far (CLOCK_THREAD_CPUTIME_ID).
std::int64_t thread_cpu_ns() noexcept;

// A cheap, monotonic tick count for timing single system calls: the CPU's
// time-stamp counter on x86-64 (a few ns to read, against tens for
// clock_gettime), nanoseconds elsewhere. Ticks become seconds by scaling
// against the monotonic clock over the whole run (measure's business).
std::uint64_t read_ticks() noexcept;

}  // namespace ddtime
