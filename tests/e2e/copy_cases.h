// SPDX-License-Identifier: GPL-3.0-or-later
// What the tests of ways to copy (--iodepth, --engine, --random) share: a
// file "in" that ends in a partial block at every bs they use, cases of
// operands, and the copy of a case into "out" with extra options, so that
// each compares a way of copying with the sync engine's (and GNU's) copy.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "e2e/harness.h"
#include "e2e/loop_device.h"

namespace ddtime::e2e {

inline constexpr std::size_t kCopyFileSize = 1048576 + 12345;  // ends in a partial block at every bs used

struct CopyCase {
  const char* name;
  std::vector<std::string> operands;  // besides if= and of=
  bool notrunc_target = false;        // of= starts as other bytes, not empty
};

class CopyCaseTest : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    input_ = pattern(kCopyFileSize, 11);
    write_file("in", input_);
  }

  struct Copy {
    Result result;
    std::string output;
  };
  // `dd if=in of=out` with the case's operands and extra, of= made anew.
  Copy copy(const CopyCase& c, const std::vector<std::string>& extra) {
    write_file("out", c.notrunc_target ? pattern(kCopyFileSize, 3) : std::string());
    std::vector<std::string> args{"if=in", "of=out"};
    args.insert(args.end(), c.operands.begin(), c.operands.end());
    args.insert(args.end(), extra.begin(), extra.end());
    Copy done{dd(args), read_file("out")};
    return done;
  }

  // A refusal: exit 1, the words, nothing copied and no of= created
  // (the name "new").
  void expect_refused(const std::vector<std::string>& args, const std::string& words) {
    ::unlink((dir() / "new").c_str());
    const Result r = ddtime(args);
    EXPECT_STATUS(r, "exit 1");
    EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("records in"), std::string::npos) << "refused before the copy: " << r.err;
    struct stat status {};
    EXPECT_NE(::stat((dir() / "new").c_str(), &status), 0) << "of= was created";
  }

  std::string input_;
};

}  // namespace ddtime::e2e
