// SPDX-License-Identifier: GPL-3.0-or-later
// --profile=NAME: a disk characterised in one command. With if= the read
// tests of the preset, with of= the range prepared, then the read and the
// write tests; one table with every parameter in its footer, JSON that
// --compare reads, a CSV line per test and side; what a profile sets
// itself refused by name; a device in use refused unless --force; a
// SIGINT prints the tests done, then kills. Every run is tiny: 4-8 MiB,
// 30-50 ms.
#include <signal.h>
#include <sys/stat.h>

#include <array>
#include <chrono>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

// What every test here runs with: small, fast, no pause.
const std::vector<std::string> kQuick = {"--size=4M", "--time=20ms", "--repeat=2", "--warmup=0", "--pause=0"};

std::vector<std::string> with_quick(std::vector<std::string> args) {
  args.insert(args.end(), kQuick.begin(), kQuick.end());
  return args;
}

class Profile : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
    write_file("in", pattern(8 << 20, 3));
  }
};

// ddtime's own lines never use GNU's words, which scripts grep for.
void expect_no_gnu_words(const std::string& err) {
  for (const char* word : {"bytes", "copied", "records in", "records out"}) {
    EXPECT_EQ(err.find(word), std::string::npos) << word << " in:\n" << err;
  }
}

TEST_F(Profile, IfAloneRunsTheReadTestsAndPrintsOneTableWithItsFooter) {
  const Result r = ddtime(with_quick({"--profile=diskmark", "if=in", "--json=p.json"}));
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("diskmark: in (bars: log scale, 1 MB/s to 1 TB/s)\n"), std::string::npos) << r.err;
  for (const char* test : {"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"}) {
    EXPECT_TRUE(std::regex_search(r.err, std::regex(std::string("\n") + test + R"( +[0-9.]+ \([0-9.]+\) +\d+ )")))
        << test << " in:\n"
        << r.err;
  }
  EXPECT_EQ(r.err.find("write MB/s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("profile: diskmark; range: 4 MiB of in from offset 0\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("each test: 0 warm-up runs (unmeasured), then 2 runs of 20 ms; pause between tests: none\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("cache: uncached: O_DIRECT"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("MB/s = 1,000,000 B/s: median of 2 runs"), std::string::npos) << r.err;
  expect_no_gnu_words(r.err);
  const Json doc = parse_json(read_file("p.json"));
  EXPECT_TRUE(doc["complete"].boolean());
  EXPECT_EQ(doc["exit_status"].integer(), 0);
  EXPECT_EQ(doc["profile"]["name"].string(), "diskmark");
  EXPECT_EQ(doc["profile"]["size"].integer(), 4 << 20);
  EXPECT_TRUE(doc["profile"]["direct"].boolean());
  EXPECT_TRUE(doc["profile"]["pattern"].is_null());
  ASSERT_EQ(doc["rows"].size(), 4u);
  const Json& q32 = doc["rows"][2];
  EXPECT_EQ(q32["test"].string(), "RND4K Q32T1");
  EXPECT_EQ(q32["side"].string(), "read");
  EXPECT_EQ(q32["bs"].integer(), 4096);
  EXPECT_EQ(q32["iodepth"].integer(), 32);
  EXPECT_TRUE(q32["random"].boolean());
  EXPECT_EQ(q32["runs"].size(), 2u);
  EXPECT_GT(q32["median_bytes_per_second"].number(), 0);
  EXPECT_NEAR(q32["iops"].number(), q32["median_bytes_per_second"].number() / 4096, 1);
  EXPECT_GT(q32["latency"]["mean_s"].number(), 0);
  EXPECT_TRUE(q32["ci95"].is_null()) << "two runs hold no interval";
  // B19: an if= profile writes nothing: no output file; each run its engine, time and bytes.
  EXPECT_TRUE(doc["environment"]["files"]["output"].is_null());
  EXPECT_FALSE(q32["runs"][0]["engine"].string().empty());
  EXPECT_GT(q32["runs"][0]["real_s"].number(), 0);
  EXPECT_GT(q32["runs"][0]["bytes"].integer(), 0);
}

TEST_F(Profile, OfPreparesTheRangeThenReadsAndWritesIt) {
  const Result r = ddtime(with_quick({"--profile=nvme", "of=disk.img", "--json=p.json", "--csv=p.csv"}));
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("write MB/s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the range written once first in 1 MiB blocks, unmeasured"), std::string::npos) << r.err;
  expect_no_gnu_words(r.err);
  const std::string written = read_file("disk.img");
  ASSERT_EQ(written.size(), 4u << 20);
  EXPECT_NE(written, std::string(4 << 20, '\0')) << "random data, not zeros";
  const Json doc = parse_json(read_file("p.json"));
  ASSERT_EQ(doc["rows"].size(), 8u);
  EXPECT_EQ(doc["rows"][0]["side"].string(), "read");
  EXPECT_EQ(doc["rows"][4]["side"].string(), "write");
  EXPECT_EQ(doc["rows"][4]["test"].string(), "SEQ1M Q8T1");
  const Json& t16 = doc["rows"][6];
  EXPECT_EQ(t16["test"].string(), "RND4K Q32T16");
  EXPECT_EQ(t16["jobs"].integer(), 16);
  // Every job's I/Os timed: a p99, and a mean that Little's law bounds.
  // No more than Q x T I/Os are ever in flight, so a run's mean is at most
  // Q x T times its time per I/O (bs / rate); the row's mean is the mean of
  // the runs' means, so it is bounded by the mean of their times per I/O.
  // (Not by the median rate: two runs whose rates differ 19 times under a
  // loaded sanitizer build give mean x IOPS five times Q x T.)
  EXPECT_GT(t16["latency"]["p99_s"].number(), 0);
  EXPECT_GT(t16["latency"]["mean_s"].number(), 0);
  double time_per_io = 0;
  int measured = 0;
  for (std::size_t i = 0; i < t16["runs"].size(); ++i) {
    const Json& run = t16["runs"][i];
    if (run["warmup"].boolean() || !run["counted"].boolean()) continue;
    time_per_io += 4096 / run["bytes_per_second"].number();
    ++measured;
  }
  ASSERT_GT(measured, 0);
  EXPECT_LE(t16["latency"]["mean_s"].number(), 32 * 16 * 1.5 * time_per_io / measured);
  EXPECT_EQ(doc["profile"]["pattern"].string(), "random");
  EXPECT_GT(doc["target"]["prepared_s"].number(), 0);
  const std::vector<std::string> csv = lines_of(read_file("p.csv"));
  ASSERT_EQ(csv.size(), 9u);
  EXPECT_TRUE(csv[0].starts_with("test,side,bs,iodepth,jobs,random,median_bytes_per_second")) << csv[0];
  EXPECT_TRUE(csv[8].starts_with("RND4K Q1T1,write,4096,1,1,true,")) << csv[8];
}

// --mix: CrystalDiskMark's Mix setting. Every test gets a mix row after
// the writes, over the range just written, and the table a Mix column;
// each side's rate adds up to the row's and holds the ratio asked.
TEST_F(Profile, MixAddsAMixColumnWhoseSidesHoldTheRatio) {
  const Result r =
      ddtime(with_quick({"--profile=diskmark", "of=disk.img", "--mix=70", "--json=p.json", "--csv=p.csv"}));
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("mix MB/s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("mix: each I/O a read with probability 70%, else a write (--mix=70)"), std::string::npos)
      << r.err;
  expect_no_gnu_words(r.err);
  EXPECT_EQ(read_file("disk.img").size(), 4u << 20) << "the mixes stay inside the range";
  const Json doc = parse_json(read_file("p.json"));
  EXPECT_EQ(doc["profile"]["mix_percent"].integer(), 70);
  ASSERT_EQ(doc["rows"].size(), 12u);
  for (std::size_t i = 8; i < 12; ++i) {
    const Json& row = doc["rows"][i];
    EXPECT_EQ(row["side"].string(), "mix");
    EXPECT_EQ(row["test"].string(), doc["rows"][i - 8]["test"].string()) << "the tests in the same order";
    const double reads = row["mix"]["reads"]["median_bytes_per_second"].number();
    const double writes = row["mix"]["writes"]["median_bytes_per_second"].number();
    // Thousands of I/Os a run even at 1 MiB blocks over 4 MiB: the ratio
    // is loose here; MixOnLoop holds it to a point over 100,000 I/Os.
    EXPECT_GT(reads / (reads + writes), 0.5) << row["test"].string();
    EXPECT_LT(reads / (reads + writes), 0.9) << row["test"].string();
    // A p99 needs 100 I/Os of the side, which 20 ms of 1 MiB blocks may
    // not hold; a mean needs one.
    EXPECT_GT(row["mix"]["writes"]["mean_s"].number(), 0);
    if (!row["mix"]["writes"]["p99_s"].is_null()) EXPECT_GT(row["mix"]["writes"]["p99_s"].number(), 0);
    EXPECT_TRUE(row["latency"]["p99_s"].is_null());
  }
  const std::vector<std::string> csv = lines_of(read_file("p.csv"));
  ASSERT_EQ(csv.size(), 13u);
  EXPECT_TRUE(csv[12].starts_with("RND4K Q1T1,mix,4096,1,1,true,")) << csv[12];
}

TEST_F(Profile, MixNeedsOfAndTakesNoPatternButRandom) {
  Result r = ddtime(with_quick({"--profile=diskmark", "if=in", "--mix=70"}));
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("--mix reads and writes of= itself: it does not combine with if="), std::string::npos) << r.err;
  r = ddtime(with_quick({"--profile=diskmark", "of=disk.img", "--mix=70", "--pattern=stamp"}));
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("--profile=diskmark sets --pattern itself for each test"), std::string::npos) << r.err;
  EXPECT_FALSE(exists("disk.img"));
}

TEST_F(Profile, WarmupsAreListedAndNotCounted) {
  const Result r = ddtime({"--profile=diskmark", "if=in", "--size=4M", "--time=20ms", "--repeat=1", "--warmup=1",
                           "--pause=0", "--json=p.json"});
  ASSERT_STATUS(r, "exit 0");
  const Json runs = parse_json(read_file("p.json"))["rows"][0]["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_TRUE(runs[0]["warmup"].boolean());
  EXPECT_FALSE(runs[1]["warmup"].boolean());
}

TEST_F(Profile, CacheGoesThroughThePageCacheAndSvgDrawsTheBars) {
  const Result r = ddtime(with_quick({"--profile=diskmark", "if=in", "--cache=as-is", "--svg=p.svg"}));
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("cache: through the page cache, --cache=as-is before each run\n"), std::string::npos) << r.err;
  const std::string svg = read_file("p.svg");
  EXPECT_TRUE(svg.starts_with("<?xml") || svg.starts_with("<svg")) << svg.substr(0, 100);
  EXPECT_NE(svg.find("(log scale)"), std::string::npos);
  // Each test's label under its bar, and the legend that says they are reads.
  EXPECT_NE(svg.find(">RND4K Q32T1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">read</text>"), std::string::npos);
}

TEST_F(Profile, CompareReadsTwoProfiles) {
  ASSERT_STATUS(ddtime(with_quick({"--profile=diskmark", "if=in", "--json=a.json"})), "exit 0");
  ASSERT_STATUS(ddtime(with_quick({"--profile=diskmark", "if=in", "--json=b.json"})), "exit 0");
  const Result r = ddtime({"--compare", "a.json", "b.json"});
  ASSERT_STATUS(r, "exit 0");
  for (const char* row : {"SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"}) {
    EXPECT_NE(r.out.find(row), std::string::npos) << row << " in:\n" << r.out;
  }
}

TEST_F(Profile, OperandsTheProfileSetsAreRefusedByName) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"bs=4k"}, "--profile=diskmark sets bs= for each test; give --size for the range"},
      {{"ibs=4k"}, "sets bs= for each test"},
      {{"count=4"}, "sets count= for each test"},
      {{"conv=ucase"}, "sets conv= itself"},
      {{"--iodepth=4"}, "sets each test's Q (--iodepth)"},
      {{"--jobs=2"}, "and T (--jobs) itself"},
      {{"--random"}, "sets --random itself"},
      {{"--latency"}, "sets --latency itself"},
      {{"--sweep=bs=4k,8k"}, "sets --sweep itself"},
      {{"--readback"}, "it does not combine with --readback"},
      {{"--timeline"}, "it does not combine with --timeline"},
  };
  for (const auto& [extra, words] : cases) {
    std::vector<std::string> args = {"--profile=diskmark", "if=in"};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = ddtime(args);
    EXPECT_STATUS(r, "exit 1") << extra[0];
    EXPECT_NE(r.err.find(words), std::string::npos) << extra[0] << ": " << r.err;
  }
  const Result pattern = ddtime({"--profile=diskmark", "of=out", "--pattern=zero"});
  EXPECT_STATUS(pattern, "exit 1");
  EXPECT_NE(pattern.err.find("sets --pattern itself"), std::string::npos) << pattern.err;
  EXPECT_FALSE(std::filesystem::exists(path("out"))) << "nothing was written";
}

// B14: the --size hint is for bs= and count= only; the depth and the jobs
// are each test's Q and T, which a plain run takes instead.
TEST_F(Profile, TheJobsAndIodepthRefusalSaysEachTestSetsQAndTWithoutTheSizeHint) {
  for (const char* option : {"--jobs=4", "--iodepth=4"}) {
    const Result r = ddtime({"--profile=diskmark", "if=in", option});
    EXPECT_STATUS(r, "exit 1");
    EXPECT_EQ(r.err,
              "ddtime: --profile=diskmark sets each test's Q (--iodepth) and T (--jobs) itself; a plain run "
              "takes --iodepth and --jobs\n")
        << option;
  }
  const Result random = ddtime({"--profile=diskmark", "if=in", "--random"});
  EXPECT_EQ(random.err.find("give --size"), std::string::npos) << random.err;
}

// B11: a profile's table has one rate unit; both and all are refused
// rather than silently shown as MB/s.
TEST_F(Profile, UnitsBothAndAllAreRefusedNamingTheUnitsItShows) {
  for (const char* units : {"--units=both", "--units=all"}) {
    const Result r = ddtime({"--profile=real", "if=in", units});
    EXPECT_STATUS(r, "exit 1");
    EXPECT_EQ(r.err, std::string("ddtime: --profile=real shows one rate unit: give --units=si (MB/s, its default), "
                                 "iec (MiB/s) or bytes (B/s), not ") +
                         (units + 8) + "\n");
  }
}

// B8: on a terminal a line per test and run says where the profile
// stands, overwritten in place, and cleared before the table; through a
// pipe nothing of it.
TEST_F(Profile, OnATerminalALineSaysWhichTestAndRunItIsAtAndIsClearedBeforeTheTable) {
  if (!shell("command -v script").ok) GTEST_SKIP() << "needs script (util-linux) for a pseudo-terminal";
  const std::string command = "cd '" + dir().string() + "' && script -q -e -c \"'" + ddtime_binary() +
                              "' --profile=real if=in --size=1M --time=20ms --repeat=2 --warmup=1 --pause=0 "
                              "2>&1\" /dev/null";
  const Command run = shell(command);
  ASSERT_TRUE(run.ok) << run.output;
  // The program's name is the path script ran it by.
  const std::string program = "\r" + ddtime_binary() + ": --profile=real: ";
  EXPECT_NE(run.output.find(program + "SEQ1M Q1T1 read, warm-up 1 of 1 ..."), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(program + "RND4K Q1T1 read, run 2 of 2 ..."), std::string::npos) << run.output;
  const std::size_t table = run.output.find("real: in (bars");
  ASSERT_NE(table, std::string::npos) << run.output;
  EXPECT_EQ(run.output.rfind("...", table), run.output.rfind("...")) << "nothing of it after the table";
  ASSERT_GT(table, 0u) << run.output;
  EXPECT_EQ(run.output[table - 1], '\r') << "the line cleared, the table from the first column";
  const Result piped = ddtime({"--profile=real", "if=in", "--size=1M", "--time=20ms", "--repeat=2", "--pause=0"});
  ASSERT_STATUS(piped, "exit 0");
  EXPECT_EQ(piped.err.find("run 2 of 2"), std::string::npos) << piped.err;
}

// CrystalDiskMark's Peak and Real World profiles: two rows each.
TEST_F(Profile, PeakAndRealRunTheirTwoRows) {
  for (const auto& [name, rows] : {std::pair{"peak", std::array{"SEQ1M Q8T1", "RND4K Q32T1"}},
                                   std::pair{"real", std::array{"SEQ1M Q1T1", "RND4K Q1T1"}}}) {
    const Result r = ddtime(with_quick({std::string("--profile=") + name, "if=in", "--json=p.json"}));
    ASSERT_STATUS(r, "exit 0");
    const Json doc = parse_json(read_file("p.json"));
    ASSERT_EQ(doc["rows"].size(), 2u) << name;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(doc["rows"][i]["test"].string(), rows[i]) << name;
      EXPECT_GT(doc["rows"][i]["median_bytes_per_second"].number(), 0) << name;
    }
  }
}

TEST_F(Profile, WhatItCannotMeasureIsRefused) {
  const Result unknown = ddtime({"--profile=fast", "if=in"});
  EXPECT_STATUS(unknown, "exit 1");
  EXPECT_NE(unknown.err.find("Valid arguments are: diskmark, nvme, flash, peak, real\n"), std::string::npos)
      << unknown.err;
  const Result neither = ddtime({"--profile=diskmark"});
  EXPECT_STATUS(neither, "exit 1");
  EXPECT_NE(neither.err.find("measures a file or a device: name it with if="), std::string::npos) << neither.err;
  const Result both = ddtime({"--profile=diskmark", "if=in", "of=out"});
  EXPECT_STATUS(both, "exit 1");
  EXPECT_NE(both.err.find("give one of them, not both"), std::string::npos) << both.err;
  const Result pause = ddtime({"if=in", "of=/dev/null", "--pause=1s"});
  EXPECT_STATUS(pause, "exit 1");
  EXPECT_NE(pause.err.find("--pause waits between a profile's tests: give --profile too"), std::string::npos)
      << pause.err;
  const Result bad_pause = ddtime({"--profile=diskmark", "if=in", "--pause=soon"});
  EXPECT_STATUS(bad_pause, "exit 1");
  Options piped = opts({"--profile=diskmark", "if=/dev/stdin", "--size=4M", "--time=30ms", "--pause=0"});
  piped.as_ddtime = true;
  piped.in = Stdin::pipe(std::string(1 << 20, 'x'));
  const Result pipe = dd(piped);
  EXPECT_STATUS(pipe, "exit 1");
  EXPECT_NE(pipe.err.find("--profile=diskmark measures a file or a block device: "), std::string::npos) << pipe.err;
  EXPECT_NE(pipe.err.find(" is a pipe"), std::string::npos) << pipe.err;
  const Result zero = ddtime({"--profile=diskmark", "if=/dev/zero"});
  EXPECT_STATUS(zero, "exit 1");
  EXPECT_NE(zero.err.find(" is a character device"), std::string::npos) << zero.err;
}

TEST_F(Profile, ASigintPrintsTheTestsDoneThenKills) {
  Options o =
      opts({"--profile=diskmark", "if=in", "--size=4M", "--time=20ms", "--repeat=1", "--warmup=0", "--pause=10s"});
  o.as_ddtime = true;
  DdProcess p(o);
  // The first test takes some 20 ms; then the pause of 10 s begins.
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  p.send_signal(SIGINT);
  const Result r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(\nSEQ1M Q8T1 +[0-9.]+ \()"))) << r.err;
  EXPECT_NE(r.err.find("(incomplete: the tests marked - did not run)"), std::string::npos) << r.err;
}

// ---- rule 1 of issue 28: what the user did not offer as scratch ----

TEST_F(Profile, AnExistingNonEmptyFileIsRefusedAndLeftAsItWas) {
  const std::string user = pattern(1 << 20, 9);
  write_file("userdata.bin", user);
  const Result r = ddtime(with_quick({"--profile=real", "of=userdata.bin"}));
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("userdata.bin\u2019 holds 1048576 bytes (1.0 MB); --profile=real would overwrite them with "
                       "data of its own; --force overwrites it\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_file("userdata.bin"), user) << "not a byte changed";
}

TEST_F(Profile, ForcedOverAFileItStaysInsideTheFileAndNeverGrowsIt) {
  write_file("userdata.bin", pattern(1 << 20, 9));
  const Result r =
      ddtime({"--profile=real", "of=userdata.bin", "--force", "--time=20ms", "--repeat=1", "--warmup=0", "--pause=0"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("range: 1 MiB of userdata.bin"), std::string::npos) << r.err;
  EXPECT_EQ(read_file("userdata.bin").size(), 1u << 20) << "not grown to the default range of 1 GiB";
  const Result grow = ddtime(with_quick({"--profile=real", "of=userdata.bin", "--force"}));
  EXPECT_STATUS(grow, "exit 1");
  EXPECT_NE(grow.err.find("a profile never grows a file"), std::string::npos) << grow.err;
  EXPECT_EQ(read_file("userdata.bin").size(), 1u << 20);
}

TEST_F(Profile, ANewFileIsCreatedAtTheRangesSizeAndSaidSo) {
  const Result r = ddtime(with_quick({"--profile=real", "of=new.img"}));
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ddtime: --profile=real creates \u2018new.img\u2019, 4.0 MiB (4.2 MB): the range's size\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_file("new.img").size(), 4u << 20);
}

TEST_F(Profile, APatternOverAnExistingNonEmptyFileIsRefusedButAPlainCopyIsNot) {
  const std::string user = pattern(65536, 5);
  write_file("userdata.bin", user);
  const Result r = ddtime({"--pattern=random", "of=userdata.bin", "bs=4k", "count=4"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("holds 65536 bytes (66 kB); --pattern would overwrite them"), std::string::npos) << r.err;
  EXPECT_EQ(read_file("userdata.bin"), user);
  const Result forced = ddtime({"--pattern=random", "of=userdata.bin", "bs=4k", "count=4", "--force"});
  EXPECT_STATUS(forced, "exit 0");
  const Result copy = ddtime({"if=in", "of=userdata.bin", "bs=4k", "count=4"});
  EXPECT_STATUS(copy, "exit 0");
  EXPECT_EQ(read_file("userdata.bin"), read_file("in").substr(0, 16384)) << "dd's meaning: truncated, then copied";
}

// ---- block devices ----

class ProfileOnADevice : public LoopDevice {
 protected:
  ProfileOnADevice() : LoopDevice(512, 8 << 20) {}
  void SetUp() override {
    LoopDevice::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SKIP_IF_ANOTHER_DD();
  }
};

TEST_F(ProfileOnADevice, ReadsAndWritesTheWholeDeviceWhenSmallerThanAGibibyte) {
  const Result r = ddtime(
      {"--profile=diskmark", "of=" + device_, "--time=30ms", "--repeat=1", "--warmup=0", "--pause=0", "--json=p.json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(read_file("p.json"));
  EXPECT_EQ(doc["profile"]["size"].integer(), 8 << 20);
  // B19: the device's size, and the loop device's backing file.
  const Json& device = doc["environment"]["files"]["output"]["device"];
  EXPECT_EQ(device["size_bytes"].integer(), 8 << 20);
  EXPECT_EQ(device["backing_file"].string(), path("backing.img").string());
  EXPECT_EQ(doc["rows"].size(), 8u);
  EXPECT_NE(r.err.find("range: 8 MiB of " + device_), std::string::npos) << r.err;
  EXPECT_TRUE(device_bytes() != content_) << "the range was written";
  const Result read =
      ddtime({"--profile=diskmark", "if=" + device_, "--time=30ms", "--repeat=1", "--warmup=0", "--pause=0"});
  ASSERT_STATUS(read, "exit 0");
  EXPECT_EQ(read.err.find("write MB/s"), std::string::npos) << read.err;
}

TEST_F(ProfileOnADevice, ADeviceInUseIsRefusedUnlessForce) {
  const int claim = ::open(device_.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
  ASSERT_GE(claim, 0) << device_ << ": " << std::strerror(errno);
  const Result refused = ddtime(with_quick({"--profile=diskmark", "of=" + device_}));
  EXPECT_STATUS(refused, "exit 1");
  EXPECT_NE(refused.err.find("--profile=diskmark would write to "), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find(device_ + "\u2019, which is mounted or in use; --force writes to it anyway"),
            std::string::npos)
      << refused.err;
  EXPECT_TRUE(device_bytes() == content_) << "nothing was written";
  const Result forced = ddtime(with_quick({"--profile=diskmark", "of=" + device_, "--force"}));
  ::close(claim);
  EXPECT_STATUS(forced, "exit 0");
  EXPECT_TRUE(device_bytes() != content_);
}

// A device that holds a file system or a partition table, mounted or not,
// is refused as mkfs refuses it, naming what it holds.
class ProfileOnAFormattedDevice : public ProfileOnADevice {};

TEST_F(ProfileOnAFormattedDevice, AnExt4IsRefusedNamingItsLabelAndForceOverwritesIt) {
  if (!shell("command -v mkfs.ext4").ok) GTEST_SKIP() << "needs mkfs.ext4 (e2fsprogs)";
  const Command made = shell("mkfs.ext4 -q -F -L scratchme " + device_);
  ASSERT_TRUE(made.ok) << made.output;
  content_ = device_bytes();
  const Result r = ddtime(with_quick({"--profile=diskmark", "of=" + device_}));
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find(device_ + "\u2019 holds an ext4 file system (label \u2018scratchme\u2019); --profile=diskmark "
                                 "would overwrite it; --force overwrites it\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(device_bytes() == content_) << "nothing was written";
  const Result pattern_run = ddtime({"--pattern=zero", "of=" + device_, "bs=4k", "count=1"});
  EXPECT_STATUS(pattern_run, "exit 1");
  EXPECT_TRUE(device_bytes() == content_) << "nothing was written";
  const Result forced = ddtime(with_quick({"--profile=diskmark", "of=" + device_, "--force"}));
  EXPECT_STATUS(forced, "exit 0");
  EXPECT_TRUE(device_bytes() != content_);
}

TEST_F(ProfileOnAFormattedDevice, APartitionTableIsRefused) {
  if (shell("command -v sfdisk").ok) {
    const Command made = shell("echo 'start=2048, type=83' | sfdisk -q " + device_);
    ASSERT_TRUE(made.ok) << made.output;
  } else {
    // An MBR written by hand: one Linux partition entry and the boot signature.
    std::string head = device_bytes();
    head[446 + 4] = '\x83';
    head[510] = '\x55';
    head[511] = '\xAA';
    for (std::size_t i = 0; i < 16; ++i) head[446 + i] = i == 4 ? '\x83' : '\0';
    write_file("backing.img", head);
  }
  content_ = device_bytes();
  const Result r = ddtime(with_quick({"--profile=real", "of=" + device_}));
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("partition table; --profile=real would overwrite it"), std::string::npos) << r.err;
  EXPECT_TRUE(device_bytes() == content_) << "nothing was written";
}

// A device with a file system mounted on it: the kernel refuses its
// O_EXCL claim, and so the profile refuses it before writing a byte.
class ProfileOnAMountedDevice : public ProfileOnADevice {
 protected:
  void SetUp() override {
    ProfileOnADevice::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!shell("command -v mkfs.ext4").ok) GTEST_SKIP() << "needs mkfs.ext4 (e2fsprogs)";
    ::mkdir(path("mnt").c_str(), 0755);
    const Command made =
        shell("mkfs.ext4 -q -F " + device_ + " && mount " + device_ + " '" + path("mnt").string() + "'");
    if (!made.ok) GTEST_SKIP() << "could not make and mount an ext4 on " << device_ << ": " << made.output;
    mounted_ = true;
    content_ = device_bytes();
  }
  void TearDown() override {
    if (mounted_) {
      EXPECT_TRUE(shell("umount '" + path("mnt").string() + "'").ok);
    }
    ProfileOnADevice::TearDown();
  }
  bool mounted_ = false;
};

TEST_F(ProfileOnAMountedDevice, IsRefusedAndLeftAsItWas) {
  const Result r = ddtime(with_quick({"--profile=diskmark", "of=" + device_}));
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("which is mounted or in use; --force writes to it anyway"), std::string::npos) << r.err;
  EXPECT_TRUE(device_bytes() == content_) << "nothing was written";
}

}  // namespace
}  // namespace ddtime::e2e
