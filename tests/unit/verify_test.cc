// SPDX-License-Identifier: GPL-3.0-or-later
// --verify's comparison on real files: equal bytes, the first differing
// byte named by its offset in the output, a block from elsewhere, an
// output that ends early, and zeros as the expected side.
#include "measure/verify.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace ddtime {
namespace {

class Verify : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ddtime-verify-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    for (const char* name : {"a", "b"}) ::unlink((dir_ + "/" + name).c_str());
    ::rmdir(dir_.c_str());
  }
  int file(const char* name, const std::string& bytes) {
    const std::string path = dir_ + "/" + name;
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    return fd;
  }
  static std::string bytes(std::size_t n, unsigned seed) {
    std::string out(n, '\0');
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>((i * 131 + seed) >> 3);
    return out;
  }
  PosixOs os_;
  std::string dir_;
};

TEST_F(Verify, EqualBytesAreOk) {
  const std::string data = bytes(3 << 20, 1);
  const int expected = file("a", data);
  const int actual = file("b", data);
  const VerifyOutcome outcome = verify_bytes(os_, {expected, 0}, actual, 0, static_cast<std::int64_t>(data.size()));
  EXPECT_EQ(outcome.err, 0);
  EXPECT_FALSE(outcome.first_bad.has_value());
  EXPECT_EQ(outcome.compared, static_cast<std::int64_t>(data.size()));
  ::close(expected);
  ::close(actual);
}

TEST_F(Verify, NamesTheFirstDifferingByteByItsOffsetInTheOutput) {
  // The input from byte 1000 was written at byte 4096 of the output.
  const std::string data = bytes(2 << 20, 2);
  std::string written = std::string(4096, 'z') + data.substr(1000);
  written[4096 + 1500000] ^= 0x40;
  const int expected = file("a", data);
  const int actual = file("b", written);
  const VerifyOutcome outcome =
      verify_bytes(os_, {expected, 1000}, actual, 4096, static_cast<std::int64_t>(data.size() - 1000));
  ASSERT_TRUE(outcome.first_bad.has_value());
  EXPECT_EQ(*outcome.first_bad, 4096 + 1500000);
  EXPECT_EQ(outcome.compared, 1500000);
  ::close(expected);
  ::close(actual);
}

TEST_F(Verify, ABlockFromElsewhereIsCaught) {
  std::string data = bytes(64 * 512, 3);
  std::string misplaced = data;
  misplaced.replace(10 * 512, 512, data.substr(20 * 512, 512));
  const int expected = file("a", data);
  const int actual = file("b", misplaced);
  const VerifyOutcome outcome = verify_bytes(os_, {expected, 0}, actual, 0, static_cast<std::int64_t>(data.size()));
  ASSERT_TRUE(outcome.first_bad.has_value());
  EXPECT_GE(*outcome.first_bad, 10 * 512);
  EXPECT_LT(*outcome.first_bad, 11 * 512);
  ::close(expected);
  ::close(actual);
}

TEST_F(Verify, AnOutputThatEndsEarlyDiffersAtItsEnd) {
  const std::string data = bytes(10000, 4);
  const int expected = file("a", data);
  const int actual = file("b", data.substr(0, 7000));
  const VerifyOutcome outcome = verify_bytes(os_, {expected, 0}, actual, 0, 10000);
  ASSERT_TRUE(outcome.first_bad.has_value());
  EXPECT_EQ(*outcome.first_bad, 7000);
  ::close(expected);
  ::close(actual);
}

TEST_F(Verify, ZerosAreTheExpectedSideWithoutAFile) {
  const int actual = file("b", std::string(5000, '\0') + "x" + std::string(100, '\0'));
  const VerifyOutcome outcome = verify_bytes(os_, {-1, 0}, actual, 0, 5101);
  ASSERT_TRUE(outcome.first_bad.has_value());
  EXPECT_EQ(*outcome.first_bad, 5000);
  const VerifyOutcome prefix = verify_bytes(os_, {-1, 0}, actual, 0, 5000);
  EXPECT_FALSE(prefix.first_bad.has_value());
  ::close(actual);
}

}  // namespace
}  // namespace ddtime
