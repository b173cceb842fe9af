// SPDX-License-Identifier: GPL-3.0-or-later
// --jobs' split of the range: contiguous parts, one a job, the last
// shorter and none empty; a timed run's passes repeat the split; an
// endless range is dealt every Nth record; every record of a pass belongs
// to exactly one job.
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "dd/engine_queued_internal.h"

namespace ddtime {
namespace {

TEST(JobSplit, TenRecordsAmongThreeJobsAreThreeContiguousPartsTheLastShorter) {
  const std::vector<JobPart> parts = split_range(10, 3, false);
  ASSERT_EQ(parts.size(), 3U);
  EXPECT_EQ(parts[0].first, 0);
  EXPECT_EQ(parts[0].length, 4);
  EXPECT_EQ(parts[1].first, 4);
  EXPECT_EQ(parts[1].length, 4);
  EXPECT_EQ(parts[2].first, 8);
  EXPECT_EQ(parts[2].length, 2);
  for (std::int64_t i = 0; i < 4; ++i) EXPECT_EQ(parts[1].global(i), 4 + i);
}

TEST(JobSplit, FewerRecordsThanJobsGiveOneJobARecordAndNoEmptyParts) {
  const std::vector<JobPart> parts = split_range(3, 8, false);
  ASSERT_EQ(parts.size(), 3U);
  for (std::int64_t job = 0; job < 3; ++job) {
    EXPECT_EQ(parts[static_cast<std::size_t>(job)].first, job);
    EXPECT_EQ(parts[static_cast<std::size_t>(job)].length, 1);
  }
  EXPECT_TRUE(split_range(0, 4, false).empty());
}

TEST(JobSplit, AnUnevenSplitThatWouldLeaveAnEmptyPartHasOneJobFewer) {
  // Ten records at three a job would leave the fourth of four jobs one;
  // at ceil(10/4) = 3 a job: 3, 3, 3, 1.
  const std::vector<JobPart> parts = split_range(10, 4, false);
  ASSERT_EQ(parts.size(), 4U);
  EXPECT_EQ(parts[3].length, 1);
  // Nine records among six jobs: two a job leaves five parts, not six.
  EXPECT_EQ(split_range(9, 6, false).size(), 5U);
}

TEST(JobSplit, ATimedRunsPassesRepeatTheSplitSoEveryRecordOfAPassHasOneJob) {
  const std::int64_t records = 11;
  const std::vector<JobPart> parts = split_range(records, 3, true);
  for (std::int64_t pass = 0; pass < 3; ++pass) {
    std::multiset<std::int64_t> seen;
    for (const JobPart& part : parts) {
      for (std::int64_t i = 0; i < part.length; ++i) seen.insert(part.global(pass * part.length + i));
    }
    ASSERT_EQ(seen.size(), static_cast<std::size_t>(records));
    std::int64_t expected = pass * records;
    for (const std::int64_t record : seen) EXPECT_EQ(record, expected++) << "pass " << pass;
  }
}

TEST(JobSplit, AnEndlessRangeIsDealtEveryNthRecord) {
  const std::vector<JobPart> parts = split_range(std::nullopt, 3, false);
  ASSERT_EQ(parts.size(), 3U);
  EXPECT_EQ(parts[0].global(0), 0);
  EXPECT_EQ(parts[0].global(1), 3);
  EXPECT_EQ(parts[2].global(0), 2);
  EXPECT_EQ(parts[2].global(5), 17);
}

TEST(JobSplit, TheWholeRangeIsOneJobsRecordForRecord) {
  const JobPart whole;
  EXPECT_EQ(whole.global(0), 0);
  EXPECT_EQ(whole.global(123456789), 123456789);
}

// Job 0 reads another job's counts while that job publishes new ones:
// every read is one publish's values, the records beside their own
// samples, and the reads never go back.
TEST(PublishedCounts, AReaderNeverSeesTwoPublishesMixed) {
  PublishedCounts counts;
  constexpr std::int64_t kPublishes = 300000;
  std::thread job([&] {
    for (std::int64_t n = 1; n <= kPublishes; ++n) counts.publish({n, n, n, n, n, n});
  });
  std::int64_t last = 0, mixed = 0, reads = 0;
  while (last < kPublishes) {
    const PublishedCounts::Values v = counts.read();
    ++reads;
    if (v.full_records_out != v.full_records_in || v.bytes_in != v.full_records_in ||
        v.bytes_out != v.full_records_in || v.reads_sampled != v.full_records_in ||
        v.writes_sampled != v.full_records_in) {
      ++mixed;
    }
    EXPECT_GE(v.full_records_in, last);
    last = v.full_records_in;
  }
  job.join();
  EXPECT_EQ(mixed, 0) << "of " << reads << " reads";
}

}  // namespace
}  // namespace ddtime
