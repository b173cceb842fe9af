// SPDX-License-Identifier: GPL-3.0-or-later
// Runtime failures: opening, reading, writing and closing, with the exact
// message, whether the summary follows, and the exit status.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "e2e/harness.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

constexpr const char* kEmptySummary = "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n";

class OpenErrors : public DdTest {};
class ReadErrors : public DdTest {};
class WriteErrors : public DdTest {};
class CloseErrors : public DdTest {};
class Memory : public DdTest {};

// --- open ---

TEST_F(OpenErrors, MissingInputFile) {
  auto r = dd({"if=nope", "of=out"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'nope': No such file or directory\n");
  EXPECT_FALSE(exists("out")) << "the output is opened after the input";
}

TEST_F(OpenErrors, MissingInputIsReportedEvenWithStatusNone) {
  auto r = dd({"if=nope", "status=none"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'nope': No such file or directory\n");
}

TEST_F(OpenErrors, DanglingSymlinkAsInput) {
  std::filesystem::create_symlink("nowhere", path("link"));
  auto r = dd({"if=link"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'link': No such file or directory\n");
}

TEST_F(OpenErrors, InputPathThroughAFile) {
  write_file("f", "x");
  auto r = dd({"if=f/x"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'f/x': Not a directory\n");
}

TEST_F(OpenErrors, OutputIsADirectory) {
  std::filesystem::create_directory(path("dir"));
  auto r = dd({"if=/dev/null", "of=dir"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'dir': Is a directory\n");
}

TEST_F(OpenErrors, OutputInAMissingDirectory) {
  auto r = dd({"if=/dev/null", "of=nodir/x"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'nodir/x': No such file or directory\n");
}

TEST_F(OpenErrors, OutputInAReadOnlyDirectory) {
  std::filesystem::create_directory(path("ro"));
  ASSERT_EQ(::chmod(path("ro").c_str(), 0555), 0);
  Options o = opts({"if=/dev/null", "of=ro/x"});
  o.obey_permissions = true;
  auto r = dd(o);
  if (!r.spawn_error.empty()) GTEST_SKIP() << "cannot drop privileges: " << r.spawn_error;
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'ro/x': Permission denied\n");
  EXPECT_FALSE(exists("ro/x"));
}

TEST_F(OpenErrors, UnreadableOutputDirectory) {
  std::filesystem::create_directory(path("locked"));
  ASSERT_EQ(::chmod(path("locked").c_str(), 0), 0);
  Options o = opts({"if=/dev/null", "of=locked/x"});
  o.obey_permissions = true;
  auto r = dd(o);
  if (!r.spawn_error.empty()) GTEST_SKIP() << "cannot drop privileges: " << r.spawn_error;
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'locked/x': Permission denied\n");
}

TEST_F(OpenErrors, ReadOnlyOutputFile) {
  write_file("out", "keep");
  ASSERT_EQ(::chmod(path("out").c_str(), 0444), 0);
  Options o = opts({"if=/dev/null", "of=out"});
  o.obey_permissions = true;
  auto r = dd(o);
  if (!r.spawn_error.empty()) GTEST_SKIP() << "cannot drop privileges: " << r.spawn_error;
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'out': Permission denied\n");
  EXPECT_EQ(read_file("out"), "keep");
}

TEST_F(OpenErrors, UnreadableInputFile) {
  write_file("secret", "x");
  ASSERT_EQ(::chmod(path("secret").c_str(), 0), 0);
  Options o = opts({"if=secret"});
  o.obey_permissions = true;
  auto r = dd(o);
  if (!r.spawn_error.empty()) GTEST_SKIP() << "cannot drop privileges: " << r.spawn_error;
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'secret': Permission denied\n");
}

// --- read ---

TEST_F(ReadErrors, ReadingADirectory) {
  std::filesystem::create_directory(path("dir"));
  auto r = dd({"if=dir", "of=/dev/null"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(), std::string("dd: error reading 'dir': Is a directory\n") + kEmptySummary);
}

TEST_F(ReadErrors, StdinIsADirectory) {
  std::filesystem::create_directory(path("dir"));
  Options o = opts({"of=/dev/null"});
  o.in = Stdin::file("dir");
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(), std::string("dd: error reading 'standard input': Is a directory\n") + kEmptySummary);
}

TEST_F(ReadErrors, ReadErrorIsReportedWithStatusNone) {
  std::filesystem::create_directory(path("dir"));
  auto r = dd({"if=dir", "of=/dev/null", "status=none"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: error reading 'dir': Is a directory\n");
}

TEST_F(ReadErrors, ReadErrorLeavesTheTruncatedOutputEmpty) {
  std::filesystem::create_directory(path("dir"));
  write_file("out", "old");
  auto r = dd({"if=dir", "of=out", "bs=1", "status=noxfer"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: error reading 'dir': Is a directory\n0+0 records in\n0+0 records out\n");
  EXPECT_EQ(file_size("out"), 0);
}

TEST_F(ReadErrors, ClosedStdinFailsToReadAndToClose) {
  Options o = opts({"of=/dev/null"});
  o.in = Stdin::closed();
  auto r = dd(o);
  // The failing close ends dd before the summary is printed.
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: error reading 'standard input': Bad file descriptor\n"
            "dd: closing input file 'standard input': Bad file descriptor\n");
}

TEST_F(ReadErrors, ClosedStdinWithCountZeroOnlyFailsToClose) {
  Options o = opts({"of=/dev/null", "count=0"});
  o.in = Stdin::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: closing input file 'standard input': Bad file descriptor\n");
}

TEST_F(ReadErrors, ClosedStdinIsFineWhenIfIsGiven) {
  write_file("in", "abc");
  Options o = opts({"if=in", "of=out"});
  o.in = Stdin::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n3 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), "abc");
}

TEST_F(ReadErrors, SkipOnClosedStdin) {
  Options o = opts({"skip=1", "of=/dev/null"});
  o.in = Stdin::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: error reading 'standard input': Bad file descriptor\n"
            "dd: closing input file 'standard input': Bad file descriptor\n");
}

// --- write ---

TEST_F(WriteErrors, DevFullAsOutputFile) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/full"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error writing '/dev/full': No space left on device\n"
            "0+1 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(WriteErrors, DevFullAsStdout) {
  write_file("in", "abc");
  Options o = opts({"if=in"});
  o.out = Stdout::file("/dev/full");
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error writing 'standard output': No space left on device\n"
            "0+1 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(WriteErrors, DevFullStopsAtTheFirstBlock) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/full", "bs=1", "count=3"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error writing '/dev/full': No space left on device\n"
            "1+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(WriteErrors, DevFullWithNothingToWriteSucceeds) {
  auto r = dd({"if=/dev/null", "of=/dev/full"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), kEmptySummary);
}

// Reblocking output has two write paths with different wording: a full
// obs-sized block written mid-copy fails with "writing to", the final
// partial block with "error writing".
TEST_F(WriteErrors, FullReblockedBlockFailsWithWritingTo) {
  write_file("in", "abcdefgh");
  auto r = dd({"if=in", "of=/dev/full", "ibs=2", "obs=4"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: writing to '/dev/full': No space left on device\n"
            "2+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(WriteErrors, FinalPartialReblockedBlockFailsWithErrorWriting) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/full", "ibs=2", "obs=4"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error writing '/dev/full': No space left on device\n"
            "1+1 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(WriteErrors, ConversionWithBsReblocksAndFailsWithWritingTo) {
  write_file("in", "abcdefgh");
  auto r = dd({"if=in", "of=/dev/full", "bs=4", "conv=ucase", "status=none"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: writing to '/dev/full': No space left on device\n");
}

TEST_F(WriteErrors, ClosedStdoutFailsToWriteAndToClose) {
  write_file("in", "abc");
  Options o = opts({"if=in"});
  o.out = Stdout::closed();
  auto r = dd(o);
  // As with a closed stdin: no summary after the failing close.
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: error writing 'standard output': Bad file descriptor\n"
            "dd: closing output file 'standard output': Bad file descriptor\n");
}

TEST_F(WriteErrors, ClosedStdoutWithNothingToWriteOnlyFailsToClose) {
  Options o = opts({"if=/dev/null"});
  o.out = Stdout::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: closing output file 'standard output': Bad file descriptor\n");
}

TEST_F(WriteErrors, ClosedStdoutIsReportedWithStatusNone) {
  write_file("in", "abc");
  Options o = opts({"if=in", "status=none"});
  o.out = Stdout::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: error writing 'standard output': Bad file descriptor\n"
            "dd: closing output file 'standard output': Bad file descriptor\n");
}

TEST_F(WriteErrors, SeekOnClosedStdout) {
  write_file("in", "abc");
  Options o = opts({"if=in", "seek=1"});
  o.out = Stdout::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: 'standard output': cannot seek: Bad file descriptor\n"
            "dd: closing output file 'standard output': Bad file descriptor\n");
}

TEST_F(WriteErrors, ClosedStdoutIsFineWhenOfIsGiven) {
  write_file("in", "abc");
  Options o = opts({"if=in", "of=out", "status=none"});
  o.out = Stdout::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "abc");
}

// --- close ---

TEST_F(CloseErrors, BothClosedStreamsAreReported) {
  Options o = opts({"count=0"});
  o.in = Stdin::closed();
  o.out = Stdout::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: closing input file 'standard input': Bad file descriptor\n");
}

// --- standard error and standard output that cannot be written ---
// GNU checks its standard streams as it exits: text it could not write
// fails the run, even a copy that succeeded. Learned from GNU dd 9.1.

class UnwritableStreams : public DdTest {};

TEST_F(UnwritableStreams, StatisticsToAClosedStderrFailTheCopy) {
  Options o = opts({"if=/dev/zero", "of=out", "bs=512", "count=2"});
  o.err = Stderr::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(file_size("out"), 1024) << "the copy itself still happens";
}

TEST_F(UnwritableStreams, StatisticsToAFullStderrFailTheCopy) {
  Options o = opts({"if=/dev/zero", "of=/dev/null", "count=1"});
  o.err = Stderr::file("/dev/full");
  EXPECT_STATUS(dd(o), "exit 1");
}

TEST_F(UnwritableStreams, RecordsLinesAloneAlsoFailToAFullStderr) {
  Options o = opts({"if=/dev/zero", "of=/dev/null", "count=0", "status=noxfer"});
  o.err = Stderr::file("/dev/full");
  EXPECT_STATUS(dd(o), "exit 1");
}

TEST_F(UnwritableStreams, StatusNoneWritesNothingSoAFullStderrIsFine) {
  Options o = opts({"if=/dev/zero", "of=/dev/null", "count=1", "status=none"});
  o.err = Stderr::file("/dev/full");
  EXPECT_STATUS(dd(o), "exit 0");
  o.err = Stderr::closed();
  EXPECT_STATUS(dd(o), "exit 0");
}

TEST_F(UnwritableStreams, HelpIgnoresAFullStderr) {
  Options o = opts({"--help"});
  o.err = Stderr::file("/dev/full");
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_NE(r.out.find("Usage: "), std::string::npos);
}

TEST_F(UnwritableStreams, HelpToAFullStdoutIsAWriteError) {
  Options o = opts({"--help"});
  o.out = Stdout::file("/dev/full");
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: write error: No space left on device\n");
}

TEST_F(UnwritableStreams, VersionToAClosedStdoutIsAWriteError) {
  Options o = opts({"--version"});
  o.out = Stdout::closed();
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: write error: Bad file descriptor\n");
}

TEST_F(UnwritableStreams, TheTimingReportToAFullStderrFailsToo) {
  SKIP_IF_ANOTHER_DD();
  Options o = opts({"if=/dev/zero", "of=/dev/null", "count=1"});
  o.as_ddtime = true;
  o.err = Stderr::file("/dev/full");
  EXPECT_STATUS(dd(o), "exit 1");
  o.args.push_back("--json");
  EXPECT_STATUS(dd(o), "exit 1");
}

// --- memory ---

TEST_F(Memory, HugeBlockSizeWithCountZeroAllocatesNothing) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "bs=1P", "count=0"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), kEmptySummary);
}

// Positioning on a FIFO takes only the block of the side it positions: a
// huge block size on the other side is never allocated (GNU's
// tests/dd/no-allocate.sh). Run under an address-space limit a little above
// what a one-byte copy needs, found by bisection, so that a 64 MiB buffer
// cannot fit.
class TightMemory : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer reserves more address space than any ulimit -v leaves";
#endif
    std::int64_t low = 1024;
    std::int64_t high = 1 << 20;  // KiB
    if (!fits({"if=/dev/zero", "of=/dev/null", "bs=1", "count=1"}, high)) GTEST_SKIP() << "cannot run under ulimit -v";
    while (high - low > 256) {
      const std::int64_t middle = (low + high) / 2;
      (fits({"if=/dev/zero", "of=/dev/null", "bs=1", "count=1"}, middle) ? high : low) = middle;
    }
    limit_kib_ = high + 16 * 1024;
    ASSERT_EQ(::mkfifo(path("tape").c_str(), 0600), 0);
    // Holding the FIFO open for writing, with one block in it, lets dd open
    // it at once and read a block over skip= or seek=.
    tape_ = ::open(path("tape").c_str(), O_RDWR);
    ASSERT_GE(tape_, 0);
    ASSERT_EQ(::write(tape_, std::string(512, '\0').data(), 512), 512);
  }
  void TearDown() override {
    if (tape_ >= 0) ::close(tape_);
    DdTest::TearDown();
  }

  Result dd_limited(std::vector<std::string> args, std::int64_t limit_kib) const {
    Options o = opts(std::move(args));
    // exec -a keeps the program name dd, as the messages expect.
    o.run_under = {"/bin/bash", "-c", "ulimit -v " + std::to_string(limit_kib) + " && exec -a dd \"$0\" \"$@\""};
    return dd(o);
  }
  bool fits(std::vector<std::string> args, std::int64_t limit_kib) const {
    return dd_limited(std::move(args), limit_kib).status() == "exit 0";
  }

  std::int64_t limit_kib_ = 0;
  int tape_ = -1;
};

// Under --json with no path, standard error holds one JSON document however
// the run ends, memory running out where nothing else reports it included
// (defect C3). Where that happens depends on the build, so a session of
// many runs is tried under a range of address-space limits: each try ends
// with a document, and at least one of them with "memory exhausted".
TEST(JsonUnderTightMemory, EveryEndLeavesOneJsonDocument) {
  SKIP_IF_ANOTHER_DD();
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves more address space than any ulimit -v leaves";
#endif
  const auto limited = [](std::vector<std::string> args, int limit_kib) {
    Options o;
    o.args = std::move(args);
    o.run_under = {"/bin/bash", "-c", "ulimit -v " + std::to_string(limit_kib) + " && exec -a dd \"$0\" \"$@\""};
    o.timeout = 20000ms;
    return run(o);
  };
  // A sanitizer's build (this test binary is not one) reserves more
  // address space than these limits leave: nothing to learn then.
  if (limited({"if=/dev/zero", "of=/dev/null", "count=1"}, 24000).status() != "exit 0") {
    GTEST_SKIP() << "a one-block copy does not run under ulimit -v 24000 here";
  }
  int exhausted = 0;
  for (int limit_kib = 4000; limit_kib <= 24000; limit_kib += 1000) {
    const Result r = limited({"--json", "if=/dev/zero", "of=/dev/null", "count=0", "--repeat=3000"}, limit_kib);
    // Too little for the loader to map the C library: ddtime never ran.
    if (r.status() == "exit 127") continue;
    SCOPED_TRACE("ulimit -v " + std::to_string(limit_kib));
    ASSERT_FALSE(r.err.empty()) << r.describe();
    support::Json document;
    ASSERT_NO_THROW(document = support::parse_json(r.err)) << r.describe();
    if (r.status() == "exit 1") {
      ASSERT_TRUE(document.has("errors")) << r.describe();
      const support::Json& errors = document["errors"];
      for (std::size_t i = 0; i < errors.size(); ++i) exhausted += errors[i].string() == "memory exhausted";
    } else {
      EXPECT_STATUS(r, "exit 0");
    }
  }
  if (exhausted == 0) GTEST_SKIP() << "no limit tried ran out of memory in ddtime itself";
}

TEST_F(TightMemory, SkipOnAFifoAllocatesNoHugeOutputBuffer) {
  auto r = dd_limited({"obs=64M", "skip=1", "count=0", "if=tape", "status=none"}, limit_kib_);
  EXPECT_STATUS(r, "exit 0");
}

TEST_F(TightMemory, SeekOnAFifoAllocatesNoHugeInputBuffer) {
  auto r = dd_limited({"ibs=64M", "seek=1", "count=0", "of=tape", "status=none"}, limit_kib_);
  EXPECT_STATUS(r, "exit 0");
}

TEST_F(TightMemory, SkipOnAFifoStillNeedsItsOwnBlock) {
  auto r = dd_limited({"ibs=64M", "skip=1", "count=0", "if=tape", "status=none"}, limit_kib_);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: memory exhausted by input buffer of size 67108864 bytes (64 MiB)\n");
}

TEST_F(TightMemory, SeekOnAFifoStillNeedsItsOwnBlock) {
  auto r = dd_limited({"obs=64M", "seek=1", "count=0", "of=tape", "status=none"}, limit_kib_);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: memory exhausted by output buffer of size 67108864 bytes (64 MiB)\n");
}

TEST_F(Memory, HugeInputBufferFails) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/null", "ibs=2P"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: memory exhausted by input buffer of size 2251799813685248 bytes (2.0 PiB)\n");
}

TEST_F(Memory, HugeOutputBufferFails) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/null", "ibs=1", "obs=3P"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: memory exhausted by output buffer of size 3377699720527872 bytes (3.0 PiB)\n");
}

TEST_F(Memory, HugeOutputBufferWithCountZeroAllocatesNothing) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "obs=1P", "count=0", "status=none"});
  EXPECT_STATUS(r, "exit 0");
}

TEST_F(Memory, LargestBlockSizeIsReportedInExbibytes) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "ibs=9223372036854775806"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: memory exhausted by input buffer of size 9223372036854775806 bytes (8.0 EiB)\n");
}

TEST_F(Memory, AllocationFailureComesAfterTheOutputIsOpenedAndTruncated) {
  write_file("out", "keep");
  auto r = dd({"if=/dev/null", "of=out", "bs=1P"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: memory exhausted by input buffer of size 1125899906842624 bytes (1.0 PiB)\n");
  EXPECT_EQ(file_size("out"), 0);
}

}  // namespace
}  // namespace ddtime::e2e
