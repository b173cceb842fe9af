// SPDX-License-Identifier: GPL-3.0-or-later
// capacity_probe: which blocks the quick probe stamps, what a block read
// back says (its own stamp, another's, zeros, old or other bytes), and the
// verdict: a wrap at the distance two blocks that share a place are
// apart, or the first block that lost or failed its write, found by
// halving the gap.
#include "measure/capacity_probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace ddtime {
namespace {

constexpr std::int64_t kBlock = 4096;
const PatternSource kStamps{PatternSpec{PatternKind::kStamp, 0}, 77, 0};

std::vector<unsigned char> stamp_of(std::int64_t offset, const PatternSource& stamps = kStamps) {
  std::vector<unsigned char> block(kBlock);
  stamps.fill(block.data(), block.size(), offset);
  return block;
}

TEST(ProbeOffsets, TheEndsEveryPowerOfTwoAndRandomBlocksAscendingAndOnce) {
  const std::vector<std::int64_t> offsets = probe_offsets(1024 * kBlock, kBlock, 5, 16);
  EXPECT_TRUE(std::is_sorted(offsets.begin(), offsets.end()));
  EXPECT_EQ(std::adjacent_find(offsets.begin(), offsets.end()), offsets.end());
  EXPECT_EQ(offsets.front(), 0);
  EXPECT_EQ(offsets.back(), 1023 * kBlock);
  for (std::int64_t n = 1; n < 1024; n *= 2) {
    EXPECT_TRUE(std::binary_search(offsets.begin(), offsets.end(), n * kBlock)) << n;
  }
  for (const std::int64_t offset : offsets) EXPECT_EQ(offset % kBlock, 0);
  EXPECT_GT(offsets.size(), 11u) << "random blocks beside the 12 fixed ones";
  EXPECT_EQ(offsets, probe_offsets(1024 * kBlock, kBlock, 5, 16)) << "the seed decides";
  EXPECT_EQ(probe_offsets(kBlock, kBlock, 5, 16), std::vector<std::int64_t>{0}) << "one block: probed once";
}

TEST(ClassifyProbe, TellsItsOwnStampAnotherBlocksZerosOldAndOtherBytes) {
  EXPECT_EQ(classify_probe(8 * kBlock, stamp_of(8 * kBlock), kStamps, {}).outcome, ProbeOutcome::kGood);
  const ProbedBlock wrapped = classify_probe(0, stamp_of(64 * kBlock), kStamps, {});
  EXPECT_EQ(wrapped.outcome, ProbeOutcome::kWrapped);
  EXPECT_EQ(wrapped.holds, 64 * kBlock);
  EXPECT_EQ(classify_probe(0, std::vector<unsigned char>(kBlock, 0), kStamps, {}).outcome, ProbeOutcome::kZeros);
  const std::vector<unsigned char> old(kBlock, 0x5a);
  EXPECT_EQ(classify_probe(0, old, kStamps, old).outcome, ProbeOutcome::kOld);
  EXPECT_EQ(classify_probe(0, old, kStamps, {}).outcome, ProbeOutcome::kOther) << "old bytes not saved: other";
  // An earlier probe's stamp (another seed) is not this probe's wrap.
  const PatternSource earlier{PatternSpec{PatternKind::kStamp, 0}, 76, 0};
  EXPECT_EQ(classify_probe(0, stamp_of(64 * kBlock, earlier), kStamps, {}).outcome, ProbeOutcome::kOther);
  // A stamp whose first sector is right and the rest not: corrupted.
  std::vector<unsigned char> torn = stamp_of(64 * kBlock);
  torn[kBlock - 1] ^= 1;
  EXPECT_EQ(classify_probe(0, torn, kStamps, {}).outcome, ProbeOutcome::kOther);
}

std::vector<ProbedBlock> probes_of(std::int64_t blocks, const std::function<ProbedBlock(std::int64_t)>& device) {
  std::vector<ProbedBlock> probes;
  for (const std::int64_t offset : probe_offsets(blocks * kBlock, kBlock, 9, 32)) probes.push_back(device(offset));
  return probes;
}

TEST(Conclude, EveryBlockGoodHoldsAll) {
  const auto probes = probes_of(4096, [](std::int64_t at) { return ProbedBlock{at, ProbeOutcome::kGood}; });
  const CapacityFinding finding = conclude(probes);
  EXPECT_EQ(finding.verdict, CapacityVerdict::kHoldsAll);
  EXPECT_FALSE(finding.real_bytes);
  EXPECT_FALSE(bisection_of(probes, kBlock));
}

TEST(Conclude, BlocksThatShareAPlaceGiveTheWrapsSize) {
  // 4096 blocks reported, 256 held: each block lives at its offset mod 256
  // blocks, where the last written of those that share it stands.
  constexpr std::int64_t kHeld = 256 * kBlock;
  const std::vector<std::int64_t> offsets = probe_offsets(4096 * kBlock, kBlock, 9, 32);
  std::vector<ProbedBlock> probes;
  for (const std::int64_t offset : offsets) {
    std::int64_t last = offset;
    for (const std::int64_t other : offsets) {
      if (other % kHeld == offset % kHeld) last = other;  // written in ascending order: the highest wins
    }
    probes.push_back(last == offset ? ProbedBlock{offset, ProbeOutcome::kGood}
                                    : ProbedBlock{offset, ProbeOutcome::kWrapped, last});
  }
  const CapacityFinding finding = conclude(probes);
  EXPECT_EQ(finding.verdict, CapacityVerdict::kWraps);
  EXPECT_EQ(finding.real_bytes, kHeld);
  EXPECT_EQ(finding.wraps_to, 0);
  EXPECT_FALSE(bisection_of(probes, kBlock)) << "a wrap is found without halving";
}

TEST(Conclude, LostWritesPastAPointAreHalvedDownToTheBlock) {
  constexpr std::int64_t kHeld = 1000 * kBlock;  // not a power of two
  auto device = [&](std::int64_t at) {
    return at < kHeld ? ProbedBlock{at, ProbeOutcome::kGood} : ProbedBlock{at, ProbeOutcome::kZeros};
  };
  std::vector<ProbedBlock> probes = probes_of(4096, device);
  int rounds = 0;
  while (const std::optional<Bisection> gap = bisection_of(probes, kBlock)) {
    const std::optional<std::int64_t> next = next_bisection(gap->good, gap->bad, kBlock);
    if (!next) break;
    EXPECT_GT(*next, gap->good);
    EXPECT_LT(*next, gap->bad);
    probes.push_back(device(*next));
    ASSERT_LT(++rounds, 64);
  }
  const CapacityFinding finding = conclude(probes);
  EXPECT_EQ(finding.verdict, CapacityVerdict::kLoses);
  EXPECT_EQ(finding.real_bytes, kHeld);
  EXPECT_EQ(finding.first_bad_outcome, ProbeOutcome::kZeros);
  EXPECT_EQ(finding.good_past_first_bad, 0);
  EXPECT_LE(rounds, 12) << "log2 of the gap, no more";
}

TEST(Conclude, FailedWritesFailAndABadBlockAmongGoodOnesIsNotASmallerDevice) {
  std::vector<ProbedBlock> probes{{0, ProbeOutcome::kGood},
                                  {kBlock, ProbeOutcome::kWriteError, std::nullopt, 5},
                                  {2 * kBlock, ProbeOutcome::kGood}};
  const CapacityFinding finding = conclude(probes);
  EXPECT_EQ(finding.verdict, CapacityVerdict::kFails);
  EXPECT_EQ(finding.real_bytes, kBlock);
  EXPECT_EQ(finding.first_bad_error, 5);
  EXPECT_EQ(finding.good_past_first_bad, 1);
}

TEST(NextBisection, HalvesTheGapAndStopsWhenTheBlocksMeet) {
  EXPECT_EQ(next_bisection(0, 8 * kBlock, kBlock), 4 * kBlock);
  EXPECT_EQ(next_bisection(-kBlock, 0, kBlock), std::nullopt) << "block 0 itself is bad";
  EXPECT_EQ(next_bisection(3 * kBlock, 4 * kBlock, kBlock), std::nullopt);
  EXPECT_EQ(next_bisection(-kBlock, 2 * kBlock, kBlock), 0);
}

// --capacity=full: a card of 4 blocks that reports 10, filled whole in
// order. Each logical block x reads back the last block written over its
// place, the highest y below 10 with y % 4 == x % 4.
std::vector<ScannedExtent> scanned_wrapping_card() {
  std::vector<ScannedExtent> extents;
  for (std::int64_t x = 0; x < 10; ++x) {
    std::int64_t last = x;
    while (last + 4 < 10) last += 4;
    const ProbedBlock block = last == x ? ProbedBlock{x * kBlock, ProbeOutcome::kGood}
                                        : ProbedBlock{x * kBlock, ProbeOutcome::kWrapped, last * kBlock};
    add_scanned(extents, block, kBlock);
  }
  return extents;
}

TEST(AddScanned, BlocksAlikeMakeOneExtentAndAWrapContinuesOnlyOntoTheNextStamp) {
  const std::vector<ScannedExtent> extents = scanned_wrapping_card();
  // 0-1 hold 8-9's stamps; 2-5 hold 6-9's (a jump back after 1); 6-9 good.
  ASSERT_EQ(extents.size(), 3u);
  EXPECT_EQ(extents[0].offset, 0);
  EXPECT_EQ(extents[0].blocks, 2);
  EXPECT_EQ(extents[0].holds, 8 * kBlock);
  EXPECT_EQ(extents[1].offset, 2 * kBlock);
  EXPECT_EQ(extents[1].blocks, 4);
  EXPECT_EQ(extents[1].holds, 6 * kBlock);
  EXPECT_EQ(extents[2].outcome, ProbeOutcome::kGood);
  EXPECT_EQ(extents[2].blocks, 4);

  std::vector<ScannedExtent> errors;
  add_scanned(errors, {0, ProbeOutcome::kReadError, std::nullopt, 5}, kBlock);
  add_scanned(errors, {kBlock, ProbeOutcome::kReadError, std::nullopt, 61}, kBlock);
  add_scanned(errors, {2 * kBlock, ProbeOutcome::kReadError, std::nullopt, 61}, kBlock);
  add_scanned(errors, {4 * kBlock, ProbeOutcome::kReadError, std::nullopt, 61}, kBlock);
  ASSERT_EQ(errors.size(), 3u) << "another errno, and a gap, each begin an extent";
  EXPECT_EQ(errors[1].blocks, 2);
}

TEST(ConcludeScan, AFullyWrittenWrapGivesTheRealSizeFromTheDistancesTheStampsWentBack) {
  const std::vector<ScannedExtent> extents = scanned_wrapping_card();
  const CapacityFinding finding = conclude_scan(extents);
  EXPECT_EQ(finding.verdict, CapacityVerdict::kWraps);
  EXPECT_EQ(finding.real_bytes, 4 * kBlock) << "gcd of 8 and 4 blocks";
  EXPECT_EQ(finding.wraps_to, 0);
}

TEST(ConcludeScan, LostBlocksCountTheGoodBlocksPastTheFirstBadOne) {
  std::vector<ScannedExtent> extents;
  for (std::int64_t x = 0; x < 8; ++x) {
    const bool bad = x == 3 || x == 4;
    add_scanned(extents, {x * kBlock, bad ? ProbeOutcome::kZeros : ProbeOutcome::kGood}, kBlock);
  }
  const CapacityFinding finding = conclude_scan(extents);
  EXPECT_EQ(finding.verdict, CapacityVerdict::kLoses);
  EXPECT_EQ(finding.real_bytes, 3 * kBlock);
  EXPECT_EQ(finding.good_past_first_bad, 3) << "blocks, not extents";
  EXPECT_EQ(conclude_scan(std::vector<ScannedExtent>{{0, 9, ProbeOutcome::kGood}}).verdict, CapacityVerdict::kHoldsAll);
}

}  // namespace
}  // namespace ddtime
