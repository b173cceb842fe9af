// SPDX-License-Identifier: GPL-3.0-or-later
// Expectations learned by running GNU dd 9.1 (skip=N iflag=skip_bytes under
// strace shows the value it parsed).
#include "model/number.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string_view>

namespace ddtime {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::int64_t ok(std::string_view text) {
  const ParsedNumber n = parse_number(text);
  EXPECT_EQ(n.verdict, NumberVerdict::kOk) << text;
  EXPECT_FALSE(n.zero_multiplier) << text;
  return n.value;
}

NumberVerdict verdict(std::string_view text) { return parse_number(text).verdict; }

TEST(Number, AcceptsPlainDecimalDigits) {
  EXPECT_EQ(ok("0"), 0);
  EXPECT_EQ(ok("512"), 512);
  EXPECT_EQ(ok("010"), 10);  // leading zeros are decimal, not octal
  EXPECT_EQ(ok("9223372036854775807"), kMax);
}

TEST(Number, AcceptsLeadingWhiteSpaceAndPlus) {
  EXPECT_EQ(ok(" 5"), 5);
  EXPECT_EQ(ok("+5"), 5);
  EXPECT_EQ(ok("  +7"), 7);
  EXPECT_EQ(ok("\t5"), 5);
  EXPECT_EQ(ok("\n5"), 5);
  EXPECT_EQ(ok("\v5"), 5);
  EXPECT_EQ(ok("\f5"), 5);
  EXPECT_EQ(ok("\r5"), 5);
}

TEST(Number, RejectsSignsSpacesAndJunkInTheWrongPlace) {
  for (std::string_view text :
       {"-5", "-0", "--5", "+ 5", "++5", "5 ", "",   " ",  "+",         "+ ",       "1.5",         "x5",
        "5y", "1e", "1m",  "1g",  "1t",  "1p", "1R", "1Q", "5\xc2\xa0", "\xd9\xa3", "\xef\xbc\x92"}) {
    EXPECT_EQ(verdict(text), NumberVerdict::kInvalid) << text;
  }
}

TEST(Number, AppliesSingleLetterSuffixes) {
  EXPECT_EQ(ok("1c"), 1);
  EXPECT_EQ(ok("1w"), 2);
  EXPECT_EQ(ok("1b"), 512);
  EXPECT_EQ(ok("1k"), 1024);
  EXPECT_EQ(ok("1K"), 1024);
  EXPECT_EQ(ok("1M"), 1048576);
  EXPECT_EQ(ok("1G"), 1073741824);
  EXPECT_EQ(ok("1T"), 1099511627776);
  EXPECT_EQ(ok("1P"), 1125899906842624);
  EXPECT_EQ(ok("1E"), 1152921504606846976);
  EXPECT_EQ(ok("7E"), 8070450532247928832);
}

TEST(Number, ReadsDecimalAndBinaryTailsOnPowerLetters) {
  EXPECT_EQ(ok("1kB"), 1000);
  EXPECT_EQ(ok("1KB"), 1000);
  EXPECT_EQ(ok("1kD"), 1000);  // 'D' is GNU's obsolescent spelling of 'B'
  EXPECT_EQ(ok("1MD"), 1000000);
  EXPECT_EQ(ok("1GB"), 1000000000);
  EXPECT_EQ(ok("1EB"), 1000000000000000000);
  EXPECT_EQ(ok("1kiB"), 1024);
  EXPECT_EQ(ok("1KiB"), 1024);
  EXPECT_EQ(ok("1MiB"), 1048576);
  EXPECT_EQ(ok("1EiB"), 1152921504606846976);
  for (std::string_view text : {"1Ki", "1KiD", "1iB", "1mB", "1wiB", "1ciB", "1biB", "1bD", "1cD", "1wD"}) {
    EXPECT_EQ(verdict(text), NumberVerdict::kInvalid) << text;
  }
}

TEST(Number, TakesABareSuffixAsOneUnit) {
  EXPECT_EQ(ok("K"), 1024);
  EXPECT_EQ(ok("KiB"), 1024);
  EXPECT_EQ(ok("kB"), 1000);
  EXPECT_EQ(ok("MD"), 1000000);
  EXPECT_EQ(ok("b"), 512);
  EXPECT_EQ(ok("c"), 1);
  EXPECT_EQ(ok("w"), 2);
  EXPECT_EQ(ok("E"), 1152921504606846976);
  // Only right at the start: GNU rejects these.
  EXPECT_EQ(verdict(" K"), NumberVerdict::kInvalid);
  EXPECT_EQ(verdict("+K"), NumberVerdict::kInvalid);
  EXPECT_EQ(verdict("K "), NumberVerdict::kInvalid);
}

TEST(Number, AcceptsOneByteMarkerAfterTheFirstFactor) {
  EXPECT_EQ(ok("1B"), 1);
  EXPECT_EQ(ok("2B"), 2);
  EXPECT_EQ(ok("1bB"), 512);
  EXPECT_EQ(ok("1cB"), 1);
  EXPECT_EQ(ok("1wB"), 2);
  EXPECT_EQ(ok("cB"), 1);
  EXPECT_EQ(ok("wB"), 2);
  EXPECT_EQ(ok("2Bx3"), 6);
  EXPECT_EQ(ok("2BxK"), 2048);
  for (std::string_view text : {"B", "2BB", "1KBB", "1KiBB", "3x2B", "2x3B", "1Kx2B", "2Bx3B", "2xB", "2Bx"}) {
    EXPECT_EQ(verdict(text), NumberVerdict::kInvalid) << text;
  }
}

TEST(Number, MultipliesExactlyTwoFactors) {
  EXPECT_EQ(ok("2x512"), 1024);
  EXPECT_EQ(ok("2x3"), 6);
  EXPECT_EQ(ok("1Mx2"), 2097152);
  EXPECT_EQ(ok("3bx2"), 3072);
  EXPECT_EQ(ok("Kx2"), 2048);
  EXPECT_EQ(ok("2xK"), 2048);
  EXPECT_EQ(ok("2xKB"), 2000);
  EXPECT_EQ(ok("2xKiB"), 2048);
  EXPECT_EQ(ok("2KBx3"), 6000);
  EXPECT_EQ(ok("2KiBx3"), 6144);
  EXPECT_EQ(ok("1cx1c"), 1);
  EXPECT_EQ(ok("2xb"), 1024);
  EXPECT_EQ(ok("2x 3"), 6);  // the second factor may start with white space
  EXPECT_EQ(ok("2x+3"), 6);
  EXPECT_EQ(ok("4611686018427387903x2"), 9223372036854775806);
  // GNU 9.1 does not chain products.
  for (std::string_view text : {"2x3x4", "0x0x5", "2x0x5", "0x2x0", "0x0x", "2x", "Kx", "5x", "2x-3", "2xBx"}) {
    EXPECT_EQ(verdict(text), NumberVerdict::kInvalid) << text;
  }
}

TEST(Number, FlagsAZeroMultiplierOnlyWhenTheTextStartsWith0x) {
  for (std::string_view text : {"0x5", "0x0", "0x99999999999999999999", "0x16E", "0x8E", "0x1Z"}) {
    const ParsedNumber n = parse_number(text);
    EXPECT_EQ(n.verdict, NumberVerdict::kOk) << text;
    EXPECT_EQ(n.value, 0) << text;
    EXPECT_TRUE(n.zero_multiplier) << text;
  }
  for (std::string_view text : {"00x5", " 0x5", "+0x5", "0Bx5", "5x0", "1bx0", "99999999999999999999x0"}) {
    const ParsedNumber n = parse_number(text);
    EXPECT_EQ(n.verdict, NumberVerdict::kOk) << text;
    EXPECT_EQ(n.value, 0) << text;
    EXPECT_FALSE(n.zero_multiplier) << text;
  }
  // No warning when the product is not a number at all.
  EXPECT_FALSE(parse_number("0x").zero_multiplier);
  EXPECT_FALSE(parse_number("0xB").zero_multiplier);
}

TEST(Number, TreatsZeroTimesAnythingAsZero) {
  EXPECT_EQ(ok("0Z"), 0);
  EXPECT_EQ(ok("0Y"), 0);
  EXPECT_EQ(ok("99999999999999999999Bx0"), 0);
}

TEST(Number, RejectsValuesBeyondInt64AsOverflow) {
  for (std::string_view text :
       {"9223372036854775808", "99999999999999999999", "8E", "16E", "1Z", "1Y", "1ZiB", "1ZB", "4611686018427387904x2",
        "3x4611686018427387903", "99999999999999999999x1", "1x99999999999999999999", "1x8E", "2x8E"}) {
    const ParsedNumber n = parse_number(text);
    EXPECT_EQ(n.verdict, NumberVerdict::kOverflow) << text;
    EXPECT_EQ(n.value, kMax) << text;
  }
}

TEST(Number, RejectsMultiplierOverflow) {
  EXPECT_EQ(verdict("1Mx9E"), NumberVerdict::kOverflow);
  EXPECT_EQ(verdict("3037000500x3037000500"), NumberVerdict::kOverflow);
  EXPECT_EQ(ok("3037000499x3037000499"), 9223372030926249001);
}

TEST(Number, ReportsOverflowBeforeJunkWhenTheDigitsAlreadyOverflow) {
  EXPECT_EQ(verdict("99999999999999999999y"), NumberVerdict::kOverflow);
  EXPECT_EQ(verdict("9223372036854775808y"), NumberVerdict::kOverflow);
  EXPECT_EQ(verdict("9007199254740992Ky"), NumberVerdict::kOverflow);
  EXPECT_EQ(verdict("1Zi"), NumberVerdict::kOverflow);
  EXPECT_EQ(verdict("9007199254740991Ky"), NumberVerdict::kInvalid);
}

// Found by the differential fuzzer (tests/fuzz/differential.py): GNU does
// not multiply when the first factor ends in 'B' and a 'B' follows the 'x'.
TEST(Number, RefusesAByteMarkerOnBothSidesOfTheProduct) {
  for (std::string_view text : {"2KiBx3KiB", "2kBx3kB", "7KBxGiB", "cBxkB", "MiBxMiB", "EBxKB", "2Bx3B"}) {
    EXPECT_EQ(verdict(text), NumberVerdict::kInvalid) << text;
  }
  EXPECT_EQ(verdict("YBxGMB"), NumberVerdict::kOverflow);
  EXPECT_EQ(verdict("9223372036854775808MBxB"), NumberVerdict::kOverflow);
  EXPECT_EQ(ok("2Bx3"), 6);
  EXPECT_EQ(ok("2x3KiB"), 6144);
  EXPECT_EQ(ok("2KiBx3"), 6144);
}

TEST(Number, KeepsTheDigitsReadBeforeJunkForTheRangeCheck) {
  const ParsedNumber junk = parse_number("9223372036854775807y");
  EXPECT_EQ(junk.verdict, NumberVerdict::kInvalid);
  EXPECT_EQ(junk.value, kMax);
  EXPECT_EQ(parse_number("5Ky").value, 5120);
  EXPECT_EQ(parse_number("9223372036854775807By").value, kMax);
  EXPECT_EQ(parse_number("2x3x4").value, 0);
  EXPECT_EQ(parse_number("-5").value, 0);
}

TEST(Duration, IsANumberAndAUnitInWholeNanosecondsWithoutFloatingPoint) {
  EXPECT_EQ(parse_duration_ns("30s"), 30'000'000'000);
  EXPECT_EQ(parse_duration_ns("500ms"), 500'000'000);
  EXPECT_EQ(parse_duration_ns("2m"), 120'000'000'000);
  EXPECT_EQ(parse_duration_ns("1h"), 3'600'000'000'000);
  EXPECT_EQ(parse_duration_ns("0.1s"), 100'000'000);
  EXPECT_EQ(parse_duration_ns(".5"), 500'000'000);
  EXPECT_EQ(parse_duration_ns("7"), 7'000'000'000);
}

TEST(Duration, RefusesWhatIsNotOne) {
  // Nine decimals at most: a nanosecond is the finest step.
  for (const char* text :
       {"", "s", "1x", "-1s", "1e3", "1.2.3s", "1 s", "ms", "1sm", "99999999999999999999h", "1.0000000004s"}) {
    EXPECT_FALSE(parse_duration_ns(text).has_value()) << text;
  }
}

TEST(Percentage, TakesAnOptionalPercentSign) {
  EXPECT_EQ(parse_percentage("10"), 10.0);
  EXPECT_EQ(parse_percentage("2.5%"), 2.5);
  EXPECT_FALSE(parse_percentage("%").has_value());
  EXPECT_FALSE(parse_percentage("10%%").has_value());
  EXPECT_FALSE(parse_percentage("ten").has_value());
}

}  // namespace
}  // namespace ddtime
