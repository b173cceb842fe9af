// SPDX-License-Identifier: GPL-3.0-or-later
// loop_device — what the end-to-end tests on block devices share: a shell
// runner, a pattern of bytes that differs from block to block, and a
// fixture that attaches a loop device (of a chosen logical block size,
// with or without direct I/O to its backing file) in SetUp and always
// detaches it in TearDown. Without root, losetup or the loop driver the
// tests skip and say which is missing.
#pragma once

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "e2e/harness.h"

namespace ddtime::e2e {

// Runs a shell command; its output (stdout and stderr) and whether it
// exited 0.
struct Command {
  std::string output;
  bool ok = false;
};

inline Command shell(const std::string& command) {
  Command result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    result.output = std::string("popen: ") + std::strerror(errno);
    return result;
  }
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) result.output.append(buf, n);
  const int status = ::pclose(pipe);
  result.ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return result;
}

// Bytes that differ from block to block, so a misplaced block shows.
inline std::string pattern(std::size_t size, unsigned seed) {
  std::string out(size, '\0');
  std::uint32_t x = seed * 2654435761u + 1;
  for (std::size_t i = 0; i < size; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    out[i] = static_cast<char>(x);
  }
  return out;
}

// A loop device over a backing file in the test directory (under /var/tmp
// unless DDTIME_E2E_TMPDIR says otherwise), attached in SetUp and always
// detached in TearDown.
class LoopDevice : public DdTest {
 protected:
  // direct_io: the loop device reads and writes its backing file with
  // O_DIRECT (losetup --direct-io=on), so that I/O reaches the disk.
  LoopDevice(unsigned sector_size, std::size_t size, bool direct_io = false)
      : sector_size_(sector_size), size_(size), direct_io_(direct_io) {}

  void SetUp() override {
    DdTest::SetUp();
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to attach loop devices";
    if (::access("/dev/loop-control", F_OK) != 0) GTEST_SKIP() << "needs /dev/loop-control (no loop driver)";
    if (!shell("command -v losetup").ok) GTEST_SKIP() << "needs losetup (util-linux)";
    content_ = pattern(size_, sector_size_);
    write_file("backing.img", content_);
    const Command attached = shell("losetup --find --show --sector-size " + std::to_string(sector_size_) +
                                   (direct_io_ ? " --direct-io=on" : "") + " '" + path("backing.img").string() + "'");
    if (!attached.ok) GTEST_SKIP() << "losetup could not attach a loop device: " << attached.output;
    device_ = attached.output.substr(0, attached.output.find('\n'));
    ASSERT_TRUE(device_.starts_with("/dev/loop")) << attached.output;
    // Check the device is what the tests assume.
    const int fd = ::open(device_.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0) << device_ << ": " << std::strerror(errno);
    int logical = 0;
    std::uint64_t bytes = 0;
    const bool asked = ::ioctl(fd, BLKSSZGET, &logical) == 0 && ::ioctl(fd, BLKGETSIZE64, &bytes) == 0;
    ::close(fd);
    ASSERT_TRUE(asked) << device_ << ": " << std::strerror(errno);
    if (logical != static_cast<int>(sector_size_)) {
      GTEST_SKIP() << "losetup --sector-size " << sector_size_ << " gave " << device_ << " a logical block size of "
                   << logical;
    }
    ASSERT_EQ(bytes, size_);
  }

  void TearDown() override {
    if (!device_.empty()) {
      const Command detached = shell("losetup -d " + device_);
      EXPECT_TRUE(detached.ok) << "losetup -d " << device_ << ": " << detached.output;
    }
    DdTest::TearDown();
  }

  // The device's bytes, through the backing file.
  std::string device_bytes() const { return read_file("backing.img"); }

  const unsigned sector_size_;
  const std::size_t size_;
  const bool direct_io_;
  std::string device_;
  std::string content_;  // what the device held when attached
};

}  // namespace ddtime::e2e
