// os — the only place that makes system calls for the copy. Each call
// returns {value, errno} the moment it finishes; nothing here retries,
// prints or throws. Tests substitute a scripted Os to inject faults.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>

namespace ddtime {

struct IoResult {
  ssize_t n = 0;  // bytes, fd or offset; -1 on failure
  int err = 0;    // errno, or 0

  bool ok() const noexcept { return err == 0; }
};

class Os {
 public:
  virtual ~Os() = default;

  virtual IoResult open(const char* path, int flags, mode_t mode) noexcept = 0;
  virtual IoResult close(int fd) noexcept = 0;
  virtual IoResult dup2(int from, int to) noexcept = 0;
  virtual IoResult read(int fd, void* buffer, std::size_t length) noexcept = 0;
  virtual IoResult write(int fd, const void* buffer, std::size_t length) noexcept = 0;
  virtual IoResult lseek(int fd, off_t offset, int whence) noexcept = 0;
  virtual IoResult fstat(int fd, struct stat& status) noexcept = 0;
  virtual IoResult ftruncate(int fd, off_t length) noexcept = 0;
  virtual IoResult fsync(int fd) noexcept = 0;
  virtual IoResult fdatasync(int fd) noexcept = 0;
  // fcntl(F_GETFL) / fcntl(F_SETFL): n is the flags.
  virtual IoResult get_status_flags(int fd) noexcept = 0;
  virtual IoResult set_status_flags(int fd, int flags) noexcept = 0;
  // posix_fadvise(POSIX_FADV_DONTNEED), for iflag/oflag=nocache.
  virtual IoResult drop_cache(int fd, off_t offset, off_t length) noexcept = 0;
};

// The real thing: direct system calls.
class PosixOs final : public Os {
 public:
  IoResult open(const char* path, int flags, mode_t mode) noexcept override;
  IoResult close(int fd) noexcept override;
  IoResult dup2(int from, int to) noexcept override;
  IoResult read(int fd, void* buffer, std::size_t length) noexcept override;
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override;
  IoResult lseek(int fd, off_t offset, int whence) noexcept override;
  IoResult fstat(int fd, struct stat& status) noexcept override;
  IoResult ftruncate(int fd, off_t length) noexcept override;
  IoResult fsync(int fd) noexcept override;
  IoResult fdatasync(int fd) noexcept override;
  IoResult get_status_flags(int fd) noexcept override;
  IoResult set_status_flags(int fd, int flags) noexcept override;
  IoResult drop_cache(int fd, off_t offset, off_t length) noexcept override;
};

}  // namespace ddtime
