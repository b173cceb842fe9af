// timing — the clocks a run is measured with, behind a small interface so
// tests can supply their own. Reads the clock only when asked; the copy loop
// asks at the start, at the end and, for status=progress, once per block.
#pragma once

#include <cstdint>

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

}  // namespace ddtime
