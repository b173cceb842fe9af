// SPDX-License-Identifier: GPL-3.0-or-later
// The size grammar of bs=, ibs=, obs=, cbs=, count=, skip=, seek=: decimal
// digits, a multiplier suffix, products with 'x', the trailing-B byte marker,
// and the error texts for what does not parse or does not fit.

#include <ostream>
#include <string>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

class Number : public DdTest {};

// A value's size is observed without moving data: with bs=1 and count=0,
// seek=N extends the new output file to exactly N bytes.
struct SizeCase {
  const char* name;
  const char* value;
  off_t size;
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const SizeCase& c) { return os << c.name; }
};

class NumberSize : public DdTest, public ::testing::WithParamInterface<SizeCase> {};

TEST_P(NumberSize, SeekExtendsOutputToTheParsedSize) {
  const SizeCase& c = GetParam();
  auto r = dd({"if=/dev/null", "of=out", "bs=1", "count=0", std::string("seek=") + c.value});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(file_size("out"), c.size);
}

INSTANTIATE_TEST_SUITE_P(
    Suffixes, NumberSize,
    ::testing::Values(SizeCase{"Plain", "7", 7}, SizeCase{"LeadingZeroIsDecimalNotOctal", "010", 10},
                      SizeCase{"PlusSign", "+7", 7}, SizeCase{"LeadingSpace", " 7", 7},
                      SizeCase{"LeadingSpacesThenPlus", "  +7", 7}, SizeCase{"C", "3c", 3}, SizeCase{"W", "3w", 6},
                      SizeCase{"LowerB", "2b", 1024}, SizeCase{"KB", "1kB", 1000}, SizeCase{"UpperKB", "1KB", 1000},
                      SizeCase{"LowerK", "1k", 1024}, SizeCase{"K", "1K", 1024}, SizeCase{"KiB", "1KiB", 1024},
                      SizeCase{"MB", "1MB", 1000000}, SizeCase{"M", "1M", 1048576}, SizeCase{"MiB", "1MiB", 1048576},
                      SizeCase{"GB", "1GB", 1000000000}, SizeCase{"G", "1G", 1073741824},
                      SizeCase{"GiB", "1GiB", 1073741824}, SizeCase{"TB", "1TB", 1000000000000},
                      SizeCase{"T", "1T", 1099511627776}, SizeCase{"Product", "2x512", 1024},
                      SizeCase{"ProductWithSuffix", "1Mx2", 2097152}, SizeCase{"ProductOfSuffixes", "1kx1k", 1048576},
                      SizeCase{"ProductWithBlocks", "2bx3", 3072}, SizeCase{"ProductWithPlusAfterX", "3x+2", 6},
                      SizeCase{"ProductWithSpaceAfterX", "3x 2", 6}, SizeCase{"DoubleZeroProductIsZero", "00x5", 0},
                      SizeCase{"ByteMarker", "7B", 7}),
    ParamName());

// --- the B marker: a count in bytes rather than in blocks ---

TEST_F(Number, CountWithBMarkerCountsBytes) {
  auto r = dd_in("abcdefghij", {"count=3B"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n3 bytes copied, <T> s, <R>\n");
}

TEST_F(Number, CountInBytesEndsWithAPartialRecord) {
  write_file("in", "abcdefghij");
  auto r = dd({"if=in", "bs=2", "count=3B"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc");
  EXPECT_EQ(r.err_masked(), "1+1 records in\n1+1 records out\n3 bytes copied, <T> s, <R>\n");
}

TEST_F(Number, SkipWithBMarkerSkipsBytes) {
  write_file("in", "abcdefghij");
  auto r = dd({"if=in", "bs=4", "skip=2B", "count=1"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "cdef");
  EXPECT_EQ(r.err_masked(), "1+0 records in\n1+0 records out\n4 bytes copied, <T> s, <R>\n");
}

TEST_F(Number, SeekWithBMarkerSeeksBytesWhileObsStaysDefault) {
  auto r = dd_in("XY", {"of=out", "seek=5B", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), std::string("\0\0\0\0\0XY", 7));
}

TEST_F(Number, SeekWithoutBMarkerCountsObsBlocks) {
  auto r = dd_in("XY", {"of=out", "seek=1", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(file_size("out"), 514);
}

TEST_F(Number, BMarkerOnTheFirstFactorAppliesToTheProduct) {
  write_file("in", "abcdefghij");
  auto r = dd({"if=in", "count=3Bx2", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcdef");
}

TEST_F(Number, BMarkerOnALaterFactorIsInvalid) {
  auto r = dd({"if=/dev/null", "count=2x1B"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘2x1B’\n");
}

TEST_F(Number, BMarkerAfterAMultiplierCombinesWithIt) {
  write_file("in", "abcdefghij");
  auto r = dd({"if=in", "count=1wB", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab");
}

TEST_F(Number, DoubledBMarkerIsInvalid) {
  auto r = dd({"if=/dev/null", "count=1BB"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘1BB’\n");
}

TEST_F(Number, BMarkerAfterKiBIsInvalid) {
  auto r = dd({"if=/dev/null", "count=1KiBB"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘1KiBB’\n");
}

TEST_F(Number, BMarkerAloneIsInvalid) {
  auto r = dd({"if=/dev/null", "count=B"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘B’\n");
}

TEST_F(Number, BMarkerOnBlockSizeIsJustBytes) {
  write_file("in", "abcdefghij");
  auto r = dd({"if=in", "bs=2B", "count=2"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcd");
  EXPECT_EQ(r.err_masked(), "2+0 records in\n2+0 records out\n4 bytes copied, <T> s, <R>\n");
}

// --- zero multipliers ---

TEST_F(Number, ZeroXWarnsAndStillFailsForBlockSize) {
  auto r = dd({"if=/dev/null", "bs=0x512"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: warning: ‘0x’ is a zero multiplier; use ‘00x’ if that is intended\n"
            "dd: invalid number: ‘0x512’\n");
}

TEST_F(Number, ZeroXWarnsButIsAcceptedForCount) {
  write_file("in", "abc");
  auto r = dd({"if=in", "count=0x99999999999999999999"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err_masked(),
            "dd: warning: ‘0x’ is a zero multiplier; use ‘00x’ if that is intended\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Number, DoubleZeroXDoesNotWarn) {
  auto r = dd({"if=/dev/null", "count=00x5", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "");
}

TEST_F(Number, DoubleZeroXIsStillAZeroBlockSize) {
  auto r = dd({"if=/dev/null", "bs=00x5"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘00x5’\n");
}

TEST_F(Number, ZeroBlockSizeIsInvalid) {
  auto r = dd({"if=/dev/null", "bs=0"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘0’\n");
}

TEST_F(Number, ZeroFactorIsInvalidForBlockSize) {
  auto r = dd({"if=/dev/null", "ibs=1x0"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘1x0’\n");
}

TEST_F(Number, ZeroCbsIsInvalid) {
  auto r = dd({"if=/dev/null", "cbs=0", "conv=block"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘0’\n");
}

TEST_F(Number, OverflowingFactorTimesZeroIsZero) {
  auto r = dd({"if=/dev/null", "count=1Zx0", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "");
}

// --- overflow ---

TEST_F(Number, TooManyDigitsOverflow) {
  auto r = dd({"if=/dev/null", "bs=9999999999999999999999"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: invalid number: ‘9999999999999999999999’: "
            "Value too large for defined data type\n");
}

TEST_F(Number, ProductOverflow) {
  auto r = dd({"if=/dev/null", "bs=4Gx4G"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘4Gx4G’: Value too large for defined data type\n");
}

TEST_F(Number, ZettaSuffixOverflows) {
  auto r = dd({"if=/dev/null", "count=1Z"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘1Z’: Value too large for defined data type\n");
}

TEST_F(Number, YottaSuffixOverflows) {
  auto r = dd({"if=/dev/null", "count=1YB"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘1YB’: Value too large for defined data type\n");
}

TEST_F(Number, CountAcceptsTheLargestSignedValue) {
  auto r = dd({"if=/dev/null", "count=9223372036854775807", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "");
}

TEST_F(Number, CountOneBeyondTheLargestSignedValueOverflows) {
  auto r = dd({"if=/dev/null", "count=9223372036854775808"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘9223372036854775808’: Value too large for defined data type\n");
}

TEST_F(Number, EightExbiOverflowsButSevenDoesNot) {
  auto big = dd({"if=/dev/null", "count=8E"});
  EXPECT_STATUS(big, "exit 1");
  EXPECT_EQ(big.err, "dd: invalid number: ‘8E’: Value too large for defined data type\n");
  auto ok = dd({"if=/dev/null", "count=7E", "status=none"});
  EXPECT_STATUS(ok, "exit 0");
}

TEST_F(Number, SeekBeyondTheLargestSignedValueOverflows) {
  auto r = dd({"if=/dev/null", "of=out", "seek=9223372036854775808"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘9223372036854775808’: Value too large for defined data type\n");
}

TEST_F(Number, BlockSizeMustBeBelowTheLargestSignedValue) {
  auto r = dd({"if=/dev/null", "ibs=9223372036854775807"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: invalid number: ‘9223372036854775807’: Value too large for defined data type\n");
}

TEST_F(Number, PetaSuffixIsParsedAndThenTooBigToAllocate) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "bs=1P"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: memory exhausted by input buffer of size 1125899906842624 bytes (1.0 PiB)\n");
}

TEST_F(Number, DecimalPetaInTheAllocationMessageIsShownInBinaryUnits) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "bs=1PB"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: memory exhausted by input buffer of size 1000000000000000 bytes (909 TiB)\n");
}

TEST_F(Number, ExaSuffixes) {
  auto e = dd({"if=/dev/null", "of=/dev/null", "bs=5E"});
  EXPECT_STATUS(e, "exit 1");
  EXPECT_EQ(e.err, "dd: memory exhausted by input buffer of size 5764607523034234880 bytes (5.0 EiB)\n");
  auto eb = dd({"if=/dev/null", "of=/dev/null", "bs=1EB"});
  EXPECT_STATUS(eb, "exit 1");
  EXPECT_EQ(eb.err, "dd: memory exhausted by input buffer of size 1000000000000000000 bytes (888 PiB)\n");
}

// --- malformed numbers ---

struct InvalidCase {
  const char* name;
  const char* operand;  // "key=value"
  const char* value;    // as quoted in the message
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const InvalidCase& c) { return os << c.name; }
};

class NumberInvalid : public DdTest, public ::testing::WithParamInterface<InvalidCase> {};

TEST_P(NumberInvalid, IsRejectedWithoutHelpHint) {
  const InvalidCase& c = GetParam();
  auto r = dd({"if=/dev/null", "of=/dev/null", c.operand});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: invalid number: ‘") + c.value + "’\n");
  EXPECT_EQ(r.out, "");
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, NumberInvalid,
    ::testing::Values(InvalidCase{"Empty", "bs=", ""}, InvalidCase{"Negative", "count=-1", "-1"},
                      InvalidCase{"NegativeZero", "skip=-0", "-0"}, InvalidCase{"Letters", "bs=foo", "foo"},
                      InvalidCase{"LowercaseKbWithLowerB", "bs=1kb", "1kb"},
                      InvalidCase{"LowercaseIb", "bs=1Kib", "1Kib"}, InvalidCase{"UnknownSuffix", "bs=1e", "1e"},
                      InvalidCase{"RonnaIsNotASuffix", "bs=1R", "1R"}, InvalidCase{"QuettaIsNotASuffix", "bs=1Q", "1Q"},
                      InvalidCase{"TrailingDigitsAfterSuffix", "bs=1K2", "1K2"},
                      InvalidCase{"DigitsAfterB", "bs=1B2", "1B2"}, InvalidCase{"DigitsAfterW", "bs=2w3", "2w3"},
                      InvalidCase{"TrailingX", "bs=1x", "1x"}, InvalidCase{"LeadingX", "bs=x1", "x1"},
                      InvalidCase{"DoubleX", "bs=1xx2", "1xx2"}, InvalidCase{"ThreeFactors", "count=2x3x4", "2x3x4"},
                      InvalidCase{"TrailingSpace", "count=1 ", "1 "}, InvalidCase{"SpaceBeforeX", "bs=1 x2", "1 x2"},
                      InvalidCase{"NegativeFactor", "count=1x-1", "1x-1"},
                      InvalidCase{"HexPrefixIsNotHex", "bs=0b1", "0b1"}),
    ParamName());

}  // namespace
}  // namespace ddtime::e2e
