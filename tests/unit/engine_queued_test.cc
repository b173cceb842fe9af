// SPDX-License-Identifier: GPL-3.0-or-later
// The queued engine over a scripted ring that completes newest first:
// the output bytes, the records and the messages are the sync engine's,
// whatever order completions come in, with skip/seek/count in blocks and
// bytes, a partial final block, an error mid-copy (and what was written
// ahead of it), a short write, an output that takes writes in order only,
// and a stop asked for by a signal.
#include "dd/engine_queued.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"
#include "fakes/fake_ring.h"
#include "fakes/recording_events.h"
#include "system/buffer.h"
#include "system/signals.h"

namespace ddtime {
namespace {

using testing::block_size;
using testing::FakeOs;
using testing::FakeRing;
using testing::FixedClock;
using testing::kinds_of;
using testing::pattern;
using testing::RecordingEvents;

// One queued copy of depth slots over os and ring, as a session sets it up.
struct QueuedRun {
  QueuedRun(FakeOs& os, FakeRing& ring, const Settings& settings, unsigned depth, bool positional = true,
            bool stop_on_signal = false, bool refill_short_reads = false, bool order_free = false)
      : input_cache(os, kInputFd, settings), output_cache(os, kOutputFd, settings) {
    events.stop_on_signal = stop_on_signal;
    for (unsigned i = 0; i < depth; ++i) {
      buffers.emplace_back();
      buffers.back().allocate(static_cast<std::size_t>(settings.ibs), 4096);
    }
    for (AlignedBuffer& buffer : buffers) slots.push_back(buffer.span());
    const CopyRequest job{os,
                          events,
                          clock,
                          settings,
                          kinds_of(os),
                          4096,
                          probe_input_position(os),
                          input_cache,
                          output_cache,
                          0,
                          QueueSetup{&ring, slots, positional, order_free, refill_short_reads}};
    result = run_queued_copy(job);
  }
  RecordingEvents events;
  FixedClock clock;
  CacheAdvice input_cache;
  CacheAdvice output_cache;
  std::vector<AlignedBuffer> buffers;
  std::vector<std::span<unsigned char>> slots;
  CopyResult result;
};

TEST(QueuedEngine, CopiesAFileWhateverOrderCompletionsComeIn) {
  FakeOs os;
  os.input = pattern(10 * 512 + 100);
  FakeRing ring(os, 4);
  QueuedRun run(os, ring, block_size(512), 4);
  EXPECT_EQ(run.result.exit_status, 0);
  EXPECT_EQ(run.result.ending, Ending::kFinished);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.result.stats.full_records_in, 10);
  EXPECT_EQ(run.result.stats.partial_records_in, 1);
  EXPECT_EQ(run.result.stats.full_records_out, 10);
  EXPECT_EQ(run.result.stats.partial_records_out, 1);
  EXPECT_EQ(run.result.stats.bytes_out, 10 * 512 + 100);
  EXPECT_TRUE(run.events.notices.empty());
  // The partial block went through the Writer, at its place in the file.
  EXPECT_EQ(os.count_calls("write 1 100"), 1u);
}

TEST(QueuedEngine, KeepsNoMoreThanDepthRequestsInFlight) {
  FakeOs os;
  os.input = pattern(64 * 512);
  FakeRing ring(os, 4);
  QueuedRun run(os, ring, block_size(512), 4);
  const RingCounters counters = ring.counters();
  EXPECT_LE(counters.in_flight_sum, counters.submissions * 4);
  EXPECT_EQ(os.output, os.input);
}

TEST(QueuedEngine, SkipSeekAndCountInBlocks) {
  FakeOs os;
  os.input = pattern(20 * 512);
  Settings settings = block_size(512);
  settings.skip_records = 2;
  settings.seek_records = 3;
  settings.max_records = 4;
  FakeRing ring(os, 8);
  QueuedRun run(os, ring, settings, 8);
  ASSERT_EQ(os.output.size(), 7u * 512);
  EXPECT_TRUE(std::equal(os.output.begin() + 3 * 512, os.output.end(), os.input.begin() + 2 * 512));
  EXPECT_EQ(run.result.stats.full_records_in, 4);
  EXPECT_EQ(run.result.stats.full_records_out, 4);
  EXPECT_EQ(ring.counters().requests, 8u) << "four reads, four writes, nothing beyond count=";
}

TEST(QueuedEngine, CountInBytesEndsWithAShortRecord) {
  FakeOs os;
  os.input = pattern(10 * 512);
  Settings settings = block_size(512);
  settings.max_records = 2;
  settings.max_bytes = 100;
  FakeRing ring(os, 4);
  QueuedRun run(os, ring, settings, 4);
  EXPECT_EQ(os.output.size(), 1124u);
  EXPECT_EQ(run.result.stats.full_records_in, 2);
  EXPECT_EQ(run.result.stats.partial_records_in, 1);
  EXPECT_EQ(run.result.stats.partial_records_out, 1);
}

TEST(QueuedEngine, AReadErrorStopsWhereTheSyncEngineWouldAndCutsWhatWasWrittenAhead) {
  FakeOs os;
  os.input = pattern(12 * 512);
  FakeRing ring(os, 8);
  ring.outcome = [](std::uint64_t, const RingRequest& request) -> std::int64_t {
    return request.kind == RingRequest::Kind::kRead && request.offset == 5 * 512 ? -EIO : -1;
  };
  QueuedRun run(os, ring, block_size(512), 8);
  EXPECT_EQ(run.result.exit_status, 1);
  EXPECT_EQ(run.result.stats.full_records_in, 5);
  EXPECT_EQ(run.result.stats.full_records_out, 5);
  ASSERT_EQ(run.events.notices.size(), 1u);
  EXPECT_EQ(run.events.notices[0].what, Notice::kReadError);
  EXPECT_EQ(run.events.notices[0].err, EIO);
  EXPECT_EQ(os.output.size(), 5u * 512) << "records 6 and 7 were written ahead, then cut";
}

TEST(QueuedEngine, AWriteErrorCountsTheRecordInButNotOut) {
  FakeOs os;
  os.input = pattern(8 * 512);
  FakeRing ring(os, 4);
  ring.outcome = [](std::uint64_t, const RingRequest& request) -> std::int64_t {
    return request.kind == RingRequest::Kind::kWrite && request.offset == 3 * 512 ? -ENOSPC : -1;
  };
  // The file system is as full when the write is tried again in turn.
  os.on_write({testing::Fail(ENOSPC)});
  QueuedRun run(os, ring, block_size(512), 4);
  EXPECT_EQ(run.result.exit_status, 1);
  EXPECT_EQ(run.result.stats.full_records_in, 4);
  EXPECT_EQ(run.result.stats.full_records_out, 3);
  ASSERT_EQ(run.events.notices.size(), 1u);
  EXPECT_EQ(run.events.notices[0].what, Notice::kWriteError);
  EXPECT_EQ(os.output.size(), 3u * 512);
}

TEST(QueuedEngine, AShortWriteIsContinuedFromWhereItStopped) {
  FakeOs os;
  os.input = pattern(6 * 512);
  FakeRing ring(os, 4);
  ring.outcome = [](std::uint64_t sequence, const RingRequest& request) -> std::int64_t {
    return request.kind == RingRequest::Kind::kWrite && request.offset == 2 * 512 && sequence < 20 ? 100 : -1;
  };
  QueuedRun run(os, ring, block_size(512), 4);
  EXPECT_EQ(run.result.exit_status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.result.stats.full_records_out, 6);
}

TEST(QueuedEngine, AnOutputWithoutPositionsGetsItsWritesInRecordOrder) {
  FakeOs os;
  os.input = pattern(9 * 512 + 7);
  FakeRing ring(os, 4);
  QueuedRun run(os, ring, block_size(512), 4, /*positional=*/false);
  EXPECT_EQ(os.output, os.input);
  std::vector<std::string> writes;
  for (const std::string& line : ring.log) {
    if (line.rfind("write", 0) == 0) writes.push_back(line);
  }
  ASSERT_EQ(writes.size(), 9u);
  for (const std::string& line : writes) EXPECT_EQ(line, "write 1 @-1 512");
}

TEST(QueuedEngine, AnOutputWhereOrderCannotShowTakesWritesAsTheirReadsComplete) {
  // /dev/null: no offsets, but no need to wait for one write before the next.
  FakeOs ordered_os;
  ordered_os.input = pattern(32 * 512);
  FakeRing ordered_ring(ordered_os, 8);
  QueuedRun ordered(ordered_os, ordered_ring, block_size(512), 8, /*positional=*/false);
  FakeOs free_os;
  free_os.input = pattern(32 * 512);
  FakeRing free_ring(free_os, 8);
  QueuedRun free(free_os, free_ring, block_size(512), 8, /*positional=*/false, false, false, /*order_free=*/true);
  EXPECT_EQ(free.result.stats.full_records_out, 32);
  EXPECT_EQ(free_os.output.size(), 32u * 512);
  EXPECT_GE(ordered_ring.counters().submissions, 32u) << "one write at a time";
  EXPECT_LT(free_ring.counters().submissions * 2, ordered_ring.counters().submissions);
  for (const std::string& line : free_ring.log) {
    if (line.rfind("write", 0) == 0) {
      EXPECT_EQ(line, "write 1 @-1 512");
    }
  }
}

TEST(QueuedEngine, ASignalStopsSubmissionDrainsAndReportsTheRecordsDone) {
  FakeOs os;
  os.input = pattern(64 * 512);
  FakeRing ring(os, 4);
  ring.outcome = [](std::uint64_t sequence, const RingRequest&) -> std::int64_t {
    if (sequence == 10) signals_internal::any_pending = 1;  // a SIGINT arrives
    return -1;
  };
  QueuedRun run(os, ring, block_size(512), 4, true, /*stop_on_signal=*/true);
  signals_internal::any_pending = 0;
  EXPECT_EQ(run.result.ending, Ending::kInterrupted);
  EXPECT_EQ(run.events.signals_handled, 1);
  const Stats& stats = run.result.stats;
  EXPECT_GT(stats.full_records_out, 0);
  EXPECT_LT(stats.full_records_out, 64);
  EXPECT_EQ(stats.full_records_in, stats.full_records_out) << "in-order records only";
  EXPECT_LE(ring.counters().requests, 10u + 2 * 4) << "nothing new after the stop but what drains";
  EXPECT_TRUE(std::equal(os.output.begin(), os.output.begin() + stats.bytes_out, os.input.begin()));
  EXPECT_EQ(os.output.size(), static_cast<std::size_t>(stats.bytes_out)) << "what was written ahead is cut";
}

// A read cut short at record 2, the way io_uring cuts a /dev/zero read
// short when its own work is pending.
std::int64_t short_third_read(std::uint64_t, const RingRequest& request) {
  return request.kind == RingRequest::Kind::kRead && request.offset == 2 * 512 && request.length == 512 ? 100 : -1;
}

TEST(QueuedEngine, AShortReadFromAMemoryDeviceIsReadOnNotTakenForTheEnd) {
  FakeOs os;
  os.input = pattern(8 * 512);
  FakeRing ring(os, 4);
  ring.outcome = short_third_read;
  QueuedRun run(os, ring, block_size(512), 4, true, false, /*refill_short_reads=*/true);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.result.stats.full_records_in, 8);
  EXPECT_EQ(run.result.stats.partial_records_in, 0);
  EXPECT_EQ(std::count(ring.log.begin(), ring.log.end(), "read 0 @1124 412"), 1) << "the rest of record 2";
}

TEST(QueuedEngine, AShortReadFromAFileIsItsEnd) {
  FakeOs os;
  os.input = pattern(8 * 512);
  FakeRing ring(os, 4);
  ring.outcome = short_third_read;
  QueuedRun run(os, ring, block_size(512), 4);
  EXPECT_EQ(run.result.stats.full_records_in, 2);
  EXPECT_EQ(run.result.stats.partial_records_in, 1);
  EXPECT_EQ(os.output.size(), 2u * 512 + 100);
}

Settings direct_output(std::int64_t bs) {
  Settings settings = block_size(bs);
  settings.oflag.direct = true;
  return settings;
}

std::size_t first_call(const FakeOs& os, const std::string& prefix) {
  for (std::size_t i = 0; i < os.calls.size(); ++i) {
    if (os.calls[i].rfind(prefix, 0) == 0) return i;
  }
  return os.calls.size();
}

TEST(QueuedEngine, AnODirectCopyReservesTheOutputsFinalExtentBeforeTheFirstWrite) {
  FakeOs os;
  os.input = pattern(10 * 512 + 100);
  FakeRing ring(os, 4);
  QueuedRun run(os, ring, direct_output(512), 4);
  EXPECT_EQ(os.output, os.input);
  ASSERT_EQ(os.count_calls("reserve 1 0 5220"), 1u);
  EXPECT_LT(first_call(os, "reserve"), first_call(os, "write 1"));
  EXPECT_EQ(os.count_calls("ftruncate"), 0u) << "the copy filled the reservation";
}

TEST(QueuedEngine, TheReservationStartsAtSeekAndEndsAtCount) {
  FakeOs os;
  os.input = pattern(20 * 512);
  Settings settings = direct_output(512);
  settings.seek_records = 3;
  settings.max_records = 4;
  FakeRing ring(os, 4);
  QueuedRun run(os, ring, settings, 4);
  EXPECT_EQ(os.count_calls("reserve 1 1536 2048"), 1u);
  EXPECT_EQ(os.output.size(), 7u * 512);
}

TEST(QueuedEngine, WhatAReservationHeldBeyondAFailedCopyIsCut) {
  FakeOs os;
  os.input = pattern(12 * 512);
  FakeRing ring(os, 4);
  ring.outcome = [](std::uint64_t, const RingRequest& request) -> std::int64_t {
    return request.kind == RingRequest::Kind::kRead && request.offset == 5 * 512 ? -EIO : -1;
  };
  QueuedRun run(os, ring, direct_output(512), 4);
  EXPECT_EQ(run.result.exit_status, 1);
  EXPECT_EQ(os.count_calls("reserve 1 0 6144"), 1u);
  EXPECT_EQ(os.output.size(), 5u * 512) << "the file ends where the sync engine's would";
}

TEST(QueuedEngine, AReservationThatFailsLeavesTheFileAsItWasAndTheCopyGoesOn) {
  FakeOs os;
  os.input = pattern(6 * 512);
  os.reserve_error = ENOSPC;
  FakeRing ring(os, 4);
  QueuedRun run(os, ring, direct_output(512), 4);
  EXPECT_EQ(run.result.exit_status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(os.count_calls("ftruncate 1 0"), 1u) << "back to the size it had, in case it grew part way";
  EXPECT_TRUE(run.events.notices.empty());
}

TEST(QueuedEngine, BufferedWritesAreNotReserved) {
  FakeOs os;
  os.input = pattern(6 * 512);
  FakeRing ring(os, 4);
  QueuedRun run(os, ring, block_size(512), 4);
  EXPECT_EQ(os.count_calls("reserve"), 0u);
}

TEST(QueuedEngine, NotruncKeepsWhatTheFileHeldButNotWhatWasWrittenAheadPastIt) {
  FakeOs os;
  os.input = pattern(12 * 512);
  os.output = std::vector<unsigned char>(3 * 512, 0xee);
  Settings settings = block_size(512);
  settings.conv.notrunc = true;
  FakeRing ring(os, 8);
  ring.outcome = [](std::uint64_t, const RingRequest& request) -> std::int64_t {
    return request.kind == RingRequest::Kind::kRead && request.offset == 1 * 512 ? -EIO : -1;
  };
  QueuedRun run(os, ring, settings, 8);
  EXPECT_EQ(run.result.exit_status, 1);
  ASSERT_EQ(os.output.size(), 3u * 512) << "the file's own length; records 2 to 7 past it are cut";
  EXPECT_TRUE(std::equal(os.output.begin(), os.output.begin() + 512, os.input.begin()));
}

// A ring whose submission fails outright (io_uring_enter refused).
class FailingRing final : public Ring {
 public:
  const char* name() const noexcept override { return "failing"; }
  unsigned depth() const noexcept override { return 4; }
  unsigned worker_threads() const noexcept override { return 0; }
  RingSetup setup() const noexcept override { return {}; }
  void queue(const RingRequest&) noexcept override {}
  int submit_and_wait(unsigned) noexcept override { return ENOMEM; }
  std::span<const RingCompletion> completions() const noexcept override { return {}; }
  RingCounters counters() const noexcept override { return {}; }
};

TEST(QueuedEngine, ARingThatFailsEndsTheCopyInsteadOfWaitingForever) {
  FakeOs os;
  os.input = pattern(8 * 512);
  FailingRing ring;
  RecordingEvents events;
  FixedClock clock;
  const Settings settings = block_size(512);
  CacheAdvice input_cache(os, kInputFd, settings);
  CacheAdvice output_cache(os, kOutputFd, settings);
  std::vector<AlignedBuffer> buffers(4);
  std::vector<std::span<unsigned char>> slots;
  for (AlignedBuffer& buffer : buffers) {
    ASSERT_TRUE(buffer.allocate(512, 4096));
    slots.push_back(buffer.span());
  }
  const CopyRequest job{os,
                        events,
                        clock,
                        settings,
                        kinds_of(os),
                        4096,
                        probe_input_position(os),
                        input_cache,
                        output_cache,
                        0,
                        QueueSetup{&ring, slots, true}};
  const CopyResult result = run_queued_copy(job);
  EXPECT_EQ(result.exit_status, 1);
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].what, Notice::kReadError);
  EXPECT_EQ(events.notices[0].err, ENOMEM);
  EXPECT_EQ(result.stats.full_records_out, 0);
}

// Blocks written ahead take the room first (as another job's would):
// blocks 0 to 2 find the file system full. One sequential copy leaves
// blocks 0 to 4, where its own room ends: the file is cut back to its
// start and written in turn (through the Os) until the error comes again,
// and the records are that prefix's.
TEST(QueuedEngine, WritesThatCrowdOutTheFirstBlocksLeaveTheSequentialPrefix) {
  FakeOs os;
  os.input = pattern(16 * 512);
  FakeRing ring(os, 8);
  ring.outcome = [&](std::uint64_t, const RingRequest& request) -> std::int64_t {
    return request.kind == RingRequest::Kind::kWrite && request.offset < 3 * 512 ? -ENOSPC : -1;
  };
  os.on_write({testing::Bytes(512), testing::Bytes(512), testing::Bytes(512), testing::Bytes(512), testing::Bytes(512),
               testing::Fail(ENOSPC)});
  QueuedRun run(os, ring, block_size(512), 8);
  EXPECT_EQ(run.result.exit_status, 1);
  const std::vector<unsigned char> prefix(os.input.begin(), os.input.begin() + 5 * 512);
  EXPECT_EQ(os.output, prefix);
  EXPECT_EQ(run.result.stats.full_records_in, 6);
  EXPECT_EQ(run.result.stats.full_records_out, 5);
  EXPECT_EQ(run.result.stats.bytes_out, 5 * 512);
  ASSERT_EQ(run.events.notices.size(), 1u);
  EXPECT_EQ(run.events.notices[0].err, ENOSPC);
}

// Rule 2 of issue 28 for a block device, which keeps what was written:
// block 2's write fails (EIO) while blocks past it are written, so the
// user hears how many blocks, and which, one copy in turn would not have
// written, and nothing is cut or written again.
TEST(QueuedEngine, ABlockDeviceAfterAnErrorSaysWhichBlocksWereWrittenOutOfOrder) {
  FakeOs os;
  os.input = pattern(8 * 512);
  struct stat device {};
  device.st_mode = S_IFBLK | 0660;
  os.fd_stats[kOutputFd] = device;
  FakeRing ring(os, 8);
  ring.outcome = [&](std::uint64_t, const RingRequest& request) -> std::int64_t {
    return request.kind == RingRequest::Kind::kWrite && request.offset == 2 * 512 ? -EIO : -1;
  };
  QueuedRun run(os, ring, block_size(512), 8);
  EXPECT_EQ(run.result.exit_status, 1);
  ASSERT_EQ(run.events.out_of_order.size(), 1u);
  const WrittenOutOfOrder& said = run.events.out_of_order[0];
  EXPECT_EQ(said.stop_block, 2);
  EXPECT_EQ(said.blocks, 5);
  EXPECT_EQ(said.first_block, 3);
  EXPECT_EQ(said.last_block, 7);
  EXPECT_EQ(said.block_size, 512);
  EXPECT_EQ(os.output.size(), 8u * 512) << "the device keeps every block written";
}

// A regular file is cut back to the sequential prefix instead: nothing
// is left out of order to be said.
TEST(QueuedEngine, ARegularFileAfterAnErrorHasNothingOutOfOrderToSay) {
  FakeOs os;
  os.input = pattern(8 * 512);
  FakeRing ring(os, 8);
  ring.outcome = [&](std::uint64_t, const RingRequest& request) -> std::int64_t {
    return request.kind == RingRequest::Kind::kWrite && request.offset == 2 * 512 ? -EIO : -1;
  };
  os.on_write({testing::Bytes(512), testing::Bytes(512), testing::Fail(EIO)});
  QueuedRun run(os, ring, block_size(512), 8);
  EXPECT_EQ(run.result.exit_status, 1);
  EXPECT_TRUE(run.events.out_of_order.empty());
}

}  // namespace
}  // namespace ddtime
