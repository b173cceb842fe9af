// SPDX-License-Identifier: GPL-3.0-or-later
// os_direct — PosixOs's read and write as inline functions, for a wrapper
// that knows it wraps PosixOs and must put no call of its own between its
// caller and the kernel. LatencyOs times every system call of a copy; on
// CPUs whose kernel entry refills the return stack (AMD's Safe RET, Intel's
// RSB filling) each extra return after a system call is a mispredicted
// branch, and one extra level per call cost a 4k /dev/zero copy 7%.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>

#include "system/os.h"

namespace ddtime::os_direct {

inline IoResult read(int fd, void* buffer, std::size_t length) noexcept {
  const ssize_t got = ::read(fd, buffer, length);
  return got < 0 ? IoResult{-1, errno} : IoResult{got, 0};
}

inline IoResult write(int fd, const void* buffer, std::size_t length) noexcept {
  const ssize_t put = ::write(fd, buffer, length);
  return put < 0 ? IoResult{-1, errno} : IoResult{put, 0};
}

inline IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept {
  const ssize_t got = ::pread(fd, buffer, length, offset);
  return got < 0 ? IoResult{-1, errno} : IoResult{got, 0};
}

inline IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept {
  const ssize_t put = ::pwrite(fd, buffer, length, offset);
  return put < 0 ? IoResult{-1, errno} : IoResult{put, 0};
}

}  // namespace ddtime::os_direct
