// SPDX-License-Identifier: GPL-3.0-or-later
// --readback, --verify and --preallocate (issue 13): the passes and their
// lines, the JSON of both passes, --verify catching a corrupted and a
// misplaced block (an LD_PRELOAD shim that changes what read returns), and
// the refusals.
#include <sys/stat.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

class Readback : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
    input_.resize(1 << 20);
    for (std::size_t i = 0; i < input_.size(); ++i) input_[i] = static_cast<char>((i * 7919) >> 5);
    write_file("in", input_);
  }
  static bool has_line(const std::string& text, const std::string& pattern) {
    return std::regex_search(text, std::regex(pattern, std::regex::multiline));
  }
  std::string input_;
};

TEST_F(Readback, WritesFlushesDropsAndReadsBackEachTimedApart) {
  const Result r = ddtime({"if=in", "of=out", "bs=64k", "--readback", "--verify"});
  ASSERT_STATUS(r, "exit 0");
  const std::string& d = kDuration;
  EXPECT_TRUE(has_line(r.err, "^ddtime: write: real " + d + " \\(copy " + d + " \\+ flush " + d + ", user " + d +
                                  " sys " + d + " of it\\)  user "))
      << r.err;
  EXPECT_TRUE(has_line(r.err, "^ddtime: drop cache: " + d + "$")) << r.err;
  EXPECT_TRUE(has_line(r.err, "^ddtime: read: real " + d + "  user ")) << r.err;
  EXPECT_TRUE(has_line(r.err, "^ddtime: verify: ok, 1.0 MiB \\(1048576 B\\) compared in " + d)) << r.err;
  EXPECT_TRUE(has_line(r.err, "^16\\+0 records in\\n16\\+0 records out\\n1048576 bytes .* copied, [^\\n]*\\n$"))
      << "GNU's summary of the write pass comes last\n"
      << r.err;
  EXPECT_TRUE(read_file("out") == input_);
}

TEST_F(Readback, TheJsonHasAWritePassAndAReadPassWithTheVerdict) {
  const Result r = ddtime({"if=in", "of=out", "bs=4k", "seek=3", "--readback", "--verify", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  ASSERT_EQ(doc["runs"].size(), 2u);
  const Json& write = doc["runs"][0];
  const Json& read = doc["runs"][1];
  EXPECT_EQ(write["pass"].string(), "write");
  EXPECT_EQ(read["pass"].string(), "read");
  EXPECT_EQ(write["bytes_out"].integer(), 1 << 20);
  EXPECT_GT(write["times"]["flush"].number(), 0) << "fdatasync, timed apart";
  EXPECT_GE(write["flush_user_seconds"].number(), 0);
  EXPECT_GE(write["flush_sys_seconds"].number(), 0);
  EXPECT_LE(write["flush_user_seconds"].number() + write["flush_sys_seconds"].number(),
            write["times"]["flush"].number() + 0.001)
      << "the flush's CPU time within its clock time";
  EXPECT_EQ(read["bytes_in"].integer(), 1 << 20);
  EXPECT_EQ(read["operands"]["if"].string(), "out");
  EXPECT_EQ(read["operands"]["skip"]["records"].integer(), 3) << "from where the bytes were written";
  EXPECT_EQ(read["verify"].string(), "ok");
  EXPECT_TRUE(read["first_bad_offset"].is_null());
  EXPECT_GE(read["verify_seconds"].number(), 0);
  EXPECT_GE(read["drop_cache_seconds"].number(), 0);
  EXPECT_FALSE(write.has("verify"));
  ASSERT_EQ(doc["summary"].size(), 2u);
  EXPECT_EQ(doc["summary"][0]["pass"].string(), "write");
  EXPECT_EQ(doc["summary"][1]["pass"].string(), "read");
}

TEST_F(Readback, PreallocateReservesTheOutputFirst) {
  const Result r = ddtime({"if=in", "of=out", "bs=64k", "--readback", "--preallocate", "--json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(read_file("out") == input_);
  struct stat status {};
  ASSERT_EQ(::stat(path("out").c_str(), &status), 0);
  EXPECT_EQ(status.st_size, 1 << 20);
  EXPECT_GE(status.st_blocks * 512, 1 << 20) << "allocated, not sparse";
}

// Defect 1: the passes ignored --size, and with a generator wrote until
// the disk was full; on a device, past the range asked for.
TEST_F(Readback, EveryPassKeepsToSize) {
  Result r = ddtime({"if=in", "of=out", "bs=4k", "--size=100", "--verify", "--json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(file_size("out"), 100);
  const Json doc = parse_json(r.err);
  EXPECT_EQ(doc["runs"][0]["bytes_out"].integer(), 100);
  EXPECT_EQ(doc["runs"][1]["bytes_in"].integer(), 100);
  r = ddtime({"of=gen", "bs=4k", "--size=10000", "--pattern=random", "--readback"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(file_size("gen"), 10000);
}

// Defect 2: the reservation made the file its final length before the
// appended writes, which then landed after a block of zeros.
TEST_F(Readback, PreallocateWithAppendAppends) {
  write_file("ex", std::string(1000, 'e'));
  Result r = ddtime({"if=in", "of=ex", "bs=4k", "oflag=append", "conv=notrunc", "--preallocate", "--verify"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(read_file("ex") == std::string(1000, 'e') + input_);
  r = ddtime({"if=in", "of=new", "bs=4k", "oflag=append", "--preallocate"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(read_file("new") == input_);
}

// Defects 34 and 35: the file is what the copy without --preallocate
// leaves: cut to what the input gave, and cut at seek= as dd cuts it.
TEST_F(Readback, PreallocateLeavesTheFileTheCopyLeaves) {
  Result r = ddtime({"if=in", "of=out", "bs=64k", "count=100", "--preallocate"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(file_size("out"), 1 << 20) << "not the 100 blocks reserved";
  write_file("seeked", std::string(10000, 's'));
  const std::string tail = input_.substr(0, 4096);
  write_file("four", tail);
  r = ddtime({"if=four", "of=seeked", "bs=4k", "seek=100", "oflag=seek_bytes", "--preallocate"});
  ASSERT_STATUS(r, "exit 0");
  // Under one block, seek= leaves O_TRUNC on: GNU empties the file, then
  // writes 100 bytes on.
  EXPECT_TRUE(read_file("seeked") == std::string(100, '\0') + tail) << "the old bytes are cut away, as GNU cuts them";
}

// Defect 4: under notrunc, the last block of the range was zeroed before
// a copy that never reached it. An interrupted copy leaves every byte it
// did not write as it was.
TEST_F(Readback, PreallocateUnderNotruncChangesNoByteTheCopyDoesNotWrite) {
  write_file("pout", std::string(2 << 20, '\xaa'));
  write_file("two", input_.substr(0, 1 << 19));
  const Result r = ddtime({"if=two", "of=pout", "bs=4k", "count=512", "conv=notrunc", "--preallocate"});
  ASSERT_STATUS(r, "exit 0");
  const std::string after = read_file("pout");
  ASSERT_EQ(after.size(), 2u << 20);
  EXPECT_TRUE(after.substr(0, 1 << 19) == input_.substr(0, 1 << 19));
  EXPECT_TRUE(after.substr(1 << 19) == std::string((2 << 20) - (1 << 19), '\xaa')) << "count=512 is beyond two's end";
}

TEST_F(Readback, PreallocateAllocatesTheBlocksBeforeTheCopy) {
  const Result r = ddtime({"if=in", "of=out", "bs=64k", "--preallocate", "conv=fdatasync"});
  ASSERT_STATUS(r, "exit 0");
  struct stat status {};
  ASSERT_EQ(::stat(path("out").c_str(), &status), 0);
  EXPECT_EQ(status.st_size, 1 << 20);
  EXPECT_GE(status.st_blocks * 512, 1 << 20) << "allocated, not sparse";
}

TEST_F(Readback, PreallocateNeedsAFile) {
  const Result r = ddtime({"if=in", "of=/dev/null", "--preallocate"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --preallocate reserves the blocks of a regular file, which \u2018/dev/null\u2019 is not\n");
}

TEST_F(Readback, PreallocateAloneKeepsDdsTruncation) {
  write_file("out", std::string(3 << 20, 'o'));
  ASSERT_STATUS(dd({"if=in", "of=out", "bs=64k", "--preallocate"}), "exit 0");
  EXPECT_TRUE(read_file("out") == input_) << "cut at seek= as dd cuts it, then the copy";
}

TEST_F(Readback, VerifyAgainstDevZero) {
  const Result r = ddtime({"if=/dev/zero", "of=out", "bs=64k", "count=8", "--verify"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(has_line(r.err, "^ddtime: verify: ok, 512 KiB \\(524288 B\\) compared")) << r.err;
}

TEST_F(Readback, VerifyNeedsAnInputThatGivesTheSameBytesAgain) {
  const Result r = ddtime({"if=/dev/urandom", "of=out", "bs=4k", "count=4", "--verify"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: --verify compares with the input read again: it needs if= a file, a block device, /dev/zero or "
            "/dev/full\n");
}

TEST_F(Readback, TheOutputMustBeAFileOrADevice) {
  Result r = ddtime({"if=in", "of=/dev/null", "--readback"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(
      r.err,
      "ddtime: --readback reads the output back: \u2018/dev/null\u2019 is not a regular file or a block device\n");
  r = ddtime({"if=in", "--readback"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --readback reads the output back: name it with of=\n");
  r = ddtime({"if=in", "of=out", "--readback", "--repeat=2"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --readback runs its passes once; it does not combine with --repeat, --warmup or --sweep\n");
  r = ddtime({"if=in", "of=out", "--verify", "conv=ucase"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --verify compares the bytes written with the input's, which a conversion changes\n");
}

// ---- --pattern ----

TEST_F(Readback, APatternOfOneByteWritesThatByte) {
  const Result r = ddtime({"of=out", "bs=4k", "count=3", "--pattern=0x5a"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), std::string(3 * 4096, '\x5a'));
  EXPECT_TRUE(has_line(r.err, "^ddtime: pattern 0x5a: the generator makes [0-9.]+ [KMGT]?i?B/s on one core")) << r.err;
  EXPECT_TRUE(has_line(r.err, "^3\\+0 records in\n3\\+0 records out\n12288 bytes")) << r.err;
}

TEST_F(Readback, RandomNeverWritesTheSameBlockTwiceAtAnyDepth) {
  for (const char* depth : {"--iodepth=1", "--iodepth=8"}) {
    // --force: the second depth overwrites the first's file (rule 1).
    ASSERT_STATUS(ddtime({"of=out", "bs=64k", "count=16", "--pattern=random", "--force", depth}), "exit 0");
    const std::string bytes = read_file("out");
    ASSERT_EQ(bytes.size(), 16u << 16);
    std::set<std::string> blocks;
    for (std::size_t i = 0; i < bytes.size(); i += 4096) blocks.insert(bytes.substr(i, 4096));
    EXPECT_EQ(blocks.size(), bytes.size() / 4096) << depth;
  }
}

// Defect 36: a queued engine dropped the final partial record when the
// generator made it with no request in flight.
TEST_F(Readback, APatternEndsWithItsPartialRecordAtEveryDepthAndEngine) {
  for (const char* engine : {"--engine=io_uring", "--engine=threads"}) {
    for (const char* depth : {"--iodepth=2", "--iodepth=4", "--iodepth=8"}) {
      SCOPED_TRACE(std::string(engine) + " " + depth);
      Result r = dd({"of=/dev/null", "bs=4096", "--size=3000000", "--pattern=random", engine, depth});
      ASSERT_STATUS(r, "exit 0");
      EXPECT_EQ(r.err_masked(),
                "732+1 records in\n732+1 records out\n3000000 bytes (3.0 MB, 2.9 MiB) copied, <T> s, <R>\n");
      r = dd({"of=out", "bs=4096", "--size=1000", "--pattern=stamp", "--force", engine, depth});
      ASSERT_STATUS(r, "exit 0");
      EXPECT_EQ(r.err_masked(), "0+1 records in\n0+1 records out\n1000 bytes (1.0 kB) copied, <T> s, <R>\n");
      EXPECT_EQ(file_size("out"), 1000);
    }
  }
}

TEST_F(Readback, StampWritesEachSectorsOffsetAndVerifiesAtDepth) {
  const Result r =
      ddtime({"of=out", "bs=64k", "count=8", "seek=2", "--pattern=stamp", "--verify", "--iodepth=4", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const std::string bytes = read_file("out");
  ASSERT_EQ(bytes.size(), 10u << 16);
  for (std::size_t sector = 2 * 128; sector < 10 * 128; sector += 37) {
    std::uint64_t offset = 0;
    for (int i = 7; i >= 0; --i)
      offset = offset << 8 | static_cast<unsigned char>(bytes[sector * 512 + static_cast<std::size_t>(i)]);
    EXPECT_EQ(offset, sector * 512);
  }
  const Json doc = parse_json(r.err);
  EXPECT_EQ(doc["plan"]["pattern"]["name"].string(), "stamp");
  EXPECT_GT(doc["plan"]["pattern"]["generator_bytes_per_second"].number(), 0);
  EXPECT_EQ(doc["runs"][1]["verify"].string(), "ok");
  EXPECT_GT(doc["runs"][0]["seed"].integer(), 0);
}

// The combination test: under oflag=append, stamp wrote each sector's
// offset in the stream, not in the file, where the writes land at its end.
TEST_F(Readback, StampUnderAppendWritesTheOffsetInTheFile) {
  write_file("out", std::string(1000, 'o'));
  // --force: the file's data is offered as scratch (rule 1).
  const Result r =
      ddtime({"of=out", "bs=4k", "count=4", "oflag=append", "conv=notrunc", "--pattern=stamp", "--verify", "--force"});
  ASSERT_STATUS(r, "exit 0");
  const std::string bytes = read_file("out");
  ASSERT_EQ(bytes.size(), 1000u + 4 * 4096);
  for (std::size_t sector = 0; sector < 4 * 4096 / 512; ++sector) {
    std::uint64_t offset = 0;
    for (int i = 7; i >= 0; --i)
      offset = offset << 8 | static_cast<unsigned char>(bytes[1000 + sector * 512 + static_cast<std::size_t>(i)]);
    EXPECT_EQ(offset, 1000 + sector * 512);
  }
}

// The combination test: a file that did not exist yet, or that seek= cuts
// before the appending starts, took seek= (or the old size) as its base.
TEST_F(Readback, StampUnderAppendKnowsWhereOpeningLeavesTheEnd) {
  const auto first_offset = [&](const std::string& name, std::size_t at) {
    const std::string bytes = read_file(name);
    std::uint64_t offset = 0;
    for (int i = 7; i >= 0; --i)
      offset = offset << 8 | static_cast<unsigned char>(bytes.at(at + static_cast<std::size_t>(i)));
    return offset;
  };
  Result r = ddtime(
      {"of=fresh", "bs=4k", "seek=16", "count=2", "oflag=append", "conv=notrunc", "--pattern=stamp", "--verify"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("fresh").size(), 2u * 4096) << "a new file appended to starts at 0";
  EXPECT_EQ(first_offset("fresh", 0), 0u);

  write_file("cut", std::string(100000, 'c'));
  r = ddtime({"of=cut", "bs=4k", "seek=2", "count=2", "oflag=append", "--pattern=stamp", "--verify", "--force"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("cut").size(), 4u * 4096) << "cut at seek=, then appended to";
  EXPECT_EQ(first_offset("cut", 8192), 8192u);

  write_file("emptied", std::string(100000, 'e'));
  r = ddtime({"of=emptied", "bs=4k", "count=2", "oflag=append", "--pattern=stamp", "--verify", "--force"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("emptied").size(), 2u * 4096) << "emptied, then appended to";
  EXPECT_EQ(first_offset("emptied", 0), 0u);
}

TEST_F(Readback, APatternTakesThePlaceOfTheInput) {
  Result r = ddtime({"if=in", "of=out", "--pattern=zero"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --pattern takes the place of the input: it does not combine with if=\n");
  r = ddtime({"of=out", "skip=1", "--pattern=zero"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --pattern takes the place of the input: it does not combine with skip=\n");
  r = ddtime({"of=out", "--pattern=0x1"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("Valid arguments are: zero, ones, 0xHH, random, stamp"), std::string::npos) << r.err;
}

TEST_F(Readback, PreallocateNeedsASize) {
  const Result r = ddtime({"if=/dev/zero", "of=out", "--preallocate"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: --preallocate needs the size of the copy: give count=, --size, or an input file or device\n");
}

}  // namespace
}  // namespace ddtime::e2e
