// SPDX-License-Identifier: GPL-3.0-or-later
// OsWrapper, the base of every Os decorator: what it does not override
// reaches the wrapped Os as it was called, and its answer comes back as it
// was given. (PosixOs itself is the real system calls, left to the e2e and
// fault tests.)
#include "system/os.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <string>
#include <utility>
#include <vector>

namespace ddtime {
namespace {

// Records every call with its arguments and answers each kind of call with
// its own value, so that a forwarded call can be told from any other.
class RecordingOs final : public Os {
 public:
  std::vector<std::string> calls;
  const void* last_buffer = nullptr;
  struct stat* last_status = nullptr;
  char* last_resolved = nullptr;
  struct utsname* last_names = nullptr;

  IoResult open(const char* path, int flags, mode_t mode) noexcept override {
    return answer("open " + std::string(path) + " " + std::to_string(flags) + " " + std::to_string(mode), 1);
  }
  IoResult close(int fd) noexcept override { return answer("close " + std::to_string(fd), 2); }
  IoResult dup2(int from, int to) noexcept override {
    return answer("dup2 " + std::to_string(from) + " " + std::to_string(to), 3);
  }
  IoResult read(int fd, void* buffer, std::size_t length) noexcept override {
    last_buffer = buffer;
    return answer("read " + std::to_string(fd) + " " + std::to_string(length), 4);
  }
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override {
    last_buffer = buffer;
    return answer("write " + std::to_string(fd) + " " + std::to_string(length), 5);
  }
  IoResult lseek(int fd, off_t offset, int whence) noexcept override {
    return answer("lseek " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(whence), 6);
  }
  IoResult fstat(int fd, struct stat& status) noexcept override {
    last_status = &status;
    return answer("fstat " + std::to_string(fd), 7);
  }
  IoResult ftruncate(int fd, off_t length) noexcept override {
    return answer("ftruncate " + std::to_string(fd) + " " + std::to_string(length), 8);
  }
  IoResult fsync(int fd) noexcept override { return answer("fsync " + std::to_string(fd), 9); }
  IoResult fdatasync(int fd) noexcept override { return answer("fdatasync " + std::to_string(fd), 10); }
  IoResult get_status_flags(int fd) noexcept override { return answer("get_status_flags " + std::to_string(fd), 11); }
  IoResult set_status_flags(int fd, int flags) noexcept override {
    return answer("set_status_flags " + std::to_string(fd) + " " + std::to_string(flags), 12);
  }
  IoResult drop_cache(int fd, off_t offset, off_t length) noexcept override {
    return answer("drop_cache " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(length), 13);
  }
  IoResult stat_path(const char* path, struct stat& status) noexcept override {
    last_status = &status;
    return answer("stat_path " + std::string(path), 14);
  }
  DirectIoNeeds direct_io_needs(int fd) noexcept override {
    calls.push_back("direct_io_needs " + std::to_string(fd));
    return {512, 2048, DirectIoNeeds::Source::kLogicalBlockSize};
  }
  IoResult block_device_size(int fd) noexcept override { return answer("block_device_size " + std::to_string(fd), 16); }
  IoResult reserve(int fd, off_t offset, off_t length) noexcept override {
    return answer("reserve " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(length), 17);
  }
  IoResult resident_pages(int fd, off_t offset, off_t length) noexcept override {
    return answer("resident_pages " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(length),
                  18);
  }
  IoResult flush_device_cache(int fd) noexcept override {
    return answer("flush_device_cache " + std::to_string(fd), 19);
  }
  IoResult allocate_blocks(int fd, off_t offset, off_t length) noexcept override {
    return answer("allocate_blocks " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(length),
                  20);
  }
  IoResult real_path(const char* path, char* resolved) noexcept override {
    last_resolved = resolved;
    return answer("real_path " + std::string(path), 21);
  }
  IoResult remove_file(const char* path) noexcept override { return answer("remove_file " + std::string(path), 22); }
  IoResult terminal_columns(int fd) noexcept override { return answer("terminal_columns " + std::to_string(fd), 23); }
  IoResult system_names(struct utsname& names) noexcept override {
    last_names = &names;
    return answer("system_names", 24);
  }
  IoResult filesystem_magic(const char* path) noexcept override {
    return answer("filesystem_magic " + std::string(path), 25);
  }
  IoResult online_cpus() noexcept override { return answer("online_cpus", 26); }
  IoResult wall_clock_seconds() noexcept override { return answer("wall_clock_seconds", 27); }
  IoResult sleep_ns(std::int64_t ns) noexcept override { return answer("sleep_ns " + std::to_string(ns), 28); }
  IoResult execute(const char* path, char* const argv[]) noexcept override {
    return answer(std::string("execute ") + path + " " + argv[0] + " " + argv[1], 29);
  }
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override {
    last_buffer = buffer;
    return answer("pread " + std::to_string(fd) + " " + std::to_string(length) + " " + std::to_string(offset), 30);
  }
  IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept override {
    last_buffer = buffer;
    return answer("pwrite " + std::to_string(fd) + " " + std::to_string(length) + " " + std::to_string(offset), 31);
  }

 private:
  // n is the call's own number; err is set too, to see it carried back.
  IoResult answer(std::string call, ssize_t n) {
    calls.push_back(std::move(call));
    return {n, static_cast<int>(n) + 100};
  }
};

// The calls every test below makes, one of each, in this order, as
// RecordingOs writes them down.
std::vector<std::string> every_call() {
  return {"open in.img " + std::to_string(O_RDWR | O_CREAT) + " " + std::to_string(0644),
          "close 3",
          "dup2 3 1",
          "read 0 512",
          "write 1 512",
          "lseek 1 4096 " + std::to_string(SEEK_CUR),
          "fstat 0",
          "ftruncate 1 8192",
          "fsync 1",
          "fdatasync 1",
          "get_status_flags 1",
          "set_status_flags 1 " + std::to_string(O_DIRECT),
          "drop_cache 0 0 4096",
          "stat_path out.img",
          "direct_io_needs 1",
          "block_device_size 0",
          "reserve 1 4096 8192",
          "resident_pages 0 4096 65536",
          "flush_device_cache 0",
          "allocate_blocks 1 0 65536",
          "real_path ./out.img",
          "remove_file gone.tmp",
          "terminal_columns 2",
          "system_names",
          "filesystem_magic /data",
          "online_cpus",
          "wall_clock_seconds",
          "sleep_ns 5",
          "execute /x/ddtime-compare ddtime --compare",
          "pread 0 512 4096",
          "pwrite 1 512 8192"};
}

// The answers to every_call(), in its order; direct_io_needs apart.
struct Answers {
  std::vector<IoResult> results;
  DirectIoNeeds needs;
};

Answers call_each(Os& os, void* buffer, struct stat& status) {
  Answers answers;
  auto& r = answers.results;
  r.push_back(os.open("in.img", O_RDWR | O_CREAT, 0644));
  r.push_back(os.close(3));
  r.push_back(os.dup2(3, 1));
  r.push_back(os.read(0, buffer, 512));
  r.push_back(os.write(1, buffer, 512));
  r.push_back(os.lseek(1, 4096, SEEK_CUR));
  r.push_back(os.fstat(0, status));
  r.push_back(os.ftruncate(1, 8192));
  r.push_back(os.fsync(1));
  r.push_back(os.fdatasync(1));
  r.push_back(os.get_status_flags(1));
  r.push_back(os.set_status_flags(1, O_DIRECT));
  r.push_back(os.drop_cache(0, 0, 4096));
  r.push_back(os.stat_path("out.img", status));
  answers.needs = os.direct_io_needs(1);
  r.push_back(os.block_device_size(0));
  r.push_back(os.reserve(1, 4096, 8192));
  r.push_back(os.resident_pages(0, 4096, 65536));
  r.push_back(os.flush_device_cache(0));
  r.push_back(os.allocate_blocks(1, 0, 65536));
  char resolved[PATH_MAX];
  r.push_back(os.real_path("./out.img", resolved));
  r.push_back(os.remove_file("gone.tmp"));
  r.push_back(os.terminal_columns(2));
  struct utsname names {};
  r.push_back(os.system_names(names));
  r.push_back(os.filesystem_magic("/data"));
  r.push_back(os.online_cpus());
  r.push_back(os.wall_clock_seconds());
  r.push_back(os.sleep_ns(5));
  char program[] = "ddtime", option[] = "--compare";
  char* const argv[] = {program, option, nullptr};
  r.push_back(os.execute("/x/ddtime-compare", argv));
  r.push_back(os.pread(0, buffer, 512, 4096));
  r.push_back(os.pwrite(1, buffer, 512, 8192));
  return answers;
}

TEST(OsWrapper, ForwardsEveryCallWithItsArgumentsAndItsAnswer) {
  RecordingOs inner;
  OsWrapper wrapper(inner);
  char buffer[512];
  struct stat status {};
  const Answers answers = call_each(wrapper, buffer, status);

  EXPECT_EQ(inner.calls, every_call());
  EXPECT_EQ(inner.last_buffer, buffer);
  EXPECT_EQ(inner.last_status, &status);
  const std::vector<ssize_t> numbers = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 16,
                                        17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
  ASSERT_EQ(answers.results.size(), numbers.size());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    EXPECT_EQ(answers.results[i].n, numbers[i]) << "answer " << i;
    EXPECT_EQ(answers.results[i].err, numbers[i] + 100) << "answer " << i;
  }
  EXPECT_EQ(answers.needs.memory_alignment, 512u);
  EXPECT_EQ(answers.needs.offset_alignment, 2048u);
  EXPECT_EQ(answers.needs.source, DirectIoNeeds::Source::kLogicalBlockSize);
  EXPECT_EQ(&wrapper.target(), &inner);
}

// A decorator in the way TimedOs is one: it overrides one call.
class CountingFsync final : public OsWrapper {
 public:
  using OsWrapper::OsWrapper;
  std::vector<int> fsyncs;

  IoResult fsync(int fd) noexcept override {
    fsyncs.push_back(fd);
    return OsWrapper::fsync(fd);
  }
};

TEST(OsWrapper, ADecoratorThatOverridesOneCallSeesOnlyThatOne) {
  RecordingOs inner;
  CountingFsync counting(inner);
  char buffer[512];
  struct stat status {};
  const Answers answers = call_each(counting, buffer, status);

  EXPECT_EQ(counting.fsyncs, std::vector<int>{1});
  EXPECT_EQ(inner.calls, every_call());  // its own call forwarded too
  EXPECT_EQ(answers.results[8].n, 9);
}

// A decorator may also answer for the wrapped Os without calling it.
class FailingFdatasync final : public OsWrapper {
 public:
  using OsWrapper::OsWrapper;
  IoResult fdatasync(int) noexcept override { return {-1, EIO}; }
};

TEST(OsWrapper, ADecoratorCanAnswerInsteadOfTheWrappedOs) {
  RecordingOs inner;
  FailingFdatasync failing(inner);
  char buffer[512];
  struct stat status {};
  const Answers answers = call_each(failing, buffer, status);

  std::vector<std::string> expected = every_call();
  std::erase(expected, "fdatasync 1");
  EXPECT_EQ(inner.calls, expected);
  EXPECT_EQ(answers.results[9].n, -1);
  EXPECT_EQ(answers.results[9].err, EIO);
}

TEST(PosixOs, WallClockIsAfterThisCodeWasWritten) {
  PosixOs os;
  EXPECT_GT(os.wall_clock_seconds().n, 1764720000 - 86400 * 365);
}

TEST(PosixOs, ExecutingAProgramThatIsNotThereSaysWhyAndReturns) {
  PosixOs os;
  char program[] = "ddtime";
  char* const argv[] = {program, nullptr};
  const IoResult result = os.execute("/nonexistent/ddtime-compare", argv);
  EXPECT_EQ(result.n, -1);
  EXPECT_EQ(result.err, ENOENT);
}

TEST(PosixOs, SleepWaitsAtLeastItsTime) {
  PosixOs os;
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(os.sleep_ns(2'000'000).ok());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(2));
}

}  // namespace
}  // namespace ddtime
