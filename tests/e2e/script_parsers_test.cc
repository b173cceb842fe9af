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
  // ddtime's own options, given to ddtime only: what they print before
  // GNU's summary must not change what a script reads (issue 19, rule 8).
  std::vector<std::string> extensions = {};
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
  out = std::regex_replace(out, std::regex(R"([0-9.]+(e[-+]?[0-9]+)? ([kMGTPE]?B/s))"), "<R>");
  // A parser that keeps the seconds alone.
  return std::regex_replace(out, std::regex(R"(^[0-9.]+(e[-+]?[0-9]+)?$)", std::regex::multiline), "<T>");
}

TEST_P(ScriptParsers, GetGnuDdsAnswerFromDdtime) {
  const auto& [parser, copy] = GetParam();
  const Result gnu = parsed(true, copy.args, parser.pipeline);
  std::vector<std::string> ours_args = copy.args;
  ours_args.insert(ours_args.end(), copy.extensions.begin(), copy.extensions.end());
  const Result ours = parsed(false, ours_args, parser.pipeline);
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
                          ParserCase{"GrepOneSiRate", "grep -o '[0-9.]* [kMG]B/s'"},
                          // Issue 19, rule 8: the parsers that find GNU's line by its words.
                          ParserCase{"GrepBytesOrCopiedLastTwoFields",
                                     "grep -E 'bytes|copied' | awk '{print $(NF-1), $NF}'"},
                          ParserCase{"GrepCopiedLastTwoFields", "grep copied | awk '{print $(NF-1)\" \"$NF}'"},
                          ParserCase{"AwkCopiedLastTwoFields", "awk '/copied/ {print $(NF-1), $NF}'"},
                          ParserCase{"SedSeconds", "sed -n 's/.*copied, \\([0-9.e-]*\\) s,.*/\\1/p'"},
                          ParserCase{"GrepBytesFirstField", "grep bytes | cut -d' ' -f1"},
                          ParserCase{"AwkRecordsOut", "awk '/records out/ {print $1}'"},
                          ParserCase{"GrepRecordsIn", "grep 'records in' | cut -d+ -f1"}),
        ::testing::Values(
            CopyCase{"ZeroToNull", {"if=/dev/zero", "of=/dev/null", "bs=1M", "count=64"}},
            CopyCase{"FileWithFdatasync", {"if=/dev/zero", "of=out.bin", "bs=64K", "count=64", "conv=fdatasync"}},
            CopyCase{"FileWithDsync", {"if=/dev/zero", "of=out.bin", "bs=64K", "count=16", "oflag=dsync"}},
            CopyCase{"SmallBlocks", {"if=/dev/zero", "of=/dev/null", "bs=512", "count=2000"}},
            CopyCase{"Latency", {"if=/dev/zero", "of=/dev/null", "bs=4K", "count=300"}, {"--latency"}},
            CopyCase{"SplitTimesAllUnits",
                     {"if=/dev/zero", "of=/dev/null", "bs=64K", "count=64"},
                     {"--split-times", "--units=iec", "--iodepth=4"}},
            CopyCase{"RepeatedWithCache",
                     {"if=/dev/zero", "of=out.bin", "bs=64K", "count=16"},
                     {"--repeat=3", "--cache=as-is"}},
            CopyCase{
                "SweepOfBlockSizes", {"if=/dev/zero", "of=/dev/null", "bs=64K", "count=16"}, {"--sweep=bs=4k,64k"}},
            CopyCase{"ReadBackAndVerify", {"if=/dev/zero", "of=out.bin", "bs=64K", "count=16"}, {"--verify"}})),
    [](const ::testing::TestParamInfo<std::tuple<ParserCase, CopyCase>>& param_info) {
      return std::get<0>(param_info.param).name + "_" + std::get<1>(param_info.param).name;
    });

}  // namespace
}  // namespace ddtime::e2e
