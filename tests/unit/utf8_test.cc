// SPDX-License-Identifier: GPL-3.0-or-later
// decode_utf8 against RFC 3629's table of well-formed sequences.
#include "model/utf8.h"

#include <gtest/gtest.h>

#include <string_view>

namespace ddtime {
namespace {

std::size_t length_of(std::string_view text) { return decode_utf8(text).length; }

TEST(Utf8, DecodesEachLengthAtItsEdges) {
  const struct {
    std::string_view bytes;
    char32_t code_point;
  } kValid[] = {
      {"\xc2\x80", 0x80},       {"\xdf\xbf", 0x7ff},      {"\xe0\xa0\x80", 0x800},       {"\xed\x9f\xbf", 0xd7ff},
      {"\xee\x80\x80", 0xe000}, {"\xef\xbf\xbf", 0xffff}, {"\xf0\x90\x80\x80", 0x10000}, {"\xf4\x8f\xbf\xbf", 0x10ffff},
  };
  for (const auto& [bytes, code_point] : kValid) {
    const Utf8Sequence sequence = decode_utf8(bytes);
    EXPECT_EQ(sequence.length, bytes.size()) << ::testing::PrintToString(bytes);
    EXPECT_EQ(sequence.code_point, code_point) << ::testing::PrintToString(bytes);
  }
}

TEST(Utf8, ReadsOnlyTheFirstSequence) {
  EXPECT_EQ(length_of("\xc3\xa9\xc3\xa9"), 2u);
  EXPECT_EQ(decode_utf8("\xe2\x82\xac!").code_point, U'\u20ac');
}

TEST(Utf8, LeavesAsciiAndEmptyTextToTheCaller) {
  EXPECT_EQ(length_of(""), 0u);
  EXPECT_EQ(length_of("a"), 0u);
  EXPECT_EQ(length_of(std::string_view("\0", 1)), 0u);
  EXPECT_EQ(decode_utf8("a").code_point, 0u);
}

TEST(Utf8, RejectsWhatRfc3629Forbids) {
  for (std::string_view bad : {
           "\x80",
           "\xbf",  // continuation bytes without a lead
           "\xc0\x80",
           "\xc1\xbf",  // overlong, two bytes
           "\xe0\x80\x80",
           "\xe0\x9f\xbf",  // overlong, three bytes
           "\xf0\x80\x80\x80",
           "\xf0\x8f\xbf\xbf",  // overlong, four bytes
           "\xed\xa0\x80",
           "\xed\xbf\xbf",  // UTF-16 surrogates
           "\xf4\x90\x80\x80",
           "\xf7\xbf\xbf\xbf",  // above U+10FFFF
           "\xf8\x88\x80\x80\x80",
           "\xfe",
           "\xff",  // never a lead byte
           "\xc3",
           "\xe2\x82",
           "\xf0\x9f\x98",  // cut short by the end
           "\xc3z",
           "\xe2\x82z",
           "\xe2\xc3\xa9",  // cut short by a byte that does not continue
       }) {
    EXPECT_EQ(decode_utf8(bad).length, 0u) << ::testing::PrintToString(bad);
    EXPECT_EQ(decode_utf8(bad).code_point, 0u) << ::testing::PrintToString(bad);
  }
}

static_assert(decode_utf8("\xc3\xa9").length == 2, "usable in constant expressions");

}  // namespace
}  // namespace ddtime
