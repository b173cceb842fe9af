// SPDX-License-Identifier: GPL-3.0-or-later
// timing — the clocks a run is measured with, behind a small interface so
// tests can supply their own. Reads the clock only when asked; the copy loop
// asks at the start, at the end and, for status=progress, once per block.
#pragma once

#include <cstdint>

#include "latency.h"
#include "os.h"
#include "run_times.h"  // RunTimes, which the times measured here fill

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

inline constexpr std::int64_t kNanosecondsPerSecond = 1'000'000'000;

// CPU time consumed by this process so far. total_ns is exact
// (CLOCK_PROCESS_CPUTIME_ID); user_ns and sys_ns come from getrusage, whose
// split the kernel estimates from the clock ticks that landed in each mode,
// so over a short window their differences can even exceed the real time.
struct CpuTimes {
  std::int64_t user_ns = 0;
  std::int64_t sys_ns = 0;
  std::int64_t total_ns = 0;
};
CpuTimes process_cpu_times() noexcept;

// The CPU time spent between two readings taken around a window of
// real_ns: the exact total, divided between user and system in the
// proportion getrusage moved in the window (or, when no tick landed in it,
// in the proportion of the whole process so far; with no tick at all, as
// user time, as the kernel does). Never more than real_ns: the copy runs on
// one thread, and over a few microseconds the CPU clock's own reads, each a
// system call, would otherwise show as more CPU than time.
struct CpuSplit {
  std::int64_t user_ns = 0;
  std::int64_t sys_ns = 0;
};
CpuSplit cpu_in_window(const CpuTimes& start, const CpuTimes& end, std::int64_t real_ns) noexcept;

// A cheap, monotonic tick count for timing single system calls: the CPU's
// time-stamp counter on x86-64 (a few ns to read, against tens for
// clock_gettime), nanoseconds elsewhere. Ticks become seconds by scaling
// against the monotonic clock over the whole run.
std::uint64_t read_ticks() noexcept;

// Wraps the real Os for --split-times: counts the ticks spent inside read
// calls and inside write calls (and the seeks that stand for writes under
// conv=sparse). Every other call passes straight through OsWrapper.
class TimedOs final : public OsWrapper {
 public:
  explicit TimedOs(Os& inner) noexcept : OsWrapper(inner) {}

  std::uint64_t read_ticks_spent() const noexcept { return read_ticks_; }
  std::uint64_t write_ticks_spent() const noexcept { return write_ticks_; }

  IoResult read(int fd, void* buffer, std::size_t length) noexcept override;
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override;
  IoResult lseek(int fd, off_t offset, int whence) noexcept override;

 private:
  std::uint64_t read_ticks_ = 0;
  std::uint64_t write_ticks_ = 0;
};

// --latency with the sync engine: each read of the input (fd 0) and each
// write of the output (fd 1) is one system call, timed in ticks
// (read_ticks) around it and recorded. Every other call passes straight
// through.
class LatencyOs final : public OsWrapper {
 public:
  LatencyOs(Os& inner, LatencyRecorders& recorders) noexcept : OsWrapper(inner), recorders_(recorders) {}

  IoResult read(int fd, void* buffer, std::size_t length) noexcept override;
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override;

 private:
  LatencyRecorders& recorders_;
};

}  // namespace ddtime
