// SPDX-License-Identifier: GPL-3.0-or-later
// fault_fs — the test side of faultfs: mounts it in a test's directory,
// configures files and faults through its control file, reads its request
// log, and unmounts it however the test ended. Also the output-layout
// helpers the fault tests use to say "what was written" compactly. Knows
// nothing about dd; the tests hold the expectations.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ddtime::fault {

using Millis = std::chrono::milliseconds;

// The outcome of a helper process run with a time limit.
struct ChildResult {
  int exit_code = -1;  // -1 unless it exited
  bool timed_out = false;
  std::string output;  // stdout and stderr together
};

// Runs argv (argv[0] looked up in PATH) with stdin from /dev/null, killing
// it after `timeout`.
ChildResult run_with_limit(const std::vector<std::string>& argv, Millis timeout);

// Empty when faultfs can be mounted here (as far as can be told without
// trying); otherwise why not.
std::string why_fault_fs_unavailable();

// True when $DDTIME_FAULT_REQUIRED is set to anything but 0: CI uses it to
// turn "cannot mount FUSE here" from a skip into a failure.
bool fault_fs_required();

class FaultFs {
 public:
  FaultFs() = default;
  ~FaultFs();
  FaultFs(const FaultFs&) = delete;
  FaultFs& operator=(const FaultFs&) = delete;

  // Mounts a fresh faultfs on dir/mnt, logging to dir/faultfs.log. Returns
  // an empty string on success, else why it failed.
  std::string mount(const std::filesystem::path& dir);
  // Unmounts (fusermount3 -u, then umount -l), then waits for the server
  // (killing it if it lingers). Returns an empty string, or what went wrong.
  std::string unmount();
  bool mounted() const { return pid_ > 0; }

  const std::filesystem::path& mount_point() const { return mount_point_; }
  // Control lines (see faultfs.cc), separated by newlines. Returns an empty
  // string on success, else the error.
  std::string control(std::string_view lines) const;
  // Every request logged so far, one line each.
  std::vector<std::string> log() const;
  void clear_log() const;
  // The server's stderr so far.
  std::string server_errors() const;

 private:
  std::filesystem::path mount_point_;
  std::filesystem::path log_path_;
  std::filesystem::path err_path_;
  pid_t pid_ = -1;
};

// A loop block device over a file (a faultfs file gives a disk with bad
// sectors). Detached on destruction; detach before unmounting the file's
// filesystem.
class LoopDevice {
 public:
  LoopDevice() = default;
  ~LoopDevice();
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;

  // Returns an empty string on success, else why it failed.
  std::string attach(const std::filesystem::path& file);
  std::string detach();
  const std::string& device() const { return device_; }

 private:
  std::string device_;
};

// Empty when loop devices can be made here; otherwise why not.
std::string why_loop_unavailable();

// Is `path` a mount point now (per /proc/self/mountinfo)?
bool is_mount_point(const std::filesystem::path& path);

// `length` bytes of the pattern starting at `offset`.
std::string pattern(std::uint64_t offset, std::size_t length);

// Output layouts: space-separated pieces, "P<offset>+<length>" for pattern
// bytes from that offset, "Z<length>" for NUL bytes, "B<hex>" for bytes that
// are neither; "" is an empty output.
std::string expand_layout(std::string_view layout);
std::string describe_layout(std::string_view bytes);

// A log compared line by line when short; longer ones as
// "<N> lines, fnv1a <hex>" (with the first lines printed on mismatch).
std::string log_digest(const std::vector<std::string>& lines);

}  // namespace ddtime::fault
