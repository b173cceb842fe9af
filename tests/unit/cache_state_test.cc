// SPDX-License-Identifier: GPL-3.0-or-later
// --cache over a scripted OS with named files: what each mode does to
// which file, in what order, what it says when a step fails, and of which
// range residency is measured.
#include "measure/cache_state.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"
#include "system/buffer.h"

namespace ddtime {
namespace {

using testing::block_size;
using testing::FakeOs;

// Two 64 KiB files, "in" and "out", copied in bs=4k records.
FakeOs two_files() { return testing::named_files(testing::pattern(65536), std::vector<unsigned char>(65536, 'o')); }

Settings in_to_out() { return testing::in_to_out(4096); }

// As resolve finds them: both regular files.
constexpr FileKinds kTwoFiles{FileKind::kRegular, FileKind::kRegular};

// The calls made, from the first that starts with `from`.
std::size_t position_of(const FakeOs& os, const std::string& call) {
  return static_cast<std::size_t>(std::find(os.calls.begin(), os.calls.end(), call) - os.calls.begin());
}

TEST(CacheState, ColdWritesEachFileBackBeforeDroppingItsPages) {
  FakeOs os = two_files();
  const Settings settings = in_to_out();
  const CacheFailure failed = CacheStateSetter(os, settings, kTwoFiles, CacheMode::kCold).prepare();
  EXPECT_EQ(failed.err, 0);
  // "in" is opened first (fd 100), then "out" (fd 101).
  EXPECT_LT(position_of(os, "fdatasync 100"), position_of(os, "fadvise 100 0 0"));
  EXPECT_LT(position_of(os, "fdatasync 101"), position_of(os, "fadvise 101 0 0"));
  EXPECT_LT(position_of(os, "fadvise 101 0 0"), os.calls.size());
  EXPECT_EQ(os.count_calls("close 10"), 2u) << "every file it opened is closed";
}

TEST(CacheState, AFileNotThereYetHasNothingToDrop) {
  FakeOs os = two_files();
  os.output_name.reset();  // of= does not exist yet
  const CacheFailure failed = CacheStateSetter(os, in_to_out(), kTwoFiles, CacheMode::kCold).prepare();
  EXPECT_EQ(failed.err, 0);
  EXPECT_EQ(os.count_calls("fadvise"), 1u);
}

TEST(CacheState, ABlockDeviceOfTheKindResolveFoundIsFlushedNotWrittenBack) {
  FakeOs os = two_files();
  os.device_size = 65536;
  const CacheFailure failed =
      CacheStateSetter(os, in_to_out(), {FileKind::kBlock, FileKind::kRegular}, CacheMode::kCold).prepare();
  EXPECT_EQ(failed.err, 0);
  EXPECT_EQ(os.count_calls("flushbuf 100"), 1u);
  EXPECT_EQ(os.count_calls("fdatasync 100"), 0u);
  EXPECT_EQ(os.count_calls("fdatasync 101"), 1u);
}

TEST(CacheState, AnOutputNotThereAtResolveIsTheRegularFileARunMadeSince) {
  FakeOs os = two_files();
  os.resident = 1;
  const CacheState state =
      CacheStateSetter(os, in_to_out(), {FileKind::kRegular, FileKind::kAbsent}, CacheMode::kAsIs).measure();
  EXPECT_TRUE(state.output);
}

TEST(CacheState, AFailedWriteBackSaysWhatItWasDoingOnWhichFile) {
  FakeOs os = two_files();
  os.fdatasync_error = EIO;
  const CacheFailure failed = CacheStateSetter(os, in_to_out(), kTwoFiles, CacheMode::kCold).prepare();
  EXPECT_EQ(failed.err, EIO);
  EXPECT_EQ(failed.doing, "write back");
  EXPECT_EQ(failed.path, "in");
  EXPECT_EQ(os.count_calls("fadvise"), 0u) << "dirty pages are not dropped";
}

TEST(CacheState, ColdSystemNamesTheKnobItCouldNotWrite) {
  FakeOs os = two_files();
  const CacheFailure failed = CacheStateSetter(os, in_to_out(), kTwoFiles, CacheMode::kColdSystem).prepare();
  EXPECT_EQ(failed.err, ENOENT);
  EXPECT_EQ(failed.doing, "write");
  EXPECT_EQ(failed.path, "/proc/sys/vm/drop_caches");
  EXPECT_EQ(os.count_calls("fadvise"), 2u) << "the session's own files first";
}

TEST(CacheState, WarmReadsExactlyTheRangeTheRunWillRead) {
  FakeOs os = two_files();
  Settings settings = in_to_out();
  settings.skip_records = 2;
  settings.max_records = 3;
  const CacheFailure failed = CacheStateSetter(os, settings, kTwoFiles, CacheMode::kWarm).prepare();
  EXPECT_EQ(failed.err, 0);
  EXPECT_EQ(os.count_calls("lseek 100 8192 0"), 1u);
  EXPECT_EQ(os.count_calls("read 100 12288"), 1u) << "count= records of bs from skip=, in one read";
  EXPECT_EQ(os.count_calls("read 101"), 0u) << "the output is not warmed";
}

TEST(CacheState, AWarmUpASignalStopsSaysSo) {
  FakeOs os = two_files();
  const CacheFailure failed =
      CacheStateSetter(os, in_to_out(), kTwoFiles, CacheMode::kWarm).prepare([] { return true; });
  EXPECT_EQ(failed.err, EINTR);
  EXPECT_EQ(os.count_calls("read 100"), 0u);
}

TEST(CacheState, ResidencyIsOfTheRangesTheRunReadsAndWrites) {
  FakeOs os = two_files();
  os.resident = 3;
  Settings settings = in_to_out();
  settings.skip_records = 1;
  settings.seek_records = 4;
  settings.max_records = 2;
  const CacheState state = CacheStateSetter(os, settings, kTwoFiles, CacheMode::kAsIs).measure();
  EXPECT_EQ(os.count_calls("resident 100 4096 8192"), 1u);
  EXPECT_EQ(os.count_calls("resident 101 16384 8192"), 1u);
  ASSERT_TRUE(state.input);
  EXPECT_EQ(state.input->resident, 3);
  EXPECT_EQ(state.input->pages, 8192 / static_cast<std::int64_t>(page_size()));
  ASSERT_TRUE(state.output);
}

TEST(CacheState, AResidencyTheKernelWillNotTellIsUnknownNotFull) {
  FakeOs os = two_files();
  os.resident_error = EACCES;
  const CacheState state = CacheStateSetter(os, in_to_out(), kTwoFiles, CacheMode::kAsIs).measure();
  ASSERT_TRUE(state.input);
  EXPECT_FALSE(state.input->resident);
  EXPECT_GT(state.input->pages, 0);
}

TEST(CacheState, NoResidencyForAFileThatIsNotThere) {
  FakeOs os = two_files();
  os.output_name.reset();
  const CacheState state = CacheStateSetter(os, in_to_out(), kTwoFiles, CacheMode::kAsIs).measure();
  EXPECT_TRUE(state.input);
  EXPECT_FALSE(state.output);
}

}  // namespace
}  // namespace ddtime
