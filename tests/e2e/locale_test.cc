// SPDX-License-Identifier: GPL-3.0-or-later
// Quoting of values and file names in diagnostics: ‘’ under a UTF-8 locale,
// '' under LC_ALL=C, and shell-style escaping of awkward file names.

#include <string>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

constexpr const char* kTryHelp = "Try 'dd --help' for more information.\n";

class Quoting : public DdTest {};

TEST_F(Quoting, InvalidNumberUsesAsciiQuotesInTheCLocale) {
  auto r = dd_c({"bs=foo"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: 'foo'\n");
}

TEST_F(Quoting, OverflowUsesAsciiQuotesInTheCLocale) {
  auto r = dd_c({"bs=99999999999999999999"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: invalid number: '99999999999999999999': "
            "Value too large for defined data type\n");
}

TEST_F(Quoting, UnknownOperandUsesAsciiQuotesInTheCLocale) {
  auto r = dd_c({"foo"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: unrecognized operand 'foo'\n") + kTryHelp);
}

TEST_F(Quoting, SymbolErrorsUseAsciiQuotesInTheCLocale) {
  auto conv = dd_c({"conv=foo"});
  EXPECT_EQ(conv.err, std::string("dd: invalid conversion: 'foo'\n") + kTryHelp);
  auto iflag = dd_c({"iflag=x"});
  EXPECT_EQ(iflag.err, std::string("dd: invalid input flag: 'x'\n") + kTryHelp);
  auto status = dd_c({"status=x"});
  EXPECT_EQ(status.err, std::string("dd: invalid status level: 'x'\n") + kTryHelp);
}

TEST_F(Quoting, ZeroMultiplierWarningUsesAsciiQuotesInTheCLocale) {
  auto r = dd_c({"bs=0x1"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: warning: '0x' is a zero multiplier; use '00x' if that is intended\n"
            "dd: invalid number: '0x1'\n");
}

TEST_F(Quoting, FileNamesUseAsciiQuotesInEveryLocale) {
  auto utf8 = dd({"if=nope"});
  EXPECT_EQ(utf8.err, "dd: failed to open 'nope': No such file or directory\n");
  auto c = dd_c({"if=nope"});
  EXPECT_EQ(c.err, "dd: failed to open 'nope': No such file or directory\n");
}

TEST_F(Quoting, ValuesWithControlCharactersAreEscaped) {
  auto r = dd({"bs=a\tb"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘a\\tb’\n");
}

TEST_F(Quoting, NonAsciiValueIsKeptInUtf8) {
  auto r = dd({"bs=é"});
  EXPECT_EQ(r.err, "dd: invalid number: ‘é’\n");
}

TEST_F(Quoting, NonAsciiValueIsOctalEscapedInTheCLocale) {
  auto r = dd_c({"bs=é"});
  EXPECT_EQ(r.err, "dd: invalid number: '\\303\\251'\n");
}

TEST_F(Quoting, InvalidUtf8ValueIsOctalEscaped) {
  auto r = dd({"bs=\xff"});
  EXPECT_EQ(r.err, "dd: invalid number: ‘\\377’\n");
}

TEST_F(Quoting, FileNameWithASpaceIsSingleQuoted) {
  auto r = dd({"if=a b"});
  EXPECT_EQ(r.err, "dd: failed to open 'a b': No such file or directory\n");
}

TEST_F(Quoting, FileNameWithATabIsShellEscaped) {
  auto r = dd({"if=a\tb"});
  EXPECT_EQ(r.err, "dd: failed to open 'a'$'\\t''b': No such file or directory\n");
}

TEST_F(Quoting, FileNameWithANewlineIsShellEscaped) {
  auto r = dd({"if=a\nb"});
  EXPECT_EQ(r.err, "dd: failed to open 'a'$'\\n''b': No such file or directory\n");
}

TEST_F(Quoting, FileNameWithAnApostropheIsDoubleQuoted) {
  auto r = dd({"if=a'b"});
  EXPECT_EQ(r.err, "dd: failed to open \"a'b\": No such file or directory\n");
}

TEST_F(Quoting, FileNameWithApostropheAndDoubleQuotes) {
  auto r = dd({"if=it's \"x\""});
  EXPECT_EQ(r.err, "dd: failed to open 'it'\\''s \"x\"': No such file or directory\n");
}

TEST_F(Quoting, FileNameWithADollarIsSingleQuoted) {
  auto r = dd({"if=$x"});
  EXPECT_EQ(r.err, "dd: failed to open '$x': No such file or directory\n");
}

TEST_F(Quoting, NonAsciiFileNameIsKeptInUtf8) {
  auto r = dd({"if=é"});
  EXPECT_EQ(r.err, "dd: failed to open 'é': No such file or directory\n");
}

TEST_F(Quoting, NonAsciiFileNameIsEscapedInTheCLocale) {
  auto r = dd_c({"if=é"});
  EXPECT_EQ(r.err, "dd: failed to open ''$'\\303\\251': No such file or directory\n");
}

TEST_F(Quoting, InvalidUtf8FileNameIsEscaped) {
  auto r = dd({"if=\xff"});
  EXPECT_EQ(r.err, "dd: failed to open ''$'\\377': No such file or directory\n");
}

TEST_F(Quoting, PlainFileNameLeadingAMessageIsNotQuoted) {
  write_file("x.y", "abc");
  auto r = dd({"if=x.y", "skip=1", "status=noxfer"});
  EXPECT_EQ(r.err, "dd: x.y: cannot skip to specified offset\n0+0 records in\n0+0 records out\n");
}

TEST_F(Quoting, FileNameWithAColonIsQuotedWhenLeadingAMessage) {
  write_file("x:y", "abc");
  auto r = dd({"if=x:y", "skip=1", "status=noxfer"});
  EXPECT_EQ(r.err, "dd: 'x:y': cannot skip to specified offset\n0+0 records in\n0+0 records out\n");
}

TEST_F(Quoting, FileNameWithAColonIsQuotedInOpenErrorsToo) {
  auto r = dd({"if=x:y"});
  EXPECT_EQ(r.err, "dd: failed to open 'x:y': No such file or directory\n");
}

TEST_F(Quoting, EscapedFileNameLeadingAMessage) {
  write_file("a\tb", "xyz");
  auto r = dd({"if=a\tb", "skip=9", "bs=1", "status=noxfer"});
  EXPECT_EQ(r.err, "dd: 'a'$'\\t''b': cannot skip to specified offset\n0+0 records in\n0+0 records out\n");
}

}  // namespace
}  // namespace ddtime::e2e
