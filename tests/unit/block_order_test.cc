// SPDX-License-Identifier: GPL-3.0-or-later
// --random's order: every block of the range exactly once, for every range
// size, repeatable from its seed, and no memory per block.
#include "dd/block_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_set>
#include <vector>

namespace ddtime {
namespace {

TEST(BlockOrder, InTurnEachRecordGoesToItsOwnBlock) {
  const BlockOrder order;
  EXPECT_FALSE(order.random());
  for (std::int64_t record : {0, 1, 7, 1 << 20}) EXPECT_EQ(order.block_of(record), record);
}

TEST(BlockOrder, VisitsEveryBlockExactlyOnceForEveryRangeFromOneToThreeThousandBlocks) {
  std::vector<bool> seen;
  for (std::int64_t blocks = 1; blocks <= 3000; ++blocks) {
    const BlockOrder order(blocks, 0x5eed + static_cast<std::uint64_t>(blocks));
    seen.assign(static_cast<std::size_t>(blocks), false);
    for (std::int64_t record = 0; record < blocks; ++record) {
      const std::int64_t block = order.block_of(record);
      ASSERT_GE(block, 0) << blocks;
      ASSERT_LT(block, blocks) << blocks;
      ASSERT_FALSE(seen[static_cast<std::size_t>(block)]) << "block " << block << " twice in " << blocks;
      seen[static_cast<std::size_t>(block)] = true;
    }
  }
}

TEST(BlockOrder, AHugeRangeStaysInRangeWithNoBlockTwiceInASample) {
  const std::int64_t blocks = (std::int64_t{1} << 42) + 12345;  // 16 TiB of 4k blocks
  const BlockOrder order(blocks, 99);
  std::unordered_set<std::int64_t> seen;
  for (std::int64_t record = 0; record < 200000; ++record) {
    const std::int64_t block = order.block_of(record * 21990233 % blocks);
    ASSERT_GE(block, 0);
    ASSERT_LT(block, blocks);
    ASSERT_TRUE(seen.insert(block).second) << "two records went to block " << block;
  }
}

TEST(BlockOrder, TheSameSeedGivesTheSameOrderAndAnotherSeedAnother) {
  const BlockOrder a(1000, 42);
  const BlockOrder b(1000, 42);
  const BlockOrder c(1000, 43);
  int differ = 0;
  for (std::int64_t record = 0; record < 1000; ++record) {
    EXPECT_EQ(a.block_of(record), b.block_of(record));
    differ += a.block_of(record) != c.block_of(record) ? 1 : 0;
  }
  EXPECT_GT(differ, 900);
}

TEST(BlockOrder, IsNotCloseToTheSequentialOrder) {
  const BlockOrder order(4096, 7);
  int in_place = 0;
  int next_to_previous = 0;
  for (std::int64_t record = 0; record < 4096; ++record) {
    in_place += order.block_of(record) == record ? 1 : 0;
    if (record > 0) next_to_previous += order.block_of(record) == order.block_of(record - 1) + 1 ? 1 : 0;
  }
  // A random permutation leaves about one block in place and about one
  // step of +1; a handful is generous.
  EXPECT_LT(in_place, 10);
  EXPECT_LT(next_to_previous, 10);
}

TEST(BlockOrder, ThePartialLastBlockKeepsItsPlaceAtTheEnd) {
  const BlockOrder order(10, 3);
  EXPECT_EQ(order.block_of(10), 10);
  EXPECT_EQ(order.blocks(), 10);
  EXPECT_EQ(order.seed(), 3u);
}

TEST(BlockOrder, ATimedRunInTurnStartsEachPassAgainAtTheFirstBlock) {
  const BlockOrder order = BlockOrder::passes(5, false, 0);
  EXPECT_TRUE(order.repeats());
  std::vector<std::int64_t> blocks;
  for (std::int64_t record = 0; record < 12; ++record) blocks.push_back(order.block_of(record));
  EXPECT_EQ(blocks, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1}));
  EXPECT_EQ(order.pass_of(4), 0);
  EXPECT_EQ(order.pass_of(5), 1);
  EXPECT_EQ(order.pass_of(11), 2);
}

TEST(BlockOrder, ATimedRandomRunVisitsEveryBlockOncePerPassInANewOrderEachPass) {
  constexpr std::int64_t kBlocks = 1000;
  const BlockOrder order = BlockOrder::passes(kBlocks, true, 42);
  std::vector<std::vector<std::int64_t>> passes(3);
  for (std::int64_t record = 0; record < 3 * kBlocks; ++record) {
    passes[static_cast<std::size_t>(order.pass_of(record))].push_back(order.block_of(record));
  }
  for (std::vector<std::int64_t> pass : passes) {
    std::sort(pass.begin(), pass.end());
    for (std::int64_t i = 0; i < kBlocks; ++i) ASSERT_EQ(pass[static_cast<std::size_t>(i)], i);
  }
  EXPECT_NE(passes[0], passes[1]);
  EXPECT_NE(passes[1], passes[2]);
  // The first pass is the single-pass order of the same seed: --random=SEED
  // means one order, timed or not.
  const BlockOrder once(kBlocks, 42);
  for (std::int64_t record = 0; record < kBlocks; ++record) ASSERT_EQ(order.block_of(record), once.block_of(record));
}

// Rule 6, "random means random": the order a seed draws is uniform over
// the range's orders, for every range size, and every pass draws anew.
// Every test uses fixed seeds, so it is deterministic; the bounds sit six
// standard deviations out, where a uniform draw fails about once in 10^9.

// The chi-square statistic's bound for `cells` equally likely cells
// (Wilson and Hilferty's normal approximation, z = 6).
double chi_square_bound(int cells) {
  const double k = cells - 1;
  const double z = 6;
  const double t = 1 - 2 / (9 * k) + z * std::sqrt(2 / (9 * k));
  return k * t * t * t;
}

double chi_square(const std::vector<std::int64_t>& counts, double expected) {
  double sum = 0;
  for (const std::int64_t count : counts) {
    const double off = static_cast<double>(count) - expected;
    sum += off * off / expected;
  }
  return sum;
}

std::vector<std::int64_t> order_of(const BlockOrder& order, std::int64_t first, std::int64_t blocks) {
  std::vector<std::int64_t> blocks_in_order;
  for (std::int64_t record = first; record < first + blocks; ++record)
    blocks_in_order.push_back(order.block_of(record));
  return blocks_in_order;
}

TEST(BlockOrder, EveryPassOfEveryRangeFromOneToThreeHundredBlocksVisitsEachBlockOnce) {
  for (std::int64_t blocks = 1; blocks <= 300; ++blocks) {
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
      const BlockOrder order = BlockOrder::passes(blocks, true, seed * 7919 + static_cast<std::uint64_t>(blocks));
      for (std::int64_t pass = 0; pass < 4; ++pass) {
        std::vector<std::int64_t> seen = order_of(order, pass * blocks, blocks);
        std::sort(seen.begin(), seen.end());
        for (std::int64_t i = 0; i < blocks; ++i)
          ASSERT_EQ(seen[static_cast<std::size_t>(i)], i) << blocks << " " << seed;
      }
    }
  }
  for (const std::int64_t blocks : {std::int64_t{1} << 20, (std::int64_t{1} << 20) + 1, std::int64_t{3'000'017}}) {
    const BlockOrder order = BlockOrder::passes(blocks, true, 5);
    for (std::int64_t pass = 0; pass < 2; ++pass) {
      std::vector<bool> seen(static_cast<std::size_t>(blocks));
      for (std::int64_t record = pass * blocks; record < (pass + 1) * blocks; ++record) {
        const std::int64_t block = order.block_of(record);
        ASSERT_TRUE(block >= 0 && block < blocks && !seen[static_cast<std::size_t>(block)]) << blocks;
        seen[static_cast<std::size_t>(block)] = true;
      }
    }
  }
}

TEST(BlockOrder, TheFirstBlockAndWhereBlockZeroGoesAreUniformOverTenThousandSeeds) {
  constexpr std::int64_t kSeeds = 10'000;
  for (const std::int64_t blocks : {2, 3, 4, 5, 8, 16, 17, 32, 100}) {
    std::vector<std::int64_t> first(static_cast<std::size_t>(blocks));
    std::vector<std::int64_t> zero_at(static_cast<std::size_t>(blocks));
    for (std::int64_t seed = 0; seed < kSeeds; ++seed) {
      const BlockOrder order(blocks, static_cast<std::uint64_t>(seed));
      ++first[static_cast<std::size_t>(order.block_of(0))];
      for (std::int64_t record = 0; record < blocks; ++record) {
        if (order.block_of(record) == 0) ++zero_at[static_cast<std::size_t>(record)];
      }
    }
    const double expected = static_cast<double>(kSeeds) / static_cast<double>(blocks);
    EXPECT_LT(chi_square(first, expected), chi_square_bound(static_cast<int>(blocks))) << blocks << " blocks";
    EXPECT_LT(chi_square(zero_at, expected), chi_square_bound(static_cast<int>(blocks))) << blocks << " blocks";
  }
}

TEST(BlockOrder, TheFirstBlockIsUniformOverTheTenThousandPassesOfOneSeed) {
  constexpr std::int64_t kPasses = 10'000;
  for (const std::int64_t blocks : {2, 3, 4, 5, 8, 16, 17, 32, 100}) {
    const BlockOrder order = BlockOrder::passes(blocks, true, 1);
    std::vector<std::int64_t> first(static_cast<std::size_t>(blocks));
    for (std::int64_t pass = 0; pass < kPasses; ++pass)
      ++first[static_cast<std::size_t>(order.block_of(pass * blocks))];
    const double expected = static_cast<double>(kPasses) / static_cast<double>(blocks);
    EXPECT_LT(chi_square(first, expected), chi_square_bound(static_cast<int>(blocks))) << blocks << " blocks";
  }
}

TEST(BlockOrder, EveryOrderOfThreeAndOfFourBlocksComesWithTheSameFrequency) {
  for (const std::int64_t blocks : {3, 4}) {
    const int orders = blocks == 3 ? 6 : 24;
    const std::int64_t seeds = 1000 * orders;
    std::map<std::vector<std::int64_t>, std::int64_t> seen;
    for (std::int64_t seed = 0; seed < seeds; ++seed) {
      ++seen[order_of(BlockOrder(blocks, static_cast<std::uint64_t>(seed)), 0, blocks)];
    }
    ASSERT_EQ(seen.size(), static_cast<std::size_t>(orders)) << blocks << " blocks";
    std::vector<std::int64_t> counts;
    for (const auto& [order, count] : seen) counts.push_back(count);
    EXPECT_LT(chi_square(counts, 1000), chi_square_bound(orders)) << blocks << " blocks";
  }
}

// Wald and Wolfowitz's count of ascents: in a uniform permutation of n,
// n - 1 adjacent pairs of which (n - 1) / 2 ascend on average, with a
// variance of (n + 1) / 12. Sequential orders have all ascents, reversed
// ones none, and a bijection with structure drifts from the mean.
TEST(BlockOrder, AscendingPairsCountAsInAUniformPermutation) {
  constexpr std::int64_t kSeeds = 4000;
  for (const std::int64_t blocks : {4, 5, 16, 17, 100, 1000}) {
    double ascents = 0;
    std::int64_t in_order_or_reversed = 0;
    for (std::int64_t seed = 0; seed < kSeeds; ++seed) {
      const std::vector<std::int64_t> order = order_of(BlockOrder(blocks, static_cast<std::uint64_t>(seed)), 0, blocks);
      std::int64_t up = 0;
      for (std::size_t i = 1; i < order.size(); ++i) up += order[i] > order[i - 1] ? 1 : 0;
      ascents += static_cast<double>(up);
      in_order_or_reversed += up == 0 || up == blocks - 1 ? 1 : 0;
    }
    const auto n = static_cast<double>(blocks);
    const double z = (ascents - kSeeds * (n - 1) / 2) / std::sqrt(kSeeds * (n + 1) / 12);
    EXPECT_LT(std::fabs(z), 6) << blocks << " blocks";
    // Of 4 blocks' 24 orders, 2 are in turn or reversed: 1 in 12.
    if (blocks == 4) {
      EXPECT_NEAR(static_cast<double>(in_order_or_reversed) / kSeeds, 2.0 / 24, 0.03);
    }
  }
}

TEST(BlockOrder, EachOfTwoHundredPassesDrawsItsOwnOrder) {
  for (const std::uint64_t seed : {1, 3, 5}) {
    const BlockOrder four = BlockOrder::passes(4, true, seed);
    const BlockOrder sixteen = BlockOrder::passes(16, true, seed);
    const BlockOrder thirty_two = BlockOrder::passes(32, true, seed);
    std::set<std::vector<std::int64_t>> of_four;
    std::set<std::vector<std::int64_t>> of_sixteen;
    std::set<std::vector<std::int64_t>> of_thirty_two;
    for (std::int64_t pass = 0; pass < 200; ++pass) {
      of_four.insert(order_of(four, pass * 4, 4));
      of_sixteen.insert(order_of(sixteen, pass * 16, 16));
      of_thirty_two.insert(order_of(thirty_two, pass * 32, 32));
    }
    // 200 draws from 24 orders miss one about once in 200 seeds.
    EXPECT_GE(of_four.size(), 23U) << seed;
    EXPECT_EQ(of_sixteen.size(), 200U) << seed;
    EXPECT_EQ(of_thirty_two.size(), 200U) << seed;
  }
}

TEST(BlockOrder, TheSeedReproducesEveryPass) {
  for (const std::int64_t blocks : {4, 20, 21, 1000}) {
    const BlockOrder a = BlockOrder::passes(blocks, true, 77);
    const BlockOrder b = BlockOrder::passes(blocks, true, 77);
    for (std::int64_t record = 0; record < 50 * blocks; ++record) ASSERT_EQ(a.block_of(record), b.block_of(record));
  }
}

}  // namespace
}  // namespace ddtime
