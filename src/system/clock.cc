// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/clock.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <time.h>

namespace ddtime {

std::int64_t MonotonicClock::now_ns() noexcept {
  struct timespec now {};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * kNanosecondsPerSecond + now.tv_nsec;
}

std::int64_t thread_cpu_ns() noexcept {
  struct timespec cpu {};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
  return static_cast<std::int64_t>(cpu.tv_sec) * kNanosecondsPerSecond + cpu.tv_nsec;
}

std::uint64_t read_ticks() noexcept {
#if defined(__x86_64__)
  return __rdtsc();
#else
  struct timespec now {};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * kNanosecondsPerSecond + static_cast<std::uint64_t>(now.tv_nsec);
#endif
}

}  // namespace ddtime
