#include "os.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace ddtime {
namespace {

IoResult from_call(ssize_t value) noexcept {
  return value < 0 ? IoResult{-1, errno} : IoResult{value, 0};
}

}  // namespace

IoResult PosixOs::open(const char* path, int flags, mode_t mode) noexcept {
  return from_call(::open(path, flags, mode));
}

IoResult PosixOs::close(int fd) noexcept { return from_call(::close(fd)); }

IoResult PosixOs::dup2(int from, int to) noexcept { return from_call(::dup2(from, to)); }

IoResult PosixOs::read(int fd, void* buffer, std::size_t length) noexcept {
  return from_call(::read(fd, buffer, length));
}

IoResult PosixOs::write(int fd, const void* buffer, std::size_t length) noexcept {
  return from_call(::write(fd, buffer, length));
}

IoResult PosixOs::lseek(int fd, off_t offset, int whence) noexcept {
  return from_call(::lseek(fd, offset, whence));
}

IoResult PosixOs::fstat(int fd, struct stat& status) noexcept {
  return from_call(::fstat(fd, &status));
}

IoResult PosixOs::ftruncate(int fd, off_t length) noexcept {
  return from_call(::ftruncate(fd, length));
}

IoResult PosixOs::fsync(int fd) noexcept { return from_call(::fsync(fd)); }

IoResult PosixOs::fdatasync(int fd) noexcept { return from_call(::fdatasync(fd)); }

IoResult PosixOs::get_status_flags(int fd) noexcept { return from_call(::fcntl(fd, F_GETFL)); }

IoResult PosixOs::set_status_flags(int fd, int flags) noexcept {
  return from_call(::fcntl(fd, F_SETFL, flags));
}

IoResult PosixOs::drop_cache(int fd, off_t offset, off_t length) noexcept {
  // posix_fadvise reports failure in its return value, not errno.
  int err = ::posix_fadvise(fd, offset, length, POSIX_FADV_DONTNEED);
  return err == 0 ? IoResult{0, 0} : IoResult{-1, err};
}

}  // namespace ddtime
