// SPDX-License-Identifier: GPL-3.0-or-later
// The copy loop against a scripted OS: record counting, short reads and
// writes, EINTR, errors mid-copy, sparse output, skip and count in bytes.
#include "dd/engine_sync.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"
#include "fakes/recording_events.h"
#include "system/buffer.h"

namespace ddtime {
namespace {

using testing::block_size;
using testing::Bytes;
using testing::Eintr;
using testing::Eof;
using testing::Fail;
using testing::FakeOs;
using testing::FixedClock;
using testing::kinds_of;
using testing::pattern;
using testing::RecordingEvents;

Settings reblocking(std::int64_t ibs, std::int64_t obs) {
  Settings settings;
  settings.ibs = ibs;
  settings.obs = obs;
  return settings;
}

struct CopyRun {
  CopyResult outcome;
  Stats stats;
};

// As a session runs the engine: the input's position probed once it is
// open, cache advice as the settings ask.
CopyRun copy(FakeOs& os, RecordingEvents& events, const Settings& settings, const QueueSetup& queue = {}) {
  FixedClock clock;
  CacheAdvice input_cache(os, kInputFd, settings);
  CacheAdvice output_cache(os, kOutputFd, settings);
  const CopyRequest job{os,          events,       clock, settings, kinds_of(os), page_size(), probe_input_position(os),
                        input_cache, output_cache, 0,     queue};
  CopyResult result = run_sync_copy(job);
  return {result, result.stats};
}

// --random's sync copy: the records in the order's blocks.
CopyRun copy_randomly(FakeOs& os, RecordingEvents& events, const Settings& settings, const BlockOrder& order) {
  QueueSetup queue;
  queue.order = order;
  return copy(os, events, settings, queue);
}

// The blocks the order's first records go to.
std::vector<bool> blocks_of_first(const BlockOrder& order, std::int64_t records) {
  std::vector<bool> placed(static_cast<std::size_t>(order.blocks()));
  for (std::int64_t record = 0; record < records; ++record)
    placed[static_cast<std::size_t>(order.block_of(record))] = true;
  return placed;
}

TEST(Engine, StraightCopyCountsFullAndPartialRecords) {
  FakeOs os;
  os.input = pattern(1300);
  RecordingEvents events;
  CopyRun run = copy(os, events, block_size(512));
  EXPECT_EQ(run.outcome.exit_status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.stats.full_records_in, 2);
  EXPECT_EQ(run.stats.partial_records_in, 1);
  EXPECT_EQ(run.stats.full_records_out, 2);
  EXPECT_EQ(run.stats.partial_records_out, 1);
  EXPECT_EQ(run.stats.bytes_out, 1300);
  EXPECT_TRUE(events.notices.empty());
}

TEST(Engine, RetriesEintrStormWithoutLosingData) {
  FakeOs os;
  os.input = pattern(1024);
  os.on_read({Eintr(), Eintr(), Eintr(), Bytes(512), Eintr(), Bytes(512)});
  os.on_write({Eintr(), Bytes(512), Eintr(), Eintr()});
  RecordingEvents events;
  CopyRun run = copy(os, events, block_size(512));
  EXPECT_EQ(run.outcome.exit_status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.stats.full_records_in, 2);
  EXPECT_EQ(run.stats.full_records_out, 2);
}

TEST(Engine, ShortReadsBecomePartialRecordsWithoutFullblock) {
  FakeOs os;
  os.input = pattern(600);
  os.on_read({Bytes(100), Bytes(500)});
  RecordingEvents events;
  CopyRun run = copy(os, events, block_size(512));
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.stats.full_records_in, 0);
  EXPECT_EQ(run.stats.partial_records_in, 2);
  EXPECT_EQ(run.stats.partial_records_out, 2);
}

TEST(Engine, FullblockAccumulatesShortReadsIntoFullRecords) {
  FakeOs os;
  os.input = pattern(1100);
  os.on_read({Bytes(100), Bytes(300), Bytes(200), Bytes(7)});
  Settings settings = block_size(512);
  settings.iflag.fullblock = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.stats.full_records_in, 2);
  EXPECT_EQ(run.stats.partial_records_in, 1);
}

TEST(Engine, ContinuesShortWritesUntilTheBlockIsOut) {
  FakeOs os;
  os.input = pattern(1024);
  os.on_write({Bytes(100), Bytes(1), Bytes(411), Bytes(3)});
  RecordingEvents events;
  CopyRun run = copy(os, events, block_size(512));
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.stats.full_records_out, 2);
  EXPECT_EQ(os.count_calls("write 1"), 5u);
}

TEST(Engine, EnospcMidBlockCountsBytesButNoRecord) {
  FakeOs os;
  os.input = pattern(1024);
  os.on_write({Bytes(512), Bytes(100), Fail(ENOSPC)});
  RecordingEvents events;
  CopyRun run = copy(os, events, block_size(512));
  EXPECT_EQ(run.outcome.exit_status, 1);
  EXPECT_EQ(run.outcome.ending, Ending::kFinished);
  EXPECT_EQ(run.stats.bytes_out, 612);
  EXPECT_EQ(run.stats.full_records_out, 1);
  EXPECT_EQ(run.stats.partial_records_out, 0);
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].what, Notice::kWriteError);
  EXPECT_EQ(events.notices[0].err, ENOSPC);
}

TEST(Engine, ZeroByteWriteIsReportedAsNoSpace) {
  FakeOs os;
  os.input = pattern(512);
  os.on_write({Eof()});
  RecordingEvents events;
  CopyRun run = copy(os, events, block_size(512));
  EXPECT_EQ(run.outcome.exit_status, 1);
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].err, ENOSPC);
}

TEST(Engine, ReadErrorWithoutNoerrorStopsAfterWritingWhatWasRead) {
  FakeOs os;
  os.input = pattern(2048);
  os.on_read({Bytes(512), Fail(EIO)});
  RecordingEvents events;
  CopyRun run = copy(os, events, block_size(512));
  EXPECT_EQ(run.outcome.exit_status, 1);
  EXPECT_EQ(os.output.size(), 512u);
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].what, Notice::kReadError);
  EXPECT_EQ(events.notices[0].err, EIO);
}

TEST(Engine, NoerrorSyncReplacesTheFailedBlockWithZerosAndGoesOn) {
  FakeOs os;
  os.input = pattern(1536);
  os.on_read({Bytes(512), Fail(EIO)});
  Settings settings = block_size(512);
  settings.conv.noerror = true;
  settings.conv.sync = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(run.outcome.exit_status, 0);
  ASSERT_EQ(os.output.size(), 1536u);
  std::vector<unsigned char> expected = os.input;
  std::fill(expected.begin() + 512, expected.begin() + 1024, 0);
  EXPECT_EQ(os.output, expected);
  EXPECT_EQ(events.stats_shown, 1);
  EXPECT_EQ(run.stats.full_records_in, 2);
  EXPECT_EQ(run.stats.partial_records_in, 1);
  EXPECT_EQ(run.stats.full_records_out, 3);
}

TEST(Engine, NoerrorWithoutSyncSkipsTheFailedBlock) {
  FakeOs os;
  os.input = pattern(1536);
  os.on_read({Bytes(512), Fail(EIO)});
  Settings settings = block_size(512);
  settings.conv.noerror = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(run.outcome.exit_status, 0);
  std::vector<unsigned char> expected(os.input.begin(), os.input.begin() + 512);
  expected.insert(expected.end(), os.input.begin() + 1024, os.input.end());
  EXPECT_EQ(os.output, expected);
  EXPECT_EQ(run.stats.full_records_in, 2);
  EXPECT_EQ(run.stats.partial_records_in, 0);
}

TEST(Engine, ReblockingWritesWholeOutputBlocksThenTheRest) {
  FakeOs os;
  os.input = pattern(1000);
  RecordingEvents events;
  CopyRun run = copy(os, events, reblocking(100, 256));
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.stats.full_records_in, 10);
  EXPECT_EQ(run.stats.full_records_out, 3);
  EXPECT_EQ(run.stats.partial_records_out, 1);
  EXPECT_EQ(os.count_calls("read 0 100"), 11u);
  EXPECT_EQ(os.count_calls("write 1 256"), 3u);
  EXPECT_EQ(os.count_calls("write 1 232"), 1u);
}

TEST(Engine, ReblockingSplitsLargeReadsIntoSmallWrites) {
  FakeOs os;
  os.input = pattern(4096 + 100);
  RecordingEvents events;
  CopyRun run = copy(os, events, reblocking(4096, 512));
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(run.stats.full_records_in, 1);
  EXPECT_EQ(run.stats.partial_records_in, 1);
  EXPECT_EQ(run.stats.full_records_out, 8);
  EXPECT_EQ(run.stats.partial_records_out, 1);
}

TEST(Engine, ReblockingWriteFailureQuitsWithStats) {
  FakeOs os;
  os.input = pattern(1024);
  os.on_write({Bytes(100), Fail(ENOSPC)});
  RecordingEvents events;
  CopyRun run = copy(os, events, reblocking(512, 256));
  EXPECT_EQ(run.outcome.exit_status, 1);
  EXPECT_EQ(run.outcome.ending, Ending::kQuit);
  EXPECT_EQ(run.stats.bytes_out, 100);
  EXPECT_EQ(run.stats.partial_records_out, 1);
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].what, Notice::kBlockWriteError);
}

TEST(Engine, SparseOutputSeeksOverZeroBlocksAndExtendsTheFile) {
  FakeOs os;
  os.input = pattern(512);
  os.input.resize(1536, 0);
  Settings settings = block_size(512);
  settings.conv.sparse = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(run.outcome.exit_status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(os.count_calls("write 1"), 1u);
  EXPECT_EQ(os.count_calls("ftruncate 1 1536"), 1u);
  EXPECT_EQ(run.stats.bytes_out, 1536);
}

TEST(Engine, SkipOnAnUnseekableInputReadsOverIt) {
  FakeOs os;
  os.input = pattern(500);
  os.input_seekable = false;
  Settings settings = block_size(100);
  settings.skip_records = 2;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(std::vector<unsigned char>(os.input.begin() + 200, os.input.end()), os.output);
  EXPECT_EQ(run.stats.full_records_in, 3);
  EXPECT_TRUE(events.notices.empty());
}

TEST(Engine, SkipPastTheEndOfAFileWarnsAndCopiesNothing) {
  FakeOs os;
  os.input = pattern(300);
  Settings settings = block_size(100);
  settings.skip_records = 5;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(run.outcome.exit_status, 0);
  EXPECT_TRUE(os.output.empty());
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].what, Notice::kCannotSkipToOffset);
}

TEST(Engine, CountInBytesEndsWithOneShortRecord) {
  FakeOs os;
  os.input = pattern(1000);
  Settings settings = block_size(100);
  settings.max_records = 2;
  settings.max_bytes = 50;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(os.output.size(), 250u);
  EXPECT_EQ(run.stats.full_records_in, 2);
  EXPECT_EQ(run.stats.partial_records_in, 1);
  EXPECT_EQ(os.count_calls("read 0 50"), 1u);
}

TEST(Engine, CountZeroReadsNothing) {
  FakeOs os;
  os.input = pattern(1000);
  Settings settings = block_size(100);
  settings.max_records = 0;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(os.count_calls("read"), 0u);
  EXPECT_EQ(run.stats.full_records_in, 0);
}

TEST(Engine, WarnsOnceAboutAPartialReadFollowedByMoreData) {
  FakeOs os;
  os.input = pattern(1000);
  os.on_read({Bytes(100), Bytes(100), Bytes(100)});
  Settings settings = block_size(512);
  settings.max_records = 3;
  ASSERT_TRUE(settings.partial_read_matters());
  RecordingEvents events;
  copy(os, events, settings);
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].what, Notice::kPartialRead);
  EXPECT_EQ(events.notices[0].value, 100);
}

TEST(Engine, SyncPadsShortRecordsWithZeros) {
  FakeOs os;
  os.input = pattern(700);
  Settings settings = block_size(512);
  settings.conv.sync = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  ASSERT_EQ(os.output.size(), 1024u);
  EXPECT_EQ(os.output[700], 0);
  EXPECT_EQ(os.output[1023], 0);
  EXPECT_EQ(run.stats.partial_records_in, 1);
  EXPECT_EQ(run.stats.full_records_out, 2);
}

TEST(Engine, SeekOnASeekableOutputMovesWithoutWriting) {
  FakeOs os;
  os.input = pattern(100);
  Settings settings = block_size(100);
  settings.seek_records = 2;
  RecordingEvents events;
  copy(os, events, settings);
  ASSERT_EQ(os.output.size(), 300u);
  EXPECT_EQ(os.count_calls("write 1"), 1u);
}

TEST(Engine, SeekOnAPipeCannotReadTheOutputAndQuits) {
  FakeOs os;
  os.input = pattern(100);
  os.output_seekable = false;
  Settings settings = block_size(100);
  settings.seek_records = 1;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(run.outcome.exit_status, 1);
  EXPECT_EQ(run.outcome.ending, Ending::kQuit);
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].what, Notice::kCannotSeek);
  EXPECT_EQ(events.notices[0].err, ESPIPE);
}

TEST(Engine, HugeBufferThatCannotBeAllocatedDiesWithoutStats) {
  FakeOs os;
  os.input = pattern(10);
  Settings settings = block_size(std::int64_t{1} << 61);
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(run.outcome.exit_status, 1);
  EXPECT_EQ(run.outcome.ending, Ending::kDie);
  ASSERT_EQ(events.notices.size(), 1u);
  EXPECT_EQ(events.notices[0].what, Notice::kInputBufferExhausted);
}

TEST(Engine, ConvertingCopyReblocksTheConvertedBytes) {
  FakeOs os;
  std::string text = "hello, world\n";
  os.input.assign(text.begin(), text.end());
  Settings settings = reblocking(3, 4);
  settings.conv.ucase = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(os.output_text(), "HELLO, WORLD\n");
  EXPECT_EQ(run.stats.full_records_in, 4);
  EXPECT_EQ(run.stats.partial_records_in, 1);
  EXPECT_EQ(run.stats.full_records_out, 3);
  EXPECT_EQ(run.stats.partial_records_out, 1);
  EXPECT_EQ(os.count_calls("write 1 4"), 3u);
}

TEST(Engine, BlockCountsTruncatedRecordsInStats) {
  FakeOs os;
  std::string text = "abcdefgh\nab\nxyz12345\n";
  os.input.assign(text.begin(), text.end());
  Settings settings = block_size(512);
  settings.cbs = 4;
  settings.conv.block = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(os.output_text(), "abcdab  xyz1");
  EXPECT_EQ(run.stats.truncated_records, 2);
}

TEST(Engine, SwabEmitsTheOddLastByteUnswapped) {
  FakeOs os;
  std::string text = "abcdefg";
  os.input.assign(text.begin(), text.end());
  os.on_read({Bytes(3), Bytes(4)});
  Settings settings = block_size(512);
  settings.conv.swab = true;
  RecordingEvents events;
  copy(os, events, settings);
  EXPECT_EQ(os.output_text(), "badcfeg");
}

TEST(Engine, DirectOutputDropsODirectForTheLastPartialBlockAndAsksForFsync) {
  FakeOs os;
  os.input = pattern(4096 + 100);
  Settings settings = block_size(4096);
  settings.oflag.direct = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(os.count_calls("setfl 1"), 1u);
  EXPECT_TRUE(run.outcome.output_needs_fsync);
}

TEST(Engine, ReadErrorWithNoerrorOnAPipeCarriesOn) {
  FakeOs os;
  os.input = pattern(1024);
  os.input_seekable = false;
  os.on_read({Bytes(512), Fail(EIO)});
  Settings settings = block_size(512);
  settings.conv.noerror = true;
  RecordingEvents events;
  CopyRun run = copy(os, events, settings);
  EXPECT_EQ(run.outcome.exit_status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(events.stats_shown, 1);
}

// --random with the sync engine: each record is read and written at its
// block with one call a side (pread, pwrite), as fio's psync does; no
// lseek per record. The copy is still the sequential copy's, byte for byte.
TEST(Engine, RandomOrderPlacesEachRecordWithOnePreadAndOnePwrite) {
  FakeOs os;
  os.input = pattern(16 * 512 + 100);
  RecordingEvents events;
  const Settings settings = block_size(512);
  FixedClock clock;
  CacheAdvice input_cache(os, kInputFd, settings);
  CacheAdvice output_cache(os, kOutputFd, settings);
  CopyRequest job{os,          events,       clock, settings, kinds_of(os), page_size(), probe_input_position(os),
                  input_cache, output_cache, 0};
  job.queue.order = BlockOrder(16, 3);
  os.calls.clear();
  const CopyResult result = run_sync_copy(job);
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(result.stats.full_records_in, 16);
  EXPECT_EQ(result.stats.partial_records_in, 1);
  // 16 whole blocks, the partial last one, and the read that finds the end.
  EXPECT_EQ(os.count_calls("pread 0 512 "), 18u);
  EXPECT_EQ(os.count_calls("pwrite 1 "), 17u);
  EXPECT_EQ(os.count_calls("read "), 0u);
  EXPECT_EQ(os.count_calls("write "), 0u);
  // The ones that find where each side stands before the copy (the first
  // write's offset, each side's range start), and none per record.
  EXPECT_EQ(os.count_calls("lseek "), 3u) << ::testing::PrintToString(os.calls);
  std::vector<std::string> blocks_read;
  for (const std::string& call : os.calls) {
    if (call.rfind("pread 0 512 ", 0) == 0) blocks_read.push_back(call.substr(12));
  }
  ASSERT_EQ(blocks_read.size(), 18u);
  EXPECT_EQ(blocks_read[16], "8192");
  EXPECT_EQ(blocks_read[17], "8704");
}

// A short read at a record's block goes on at the offset where it ended,
// as iflag=fullblock asks, and a short write the same.
TEST(Engine, RandomOrderGoesOnAfterAShortReadAndAShortWriteAtTheSameBlock) {
  FakeOs os;
  os.input = pattern(8 * 512);
  Settings settings = block_size(512);
  settings.iflag.fullblock = true;
  os.on_read({Bytes(100)});
  os.on_write({Bytes(300)});
  RecordingEvents events;
  FixedClock clock;
  CacheAdvice input_cache(os, kInputFd, settings);
  CacheAdvice output_cache(os, kOutputFd, settings);
  CopyRequest job{os,          events,       clock, settings, kinds_of(os), page_size(), probe_input_position(os),
                  input_cache, output_cache, 0};
  job.queue.order = BlockOrder(8, 11);
  const CopyResult result = run_sync_copy(job);
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_EQ(result.stats.full_records_in, 8);
  EXPECT_EQ(result.stats.partial_records_in, 0);
}

// --random: the fourth write finds the file system full. One sequential
// copy has the blocks in turn up to where the room ends: the blocks
// written in the seed's order are cut back to those in place from the
// start, and the rest written in turn until the error comes again.
TEST(Engine, ARandomCopyMeetingAFullFileSystemLeavesTheSequentialPrefix) {
  constexpr std::int64_t kBlocks = 8;
  const BlockOrder order(kBlocks, 1);
  const std::vector<bool> placed = blocks_of_first(order, 3);
  const auto in_place = std::find(placed.begin(), placed.end(), false) - placed.begin();
  const std::int64_t end = std::min<std::int64_t>(in_place + 2, kBlocks);  // the room the cut gives back
  FakeOs os;
  os.input = pattern(kBlocks * 512);
  os.on_write({Bytes(512), Bytes(512), Bytes(512), Fail(ENOSPC), Bytes(512), Bytes(512), Fail(ENOSPC)});
  RecordingEvents events;
  const CopyResult result = copy_randomly(os, events, block_size(512), order).outcome;
  EXPECT_EQ(result.exit_status, 1);
  const std::vector<unsigned char> prefix(os.input.begin(), os.input.begin() + end * 512);
  EXPECT_EQ(os.output, prefix) << "blocks in place from the start: " << in_place;
  if (end < kBlocks) {
    EXPECT_EQ(result.stats.full_records_in, end + 1);
  }
  EXPECT_EQ(result.stats.full_records_out, end);
  EXPECT_EQ(result.stats.bytes_out, end * 512);
  ASSERT_EQ(events.notices.size(), 1u) << "the error is said once";
  EXPECT_EQ(events.notices[0].err, ENOSPC);
}

// Rule 2 of issue 28 for a block device, with --random at depth 1 (the
// sync engine, auto's choice there): the fourth write fails (EIO); the
// device keeps the three blocks written, nothing is cut or written again,
// and those past the run in place from the start are said.
TEST(Engine, ARandomCopyToABlockDeviceAfterAnErrorSaysWhichBlocksWereWrittenOutOfOrder) {
  constexpr std::int64_t kBlocks = 8;
  const BlockOrder order(kBlocks, 1);
  const std::vector<bool> placed = blocks_of_first(order, 3);
  const auto in_place = std::find(placed.begin(), placed.end(), false) - placed.begin();
  const std::int64_t stop = std::min<std::int64_t>(in_place, order.block_of(3));
  std::int64_t expected = 0;
  std::int64_t first = kBlocks;
  std::int64_t last = -1;
  for (std::int64_t block = stop; block < kBlocks; ++block) {
    if (!placed[static_cast<std::size_t>(block)]) continue;
    ++expected;
    first = std::min(first, block);
    last = std::max(last, block);
  }
  ASSERT_GT(expected, 0) << "seed 1 must write a block out of order before the error";
  FakeOs os;
  os.input = pattern(kBlocks * 512);
  struct stat device {};
  device.st_mode = S_IFBLK | 0660;
  os.fd_stats[kOutputFd] = device;
  os.on_write({Bytes(512), Bytes(512), Bytes(512), Fail(EIO)});
  RecordingEvents events;
  const CopyResult result = copy_randomly(os, events, block_size(512), order).outcome;
  EXPECT_EQ(result.exit_status, 1);
  EXPECT_EQ(result.stats.full_records_out, 3) << "nothing is written again";
  ASSERT_EQ(events.out_of_order.size(), 1u);
  const WrittenOutOfOrder& said = events.out_of_order[0];
  EXPECT_EQ(said.stop_block, stop);
  EXPECT_EQ(said.blocks, expected);
  EXPECT_EQ(said.first_block, first);
  EXPECT_EQ(said.last_block, last);
  EXPECT_EQ(said.block_size, 512);
  for (std::int64_t block = 0; block < kBlocks; ++block) {
    if (!placed[static_cast<std::size_t>(block)]) continue;
    const auto at = static_cast<std::size_t>(block * 512);
    ASSERT_GE(os.output.size(), at + 512);
    EXPECT_TRUE(std::equal(os.output.begin() + static_cast<std::ptrdiff_t>(at),
                           os.output.begin() + static_cast<std::ptrdiff_t>(at + 512),
                           os.input.begin() + static_cast<std::ptrdiff_t>(at)))
        << "block " << block << " is kept";
  }
}

}  // namespace
}  // namespace ddtime
