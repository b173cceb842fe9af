// SPDX-License-Identifier: GPL-3.0-or-later
// pacer — what the copy asks of whatever keeps its time (issue 29: the
// engine never measures): whether to stop starting I/O now, asked once per
// record or reaped batch, and whether a ramp is still on. The question is
// a countdown kept here, inline and never virtual; the clock is read, and
// what is due done, only when the countdown runs out, by due_now(), which
// measure's Timekeeper implements.
#pragma once

#include <cstdint>
#include <span>

#include "model/stats.h"

namespace ddtime {

class Pacer {
 public:
  Pacer(const Pacer&) = delete;
  Pacer& operator=(const Pacer&) = delete;

  // True when the copy is to stop starting I/O now (the time is up, or
  // the rate is steady) and finish what it started.
  bool due(const Stats& stats) {
    if (--countdown_ > 0) [[likely]]
      return false;
    return read_clock(stats);
  }
  // due() for counts that cost something to make (--jobs' supervisor adds
  // up every job's): counted() is called only when the clock is read.
  template <typename Counted>
  bool due_counting(Counted&& counted) {
    if (--countdown_ > 0) [[likely]]
      return false;
    return read_clock(counted());
  }
  // --jobs: each job's latency samples are its own thread's, and each job
  // forgets its samples of the ramp when it hears the ramp ended; from
  // here on the pacer leaves the recorders it was given alone.
  virtual void leave_samples_to_jobs() noexcept = 0;
  // --jobs: the records each job ([job]) retired so far, told before the
  // counts the clock is read with and once more after the join, for
  // whatever the pacer keeps per job (--mix's sides); by default nothing.
  virtual void jobs_retired(std::span<const std::int64_t> records) noexcept { (void)records; }
  // --ramp was asked for; ramping(): it has not ended yet.
  bool ramps() const noexcept { return ramps_; }
  bool ramping() const noexcept { return ramping_; }

 protected:
  explicit Pacer(bool ramps) noexcept : ramps_(ramps) {}
  ~Pacer() = default;
  // The clock read now, what is due done, and countdown_ set again.
  virtual bool due_now(const Stats& stats) = 0;

  std::int64_t countdown_ = 1;  // records (or batches) left before the next reading
  bool ramping_ = false;

 private:
  // due_now(), out of line: inlined into every copy loop, the check stays
  // a countdown and a plain call, as Timekeeper's was.
  [[gnu::noinline]] bool read_clock(const Stats& stats);

  const bool ramps_;
};

}  // namespace ddtime
