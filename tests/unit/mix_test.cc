// SPDX-License-Identifier: GPL-3.0-or-later
// --mix's choice of each I/O: the share of reads it asked for, over the
// whole run and over every window of it, the same answer every time it is
// asked, and jobs and seeds that draw apart.
#include "model/mix.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace ddtime {
namespace {

double read_share(const MixChoice& choice, unsigned job, std::int64_t first, std::int64_t count) {
  std::int64_t reads = 0;
  for (std::int64_t record = first; record < first + count; ++record) reads += choice.reads(job, record) ? 1 : 0;
  return 100.0 * static_cast<double>(reads) / static_cast<double>(count);
}

TEST(MixChoice, OverAHundredThousandIOsTheShareOfReadsIsWithinAPointOfThePercentage) {
  for (unsigned percent : {1u, 10u, 30u, 50u, 70u, 90u, 99u}) {
    for (std::uint64_t seed : {1ULL, 42ULL, 0x123456789abcdefULL}) {
      const MixChoice choice{percent, seed};
      EXPECT_NEAR(read_share(choice, 0, 0, 100000), percent, 1.0) << percent << "% seed " << seed;
      EXPECT_NEAR(read_share(choice, 3, 5000000, 100000), percent, 1.0) << "job 3, far into the run";
    }
  }
}

TEST(MixChoice, NoPercentIsAllWritesAndAHundredIsAllReads) {
  EXPECT_EQ(read_share({0, 7}, 0, 0, 10000), 0.0);
  EXPECT_EQ(read_share({100, 7}, 0, 0, 10000), 100.0);
}

TEST(MixChoice, EveryWindowOfAThousandHoldsTheRatioAsABinomialDrawWould) {
  // A binomial draw of 1000 at 70%: sd 1.45 points; six of them bound
  // every one of 200 windows but once in many millions.
  const MixChoice choice{70, 99};
  for (std::int64_t window = 0; window < 200; ++window) {
    EXPECT_NEAR(read_share(choice, 0, window * 1000, 1000), 70.0, 6 * std::sqrt(1000 * 0.7 * 0.3) / 10) << window;
  }
}

TEST(MixChoice, TheSameRecordAlwaysGetsTheSameAnswer) {
  const MixChoice choice{50, 5};
  for (std::int64_t record = 0; record < 1000; ++record) EXPECT_EQ(choice.reads(1, record), choice.reads(1, record));
}

TEST(MixChoice, JobsAndSeedsDrawApart) {
  const MixChoice choice{50, 5};
  const MixChoice other_seed{50, 6};
  int same_job = 0;
  int same_seed = 0;
  for (std::int64_t record = 0; record < 10000; ++record) {
    same_job += choice.reads(0, record) == choice.reads(1, record) ? 1 : 0;
    same_seed += choice.reads(0, record) == other_seed.reads(0, record) ? 1 : 0;
  }
  // Independent draws agree half the time.
  EXPECT_NEAR(same_job, 5000, 300);
  EXPECT_NEAR(same_seed, 5000, 300);
}

TEST(MixCounts, AddUpSideBySide) {
  MixCounts total{1, 10, 2, 20};
  total += MixCounts{3, 30, 4, 40};
  EXPECT_EQ(total.reads, 4);
  EXPECT_EQ(total.read_bytes, 40);
  EXPECT_EQ(total.writes, 6);
  EXPECT_EQ(total.write_bytes, 60);
}

}  // namespace
}  // namespace ddtime
