// SPDX-License-Identifier: GPL-3.0-or-later
// --pattern's generator: the names it takes, bytes that depend only on the
// seed and the offset (so pieces made in any order join up, and --verify
// can make them again), no block twice, and stamp's sector layout.
#include "measure/pattern.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace ddtime {
namespace {

TEST(Pattern, TakesItsNames) {
  PatternSpec spec;
  ASSERT_TRUE(parse_pattern("zero", spec));
  EXPECT_EQ(spec.kind, PatternKind::kByte);
  EXPECT_EQ(spec.byte, 0x00);
  ASSERT_TRUE(parse_pattern("ones", spec));
  EXPECT_EQ(spec.byte, 0xff);
  ASSERT_TRUE(parse_pattern("0x5A", spec));
  EXPECT_EQ(spec.byte, 0x5a);
  EXPECT_EQ(pattern_name(spec), "0x5a");
  ASSERT_TRUE(parse_pattern("random", spec));
  EXPECT_EQ(spec.kind, PatternKind::kRandom);
  EXPECT_EQ(pattern_name(spec), "random");
  ASSERT_TRUE(parse_pattern("stamp", spec));
  EXPECT_EQ(pattern_name(spec), "stamp");
  for (const char* bad : {"", "0x", "0x5", "0x5g", "0x123", "Random", "one"}) {
    EXPECT_FALSE(parse_pattern(bad, spec)) << bad;
  }
}

TEST(Pattern, OneByteFillsEverything) {
  PatternSpec spec;
  ASSERT_TRUE(parse_pattern("0xa5", spec));
  const PatternSource source(spec, 7, 0);
  std::vector<unsigned char> block(1000, 0);
  source.fill(block.data(), block.size(), 12345);
  for (const unsigned char c : block) EXPECT_EQ(c, 0xa5);
}

std::vector<unsigned char> made(const PatternSource& source, std::size_t length, std::int64_t offset) {
  std::vector<unsigned char> bytes(length);
  source.fill(bytes.data(), length, offset);
  return bytes;
}

class Generated : public ::testing::TestWithParam<const char*> {};

TEST_P(Generated, PiecesMadeInAnyOrderJoinUp) {
  PatternSpec spec;
  ASSERT_TRUE(parse_pattern(GetParam(), spec));
  const PatternSource source(spec, 0x1234, 4096);
  const std::vector<unsigned char> whole = made(source, 10000, 0);
  // Odd pieces at odd offsets, made last to first.
  const std::size_t cuts[] = {0, 3, 511, 512, 1025, 4099, 8191, 10000};
  std::vector<unsigned char> pieces(10000);
  for (int i = 6; i >= 0; --i) {
    source.fill(pieces.data() + cuts[i], cuts[i + 1] - cuts[i], static_cast<std::int64_t>(cuts[i]));
  }
  EXPECT_TRUE(pieces == whole);
  EXPECT_TRUE(made(PatternSource(spec, 0x1234, 4096), 10000, 0) == whole) << "the same seed makes it again";
  EXPECT_FALSE(made(PatternSource(spec, 0x1235, 4096), 10000, 0) == whole) << "another seed does not";
}

TEST_P(Generated, NoBlockComesTwice) {
  PatternSpec spec;
  ASSERT_TRUE(parse_pattern(GetParam(), spec));
  const PatternSource source(spec, 99, 0);
  const std::vector<unsigned char> bytes = made(source, 4096 * 512, 0);
  std::set<std::string> blocks;
  for (std::size_t i = 0; i < 4096; ++i) {
    blocks.insert(std::string(reinterpret_cast<const char*>(bytes.data()) + i * 512, 512));
  }
  EXPECT_EQ(blocks.size(), 4096u);
}

INSTANTIATE_TEST_SUITE_P(RandomAndStamp, Generated, ::testing::Values("random", "stamp"));

TEST(Pattern, StampPutsEachSectorsOutputOffsetAndTheSeedFirst) {
  PatternSpec spec;
  ASSERT_TRUE(parse_pattern("stamp", spec));
  const std::uint64_t seed = 0x0102030405060708ULL;
  const PatternSource source(spec, seed, 1 << 20);  // written from byte 1 MiB of the output
  const std::vector<unsigned char> bytes = made(source, 4 * 512, 512);
  for (std::uint64_t sector = 0; sector < 4; ++sector) {
    std::uint64_t offset = 0;
    std::uint64_t stamped_seed = 0;
    for (int i = 7; i >= 0; --i) {
      offset = offset << 8 | bytes[sector * 512 + static_cast<std::size_t>(i)];
      stamped_seed = stamped_seed << 8 | bytes[sector * 512 + 8 + static_cast<std::size_t>(i)];
    }
    EXPECT_EQ(offset, (1u << 20) + 512 * (sector + 1));
    EXPECT_EQ(stamped_seed, seed);
  }
}

TEST(PatternOs, AnswersReadsOfTheInputInStreamOrder) {
  PatternSpec spec;
  ASSERT_TRUE(parse_pattern("random", spec));
  const PatternSource source(spec, 5, 0);
  PosixOs real;
  PatternOs os(real, source);
  std::vector<unsigned char> first(700);
  std::vector<unsigned char> second(300);
  EXPECT_EQ(os.read(0, first.data(), first.size()).n, 700);
  EXPECT_EQ(os.read(0, second.data(), second.size()).n, 300);
  std::vector<unsigned char> joined = first;
  joined.insert(joined.end(), second.begin(), second.end());
  EXPECT_TRUE(joined == made(source, 1000, 0));
}

}  // namespace
}  // namespace ddtime
