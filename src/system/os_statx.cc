// SPDX-License-Identifier: GPL-3.0-or-later
// statx(STATX_DIOALIGN), asked through the raw system call: glibc 2.36's
// struct statx predates the direct-I/O fields, and linux/stat.h, which has
// them, cannot be included next to glibc's sys/stat.h.
#include <fcntl.h>
#include <linux/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>

namespace ddtime {

bool query_direct_io_alignment(int fd, std::size_t& memory, std::size_t& offset) noexcept {
  struct statx result {};
  if (::syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &result) != 0) return false;
  if ((result.stx_mask & STATX_DIOALIGN) == 0) return false;
  memory = result.stx_dio_mem_align;
  offset = result.stx_dio_offset_align;
  return true;
}

}  // namespace ddtime
