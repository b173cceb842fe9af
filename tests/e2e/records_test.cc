// SPDX-License-Identifier: GPL-3.0-or-later
// Record counting (full+partial in and out), the summary's wording and
// human-readable sizes, status= levels, and skip=/seek= on files, pipes and
// character devices, including what happens past the end of the input.

#include <fcntl.h>
#include <unistd.h>

#include <ostream>
#include <string>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

using std::string_literals::operator""s;

constexpr const char* kAlphabet = "abcdefghijklmnopqrstuvwxyz";

class Records : public DdTest {};
class Summary : public DdTest {};
class Status : public DdTest {};
class Skip : public DdTest {};
class Seek : public DdTest {};

// --- record counts over a 26-byte file ---

struct RecordCase {
  const char* name;
  std::vector<std::string> args;
  const char* out;
  const char* err;  // masked
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const RecordCase& c) { return os << c.name; }
};

class RecordCounts : public DdTest, public ::testing::WithParamInterface<RecordCase> {};

TEST_P(RecordCounts, OfTheAlphabet) {
  write_file("in", kAlphabet);
  std::vector<std::string> args{"if=in"};
  args.insert(args.end(), GetParam().args.begin(), GetParam().args.end());
  auto r = dd(args);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, GetParam().out);
  EXPECT_EQ(r.err_masked(), GetParam().err);
}

INSTANTIATE_TEST_SUITE_P(
    Combos, RecordCounts,
    ::testing::Values(
        RecordCase{"DefaultBlockSize", {}, kAlphabet, "0+1 records in\n0+1 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"Bs5", {"bs=5"}, kAlphabet, "5+1 records in\n5+1 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{
            "BsEqualsSize", {"bs=26"}, kAlphabet, "1+0 records in\n1+0 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"BsOneMoreThanSize",
                   {"bs=27"},
                   kAlphabet,
                   "0+1 records in\n0+1 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"Bs1", {"bs=1"}, kAlphabet, "26+0 records in\n26+0 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"CountStopsEarly",
                   {"bs=5", "count=3"},
                   "abcdefghijklmno",
                   "3+0 records in\n3+0 records out\n15 bytes copied, <T> s, <R>\n"},
        RecordCase{"CountBeyondEnd",
                   {"bs=5", "count=6"},
                   kAlphabet,
                   "5+1 records in\n5+1 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"Ibs5Obs7",
                   {"ibs=5", "obs=7"},
                   kAlphabet,
                   "5+1 records in\n3+1 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"Ibs7Obs5",
                   {"ibs=7", "obs=5"},
                   kAlphabet,
                   "3+1 records in\n5+1 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"OneInTwoOut",
                   {"ibs=26", "obs=13"},
                   kAlphabet,
                   "1+0 records in\n2+0 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"ManyInOneOut",
                   {"ibs=1", "obs=26"},
                   kAlphabet,
                   "26+0 records in\n1+0 records out\n26 bytes copied, <T> s, <R>\n"},
        RecordCase{"CountedInputPartialOutput",
                   {"ibs=4", "obs=8", "count=3"},
                   "abcdefghijkl",
                   "3+0 records in\n1+1 records out\n12 bytes copied, <T> s, <R>\n"},
        RecordCase{"FullInputPartialOutput",
                   {"ibs=13", "obs=26", "count=1"},
                   "abcdefghijklm",
                   "1+0 records in\n0+1 records out\n13 bytes copied, <T> s, <R>\n"},
        RecordCase{"SkipInBlocks",
                   {"bs=5", "skip=2"},
                   "klmnopqrstuvwxyz",
                   "3+1 records in\n3+1 records out\n16 bytes copied, <T> s, <R>\n"},
        RecordCase{"SkipToTheLastPartialBlock",
                   {"bs=5", "skip=5"},
                   "z",
                   "0+1 records in\n0+1 records out\n1 byte copied, <T> s, <R>\n"},
        RecordCase{"SkipAndCount",
                   {"bs=5", "skip=2", "count=2"},
                   "klmnopqrst",
                   "2+0 records in\n2+0 records out\n10 bytes copied, <T> s, <R>\n"},
        RecordCase{"SkipCountsIbsBlocks",
                   {"ibs=5", "obs=3", "skip=1", "count=2"},
                   "fghijklmno",
                   "2+0 records in\n3+1 records out\n10 bytes copied, <T> s, <R>\n"},
        RecordCase{"CountZero", {"count=0"}, "", "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n"}),
    ParamName());

TEST_F(Records, ShortReadsFromAPipeArePartialRecords) {
  Options o = opts({"bs=4"});
  o.in = Stdin::chunked({"ab", "cdef", "ghi", "j"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcdefghij");
  EXPECT_EQ(r.err_masked(), "1+3 records in\n1+3 records out\n10 bytes copied, <T> s, <R>\n");
}

TEST_F(Records, ShortReadsAreReblockedWithSeparateObs) {
  Options o = opts({"ibs=4", "obs=4"});
  o.in = Stdin::chunked({"ab", "cdef", "ghi", "j"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcdefghij");
  EXPECT_EQ(r.err_masked(), "1+3 records in\n2+1 records out\n10 bytes copied, <T> s, <R>\n");
}

TEST_F(Records, CountZeroStillTruncatesAnExistingOutput) {
  write_file("out", "0123456789");
  auto r = dd({"if=/dev/null", "of=out", "count=0", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(file_size("out"), 0);
}

TEST_F(Records, CountZeroDoesNotReadStdin) {
  Options o = opts({"count=0"});
  o.in = Stdin::manual();
  DdProcess p(o);
  // The pipe stays open (no EOF): dd must finish without waiting for input.
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& e) { return e.ends_with("B/s\n"); }))
      << "dd is waiting for input; stderr so far: " << p.stderr_so_far();
  auto r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Records, CopyingAFileOntoItselfTruncatesItFirst) {
  write_file("f", "0123456789");
  auto r = dd({"if=f", "of=f"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(file_size("f"), 0);
}

TEST_F(Records, CopyingAFileOntoItselfWithNotruncRewritesIt) {
  write_file("f", "0123456789");
  auto r = dd({"if=f", "of=f", "conv=notrunc"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n10 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("f"), "0123456789");
}

TEST_F(Records, ShiftingAFileLeftInPlace) {
  write_file("f", "0123456789");
  auto r = dd({"if=f", "of=f", "bs=1", "skip=2", "conv=notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("f"), "2345678989");
}

TEST_F(Records, ShiftingAFileRightInPlaceReadsItsOwnOutput) {
  write_file("f", "0123456789");
  auto r = dd({"if=f", "of=f", "bs=1", "seek=2", "count=4", "conv=notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("f"), "0101016789");
}

// --- summary wording ---

struct SizeLine {
  const char* name;
  const char* count;
  const char* line;  // the third summary line, masked
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const SizeLine& c) { return os << c.name; }
};

class SummaryBytes : public DdTest, public ::testing::WithParamInterface<SizeLine> {};

TEST_P(SummaryBytes, LineForACopiedSize) {
  auto r = dd({"if=/dev/zero", "of=/dev/null", "bs=1M", "iflag=count_bytes", std::string("count=") + GetParam().count});
  EXPECT_STATUS(r, "exit 0");
  std::string err = r.err_masked();
  auto last_line = err.substr(err.rfind('\n', err.size() - 2) + 1);
  EXPECT_EQ(last_line, std::string(GetParam().line) + "\n");
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, SummaryBytes,
    ::testing::Values(SizeLine{"OneByteIsSingular", "1", "1 byte copied, <T> s, <R>"},
                      SizeLine{"TwoBytes", "2", "2 bytes copied, <T> s, <R>"},
                      SizeLine{"BelowOneKilobyteHasNoHumanSize", "999", "999 bytes copied, <T> s, <R>"},
                      SizeLine{"OneKilobyte", "1000", "1000 bytes (1.0 kB) copied, <T> s, <R>"},
                      SizeLine{"BelowOneKibibyteHasNoBinarySize", "1023", "1023 bytes (1.0 kB) copied, <T> s, <R>"},
                      SizeLine{"OneKibibyte", "1024", "1024 bytes (1.0 kB, 1.0 KiB) copied, <T> s, <R>"},
                      SizeLine{"RoundsHalfDown", "1050", "1050 bytes (1.0 kB, 1.0 KiB) copied, <T> s, <R>"},
                      SizeLine{"RoundsUpAboveHalf", "1051", "1051 bytes (1.1 kB, 1.0 KiB) copied, <T> s, <R>"},
                      SizeLine{"OneAndAHalf", "1536", "1536 bytes (1.5 kB, 1.5 KiB) copied, <T> s, <R>"},
                      SizeLine{"TwoDigitsLoseTheDecimal", "9999", "9999 bytes (10 kB, 9.8 KiB) copied, <T> s, <R>"},
                      SizeLine{"JustBelowTenKibibytes", "10239", "10239 bytes (10 kB, 10 KiB) copied, <T> s, <R>"},
                      SizeLine{"JustBelowOneMegabyte", "999999", "999999 bytes (1.0 MB, 977 KiB) copied, <T> s, <R>"},
                      SizeLine{"JustBelowOneMebibyte", "1048575", "1048575 bytes (1.0 MB, 1.0 MiB) copied, <T> s, <R>"},
                      SizeLine{"TenMegabytes", "10000000", "10000000 bytes (10 MB, 9.5 MiB) copied, <T> s, <R>"},
                      SizeLine{"HundredsOfMegabytes", "123456789",
                               "123456789 bytes (123 MB, 118 MiB) copied, <T> s, <R>"}),
    ParamName());

TEST_F(Summary, ZeroBytesHasNoHumanSize) {
  auto r = dd({"if=/dev/null"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Summary, TimingFieldsHaveTheExpectedShape) {
  auto r = dd_in("abc", {"of=/dev/null"});
  EXPECT_STATUS(r, "exit 0");
  // Only the masked fields vary; check they look like "<number> s, <rate>/s".
  std::string last = r.err.substr(r.err.find("copied, "));
  EXPECT_TRUE(last.find(" s, ") != std::string::npos) << last;
  EXPECT_TRUE(last.ends_with("B/s\n")) << last;
}

// --- status= ---

TEST_F(Status, NoneSilencesTheSummary) {
  auto r = dd_in("abc", {"status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc");
  EXPECT_EQ(r.err, "");
}

TEST_F(Status, NoneKeepsErrorMessages) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/full", "status=none"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: error writing '/dev/full': No space left on device\n");
}

TEST_F(Status, NoxferDropsTheBytesLine) {
  auto r = dd_in("abc", {"status=noxfer"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "0+1 records in\n0+1 records out\n");
}

TEST_F(Status, ProgressOnAQuickCopyPrintsJustTheSummary) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "of=/dev/null", "status=progress"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n26 bytes copied, <T> s, <R>\n");
}

TEST_F(Status, ProgressLinesEndWithANewlineBeforeTheSummary) {
  Options o = opts({"of=/dev/null", "status=progress"});
  o.in = Stdin::timed_chunks({{"abc", 1100ms}, {"de", 0ms}});
  o.timeout = 10000ms;
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  const std::string tail = "0+2 records in\n0+1 records out\n5 bytes copied, <T> s, <R>\n";
  std::string err = r.err_masked();
  ASSERT_TRUE(err.ends_with(tail)) << r.describe();
  // The read of "de" comes more than a second after the start, so one
  // progress line is printed then, carriage return first; it counts bytes
  // written, and the 3 bytes read so far still sit in the output buffer.
  // A newline ends it before the summary.
  std::string progress = err.substr(0, err.size() - tail.size());
  EXPECT_EQ(progress, "\r0 bytes copied, <T> s, <R>\n") << r.describe();
}

// With bs= each block is written before the progress check, so the line
// already includes "de".
TEST_F(Status, ProgressCountsBytesWrittenWithBs) {
  Options o = opts({"of=/dev/null", "bs=512", "status=progress"});
  o.in = Stdin::timed_chunks({{"abc", 1100ms}, {"de", 0ms}});
  o.timeout = 10000ms;
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "\r5 bytes copied, <T> s, <R>\n"
            "0+2 records in\n0+2 records out\n5 bytes copied, <T> s, <R>\n");
}

// --- skip ---

TEST_F(Skip, PastTheEndOfAFileWarnsAndSucceeds) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "bs=1", "skip=100"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "dd: in: cannot skip to specified offset\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Skip, OneBytePastTheEndOfAFileWarns) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "bs=1", "skip=27", "status=noxfer"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "dd: in: cannot skip to specified offset\n0+0 records in\n0+0 records out\n");
}

TEST_F(Skip, ExactlyToTheEndOfAFileIsSilent) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "bs=1", "skip=26"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Skip, DefaultBlockSizeSkipPastASmallFileWarns) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "skip=1", "status=noxfer"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "dd: in: cannot skip to specified offset\n0+0 records in\n0+0 records out\n");
}

TEST_F(Skip, PastTheEndWarningIsSilencedByStatusNone) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "skip=1", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "");
}

TEST_F(Skip, WarningQuotesAFileNameThatNeedsIt) {
  write_file("a b", "abc");
  auto r = dd({"if=a b", "bs=1", "skip=9", "status=noxfer"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "dd: 'a b': cannot skip to specified offset\n0+0 records in\n0+0 records out\n");
}

TEST_F(Skip, OnAPipeReadsAndDiscards) {
  auto r = dd_in("abcdefg", {"bs=4", "skip=1"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "efg");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n3 bytes copied, <T> s, <R>\n");
}

// Without fullblock, skipping a pipe discards skip= reads, however short
// they are: here "ab" and "cdef", not 8 bytes.
TEST_F(Skip, OnAChunkedPipeSkipsReadsNotBytes) {
  Options o = opts({"bs=4", "skip=2", "status=none"});
  o.in = Stdin::chunked({"ab", "cdef", "gh", "ijk"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ghijk");
}

TEST_F(Skip, OnAChunkedPipeWithFullblockSkipsWholeBlocks) {
  Options o = opts({"bs=4", "skip=2", "iflag=fullblock", "status=none"});
  o.in = Stdin::chunked({"ab", "cdef", "gh", "ijk"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ijk");
}

TEST_F(Skip, PastTheEndOfAPipeWarnsWithTheQuotedName) {
  auto r = dd_in("abc", {"bs=1", "skip=5"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "dd: 'standard input': cannot skip to specified offset\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Skip, PipeEndingInsideTheSkippedBlockWarns) {
  auto r = dd_in("abcdefg", {"bs=4", "skip=2", "status=noxfer"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "dd: 'standard input': cannot skip to specified offset\n"
            "0+0 records in\n0+0 records out\n");
}

TEST_F(Skip, ExactlyToTheEndOfAPipeIsSilent) {
  auto r = dd_in("abc", {"bs=1", "skip=3"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Skip, StdinRedirectedFromAFileIsSeekable) {
  write_file("in", kAlphabet);
  Options o = opts({"skip=2", "bs=1"});
  o.in = Stdin::file("in");
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "cdefghijklmnopqrstuvwxyz");
  EXPECT_EQ(r.err_masked(), "24+0 records in\n24+0 records out\n24 bytes copied, <T> s, <R>\n");
}

TEST_F(Skip, OnDevZero) {
  auto r = dd({"if=/dev/zero", "skip=5", "bs=1", "count=2"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "\0\0"s);
  EXPECT_EQ(r.err_masked(), "2+0 records in\n2+0 records out\n2 bytes copied, <T> s, <R>\n");
}

TEST_F(Skip, OnDevNullIsSilentEvenPastItsEnd) {
  auto r = dd({"if=/dev/null", "skip=5", "bs=1", "count=2"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Skip, OffsetOverflowOnACharDeviceFails) {
  auto r = dd({"if=/dev/zero", "of=/dev/null", "skip=4611686018427387904", "bs=2", "count=1"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: /dev/zero: cannot skip: Value too large for defined data type\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Skip, LargestOffsetOnDevNullOverflows) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "skip=9223372036854775807", "status=none"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: /dev/null: cannot skip: Value too large for defined data type\n");
}

// Whether lseek() on a regular file in `dir` accepts this offset (ext4 does
// not beyond its maximum file size; tmpfs does).
bool file_offset_accepted(const std::filesystem::path& dir, off_t offset) {
  std::string probe = (dir / "offset-probe").string();
  int fd = ::open(probe.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return true;
  bool ok = ::lseek(fd, offset, SEEK_SET) == offset;
  ::close(fd);
  ::unlink(probe.c_str());
  return ok;
}

bool file_length_accepted(const std::filesystem::path& dir, off_t length) {
  std::string probe = (dir / "length-probe").string();
  int fd = ::open(probe.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return true;
  bool ok = ::ftruncate(fd, length) == 0;
  ::close(fd);
  ::unlink(probe.c_str());
  return ok;
}

TEST_F(Skip, OffsetBeyondTheFilesystemLimitFailsWithEinval) {
  if (file_offset_accepted(dir(), 9223372036854775806)) {
    GTEST_SKIP() << "the filesystem of " << dir() << " accepts an offset of 2^63-2";
  }
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "skip=4611686018427387903", "bs=2", "count=1", "status=noxfer"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: in: cannot skip: Invalid argument\n0+0 records in\n0+0 records out\n");
}

// --- seek ---

TEST_F(Seek, OnAPipeStdoutFails) {
  auto r = dd_in("abc", {"seek=2", "bs=1"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err_masked(),
            "dd: 'standard output': cannot seek: Illegal seek\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Seek, OnAFileStdoutWorks) {
  Options o = opts({"seek=2", "bs=1", "status=noxfer"});
  o.in = Stdin::pipe("abc");
  o.out = Stdout::file("out");
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "3+0 records in\n3+0 records out\n");
  EXPECT_EQ(read_file("out"), "\0\0abc"s);
}

TEST_F(Seek, OnDevNullWorks) {
  auto r = dd_in("abc", {"seek=2", "bs=1", "of=/dev/null"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "3+0 records in\n3+0 records out\n3 bytes copied, <T> s, <R>\n");
}

TEST_F(Seek, ExtendsAShortFileWithZeros) {
  write_file("out", "0123456789");
  auto r = dd({"if=/dev/null", "of=out", "seek=14", "bs=1", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "0123456789\0\0\0\0"s);
}

TEST_F(Seek, TruncatesAtTheSeekPointWithoutNotrunc) {
  write_file("out", "0123456789");
  auto r = dd({"if=/dev/null", "of=out", "seek=4", "bs=1", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "0123");
}

TEST_F(Seek, KeepsTheFileWithNotrunc) {
  write_file("out", "0123456789");
  auto r = dd({"if=/dev/null", "of=out", "seek=4", "bs=1", "conv=notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "0123456789");
}

TEST_F(Seek, WritesAfterAHoleInANewFile) {
  auto r = dd_in("XY", {"of=out", "seek=3", "bs=2", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "\0\0\0\0\0\0XY"s);
}

TEST_F(Seek, TruncationBeyondTheFilesystemLimitFails) {
  if (file_length_accepted(dir(), 1152921504606846976)) {
    GTEST_SKIP() << "the filesystem of " << dir() << " accepts a 1 EiB file";
  }
  auto r = dd({"if=/dev/null", "of=out", "bs=1", "count=0", "seek=1E"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: failed to truncate to 1152921504606846976 bytes in output file 'out': "
            "File too large\n"
            "dd: out: cannot seek: Invalid argument\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Seek, OffsetOverflowWithoutNotruncCannotTruncate) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "seek=4611686018427387904", "bs=2"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: offset too large: cannot truncate to a length of "
            "seek=4611686018427387904 (2-byte) blocks\n");
}

TEST_F(Seek, OffsetOverflowWithNotruncCannotSeek) {
  auto r = dd({"if=/dev/null", "of=out", "seek=4611686018427387904", "bs=2", "conv=notrunc", "status=noxfer"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: out: cannot seek: Value too large for defined data type\n"
            "0+0 records in\n0+0 records out\n");
}

}  // namespace
}  // namespace ddtime::e2e
