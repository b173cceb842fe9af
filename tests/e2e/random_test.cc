// SPDX-License-Identifier: GPL-3.0-or-later
// --random: the range's blocks in a random order, a copy still a copy. For
// the operands the queued engine takes, of= ends byte for byte as the
// sequential copy (and so GNU dd) leaves it, with the same records lines
// and status, at depths 1 and 8 and with io_uring and the thread pool;
// every block is written once (stamp written at random, verified in
// order); the report leads with the IOPS and names the seed, the JSON
// says access, seed and range; and what cannot be reached at offsets, or
// has no end, is refused before anything is opened for writing.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/copy_cases.h"
#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

constexpr std::size_t kFileSize = kCopyFileSize;

const CopyCase kCases[] = {
    {"Bs4kEndsShort", {"bs=4096"}},
    {"SkipAndCountInBlocks", {"bs=64K", "skip=3", "count=7"}},
    {"SeekIntoAnExistingFileUnderNotrunc", {"bs=4096", "seek=9", "count=20", "conv=notrunc"}, true},
    {"SkipAndCountInBytes", {"bs=4096", "iflag=skip_bytes,count_bytes", "skip=1000", "count=50000"}},
    {"SeekInBytes", {"bs=512", "oflag=seek_bytes", "seek=777"}},
    {"CountPastTheEnd", {"bs=16K", "count=1000"}},
    {"Fdatasync", {"bs=64K", "conv=fdatasync"}},
    {"DirectBothWithSeekAndCount", {"bs=4096", "iflag=direct", "oflag=direct", "seek=3", "count=33"}},
    {"DirectInputToTheEnd", {"bs=4096", "iflag=direct"}},
};

class Random : public CopyCaseTest {
 protected:
  void SetUp() override {
    CopyCaseTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }
};

TEST_F(Random, ACopyEndsAsTheSequentialCopyAtEveryDepthAndEngine) {
  for (const CopyCase& c : kCases) {
    const Copy in_turn = copy(c, {});
    ASSERT_STATUS(in_turn.result, "exit 0") << c.name;
    for (const char* engine : {"--engine=io_uring", "--engine=threads", "--engine=libaio", "--engine=sync"}) {
      for (const char* depth : {"--iodepth=1", "--iodepth=8"}) {
        if (std::string(engine) == "--engine=sync" && std::string(depth) != "--iodepth=1") continue;
        SCOPED_TRACE(std::string(c.name) + " " + engine + " " + depth);
        const Copy random = copy(c, {"--random=7", engine, depth});
        EXPECT_EQ(random.result.status(), in_turn.result.status()) << random.result;
        EXPECT_EQ(random.result.err_masked(), in_turn.result.err_masked());
        EXPECT_TRUE(random.output == in_turn.output)
            << "output differs: " << random.output.size() << " against " << in_turn.output.size() << " bytes";
      }
    }
  }
}

// P2: one call a side per record (pread, pwrite at the record's block),
// as fio's psync does, where lseek on both sides made it three.
TEST_F(Random, TheSyncEngineReadsAndWritesEachRecordAtItsBlockWithOneCallASide) {
  constexpr const char* kStrace = "/usr/bin/strace";
  if (::access(kStrace, X_OK) != 0) GTEST_SKIP() << "needs strace (" << kStrace << ")";
  Options o = opts({"if=in", "of=out", "bs=4096", "count=32", "--random=3", "--engine=sync"});
  o.run_under = {kStrace, "-qq", "-e", "trace=lseek,read,write,pread64,pwrite64", "-o", "trace", "--"};
  const Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  const std::string trace = read_file("trace");
  std::vector<long> read_at;
  const std::regex placed(R"(pread64\(0, .*, 4096, (\d+)\) += 4096\npwrite64\(1, .*, 4096, (\d+)\) += 4096\n)");
  for (std::sregex_iterator it(trace.begin(), trace.end(), placed), end; it != end; ++it) {
    EXPECT_EQ((*it)[1], (*it)[2]) << "read and written at the same block";
    read_at.push_back(std::stol((*it)[1]));
  }
  ASSERT_EQ(read_at.size(), 32u) << trace.substr(0, 2000);
  EXPECT_EQ(trace.find("SEEK_SET"), std::string::npos) << "no lseek per record";
  std::vector<long> sorted = read_at;
  std::sort(sorted.begin(), sorted.end());
  for (long i = 0; i < 32; ++i) EXPECT_EQ(sorted[static_cast<std::size_t>(i)], i * 4096) << "each block once";
  EXPECT_NE(read_at, sorted);
  EXPECT_TRUE(read_file("out") == input_.substr(0, 32 * 4096));
}

// P1: at depth 1 `auto` is the sync engine for --random too (io_uring only
// by name or at depth), and the report and the JSON say what ran.
TEST_F(Random, AtDepthOneTheDefaultEngineIsTheSyncEngineAndTheReportSaysSo) {
  const Result r = ddtime({"if=in", "of=/dev/null", "bs=4096", "count=16", "--random=5", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json json = parse_json(r.err);
  EXPECT_EQ(json["engine"]["name"].string(), "sync");
  EXPECT_EQ(json["engine"]["depth"].integer(), 1);
  const Result text = ddtime({"if=in", "of=/dev/null", "bs=4096", "count=16", "--random=5", "--iodepth=1"});
  ASSERT_STATUS(text, "exit 0");
  EXPECT_NE(text.err.find("ddtime: engine sync, depth 1\n"), std::string::npos) << text.err;
  const Result named = ddtime({"if=in", "of=/dev/null", "bs=4096", "count=16", "--random=5", "--engine=threads"});
  ASSERT_STATUS(named, "exit 0");
  EXPECT_NE(named.err.find("ddtime: engine threads, depth 1"), std::string::npos) << named.err;
}

TEST_F(Random, ReadsEachBlockAtItsOwnOffsetNotInTurn) {
  constexpr const char* kStrace = "/usr/bin/strace";
  if (::access(kStrace, X_OK) != 0) GTEST_SKIP() << "needs strace (" << kStrace << ")";
  // The threads engine: its reads are pread64 calls strace can see.
  Options o = opts({"if=in", "of=/dev/null", "bs=4096", "count=64", "--random=3", "--engine=threads"});
  o.run_under = {kStrace, "-f", "-qq", "-e", "trace=pread64", "-o", "trace", "--"};
  const Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  const std::string trace = read_file("trace");
  std::vector<long> offsets;
  const std::regex read_at(R"(pread64\(0, .*, 4096, (\d+)\) = 4096)");
  for (std::sregex_iterator it(trace.begin(), trace.end(), read_at), end; it != end; ++it) {
    offsets.push_back(std::stol((*it)[1]));
  }
  ASSERT_EQ(offsets.size(), 64u) << trace.substr(0, 2000);
  std::vector<long> sorted = offsets;
  std::sort(sorted.begin(), sorted.end());
  for (long i = 0; i < 64; ++i) EXPECT_EQ(sorted[static_cast<std::size_t>(i)], i * 4096) << "each block once";
  EXPECT_NE(offsets, sorted) << "the blocks were read in turn";
}

TEST_F(Random, EveryBlockLandsWhereItBelongsAsAVerifiedStampShows) {
  for (const char* depth : {"--iodepth=1", "--iodepth=8", "--engine=sync"}) {
    // --force: each pass overwrites the file the pass before made (rule 1).
    const Result r =
        ddtime({"of=out", "bs=4096", "--size=1000000", "--pattern=stamp", "--random", "--verify", "--force", depth});
    EXPECT_STATUS(r, "exit 0");
    EXPECT_NE(r.err.find("verify: ok"), std::string::npos) << r.err;
    EXPECT_EQ(read_file("out").size(), 1000000u);
  }
}

TEST_F(Random, TheReportLeadsWithIopsAndNamesTheSeed) {
  const Result r = ddtime({"if=in", "of=/dev/null", "bs=4096", "skip=2", "count=10", "--random=42"});
  ASSERT_STATUS(r, "exit 0");
  const std::regex first(R"(^ddtime: random order: \d+ IOPS, 10 blocks of 4096 B \(40 KiB\) from offset 8192, )"
                         R"(written from 0, each once; seed 42\n)");
  EXPECT_TRUE(std::regex_search(r.err, first)) << r.err;
}

TEST_F(Random, TheJsonSaysAccessSeedAndRange) {
  const Result r = ddtime({"if=in", "of=out", "bs=64K", "--random=9", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json json = parse_json(r.err);
  EXPECT_EQ(json["access"].string(), "random");
  EXPECT_EQ(json["order_seed"].integer(), 9);
  EXPECT_EQ(json["range"]["input_offset"].integer(), 0);
  EXPECT_EQ(json["range"]["bytes"].integer(), static_cast<std::int64_t>(kFileSize));
  EXPECT_EQ(json["range"]["blocks"].integer(), static_cast<std::int64_t>(kFileSize / 65536));
}

TEST_F(Random, AFileOnStandardInputHasItsEnd) {
  Options o = opts({"bs=4096", "of=out", "--random=5"});
  o.in = Stdin::file((dir() / "in").string());
  o.as_ddtime = true;
  const Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("random order: "), std::string::npos) << r.err;
  EXPECT_TRUE(read_file("out") == input_);
  o.in = Stdin::pipe(input_);
  const Result piped = dd(o);
  EXPECT_STATUS(piped, "exit 1");
  EXPECT_NE(piped.err.find("which ‘standard input’ cannot take: it is a pipe"), std::string::npos) << piped.err;
}

TEST_F(Random, WithoutASeedOneIsDrawnAndSaid) {
  const Result r = ddtime({"if=in", "of=/dev/null", "bs=4096", "--random"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(each once; seed \d+\n)"))) << r.err;
}

TEST_F(Random, WhatCannotTakeItIsRefusedBeforeAnythingIsWritten) {
  expect_refused({"of=new", "bs=4k", "--pattern=random", "--random"},
                 "--random draws its order over a range with an end, and neither the input nor the output has one: "
                 "give --size=BYTES or count=");
  expect_refused({"if=in", "of=new", "bs=4k", "--random", "--engine=sync", "conv=ucase"},
                 "--random does not combine with conv=ucase");
  expect_refused({"if=in", "of=new", "bs=4k", "--random", "oflag=append"}, "does not combine with oflag=append");
  expect_refused({"if=in", "of=new", "bs=4k", "--random", "conv=ucase"}, "--random does not combine with conv=ucase");
  expect_refused({"if=in", "of=new", "bs=4k", "--random", "conv=sync"}, "--random does not combine with conv=sync");
  expect_refused({"if=in", "of=new", "bs=4k", "--random", "conv=noerror"},
                 "--random does not combine with conv=noerror");
  expect_refused({"if=in", "of=new", "ibs=4k", "obs=8k", "--random"}, "--random needs bs=, not ibs= and obs=");
  expect_refused({"if=in", "of=new", "bs=4k", "--random=-1"}, "invalid argument");
  ASSERT_EQ(::mkfifo((dir() / "fifo").c_str(), 0600), 0);
  expect_refused({"if=fifo", "of=new", "bs=4k", "count=1", "--random"},
                 "--random reads each block at its own offset, which ‘fifo’ cannot take: it is a pipe");
}

// On a direct-I/O loop device: what the block layer accounts for the
// device is what the run reports, and every block is visited once.
class RandomOnLoop : public LoopDevice {
 protected:
  RandomOnLoop() : LoopDevice(4096, 4 * 1048576, true) {}

  // Sectors of 512 bytes read from the device so far (/sys/block/X/stat's third field).
  std::int64_t sectors_read() const {
    const std::string name = device_.substr(device_.rfind('/') + 1);
    const Command stat = shell("cat /sys/block/" + name + "/stat");
    std::istringstream fields(stat.output);
    std::int64_t reads = 0, merged = 0, sectors = -1;
    fields >> reads >> merged >> sectors;
    return sectors;
  }
};

TEST_F(RandomOnLoop, TheBlockLayerCountsTheBytesTheRunReports) {
  SKIP_IF_ANOTHER_DD();
  shell("udevadm settle 2>/dev/null");  // the probes a new device draws are over
  for (const char* depth : {"--iodepth=1", "--iodepth=8"}) {
    const std::int64_t before = sectors_read();
    ASSERT_GE(before, 0) << "no /sys/block stat for " << device_;
    const Result r = ddtime({"if=" + device_, "of=/dev/null", "bs=4k", "iflag=direct", "--random", depth, "--json"});
    ASSERT_STATUS(r, "exit 0");
    const Json json = parse_json(r.err);
    EXPECT_EQ(json["bytes_in"].integer(), static_cast<std::int64_t>(size_));
    EXPECT_EQ((sectors_read() - before) * 512, json["bytes_in"].integer()) << depth;
  }
}

TEST_F(RandomOnLoop, ARangePastTheDevicesEndIsRefusedBeforeAnythingIsWritten) {
  SKIP_IF_ANOTHER_DD();
  const Result r = ddtime({"of=" + device_, "bs=4k", "seek=1", "--size=4M", "--pattern=random", "--random"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("--random's range ends at byte 4198400, past the end of"), std::string::npos) << r.err;
  EXPECT_TRUE(device_bytes() == content_) << "the device was written";
}

TEST_F(RandomOnLoop, StampsWrittenAtRandomAreEachInPlaceAndReadAtRandomCopyTheDevice) {
  SKIP_IF_ANOTHER_DD();
  // Written at random, verified in order: each sector holds its own offset.
  const Result written =
      ddtime({"of=" + device_, "bs=4k", "oflag=direct", "--pattern=stamp", "--random", "--iodepth=8", "--verify"});
  ASSERT_STATUS(written, "exit 0");
  EXPECT_NE(written.err.find("verify: ok"), std::string::npos) << written.err;
  const std::string device = device_bytes();
  for (std::size_t sector = 0; sector < size_; sector += 512) {
    std::uint64_t stamped = 0;
    std::memcpy(&stamped, device.data() + sector, sizeof stamped);
    ASSERT_EQ(stamped, sector) << "sector at " << sector;
  }
  // Read at random, written in place: the copy is the device.
  const Result read = ddtime({"if=" + device_, "of=copy", "bs=4k", "iflag=direct", "--random", "--iodepth=8"});
  ASSERT_STATUS(read, "exit 0");
  EXPECT_TRUE(read_file("copy") == device);
}

}  // namespace
}  // namespace ddtime::e2e
