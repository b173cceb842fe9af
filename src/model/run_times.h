// SPDX-License-Identifier: GPL-3.0-or-later
// run_times — the measured times of one run, as plain numbers. Kept apart
// from timing.h (the clocks and TimedOs, which need os.h) so that what only
// prints times, report and report_json, does not depend on the OS layer.
#pragma once

#include <cstdint>

namespace ddtime {

// What the timing report says about one run. Every figure covers GNU's
// window: from just before skip= (files already open) to the summary.
struct RunTimes {
  // The window opened: false for a run that ended before it (a file that
  // would not open, a refused operand), whose times were never measured.
  bool measured = true;
  // A flush call followed the copy (flush_ns and its CPU were measured).
  bool flushed = false;
  std::int64_t real_ns = 0;        // monotonic clock over the window
  std::int64_t copy_ns = 0;        // skip, seek and the copy loop, final write included
  std::int64_t flush_ns = 0;       // fsync/fdatasync after the copy
  std::int64_t flush_user_ns = 0;  // the CPU time of that flush (when CPU times are read)
  std::int64_t flush_sys_ns = 0;
  std::int64_t user_ns = 0;  // CPU time of this process in the window
  std::int64_t sys_ns = 0;
  // The threads the copy ran on: 1, the threads engine's workers and the
  // copy's own, or 0 when unknown (io_uring's kernel workers may join).
  unsigned threads = 1;
  // --jobs: the job threads that submitted (their CPU, not io_uring's
  // kernel workers', is what passes 100% first).
  unsigned job_threads = 1;
  bool split = false;         // read_ns/write_ns were measured (--split-times)
  std::int64_t read_ns = 0;   // inside read-side system calls
  std::int64_t write_ns = 0;  // inside write-side system calls (seeks for sparse too)
};

}  // namespace ddtime
