// SPDX-License-Identifier: GPL-3.0-or-later
// --mix=PERCENT: of= read and written at once. Every block of the range is
// either as it was (a read) or the generator's stamp of its own offset (a
// write), with the sync engine, at depth, with --jobs and in a random
// order; the report and the JSON count each side as the target saw it
// (the latency samples too); and what cannot be mixed is refused before
// anything is written. On a direct-I/O loop device the block layer's own
// counts are each side's bytes, and 100,000 I/Os hold the ratio asked.

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

constexpr std::size_t kBlock = 4096;
constexpr std::size_t kBlocks = 1024;

std::uint64_t le64(const std::string& bytes, std::size_t at) {
  std::uint64_t value = 0;
  std::memcpy(&value, bytes.data() + at, 8);
  return value;
}

// Blocks of bytes that were zero: untouched ones still are; written ones
// hold stamp's sectors, each starting with its own offset.
struct Blocks {
  std::int64_t untouched = 0;
  std::int64_t stamped = 0;
  std::int64_t other = 0;
};

Blocks classify(const std::string& bytes) {
  Blocks blocks;
  const std::string zeros(kBlock, '\0');
  for (std::size_t at = 0; at + kBlock <= bytes.size(); at += kBlock) {
    if (bytes.compare(at, kBlock, zeros) == 0) {
      ++blocks.untouched;
      continue;
    }
    bool stamped = true;
    for (std::size_t sector = 0; sector < kBlock; sector += 512)
      stamped = stamped && le64(bytes, at + sector) == at + sector;
    ++(stamped ? blocks.stamped : blocks.other);
  }
  return blocks;
}

class Mix : public DdTest {};

TEST_F(Mix, EachBlockIsAsItWasOrStampedWithItsOffsetAndTheCountsSaySo) {
  const std::vector<std::vector<std::string>> engines = {{},
                                                         {"--iodepth=8"},
                                                         {"--iodepth=4", "--jobs=2"},
                                                         {"--random"},
                                                         {"--random", "--iodepth=8", "--jobs=3"},
                                                         {"--engine=threads", "--iodepth=4"}};
  for (const std::vector<std::string>& engine : engines) {
    write_file("target", std::string(kBlocks * kBlock, '\0'));
    std::vector<std::string> args = {"--mix=60", "--pattern=stamp", "of=target", "bs=4k",
                                     "--force",  "--latency",       "--json"};
    args.insert(args.end(), engine.begin(), engine.end());
    const Result r = ddtime(args);
    ASSERT_STATUS(r, "exit 0");
    const Json json = parse_json(r.err);
    const Json& run = json["runs"][0];
    const Json& mix = run["mix"];
    const Blocks blocks = classify(read_file("target"));
    const std::string label = engine.empty() ? std::string("sync") : engine.front();
    EXPECT_EQ(blocks.other, 0) << label;
    EXPECT_EQ(blocks.stamped, mix["writes"]["ios"].integer()) << label;
    EXPECT_EQ(blocks.untouched, mix["reads"]["ios"].integer()) << label;
    EXPECT_EQ(mix["reads"]["bytes"].integer() + mix["writes"]["bytes"].integer(),
              static_cast<std::int64_t>(kBlocks * kBlock));
    EXPECT_EQ(mix["read_percent"].integer(), 60);
    // Each side's latency is of the I/Os that reached the target.
    EXPECT_EQ(run["latency"]["read"]["count"].integer(), mix["reads"]["ios"].integer()) << label;
    EXPECT_EQ(run["latency"]["write"]["count"].integer(), mix["writes"]["ios"].integer()) << label;
    // 1024 draws at 60%: 5 standard deviations either way.
    EXPECT_NEAR(mix["read_share_percent"].number(), 60.0, 8.0) << label;
  }
}

TEST_F(Mix, TheReportSaysEachSideAndGnusSummaryStaysLast) {
  write_file("target", std::string(256 * kBlock, 'x'));
  const Result r = ddtime({"--mix=70", "of=target", "bs=4k", "--force"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ddtime: mix: 70% reads asked, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" IOPS; writes "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("; together "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("measured: reading 'target'"), std::string::npos) << "the target is read, not /dev/zero\n"
                                                                         << r.err;
  EXPECT_NE(r.err.find("256+0 records in\n256+0 records out\n"), std::string::npos) << r.err;
  EXPECT_EQ(read_file("target").size(), 256 * kBlock) << "never truncated, never grown";
}

TEST_F(Mix, TheTimelineSaysEachSideAndItsSamplesEndAtTheRunsCounts) {
  write_file("target", std::string(1024 * kBlock, '\0'));
  const Result r = ddtime({"--mix=70", "of=target", "bs=4k", "--time=0.2s", "--timeline=20ms", "--force", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json json = parse_json(r.err);
  const Json& run = json["runs"][0];
  const Json& samples = run["timeline"]["samples"];
  ASSERT_GT(samples.size(), 2u);
  const Json& last = samples[samples.size() - 1];
  EXPECT_EQ(last["read_bytes"].integer(), run["mix"]["reads"]["bytes"].integer());
  EXPECT_EQ(last["read_records"].integer(), run["mix"]["reads"]["ios"].integer());
  EXPECT_EQ(last["bytes"].integer() - last["read_bytes"].integer(), run["mix"]["writes"]["bytes"].integer());
  EXPECT_TRUE(samples[0]["read_bytes_per_second"].is_number());
  const Result text = ddtime({"--mix=70", "of=target", "bs=4k", "--time=0.2s", "--timeline=20ms", "--force"});
  ASSERT_STATUS(text, "exit 0");
  EXPECT_NE(text.err.find("ddtime: mix per interval: reads min "), std::string::npos) << text.err;
}

// The CSV's sides are the JSON's: a line per run with each side's I/Os and
// bytes, and with --timeline each side's rate per interval, whose bytes
// add up to the run's.
TEST_F(Mix, TheCsvGivesEachSideAsTheJsonDoes) {
  write_file("target", std::string(256 * kBlock, '\0'));
  const Result r = ddtime({"--mix=70", "of=target", "bs=4k", "--repeat=2", "--force", "--csv=runs.csv", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json json = parse_json(r.err);
  std::istringstream lines(read_file("runs.csv"));
  std::string line;
  std::getline(lines, line);
  ASSERT_TRUE(line.ends_with(",exit_status,read_percent,read_ios,read_bytes,write_ios,write_bytes")) << line;
  for (std::size_t run = 0; run < 2; ++run) {
    ASSERT_TRUE(std::getline(lines, line));
    const Json& mix = json["runs"][run]["mix"];
    const std::string sides =
        fmt::format(",70,{},{},{},{}", mix["reads"]["ios"].integer(), mix["reads"]["bytes"].integer(),
                    mix["writes"]["ios"].integer(), mix["writes"]["bytes"].integer());
    EXPECT_TRUE(line.ends_with(sides)) << line << " should end " << sides;
  }
  const Result timed =
      ddtime({"--mix=70", "of=target", "bs=4k", "--time=0.2s", "--timeline=20ms", "--force", "--csv=samples.csv"});
  ASSERT_STATUS(timed, "exit 0");
  std::istringstream samples(read_file("samples.csv"));
  std::getline(samples, line);
  ASSERT_TRUE(line.ends_with(",read_bytes_per_second,write_bytes_per_second")) << line;
  double read = 0;
  double written = 0;
  double moved = 0;
  int count = 0;
  while (std::getline(samples, line)) {
    // interval_s is field 9, interval_bytes 10; the sides are the last two.
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, ',');) fields.push_back(field);
    ASSERT_EQ(fields.size(), 21u) << line;
    const double seconds = std::stod(fields[9]);
    read += std::stod(fields[19]) * seconds;
    written += std::stod(fields[20]) * seconds;
    moved += std::stod(fields[10]);
    ++count;
  }
  ASSERT_GT(count, 2);
  EXPECT_NEAR(read + written, moved, moved * 1e-6) << "each interval's sides add up to what it moved";
  EXPECT_GT(read, written) << "70% reads";
}

TEST_F(Mix, TheRampsIOsAreLeftOutOfEachSideAsOfTheSummary) {
  write_file("target", std::string(1024 * kBlock, '\0'));
  for (const char* depth : {"--iodepth=1", "--iodepth=8"}) {
    const Result r =
        ddtime({"--mix=70", "of=target", "bs=4k", "--time=0.2s", "--ramp=0.05s", depth, "--force", "--json"});
    ASSERT_STATUS(r, "exit 0");
    const Json json = parse_json(r.err);
    const Json& run = json["runs"][0];
    EXPECT_EQ(run["mix"]["total"]["ios"].integer(),
              run["records_in"]["full"].integer() + run["records_in"]["partial"].integer())
        << depth;
    EXPECT_EQ(run["mix"]["total"]["bytes"].integer(), run["bytes_in"].integer()) << depth;
  }
}

TEST_F(Mix, SeekMovesTheReadsAndTheWritesAlike) {
  write_file("target", std::string(64 * kBlock, '\0'));
  const Result r = ddtime({"--mix=50", "--pattern=stamp", "of=target", "bs=4k", "seek=16", "count=32", "--force"});
  ASSERT_STATUS(r, "exit 0");
  const std::string bytes = read_file("target");
  EXPECT_EQ(bytes.substr(0, 16 * kBlock), std::string(16 * kBlock, '\0')) << "before seek=";
  EXPECT_EQ(bytes.substr(48 * kBlock), std::string(16 * kBlock, '\0')) << "past the range";
  EXPECT_EQ(classify(bytes).other, 0);
}

TEST_F(Mix, TheRangeIsWholeBlocksAndAPartialLastOneIsLeftAsItWas) {
  write_file("target", std::string(4 * kBlock, '\0'));
  const Result r = ddtime({"--mix=0", "--pattern=stamp", "of=target", "bs=4k", "--size=10000", "--force"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("2+0 records in\n2+0 records out\n8192 bytes"), std::string::npos) << r.err;
  const std::string bytes = read_file("target");
  EXPECT_EQ(classify(bytes.substr(0, 2 * kBlock)).stamped, 2) << "--mix=0: every I/O a write";
  EXPECT_EQ(bytes.substr(2 * kBlock), std::string(2 * kBlock, '\0'));
}

TEST_F(Mix, WhatCannotBeMixedIsRefusedBeforeAnythingIsWritten) {
  const std::string held(8 * kBlock, 'h');
  write_file("target", held);
  write_file("empty", "");
  struct Refused {
    std::vector<std::string> args;
    std::string words;
  };
  const std::vector<Refused> cases = {
      {{"--mix=70", "if=target", "of=target", "--force"},
       "--mix reads and writes of= itself: it does not combine with if="},
      {{"--mix=70"}, "--mix reads and writes the file or device named by of=: name it"},
      {{"--mix=70", "of=target", "skip=1", "--force"}, "it does not combine with skip="},
      {{"--mix=70", "of=target", "--readback", "--force"}, "it does not combine with --readback"},
      {{"--mix=70", "of=target", "ibs=1k", "obs=4k", "--force"}, "whole blocks of bs="},
      {{"--mix=70", "of=target", "oflag=append", "conv=notrunc", "--force"}, "it does not combine with oflag=append"},
      {{"--mix=70", "of=target", "bs=4k"}, "holds 32768 bytes (33 kB); --mix would overwrite them"},
      {{"--mix=70", "of=target", "bs=4k", "count=9", "--force"}, "past its end at 32768"},
      {{"--mix=70", "of=target", "bs=4k", "--size=100", "--force"}, "the range (100 bytes) holds none"},
      {{"--mix=70", "of=empty", "bs=4k", "--force"}, "holds nothing to read"},
      {{"--mix=70", "of=absent", "bs=4k", "--force"}, "holds nothing to read"},
      {{"--mix=70", "of=target", "bs=4k", "--time=1s", "--ramp=0.1s", "--jobs=2", "--force"},
       "with --ramp it does not combine with --jobs"},
      {{"--mix=101", "of=target", "--force"}, "Valid arguments are: 0 to 100"},
      {{"--mix=7x", "of=target", "--force"}, "Valid arguments are: 0 to 100"},
  };
  for (const Refused& refused : cases) {
    const Result r = ddtime(refused.args);
    ASSERT_STATUS(r, "exit 1");
    EXPECT_NE(r.err.find(refused.words), std::string::npos) << r.err;
    EXPECT_EQ(read_file("target"), held);
  }
  EXPECT_FALSE(std::filesystem::exists(path("absent")));
}

// The block layer's own counts, on a direct-I/O loop device of 512-byte
// sectors: 131,072 I/Os of one sector each.
class MixOnLoop : public LoopDevice {
 protected:
  MixOnLoop() : LoopDevice(512, 64 * 1048576, true) {}

  // /sys/block/X/stat: sectors read (field 3) and written (field 7).
  std::pair<std::int64_t, std::int64_t> sectors() const {
    const std::string name = device_.substr(device_.rfind('/') + 1);
    std::istringstream fields(shell("cat /sys/block/" + name + "/stat").output);
    std::int64_t f[7] = {0, 0, -1, 0, 0, 0, -1};
    for (std::int64_t& field : f) fields >> field;
    return {f[2], f[6]};
  }
};

TEST_F(MixOnLoop, TheBlockLayerCountsEachSidesBytesAndTheRatioHoldsOverAHundredThousandIOs) {
  SKIP_IF_ANOTHER_DD();
  shell("udevadm settle 2>/dev/null");  // the probes a new device draws are over
  for (const char* depth : {"--iodepth=1", "--iodepth=16"}) {
    const auto [read_before, written_before] = sectors();
    ASSERT_GE(read_before, 0) << "no /sys/block stat for " << device_;
    Options options =
        opts({"--mix=70", "of=" + device_, "bs=512", "oflag=direct", "--random", depth, "--force", "--json"});
    options.as_ddtime = true;
    options.timeout = 120s;
    const Result r = run(std::move(options));
    ASSERT_STATUS(r, "exit 0");
    const Json json = parse_json(r.err);
    const Json& mix = json["runs"][0]["mix"];
    const auto [read_after, written_after] = sectors();
    EXPECT_EQ((read_after - read_before) * 512, mix["reads"]["bytes"].integer()) << depth;
    EXPECT_EQ((written_after - written_before) * 512, mix["writes"]["bytes"].integer()) << depth;
    EXPECT_EQ(mix["total"]["ios"].integer(), 131072) << depth;
    EXPECT_NEAR(mix["read_share_percent"].number(), 70.0, 1.0) << depth;
  }
}

// A bs= sweep of a mixed run: each row moves whole blocks of its own
// size (a partial last block is left out, as of a single run's range).
TEST_F(Mix, EachRowOfABlockSizeSweepMovesWholeBlocksOfItsOwnSize) {
  write_file("target", std::string(4200136, 'h'));
  const Result r =
      ddtime({"--mix=70", "of=target", "bs=4096", "--sweep=bs=256,1024,4096", "--size=1000000", "--force", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  ASSERT_EQ(doc["runs"].size(), 3u);
  for (std::size_t i = 0; i < doc["runs"].size(); ++i) {
    const Json& run = doc["runs"][i];
    const std::int64_t bs = run["bs"].integer();
    EXPECT_EQ(run["records_in"]["partial"].integer(), 0) << bs;
    EXPECT_EQ(run["bytes_in"].integer(), 1000000 / bs * bs) << bs;
  }
}

}  // namespace
}  // namespace ddtime::e2e
