// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/timing.h"

#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

#include "system/os_direct.h"

namespace ddtime {

CpuTimes process_cpu_times() noexcept {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  auto to_ns = [](const struct timeval& tv) {
    return static_cast<std::int64_t>(tv.tv_sec) * kNanosecondsPerSecond + tv.tv_usec * 1000;
  };
  struct timespec cpu {};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  return {to_ns(usage.ru_utime), to_ns(usage.ru_stime),
          static_cast<std::int64_t>(cpu.tv_sec) * kNanosecondsPerSecond + cpu.tv_nsec};
}

unsigned usable_cpus() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  const int count = CPU_COUNT(&set);
  return count > 0 ? static_cast<unsigned>(count) : 1;
}

CpuSplit cpu_in_window(const CpuTimes& start, const CpuTimes& end, std::int64_t real_ns, unsigned threads) noexcept {
  const std::int64_t measured = end.total_ns > start.total_ns ? end.total_ns - start.total_ns : 0;
  const std::int64_t at_once = std::max<std::int64_t>(1, std::min<std::int64_t>(threads, usable_cpus()));
  std::int64_t most = 0;
  if (__builtin_mul_overflow(std::max<std::int64_t>(real_ns, 0), at_once, &most)) most = INT64_MAX;
  const std::int64_t total = std::min(measured, most);
  std::int64_t user_weight = end.user_ns > start.user_ns ? end.user_ns - start.user_ns : 0;
  std::int64_t sys_weight = end.sys_ns > start.sys_ns ? end.sys_ns - start.sys_ns : 0;
  if (user_weight + sys_weight == 0) {
    user_weight = end.user_ns > 0 ? end.user_ns : 0;
    sys_weight = end.sys_ns > 0 ? end.sys_ns : 0;
  }
  if (user_weight + sys_weight == 0) return {total, 0};
  const auto user = static_cast<std::int64_t>(static_cast<long double>(total) * static_cast<long double>(user_weight) /
                                              static_cast<long double>(user_weight + sys_weight));
  return {user, total - user};
}

namespace {

// call(), with the ticks it took added to `ticks`. Inlined: one of these
// brackets every read and write of a --split-times run.
template <typename Call>
IoResult ticks_added(std::uint64_t& ticks, Call call) noexcept {
  const std::uint64_t before = read_ticks();
  IoResult result = call();
  ticks += read_ticks() - before;
  return result;
}

}  // namespace

IoResult TimedOs::read(int fd, void* buffer, std::size_t length) noexcept {
  return ticks_added(read_ticks_, [&]() noexcept { return target().read(fd, buffer, length); });
}

IoResult TimedOs::write(int fd, const void* buffer, std::size_t length) noexcept {
  return ticks_added(write_ticks_, [&]() noexcept { return target().write(fd, buffer, length); });
}

IoResult TimedOs::pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept {
  return ticks_added(read_ticks_, [&]() noexcept { return target().pread(fd, buffer, length, offset); });
}

IoResult TimedOs::pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept {
  return ticks_added(write_ticks_, [&]() noexcept { return target().pwrite(fd, buffer, length, offset); });
}

IoResult TimedOs::lseek(int fd, off_t offset, int whence) noexcept {
  // A relative seek on the output is conv=sparse writing a hole.
  if (fd != STDOUT_FILENO || whence != SEEK_CUR || offset == 0) return target().lseek(fd, offset, whence);
  return ticks_added(write_ticks_, [&]() noexcept { return target().lseek(fd, offset, whence); });
}

IoResult LatencyOs::read(int fd, void* buffer, std::size_t length) noexcept {
  if (fd != 0) {
    break_chain();
    return OsWrapper::read(fd, buffer, length);
  }
  std::uint64_t took = 0;
  const IoResult result = timed(took, [&]() noexcept {
    return direct_ ? os_direct::read(fd, buffer, length) : OsWrapper::read(fd, buffer, length);
  });
  // The read that finds the end of the input fetches nothing: the count
  // is of the reads that brought bytes (or failed).
  if (!result.ok() || result.n > 0) recorders_.reads.record(static_cast<std::int64_t>(took));
  return result;
}

IoResult LatencyOs::write(int fd, const void* buffer, std::size_t length) noexcept {
  if (fd != 1) {
    break_chain();
    return OsWrapper::write(fd, buffer, length);
  }
  std::uint64_t took = 0;
  const IoResult result = timed(took, [&]() noexcept {
    return direct_ ? os_direct::write(fd, buffer, length) : OsWrapper::write(fd, buffer, length);
  });
  recorders_.writes.record(static_cast<std::int64_t>(took));
  return result;
}

IoResult LatencyOs::pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept {
  if (fd != 0) {
    break_chain();
    return OsWrapper::pread(fd, buffer, length, offset);
  }
  std::uint64_t took = 0;
  const IoResult result = timed(took, [&]() noexcept {
    return direct_ ? os_direct::pread(fd, buffer, length, offset) : OsWrapper::pread(fd, buffer, length, offset);
  });
  if (!result.ok() || result.n > 0) recorders_.reads.record(static_cast<std::int64_t>(took));
  return result;
}

IoResult LatencyOs::pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept {
  if (fd != 1) {
    break_chain();
    return OsWrapper::pwrite(fd, buffer, length, offset);
  }
  std::uint64_t took = 0;
  const IoResult result = timed(took, [&]() noexcept {
    return direct_ ? os_direct::pwrite(fd, buffer, length, offset) : OsWrapper::pwrite(fd, buffer, length, offset);
  });
  recorders_.writes.record(static_cast<std::int64_t>(took));
  return result;
}

}  // namespace ddtime
