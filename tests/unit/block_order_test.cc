// SPDX-License-Identifier: GPL-3.0-or-later
// --random's order: every block of the range exactly once, for every range
// size, repeatable from its seed, and no memory per block.
#include "dd/block_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
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

}  // namespace
}  // namespace ddtime
