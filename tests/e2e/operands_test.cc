// SPDX-License-Identifier: GPL-3.0-or-later
// Command-line handling: key=value operands, their precedence, the two
// options (--help, --version) with getopt_long's abbreviations, and the exact
// diagnostics for everything that is not understood.

#include <ostream>
#include <string>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

constexpr const char* kTryHelp = "Try 'dd --help' for more information.\n";
constexpr const char* kAlphabet = "abcdefghijklmnopqrstuvwxyz";

class Operands : public DdTest {};
class LongOptions : public DdTest {};  // --help / --version / getopt errors

// --- precedence ---

TEST_F(Operands, LaterBlockSizeOverridesEarlier) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "of=/dev/null", "bs=2", "bs=5"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "5+1 records in\n5+1 records out\n26 bytes copied, <T> s, <R>\n");
}

TEST_F(Operands, LaterCountOverridesEarlier) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "count=1", "count=2", "bs=3"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcdef");
}

TEST_F(Operands, LaterInputFileOverridesEarlier) {
  write_file("in", "data");
  auto r = dd({"if=missing", "if=in", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "data");
}

TEST_F(Operands, BsOverridesIbsAndObsWhicheverComesFirst) {
  write_file("in", kAlphabet);
  for (auto args :
       {std::vector<std::string>{"bs=4", "ibs=2", "obs=3"}, std::vector<std::string>{"ibs=2", "obs=3", "bs=4"}}) {
    args.insert(args.begin(), {"if=in", "of=/dev/null"});
    auto r = dd(args);
    EXPECT_STATUS(r, "exit 0");
    EXPECT_EQ(r.err_masked(), "6+1 records in\n6+1 records out\n26 bytes copied, <T> s, <R>\n");
  }
}

TEST_F(Operands, IbsAndObsCountRecordsSeparately) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "ibs=3", "obs=5"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, kAlphabet);
  EXPECT_EQ(r.err_masked(), "8+1 records in\n5+1 records out\n26 bytes copied, <T> s, <R>\n");
}

TEST_F(Operands, IseekIsSkip) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "iseek=3", "bs=2", "count=2", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ghij");
}

TEST_F(Operands, LaterOfIseekAndSkipWins) {
  write_file("in", kAlphabet);
  auto a = dd({"if=in", "iseek=3", "skip=1", "bs=2", "count=2", "status=none"});
  EXPECT_EQ(a.out, "cdef");
  auto b = dd({"if=in", "skip=3", "iseek=1", "bs=2", "count=2", "status=none"});
  EXPECT_EQ(b.out, "cdef");
}

TEST_F(Operands, OseekIsSeek) {
  write_file("out", "0123456789");
  auto r = dd_in("AB", {"of=out", "oseek=2", "bs=2", "conv=notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "0123AB6789");
}

TEST_F(Operands, LaterOfSeekAndOseekWins) {
  write_file("out", "0123456789");
  auto r = dd_in("AB", {"of=out", "seek=1", "oseek=3", "bs=2", "conv=notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "012345AB89");
}

TEST_F(Operands, FlagOperandsAccumulate) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "iflag=skip_bytes", "skip=2", "iflag=count_bytes", "count=3", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "cde");
}

TEST_F(Operands, ConvOperandsAccumulateIntoConflicts) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "conv=ascii", "conv=ebcdic"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: cannot combine any two of {ascii,ebcdic,ibm}\n");
}

TEST_F(Operands, StatusTakesTheLastOfACommaList) {
  write_file("in", kAlphabet);
  auto none = dd({"if=in", "of=/dev/null", "status=noxfer,none"});
  EXPECT_EQ(none.err, "");
  auto noxfer = dd({"if=in", "of=/dev/null", "status=none,noxfer"});
  EXPECT_EQ(noxfer.err, "0+1 records in\n0+1 records out\n");
  auto dflt = dd({"if=in", "of=/dev/null", "status=none,progress"});
  EXPECT_EQ(dflt.err_masked(), "0+1 records in\n0+1 records out\n26 bytes copied, <T> s, <R>\n");
}

TEST_F(Operands, DoubleDashEndsOptions) {
  write_file("in", "xyz");
  auto r = dd({"--", "if=in", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "xyz");
}

TEST_F(Operands, OperandsAfterDoubleDashAreStillChecked) {
  auto r = dd({"--", "bs=x"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘x’\n");
}

TEST_F(Operands, EmptyInputFileNameFailsToOpen) {
  auto r = dd({"if="});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open '': No such file or directory\n");
}

TEST_F(Operands, EmptyOutputFileNameFailsToOpen) {
  auto r = dd({"of="});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open '': No such file or directory\n");
}

// --- unrecognized operands ---

struct BadOperand {
  const char* name;
  const char* arg;
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const BadOperand& c) { return os << c.name; }
};

class OperandsUnrecognized : public DdTest, public ::testing::WithParamInterface<BadOperand> {};

TEST_P(OperandsUnrecognized, IsRejectedWithHelpHint) {
  auto r = dd({"if=/dev/null", "of=/dev/null", GetParam().arg});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: unrecognized operand ‘") + GetParam().arg + "’\n" + kTryHelp);
  EXPECT_EQ(r.out, "");
}

INSTANTIATE_TEST_SUITE_P(Unknown, OperandsUnrecognized,
                         ::testing::Values(BadOperand{"UnknownKey", "foo=1"}, BadOperand{"NoEquals", "foo"},
                                           BadOperand{"KnownKeyWithoutEquals", "count"}, BadOperand{"EmptyKey", "=x"},
                                           BadOperand{"KeysAreCaseSensitive", "IF=in"},
                                           BadOperand{"SpaceBeforeEquals", "if =in"}, BadOperand{"LoneDash", "-"}),
                         ParamName());

// --- symbol lists ---

TEST_F(Operands, UnknownConversion) {
  auto r = dd({"conv=ascii,foo"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid conversion: ‘foo’\n") + kTryHelp);
}

TEST_F(Operands, EmptyConversion) {
  auto r = dd({"conv="});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid conversion: ‘’\n") + kTryHelp);
}

TEST_F(Operands, EmptyItemInConversionList) {
  auto lead = dd({"conv=,ascii"});
  EXPECT_STATUS(lead, "exit 1");
  EXPECT_EQ(lead.err, std::string("dd: invalid conversion: ‘’\n") + kTryHelp);
  auto trail = dd({"conv=ascii,"});
  EXPECT_STATUS(trail, "exit 1");
  EXPECT_EQ(trail.err, std::string("dd: invalid conversion: ‘’\n") + kTryHelp);
}

TEST_F(Operands, ConversionNamesAreCaseSensitive) {
  auto r = dd({"conv=ASCII"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid conversion: ‘ASCII’\n") + kTryHelp);
}

TEST_F(Operands, UnknownInputFlag) {
  auto r = dd({"iflag=directory,foo"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid input flag: ‘foo’\n") + kTryHelp);
}

TEST_F(Operands, EmptyInputFlag) {
  auto r = dd({"iflag="});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid input flag: ‘’\n") + kTryHelp);
}

TEST_F(Operands, UnknownOutputFlag) {
  auto r = dd({"oflag=foo"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid output flag: ‘foo’\n") + kTryHelp);
}

TEST_F(Operands, UnknownStatusLevel) {
  auto r = dd({"status=progres"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid status level: ‘progres’\n") + kTryHelp);
}

TEST_F(Operands, EmptyStatusLevel) {
  auto r = dd({"status="});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid status level: ‘’\n") + kTryHelp);
}

TEST_F(Operands, BadItemAnywhereInStatusList) {
  auto r = dd({"status=none,foo"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid status level: ‘foo’\n") + kTryHelp);
}

// --- options ---

TEST_F(LongOptions, HelpPrintsUsageToStdout) {
  auto r = dd({"--help"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_TRUE(r.out.starts_with("Usage: dd")) << r.describe();
  EXPECT_EQ(r.err, "");
}

TEST_F(LongOptions, HelpAbbreviations) {
  for (const char* arg : {"--h", "--he", "--hel"}) {
    auto r = dd({arg});
    EXPECT_STATUS(r, "exit 0");
    EXPECT_TRUE(r.out.starts_with("Usage: dd")) << arg << "\n" << r.describe();
  }
}

TEST_F(LongOptions, HelpWinsOverTrailingOperands) {
  auto r = dd({"--help", "extra"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_TRUE(r.out.starts_with("Usage: dd")) << r.describe();
}

TEST_F(LongOptions, HelpAfterOperandsStillHelps) {
  auto r = dd({"if=missing", "--help"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_TRUE(r.out.starts_with("Usage: dd")) << r.describe();
}

TEST_F(LongOptions, HelpWinsOverABadOperand) {
  auto r = dd({"conv=foo", "--help"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_TRUE(r.out.starts_with("Usage: dd")) << r.describe();
  EXPECT_EQ(r.err, "");
}

TEST_F(LongOptions, FirstOfHelpAndVersionWins) {
  auto help = dd({"--help", "--version"});
  EXPECT_STATUS(help, "exit 0");
  EXPECT_TRUE(help.out.starts_with("Usage: dd")) << help.describe();
  auto version = dd({"--version", "--help"});
  EXPECT_STATUS(version, "exit 0");
  EXPECT_FALSE(version.out.starts_with("Usage:")) << version.describe();
  EXPECT_FALSE(version.out.empty());
}

TEST_F(LongOptions, VersionPrintsSomething) {
  auto r = dd({"--version"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_FALSE(r.out.empty());
  EXPECT_EQ(r.err, "");
}

// Scripts check dd's first --version line: `grep -q coreutils`, or its last
// word compared with 8.24 before using status=progress (defect C4).
TEST_F(LongOptions, VersionAsDdKeepsGnusFirstLineShape) {
  auto r = dd({"--version"});
  EXPECT_STATUS(r, "exit 0");
  const std::string first = r.out.substr(0, r.out.find('\n'));
  EXPECT_TRUE(first.starts_with("dd (")) << first;
  EXPECT_NE(first.find("coreutils"), std::string::npos) << first;
  EXPECT_TRUE(first.ends_with(" 9.1")) << first;
}

TEST_F(LongOptions, VersionAsDdSaysItIsDdtime) {
  SKIP_IF_ANOTHER_DD();
  auto r = dd({"--version"});
  const std::string first = r.out.substr(0, r.out.find('\n'));
  EXPECT_NE(first.find("ddtime"), std::string::npos) << first;
  auto own = ddtime({"--version"});
  EXPECT_STATUS(own, "exit 0");
  EXPECT_TRUE(own.out.starts_with("ddtime ")) << own.describe();
}

TEST_F(LongOptions, VersionAbbreviations) {
  for (const char* arg : {"--v", "--ver", "--versio"}) {
    auto r = dd({arg});
    EXPECT_STATUS(r, "exit 0");
    EXPECT_FALSE(r.out.empty()) << arg;
    EXPECT_FALSE(r.out.starts_with("Usage:")) << arg;
  }
}

TEST_F(LongOptions, VersionWinsOverTrailingOperands) {
  auto r = dd({"--version", "extra"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_FALSE(r.out.empty());
}

TEST_F(LongOptions, HelpAfterDoubleDashIsAnOperand) {
  auto r = dd({"--", "--help"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, std::string("dd: unrecognized operand ‘--help’\n") + kTryHelp);
}

TEST_F(LongOptions, VersionAfterDoubleDashIsAnOperand) {
  auto r = dd({"--", "--version"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: unrecognized operand ‘--version’\n") + kTryHelp);
}

TEST_F(LongOptions, DashOptionAfterDoubleDashIsAnOperand) {
  auto r = dd({"--", "-x"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: unrecognized operand ‘-x’\n") + kTryHelp);
}

TEST_F(LongOptions, VersionTakesNoArgument) {
  auto r = dd({"--version=x"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, std::string("dd: option '--version' doesn't allow an argument\n") + kTryHelp);
}

TEST_F(LongOptions, AbbreviatedVersionWithArgumentNamesTheFullOption) {
  auto r = dd({"--v=1"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: option '--version' doesn't allow an argument\n") + kTryHelp);
}

TEST_F(LongOptions, HelpTakesNoArgument) {
  auto r = dd({"--he=x"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, std::string("dd: option '--help' doesn't allow an argument\n") + kTryHelp);
}

TEST_F(LongOptions, UnknownLongOption) {
  auto r = dd({"--foo"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: unrecognized option '--foo'\n") + kTryHelp);
}

TEST_F(LongOptions, LongOptionWithExtraLettersIsUnknown) {
  auto r = dd({"--helpx"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: unrecognized option '--helpx'\n") + kTryHelp);
}

TEST_F(LongOptions, TripleDashIsAnUnknownOption) {
  auto r = dd({"---"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: unrecognized option '---'\n") + kTryHelp);
}

TEST_F(LongOptions, EmptyLongOptionNameIsAmbiguous) {
  auto r = dd({"--=x"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: option '--=x' is ambiguous; possibilities: '--help' "
                               "'--version'\n") +
                       kTryHelp);
}

TEST_F(LongOptions, UnknownShortOption) {
  auto r = dd({"-x"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid option -- 'x'\n") + kTryHelp);
}

TEST_F(LongOptions, ThereAreNoShortHelpOrVersionOptions) {
  auto h = dd({"-h"});
  EXPECT_STATUS(h, "exit 1");
  EXPECT_EQ(h.err, std::string("dd: invalid option -- 'h'\n") + kTryHelp);
  auto v = dd({"-v"});
  EXPECT_STATUS(v, "exit 1");
  EXPECT_EQ(v.err, std::string("dd: invalid option -- 'v'\n") + kTryHelp);
}

TEST_F(LongOptions, BadOptionIsReportedBeforeBadOperands) {
  auto r = dd({"bs=x", "--foo"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: unrecognized option '--foo'\n") + kTryHelp);
}

}  // namespace
}  // namespace ddtime::e2e
