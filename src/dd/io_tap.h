// SPDX-License-Identifier: GPL-3.0-or-later
// io_tap — how a queued copy hands what it did to whoever measures it,
// without measuring anything itself (as fio's core stamps each io_u for
// every engine). The copy reads the CPU's ticks when it queues a request
// and when it reaps the batch that holds its completion (system/clock's
// read_ticks: a few nanoseconds a reading) and tells the tap the
// difference; what a tick is worth, how durations are kept and what they
// say is measure's (LatencyRecorders implements the tap). One call per
// completed request, never per byte: the copy's hot loop stays a system
// call and a little bookkeeping per request.
#pragma once

#include <cstdint>

namespace ddtime {

class IoTap {
 public:
  // How many durations the tap holds of each side: a --ramp's marks.
  struct Counts {
    std::int64_t reads = 0;
    std::int64_t writes = 0;
  };

  // A request completed: its read or write took ticks, from its queueing
  // to the reaping of its batch.
  virtual void completed(bool write, std::int64_t ticks) noexcept = 0;
  virtual Counts counts() const noexcept = 0;
  // --ramp: every duration so far was the ramp's.
  virtual void forget_all() noexcept = 0;
  // --ramp with --jobs: the first `first` of each side were the ramp's
  // (the counts when the ramp's records were counted), the rest are
  // measured.
  virtual void forget_first(const Counts& first) noexcept = 0;

 protected:
  ~IoTap() = default;
};

}  // namespace ddtime
