// SPDX-License-Identifier: GPL-3.0-or-later
// --pattern's generator: the names it takes, bytes that depend only on the
// seed and the offset (so pieces made in any order join up, and --verify
// can make them again), no block twice, and stamp's sector layout.
#include "measure/pattern.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "dd/engine.h"
#include "fakes/fake_ring.h"

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

TEST(PatternOs, AReadAfterASeekGivesTheStreamAtThatOffset) {
  PatternSpec spec;
  ASSERT_TRUE(parse_pattern("stamp", spec));
  const PatternSource source(spec, 5, 0);
  PosixOs real;
  PatternOs os(real, source);
  std::vector<unsigned char> block(512);
  EXPECT_EQ(os.lseek(0, 8192, SEEK_SET).n, 8192);
  ASSERT_EQ(os.read(0, block.data(), block.size()).n, 512);
  EXPECT_TRUE(block == made(source, 512, 8192)) << "--random with the sync engine seeks the input to each block";
  EXPECT_EQ(os.lseek(0, 0, SEEK_CUR).n, 8704);
  EXPECT_EQ(os.lseek(0, -1, SEEK_SET).err, EINVAL);
}

PatternSource random_source() {
  PatternSpec spec;
  parse_pattern("random", spec);
  return PatternSource(spec, 9, 0);
}

TEST(PatternRing, AnswersTheInputsReadsFromTheGeneratorWithNoRequestToTheRingBelow) {
  testing::FakeOs os;
  auto inner = std::make_unique<testing::FakeRing>(os, 4);
  testing::FakeRing& below = *inner;
  const PatternSource source = random_source();
  PatternRing ring(std::move(inner), source);
  std::vector<unsigned char> buffer(512);
  ring.queue({7, RingRequest::Kind::kRead, 0, buffer.data(), buffer.size(), 4096, -1});
  ASSERT_EQ(ring.submit_and_wait(1), 0);
  ASSERT_EQ(ring.completions().size(), 1u);
  EXPECT_EQ(ring.completions()[0].tag, 7u);
  EXPECT_EQ(ring.completions()[0].result, 512);
  EXPECT_TRUE(buffer == made(source, 512, 4096)) << "the stream's bytes at the read's offset";
  EXPECT_TRUE(below.log.empty());
  EXPECT_EQ(ring.counters().requests, 0u) << "no system call was asked for";
}

TEST(PatternRing, PassesWritesBelowAndReapsThemInTheSameBatchAsGeneratedReads) {
  testing::FakeOs os;
  auto inner = std::make_unique<testing::FakeRing>(os, 4);
  testing::FakeRing& below = *inner;
  const PatternSource source = random_source();
  PatternRing ring(std::move(inner), source);
  std::vector<unsigned char> read(512);
  std::vector<unsigned char> written(512, 'w');
  ring.queue({1, RingRequest::Kind::kRead, 0, read.data(), read.size(), 0, -1});
  ring.queue({2, RingRequest::Kind::kWrite, 1, written.data(), written.size(), 0, -1});
  ASSERT_EQ(ring.submit_and_wait(2), 0);
  ASSERT_EQ(ring.completions().size(), 2u);
  EXPECT_EQ(ring.completions()[0].tag, 1u);
  EXPECT_EQ(ring.completions()[1].tag, 2u);
  EXPECT_EQ(below.log, std::vector<std::string>{"write 1 @0 512"});
  EXPECT_EQ(os.output, written);
}

// --mix: a record that is a read reads the target, and its write goes
// nowhere; one that is a write is generated and written; the counts are
// of what reached the target.
MixChoice half_reads() { return MixChoice{50, 3}; }

TEST(MixOs, AReadRecordReadsTheTargetAndAWriteRecordWritesTheGeneratorsBytes) {
  testing::FakeOs os;
  os.input.assign(8 * 512, 'r');
  const PatternSource source = random_source();
  const MixChoice choice = half_reads();
  MixOs mixed(os, source, choice);
  std::vector<unsigned char> block(512);
  std::int64_t reads = 0;
  for (std::int64_t record = 0; record < 8; ++record) {
    ASSERT_EQ(mixed.read(0, block.data(), block.size()).n, 512);
    if (choice.reads(0, record)) {
      ++reads;
      EXPECT_EQ(block, std::vector<unsigned char>(512, 'r')) << "record " << record << " read the target";
    } else {
      EXPECT_TRUE(block == made(source, 512, record * 512)) << "record " << record << " is the stream's";
    }
    ASSERT_EQ(mixed.write(1, block.data(), block.size()).n, 512);
  }
  ASSERT_GT(reads, 0);
  ASSERT_LT(reads, 8);
  EXPECT_EQ(os.count_calls("pread 0"), static_cast<std::size_t>(reads));
  EXPECT_EQ(os.count_calls("pwrite 1"), static_cast<std::size_t>(8 - reads));
  EXPECT_EQ(mixed.counts().reads, reads);
  EXPECT_EQ(mixed.counts().read_bytes, reads * 512);
  EXPECT_EQ(mixed.counts().writes, 8 - reads);
  EXPECT_EQ(mixed.counts().write_bytes, (8 - reads) * 512);
}

TEST(MixOs, PositionsFollowTheSeeksAndThePositionalCalls) {
  testing::FakeOs os;
  os.input.assign(16 * 512, 'r');
  const PatternSource source = random_source();
  MixOs mixed(os, source, MixChoice{100, 1});
  std::vector<unsigned char> block(512);
  EXPECT_EQ(mixed.lseek(0, 4096, SEEK_SET).n, 4096);
  ASSERT_EQ(mixed.read(0, block.data(), block.size()).n, 512);
  EXPECT_EQ(os.count_calls("pread 0"), 1u);
  ASSERT_EQ(mixed.pread(0, block.data(), block.size(), 1024).n, 512);
  EXPECT_EQ(mixed.counts().reads, 2);
  EXPECT_EQ(mixed.write(1, block.data(), block.size()).n, 512) << "every record a read: no write reaches it";
  EXPECT_EQ(os.count_calls("pwrite 1"), 0u);
}

TEST(PatternRing, WithMixAnswersWhatDoesNotReachTheTargetAndCountsWhatDoes) {
  testing::FakeOs os;
  os.input.assign(8 * 512, 'r');
  auto inner = std::make_unique<testing::FakeRing>(os, 16);
  testing::FakeRing& below = *inner;
  const PatternSource source = random_source();
  const MixChoice choice = half_reads();
  PatternRing ring(std::move(inner), source, choice, 0);
  std::vector<std::vector<unsigned char>> blocks(8, std::vector<unsigned char>(512));
  std::int64_t reads = 0;
  for (std::uint64_t record = 0; record < 8; ++record) {
    reads += choice.reads(0, static_cast<std::int64_t>(record)) ? 1 : 0;
    ring.queue(
        {record, RingRequest::Kind::kRead, 0, blocks[record].data(), 512, static_cast<std::int64_t>(record * 512), -1});
    ring.queue({record | kWriteTag, RingRequest::Kind::kWrite, 1, blocks[record].data(), 512,
                static_cast<std::int64_t>(record * 512), -1});
  }
  ASSERT_EQ(ring.submit_and_wait(16), 0);
  EXPECT_EQ(ring.completions().size(), 16u);
  EXPECT_EQ(below.log.size(), 8u) << "one request below per record: its read or its write";
  EXPECT_EQ(ring.counts().reads, reads);
  EXPECT_EQ(ring.counts().writes, 8 - reads);
  EXPECT_EQ(ring.counts().read_bytes + ring.counts().write_bytes, 8 * 512);
}

// A ring whose first wait is cut short by a signal.
class InterruptedOnce final : public Ring {
 public:
  const char* name() const noexcept override { return "interrupted"; }
  unsigned depth() const noexcept override { return 4; }
  unsigned worker_threads() const noexcept override { return 0; }
  RingSetup setup() const noexcept override { return {}; }
  void queue(const RingRequest& request) noexcept override { pending_.push_back({request.tag, 1}); }
  int submit_and_wait(unsigned) noexcept override {
    reaped_.clear();
    if (waits_++ == 0) return EINTR;
    reaped_.swap(pending_);
    return 0;
  }
  std::span<const RingCompletion> completions() const noexcept override { return reaped_; }
  RingCounters counters() const noexcept override { return {}; }

 private:
  int waits_ = 0;
  std::vector<RingCompletion> pending_;
  std::vector<RingCompletion> reaped_;
};

TEST(PatternRing, AGeneratedReadIsNotLostWhenTheWaitBelowIsInterrupted) {
  const PatternSource source = random_source();
  PatternRing ring(std::make_unique<InterruptedOnce>(), source);
  std::vector<unsigned char> read(64);
  std::vector<unsigned char> written(64);
  ring.queue({1, RingRequest::Kind::kRead, 0, read.data(), read.size(), 0, -1});
  ring.queue({2, RingRequest::Kind::kWrite, 1, written.data(), written.size(), 0, -1});
  EXPECT_EQ(ring.submit_and_wait(2), EINTR);
  ASSERT_EQ(ring.submit_and_wait(2), 0);
  ASSERT_EQ(ring.completions().size(), 2u);
  EXPECT_EQ(ring.completions()[0].tag, 1u);
  EXPECT_EQ(ring.completions()[1].tag, 2u);
}

TEST(PatternRing, DoesNotWaitBelowWhenTheGeneratedReadsAnswerTheWait) {
  const PatternSource source = random_source();
  auto inner = std::make_unique<InterruptedOnce>();
  PatternRing ring(std::move(inner), source);
  std::vector<unsigned char> read(64);
  ring.queue({1, RingRequest::Kind::kRead, 0, read.data(), read.size(), 0, -1});
  EXPECT_EQ(ring.submit_and_wait(1), 0) << "the ring below, which would say EINTR, was not asked";
  EXPECT_EQ(ring.completions().size(), 1u);
}

}  // namespace
}  // namespace ddtime
