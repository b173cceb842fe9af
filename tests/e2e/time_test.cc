// SPDX-License-Identifier: GPL-3.0-or-later
// --time and --ramp: a run lasts its time, going round its range in turn
// or in a new random order each pass, with GNU's summary counting every
// record it moved and of= holding the range's blocks as a copy leaves
// them, at every engine and depth; a ramp's records are left out and said;
// what cannot go round, or would fill a file, is refused before anything
// is written.

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "e2e/copy_cases.h"
#include "e2e/harness.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

class TimedRuns : public CopyCaseTest {
 protected:
  void SetUp() override {
    CopyCaseTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }
};

// The records lines and the bytes line of GNU's summary.
struct Summary {
  long long full_in = -1, partial_in = -1, full_out = -1, partial_out = -1, bytes = -1;
};
Summary summary_of(const std::string& err) {
  Summary s;
  std::smatch m;
  if (std::regex_search(err, m, std::regex(R"((\d+)\+(\d+) records in\n(\d+)\+(\d+) records out\n(\d+) bytes)"))) {
    s.full_in = std::stoll(m[1]);
    s.partial_in = std::stoll(m[2]);
    s.full_out = std::stoll(m[3]);
    s.partial_out = std::stoll(m[4]);
    s.bytes = std::stoll(m[5]);
  }
  return s;
}

TEST_F(TimedRuns, AnEndlessCopyLastsItsTimeAndGnusSummaryCountsEveryRecord) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=64k", "--time=300ms"});
  ASSERT_STATUS(r, "exit 0");
  const Summary s = summary_of(r.err);
  EXPECT_GT(s.full_in, 10) << r.err;
  EXPECT_EQ(s.full_in, s.full_out);
  EXPECT_EQ(s.partial_in, 0);
  EXPECT_EQ(s.bytes, s.full_out * 65536);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m,
                                std::regex(R"(timed: (\d+\.\d+) s of --time=300ms, one pass over an )"
                                           R"(endless range; ended by the time limit\n)")))
      << r.err;
  EXPECT_GE(std::stod(m[1]), 0.300);
  EXPECT_LT(std::stod(m[1]), 0.400);
}

TEST_F(TimedRuns, GoesRoundTheRangeAndLeavesItsBlocksInOfAtEveryEngineAndDepth) {
  // count=10 draws the range: ten blocks, gone over again and again.
  const std::string range = input_.substr(0, 10 * 4096);
  for (const char* order : {"--time=150ms", "--random=5"}) {
    for (const char* engine : {"--engine=io_uring", "--engine=threads", "--engine=sync"}) {
      for (const char* depth : {"--iodepth=1", "--iodepth=8"}) {
        if (std::string(engine) == "--engine=sync" && std::string(depth) != "--iodepth=1") continue;
        SCOPED_TRACE(std::string(order) + " " + engine + " " + depth);
        ::unlink((dir() / "out").c_str());
        std::vector<std::string> args{"if=in", "of=out", "bs=4096", "count=10", "--time=150ms", engine, depth};
        if (std::string(order) != "--time=150ms") args.push_back(order);
        const Result r = ddtime(args);
        ASSERT_STATUS(r, "exit 0");
        const Summary s = summary_of(r.err);
        EXPECT_GT(s.full_in, 20) << "more than two passes in 150 ms: " << r.err;
        EXPECT_EQ(s.full_out, s.full_in);
        EXPECT_EQ(s.partial_in, 0);
        EXPECT_EQ(s.bytes, s.full_out * 4096);
        EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(passes over 10 blocks of 4096 B \(40 KiB\))"))) << r.err;
        EXPECT_TRUE(read_file("out") == range) << "of= holds the range's blocks as the copy leaves them";
      }
    }
  }
}

TEST_F(TimedRuns, ADirectOutputReservedAheadEndsWithTheRangesWholeBlocks) {
  // The queued engine reserves an O_DIRECT output's extent first; a timed
  // run's range is its whole blocks, so the partial one is neither
  // reserved nor left behind as zeros.
  const std::size_t whole = kCopyFileSize / 4096 * 4096;
  for (const char* order : {"--iodepth=8", "--random"}) {
    SCOPED_TRACE(order);
    ::unlink((dir() / "out").c_str());
    const Result r = ddtime({"if=in", "of=out", "bs=4096", "oflag=direct", "--iodepth=8", "--time=150ms", order});
    ASSERT_STATUS(r, "exit 0");
    const std::string out = read_file("out");
    EXPECT_LE(out.size(), whole);
    EXPECT_TRUE(out == input_.substr(0, out.size()) || std::string(order) == "--random") << out.size();
    if (summary_of(r.err).full_out >= static_cast<long long>(whole / 4096)) {
      EXPECT_TRUE(out == input_.substr(0, whole)) << "a whole pass leaves the range's blocks";
    }
  }
}

TEST_F(TimedRuns, AnAutoSweepStopsDoublingBeforeABlockOutgrowsTheTimedRange) {
  // count= is larger than the file, whose 20000 bytes hold whole blocks up
  // to 16k: a 32k row would have none to go round and would copy the range
  // once, untimed, partial block and all.
  write_file("small", input_.substr(0, 20000));
  const Result r = ddtime({"if=small", "of=out", "bs=4096", "count=1M", "iflag=count_bytes", "oflag=direct",
                           "--sweep=bs=auto", "--time=30ms", "--json=report.json"});
  ASSERT_STATUS(r, "exit 0");
  const Json report = parse_json(read_file("report.json"));
  ASSERT_GT(report["runs"].size(), 0U) << r.err;
  for (std::size_t i = 0; i < report["runs"].size(); ++i) {
    const Json& run = report["runs"][i];
    SCOPED_TRACE(run["bs"].integer());
    EXPECT_LE(run["bs"].integer(), 16384);
    EXPECT_EQ(run["time"]["ended_by"].string(), "time");
  }
  const std::string out = read_file("out");
  EXPECT_EQ(out.size() % 4096, 0U) << "of= holds whole blocks only: " << out.size();
  EXPECT_TRUE(out == input_.substr(0, out.size()));
}

TEST_F(TimedRuns, ARandomStampWrittenForATimeHoldsEverySectorsOwnOffset) {
  // Written at random for a time, pass after pass: every block landed
  // where it belongs, each sector stamped with its own offset.
  for (const char* engine : {"--iodepth=8", "--engine=sync"}) {
    SCOPED_TRACE(engine);
    ::unlink((dir() / "out").c_str());
    const Result timed =
        ddtime({"of=out", "bs=4096", "--size=1M", "--pattern=stamp", "--random", "--time=200ms", engine});
    ASSERT_STATUS(timed, "exit 0");
    const std::string out = read_file("out");
    ASSERT_EQ(out.size(), 1048576u);
    for (std::size_t sector = 0; sector < out.size(); sector += 512) {
      std::uint64_t stamp = 0;
      for (int i = 7; i >= 0; --i)
        stamp = stamp << 8 | static_cast<unsigned char>(out[sector + static_cast<std::size_t>(i)]);
      ASSERT_EQ(stamp, sector) << "sector at " << sector;
    }
  }
}

TEST_F(TimedRuns, TheRampIsCopiedFirstUnmeasuredAndSaidApart) {
  const Result r = ddtime({"if=in", "of=/dev/null", "bs=4096", "--time=200ms", "--ramp=100ms", "--json=j.json"});
  ASSERT_STATUS(r, "exit 0");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m,
                                std::regex(R"(ramp: 0\.1\d\d s first, unmeasured: (\d+)\+0 records, )"
                                           R"((\d+) B \(in no figure here\)\n)")))
      << r.err;
  const Json json = parse_json(read_file("j.json"));
  const Json& time = json["time"];
  EXPECT_EQ(time["ended_by"].string(), "time");
  EXPECT_EQ(time["ramp"]["records"].integer(), std::stoll(m[1]));
  EXPECT_EQ(time["ramp"]["bytes"].integer(), std::stoll(m[2]));
  EXPECT_EQ(time["range"]["blocks"].integer(), static_cast<std::int64_t>(kCopyFileSize / 4096));
  // The summary and the JSON's counters are the measured part alone.
  const Summary s = summary_of(r.err);
  EXPECT_EQ(json["records_out"]["full"].integer(), s.full_out);
  EXPECT_NEAR(time["passes"].number(), static_cast<double>(s.full_out) / (kCopyFileSize / 4096), 0.001);
}

TEST_F(TimedRuns, WhatCannotGoRoundOrWouldFillAFileIsRefusedBeforeAnythingIsWritten) {
  expect_refused({"if=/dev/zero", "of=new", "bs=4k", "--time=1s"},
                 "--time would write to ‘new’ until the time is up, and nothing bounds the range: give "
                 "--size=BYTES (or count=)");
  expect_refused({"of=new", "bs=4k", "--pattern=random", "--time=1s"}, "nothing bounds the range");
  expect_refused({"if=in", "of=new", "bs=2M", "--time=1s"},
                 "--time goes over its range in whole blocks, and the range (1060921 bytes) holds no block of "
                 "bs=2097152");
  // A bs=auto sweep starts at 4096 (without bs=): 512 bytes hold no block of it.
  write_file("small", input_.substr(0, 512));
  expect_refused({"if=small", "of=new", "--sweep=bs=auto", "--time=100ms"},
                 "--time goes over its range in whole blocks, and the range (512 bytes) holds no block of bs=4096");
  expect_refused({"if=in", "of=new", "--ramp=1s"}, "--ramp precedes a timed run: give --time too");
  expect_refused({"if=in", "of=new", "--steady"}, "--steady ends a timed run early: give --time too");
  expect_refused({"if=in", "of=new", "--time=1s", "--verify"}, "they do not combine");
  expect_refused({"if=in", "of=new", "bs=4k", "--time=1s", "oflag=append"}, "does not combine with oflag=append");
  expect_refused({"if=in", "of=new", "bs=4k", "--time=1s", "conv=ucase"}, "--time goes over the range in bs= blocks");
  expect_refused({"if=in", "of=new", "ibs=4k", "obs=8k", "--time=1s"}, "--time goes over the range in bs= blocks");
  expect_refused({"if=in", "of=new", "--time=0"}, "A duration is a number and a unit");
  expect_refused({"if=in", "of=new", "--time=5x"}, "A duration is a number and a unit");
  ASSERT_EQ(::mkfifo((dir() / "fifo").c_str(), 0600), 0);
  expect_refused({"if=fifo", "of=new", "bs=4k", "count=4", "--time=1s"},
                 "--time goes over its range again from the start, which the input cannot: it is a pipe");
  // Without a range, a pipe into a file is refused for the pipe: --size
  // would not help it (defect A8).
  expect_refused({"if=fifo", "of=new", "bs=4k", "--time=1s"},
                 "--time goes over its range again from the start, which the input cannot: it is a pipe");
}

TEST_F(TimedRuns, AnEndlessPipeRunsForItsTime) {
  Options o = opts({"of=/dev/null", "bs=4096", "--time=200ms"});
  o.in = Stdin::file("/dev/zero");
  o.as_ddtime = true;
  const Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ended by the time limit"), std::string::npos) << r.err;
}

// --ramp and SIGUSR1: a snapshot counts the measured window alone (its
// records over its time), names its phase, and during the ramp says that
// the figures are the ramp's.
class RampSnapshots : public TimedRuns {
 protected:
  // Starts a zero-to-null run, sends SIGUSR1 after `after`, ends it by
  // SIGINT once the snapshot is out, and returns its standard error.
  Result snapshot_after(Millis after, std::vector<std::string> args) {
    args.insert(args.begin(), {"if=/dev/zero", "of=/dev/null", "bs=4096"});
    Options o = opts(args);
    o.as_ddtime = true;
    o.timeout = 20000ms;
    DdProcess p(o);
    EXPECT_TRUE(wait_for_handler(p.pid(), SIGUSR1));
    std::this_thread::sleep_for(after);
    p.send_signal(SIGUSR1);
    EXPECT_TRUE(p.wait_for_stderr([](const std::string& e) {
      return e.find("records out") != std::string::npos || e.find("}\n") != std::string::npos;
    })) << p.stderr_so_far();
    return p.finish();
  }
};

TEST_F(RampSnapshots, ASnapshotAfterTheRampCountsTheMeasuredWindowAlone) {
  // 0.2 s into the measured window after a 0.8 s ramp: counting the ramp's
  // records over the window's time would make the rate about 5 times too high.
  const Result r = snapshot_after(1000ms, {"--ramp=800ms", "--time=1s", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 2u) << r;
  const Json snapshot = parse_json(lines[0]);
  const Json last = parse_json(lines[1]);
  EXPECT_EQ(snapshot["phase"].string(), "measured");
  ASSERT_FALSE(snapshot["time"].is_null()) << lines[0];
  EXPECT_EQ(snapshot["time"]["ended_by"].string(), "running");
  const double snapshot_rate =
      static_cast<double>(snapshot["bytes_out"].integer()) / snapshot["times"]["real"].number();
  const double final_rate = static_cast<double>(last["bytes_out"].integer()) / last["times"]["real"].number();
  EXPECT_LT(snapshot_rate, 2 * final_rate) << lines[0] << "\n" << lines[1];
  EXPECT_LT(snapshot["bytes_out"].integer(), last["bytes_out"].integer());
}

TEST_F(RampSnapshots, ASnapshotDuringTheRampSaysSoInTextAndJson) {
  const Result text = snapshot_after(300ms, {"--ramp=1s", "--time=200ms"});
  ASSERT_STATUS(text, "exit 0");
  const std::size_t first_summary = text.err.find("records in");
  ASSERT_NE(first_summary, std::string::npos) << text;
  const std::string before = text.err.substr(0, first_summary);
  EXPECT_TRUE(std::regex_search(before, std::regex(R"(ddtime: ramp: \d+\.\d{3} s of --ramp=1s so far, unmeasured: )"
                                                   R"(the figures below are the ramp's\n)")))
      << before;
  const Result json = snapshot_after(300ms, {"--ramp=1s", "--time=200ms", "--json"});
  ASSERT_STATUS(json, "exit 0");
  const std::vector<std::string> lines = report_lines(json.err);
  ASSERT_EQ(lines.size(), 2u) << json;
  const Json snapshot = parse_json(lines[0]);
  EXPECT_EQ(snapshot["phase"].string(), "ramp");
  ASSERT_FALSE(snapshot["time"].is_null()) << lines[0];
  EXPECT_EQ(snapshot["time"]["ended_by"].string(), "running");
}

}  // namespace
}  // namespace ddtime::e2e
