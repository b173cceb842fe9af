// SPDX-License-Identifier: GPL-3.0-or-later
// The SVG writer: XML 1.0's escaping, what XML cannot carry replaced, and
// numbers that no locale or non-finite value can spoil.
#include "report/svg.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <limits>
#include <string>

namespace ddtime {
namespace {

const std::string kReplacement = "\xef\xbf\xbd";

TEST(SvgEscape, EscapesEachOfXmlsFiveSpecialCharacters) {
  EXPECT_EQ(svg_escape("&"), "&amp;");
  EXPECT_EQ(svg_escape("<"), "&lt;");
  EXPECT_EQ(svg_escape(">"), "&gt;");
  EXPECT_EQ(svg_escape("\""), "&quot;");
  EXPECT_EQ(svg_escape("'"), "&apos;");
  EXPECT_EQ(svg_escape("if=a&b <of=\"c'd\">"), "if=a&amp;b &lt;of=&quot;c&apos;d&quot;&gt;");
}

TEST(SvgEscape, KeepsTabNewlineAndCarriageReturnAndReplacesOtherControlCharacters) {
  EXPECT_EQ(svg_escape("a\tb\nc\rd"), "a\tb\nc\rd");
  EXPECT_EQ(svg_escape(std::string("a\0b", 3)), "a" + kReplacement + "b");
  EXPECT_EQ(svg_escape("\x01\x1b[0m\x1f"), kReplacement + kReplacement + "[0m" + kReplacement);
}

TEST(SvgEscape, KeepsValidUtf8AndReplacesEachInvalidByte) {
  EXPECT_EQ(svg_escape("µs ‘x’ ×"), "µs ‘x’ ×");
  EXPECT_EQ(svg_escape("a\xff"
                       "b"),
            "a" + kReplacement + "b");
  EXPECT_EQ(svg_escape("\xc3"), kReplacement);                                        // cut short
  EXPECT_EQ(svg_escape("\xc0\xaf"), kReplacement + kReplacement);                     // overlong '/'
  EXPECT_EQ(svg_escape("\xed\xa0\x80"), kReplacement + kReplacement + kReplacement);  // a surrogate
}

TEST(SvgEscape, ReplacesTheTwoNoncharactersXmlForbids) {
  EXPECT_EQ(svg_escape("\xef\xbf\xbe"), kReplacement);  // U+FFFE
  EXPECT_EQ(svg_escape("\xef\xbf\xbf"), kReplacement);  // U+FFFF
}

TEST(SvgEscape, EscapesLongTextWhole) {
  std::string text;
  for (int i = 0; i < 10000; ++i) text += "<&>";
  const std::string escaped = svg_escape(text);
  EXPECT_EQ(escaped.size(), 10000u * std::string("&lt;&amp;&gt;").size());
  EXPECT_EQ(escaped.find('<'), std::string::npos);
}

TEST(SvgNumber, WritesFixedDecimalsWithAPointWhateverTheLocale) {
  EXPECT_EQ(svg_number(1.5, 1), "1.5");
  EXPECT_EQ(svg_number(1234567.891, 2), "1234567.89");
  EXPECT_EQ(svg_number(2, 0), "2");
  // A locale with a decimal comma, where one is installed.
  if (std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr || std::setlocale(LC_ALL, "fr_FR.UTF-8") != nullptr) {
    EXPECT_EQ(svg_number(1.5, 1), "1.5");
    std::setlocale(LC_ALL, "C");
  }
}

TEST(SvgNumber, WritesZeroForWhatIsNotFiniteAndForNegativeZero) {
  EXPECT_EQ(svg_number(std::numeric_limits<double>::quiet_NaN(), 1), "0.0");
  EXPECT_EQ(svg_number(std::numeric_limits<double>::infinity(), 2), "0.00");
  EXPECT_EQ(svg_number(-std::numeric_limits<double>::infinity(), 0), "0");
  EXPECT_EQ(svg_number(-0.0, 1), "0.0");
  EXPECT_EQ(svg_number(-0.01, 1), "0.0");
  EXPECT_EQ(svg_number(-2.5, 1), "-2.5");
}

TEST(SvgFit, CutsLongTextToItsCharactersWithAnEllipsisNeverInsideASequence) {
  EXPECT_EQ(svg_fit("short", 10), "short");
  EXPECT_EQ(svg_fit("abcdefgh", 5), "abcd…");
  EXPECT_EQ(svg_fit("µµµµµµ", 4), "µµµ…");
  EXPECT_EQ(svg_fit("abc", 0), "");
}

TEST(SvgDocument, WritesAClosedDocumentOfItsSizeWithItsStyleEmbedded) {
  SvgDocument svg(800, 424);
  svg.open_group({{"class", "panel"}});
  svg.rect(10, 20, 30.3, -5, "bar");
  svg.text(1, 2, "a<b", "label", SvgAnchor::kMiddle);
  const std::string xml = svg.finish();
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0u);
  EXPECT_NE(xml.find("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"424\" viewBox=\"0 0 800 424\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<style>"), std::string::npos);
  EXPECT_NE(xml.find("font-family:sans-serif"), std::string::npos);
  // A negative height is drawn as none, which SVG allows.
  EXPECT_NE(xml.find("<rect x=\"10.0\" y=\"20.0\" width=\"30.3\" height=\"0.0\" class=\"bar\"/>"), std::string::npos);
  EXPECT_NE(xml.find(">a&lt;b</text>"), std::string::npos);
  EXPECT_NE(xml.find("</g>\n</svg>\n"), std::string::npos);  // the open group closed
  // Self-contained: nothing is fetched from elsewhere.
  EXPECT_EQ(xml.find("href"), std::string::npos);
  EXPECT_EQ(xml.find("@import"), std::string::npos);
  EXPECT_EQ(xml.find("url("), std::string::npos);
}

TEST(SvgDocument, EscapesAttributeValues) {
  SvgDocument svg(10, 10);
  svg.element("circle", {{"class", "a\"b'c&d"}});
  EXPECT_NE(svg.finish().find("<circle class=\"a&quot;b&apos;c&amp;d\"/>"), std::string::npos);
}

TEST(SvgTextWidth, IsAnUpperBoundThatCountsCapitalsWiderAndMonospaceEvenly) {
  EXPECT_DOUBLE_EQ(svg_text_width("ab", 10), 13);
  EXPECT_DOUBLE_EQ(svg_text_width("AB", 10), 16);
  EXPECT_DOUBLE_EQ(svg_text_width("MW", 10), 20);
  EXPECT_DOUBLE_EQ(svg_text_width("ab", 10, true), 13 * 1.12);
  EXPECT_DOUBLE_EQ(svg_text_width("MW i", 10, false, true), 24);
  EXPECT_DOUBLE_EQ(svg_text_width("\xc2\xb5", 10), 10);  // one character, not two bytes
}

TEST(SvgWrap, BreaksBetweenPhrasesAndInsideOnlyAPhraseWiderThanALine) {
  const std::vector<std::string> lines = svg_wrap(std::vector<std::string>{"bs=1M", "depth 1"}, 60, 10);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "bs=1M");
  EXPECT_EQ(lines[1], "depth 1");
  EXPECT_EQ(svg_wrap("a b c", 100, 10), std::vector<std::string>{"a b c"});
  EXPECT_EQ(svg_wrap("aaaaaaaa", 26, 10), (std::vector<std::string>{"aaaa", "aaaa"}));
  EXPECT_TRUE(svg_wrap("", 100, 10).empty());
}

}  // namespace
}  // namespace ddtime
