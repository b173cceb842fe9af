// SPDX-License-Identifier: GPL-3.0-or-later
// conv=: the translation tables on all 256 byte values, case mapping, swab,
// block/unblock with cbs=, sync padding, sparse output, the file-opening
// conversions (excl, nocreat, notrunc), fsync/fdatasync and noerror, and the
// pairs that cannot be combined.

#include <sys/stat.h>

#include <ostream>
#include <string>

#include "e2e/golden_tables.h"
#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

using std::string_literals::operator""s;

class Conv : public DdTest {};

// --- translation tables ---

struct TableCase {
  const char* name;
  const char* conv;
  std::string_view golden_hex;
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const TableCase& c) { return os << c.name; }
};

class ConvTable : public DdTest, public ::testing::WithParamInterface<TableCase> {};

TEST_P(ConvTable, MapsAll256ByteValues) {
  write_file("all", all_bytes());
  auto r = dd({"if=all", "of=out", std::string("conv=") + GetParam().conv});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n256 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(to_hex(read_file("out")), GetParam().golden_hex);
}

INSTANTIATE_TEST_SUITE_P(Golden, ConvTable,
                         ::testing::Values(TableCase{"Ascii", "ascii", golden::kAscii},
                                           TableCase{"Ebcdic", "ebcdic", golden::kEbcdic},
                                           TableCase{"Ibm", "ibm", golden::kIbm},
                                           TableCase{"Lcase", "lcase", golden::kLcase},
                                           TableCase{"Ucase", "ucase", golden::kUcase},
                                           TableCase{"AsciiThenLcase", "ascii,lcase", golden::kAsciiLcase},
                                           TableCase{"AsciiThenUcase", "ucase,ascii", golden::kAsciiUcase},
                                           TableCase{"LcaseThenEbcdic", "ebcdic,lcase", golden::kEbcdicLcase},
                                           TableCase{"UcaseThenEbcdic", "ebcdic,ucase", golden::kEbcdicUcase},
                                           TableCase{"LcaseThenIbm", "lcase,ibm", golden::kIbmLcase},
                                           TableCase{"UcaseThenIbm", "ibm,ucase", golden::kIbmUcase},
                                           TableCase{"Swab", "swab", golden::kSwab}),
                         ParamName());

TEST_F(Conv, UcaseOnText) {
  auto r = dd_in("Hello, World 123\n", {"conv=ucase", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "HELLO, WORLD 123\n");
}

TEST_F(Conv, LcaseOnText) {
  auto r = dd_in("Hello, World 123\n", {"conv=lcase", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "hello, world 123\n");
}

TEST_F(Conv, AsciiWithCbsAlsoUnblocks) {
  auto r = dd_in("\x81\x82\x40\x40", {"conv=ascii", "cbs=4", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab\n");
}

TEST_F(Conv, EbcdicWithCbsAlsoBlocks) {
  auto r = dd_in("ab\n", {"conv=ebcdic", "cbs=4", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(to_hex(r.out), "81824040");
}

TEST_F(Conv, IbmWithCbsAlsoBlocks) {
  auto r = dd_in("ab\n", {"conv=ibm", "cbs=4", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(to_hex(r.out), "81824040");
}

TEST_F(Conv, EbcdicBlocksBeforeTranslatingAndLowersFirst) {
  auto r = dd_in("HELLO\n", {"conv=lcase,ebcdic,block", "cbs=6", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(to_hex(r.out), "888593939640");
}

TEST_F(Conv, AsciiTranslatesBeforeUnblockingSoAsciiSpacesAreNotStripped) {
  auto r = dd_in("ab  ", {"conv=ascii,unblock", "cbs=4", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(to_hex(r.out), "2fb280800a");
}

// --- conflicts ---

struct ConflictCase {
  const char* name;
  const char* args;  // one conv= operand (or two, space separated)
  const char* message;
  // gtest prints parameters, and CTest test names include them.
  friend std::ostream& operator<<(std::ostream& os, const ConflictCase& c) { return os << c.name; }
};

class ConvConflict : public DdTest, public ::testing::WithParamInterface<ConflictCase> {};

TEST_P(ConvConflict, IsRejectedWithoutHelpHint) {
  std::vector<std::string> args{"if=/dev/null", "of=/dev/null"};
  std::string all = GetParam().args;
  for (size_t start = 0; start <= all.size();) {
    size_t end = all.find(' ', start);
    if (end == std::string::npos) end = all.size();
    args.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  auto r = dd(args);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, std::string("dd: ") + GetParam().message + "\n");
  EXPECT_EQ(r.out, "");
}

constexpr const char* kCharsets = "cannot combine any two of {ascii,ebcdic,ibm}";
constexpr const char* kBlockUnblock = "cannot combine block and unblock";

INSTANTIATE_TEST_SUITE_P(
    Pairs, ConvConflict,
    ::testing::Values(ConflictCase{"AsciiEbcdic", "conv=ascii,ebcdic", kCharsets},
                      ConflictCase{"AsciiIbm", "conv=ascii,ibm", kCharsets},
                      ConflictCase{"EbcdicIbm", "conv=ibm,ebcdic", kCharsets},
                      ConflictCase{"LcaseUcase", "conv=lcase,ucase", "cannot combine lcase and ucase"},
                      ConflictCase{"UcaseLcaseSameMessage", "conv=ucase,lcase", "cannot combine lcase and ucase"},
                      ConflictCase{"ExclNocreat", "conv=excl,nocreat", "cannot combine excl and nocreat"},
                      ConflictCase{"BlockUnblockWithCbs", "cbs=4 conv=block,unblock", kBlockUnblock},
                      ConflictCase{"AsciiImpliesUnblock", "cbs=4 conv=ascii,block", kBlockUnblock},
                      ConflictCase{"EbcdicImpliesBlock", "cbs=4 conv=ebcdic,unblock", kBlockUnblock},
                      ConflictCase{"IbmImpliesBlock", "cbs=4 conv=ibm,unblock", kBlockUnblock},
                      ConflictCase{"AcrossTwoOperands", "cbs=4 conv=unblock conv=block", kBlockUnblock}),
    ParamName());

TEST_F(Conv, ConflictIsReportedBeforeOpeningFiles) {
  auto r = dd({"if=missing", "conv=lcase,ucase"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: cannot combine lcase and ucase\n");
}

TEST_F(Conv, BlockAndUnblockWithoutCbsAreBothIgnored) {
  auto r = dd_in("ab\ncd  ", {"conv=block,unblock"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab\ncd  ");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n7 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, RepeatedSymbolsAreHarmless) {
  auto r = dd_in("abcd", {"conv=swab,swab,ucase,ucase", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "BADC");
}

TEST_F(Conv, SparseWithNotruncIsAllowed) {
  auto r = dd({"if=/dev/null", "of=out", "conv=sparse,notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
}

// --- swab ---

TEST_F(Conv, SwabLeavesAnOddFinalByte) {
  auto r = dd_in("abcde", {"conv=swab"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "badce");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n5 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SwabCarriesOddByteAcrossReads) {
  Options o = opts({"conv=swab"});
  o.in = Stdin::chunked({"abc", "def", "g"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "badcfeg");
  EXPECT_EQ(r.err_masked(), "0+3 records in\n0+1 records out\n7 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SwabWithBsReblocksOutput) {
  Options o = opts({"conv=swab", "bs=3"});
  o.in = Stdin::chunked({"abc", "def", "g"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "badcfeg");
  EXPECT_EQ(r.err_masked(), "2+1 records in\n2+1 records out\n7 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SwabWithOddIbsFromAFile) {
  write_file("in", "abcdefg");
  auto r = dd({"if=in", "conv=swab", "ibs=3", "obs=1"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "badcfeg");
  EXPECT_EQ(r.err_masked(), "2+1 records in\n7+0 records out\n7 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SwabOfASingleByte) {
  auto r = dd_in("z", {"conv=swab", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "z");
}

// --- block / unblock ---

TEST_F(Conv, BlockPadsLinesWithSpacesAndCountsOneTruncatedRecord) {
  auto r = dd_in("ab\ncdefgh\nij", {"cbs=4", "conv=block"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab  cdefij  ");
  EXPECT_EQ(r.err_masked(),
            "0+1 records in\n0+1 records out\n1 truncated record\n"
            "12 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, BlockCountsTruncatedRecordsInPlural) {
  auto r = dd_in("abcdefgh\nijklmnop\n", {"cbs=4", "conv=block"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcdijkl");
  EXPECT_EQ(r.err_masked(),
            "0+1 records in\n0+1 records out\n2 truncated records\n"
            "8 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, BlockTruncationIsShownWithNoxfer) {
  auto r = dd_in("abcdefgh\n", {"cbs=4", "conv=block", "status=noxfer"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "0+1 records in\n0+1 records out\n1 truncated record\n");
}

TEST_F(Conv, BlockTruncationIsHiddenWithStatusNone) {
  auto r = dd_in("abcdefgh\n", {"cbs=4", "conv=block", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcd");
  EXPECT_EQ(r.err, "");
}

TEST_F(Conv, BlockExactLineWithoutNewline) {
  auto r = dd_in("abcd", {"cbs=4", "conv=block"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcd");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n4 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, BlockTurnsEmptyLinesIntoBlankRecords) {
  auto r = dd_in("\n\n", {"cbs=3", "conv=block", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "      ");
}

TEST_F(Conv, BlockWithUcaseTruncatesAfterMapping) {
  auto r = dd_in("Hello World\n", {"cbs=6", "conv=ucase,block"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "HELLO ");
  EXPECT_EQ(r.err_masked(),
            "0+1 records in\n0+1 records out\n1 truncated record\n"
            "6 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, UnblockStripsTrailingSpacesAndAddsNewlines) {
  auto r = dd_in("ab  cd  e   ", {"cbs=4", "conv=unblock"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab\ncd\ne\n");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n8 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, UnblockFinishesAPartialLastRecord) {
  auto r = dd_in("ab  cd", {"cbs=4", "conv=unblock", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab\ncd\n");
}

TEST_F(Conv, UnblockTurnsBlankRecordsIntoEmptyLines) {
  auto r = dd_in("        ", {"cbs=4", "conv=unblock", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "\n\n");
}

TEST_F(Conv, UnblockKeepsInnerSpaces) {
  auto r = dd_in("a b     ", {"cbs=4", "conv=unblock", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "a b\n\n");
}

TEST_F(Conv, UnblockAcrossChunkedReads) {
  Options o = opts({"cbs=4", "conv=unblock"});
  o.in = Stdin::chunked({"ab", "  cd", "e "});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab\ncde\n");
  EXPECT_EQ(r.err_masked(), "0+3 records in\n0+1 records out\n7 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, BlockAcrossChunkedReads) {
  Options o = opts({"cbs=4", "conv=block"});
  o.in = Stdin::chunked({"a", "b\nc", "defg\n"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab  cdef");
  EXPECT_EQ(r.err_masked(),
            "0+3 records in\n0+1 records out\n1 truncated record\n"
            "8 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, HugeCbsIsAcceptedWhenNotUsed) {
  write_file("in", "abc");
  auto r = dd({"if=in", "cbs=9223372036854775807", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc");
}

// --- sync ---

TEST_F(Conv, SyncPadsShortBlocksWithNul) {
  auto r = dd_in("abc", {"bs=8", "conv=sync"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc\0\0\0\0\0"s);
  EXPECT_EQ(r.err_masked(), "0+1 records in\n1+0 records out\n8 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SyncPadsEveryShortRead) {
  Options o = opts({"bs=4", "conv=sync"});
  o.in = Stdin::chunked({"ab", "cde", "f"});
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab\0\0cde\0f\0\0\0"s);
  EXPECT_EQ(r.err_masked(), "0+3 records in\n3+0 records out\n12 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SyncPadsToIbsNotObs) {
  auto r = dd_in("abc", {"ibs=5", "obs=2", "conv=sync"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc\0\0"s);
  EXPECT_EQ(r.err_masked(), "0+1 records in\n2+1 records out\n5 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SyncOnEmptyInputWritesNothing) {
  auto r = dd({"if=/dev/null", "ibs=5", "conv=sync"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err_masked(), "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SyncWithBlockPadsWithSpaces) {
  auto r = dd_in("ab\nc", {"ibs=8", "cbs=4", "conv=sync,block"});
  EXPECT_STATUS(r, "exit 0");
  // The padding spaces make "c" a 5-byte line, hence the truncation.
  EXPECT_EQ(r.out, "ab  c   ");
  EXPECT_EQ(r.err_masked(),
            "0+1 records in\n0+1 records out\n1 truncated record\n"
            "8 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, SyncWithUnblockPadsWithSpaces) {
  auto r = dd_in("ab", {"ibs=8", "cbs=4", "conv=sync,unblock", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab\n\n");
}

TEST_F(Conv, SyncPadsBeforeSwab) {
  auto r = dd_in("abc", {"bs=4", "conv=sync,swab", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ba\0c"s);
}

TEST_F(Conv, SyncSpacePaddingIsTranslatedToEbcdic) {
  auto r = dd_in("abc", {"bs=4", "cbs=4", "conv=sync,ebcdic", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(to_hex(r.out), "81828340");
}

TEST_F(Conv, SyncSpacePaddingIsTranslatedByAscii) {
  auto r = dd_in("abc", {"bs=4", "cbs=4", "conv=sync,ascii", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(to_hex(r.out), "2fb2b3800a");
}

// --- sparse ---

TEST_F(Conv, SparseOutputEndingInAHoleHasTheRightSizeAndBytes) {
  std::string input = "A" + std::string(3 * 65536 - 1, '\0');
  Options o = opts({"of=out", "bs=64K", "iflag=fullblock", "conv=sparse"});
  o.in = Stdin::pipe(input);
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "3+0 records in\n3+0 records out\n196608 bytes (197 kB, 192 KiB) copied, <T> s, <R>\n");
  EXPECT_EQ(file_size("out"), 196608);
  EXPECT_EQ(read_file("out"), input);
}

TEST_F(Conv, SparseLeavesABigHoleUnallocated) {
  auto r = dd({"if=/dev/zero", "of=out", "bs=1M", "count=8", "conv=sparse"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "8+0 records in\n8+0 records out\n"
            "8388608 bytes (8.4 MB, 8.0 MiB) copied, <T> s, <R>\n");
  EXPECT_EQ(file_size("out"), 8388608);
  struct stat st;
  ASSERT_EQ(::stat(path("out").c_str(), &st), 0);
  if (st.st_blocks * 512 >= 8388608) {
    GTEST_SKIP() << "the filesystem of " << dir() << " allocated the hole anyway";
  }
  EXPECT_LT(st.st_blocks, 64) << "st_blocks=" << st.st_blocks;
}

TEST_F(Conv, SparseKeepsDataAfterTheHole) {
  std::string input = std::string(131071, '\0') + "B";
  Options o = opts({"of=out", "bs=64K", "iflag=fullblock", "conv=sparse", "status=none"});
  o.in = Stdin::pipe(input);
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), input);
}

TEST_F(Conv, SparseWithNotruncLeavesOldBytesWhereZerosWouldGo) {
  write_file("out", "XXXXXXXXXX");
  auto r = dd_in(std::string(6, '\0'), {"of=out", "bs=2", "conv=sparse,notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "XXXXXXXXXX");
}

TEST_F(Conv, SparseWithoutNotruncStillProducesZeros) {
  write_file("out", "XXXXXXXXXX");
  auto r = dd_in(std::string(6, '\0'), {"of=out", "bs=2", "conv=sparse", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), std::string(6, '\0'));
}

TEST_F(Conv, SparseToAPipeWritesTheZeros) {
  auto r = dd_in(std::string(1024, '\0'), {"conv=sparse", "bs=512"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, std::string(1024, '\0'));
  EXPECT_EQ(r.err_masked(), "2+0 records in\n2+0 records out\n1024 bytes (1.0 kB, 1.0 KiB) copied, <T> s, <R>\n");
}

// --- excl / nocreat / notrunc ---

TEST_F(Conv, ExclRefusesAnExistingFile) {
  write_file("out", "keep");
  auto r = dd({"if=/dev/null", "of=out", "conv=excl"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'out': File exists\n");
  EXPECT_EQ(read_file("out"), "keep");
}

TEST_F(Conv, ExclCreatesANewFile) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=out", "conv=excl", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "abc");
}

TEST_F(Conv, ExclRefusesADanglingSymlink) {
  std::filesystem::create_symlink("nowhere", path("link"));
  auto r = dd({"if=/dev/null", "of=link", "conv=excl"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'link': File exists\n");
  EXPECT_FALSE(exists("nowhere"));
}

TEST_F(Conv, WithoutExclADanglingSymlinkIsFollowed) {
  std::filesystem::create_symlink("nowhere", path("link"));
  auto r = dd({"if=/dev/null", "of=link", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_TRUE(exists("nowhere"));
}

TEST_F(Conv, ExclRefusesEvenDevNull) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "conv=excl"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open '/dev/null': File exists\n");
}

TEST_F(Conv, ExclIsIgnoredForStdout) {
  auto r = dd_in("abc", {"conv=excl", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abc");
}

TEST_F(Conv, NocreatFailsOnAMissingFile) {
  auto r = dd({"if=/dev/null", "of=missing", "conv=nocreat"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open 'missing': No such file or directory\n");
  EXPECT_FALSE(exists("missing"));
}

TEST_F(Conv, NocreatStillTruncatesAnExistingFile) {
  write_file("out", "0123456789");
  auto r = dd_in("ab", {"of=out", "conv=nocreat", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "ab");
}

TEST_F(Conv, NotruncKeepsTheTail) {
  write_file("out", "0123456789");
  auto r = dd_in("AB", {"of=out", "seek=3", "bs=1", "conv=notrunc", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "012AB56789");
}

TEST_F(Conv, WithoutNotruncTheFileEndsAfterTheData) {
  write_file("out", "0123456789");
  auto r = dd_in("AB", {"of=out", "seek=3", "bs=1", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "012AB");
}

// --- fsync / fdatasync ---

TEST_F(Conv, FsyncToAFileSucceeds) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=out", "conv=fsync"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n3 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), "abc");
}

TEST_F(Conv, FdatasyncToAFileSucceeds) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=out", "conv=fdatasync", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "abc");
}

TEST_F(Conv, FsyncAndFdatasyncTogetherAreAllowed) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=out", "conv=fsync,fdatasync", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "abc");
}

TEST_F(Conv, FsyncToDevNullFailsAfterCopying) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/null", "conv=fsync"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: fsync failed for '/dev/null': Invalid argument\n"
            "0+1 records in\n0+1 records out\n3 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, FdatasyncFailureIsReportedAsFsync) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/null", "conv=fdatasync", "status=noxfer"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "dd: fsync failed for '/dev/null': Invalid argument\n"
            "0+1 records in\n0+1 records out\n");
}

TEST_F(Conv, FsyncToAPipeFails) {
  write_file("in", "abc");
  auto r = dd({"if=in", "conv=fsync"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.out, "abc");
  EXPECT_EQ(r.err_masked(),
            "dd: fsync failed for 'standard output': Invalid argument\n"
            "0+1 records in\n0+1 records out\n3 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, FdatasyncToAPipeFails) {
  write_file("in", "abc");
  auto r = dd({"if=in", "conv=fdatasync", "status=none"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: fsync failed for 'standard output': Invalid argument\n");
}

TEST_F(Conv, FsyncFailureIsShownWithStatusNone) {
  auto r = dd({"if=/dev/null", "of=/dev/null", "conv=fsync", "status=none"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: fsync failed for '/dev/null': Invalid argument\n");
}

TEST_F(Conv, FsyncIsStillAttemptedAfterAWriteError) {
  write_file("in", "abc");
  auto r = dd({"if=in", "of=/dev/full", "conv=fsync"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error writing '/dev/full': No space left on device\n"
            "dd: fsync failed for '/dev/full': Invalid argument\n"
            "0+1 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

// --- noerror ---

TEST_F(Conv, NoerrorWithoutErrorsChangesNothing) {
  auto r = dd_in("ab", {"conv=noerror"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "ab");
  EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n2 bytes copied, <T> s, <R>\n");
}

TEST_F(Conv, NoerrorSyncTurnsDirectoryReadErrorsIntoZeroBlocks) {
  std::filesystem::create_directory(path("dir"));
  auto r = dd({"if=dir", "of=out", "conv=noerror,sync", "count=2"});
  // Each failed read is reported with the counters so far; the padded
  // block then counts as a partial record in and a full one out.
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "dd: error reading 'dir': Is a directory\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n"
            "dd: error reading 'dir': Is a directory\n"
            "0+1 records in\n1+0 records out\n512 bytes copied, <T> s, <R>\n"
            "0+2 records in\n2+0 records out\n1024 bytes (1.0 kB, 1.0 KiB) copied, <T> s, <R>\n");
  EXPECT_EQ(read_file("out"), std::string(1024, '\0'));
}

TEST_F(Conv, NoerrorSyncOnUnmappedMemoryGivesZeroBlocks) {
  // Offset 0 of /proc/self/mem is never mapped: each read fails with EIO.
  auto r = dd({"if=/proc/self/mem", "of=out", "conv=noerror,sync", "count=3", "status=noxfer"});
  if (r.err.find("Input/output error") == std::string::npos) {
    GTEST_SKIP() << "reading /proc/self/mem did not give EIO here\n" << r.describe();
  }
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err,
            "dd: error reading '/proc/self/mem': Input/output error\n"
            "0+0 records in\n0+0 records out\n"
            "dd: error reading '/proc/self/mem': Input/output error\n"
            "0+1 records in\n1+0 records out\n"
            "dd: error reading '/proc/self/mem': Input/output error\n"
            "0+2 records in\n2+0 records out\n"
            "0+3 records in\n3+0 records out\n");
  EXPECT_EQ(read_file("out"), std::string(1536, '\0'));
}

TEST_F(Conv, ReadErrorWithoutNoerrorStops) {
  auto r = dd({"if=/proc/self/mem", "of=/dev/null", "count=1"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error reading '/proc/self/mem': Input/output error\n"
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

}  // namespace
}  // namespace ddtime::e2e
