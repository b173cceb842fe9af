// SPDX-License-Identifier: GPL-3.0-or-later
// run_window — the measured window of one run, GNU's: from just before
// skip= (files open) to the statistics, flush and close included. Holds the
// readings taken at its start and turns them into RunTimes at any moment,
// for the end of the run and for a SIGUSR1 snapshot alike. Part of timing.
#pragma once

#include <cstdint>

#include "measure/timing.h"

namespace ddtime {

class RunWindow {
 public:
  // cpu: whether RunTimes will carry CPU times. As dd, nothing reads the
  // CPU clocks: two system calls GNU does not make.
  RunWindow(Clock& clock, bool cpu) noexcept : clock_(clock), cpu_(cpu) {}

  // timed: the TimedOs counting read and write ticks (--split-times), or
  // nullptr; it must outlive the window's use of it, or be let go with
  // timed_ended() (OpenedWindow below does both).
  void start(const TimedOs* timed) noexcept;
  // The TimedOs goes away with the copy: its last counts are kept, so a
  // SIGUSR1 in the flush, the close or between a session's runs still
  // splits the time, and nothing reads the TimedOs after it is gone.
  void timed_ended() noexcept;
  // --ramp's end: the window opens again here, with its TimedOs and its
  // threads; nothing before it is measured.
  void restart() noexcept;
  std::int64_t start_ns() const noexcept { return start_ns_; }
  std::int64_t now_ns() noexcept { return clock_.now_ns(); }
  Clock& clock() noexcept { return clock_; }
  void copy_ended() noexcept { copy_end_ns_ = clock_.now_ns(); }
  // The flush after the copy, timed apart: its clock time and, when CPU
  // times are read, its own user and sys time.
  void flush_starting() noexcept;
  void flush_finished() noexcept;

  // How many threads the copy runs on (the threads engine's workers and
  // the copy's own), which bounds the CPU time a window can hold; 0 when
  // the kernel's own workers may join in (io_uring), so only the CPUs bound
  // it. Back to 1 at each start().
  void set_threads(unsigned threads) noexcept { threads_ = threads; }
  unsigned threads() const noexcept { return threads_; }
  // --jobs: the job threads submitting (each with its own ring); 1 otherwise.
  // Back to 1 at each start().
  void set_job_threads(unsigned jobs) noexcept { job_threads_ = jobs; }

  // The window up to now. CPU times are read next to the clock, before any
  // formatting, and inside the clock's readings, so that the CPU time
  // covers no more than the real time does.
  RunTimes measure() noexcept;

 private:
  Clock& clock_;
  bool cpu_;
  const TimedOs* timed_ = nullptr;
  bool split_ = false;                   // a TimedOs counted this window's reads and writes
  std::uint64_t read_ticks_at_end_ = 0;  // its counts when it went away
  std::uint64_t write_ticks_at_end_ = 0;
  unsigned threads_ = 1;
  unsigned job_threads_ = 1;
  std::int64_t start_ns_ = 0;
  std::int64_t copy_end_ns_ = -1;
  std::int64_t flush_ns_ = 0;
  bool flushed_ = false;
  std::int64_t flush_start_ns_ = 0;
  CpuTimes cpu_at_flush_;
  CpuSplit flush_cpu_;
  CpuTimes cpu_at_start_;
  std::uint64_t ticks_at_start_ = 0;
  std::uint64_t read_ticks_at_start_ = 0;  // the TimedOs's counts when the window opened
  std::uint64_t write_ticks_at_start_ = 0;
};

// The window opened on a TimedOs for as long as this object lives, which
// is no longer than the TimedOs: the window forgets it on the way out,
// whichever way the copy ends.
class OpenedWindow {
 public:
  OpenedWindow(RunWindow& window, const TimedOs* timed) noexcept : window_(window) { window_.start(timed); }
  ~OpenedWindow() { window_.timed_ended(); }
  OpenedWindow(const OpenedWindow&) = delete;
  OpenedWindow& operator=(const OpenedWindow&) = delete;

 private:
  RunWindow& window_;
};

}  // namespace ddtime
