// SPDX-License-Identifier: GPL-3.0-or-later
// ddtime's own --long options: parsed from the same description as the dd
// operands, matched in full only, and resolved against the invocation name.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "cli/operands.h"

namespace ddtime {
namespace {

struct Parsed {
  ParseOutcome outcome;
  std::string err;
  const Extensions& ext() const { return outcome.settings.ext; }
  bool timing_report() const { return ext().timing_report(outcome.plan.latency); }
  bool ran() const { return outcome.action == ParseOutcome::Action::kRun; }
};

Parsed parse(std::initializer_list<std::string_view> args, Invocation invocation = Invocation::kDdtime) {
  std::vector<std::string> storage{"ddtime"};
  for (std::string_view arg : args) storage.emplace_back(arg);
  std::vector<const char*> argv;
  for (const std::string& arg : storage) argv.push_back(arg.c_str());
  argv.push_back(nullptr);
  Parsed run;
  const Diag diag("ddtime", true, [&run](std::string_view text) { run.err += text; });
  run.outcome = parse_operands(static_cast<int>(storage.size()), argv.data(), diag, invocation);
  return run;
}

TEST(OperandsExtensions, TimingReportIsOnByDefaultUnderTheNameDdtime) {
  Parsed run = parse({"if=/dev/zero", "count=1"});
  ASSERT_TRUE(run.ran());
  EXPECT_TRUE(run.timing_report());
  EXPECT_TRUE(run.ext().actionable_errors());
}

TEST(OperandsExtensions, GnuTurnsTheReportAndFriendlyErrorsOff) {
  Parsed run = parse({"--gnu", "count=1"});
  ASSERT_TRUE(run.ran());
  EXPECT_FALSE(run.timing_report());
  EXPECT_FALSE(run.ext().actionable_errors());
}

TEST(OperandsExtensions, InvokedAsDdNothingExtraUnlessAsked) {
  Parsed plain = parse({"count=1"}, Invocation::kDd);
  EXPECT_FALSE(plain.timing_report());
  EXPECT_FALSE(plain.ext().actionable_errors());
  Parsed asked = parse({"--units=iec", "count=1"}, Invocation::kDd);
  EXPECT_TRUE(asked.timing_report());
  EXPECT_FALSE(asked.ext().actionable_errors());
  Parsed latency = parse({"--latency", "count=1"}, Invocation::kDd);
  EXPECT_TRUE(latency.timing_report());
}

// Settings derived for a row or a pass are copies: what they answer comes
// from the invocation they carry, with nothing stored to go stale.
TEST(OperandsExtensions, ACopyOfTheSettingsAnswersAsTheInvocationDoes) {
  Parsed run = parse({"count=1"}, Invocation::kDd);
  Extensions copy = run.ext();
  EXPECT_FALSE(copy.timing_report(false));
  copy.gnu = false;
  copy.invocation = Invocation::kDdtime;
  EXPECT_TRUE(copy.timing_report(false));
  EXPECT_TRUE(copy.actionable_errors());
  copy.gnu = true;
  EXPECT_FALSE(copy.timing_report(true));
  EXPECT_FALSE(copy.actionable_errors());
}

TEST(OperandsExtensions, ExtensionsAreAcceptedAnywhereAmongOperands) {
  Parsed run = parse({"if=/dev/zero", "--split-times", "bs=1M", "--progress", "count=2", "--direct"});
  ASSERT_TRUE(run.ran()) << run.err;
  EXPECT_TRUE(run.ext().split_times);
  EXPECT_TRUE(run.ext().progress);
  EXPECT_TRUE(run.ext().direct);
  EXPECT_EQ(run.outcome.settings.ibs, 1 << 20);
  EXPECT_EQ(run.outcome.settings.max_records, 2);
}

TEST(OperandsExtensions, JsonTakesAnOptionalPath) {
  Parsed to_stderr = parse({"--json"});
  ASSERT_TRUE(to_stderr.ran());
  ASSERT_TRUE(to_stderr.outcome.plan.output("json"));
  EXPECT_TRUE(to_stderr.outcome.plan.on_stderr("json"));
  Parsed to_file = parse({"--json=/tmp/run.json"});
  ASSERT_TRUE(to_file.ran());
  ASSERT_TRUE(to_file.outcome.plan.output("json"));
  EXPECT_EQ(to_file.outcome.plan.output("json")->path, "/tmp/run.json");
}

TEST(OperandsExtensions, UnitsAcceptsTheFiveWordsOnly) {
  EXPECT_EQ(parse({"--units=si"}).ext().units, RateUnits::kSi);
  EXPECT_EQ(parse({"--units=iec"}).ext().units, RateUnits::kIec);
  EXPECT_EQ(parse({"--units=both"}).ext().units, RateUnits::kBoth);
  EXPECT_EQ(parse({"--units=bytes"}).ext().units, RateUnits::kBytes);
  EXPECT_EQ(parse({"--units=all"}).ext().units, RateUnits::kAll);
  Parsed bad = parse({"--units=kb"});
  EXPECT_EQ(bad.outcome.action, ParseOutcome::Action::kFail);
  EXPECT_EQ(bad.err,
            "ddtime: invalid argument ‘kb’ for ‘--units’\n"
            "Valid arguments are: si, iec, both, bytes, all\n"
            "Try 'ddtime --help' for more information.\n");
}

TEST(OperandsExtensions, AlignMustBeAPowerOfTwo) {
  EXPECT_EQ(parse({"--align=4096"}).ext().align, 4096u);
  EXPECT_EQ(parse({"--align=64K"}).ext().align, 65536u);
  EXPECT_EQ(parse({"--align=8"}).ext().align, 8u);
  // Below the size of a pointer posix_memalign refuses (defect 21).
  for (std::string_view bad :
       {"--align=3", "--align=0", "--align=x", "--align=4G", "--align=1", "--align=2", "--align=4"}) {
    Parsed run = parse({bad});
    EXPECT_EQ(run.outcome.action, ParseOutcome::Action::kFail) << bad;
    EXPECT_NE(run.err.find("invalid argument"), std::string::npos) << bad;
  }
}

TEST(OperandsExtensions, AlignBelowEightSaysWhatItTakes) {
  Parsed run = parse({"--align=4"});
  EXPECT_EQ(run.err,
            "ddtime: invalid argument ‘4’ for ‘--align’\n"
            "The alignment must be a power of two from 8 to 1G.\n"
            "Try 'ddtime --help' for more information.\n");
}

TEST(OperandsExtensions, ExtensionNamesAreNotAbbreviated) {
  Parsed run = parse({"--spl"});
  EXPECT_EQ(run.outcome.action, ParseOutcome::Action::kFail);
  EXPECT_EQ(run.err,
            "ddtime: unrecognized option '--spl'\n"
            "Try 'ddtime --help' for more information.\n");
}

TEST(OperandsExtensions, GnuAbbreviationsStillWork) {
  EXPECT_EQ(parse({"--h"}).outcome.action, ParseOutcome::Action::kPrintAndExit);
  EXPECT_EQ(parse({"--v"}).outcome.action, ParseOutcome::Action::kPrintAndExit);
}

TEST(OperandsExtensions, SwitchesRefuseAnArgument) {
  Parsed run = parse({"--gnu=yes"});
  EXPECT_EQ(run.outcome.action, ParseOutcome::Action::kFail);
  EXPECT_EQ(run.err,
            "ddtime: option '--gnu' doesn't allow an argument\n"
            "Try 'ddtime --help' for more information.\n");
}

}  // namespace
}  // namespace ddtime
