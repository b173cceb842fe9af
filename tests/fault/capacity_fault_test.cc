// SPDX-License-Identifier: GPL-3.0-or-later
// --capacity on real block devices: loop devices over faultfs files that
// are honest, or counterfeit (they report 128 MiB and hold 8 MiB: writes
// past it wrap onto the start, or are lost), or fail every write past a
// point. The probe names what each does; --keep leaves the device as it
// was, SIGINT included. --capacity=full writes and reads every block of
// the same devices and names the same verdicts from every block.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "fault/fault_device_test.h"
#include "fault/fault_fs.h"
#include "fault/pattern.h"
#include "support/json.h"

namespace ddtime::fault {
namespace {

using support::Json;
using support::parse_json;

constexpr std::int64_t kMiB = std::int64_t{1} << 20;
constexpr std::int64_t kHeld = 8 * kMiB;
constexpr std::int64_t kClaimed = 128 * kMiB;

class CapacityOnALoopDevice : public FaultDeviceTest {
 protected:
  // The card made by faultfs's control line, attached as a loop device.
  void attach(const std::string& card) { FaultDeviceTest::attach("card", card); }
  // The card's bytes as the loop device reads them.
  std::string card_bytes(std::int64_t length) const {
    std::ifstream file(device_, std::ios::binary);
    std::string bytes(static_cast<std::size_t>(length), '\0');
    file.read(bytes.data(), length);
    return bytes;
  }
  // The device's name as ddtime quotes it in this locale (‘’ in UTF-8).
  std::string quoted(const e2e::Result& r) const {
    return r.err.find("\u2018" + device_ + "\u2019") != std::string::npos ? "\u2018" + device_ + "\u2019"
                                                                          : "'" + device_ + "'";
  }
  // --capacity=full as ddtime: its three passes through FUSE take seconds
  // under a sanitizer on a loaded machine, past the harness's default 5 s.
  e2e::Result full(std::vector<std::string> args) const {
    e2e::Options o = opts(std::move(args));
    o.as_ddtime = true;
    o.timeout = std::chrono::milliseconds(60000);
    return e2e::run(std::move(o));
  }
  // ddtime started on args with the log cleared, once faultfs has seen 5
  // writes (each delayed 20 ms: the probe or pass far from done), SIGINT
  // sent, and its end.
  e2e::Result interrupted_after_five_writes(std::vector<std::string> args) {
    fs_.clear_log();
    e2e::Options o = opts(std::move(args));
    o.as_ddtime = true;
    o.timeout = std::chrono::milliseconds(60000);
    e2e::DdProcess p(o);
    const bool written = e2e::wait_until(
        [&] {
          std::size_t writes = 0;
          for (const std::string& line : fs_.log()) writes += line.find(" write ") != std::string::npos ? 1 : 0;
          return writes >= 5;
        },
        std::chrono::milliseconds(20000));
    EXPECT_TRUE(written) << "faultfs saw fewer than 5 writes";
    p.send_signal(SIGINT);
    return p.finish();
  }
  static std::string pattern_bytes(std::int64_t length) {
    std::string bytes(static_cast<std::size_t>(length), '\0');
    for (std::int64_t i = 0; i < length; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<char>(pattern_byte(i));
    return bytes;
  }
};

TEST_F(CapacityOnALoopDevice, AnHonestDeviceHoldsWhatItReports) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(64 * kMiB) + " fill=zero\n"));
  const e2e::Result r = ddtime({"--capacity", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ddtime: capacity: " + quoted(r) + " holds what it reports, 67 MB: the "), std::string::npos)
      << r.err;
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "holds");
  EXPECT_EQ(doc["capacity"]["reported_bytes"].integer(), 64 * kMiB);
  EXPECT_TRUE(doc["capacity"]["direct"].boolean());
  EXPECT_GT(doc["capacity"]["probes"].size(), 40u) << "the ends, 14 powers of two and random blocks";
}

TEST_F(CapacityOnALoopDevice, ACardThatWrapsIsFoundWithTheOffsetItsWritesLandOn) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(kHeld) + " claims=" + std::to_string(kClaimed) +
                                 " past=wrap fill=zero\n"));
  const e2e::Result r = ddtime({"--capacity", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("ddtime: capacity: real capacity 8.4 MB of the 134 MB " + quoted(r) +
                       " reports: writes from 8.4 MB (8388608 B) on wrap to offset 0\n"),
            std::string::npos)
      << r.err;
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "wraps");
  EXPECT_EQ(doc["capacity"]["real_bytes"].integer(), kHeld);
  EXPECT_EQ(doc["capacity"]["wraps_to"].integer(), 0);
  // Block 0 shares its place with every power of two from 8 MiB on: it
  // reads back the last one written.
  EXPECT_EQ(doc["capacity"]["probes"][0]["outcome"].string(), "wrapped");
}

TEST_F(CapacityOnALoopDevice, ACardThatLosesWritesIsFoundToTheBlock) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(kHeld) + " claims=" + std::to_string(kClaimed) +
                                 " past=drop fill=zero\n"));
  const e2e::Result r = ddtime({"--capacity", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("real capacity 8.4 MB of the 134 MB " + quoted(r) +
                       " reports: writes from 8.4 MB (8388608 B) on are lost (the block there reads back zeros)\n"),
            std::string::npos)
      << r.err;
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "loses");
  EXPECT_EQ(doc["capacity"]["first_bad"]["outcome"].string(), "zeros");
  EXPECT_EQ(doc["capacity"]["real_bytes"].integer(), kHeld) << "halved down to one block";
}

TEST_F(CapacityOnALoopDevice, ADeviceThatFailsWritesPastAPointSaysWhereAndWhy) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(64 * kMiB) +
                                 " fill=zero\nfault card write EIO at=" + std::to_string(20 * kMiB + 4096) +
                                 "- times=always\n"));
  const e2e::Result r = ddtime({"--capacity", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("writes from 21 MB (20975616 B) on fail (Input/output error)\n"), std::string::npos) << r.err;
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "fails");
  EXPECT_EQ(doc["capacity"]["first_bad"]["outcome"].string(), "write_error");
  EXPECT_EQ(doc["capacity"]["first_bad"]["error"].string(), "Input/output error");
}

TEST_F(CapacityOnALoopDevice, KeepWritesEveryProbedBlockBackEvenOnACardThatWraps) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(kHeld) + " claims=" + std::to_string(kClaimed) +
                                 " past=wrap fill=pattern\n"));
  const e2e::Result r = ddtime({"--capacity", "of=" + device_, "--keep", "--force"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("--keep: every probed block written back as it was"), std::string::npos) << r.err;
  EXPECT_TRUE(card_bytes(kHeld) == pattern_bytes(kHeld)) << "the card holds its old bytes again";
}

// --keep reads every probed block before writing any: one it cannot read
// stops the probe with nothing of the card changed.
TEST_F(CapacityOnALoopDevice, KeepStopsBeforeWritingWhenABlockCannotBeSaved) {
  fs_.clear_log();
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(64 * kMiB) +
                                 " fill=pattern\nfault card read EIO at=" + std::to_string(40 * kMiB) +
                                 "- times=always\n"));
  const e2e::Result r = ddtime({"--capacity", "of=" + device_, "--keep", "--force", "--json=c.json"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("ddtime: --capacity --keep: cannot save the block of " + quoted(r) + " at offset "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(", so the probe stopped before writing it: Input/output error\n"), std::string::npos) << r.err;
  EXPECT_FALSE(parse_json(read_file("c.json"))["complete"].boolean());
  // What can still be read (below the failing part) is as it was.
  EXPECT_TRUE(card_bytes(32 * kMiB) == pattern_bytes(32 * kMiB)) << "nothing was written";
  for (const std::string& line : fs_.log()) EXPECT_EQ(line.find(" write "), std::string::npos) << line;
}

TEST_F(CapacityOnALoopDevice, ASigintWithKeepWritesTheSavedBlocksBackBeforeTheSignalEndsIt) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(64 * kMiB) +
                                 " fill=pattern\nfault card write delay=20 times=always\n"));
  const e2e::Result r = interrupted_after_five_writes({"--capacity", "of=" + device_, "--keep", "--force"});
  EXPECT_STATUS(r, "signal SIGINT");
  EXPECT_TRUE(card_bytes(64 * kMiB) == pattern_bytes(64 * kMiB)) << "the blocks it stamped are as they were";
}

// The blocks of each outcome =full's extents hold.
std::map<std::string, std::int64_t> blocks_by_outcome(const Json& extents) {
  std::map<std::string, std::int64_t> blocks;
  for (std::size_t i = 0; i < extents.size(); ++i)
    blocks[extents[i]["outcome"].string()] += extents[i]["blocks"].integer();
  return blocks;
}

TEST_F(CapacityOnALoopDevice, FullWritesAndReadsEveryBlockOfAnHonestDeviceWithBothPassesTimelinesAndChart) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(64 * kMiB) + " fill=zero\n"));
  const e2e::Result r = full({"--capacity=full", "of=" + device_, "--json=c.json", "--svg=c.svg"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ddtime: capacity: " + quoted(r) +
                       " holds what it reports, 67 MB: the 64 blocks written read back as written\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("ddtime: capacity: 64 blocks of 1048576 B from offset 0 written, read back and compared (64 "
                       "MiB compared in "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("read with O_DIRECT): 64 good\n"), std::string::npos) << r.err;
  const Json doc = parse_json(read_file("c.json"));
  const Json& capacity = doc["capacity"];
  EXPECT_EQ(capacity["mode"].string(), "full");
  EXPECT_EQ(capacity["verdict"].string(), "holds");
  EXPECT_TRUE(capacity["probes"].is_null());
  ASSERT_EQ(capacity["extents"].size(), 1u);
  EXPECT_EQ(capacity["extents"][0]["blocks"].integer(), 64);
  EXPECT_EQ(capacity["scanned_bytes"].integer(), 64 * kMiB);
  ASSERT_EQ(capacity["passes"].size(), 2u);
  EXPECT_EQ(capacity["passes"][0]["pass"].string(), "write");
  EXPECT_EQ(capacity["passes"][1]["pass"].string(), "read");
  EXPECT_EQ(capacity["passes"][0]["bytes_out"].integer(), 64 * kMiB);
  EXPECT_EQ(capacity["passes"][1]["bytes_in"].integer(), 64 * kMiB);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_GT(capacity["passes"][i]["timeline"]["samples"].size(), 0u) << i;
  const std::string svg = read_file("c.svg");
  EXPECT_NE(svg.find("<svg xmlns="), std::string::npos) << svg.substr(0, 80);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

// Filled whole, a card that wraps keeps only the last round of its real
// size: every earlier round reads back the stamps of the blocks written
// over it, and the distance between them is the real size.
TEST_F(CapacityOnALoopDevice, FullFindsACardThatWrapsFromEveryEarlierRoundHoldingTheLastOnesStamps) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(kHeld) + " claims=" + std::to_string(kClaimed) +
                                 " past=wrap fill=zero\n"));
  const e2e::Result r = full({"--capacity=full", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("ddtime: capacity: real capacity 8.4 MB of the 134 MB " + quoted(r) +
                       " reports: writes from 8.4 MB (8388608 B) on wrap to offset 0\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("): 8 good, 120 holding another block's stamp\n"), std::string::npos) << r.err;
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "wraps");
  EXPECT_EQ(doc["capacity"]["real_bytes"].integer(), kHeld);
  const Json& extents = doc["capacity"]["extents"];
  EXPECT_EQ(extents.size(), 16u) << "15 earlier rounds and the last";
  EXPECT_EQ(extents[0]["holds"].integer(), kClaimed - kHeld) << "block 0 holds the last round's first stamp";
}

TEST_F(CapacityOnALoopDevice, FullFindsEveryLostBlockOfACardThatLosesWrites) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(kHeld) + " claims=" + std::to_string(kClaimed) +
                                 " past=drop fill=zero\n"));
  const e2e::Result r = full({"--capacity=full", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find(" reports: writes from 8.4 MB (8388608 B) on are lost (the block there reads back zeros)\n"),
            std::string::npos)
      << r.err;
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "loses");
  EXPECT_EQ(blocks_by_outcome(doc["capacity"]["extents"]),
            (std::map<std::string, std::int64_t>{{"good", 8}, {"zeros", 120}}));
}

// The write pass stops at the first write that fails, as dd does, and
// says so; the blocks before it are compared, and the verdict names the
// block and the error.
TEST_F(CapacityOnALoopDevice, FullStopsWritingWhereWritesFailAndNamesTheBlockAndTheError) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(64 * kMiB) +
                                 " fill=zero\nfault card write EIO at=" + std::to_string(20 * kMiB + 4096) +
                                 "- times=always\n"));
  const e2e::Result r = full({"--capacity=full", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "exit 1");
  // dd's words, and its quoting of a file name in an error.
  EXPECT_NE(r.err.find("ddtime: error writing '" + device_ + "': Input/output error\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("writes from 21 MB (20971520 B) on fail (Input/output error)\n"), std::string::npos) << r.err;
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "fails");
  EXPECT_EQ(doc["capacity"]["first_bad"]["outcome"].string(), "write_error");
  EXPECT_EQ(doc["capacity"]["first_bad"]["error"].string(), "Input/output error");
  EXPECT_EQ(blocks_by_outcome(doc["capacity"]["extents"]),
            (std::map<std::string, std::int64_t>{{"good", 20}, {"write_error", 1}}));
}

// A device whose reads fail past a point: the read pass stops there, and
// the scan goes on past every unreadable block.
TEST_F(CapacityOnALoopDevice, FullReadsPastUnreadableBlocksAndCountsThem) {
  ASSERT_NO_FATAL_FAILURE(attach("file card size=" + std::to_string(64 * kMiB) + " fill=zero\nfault card read EIO at=" +
                                 std::to_string(40 * kMiB) + "-" + std::to_string(48 * kMiB) + " times=always\n"));
  const e2e::Result r = full({"--capacity=full", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("ddtime: error reading '" + device_ + "': Input/output error\n"), std::string::npos) << r.err;
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "fails");
  EXPECT_EQ(doc["capacity"]["first_bad"]["outcome"].string(), "read_error");
  EXPECT_EQ(doc["capacity"]["good_past_first_bad"].integer(), 16) << "bad blocks, not a smaller device";
  EXPECT_EQ(blocks_by_outcome(doc["capacity"]["extents"]),
            (std::map<std::string, std::int64_t>{{"good", 56}, {"read_error", 8}}));
}

TEST_F(CapacityOnALoopDevice, FullStoppedByASigintSaysWhatItMeasuredAndEndsByTheSignal) {
  ASSERT_NO_FATAL_FAILURE(
      attach("file card size=" + std::to_string(64 * kMiB) + " fill=zero\nfault card write delay=20 times=always\n"));
  const e2e::Result r = interrupted_after_five_writes({"--capacity=full", "of=" + device_, "--json=c.json"});
  EXPECT_STATUS(r, "signal SIGINT");
  const Json doc = parse_json(read_file("c.json"));
  EXPECT_FALSE(doc["complete"].boolean());
  EXPECT_TRUE(doc["capacity"]["verdict"].is_null());
  EXPECT_EQ(doc["signal"].string(), "SIGINT");
  ASSERT_EQ(doc["capacity"]["passes"].size(), 1u) << "the write pass, cut short";
}

}  // namespace
}  // namespace ddtime::fault
