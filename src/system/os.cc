// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/os.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "model/units.h"
#include "system/os_direct.h"

namespace ddtime {

// In os_statx.cc: linux/stat.h and glibc's sys/stat.h cannot share a file.
bool query_direct_io_alignment(int fd, std::size_t& memory, std::size_t& offset) noexcept;

namespace {

IoResult from_call(ssize_t value) noexcept { return value < 0 ? IoResult{-1, errno} : IoResult{value, 0}; }

}  // namespace

IoResult PosixOs::open(const char* path, int flags, mode_t mode) noexcept {
  return from_call(::open(path, flags, mode));
}

IoResult PosixOs::close(int fd) noexcept { return from_call(::close(fd)); }

IoResult PosixOs::dup2(int from, int to) noexcept { return from_call(::dup2(from, to)); }

IoResult PosixOs::read(int fd, void* buffer, std::size_t length) noexcept {
  return os_direct::read(fd, buffer, length);
}

IoResult PosixOs::write(int fd, const void* buffer, std::size_t length) noexcept {
  return os_direct::write(fd, buffer, length);
}

IoResult PosixOs::pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept {
  return os_direct::pread(fd, buffer, length, offset);
}

IoResult PosixOs::pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept {
  return os_direct::pwrite(fd, buffer, length, offset);
}

IoResult PosixOs::lseek(int fd, off_t offset, int whence) noexcept { return from_call(::lseek(fd, offset, whence)); }

IoResult PosixOs::fstat(int fd, struct stat& status) noexcept { return from_call(::fstat(fd, &status)); }

IoResult PosixOs::ftruncate(int fd, off_t length) noexcept { return from_call(::ftruncate(fd, length)); }

IoResult PosixOs::fsync(int fd) noexcept { return from_call(::fsync(fd)); }

IoResult PosixOs::fdatasync(int fd) noexcept { return from_call(::fdatasync(fd)); }

IoResult PosixOs::get_status_flags(int fd) noexcept { return from_call(::fcntl(fd, F_GETFL)); }

IoResult PosixOs::set_status_flags(int fd, int flags) noexcept { return from_call(::fcntl(fd, F_SETFL, flags)); }

IoResult PosixOs::drop_cache(int fd, off_t offset, off_t length) noexcept {
  // posix_fadvise reports failure in its return value, not errno.
  int err = ::posix_fadvise(fd, offset, length, POSIX_FADV_DONTNEED);
  return err == 0 ? IoResult{0, 0} : IoResult{-1, err};
}

IoResult PosixOs::stat_path(const char* path, struct stat& status) noexcept { return from_call(::stat(path, &status)); }

DirectIoNeeds PosixOs::direct_io_needs(int fd) noexcept {
  DirectIoNeeds needs;
  std::size_t memory = 0;
  std::size_t offset = 0;
  const bool from_statx = query_direct_io_alignment(fd, memory, offset) && offset != 0;
  struct stat status {};
  int logical = 0;
  // A block device's requirement is its logical block size: name it so,
  // since that is the figure its documentation and lsblk show.
  if (::fstat(fd, &status) == 0 && S_ISBLK(status.st_mode) && ::ioctl(fd, BLKSSZGET, &logical) == 0 && logical > 0) {
    needs.offset_alignment = static_cast<std::size_t>(logical);
    needs.memory_alignment = from_statx && memory != 0 ? memory : needs.offset_alignment;
    needs.source = DirectIoNeeds::Source::kLogicalBlockSize;
  } else if (from_statx) {
    needs.memory_alignment = memory != 0 ? memory : offset;
    needs.offset_alignment = offset;
    needs.source = DirectIoNeeds::Source::kStatx;
  }
  return needs;
}

IoResult PosixOs::block_device_size(int fd) noexcept {
  std::uint64_t size = 0;
  if (::ioctl(fd, BLKGETSIZE64, &size) != 0) return {-1, errno};
  return {static_cast<ssize_t>(size), 0};
}

IoResult PosixOs::reserve(int fd, off_t offset, off_t length) noexcept {
  // fallocate(2), not posix_fallocate(3): where the file system cannot
  // reserve, glibc's emulation would write every block, which is the very
  // work being measured.
  return from_call(::fallocate(fd, 0, offset, length));
}

namespace {

// Whether this process holds CAP_FOWNER in its effective set.
bool may_act_as_owner() noexcept {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (::syscall(SYS_capget, &header, data) != 0) return false;
  return (data[CAP_TO_INDEX(CAP_FOWNER)].effective & CAP_TO_MASK(CAP_FOWNER)) != 0;
}

// Since Linux 5.0, mincore() on a file mapping tells the truth only to a
// caller who owns the file (or may act as its owner) or may open it for
// writing; anyone else is told that every page is resident.
bool mincore_tells(int fd) noexcept {
  struct stat status {};
  if (::fstat(fd, &status) != 0) return false;
  if (status.st_uid == ::geteuid() || may_act_as_owner()) return true;
  char path[32];
  std::snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  return ::faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

}  // namespace

IoResult PosixOs::resident_pages(int fd, off_t offset, off_t length) noexcept {
  if (!mincore_tells(fd)) return {-1, EACCES};
  const auto page = static_cast<off_t>(::sysconf(_SC_PAGESIZE));
  // From the page holding the first byte: mmap wants an aligned offset.
  const off_t first = offset - offset % page;
  const off_t end = offset + length;
  // A window at a time, so that a large device needs neither a huge
  // mapping at once nor a huge vector.
  constexpr off_t kWindow = off_t{1} << 30;
  std::vector<unsigned char> flags;
  ssize_t resident = 0;
  for (off_t at = first; at < end; at += kWindow) {
    const auto span = static_cast<std::size_t>(std::min(kWindow, end - at));
    void* map = ::mmap(nullptr, span, PROT_READ, MAP_SHARED, fd, at);
    if (map == MAP_FAILED) return {-1, errno};
    try {
      flags.assign((span + static_cast<std::size_t>(page) - 1) / static_cast<std::size_t>(page), 0);
    } catch (...) {
      ::munmap(map, span);
      return {-1, ENOMEM};
    }
    const int done = ::mincore(map, span, flags.data());
    const int err = errno;
    ::munmap(map, span);
    if (done != 0) return {-1, err};
    for (const unsigned char f : flags) resident += f & 1;
  }
  return {resident, 0};
}

IoResult PosixOs::flush_device_cache(int fd) noexcept { return from_call(::ioctl(fd, BLKFLSBUF, 0)); }

IoResult PosixOs::allocate_blocks(int fd, off_t offset, off_t length) noexcept {
  return from_call(::fallocate(fd, FALLOC_FL_KEEP_SIZE, offset, length));
}

IoResult PosixOs::remove_file(const char* path) noexcept { return from_call(::unlink(path)); }

IoResult PosixOs::terminal_columns(int fd) noexcept {
  winsize size{};
  if (::ioctl(fd, TIOCGWINSZ, &size) != 0) return {-1, errno};
  return {size.ws_col, 0};
}

IoResult PosixOs::real_path(const char* path, char* resolved) noexcept {
  return ::realpath(path, resolved) != nullptr ? IoResult{0, 0} : IoResult{-1, errno};
}

IoResult PosixOs::system_names(struct utsname& names) noexcept { return from_call(::uname(&names)); }

IoResult PosixOs::filesystem_magic(const char* path) noexcept {
  struct statfs facts {};
  if (::statfs(path, &facts) != 0) return {-1, errno};
  // f_type is a signed word; the magic numbers are 32-bit patterns.
  return {static_cast<ssize_t>(static_cast<std::uint32_t>(facts.f_type)), 0};
}

IoResult PosixOs::online_cpus() noexcept {
  // sysconf says -1 without setting errno when the value is unknown.
  errno = 0;
  const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 1) return {-1, errno != 0 ? errno : ENOSYS};
  return {static_cast<ssize_t>(cpus), 0};
}

IoResult PosixOs::sleep_ns(std::int64_t ns) noexcept {
  const timespec wait{static_cast<time_t>(ns / kNanosecondsPerSecond), static_cast<long>(ns % kNanosecondsPerSecond)};
  if (::nanosleep(&wait, nullptr) != 0) return {-1, errno};
  return {0, 0};
}

IoResult PosixOs::execute(const char* path, char* const argv[]) noexcept {
  ::execv(path, argv);
  return {-1, errno};
}

IoResult PosixOs::wall_clock_seconds() noexcept {
  timespec now{};
  if (::clock_gettime(CLOCK_REALTIME, &now) != 0) return {-1, errno};
  return {static_cast<ssize_t>(now.tv_sec), 0};
}

}  // namespace ddtime
