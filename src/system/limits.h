// SPDX-License-Identifier: GPL-3.0-or-later
// limits — what the machine lets one process start, read before anything
// is opened: how many more threads it may have (RLIMIT_NPROC, the kernel's
// pid_max and threads-max, less the threads already running) and how much
// memory is available. Read through Os from /proc, so that tests script
// them; deciding what is too much is the caller's.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "system/os.h"

namespace ddtime {

struct ThreadLimit {
  std::int64_t threads = 0;  // how many may exist at once
  enum class Source { kProcessLimit, kPidMax, kThreadsMax } source = Source::kPidMax;
  std::int64_t running = 0;  // threads on the machine now (every user's)
};

struct SystemLimits {
  std::optional<ThreadLimit> threads;            // nullopt: nothing could be read
  std::optional<std::int64_t> memory_available;  // bytes, /proc/meminfo's MemAvailable
};

SystemLimits read_system_limits(Os& os);

// Linux AIO's events: fs.aio-max-nr and fs.aio-nr (those in use by every
// process), nullopt when either cannot be read.
struct AioLimit {
  std::int64_t max = 0;
  std::int64_t used = 0;
};
std::optional<AioLimit> read_aio_limit(Os& os);

// The parsers, for tests: /proc/self/limits' "Max processes" soft limit
// (nullopt when unlimited or absent), /proc/loadavg's scheduling entities
// (the fourth field's total), /proc/meminfo's MemAvailable in bytes.
std::optional<std::int64_t> max_processes_in(std::string_view limits);
std::optional<std::int64_t> threads_running_in(std::string_view loadavg);
std::optional<std::int64_t> memory_available_in(std::string_view meminfo);

}  // namespace ddtime
