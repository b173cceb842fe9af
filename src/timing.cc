#include "timing.h"

#include <time.h>

namespace ddtime {

std::int64_t MonotonicClock::now_ns() noexcept {
  struct timespec now {};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * kNanosecondsPerSecond + now.tv_nsec;
}

}  // namespace ddtime
