// SPDX-License-Identifier: GPL-3.0-or-later
// The ways scripts read dd's result, applied to ddtime invoked by its own
// name (timing report on) and to the system's GNU dd on the same copy: the
// last line of stderr, awk's last record, the comma-split last field of
// server benchmark scripts, and a grep for the one SI rate. ddtime's own
// lines come before GNU's summary and do not repeat its SI rate, so every
// parser gets GNU's answer. Without GNU dd at /usr/bin/dd the tests skip.

#include <unistd.h>

#include <regex>
#include <string>
#include <vector>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

constexpr const char* kGnuDd = "/usr/bin/dd";

struct ParserCase {
  std::string name;
  std::string pipeline;  // stderr, merged into stdout, goes through this
};

struct CopyCase {
  std::string name;
  std::vector<std::string> args;
};

class ScriptParsers : public DdTest, public ::testing::WithParamInterface<std::tuple<ParserCase, CopyCase>> {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
    if (::access(kGnuDd, X_OK) != 0) GTEST_SKIP() << "needs GNU dd at " << kGnuDd;
  }

  // The program's stderr through the pipeline, as a script would see it.
  Result parsed(bool gnu, const std::vector<std::string>& args, const std::string& pipeline) const {
    Options o = opts(args);
    o.as_ddtime = true;
    const std::string program = gnu ? std::string(kGnuDd) : "\"$0\"";
    o.run_under = {"/bin/bash", "-c", program + " \"$@\" 2>&1 | " + pipeline};
    return dd(o);
  }
};

// Timing figures differ between two runs; the shape of the answer may not.
std::string masked(const std::string& text) {
  std::string out = mask_timing(text);
  return std::regex_replace(out, std::regex(R"([0-9.]+(e[-+]?[0-9]+)? ([kMGTPE]?B/s))"), "<R>");
}

TEST_P(ScriptParsers, GetGnuDdsAnswerFromDdtime) {
  const auto& [parser, copy] = GetParam();
  const Result gnu = parsed(true, copy.args, parser.pipeline);
  const Result ours = parsed(false, copy.args, parser.pipeline);
  ASSERT_STATUS(gnu, "exit 0");
  ASSERT_STATUS(ours, "exit 0");
  ASSERT_FALSE(gnu.out.empty()) << gnu;
  EXPECT_EQ(masked(ours.out), masked(gnu.out)) << "GNU: " << gnu.out << "ddtime: " << ours.out;
}

INSTANTIATE_TEST_SUITE_P(
    Gnu91, ScriptParsers,
    ::testing::Combine(
        ::testing::Values(ParserCase{"TailOne", "tail -1"}, ParserCase{"AwkEnd", "awk 'END{print}'"},
                          ParserCase{"AwkLastCommaField", "awk -F '[,，]' '{print $NF}' | tail -1"},
                          ParserCase{"GrepOneSiRate", "grep -o '[0-9.]* [kMG]B/s'"}),
        ::testing::Values(CopyCase{"ZeroToNull", {"if=/dev/zero", "of=/dev/null", "bs=1M", "count=64"}},
                          CopyCase{"FileWithFdatasync",
                                   {"if=/dev/zero", "of=out.bin", "bs=64K", "count=64", "conv=fdatasync"}},
                          CopyCase{"FileWithDsync", {"if=/dev/zero", "of=out.bin", "bs=64K", "count=16", "oflag=dsync"}},
                          CopyCase{"SmallBlocks", {"if=/dev/zero", "of=/dev/null", "bs=512", "count=2000"}})),
    [](const ::testing::TestParamInfo<std::tuple<ParserCase, CopyCase>>& param_info) {
      return std::get<0>(param_info.param).name + "_" + std::get<1>(param_info.param).name;
    });

}  // namespace
}  // namespace ddtime::e2e
