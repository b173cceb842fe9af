// SPDX-License-Identifier: GPL-3.0-or-later
// iflag= and oflag=: which symbols each side accepts, the byte-unit flags,
// fullblock and the partial-read warning, append, directory, nofollow,
// nocache, direct, nonblock and the synchronous-I/O flags.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <string>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

using std::string_literals::operator""s;

constexpr const char* kTryHelp = "Try 'dd --help' for more information.\n";
constexpr const char* kAlphabet = "abcdefghijklmnopqrstuvwxyz";

class Iflag : public DdTest {};
class Oflag : public DdTest {};
class Fullblock : public DdTest {};

// --- accepted symbols ---

struct FlagCase {
  const char* name;
  const char* operand;
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const FlagCase& c) { return os << c.name; }
};

class FlagAccepted : public DdTest, public ::testing::WithParamInterface<FlagCase> {};

TEST_P(FlagAccepted, CopiesARegularFile) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "of=out", GetParam().operand});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n26 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), kAlphabet);
}

INSTANTIATE_TEST_SUITE_P(
    Symbols, FlagAccepted,
    ::testing::Values(FlagCase{"InputDsync", "iflag=dsync"}, FlagCase{"InputSync", "iflag=sync"},
                      FlagCase{"InputNoatime", "iflag=noatime"}, FlagCase{"InputNoctty", "iflag=noctty"},
                      FlagCase{"InputNonblock", "iflag=nonblock"}, FlagCase{"InputNofollow", "iflag=nofollow"},
                      FlagCase{"InputNocache", "iflag=nocache"}, FlagCase{"InputFullblock", "iflag=fullblock"},
                      FlagCase{"InputAppendIsHarmless", "iflag=append"},
                      FlagCase{"InputSeekBytesIsIgnored", "iflag=seek_bytes"}, FlagCase{"OutputDsync", "oflag=dsync"},
                      FlagCase{"OutputSync", "oflag=sync"}, FlagCase{"OutputNoatime", "oflag=noatime"},
                      FlagCase{"OutputNoctty", "oflag=noctty"}, FlagCase{"OutputNonblock", "oflag=nonblock"},
                      FlagCase{"OutputNofollow", "oflag=nofollow"}, FlagCase{"OutputNocache", "oflag=nocache"},
                      FlagCase{"OutputCountBytesIsIgnored", "oflag=count_bytes"},
                      FlagCase{"OutputSkipBytesIsIgnored", "oflag=skip_bytes"},
                      FlagCase{"SeveralAtOnce", "iflag=noatime,noctty,dsync,sync"}),
    ParamName());

struct RejectedFlag {
  const char* name;
  const char* operand;
  const char* message;
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const RejectedFlag& c) { return os << c.name; }
};

class FlagRejected : public DdTest, public ::testing::WithParamInterface<RejectedFlag> {};

TEST_P(FlagRejected, WithHelpHint) {
  auto r = dd({"if=/dev/null", "of=/dev/null", GetParam().operand});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: ") + GetParam().message + "\n" + kTryHelp);
}

INSTANTIATE_TEST_SUITE_P(
    Symbols, FlagRejected,
    ::testing::Values(RejectedFlag{"FullblockIsInputOnly", "oflag=fullblock", "invalid output flag: ‘fullblock’"},
                      RejectedFlag{"BinaryIsNotALinuxFlag", "iflag=binary", "invalid input flag: ‘binary’"},
                      RejectedFlag{"TextIsNotALinuxFlag", "oflag=text", "invalid output flag: ‘text’"},
                      RejectedFlag{"CioIsNotALinuxFlag", "iflag=cio", "invalid input flag: ‘cio’"},
                      RejectedFlag{"NolinksIsNotALinuxFlag", "oflag=nolinks", "invalid output flag: ‘nolinks’"},
                      RejectedFlag{"ConversionsAreNotFlags", "iflag=noerror", "invalid input flag: ‘noerror’"},
                      RejectedFlag{"FlagsAreCaseSensitive", "iflag=DIRECT", "invalid input flag: ‘DIRECT’"}),
    ParamName());

// --- byte units ---

TEST_F(Iflag, CountBytesCountsBytesWithAPartialLastRecord) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "bs=2", "count=5", "iflag=count_bytes"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcde");
  EXPECT_EQ(r.err_masked(), "2+1 records in\n2+1 records out\n5 bytes copied, <T> s, <R>\n");
}

TEST_F(Iflag, CountBytesZeroCopiesNothing) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "count=0", "iflag=count_bytes"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "");
}

TEST_F(Iflag, SkipBytesSkipsBytes) {
  write_file("in", kAlphabet);
  auto r = dd({"if=in", "bs=2", "skip=3", "count=2", "iflag=skip_bytes"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "defg");
  EXPECT_EQ(r.err_masked(), "2+0 records in\n2+0 records out\n4 bytes copied, <T> s, <R>\n");
}

TEST_F(Iflag, SkipBytesOnAPipe) {
  auto r = dd_in(kAlphabet, {"bs=4", "skip=5", "count=1", "iflag=skip_bytes", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "fghi");
}

TEST_F(Oflag, SeekBytesSeeksBytes) {
  write_file("out", "0123456789");
  auto r = dd_in("AB", {"of=out", "bs=2", "seek=3", "oflag=seek_bytes", "conv=notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "012AB56789");
}

TEST_F(Oflag, SeekBytesOfWholeBlocksKeepsTheHead) {
  write_file("out", "0123456789");
  auto r = dd_in("AB", {"of=out", "bs=2", "seek=4", "oflag=seek_bytes", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "0123AB");
}

TEST_F(Oflag, SeekBytesWithAPartialBlockKeepsTheHead) {
  write_file("out", "0123456789");
  auto r = dd_in("AB", {"of=out", "bs=2", "seek=5", "oflag=seek_bytes", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "01234AB");
}

// GNU 9.1 quirk: when the byte offset is below one output block, the
// output is opened with O_TRUNC as if there were no seek, so the bytes
// before the offset are lost (they read back as NULs).
TEST_F(Oflag, SeekBytesBelowOneBlockTruncatesTheWholeFile) {
  write_file("out", "0123456789");
  auto r = dd_in("AB", {"of=out", "seek=4", "oflag=seek_bytes", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "\0\0\0\0AB"s);
}

TEST_F(Oflag, SeekBytesBelowOneBlockWithCountZeroEmptiesTheFile) {
  write_file("out", "0123456789");
  auto r = dd({"if=/dev/null", "of=out", "seek=4", "oflag=seek_bytes", "count=0", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(file_size("out"), 0);
}

TEST_F(Oflag, SeekBytesOfMoreThanOneBlockExtendsTheFile) {
  auto r = dd({"if=/dev/null", "of=out", "seek=513", "oflag=seek_bytes", "count=0", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(file_size("out"), 513);
}

TEST_F(Oflag, CountBytesOnTheOutputSideDoesNothing) {
  auto r = dd_in("abcd", {"oflag=count_bytes", "count=1", "bs=2", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab");
}

// --- fullblock and the partial-read warning ---

TEST_F(Fullblock, AccumulatesShortReadsIntoFullBlocks) {
  Options o = opts({"bs=4", "count=3", "iflag=fullblock"});
  o.in = Stdin::chunked({"ab", "cde", "f"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcdef");
  EXPECT_EQ(r.err_masked(), "1+1 records in\n1+1 records out\n6 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, FillsEveryBlockUpToCount) {
  Options o = opts({"bs=4", "count=2", "iflag=fullblock"});
  o.in = Stdin::chunked({"a", "b", "c", "d", "e", "f", "g", "h", "i"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcdefgh");
  EXPECT_EQ(r.err_masked(), "2+0 records in\n2+0 records out\n8 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, WithoutItShortReadsAreRecordsAndWarnOnce) {
  Options o = opts({"bs=4", "count=3"});
  o.in = Stdin::chunked({"ab", "cde", "f"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcdef");
  EXPECT_EQ(r.err_masked(),
            "dd: warning: partial read (2 bytes); suggest iflag=fullblock\n"
            "0+3 records in\n0+3 records out\n6 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, WarningNamesTheFirstShortReadOnly) {
  Options o = opts({"bs=8", "count=4"});
  o.in = Stdin::chunked({"abcd", "efg", "hi"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "dd: warning: partial read (4 bytes); suggest iflag=fullblock\n"
            "0+3 records in\n0+3 records out\n9 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, NoWarningWithoutCount) {
  Options o = opts({"bs=4"});
  o.in = Stdin::chunked({"ab", "cde", "f"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+3 records in\n0+3 records out\n6 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, NoWarningWithIbsInsteadOfBs) {
  Options o = opts({"ibs=4", "count=3"});
  o.in = Stdin::chunked({"ab", "cde", "f"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+3 records in\n0+1 records out\n6 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, WarningWhenBsOverridesIbs) {
  Options o = opts({"ibs=2", "bs=4", "count=2"});
  o.in = Stdin::chunked({"ab", "cd"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "dd: warning: partial read (2 bytes); suggest iflag=fullblock\n"
            "0+2 records in\n0+2 records out\n4 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, NoWarningWithCountBytes) {
  Options o = opts({"bs=4", "count=4", "iflag=count_bytes"});
  o.in = Stdin::chunked({"ab", "cd"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n2 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, NoWarningForTheShortReadAtEndOfFile) {
  write_file("in", "abcdef");
  auto r = dd({"if=in", "bs=4", "count=3"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "1+1 records in\n1+1 records out\n6 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, NoWarningForAShortReadFromAPipeAtEnd) {
  Options o = opts({"bs=4", "count=3"});
  o.in = Stdin::chunked({"abcd", "ef"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "1+1 records in\n1+1 records out\n6 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, WarningIsSilencedByStatusNone) {
  Options o = opts({"bs=4", "count=2", "status=none"});
  o.in = Stdin::chunked({"ab", "cd"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcd");
  EXPECT_EQ(r.err, "");
}

TEST_F(Fullblock, WarningIsKeptWithStatusNoxfer) {
  Options o = opts({"bs=4", "count=2", "status=noxfer"});
  o.in = Stdin::chunked({"ab", "cd"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err,
            "dd: warning: partial read (2 bytes); suggest iflag=fullblock\n"
            "0+2 records in\n0+2 records out\n");
}

TEST_F(Fullblock, WarningStaysWithSyncPadding) {
  Options o = opts({"bs=4", "count=2", "conv=sync"});
  o.in = Stdin::chunked({"ab", "cd"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab\0\0cd\0\0"s);
  EXPECT_EQ(r.err_masked(),
            "dd: warning: partial read (2 bytes); suggest iflag=fullblock\n"
            "0+2 records in\n2+0 records out\n8 bytes copied, <T> s, <R>\n");
}

// The warning is printed by the read that follows a short one, so a short
// read that is the last read of the copy never warns.
TEST_F(Fullblock, NoWarningWhenTheShortReadIsTheLastOneCounted) {
  Options o = opts({"bs=4", "count=1"});
  o.in = Stdin::chunked({"abc", "d"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n3 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, WarningUsesTheSingularForOneByte) {
  Options o = opts({"bs=4", "count=2"});
  o.in = Stdin::chunked({"a", "bcd"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcd");
  EXPECT_EQ(r.err_masked(),
            "dd: warning: partial read (1 byte); suggest iflag=fullblock\n"
            "0+2 records in\n0+2 records out\n4 bytes copied, <T> s, <R>\n");
}

// skip= also enables the warning, even without count=; a short read while
// skipping also means the offset was not reached.
TEST_F(Fullblock, WarningAlsoWhenSkippingAPipe) {
  Options o = opts({"bs=4", "skip=2"});
  o.in = Stdin::chunked({"ab", "cdef", "gh", "ijk"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ghijk");
  EXPECT_EQ(r.err_masked(),
            "dd: warning: partial read (2 bytes); suggest iflag=fullblock\n"
            "dd: 'standard input': cannot skip to specified offset\n"
            "0+2 records in\n0+2 records out\n5 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, WarningForAShortLastSkipReadComesAfterTheSkipMessage) {
  Options o = opts({"bs=4", "skip=1"});
  o.in = Stdin::chunked({"ab", "cdef"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "cdef");
  EXPECT_EQ(r.err_masked(),
            "dd: 'standard input': cannot skip to specified offset\n"
            "dd: warning: partial read (2 bytes); suggest iflag=fullblock\n"
            "1+0 records in\n1+0 records out\n4 bytes copied, <T> s, <R>\n");
}

TEST_F(Fullblock, NoWarningWhenSkippingWithIbs) {
  Options o = opts({"ibs=4", "skip=2"});
  o.in = Stdin::chunked({"ab", "cdef", "gh", "ijk"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ghijk");
  EXPECT_EQ(r.err_masked(),
            "dd: 'standard input': cannot skip to specified offset\n"
            "0+2 records in\n0+1 records out\n5 bytes copied, <T> s, <R>\n");
}

// A conversion makes bs= reblock like ibs=/obs=, so there is no warning and
// two short reads make one full output block.
TEST_F(Fullblock, NoWarningWhenAConversionReblocks) {
  Options o = opts({"bs=4", "count=2", "conv=ucase"});
  o.in = Stdin::chunked({"ab", "cd"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ABCD");
  EXPECT_EQ(r.err_masked(), "0+2 records in\n1+0 records out\n4 bytes copied, <T> s, <R>\n");
}

// --- append ---

TEST_F(Oflag, AppendWithoutNotruncWarnsAndTruncates) {
  write_file("out", "XYZ");
  auto r = dd_in("ab", {"of=out", "oflag=append"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "dd: you probably want conv=notrunc with oflag=append\n"
            "0+1 records in\n0+1 records out\n2 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), "ab");
}

TEST_F(Oflag, AppendWithNotruncAppends) {
  write_file("out", "XYZ");
  auto r = dd_in("ab", {"of=out", "oflag=append", "conv=notrunc"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n2 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), "XYZab");
}

TEST_F(Oflag, AppendIgnoresSeek) {
  write_file("out", "XYZ");
  auto r = dd_in("ab", {"of=out", "oflag=append", "conv=notrunc", "seek=1", "bs=1", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "XYZab");
}

TEST_F(Oflag, AppendWarningIsNotSilencedByStatusNone) {
  auto r = dd_in("ab", {"of=out", "oflag=append", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "dd: you probably want conv=notrunc with oflag=append\n");
}

TEST_F(Oflag, AppendWarningAlsoForStdout) {
  auto r = dd_in("ab", {"oflag=append"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab");
  EXPECT_EQ(r.err_masked(),
            "dd: you probably want conv=notrunc with oflag=append\n"
            "0+1 records in\n0+1 records out\n2 bytes copied, <T> s, <R>\n");
}

// --- directory ---

TEST_F(Iflag, DirectoryOnADirectoryOpensButCannotRead) {
  std::filesystem::create_directory(path("dir"));
  auto r = dd({"if=dir", "iflag=directory", "of=/dev/null"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error reading 'dir': Is a directory\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Iflag, DirectoryOnAFileFailsToOpen) {
  write_file("in", "x");
  auto r = dd({"if=in", "iflag=directory", "of=/dev/null"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'in': Not a directory\n");
}

TEST_F(Oflag, DirectoryOnADirectoryIsInvalid) {
  std::filesystem::create_directory(path("dir"));
  auto r = dd({"if=/dev/null", "of=dir", "oflag=directory"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'dir': Invalid argument\n");
}

TEST_F(Oflag, DirectoryDoesNotCreateAFile) {
  auto r = dd({"if=/dev/null", "of=new", "oflag=directory"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'new': Invalid argument\n");
  EXPECT_FALSE(exists("new"));
}

// --- nofollow ---

TEST_F(Iflag, NofollowRefusesASymlink) {
  write_file("in", "x");
  std::filesystem::create_symlink("in", path("link"));
  auto r = dd({"if=link", "iflag=nofollow", "of=/dev/null"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'link': Too many levels of symbolic links\n");
}

TEST_F(Oflag, NofollowRefusesASymlink) {
  write_file("target", "keep");
  std::filesystem::create_symlink("target", path("link"));
  auto r = dd({"if=/dev/null", "of=link", "oflag=nofollow"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'link': Too many levels of symbolic links\n");
  EXPECT_EQ(read_file("target"), "keep");
}

TEST_F(Iflag, WithoutNofollowASymlinkIsFollowed) {
  write_file("in", "data");
  std::filesystem::create_symlink("in", path("link"));
  auto r = dd({"if=link", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "data");
}

// --- nocache ---

TEST_F(Iflag, NocacheOnAPipeWithDataIsQuiet) {
  auto r = dd_in("abc", {"iflag=nocache", "of=/dev/null"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n3 bytes copied, <T> s, <R>\n");
}

TEST_F(Iflag, NocacheOnAPipeWithCountZeroCannotDiscard) {
  auto r = dd_in("abc", {"iflag=nocache", "count=0", "of=/dev/null"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: failed to discard cache for: 'standard input': Illegal seek\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Oflag, NocacheOnAPipeWithCountZeroCannotDiscard) {
  write_file("in", "abc");
  auto r = dd({"if=in", "oflag=nocache", "count=0"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: failed to discard cache for: 'standard output': Illegal seek\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Oflag, NocacheOnBothPipesReportsBoth) {
  Options o = opts({"iflag=nocache", "oflag=nocache", "count=0", "status=none"});
  o.in = Stdin::pipe("");
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: failed to discard cache for: 'standard input': Illegal seek\n"
            "dd: failed to discard cache for: 'standard output': Illegal seek\n");
}

TEST_F(Oflag, NocacheToAPipeWithDataIsQuiet) {
  write_file("in", "abc");
  auto r = dd({"if=in", "oflag=nocache"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc");
}

TEST_F(Iflag, NocacheWithCountZeroOnAFileIsFine) {
  write_file("in", "abc");
  auto r = dd({"if=in", "iflag=nocache", "count=0", "of=out", "oflag=nocache"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Iflag, NocacheOnDevNullIsFine) {
  auto r = dd({"if=/dev/null", "iflag=nocache", "count=0", "of=/dev/null", "oflag=nocache", "status=none"});
  EXPECT_STATUS(r, "exit 0");
}

// --- direct ---

TEST_F(Iflag, DirectOnDevZeroFailsAtOpen) {
  auto r = dd({"if=/dev/zero", "iflag=direct", "count=1", "of=/dev/null"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open '/dev/zero': Invalid argument\n");
}

TEST_F(Oflag, DirectOnDevNullFailsAtOpen) {
  auto r = dd({"if=/dev/zero", "count=1", "of=/dev/null", "oflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open '/dev/null': Invalid argument\n");
}

TEST_F(Oflag, DirectOnStdoutFailsWhenSettingFlags) {
  Options o = opts({"if=/dev/zero", "count=1", "oflag=direct"});
  o.out = Stdout::file("/dev/null");
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: setting flags for 'standard output': Invalid argument\n");
}

// Returns why O_DIRECT cannot be tested in `dir`, or "" when it can.
std::string direct_io_unsupported(const std::filesystem::path& dir) {
  std::string probe = (dir / "direct-probe").string();
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_DIRECT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return "O_DIRECT open fails in " + dir.string() + ": " + std::strerror(errno) +
           " (tmpfs? set DDTIME_E2E_TMPDIR to a disk filesystem)";
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

class Direct : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    if (std::string why = direct_io_unsupported(dir()); !why.empty()) GTEST_SKIP() << why;
    std::string data;
    for (int i = 0; i < 8192; ++i) data.push_back(static_cast<char>((i * 7 + i / 256) & 0xff));
    write_file("in8k", data);
    write_file("in5000", data.substr(0, 5000));
  }
};

TEST_F(Direct, WritesAlignedBlocks) {
  auto r = dd({"if=in8k", "of=out", "bs=4096", "oflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "2+0 records in\n2+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), read_file("in8k"));
}

TEST_F(Direct, ReadsAlignedBlocks) {
  auto r = dd({"if=in8k", "of=out", "bs=4096", "iflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), read_file("in8k"));
}

TEST_F(Direct, WritesAShortFinalBlock) {
  auto r = dd({"if=in5000", "of=out", "bs=4096", "oflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "1+1 records in\n1+1 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), read_file("in5000"));
}

TEST_F(Direct, ReadsAShortFinalBlock) {
  auto r = dd({"if=in5000", "of=out", "bs=4096", "iflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "1+1 records in\n1+1 records out\n5000 bytes (5.0 kB, 4.9 KiB) copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), read_file("in5000"));
}

// Whether this filesystem rejects O_DIRECT transfers whose size is not a
// multiple of the logical block size (disk filesystems do; tmpfs does not).
bool rejects_misaligned_direct_io(const std::filesystem::path& file, bool write) {
  int fd = ::open(file.c_str(), (write ? O_WRONLY : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  if (fd < 0) return false;
  void* buf = nullptr;
  if (::posix_memalign(&buf, 4096, 4096) != 0) {
    ::close(fd);
    return false;
  }
  std::memset(buf, 'x', 4096);
  ssize_t n = write ? ::write(fd, buf, 1000) : ::read(fd, buf, 1000);
  bool rejected = n < 0 && errno == EINVAL;
  std::free(buf);
  ::close(fd);
  return rejected;
}

TEST_F(Direct, MisalignedWriteSizeFails) {
  write_file("probe", "");
  if (!rejects_misaligned_direct_io(path("probe"), true)) {
    GTEST_SKIP() << "the filesystem of " << dir() << " accepts misaligned O_DIRECT writes";
  }
  auto r = dd({"if=in5000", "of=out", "bs=1000", "oflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error writing 'out': Invalid argument\n"
            "1+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Direct, MisalignedReadSizeFails) {
  if (!rejects_misaligned_direct_io(path("in5000"), false)) {
    GTEST_SKIP() << "the filesystem of " << dir() << " accepts misaligned O_DIRECT reads";
  }
  auto r = dd({"if=in5000", "of=out", "bs=1000", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error reading 'in5000': Invalid argument\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

// Direct I/O also enables the partial-read warning, even without count=.
TEST_F(Direct, OutputDirectEnablesThePartialReadWarning) {
  Options o = opts({"bs=4096", "of=out", "oflag=direct"});
  o.in = Stdin::chunked({"ab", "cdef"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "dd: warning: partial read (2 bytes); suggest iflag=fullblock\n"
            "0+2 records in\n0+2 records out\n6 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), "abcdef");
}

// --- nonblock ---

TEST_F(Iflag, NonblockOnAnEmptyOpenPipeFailsWithEagain) {
  Options o = opts({"iflag=nonblock", "of=/dev/null"});
  o.in = Stdin::manual();
  DdProcess p(o);
  // Keep the pipe open (no EOF) until dd has given up.
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& e) { return e.find("copied") != std::string::npos; }))
      << p.stderr_so_far();
  auto r = p.finish();
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error reading 'standard input': Resource temporarily unavailable\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

}  // namespace
}  // namespace ddtime::e2e
