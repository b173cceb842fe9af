// SPDX-License-Identifier: GPL-3.0-or-later
// The JSON writer: syntax placed by the writer, never by its callers.
// Expected texts are written out by hand from RFC 8259.
#include "report/json.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <utility>

namespace ddtime::json {
namespace {

std::string written(std::string_view text) {
  Writer out;
  out.string(text);
  return out.text();
}

TEST(JsonWriter, WritesEmptyContainers) {
  Writer object;
  object.object();
  EXPECT_EQ(object.text(), "{}");
  Writer array;
  array.array();
  EXPECT_EQ(array.text(), "[]");
}

TEST(JsonWriter, PutsCommasBetweenMembersAndItemsOnly) {
  Writer out;
  {
    Object root = out.object();
    root.integer("a", 1).string("b", "x").boolean("c", true).boolean("d", false).null("e");
    Array list = root.array("list");
    list.integer(1).string("two").null().boolean(false);
  }
  EXPECT_EQ(out.text(), R"({"a":1,"b":"x","c":true,"d":false,"e":null,"list":[1,"two",null,false]})");
}

TEST(JsonWriter, NestsObjectsAndArraysAndClosesEachWhenItGoes) {
  Writer out;
  {
    Object root = out.object();
    {
      Object skip = root.object("skip");
      skip.integer("records", 0).integer("bytes", 7);
    }
    {
      Array runs = root.array("runs");
      runs.object().integer("bs", 512);
      runs.object();
      runs.array().array();
      runs.integer(3);
    }
    root.object("empty");
    root.string("last", "z");
  }
  EXPECT_EQ(out.text(), R"({"skip":{"records":0,"bytes":7},"runs":[{"bs":512},{},[[]],3],"empty":{},"last":"z"})");
}

TEST(JsonWriter, AMovedContainerClosesOnce) {
  Writer out;
  {
    Object root = out.object();
    Array moved = root.array("a");
    Array owner = std::move(moved);
    owner.integer(1);
  }
  EXPECT_EQ(out.text(), R"({"a":[1]})");
}

TEST(JsonWriter, ContainersHandedToAFunctionCloseWhenItReturns) {
  const auto fill = [](Object object) { object.integer("n", 1); };
  Writer out;
  {
    Object root = out.object();
    fill(root.object("first"));
    fill(root.object("second"));
  }
  EXPECT_EQ(out.text(), R"({"first":{"n":1},"second":{"n":1}})");
}

TEST(JsonWriter, WritesIntegersAcrossTheInt64Range) {
  Writer out;
  out.array()
      .integer(0)
      .integer(-1)
      .integer(std::numeric_limits<std::int64_t>::max())
      .integer(std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(out.text(), "[0,-1,9223372036854775807,-9223372036854775808]");
}

TEST(JsonWriter, WritesExactDecimalsWithoutTheFractionsTrailingZeros) {
  Writer out;
  out.array()
      .decimal({81'300'000, 9})
      .decimal({1, 9, true})
      .decimal({12'345, 3})
      .decimal({7, 0})
      .decimal({0, 3})
      .decimal({2'000'000'000, 9})
      .decimal({Decimal{}.units - 1, 3});  // 2^128 - 1 thousandths
  EXPECT_EQ(out.text(), "[0.0813,-0.000000001,12.345,7,0,2,340282366920938463463374607431768211.455]");
}

// B5: fixed-point wrote a p of 1e-40 as 0.000000 and a rate of 1e300 as
// 0.000 (an overflow of __int128).
TEST(JsonWriter, WritesMeasuredFiguresInTheShortestFormThatReadsBack) {
  Writer out;
  out.array()
      .decimal(rounded(1e-40, 6))
      .decimal(rounded(4.1135e-05, 6))
      .decimal(rounded(1.7e300, 3))
      .decimal(rounded(0.1, 3))
      .decimal(rounded(26330815116.333, 3))
      .decimal(rounded(1234567.891234, 3))
      .decimal(real(std::numeric_limits<double>::infinity()))
      .decimal(real(std::nan("")))
      .decimal(real(-2.5));
  EXPECT_EQ(out.text(), "[1e-40,4.1135e-05,1.7e+300,0.1,26330815116.333,1234567.891234,null,null,-2.5]");
}

TEST(JsonWriter, ShortestTextReadsBackAsTheSameDoubleForRandomValues) {
  std::mt19937_64 random(5);
  for (int i = 0; i < 20000; ++i) {
    const double value = std::bit_cast<double>(random() & ~(std::uint64_t{1} << 63));
    if (!std::isfinite(value)) continue;
    const std::string text = shortest(value);
    ASSERT_EQ(std::strtod(text.c_str(), nullptr), value) << text;
  }
}

TEST(JsonWriter, EscapesQuotesAndBackslashesAndNothingElsePrintable) {
  EXPECT_EQ(written(""), R"("")");
  EXPECT_EQ(written(R"(a"b\c/d e~)"), R"("a\"b\\c/d e~")");
}

TEST(JsonWriter, EscapesControlCharactersAsUnicode) {
  EXPECT_EQ(written(std::string("\0\x01\b\t\n\x0b\f\r\x1b\x1f", 10)),
            R"("\u0000\u0001\u0008\u0009\u000a\u000b\u000c\u000d\u001b\u001f")");
  EXPECT_EQ(written("del\x7f"), R"("del\u007f")");
}

TEST(JsonWriter, PassesValidUtf8ThroughUnescaped) {
  EXPECT_EQ(written("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");

  EXPECT_EQ(written("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");  // U+10FFFF
}

// Issue 28, rule 7: a JSON document printed to a terminal carries no
// code point that turns or hides the text after it; \u escapes read back
// as the same string.
TEST(JsonWriter, EscapesC1ControlsAndBidiOverrides) {
  EXPECT_EQ(written("\xc2\x80\xc2\x9f"), R"("\u0080\u009f")");
  EXPECT_EQ(written("a\xe2\x80\xae"
                    "b\xe2\x81\xa6"
                    "c\xe2\x80\xa8"),
            R"("a\u202eb\u2066c\u2028")");
  EXPECT_EQ(written("\xc2\xa0\xe2\x80\xa9"), "\"\xc2\xa0\\u2029\"");  // U+00A0 stays
}

// Defect 32: a byte that is no part of valid UTF-8 reads back as U+FFFD,
// never as the Latin-1 character that would name another file.
TEST(JsonWriter, ReplacesEachByteThatIsNotPartOfValidUtf8) {
  EXPECT_EQ(written("\xff\xfe"), R"("\ufffd\ufffd")");
  EXPECT_EQ(written("a\x80z"), R"("a\ufffdz")");                            // stray continuation
  EXPECT_EQ(written("\xc0\xaf"), R"("\ufffd\ufffd")");                      // overlong '/'
  EXPECT_EQ(written("\xe0\x9f\xbf"), R"("\ufffd\ufffd\ufffd")");            // overlong U+07FF
  EXPECT_EQ(written("\xed\xbf\xbf"), R"("\ufffd\ufffd\ufffd")");            // U+DFFF, a surrogate
  EXPECT_EQ(written("\xf4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");  // U+110000
  EXPECT_EQ(written("\xf8\x88\x80\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd\ufffd")");
  // Cut short, by the end or by a byte that does not continue it: only the
  // bytes of the broken sequence are replaced.
  EXPECT_EQ(written("\xf0\x9f\x98"), R"("\ufffd\ufffd\ufffd")");
  EXPECT_EQ(written("\xe2\x82\xc3\xa9"), "\"\\ufffd\\ufffd\xc3\xa9\"");
  EXPECT_EQ(written("\xe2\x82z"), R"("\ufffd\ufffdz")");
}

TEST(JsonWriter, QuotesAndEscapesKeysLikeValues) {
  Writer out;
  out.object().string("a\"b\n\xff", "v");
  EXPECT_EQ(out.text(), R"({"a\"b\u000a\ufffd":"v"})");
}

}  // namespace
}  // namespace ddtime::json
