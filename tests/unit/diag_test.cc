// SPDX-License-Identifier: GPL-3.0-or-later
// Every expected string below is what GNU dd 9.1 printed for the same value:
// quote() through "dd bs=VALUE", quote_always() through "dd if=NAME" (failed
// to open ...), quote_if_needed() through "dd if=FIFO skip=1" (NAME: cannot
// skip to specified offset), each in C.UTF-8 and in LC_ALL=C.
#include "report/diag.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <string_view>
#include <vector>

namespace ddtime {
namespace {

struct Captured {
  std::vector<std::string> lines;
  Diag make(std::string program, bool utf8) {
    return Diag(std::move(program), utf8, [this](std::string_view text) { lines.emplace_back(text); });
  }
};

Diag silent(bool utf8) {
  return Diag("dd", utf8, [](std::string_view) {});
}

TEST(Diag, PrefixesMessagesWithTheProgramNameAsGiven) {
  Captured out;
  const Diag diag = out.make("/bin/dd", true);
  diag.error(0, "unrecognized operand \u2018foo\u2019");
  EXPECT_EQ(out.lines.at(0), "/bin/dd: unrecognized operand \u2018foo\u2019\n");
  EXPECT_EQ(diag.program(), "/bin/dd");
}

TEST(Diag, AppendsTheErrnoTextAfterAColon) {
  Captured out;
  const Diag diag = out.make("dd", true);
  diag.error(EOVERFLOW, "invalid number: {}", diag.quote("1Z"));
  diag.error(ENOENT, "failed to open {}", diag.quote_always("x"));
  EXPECT_EQ(out.lines.at(0), "dd: invalid number: \u20181Z\u2019: Value too large for defined data type\n");
  EXPECT_EQ(out.lines.at(1), "dd: failed to open 'x': No such file or directory\n");
}

TEST(Diag, HintsAtHelpWithAsciiQuotesInEveryLocale) {
  Captured out;
  out.make("my dd", true).try_help();
  out.make("", false).try_help();
  EXPECT_EQ(out.lines.at(0), "Try 'my dd --help' for more information.\n");
  EXPECT_EQ(out.lines.at(1), "Try ' --help' for more information.\n");
}

TEST(Diag, PassesRawTextThroughUntouched) {
  Captured out;
  out.make("dd", true).raw("0+0 records in\n");
  EXPECT_EQ(out.lines.at(0), "0+0 records in\n");
}

TEST(Diag, ReportsErrnoTextsInEnglish) {
  EXPECT_EQ(error_text(ENOENT), "No such file or directory");
  EXPECT_EQ(error_text(EOVERFLOW), "Value too large for defined data type");
  EXPECT_EQ(error_text(ESPIPE), "Illegal seek");
  EXPECT_EQ(error_text(EINVAL), "Invalid argument");
  EXPECT_EQ(error_text(12345), "Unknown error 12345");
}

TEST(Diag, QuotesWithCurlyQuotesUnderUtf8) {
  const Diag d = silent(true);
  EXPECT_EQ(d.quote("plain"), "\u2018plain\u2019");
  EXPECT_EQ(d.quote(""), "\u2018\u2019");
  EXPECT_EQ(d.quote("a b"), "\u2018a b\u2019");
  EXPECT_EQ(d.quote("it's"), "\u2018it's\u2019");
  EXPECT_EQ(d.quote("a\"b"), "\u2018a\"b\u2019");
  EXPECT_EQ(d.quote("a:b"), "\u2018a:b\u2019");
  EXPECT_EQ(d.quote("$x;*|&"), "\u2018$x;*|&\u2019");
  EXPECT_EQ(d.quote("\xc3\xa9t\xc3\xa9"), "\u2018\xc3\xa9t\xc3\xa9\u2019");
  EXPECT_EQ(d.quote("5\xc2\xa0"), "\u20185\xc2\xa0\u2019");
  EXPECT_EQ(d.quote("\xf0\x9f\x98\x80"), "\u2018\xf0\x9f\x98\x80\u2019");
}

TEST(Diag, EscapesControlsAndBackslashesInQuote) {
  const Diag d = silent(true);
  EXPECT_EQ(d.quote("new\nline"), "\u2018new\\nline\u2019");
  EXPECT_EQ(d.quote("tab\there"), "\u2018tab\\there\u2019");
  EXPECT_EQ(d.quote("ctl\x01x"), "\u2018ctl\\001x\u2019");
  EXPECT_EQ(d.quote("bell\a"), "\u2018bell\\a\u2019");
  EXPECT_EQ(d.quote("back\b"), "\u2018back\\b\u2019");
  EXPECT_EQ(d.quote("esc\x1b[0m"), "\u2018esc\\033[0m\u2019");
  EXPECT_EQ(d.quote("cr\r"), "\u2018cr\\r\u2019");
  EXPECT_EQ(d.quote("vt\vff\f"), "\u2018vt\\vff\\f\u2019");
  EXPECT_EQ(d.quote("\x7f"), "\u2018\\177\u2019");
  EXPECT_EQ(d.quote("a\\b"), "\u2018a\\\\b\u2019");
}

TEST(Diag, EscapesBytesThatAreNotPrintableUtf8) {
  const Diag d = silent(true);
  EXPECT_EQ(d.quote("\xff"), "\u2018\\377\u2019");
  EXPECT_EQ(d.quote("x\xc3"), "\u2018x\\303\u2019");
  EXPECT_EQ(d.quote("\xc2\x80"), "\u2018\\302\\200\u2019");           // C1 control
  EXPECT_EQ(d.quote("\xe2\x80\xa8"), "\u2018\\342\\200\\250\u2019");  // line separator
  EXPECT_EQ(d.quote("\xcd\xb8"), "\u2018\\315\\270\u2019");           // unassigned
  EXPECT_EQ(d.quote("\xef\xbf\xbf"), "\u2018\\357\\277\\277\u2019");  // noncharacter
  EXPECT_EQ(d.quote("\xed\xa0\x80"), "\u2018\\355\\240\\200\u2019");  // surrogate
  EXPECT_EQ(d.quote("\xc0\xaf"), "\u2018\\300\\257\u2019");           // overlong
  EXPECT_EQ(d.quote("\xe2\x82x"), "\u2018\\342\\202x\u2019");
  EXPECT_EQ(d.quote("\xff\xc3\xa9"), "\u2018\\377\xc3\xa9\u2019");
  // Printable although invisible or unusual.
  EXPECT_EQ(d.quote("\xe2\x80\x8b"), "\u2018\xe2\x80\x8b\u2019");
  EXPECT_EQ(d.quote("\xee\x80\x80"), "\u2018\xee\x80\x80\u2019");
  EXPECT_EQ(d.quote("\xc2\xad"), "\u2018\xc2\xad\u2019");
}

TEST(Diag, EscapesTheClosingQuoteInsideQuote) {
  EXPECT_EQ(silent(true).quote("\u2018q\u2019"), "\u2018\u2018q\\\u2019\u2019");
  EXPECT_EQ(silent(false).quote("it's"), "'it\\'s'");
  EXPECT_EQ(silent(false).quote("a'b c"), "'a\\'b c'");
}

TEST(Diag, QuotesWithAsciiQuotesAndOctalBytesUnderC) {
  const Diag d = silent(false);
  EXPECT_EQ(d.quote("plain"), "'plain'");
  EXPECT_EQ(d.quote(""), "''");
  EXPECT_EQ(d.quote("new\nline"), "'new\\nline'");
  EXPECT_EQ(d.quote("\xc3\xa9t\xc3\xa9"), "'\\303\\251t\\303\\251'");
  EXPECT_EQ(d.quote("\u2018q\u2019"), "'\\342\\200\\230q\\342\\200\\231'");
  EXPECT_EQ(d.quote("5\xc2\xa0"), "'5\\302\\240'");
}

TEST(Diag, AlwaysQuotesFileNamesForTheShell) {
  for (const bool utf8 : {true, false}) {
    const Diag d = silent(utf8);
    EXPECT_EQ(d.quote_always("plain"), "'plain'");
    EXPECT_EQ(d.quote_always(""), "''");
    EXPECT_EQ(d.quote_always("a b"), "'a b'");
    EXPECT_EQ(d.quote_always("a:b"), "'a:b'");
    EXPECT_EQ(d.quote_always("a\\b"), "'a\\b'");
    EXPECT_EQ(d.quote_always("a\"b"), "'a\"b'");
    EXPECT_EQ(d.quote_always("$x"), "'$x'");
    EXPECT_EQ(d.quote_always("standard output"), "'standard output'");
  }
}

TEST(Diag, SplitsControlCharactersIntoDollarQuotes) {
  for (const bool utf8 : {true, false}) {
    const Diag d = silent(utf8);
    EXPECT_EQ(d.quote_always("new\nline"), "'new'$'\\n''line'");
    EXPECT_EQ(d.quote_always("tab\there"), "'tab'$'\\t''here'");
    EXPECT_EQ(d.quote_always("ctl\x01x"), "'ctl'$'\\001''x'");
    EXPECT_EQ(d.quote_always("\x01x"), "''$'\\001''x'");
    EXPECT_EQ(d.quote_always("\n"), "''$'\\n'");
    EXPECT_EQ(d.quote_always("bell\a"), "'bell'$'\\a'");
    EXPECT_EQ(d.quote_always("esc\x1b[0m"), "'esc'$'\\033''[0m'");
    EXPECT_EQ(d.quote_always("vt\vff\f"), "'vt'$'\\v''ff'$'\\f'");
    EXPECT_EQ(d.quote_always("\x7f"), "''$'\\177'");
    EXPECT_EQ(d.quote_always("\xff"), "''$'\\377'");
    EXPECT_EQ(d.quote_always("x\xc3"), "'x'$'\\303'");
  }
}

TEST(Diag, KeepsPrintableUtf8OnlyUnderUtf8) {
  EXPECT_EQ(silent(true).quote_always("\xc3\xa9t\xc3\xa9"), "'\xc3\xa9t\xc3\xa9'");
  EXPECT_EQ(silent(false).quote_always("\xc3\xa9t\xc3\xa9"), "''$'\\303\\251''t'$'\\303\\251'");
  EXPECT_EQ(silent(true).quote_always("\xc2\x80"), "''$'\\302\\200'");
  EXPECT_EQ(silent(true).quote_always("x\xc3\xa9 y"), "'x\xc3\xa9 y'");
  EXPECT_EQ(silent(false).quote_always("x\xc3\xa9 y"), "'x'$'\\303\\251'' y'");
}

TEST(Diag, UsesDoubleQuotesForASingleQuoteWhenNothingElseNeedsEscaping) {
  for (const bool utf8 : {true, false}) {
    const Diag d = silent(utf8);
    EXPECT_EQ(d.quote_always("it's"), "\"it's\"");
    EXPECT_EQ(d.quote_always("a'b c"), "\"a'b c\"");
    EXPECT_EQ(d.quote_always("'"), "\"'\"");
    EXPECT_EQ(d.quote_always("x':"), "\"x':\"");
    EXPECT_EQ(d.quote_always("#'"), "\"#'\"");
  }
  EXPECT_EQ(silent(true).quote_always("it's \xc3\xa9"), "\"it's \xc3\xa9\"");
}

TEST(Diag, EscapesASingleQuoteWhenTheNameHasShellSpecials) {
  const Diag d = silent(true);
  EXPECT_EQ(d.quote_always("it's $x"), "'it'\\''s $x'");
  EXPECT_EQ(d.quote_always("it's \"x\""), "'it'\\''s \"x\"'");
  EXPECT_EQ(d.quote_always("it's\\"), "'it'\\''s\\'");
  EXPECT_EQ(d.quote_always("it's~"), "'it'\\''s~'");
  EXPECT_EQ(d.quote_always("x'{"), "'x'\\''{'");
  EXPECT_EQ(d.quote_always("x'="), "'x'\\''='");
  EXPECT_EQ(d.quote_always("a\nb'c"), "'a'$'\\n''b'\\''c'");
  EXPECT_EQ(d.quote_always("\n'"), "''$'\\n'\\'''");
}

TEST(Diag, ReproducesGnuDoubleOpeningWhenAQuotedNameEndsInAnEscape) {
  const Diag d = silent(true);
  EXPECT_EQ(d.quote_always("it's\n"), "'''it'\\''s'$'\\n'");
  EXPECT_EQ(d.quote_always("it's\xff"), "'''it'\\''s'$'\\377'");
  EXPECT_EQ(d.quote_always("x'\x01"), "'''x'\\'''$'\\001'");
  EXPECT_EQ(d.quote_always("a'b'\n"), "'''a'\\''b'\\'''$'\\n'");
  EXPECT_EQ(d.quote_always("'\n"), "''\\'''$'\\n'");
  EXPECT_EQ(d.quote_always("\n'\n"), "'\\n'\\'''$'\\n'");
  EXPECT_EQ(silent(false).quote_always("it's \xc3\xa9"), "'''it'\\''s '$'\\303\\251'");
  EXPECT_EQ(silent(false).quote_always("'\xc3\xa9"), "''\\'''$'\\303\\251'");
}

TEST(Diag, LeavesOrdinaryFileNamesBareWhenQuotingIfNeeded) {
  const Diag d = silent(true);
  for (std::string_view name : {"plain",
                                "x~",
                                "x#",
                                "-x",
                                "-",
                                "a{b",
                                "{}",
                                "a}b",
                                "a]b",
                                "%",
                                "@",
                                "+",
                                ",",
                                "a.b",
                                "a/b",
                                "a%b",
                                "a,b",
                                "a@b",
                                "a+b",
                                "a~b",
                                "a#",
                                "\xc3\xa9t\xc3\xa9",
                                "\xe2\x80\x8b",
                                "5\xc2\xa0",
                                "\u2018q\u2019"}) {
    EXPECT_EQ(d.quote_if_needed(name), name);
  }
}

TEST(Diag, QuotesFileNamesThatNeedItIncludingColons) {
  const Diag d = silent(true);
  EXPECT_EQ(d.quote_if_needed("standard input"), "'standard input'");
  EXPECT_EQ(d.quote_if_needed("a:b"), "'a:b'");
  EXPECT_EQ(d.quote_if_needed(":"), "':'");
  EXPECT_EQ(d.quote_if_needed("a="), "'a='");
  EXPECT_EQ(d.quote_if_needed("~x"), "'~x'");
  EXPECT_EQ(d.quote_if_needed("#x"), "'#x'");
  EXPECT_EQ(d.quote_if_needed("{"), "'{'");
  EXPECT_EQ(d.quote_if_needed("}"), "'}'");
  EXPECT_EQ(d.quote_if_needed("^"), "'^'");
  EXPECT_EQ(d.quote_if_needed("!"), "'!'");
  EXPECT_EQ(d.quote_if_needed("a)b"), "'a)b'");
  EXPECT_EQ(d.quote_if_needed("trail "), "'trail '");
  EXPECT_EQ(d.quote_if_needed("a`b"), "'a`b'");
  EXPECT_EQ(d.quote_if_needed("it's"), "\"it's\"");
  EXPECT_EQ(d.quote_if_needed("new\nline"), "'new'$'\\n''line'");
  EXPECT_EQ(d.quote_if_needed(""), "''");
  EXPECT_EQ(silent(false).quote_if_needed("\xc3\xa9t\xc3\xa9"), "''$'\\303\\251''t'$'\\303\\251'");
}

}  // namespace
}  // namespace ddtime
