// SPDX-License-Identifier: GPL-3.0-or-later
// os — the only place that makes system calls for the copy. Each call
// returns {value, errno} the moment it finishes; nothing here retries,
// prints or throws. Tests substitute a scripted Os to inject faults, and
// decorators (timing's TimedOs) wrap one through OsWrapper.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <cstddef>
#include <cstdint>

namespace ddtime {

struct IoResult {
  ssize_t n = 0;  // bytes, fd or offset; -1 on failure
  int err = 0;    // errno, or 0

  bool ok() const noexcept { return err == 0; }
};

// What O_DIRECT asks of a file: buffer address and file offset/length
// alignment, and where the answer came from.
struct DirectIoNeeds {
  enum class Source { kStatx, kLogicalBlockSize, kAssumed };
  std::size_t memory_alignment = 4096;
  std::size_t offset_alignment = 4096;
  Source source = Source::kAssumed;
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
  // At an offset, leaving the file's position where it is: --random's
  // synchronous copy places each record with one call a side.
  virtual IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept = 0;
  virtual IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept = 0;
  virtual IoResult fstat(int fd, struct stat& status) noexcept = 0;
  virtual IoResult ftruncate(int fd, off_t length) noexcept = 0;
  virtual IoResult fsync(int fd) noexcept = 0;
  virtual IoResult fdatasync(int fd) noexcept = 0;
  // fcntl(F_GETFL) / fcntl(F_SETFL): n is the flags.
  virtual IoResult get_status_flags(int fd) noexcept = 0;
  virtual IoResult set_status_flags(int fd, int flags) noexcept = 0;
  // posix_fadvise(POSIX_FADV_DONTNEED), for iflag/oflag=nocache.
  virtual IoResult drop_cache(int fd, off_t offset, off_t length) noexcept = 0;
  virtual IoResult stat_path(const char* path, struct stat& status) noexcept = 0;
  // statx(STATX_DIOALIGN) where the kernel answers it, else BLKSSZGET for a
  // block device, else the common 4096.
  virtual DirectIoNeeds direct_io_needs(int fd) noexcept = 0;
  // BLKGETSIZE64: n is the device size in bytes.
  virtual IoResult block_device_size(int fd) noexcept = 0;
  // fallocate(mode 0): allocates the range, growing the file to its end.
  virtual IoResult reserve(int fd, off_t offset, off_t length) noexcept = 0;
  // mincore over a read-only mapping of [offset, offset + length): n is
  // how many of the pages holding those bytes are in the page cache.
  // EACCES when the kernel would not tell (it says "all resident" to a
  // caller who neither owns the file nor may write it).
  virtual IoResult resident_pages(int fd, off_t offset, off_t length) noexcept = 0;
  // BLKFLSBUF: writes back and drops a block device's cached pages.
  virtual IoResult flush_device_cache(int fd) noexcept = 0;
  // fallocate(FALLOC_FL_KEEP_SIZE): the blocks of the range allocated,
  // the file's size and bytes left as they are (--preallocate).
  virtual IoResult allocate_blocks(int fd, off_t offset, off_t length) noexcept = 0;
  // realpath(3) into resolved (PATH_MAX bytes): the path with every link,
  // "." and ".." resolved, for telling whether two names are one file.
  virtual IoResult real_path(const char* path, char* resolved) noexcept = 0;
  // unlink(2): a file the program created and must not leave behind.
  virtual IoResult remove_file(const char* path) noexcept = 0;
  // TIOCGWINSZ: the columns of the terminal fd is (ENOTTY: not one).
  virtual IoResult terminal_columns(int fd) noexcept = 0;
  // For the reports' environment (issue 22), never called while a run is
  // measured. uname(2).
  virtual IoResult system_names(struct utsname& names) noexcept = 0;
  // statfs(2): n is f_type, the magic number of the file system path is on.
  virtual IoResult filesystem_magic(const char* path) noexcept = 0;
  // sysconf(_SC_NPROCESSORS_ONLN): n is how many CPUs are online.
  virtual IoResult online_cpus() noexcept = 0;
  // CLOCK_REALTIME: n is the seconds since the epoch, for a date; what is
  // measured is timed by timing's clocks, never by this one.
  virtual IoResult wall_clock_seconds() noexcept = 0;
  // Waits ns nanoseconds, or less when a signal comes (EINTR): --profile's
  // pause between tests, cut into slices so that a SIGINT is heard.
  virtual IoResult sleep_ns(std::int64_t ns) noexcept = 0;
  // execv(2): the process becomes path's program, with argv (null
  // ended); returns only when it could not, with the reason (--compare's
  // own program, compare_launch).
  virtual IoResult execute(const char* path, char* const argv[]) noexcept = 0;
};

// The base of a decorator: every call goes to the wrapped Os unchanged, so
// a decorator overrides only the calls it changes (leveldb's EnvWrapper).
// Requires: target outlives the wrapper.
class OsWrapper : public Os {
 public:
  explicit OsWrapper(Os& target) noexcept : target_(target) {}

  Os& target() const noexcept { return target_; }

  IoResult open(const char* path, int flags, mode_t mode) noexcept override { return target_.open(path, flags, mode); }
  IoResult close(int fd) noexcept override { return target_.close(fd); }
  IoResult dup2(int from, int to) noexcept override { return target_.dup2(from, to); }
  IoResult read(int fd, void* buffer, std::size_t length) noexcept override { return target_.read(fd, buffer, length); }
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override {
    return target_.write(fd, buffer, length);
  }
  IoResult lseek(int fd, off_t offset, int whence) noexcept override { return target_.lseek(fd, offset, whence); }
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override {
    return target_.pread(fd, buffer, length, offset);
  }
  IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept override {
    return target_.pwrite(fd, buffer, length, offset);
  }
  IoResult fstat(int fd, struct stat& status) noexcept override { return target_.fstat(fd, status); }
  IoResult ftruncate(int fd, off_t length) noexcept override { return target_.ftruncate(fd, length); }
  IoResult fsync(int fd) noexcept override { return target_.fsync(fd); }
  IoResult fdatasync(int fd) noexcept override { return target_.fdatasync(fd); }
  IoResult get_status_flags(int fd) noexcept override { return target_.get_status_flags(fd); }
  IoResult set_status_flags(int fd, int flags) noexcept override { return target_.set_status_flags(fd, flags); }
  IoResult drop_cache(int fd, off_t offset, off_t length) noexcept override {
    return target_.drop_cache(fd, offset, length);
  }
  IoResult stat_path(const char* path, struct stat& status) noexcept override {
    return target_.stat_path(path, status);
  }
  DirectIoNeeds direct_io_needs(int fd) noexcept override { return target_.direct_io_needs(fd); }
  IoResult block_device_size(int fd) noexcept override { return target_.block_device_size(fd); }
  IoResult reserve(int fd, off_t offset, off_t length) noexcept override { return target_.reserve(fd, offset, length); }
  IoResult resident_pages(int fd, off_t offset, off_t length) noexcept override {
    return target_.resident_pages(fd, offset, length);
  }
  IoResult flush_device_cache(int fd) noexcept override { return target_.flush_device_cache(fd); }
  IoResult allocate_blocks(int fd, off_t offset, off_t length) noexcept override {
    return target_.allocate_blocks(fd, offset, length);
  }
  IoResult real_path(const char* path, char* resolved) noexcept override { return target_.real_path(path, resolved); }
  IoResult remove_file(const char* path) noexcept override { return target_.remove_file(path); }
  IoResult terminal_columns(int fd) noexcept override { return target_.terminal_columns(fd); }
  IoResult system_names(struct utsname& names) noexcept override { return target_.system_names(names); }
  IoResult filesystem_magic(const char* path) noexcept override { return target_.filesystem_magic(path); }
  IoResult online_cpus() noexcept override { return target_.online_cpus(); }
  IoResult wall_clock_seconds() noexcept override { return target_.wall_clock_seconds(); }
  IoResult sleep_ns(std::int64_t ns) noexcept override { return target_.sleep_ns(ns); }
  IoResult execute(const char* path, char* const argv[]) noexcept override { return target_.execute(path, argv); }

 private:
  Os& target_;
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
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override;
  IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept override;
  IoResult fstat(int fd, struct stat& status) noexcept override;
  IoResult ftruncate(int fd, off_t length) noexcept override;
  IoResult fsync(int fd) noexcept override;
  IoResult fdatasync(int fd) noexcept override;
  IoResult get_status_flags(int fd) noexcept override;
  IoResult set_status_flags(int fd, int flags) noexcept override;
  IoResult drop_cache(int fd, off_t offset, off_t length) noexcept override;
  IoResult stat_path(const char* path, struct stat& status) noexcept override;
  DirectIoNeeds direct_io_needs(int fd) noexcept override;
  IoResult block_device_size(int fd) noexcept override;
  IoResult reserve(int fd, off_t offset, off_t length) noexcept override;
  IoResult resident_pages(int fd, off_t offset, off_t length) noexcept override;
  IoResult flush_device_cache(int fd) noexcept override;
  IoResult allocate_blocks(int fd, off_t offset, off_t length) noexcept override;
  IoResult real_path(const char* path, char* resolved) noexcept override;
  IoResult remove_file(const char* path) noexcept override;
  IoResult terminal_columns(int fd) noexcept override;
  IoResult system_names(struct utsname& names) noexcept override;
  IoResult filesystem_magic(const char* path) noexcept override;
  IoResult online_cpus() noexcept override;
  IoResult wall_clock_seconds() noexcept override;
  IoResult sleep_ns(std::int64_t ns) noexcept override;
  IoResult execute(const char* path, char* const argv[]) noexcept override;
};

}  // namespace ddtime
