// SPDX-License-Identifier: GPL-3.0-or-later
// io over a scripted OS: reads that retry EINTR and honour fullblock,
// writes that continue short writes and turn NUL blocks into seeks, the
// O_DIRECT tail, a stop asked for by a signal, skip= and seek= by seeking
// and by reading over a pipe, the truncations, the flush, and the cache
// advice nocache and the O_DIRECT tail make, call for call as GNU dd 9.1.
#include "dd/io.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "dd/io_position.h"
#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"
#include "fakes/recording_events.h"
#include "system/signals.h"

namespace ddtime {
namespace {

using testing::block_size;
using testing::Bytes;
using testing::Eintr;
using testing::Fail;
using testing::FakeOs;
using testing::FixedClock;
using testing::pattern;
using testing::RecordingEvents;

std::vector<std::string> advice_calls(const FakeOs& os) {
  std::vector<std::string> advice;
  for (const std::string& call : os.calls) {
    if (call.rfind("fadvise ", 0) == 0 || call.rfind("lseek ", 0) == 0) advice.push_back(call);
  }
  return advice;
}

using Calls = std::vector<std::string>;

TEST(CacheAdvice, WaitsForAWhole128KiBBatchBeforeAdvising) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  input.transferred(100000, 100000);
  EXPECT_TRUE(advice_calls(os).empty());
  input.transferred(100000, 200000);
  EXPECT_EQ(advice_calls(os), Calls({"fadvise 0 0 131072"}));
}

TEST(CacheAdvice, AdvisesNothingUntilEnabled) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.transferred(1 << 20, 1 << 20);
  EXPECT_TRUE(advice_calls(os).empty());
}

TEST(CacheAdvice, FinishAdvisesExactlyThePendingRange) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  for (std::int64_t offset = 5120 + 512; offset <= 10240; offset += 512) input.transferred(512, offset);
  EXPECT_EQ(input.finish(10240), 0);
  EXPECT_EQ(advice_calls(os), Calls({"fadvise 0 5120 5120"}));
}

TEST(CacheAdvice, FinishWithNothingPendingAdvisesNothing) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  EXPECT_EQ(input.finish(0), 0);
  EXPECT_TRUE(advice_calls(os).empty());
}

TEST(CacheAdvice, ToEndOfFileStartsAtThePageOfThePendingBytes) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  input.transferred(1048576, 1048576);
  input.transferred(185991, 1234567);
  input.reach_end_of_file();
  EXPECT_EQ(input.finish(1234567), 0);
  EXPECT_EQ(advice_calls(os), Calls({"fadvise 0 0 1048576", "fadvise 0 1048576 131072", "fadvise 0 1179648 0"}));
}

TEST(CacheAdvice, AnInputThatCannotSeekCannotBeAdvised) {
  FakeOs os;
  CacheAdvice input(os, kInputFd);
  input.enable();
  input.reach_end_of_file();
  EXPECT_EQ(input.finish(-1), ESPIPE);
  EXPECT_TRUE(advice_calls(os).empty());
}

TEST(CacheAdvice, OutputAsksTheKernelForItsOffsetOnceThenCountsAsGnuDoes) {
  FakeOs os;
  os.output.assign(200000, 'x');
  ASSERT_TRUE(os.lseek(kOutputFd, 200000, SEEK_SET).ok());
  os.calls.clear();
  CacheAdvice output(os, kOutputFd);
  output.enable();
  output.transferred(100000, -1);
  output.transferred(100000, -1);
  output.transferred(100000, -1);
  // 200000 - 131072 - 68928 = 0, then the offset moves by the batch and the
  // new remainder: 200000 + 131072 + 37856 - 168928 = 200000.
  EXPECT_EQ(advice_calls(os),
            Calls({"lseek 1 0 " + std::to_string(SEEK_CUR), "fadvise 1 0 131072", "fadvise 1 200000 131072"}));
}

TEST(CacheAdvice, AnOutputThatCannotSeekReportsWhy) {
  FakeOs os;
  os.output_seekable = false;
  CacheAdvice output(os, kOutputFd);
  output.enable();
  output.reach_end_of_file();
  EXPECT_EQ(output.finish(-1), ESPIPE);
  EXPECT_EQ(output.finish(-1), ESPIPE) << "asked once; the answer stays";
  EXPECT_EQ(os.count_calls("lseek 1"), 1u);
}

// --- reading and writing ---

// A Reader and a Writer over one fake, as an engine holds them.
struct Sides {
  explicit Sides(FakeOs& os, const Settings& settings)
      : input_cache(os, kInputFd, settings),
        output_cache(os, kOutputFd, settings),
        reader(os, events, stats, settings, input_cache),
        writer(os, events, stats, settings, output_cache) {}
  RecordingEvents events;
  Stats stats;
  CacheAdvice input_cache;
  CacheAdvice output_cache;
  Reader reader;
  Writer writer;
};

// A signal caught while opening a FIFO that has no writer yet interrupts
// the open (the handlers carry no SA_RESTART); GNU dd opens again (C2).
TEST(Open, AnOpenInterruptedByASignalIsMadeAgain) {
  FakeOs os;
  os.input_name = "in";
  os.output_name = "out";
  os.interrupted_opens = 2;
  Settings settings;
  settings.input_file = "in";
  settings.output_file = "out";
  EXPECT_EQ(open_input(os, settings), 0);
  EXPECT_EQ(os.count_calls("open in"), 3u);
  os.interrupted_opens = 1;
  EXPECT_EQ(open_output(os, settings), 0);
  EXPECT_EQ(os.count_calls("open out"), 2u);
}

TEST(Reader, RetriesEintrUntilTheReadHappens) {
  FakeOs os;
  os.input = pattern(512);
  os.on_read({Eintr(), Eintr(), Eintr(), Bytes(512)});
  Sides sides(os, block_size(512));
  std::vector<unsigned char> buffer(512);
  IoResult got = sides.reader.read(buffer.data(), buffer.size());
  EXPECT_EQ(got.n, 512);
  EXPECT_EQ(got.err, 0);
  EXPECT_EQ(os.count_calls("read 0"), 4u);
}

TEST(Reader, ShortReadsStayShortWithoutFullblock) {
  FakeOs os;
  os.input = pattern(512);
  os.on_read({Bytes(100)});
  Sides sides(os, block_size(512));
  std::vector<unsigned char> buffer(512);
  EXPECT_EQ(sides.reader.read(buffer.data(), buffer.size()).n, 100);
}

TEST(Reader, FullblockGathersShortReadsIntoOneRecord) {
  FakeOs os;
  os.input = pattern(512);
  os.on_read({Bytes(100), Eintr(), Bytes(300), Bytes(112)});
  Settings settings = block_size(512);
  settings.iflag.fullblock = true;
  Sides sides(os, settings);
  std::vector<unsigned char> buffer(512);
  EXPECT_EQ(sides.reader.read(buffer.data(), buffer.size()).n, 512);
  EXPECT_EQ(buffer, os.input);
}

TEST(Reader, EinvalAfterAShortDirectReadIsTheEndOfTheFile) {
  FakeOs os;
  os.input = pattern(1000);
  os.on_read({Bytes(1000), Fail(EINVAL)});
  Settings settings = block_size(4096);
  settings.iflag.direct = true;
  Sides sides(os, settings);
  std::vector<unsigned char> buffer(4096);
  EXPECT_EQ(sides.reader.read(buffer.data(), buffer.size()).n, 1000);
  IoResult end = sides.reader.read(buffer.data(), buffer.size());
  EXPECT_EQ(end.n, 0);
  EXPECT_EQ(end.err, 0);
}

TEST(Writer, ContinuesShortWritesUntilTheBlockIsOut) {
  FakeOs os;
  os.on_write({Bytes(100), Eintr(), Bytes(200), Bytes(212)});
  Sides sides(os, block_size(512));
  const std::vector<unsigned char> block = pattern(512);
  IoResult wrote = sides.writer.write(block.data(), block.size());
  EXPECT_EQ(wrote.n, 512);
  EXPECT_EQ(wrote.err, 0);
  EXPECT_EQ(os.output, block);
}

TEST(Writer, AWriteThatTakesNothingIsNoSpaceLeft) {
  FakeOs os;
  os.on_write({Bytes(100), Bytes(0)});
  Sides sides(os, block_size(512));
  const std::vector<unsigned char> block = pattern(512);
  IoResult wrote = sides.writer.write(block.data(), block.size());
  EXPECT_EQ(wrote.n, 100);
  EXPECT_EQ(wrote.err, ENOSPC);
}

TEST(Writer, SparseTurnsANulBlockIntoASeek) {
  FakeOs os;
  Settings settings = block_size(512);
  settings.conv.sparse = true;
  Sides sides(os, settings);
  const std::vector<unsigned char> zeros(512, 0);
  EXPECT_EQ(sides.writer.write(zeros.data(), zeros.size()).n, 512);
  EXPECT_EQ(os.count_calls("write 1"), 0u);
  EXPECT_EQ(os.count_calls("lseek 1 512"), 1u);
  EXPECT_TRUE(sides.writer.final_op_was_seek());
  const std::vector<unsigned char> data = pattern(512);
  sides.writer.write(data.data(), data.size());
  EXPECT_FALSE(sides.writer.final_op_was_seek());
}

TEST(Writer, DirectTailLeavesDirectModeAdvisesToEndOfFileAndAsksForFsync) {
  FakeOs os;
  Settings settings = block_size(4096);
  settings.oflag.direct = true;
  Sides sides(os, settings);
  const std::vector<unsigned char> block = pattern(4096);
  sides.writer.write(block.data(), block.size());
  EXPECT_EQ(os.count_calls("setfl 1"), 0u);
  EXPECT_FALSE(sides.writer.needs_fsync());
  sides.writer.write(block.data(), 100);
  EXPECT_EQ(os.count_calls("setfl 1"), 1u);
  EXPECT_EQ(os.count_calls("fadvise 1 4096 0"), 1u);
  EXPECT_TRUE(sides.writer.needs_fsync());
  EXPECT_TRUE(sides.output_cache.reaches_end_of_file());
}

// The handlers only set a flag; setting it by hand stands for a signal.
class PendingSignal {
 public:
  PendingSignal() { signals_internal::any_pending = 1; }
  ~PendingSignal() { signals_internal::any_pending = 0; }
};

TEST(Reader, AStopAskedForByASignalReadsNothing) {
  FakeOs os;
  os.input = pattern(512);
  Sides sides(os, block_size(512));
  sides.events.stop_on_signal = true;
  std::vector<unsigned char> buffer(512);
  PendingSignal pending;
  IoResult got = sides.reader.read(buffer.data(), buffer.size());
  EXPECT_EQ(got.err, kStopRequested);
  EXPECT_EQ(os.count_calls("read 0"), 0u);
  EXPECT_EQ(sides.events.signals_handled, 1);
}

TEST(Reader, ASignalThatDoesNotStopTheRunLetsTheReadHappen) {
  FakeOs os;
  os.input = pattern(512);
  Sides sides(os, block_size(512));
  std::vector<unsigned char> buffer(512);
  PendingSignal pending;
  EXPECT_EQ(sides.reader.read(buffer.data(), buffer.size()).n, 512);
  EXPECT_EQ(sides.events.signals_handled, 1);
}

TEST(Writer, AStopAskedForByASignalWritesNothing) {
  FakeOs os;
  Sides sides(os, block_size(512));
  sides.events.stop_on_signal = true;
  const std::vector<unsigned char> block = pattern(512);
  PendingSignal pending;
  IoResult wrote = sides.writer.write(block.data(), block.size());
  EXPECT_EQ(wrote.err, kStopRequested);
  EXPECT_EQ(wrote.n, 0);
  EXPECT_EQ(os.count_calls("write 1"), 0u);
}

TEST(WriteAll, RetriesEintrAndCallsAZeroWriteNoSpace) {
  FakeOs os;
  os.on_write({Eintr(), Bytes(2), Bytes(3)});
  EXPECT_EQ(write_all(os, kOutputFd, "hello"), 0);
  EXPECT_EQ(os.output_text(), "hello");
  os.on_write({Bytes(0)});
  EXPECT_EQ(write_all(os, kOutputFd, "more"), ENOSPC);
}

// --- positioning ---

class NoBuffers final : public PositionBuffers {
 public:
  unsigned char* block_for(Side) override { return nullptr; }
};

class OneBlock final : public PositionBuffers {
 public:
  explicit OneBlock(std::size_t size) : block_(size) {}
  unsigned char* block_for(Side) override { return block_.data(); }

 private:
  std::vector<unsigned char> block_;
};

TEST(SkipInput, SeeksASeekableInputAndAllocatesNothing) {
  FakeOs os;
  os.input = pattern(4096);
  Settings settings = block_size(512);
  settings.skip_records = 3;
  Sides sides(os, settings);
  InputOffset offset(probe_input_position(os));
  NoBuffers none;
  EXPECT_EQ(skip_input(os, sides.events, sides.reader, offset, settings, none), Ending::kFinished);
  EXPECT_EQ(offset.value(), 1536);
  EXPECT_TRUE(sides.events.notices.empty());
}

TEST(SkipInput, PastTheEndOfAFileStopsAtTheEndAndWarns) {
  FakeOs os;
  os.input = pattern(1000);
  Settings settings = block_size(512);
  settings.skip_records = 4;
  Sides sides(os, settings);
  InputOffset offset(probe_input_position(os));
  NoBuffers none;
  EXPECT_EQ(skip_input(os, sides.events, sides.reader, offset, settings, none), Ending::kFinished);
  EXPECT_EQ(offset.value(), 1000);
  EXPECT_TRUE(sides.events.heard(Notice::kCannotSkipToOffset));
}

TEST(SkipInput, ReadsOverAPipeInIbsBlocks) {
  FakeOs os;
  os.input = pattern(2048);
  os.input_seekable = false;
  Settings settings;
  settings.ibs = 512;
  settings.obs = 1 << 20;
  settings.skip_records = 2;
  Sides sides(os, settings);
  InputOffset offset(probe_input_position(os));
  OneBlock block(512);
  EXPECT_EQ(skip_input(os, sides.events, sides.reader, offset, settings, block), Ending::kFinished);
  EXPECT_EQ(os.count_calls("read 0 512"), 2u);
  EXPECT_TRUE(sides.events.notices.empty());
}

TEST(SkipInput, APipeThatEndsEarlyWarns) {
  FakeOs os;
  os.input = pattern(600);
  os.input_seekable = false;
  Settings settings = block_size(512);
  settings.skip_records = 3;
  Sides sides(os, settings);
  InputOffset offset(probe_input_position(os));
  OneBlock block(512);
  EXPECT_EQ(skip_input(os, sides.events, sides.reader, offset, settings, block), Ending::kFinished);
  EXPECT_TRUE(sides.events.heard(Notice::kCannotSkipToOffset));
}

TEST(SkipInput, NoRoomForTheBlockDies) {
  FakeOs os;
  os.input = pattern(600);
  os.input_seekable = false;
  Settings settings = block_size(512);
  settings.skip_records = 1;
  Sides sides(os, settings);
  InputOffset offset(probe_input_position(os));
  NoBuffers none;
  EXPECT_EQ(skip_input(os, sides.events, sides.reader, offset, settings, none), Ending::kDie);
}

TEST(SeekOutput, SeeksASeekableOutput) {
  FakeOs os;
  Settings settings = block_size(512);
  settings.seek_records = 2;
  settings.seek_bytes = 10;
  Sides sides(os, settings);
  NoBuffers none;
  EXPECT_EQ(seek_output(os, sides.events, sides.reader, sides.writer, settings, none), Ending::kFinished);
  EXPECT_EQ(os.count_calls("lseek 1 1034"), 1u);
}

TEST(TruncateAtSeek, CutsTheOutputAtTheSeekPoint) {
  FakeOs os;
  os.output.assign(5000, 'x');
  Settings settings = block_size(512);
  settings.output_file = "out";
  settings.seek_records = 3;
  RecordingEvents events;
  EXPECT_EQ(truncate_at_seek(os, events, settings), 0);
  EXPECT_EQ(os.output.size(), 1536u);
}

TEST(TruncateAtSeek, LeavesTheOutputAloneUnderNotrunc) {
  FakeOs os;
  Settings settings = block_size(512);
  settings.output_file = "out";
  settings.seek_records = 3;
  settings.conv.notrunc = true;
  RecordingEvents events;
  EXPECT_EQ(truncate_at_seek(os, events, settings), 0);
  EXPECT_EQ(os.count_calls("ftruncate"), 0u);
}

TEST(TruncateAtSeek, AFailureOnARegularFileIsReportedButNotFatal) {
  FakeOs os;
  os.ftruncate_error = EPERM;
  Settings settings = block_size(512);
  settings.output_file = "out";
  settings.seek_records = 1;
  RecordingEvents events;
  EXPECT_EQ(truncate_at_seek(os, events, settings), 0);
  ASSERT_TRUE(events.heard(Notice::kTruncateFailed));
  EXPECT_EQ(events.notices[0].value, 512);
}

TEST(ExtendToFinalSeek, TruncatesUpToWhereTheLastSeekLeftTheOutput) {
  FakeOs os;
  os.output.assign(100, 'x');
  ASSERT_TRUE(os.lseek(kOutputFd, 4096, SEEK_SET).ok());
  RecordingEvents events;
  EXPECT_EQ(extend_to_final_seek(os, events), 0);
  EXPECT_EQ(os.output.size(), 4096u);
}

TEST(FlushOutput, FdatasyncNotSupportedFallsBackToFsync) {
  FakeOs os;
  os.fdatasync_error = EINVAL;
  Conversions conv;
  conv.fdatasync = true;
  RecordingEvents events;
  EXPECT_EQ(flush_output(os, events, conv, false), 0);
  EXPECT_EQ(os.count_calls("fsync 1"), 1u);
  EXPECT_TRUE(events.notices.empty());
}

TEST(FlushOutput, AFailedFsyncIsReportedAndFails) {
  FakeOs os;
  os.fsync_error = EIO;
  RecordingEvents events;
  EXPECT_EQ(flush_output(os, events, Conversions{}, true), 1);
  EXPECT_TRUE(events.heard(Notice::kFsyncFailed));
}

TEST(InputOffset, CountsUntilItNoLongerFits) {
  InputOffset offset(InputPosition{true, INT64_MAX - 10, 0});
  offset.advance(5);
  EXPECT_EQ(offset.value(), INT64_MAX - 5);
  offset.advance(10);
  EXPECT_EQ(offset.value(), -1);
}

TEST(InputOffset, SkipsBadBytesBySeekingWhereTheKernelDidNot) {
  FakeOs os;
  os.input = pattern(4096);
  InputOffset offset(probe_input_position(os));
  RecordingEvents events;
  EXPECT_TRUE(offset.skip_bad_bytes(os, events, 512));
  EXPECT_EQ(offset.value(), 512);
  EXPECT_EQ(os.count_calls("lseek 0 512 " + std::to_string(SEEK_CUR)), 1u);
  EXPECT_TRUE(events.notices.empty());
}

// positioning_of the kinds of the real files a user names: what a queued
// engine may read at its own offsets, in any order, or only in order.
Positioning positioning_of_fd(int fd) {
  PosixOs os;
  return positioning_of(find_kind(os, std::nullopt, fd));
}

Positioning positioning_of_path(const char* path, int flags) {
  const int fd = ::open(path, flags | O_CLOEXEC);
  EXPECT_GE(fd, 0) << path;
  const Positioning kind = positioning_of_fd(fd);
  ::close(fd);
  return kind;
}

TEST(Positioning, ARegularFileTakesPositionedRequests) {
  EXPECT_EQ(positioning_of_path("/proc/self/exe", O_RDONLY), Positioning::kPositional);
}

TEST(Positioning, TheMemoryDevicesTakeRequestsInAnyOrder) {
  for (const char* path : {"/dev/zero", "/dev/null", "/dev/full", "/dev/urandom", "/dev/random"}) {
    EXPECT_EQ(positioning_of_path(path, O_RDONLY), Positioning::kOrderFree) << path;
  }
}

TEST(Positioning, APipeTakesRequestsOnlyInOrder) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  EXPECT_EQ(positioning_of_fd(ends[0]), Positioning::kInOrder);
  EXPECT_EQ(positioning_of_fd(ends[1]), Positioning::kInOrder);
  ::close(ends[0]);
  ::close(ends[1]);
}

TEST(Positioning, OtherCharacterDevicesTakeRequestsOnlyInOrder) {
  // /dev/kmsg gives one log record per read; /dev/tty may be absent.
  if (::access("/dev/kmsg", R_OK) != 0) GTEST_SKIP() << "needs a readable /dev/kmsg";
  EXPECT_EQ(positioning_of_path("/dev/kmsg", O_RDONLY | O_NONBLOCK), Positioning::kInOrder);
}

}  // namespace
}  // namespace ddtime
