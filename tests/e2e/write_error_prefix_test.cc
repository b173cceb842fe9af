// SPDX-License-Identifier: GPL-3.0-or-later
// After a write error, of= is what one sequential copy leaves: with
// --jobs, --random, --iodepth or --time, a full file system (a small
// tmpfs) leaves a regular output file holding exactly the prefix GNU dd
// leaves for the same operands, with no holes and nothing past it, and
// the same records lines, message and exit status. Runs as root (it
// mounts a tmpfs); skips where the mount fails. GNU dd is /usr/bin/dd.

#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

constexpr const char* kGnuDd = "/usr/bin/dd";

class QueuedWriteErrors : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
    if (::access(kGnuDd, X_OK) != 0) GTEST_SKIP() << "needs GNU dd at " << kGnuDd;
    std::filesystem::create_directory(path("fs"));
    // 1000 KiB: 15 whole blocks of 64 KiB and part of a 16th, so that the
    // last write is a short one.
    if (::mount("tmpfs", path("fs").c_str(), "tmpfs", 0, "size=1000k") != 0) {
      GTEST_SKIP() << "cannot mount a small tmpfs here: " << std::strerror(errno);
    }
    mounted_ = true;
    std::string bytes(3 << 20, '\0');
    std::mt19937_64 random(28);
    for (char& c : bytes) c = static_cast<char>(random());
    write_file("in", bytes);
  }
  void TearDown() override {
    if (mounted_) ::umount(path("fs").c_str());
    DdTest::TearDown();
  }

  struct Copy {
    Result result;
    std::string output;
  };
  // One copy into the full file system, by GNU dd or by ddtime (as dd:
  // the same program name in the messages), the output read and removed.
  Copy copy(bool gnu, std::vector<std::string> args) {
    args.insert(args.begin(), {"if=in", "of=fs/o", "bs=64k"});
    Options o = opts(args);
    o.timeout = 20000ms;
    if (gnu) o.run_under = {"/bin/bash", "-c", std::string("exec -a dd ") + kGnuDd + " \"$@\""};
    Copy c{dd(o), read_file("fs/o")};
    std::filesystem::remove(path("fs/o"));
    return c;
  }
  bool mounted_ = false;
};

// The message, the records lines and the status, GNU's; of= byte for byte.
void expect_gnus_prefix(const std::string& mode, const Result& gnu_result, const std::string& gnu_output,
                        const Result& got, const std::string& output) {
  SCOPED_TRACE(mode);
  EXPECT_EQ(got.status(), gnu_result.status()) << got.describe();
  EXPECT_EQ(got.err_masked(), gnu_result.err_masked());
  EXPECT_EQ(output.size(), gnu_output.size());
  EXPECT_TRUE(output == gnu_output) << "of= differs from GNU dd's";
}

TEST_F(QueuedWriteErrors, AFullFileSystemLeavesGnusPrefixInEveryOutOfOrderMode) {
  const Copy gnu = copy(true, {"count=32"});
  ASSERT_EQ(gnu.result.status(), "exit 1") << gnu.result.describe();
  ASSERT_GT(gnu.output.size(), 900'000u);
  for (const char* mode : {"--jobs=3", "--jobs=4 --iodepth=4", "--random=1", "--random=1 --engine=sync", "--iodepth=4",
                           "--jobs=2 --engine=threads --iodepth=8", "--jobs=3 --random=5"}) {
    std::vector<std::string> args{"count=32"};
    for (std::string rest = mode; !rest.empty();) {
      const std::size_t space = rest.find(' ');
      args.push_back(rest.substr(0, space));
      rest = space == std::string::npos ? "" : rest.substr(space + 1);
    }
    const Copy got = copy(false, args);
    expect_gnus_prefix(mode, gnu.result, gnu.output, got.result, got.output);
  }
}

// A timed run over the same range (--size=2M is count=32 of 64 KiB):
// the error ends every job, and the records are the prefix's, not the
// passes'.
TEST_F(QueuedWriteErrors, ATimedRunMeetingAFullFileSystemLeavesGnusPrefix) {
  const Copy gnu = copy(true, {"count=32"});
  for (const char* mode : {"--jobs=2", "--random=2", "--iodepth=4"}) {
    const Copy got = copy(false, {"--time=300ms", "--size=2M", mode});
    expect_gnus_prefix(mode, gnu.result, gnu.output, got.result, got.output);
  }
}

// seek= and conv=notrunc over an existing file: what the file held before
// stays, what the copy wrote is GNU's prefix.
TEST_F(QueuedWriteErrors, SeekIntoAnExistingFileUnderNotruncLeavesGnusBytes) {
  const std::string old(300 << 10, 'x');
  auto prepared = [&](bool gnu, const char* mode) {
    write_file("fs/o", old);
    std::vector<std::string> args{"seek=2", "conv=notrunc"};
    if (mode != nullptr) args.emplace_back(mode);
    return copy(gnu, args);
  };
  const Copy gnu = prepared(true, nullptr);
  for (const char* mode : {"--jobs=3", "--random=3", "--iodepth=8"}) {
    const Copy got = prepared(false, mode);
    expect_gnus_prefix(mode, gnu.result, gnu.output, got.result, got.output);
  }
}

}  // namespace
}  // namespace ddtime::e2e
