// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions of runs (issue 13): --repeat and --warmup with their
// statistics, --sweep=bs= and --sweep=iodepth= with the sweep table, the
// session's JSON document field by field, and the refusals of sides that
// cannot be opened again.
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

// Lines of text that match a pattern.
std::size_t count_matching_lines(const std::string& text, const std::string& pattern) {
  const std::regex line(pattern);
  std::size_t n = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (std::regex_search(text.substr(start, end - start), line)) ++n;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return n;
}

class Session : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
    input_ = std::string(256 * 1024 + 100, 'x');
    write_file("in", input_);
  }
  static std::size_t count_lines(const std::string& text, const std::string& pattern) {
    return count_matching_lines(text, pattern);
  }
  static std::string last_line(const std::string& text) {
    const std::size_t end = text.find_last_not_of('\n');
    return text.substr(text.rfind('\n', end) + 1, end - text.rfind('\n', end));
  }
  std::string input_;
};

TEST_F(Session, RepeatRunsTheCopyNTimesAfterTheWarmupsAndGivesTheStatistics) {
  const Result r = ddtime({"if=in", "of=out", "bs=4k", "--repeat=6", "--warmup=2"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count_lines(r.err, "^ddtime: warm-up [12] of 2: real " + kDuration + " .* \\(not counted\\)$"), 2u)
      << r.err;
  EXPECT_EQ(count_lines(r.err, "^ddtime: run [1-6] of 6: real " + kDuration + "  user " + kDuration + "  sys " +
                                   kDuration + "  cpu "),
            6u)
      << r.err;
  EXPECT_EQ(count_lines(r.err, "^ddtime: 6 runs, 2 warm-ups not counted$"), 1u) << r.err;
  for (const char* figure : {"real", "user", "sys", "rate"}) {
    EXPECT_EQ(count_lines(r.err, std::string("^ddtime: ") + figure + " +[0-9.]+ "), 1u) << figure << "\n" << r.err;
  }
  // Six runs have an interval; GNU's summary of the last run comes last.
  EXPECT_EQ(count_lines(r.err, "^ddtime: real .*s\u2013\\d"), 1u) << r.err;
  EXPECT_TRUE(std::regex_search(last_line(r.err), std::regex("^262244 bytes \\(262 kB, 256 KiB\\) copied, "))) << r.err;
  EXPECT_TRUE(read_file("out") == input_);
}

// Each pass closes its files, so descriptors 0 and 1 are free when the
// next pass sets up its io_uring, before opening if= and of= there: the
// ring took descriptor 0 and every pass after the first failed reading
// if= (EOPNOTSUPP). Each engine, and with stdin and stdout closed.
TEST_F(Session, EveryQueuedPassCopiesWhateverDescriptorsAreFreeBeforeIt) {
  for (const char* engine : {"--engine=auto", "--engine=io_uring", "--engine=libaio", "--engine=threads"}) {
    for (const bool closed : {false, true}) {
      SCOPED_TRACE(std::string(engine) + (closed ? " with stdin and stdout closed" : ""));
      Options o = opts({"if=in", "of=out", "bs=4k", "--iodepth=8", "--repeat=3", engine});
      o.as_ddtime = true;
      if (closed) {
        o.in = Stdin::closed();
        o.out = Stdout::closed();
      }
      const Result r = run(o);
      ASSERT_STATUS(r, "exit 0");
      EXPECT_EQ(r.err.find("(failed"), std::string::npos) << r.err;
      EXPECT_EQ(count_lines(r.err, "^ddtime: 3 runs$"), 1u) << r.err;
      EXPECT_TRUE(read_file("out") == input_);
    }
  }
}

TEST_F(Session, FewerThanSixRunsHaveNoInterval) {
  const Result r = ddtime({"if=in", "of=out", "--repeat=3"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count_lines(r.err, "^ddtime: real +" + kDuration + " +" + kDuration + "  n/a "), 1u) << r.err;
}

TEST_F(Session, InTheCLocaleTheStatisticsAreAscii) {
  Options o;
  o.args = {"if=in", "of=out", "--repeat=6"};
  o.as_ddtime = true;
  o.locale = Locale::kC;
  const Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  for (const char c : r.err) EXPECT_LT(static_cast<unsigned char>(c), 0x80) << r.err;
  EXPECT_EQ(count_lines(r.err, "^ddtime: real .*(s|ns|us)\\.\\.[0-9].* \\+- "), 1u) << r.err;
}

TEST_F(Session, AsDdEachRunPrintsWhatDdPrints) {
  const Result r = dd({"if=in", "of=out", "--repeat=3", "--warmup=1"});
  ASSERT_STATUS(r, "exit 0");
  const std::string one = "512+1 records in\n512+1 records out\n262244 bytes (262 kB, 256 KiB) copied, <T> s, <R>\n";
  EXPECT_EQ(r.err_masked(), one + one + one + one);
}

TEST_F(Session, TheJsonDocumentHoldsThePlanEveryRunAndTheSummary) {
  const Result r = ddtime({"if=in", "of=out", "bs=4k", "--repeat=6", "--warmup=1", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  EXPECT_EQ(doc["schema"].integer(), 1);
  EXPECT_EQ(doc["tool"].string(), "ddtime");
  EXPECT_EQ(doc["plan"]["repeat"].integer(), 6);
  EXPECT_EQ(doc["plan"]["warmup"].integer(), 1);
  EXPECT_TRUE(doc["plan"]["sweep"]["bs"].is_null());
  EXPECT_TRUE(doc["plan"]["size"].is_null());
  const Json& runs = doc["runs"];
  ASSERT_EQ(runs.size(), 7u);
  EXPECT_TRUE(runs[0]["warmup"].boolean());
  EXPECT_EQ(runs[0]["repeat"].integer(), 1);
  for (std::size_t i = 1; i < 7; ++i) {
    EXPECT_FALSE(runs[i]["warmup"].boolean());
    EXPECT_EQ(runs[i]["repeat"].integer(), static_cast<std::int64_t>(i));
    EXPECT_EQ(runs[i]["bs"].integer(), 4096);
    EXPECT_EQ(runs[i]["iodepth"].integer(), 1);
    EXPECT_EQ(runs[i]["pass"].string(), "copy");
    EXPECT_EQ(runs[i]["cache"].string(), "as-is");
    EXPECT_EQ(runs[i]["bytes_out"].integer(), 262244);
    EXPECT_EQ(runs[i]["records_in"]["full"].integer(), 64);
    EXPECT_EQ(runs[i]["exit_status"].integer(), 0);
  }
  const Json& summary = doc["summary"];
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0]["runs"].integer(), 6);
  for (const char* figure : {"real", "user", "sys", "bytes_per_second"}) {
    const Json& f = summary[0][figure];
    EXPECT_LE(f["min"].number(), f["median"].number()) << figure;
    EXPECT_LE(f["median"].number(), f["max"].number()) << figure;
    ASSERT_TRUE(f["median_ci95"].is_array()) << figure;
    EXPECT_LE(f["median_ci95"][0].number(), f["median"].number()) << figure;
    EXPECT_GE(f["median_ci95"][1].number(), f["median"].number()) << figure;
    EXPECT_LE(f["min"].number(), f["mean"].number()) << figure;
    EXPECT_GE(f["sd"].number(), 0) << figure;
    EXPECT_TRUE(f["outliers"].is_array()) << figure;
  }
  // The rate's median is the median of the runs' rates.
  std::vector<double> rates;
  for (std::size_t i = 1; i < 7; ++i) rates.push_back(runs[i]["rates"]["bytes_per_second"].number());
  std::sort(rates.begin(), rates.end());
  EXPECT_NEAR(summary[0]["bytes_per_second"]["median"].number(), (rates[2] + rates[3]) / 2, 1.0);
  EXPECT_EQ(doc["exit_status"].integer(), 0);
  EXPECT_TRUE(doc["signal"].is_null());
}

TEST_F(Session, ASweepOfBlockSizesMovesTheSameBytesInEveryRow) {
  const Result r = ddtime({"if=in", "of=out", "--sweep=bs=4k..64k", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  const Json& runs = doc["runs"];
  ASSERT_EQ(runs.size(), 5u);
  const std::int64_t sizes[] = {4096, 8192, 16384, 32768, 65536};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(runs[i]["bs"].integer(), sizes[i]);
    EXPECT_EQ(runs[i]["operands"]["ibs"].integer(), sizes[i]);
    EXPECT_EQ(runs[i]["bytes_out"].integer(), 262244) << "the whole input, every row";
  }
  EXPECT_EQ(doc["summary"].size(), 5u);
  EXPECT_EQ(doc["plan"]["sweep"]["bs"].size(), 5u);
}

TEST_F(Session, TheSweepTableHasARowPerSettingAndMarksTheBest) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "--size=1M", "--sweep=bs=4k,64k", "--sweep=iodepth=1,4"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count_lines(r.err, "^ddtime: +bs +depth +moved +real +user +sys +cpu% +MiB/s +IOPS +rate$"), 1u) << r.err;
  for (const char* row : {" 4k +1 ", " 4k +4 ", " 64k +1 ", " 64k +4 "}) {
    EXPECT_EQ(count_lines(r.err, std::string("^ddtime: +") + row + "+1048576 "), 1u) << row << "\n" << r.err;
  }
  EXPECT_EQ(count_lines(r.err, "\\*best$"), 1u) << r.err;
  EXPECT_EQ(count_lines(r.err, "^ddtime: bs=64k depth 4, run 1 of 1: "), 1u) << r.err;
}

TEST_F(Session, ASweepCountGivenInBlocksMovesCountTimesBsOfTheCommandLine) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=8k", "count=16", "--sweep=bs=4k,16k", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_EQ(doc["runs"][0]["bytes_out"].integer(), 131072);
  EXPECT_EQ(doc["runs"][0]["records_in"]["full"].integer(), 32);
  EXPECT_EQ(doc["runs"][1]["bytes_out"].integer(), 131072);
  EXPECT_EQ(doc["runs"][1]["records_in"]["full"].integer(), 8);
}

TEST_F(Session, AnAutoSweepDoublesFromFourKUntilItStopsPaying) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "--size=8M", "--sweep=bs=auto", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  EXPECT_EQ(doc["plan"]["sweep"]["bs"].string(), "auto");
  const Json& rows = doc["summary"];
  ASSERT_GE(rows.size(), 3u);
  std::int64_t bs = 4096;
  std::size_t knees = 0;
  std::size_t knee = 0;
  for (std::size_t i = 0; i < rows.size(); ++i, bs *= 2) {
    EXPECT_EQ(rows[i]["bs"].integer(), bs);
    EXPECT_EQ(doc["runs"][i]["bytes_out"].integer(), 8 << 20);
    if (rows[i]["knee"].boolean()) {
      ++knees;
      knee = i;
    }
  }
  if (knees == 1) {
    EXPECT_EQ(knee + 3, rows.size()) << "two flat doublings after the knee, then it stops";
  } else {
    EXPECT_EQ(knees, 0u);
    EXPECT_EQ(rows[rows.size() - 1]["bs"].integer(), 8 << 20) << "no knee: it ran up to what every row moves";
  }
}

TEST_F(Session, ASweepOfAnEndlessInputNeedsASize) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "--sweep=bs=4k,8k"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: every row of a sweep moves the same bytes, and the input has no end: give --size=BYTES or "
            "count=\n");
}

TEST_F(Session, StandardInputCannotBeReadAgain) {
  const Result r = ddtime({"of=out", "--repeat=3"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --repeat=3 cannot read standard input again; name the file with if=\n");
  EXPECT_FALSE(exists("out")) << "refused before anything runs";
}

TEST_F(Session, StandardOutputCannotBeWrittenAgain) {
  Options o;
  o.args = {"if=in", "--warmup=1"};
  o.as_ddtime = true;
  o.out = Stdout::file("/dev/null");
  const Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --warmup=1 cannot write standard output again; name the file with of=\n");
}

// A session of one run (--csv, --pattern) writes standard output once, as
// --json and --svg let it (defect A7: it was refused as "again").
TEST_F(Session, OneRunWithCsvOrAPatternWritesStandardOutputOnce) {
  Options o;
  o.args = {"if=in", "bs=4k", "count=1", "--csv=c.csv"};
  o.as_ddtime = true;
  o.cwd = dir();
  const Result to_file = dd(o);
  EXPECT_STATUS(to_file, "exit 0");
  EXPECT_EQ(to_file.out, input_.substr(0, 4096));
  EXPECT_EQ(count_lines(read_file("c.csv"), "^4096,"), 1u);
  o.args = {"if=in", "bs=4k", "count=1", "--csv"};
  const Result on_stderr = dd(o);
  EXPECT_STATUS(on_stderr, "exit 0");
  EXPECT_EQ(on_stderr.out, input_.substr(0, 4096));
  o.args = {"--pattern=zero", "bs=4k", "count=2"};
  const Result pattern = dd(o);
  EXPECT_STATUS(pattern, "exit 0");
  EXPECT_EQ(pattern.out, std::string(8192, '\0'));
}

TEST_F(Session, APipeCannotBeReadAgain) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  const Result r = ddtime({"if=fifo", "of=out", "--sweep=iodepth=1,2"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --sweep cannot read \u2018fifo\u2019 again: it is a pipe\n");
}

TEST_F(Session, AFailingRunStopsTheSessionAndExits1) {
  const Result r = ddtime({"if=in", "of=/dev/full", "--repeat=3"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(count_lines(r.err, "No space left on device$"), 1u) << "one run only\n" << r.err;
  EXPECT_EQ(count_lines(r.err, "^ddtime: run 1 of 3: "), 1u) << r.err;
  EXPECT_EQ(count_lines(r.err, "^ddtime: run 2 of 3: "), 0u) << r.err;
}

TEST_F(Session, SigintSummarisesTheRunsDoneThenEndsByTheSignal) {
  Options o = opts({"if=/dev/zero", "of=/dev/null", "bs=64k", "count=100000000", "--repeat=3"});
  o.as_ddtime = true;
  o.timeout = 20000ms;
  DdProcess p(o);
  std::this_thread::sleep_for(300ms);
  p.send_signal(SIGINT);
  const Result r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  EXPECT_EQ(count_lines(r.err, "^ddtime: run 1 of 3: "), 0u) << "the first run is the one stopped\n" << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("\\d+\\+0 records in\n\\d+\\+0 records out\n\\d+ bytes .* copied, "
                                                  "[0-9.e-]+ s, [0-9.]+ [kMGT]?B/s\n$")))
      << "GNU's summary of the stopped run comes last\n"
      << r.err;
}

// ---- --csv ----

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    std::vector<std::string> fields;
    std::string line = text.substr(start, end - start);
    std::size_t from = 0;
    while (true) {
      const std::size_t comma = line.find(',', from);
      fields.push_back(line.substr(from, comma - from));
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    rows.push_back(fields);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return rows;
}

TEST_F(Session, CsvGivesOneLinePerRunInPlaceOfTheText) {
  const Result r = ddtime({"if=in", "of=out", "--sweep=bs=4k,16k", "--repeat=2", "--warmup=1", "--csv"});
  ASSERT_STATUS(r, "exit 0");
  const auto rows = parse_csv(r.err);
  ASSERT_EQ(rows.size(), 7u) << r.err;
  EXPECT_EQ(rows[0], (std::vector<std::string>{"bs",
                                               "iodepth",
                                               "pass",
                                               "repeat",
                                               "warmup",
                                               "cache",
                                               "bytes",
                                               "records",
                                               "real_s",
                                               "user_s",
                                               "sys_s",
                                               "cpu_percent",
                                               "bytes_per_second",
                                               "iops",
                                               "exit_status",
                                               "read_percent",
                                               "read_ios",
                                               "read_bytes",
                                               "write_ios",
                                               "write_bytes"}));
  const char* expected[][5] = {{"4096", "1", "true", "262244", "65"},   {"4096", "1", "false", "262244", "65"},
                               {"4096", "2", "false", "262244", "65"},  {"16384", "1", "true", "262244", "17"},
                               {"16384", "1", "false", "262244", "17"}, {"16384", "2", "false", "262244", "17"}};
  for (std::size_t i = 0; i < 6; ++i) {
    const auto& row = rows[i + 1];
    ASSERT_EQ(row.size(), 20u);
    EXPECT_EQ(row[0], expected[i][0]);
    EXPECT_EQ(row[3], expected[i][1]);
    EXPECT_EQ(row[4], expected[i][2]);
    EXPECT_EQ(row[6], expected[i][3]);
    EXPECT_EQ(row[7], expected[i][4]);
    EXPECT_EQ(row[14], "0");
    EXPECT_GT(std::stod(row[8]), 0);
    EXPECT_GT(std::stod(row[12]), 0);
    for (std::size_t mix = 15; mix < 20; ++mix) EXPECT_EQ(row[mix], "") << "no --mix, no sides";
  }
}

TEST_F(Session, CsvToAFileLeavesTheTextOnStderr) {
  const Result r = ddtime({"if=in", "of=out", "--repeat=2", "--csv=runs.csv"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count_lines(r.err, "^ddtime: run [12] of 2: "), 2u) << r.err;
  EXPECT_EQ(parse_csv(read_file("runs.csv")).size(), 3u);
}

TEST_F(Session, CsvAndJsonCannotBothTakeStderr) {
  const Result r = ddtime({"if=in", "of=out", "--csv", "--json"});
  EXPECT_STATUS(r, "exit 1");
  // With --json on stderr, the refusal is JSON too (defect 23).
  const Json doc = parse_json(r.err);
  EXPECT_TRUE(doc["refused"].boolean());
  EXPECT_EQ(doc["exit_status"].integer(), 1);
  EXPECT_EQ(doc["errors"].strings(), std::vector<std::string>{"--csv and --json cannot both take the place of the text "
                                                              "on standard error: give one a PATH"});
  EXPECT_FALSE(exists("out"));
}

// ---- --cache ----

class CacheState : public Session {
 protected:
  void SetUp() override {
    Session::SetUp();
    if (IsSkipped()) return;
    struct statfs fs {};
    ASSERT_EQ(::statfs(path("").c_str(), &fs), 0);
    if (fs.f_type == TMPFS_MAGIC) GTEST_SKIP() << "the test directory is on tmpfs, whose pages cannot be dropped";
    write_file("big", std::string(4 << 20, 'b'));
  }
  // The input's residency before each run, from the session's JSON.
  std::vector<std::pair<std::int64_t, std::int64_t>> input_residency(const Result& r) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    const Json doc = parse_json(r.err);
    for (std::size_t i = 0; i < doc["runs"].size(); ++i) {
      const Json& input = doc["runs"][i]["residency"]["input"];
      out.emplace_back(input["resident_pages"].integer(), input["pages"].integer());
    }
    return out;
  }
};

TEST_F(CacheState, ColdDropsTheInputsCachedPagesBeforeEachRun) {
  ASSERT_STATUS(dd({"if=big", "of=/dev/null", "bs=1M"}), "exit 0");  // now cached
  Result r = ddtime({"if=big", "of=/dev/null", "bs=1M", "--cache=as-is", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const auto before = input_residency(r);
  ASSERT_EQ(before.size(), 1u);
  EXPECT_EQ(before[0].second, (4 << 20) / 4096);
  EXPECT_GT(before[0].first, 0) << "a file just read is cached";
  r = ddtime({"if=big", "of=out", "bs=1M", "--cache=cold", "--repeat=2", "--json"});
  ASSERT_STATUS(r, "exit 0");
  for (const auto& [resident, pages] : input_residency(r)) EXPECT_EQ(resident, 0) << "of " << pages;
  const Json doc = parse_json(r.err);
  EXPECT_EQ(doc["runs"][0]["cache"].string(), "cold");
  EXPECT_TRUE(doc["runs"][0]["residency"]["output"].is_null()) << "no output file before the first run";
  EXPECT_EQ(doc["runs"][1]["residency"]["output"]["resident_pages"].integer(), 0) << "dropped after it was written";
}

TEST_F(CacheState, WarmReadsTheInputOnceFirst) {
  ASSERT_STATUS(ddtime({"if=big", "of=/dev/null", "--cache=cold"}), "exit 0");
  const Result r = ddtime({"if=big", "of=/dev/null", "bs=64k", "--cache=warm", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const auto residency = input_residency(r);
  ASSERT_EQ(residency.size(), 1u);
  EXPECT_EQ(residency[0].first, residency[0].second) << "all of it cached";
}

TEST_F(CacheState, TheReportSaysWhatWasResident) {
  const Result r = ddtime({"if=big", "of=/dev/null", "--cache=cold"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(
      count_lines(
          r.err, "^ddtime: cache cold: input 0\\.0% resident \\(0 of the 1024 pages it reads\\), output not measured$"),
      1u)
      << r.err;
}

// Defect 11: to a user who neither owns a file nor may write it, mincore
// says every page is resident. The residency is then unknown, not 100%.
TEST_F(CacheState, AFileTheUserCannotWriteHasAnUnknownResidency) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run ddtime as another user";
  if (!std::filesystem::exists("/usr/bin/setpriv")) GTEST_SKIP() << "needs setpriv (util-linux)";
  std::filesystem::permissions(dir(), std::filesystem::perms::all);  // the report file is the user's
  ::chmod(path("big").c_str(), 0644);
  Options o = opts({"if=big", "of=/dev/null", "bs=64k", "--cache=cold", "--json=report.json"});
  o.as_ddtime = true;
  o.run_under = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count_lines(r.err,
                        "ddtime: cache cold: input residency unknown \\(1024 pages: the kernel tells it only "
                        "to the file's owner or a user who may write it\\), output not measured$"),
            1u)
      << r.err;
  EXPECT_NE(r.err.find("how much of it was in the page cache unknown"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("100.0%"), std::string::npos) << r.err;
  const Json doc = parse_json(read_file("report.json"));
  EXPECT_TRUE(doc["runs"][0]["residency"]["input"]["resident_pages"].is_null());
  EXPECT_EQ(doc["runs"][0]["residency"]["input"]["pages"].integer(), 1024);
}

TEST_F(CacheState, AnUnknownStateIsRefused) {
  const Result r = ddtime({"if=big", "of=/dev/null", "--cache=tepid"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("Valid arguments are: as-is, cold, cold-system, warm"), std::string::npos) << r.err;
}

TEST_F(Session, BadArgumentsAreRefusedWithTheValidForms) {
  Result r = ddtime({"if=in", "of=out", "--repeat=0"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: invalid argument \u20180\u2019 for \u2018--repeat\u2019\nThe count must be a whole number from 1 "
            "to 100000.\nTry 'ddtime --help' for more information.\n");
  r = ddtime({"if=in", "of=out", "--sweep=bs=64k..4k"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("\n64k..4k runs backwards: the first size is the smaller.\n"), std::string::npos) << r.err;
  r = ddtime({"if=in", "of=out", "--sweep=bs=4k,,8k"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("A block size list is like 4k,64k,1M or 4k..64M, or auto, or memory."), std::string::npos)
      << r.err;
  r = ddtime({"if=in", "of=out", "--sweep=count=4"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("Valid arguments are: bs=LIST, iodepth=LIST"), std::string::npos) << r.err;
  r = ddtime({"if=in", "of=out", "--size=1M", "count=3"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --size does not combine with count=: each says how much to copy\n");
  r = ddtime({"if=in", "of=out", "--sweep=iodepth=1,8", "conv=noerror"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --sweep=iodepth does not combine with conv=noerror\n");
}

// Defect 25: a setting named twice would run twice and print identical rows.
TEST_F(Session, ASettingListedTwiceIsRefused) {
  Result r = ddtime({"if=in", "of=out", "--sweep=bs=4k,4096"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: invalid argument \u2018bs=4k,4096\u2019 for \u2018--sweep\u2019\n"
            "4096 is in the list twice (4k and 4096): each setting runs once.\n"
            "Try 'ddtime --help' for more information.\n");
  EXPECT_FALSE(exists("out"));
  r = ddtime({"if=in", "of=out", "--sweep=iodepth=4,1..8"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("\n4 is in the list twice (4 and 1..8): each setting runs once.\n"), std::string::npos) << r.err;
}

// Defect 27: a size too large is named as such, not as a malformed list.
TEST_F(Session, ASweepSizeTooLargeSaysSo) {
  const Result r = ddtime({"if=in", "of=out", "--sweep=bs=4k..1E"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("\n1E is more than 1T, the largest block size a sweep takes.\n"), std::string::npos) << r.err;
}

TEST_F(Session, SizeAloneSetsWhatASingleRunMoves) {
  const Result r = dd({"if=/dev/zero", "of=/dev/null", "bs=1000", "--size=2500"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "2+1 records in\n2+1 records out\n2500 bytes (2.5 kB, 2.4 KiB) copied, <T> s, <R>\n");
}

// ---- a sweep of a device ----

class SweepOfALoopDevice : public LoopDevice {
 protected:
  SweepOfALoopDevice() : LoopDevice(512, 2 << 20, /*direct_io=*/true) {}
};

TEST_F(SweepOfALoopDevice, EveryRowReadsTheWholeDeviceWithODirect) {
  if (IsSkipped()) return;
  SKIP_IF_ANOTHER_DD();
  const Result r = ddtime({"if=" + device_, "of=/dev/null", "iflag=direct", "--sweep=bs=2k..256k", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  ASSERT_EQ(doc["runs"].size(), 8u);
  std::int64_t bs = 2048;
  for (std::size_t i = 0; i < 8; ++i, bs *= 2) {
    EXPECT_EQ(doc["runs"][i]["bs"].integer(), bs);
    EXPECT_EQ(doc["runs"][i]["bytes_out"].integer(), 2 << 20) << "the whole device, every row";
    EXPECT_EQ(doc["runs"][i]["records_in"]["full"].integer(), (2 << 20) / bs);
    EXPECT_EQ(doc["runs"][i]["operands"]["iflag"].strings(), std::vector<std::string>{"direct"});
  }
  EXPECT_EQ(doc["summary"].size(), 8u);
}

TEST_F(SweepOfALoopDevice, TheTableHasTheRealUserAndSysColumns) {
  if (IsSkipped()) return;
  SKIP_IF_ANOTHER_DD();
  const Result r = ddtime({"if=" + device_, "of=/dev/null", "iflag=direct", "--sweep=bs=2k,256k"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count_matching_lines(r.err, "^ddtime: +bs +depth +moved +real +user +sys "), 1u) << r.err;
  EXPECT_EQ(
      count_matching_lines(r.err, "^ddtime: +2k +1 +2097152 +" + kDuration + " +" + kDuration + " +" + kDuration + " "),
      1u)
      << r.err;
  // Defect 16: the measured line describes the row whose GNU lines follow
  // it (the last), and says so.
  EXPECT_EQ(count_matching_lines(r.err,
                                 "^ddtime: measured \\(bs=256k depth 1, the row of GNU's lines below\\): "
                                 "reading the device '.*' with O_DIRECT: every read reached it"),
            1u)
      << r.err;
}

// ---- block devices in use ----

class SessionOnAClaimedDevice : public LoopDevice {
 protected:
  SessionOnAClaimedDevice() : LoopDevice(512, 1 << 20) {}
  void SetUp() override {
    LoopDevice::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    SKIP_IF_ANOTHER_DD();
    // Claimed the way a mount or a volume manager claims it.
    claim_ = ::open(device_.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
    ASSERT_GE(claim_, 0) << device_ << ": " << std::strerror(errno);
  }
  void TearDown() override {
    if (claim_ >= 0) ::close(claim_);
    LoopDevice::TearDown();
  }
  int claim_ = -1;
};

TEST_F(SessionOnAClaimedDevice, TheNewWriteModesRefuseIt) {
  for (const std::vector<std::string>& mode :
       std::vector<std::vector<std::string>>{{"if=/dev/zero", "--repeat=2"},
                                             {"--pattern=random"},
                                             {"if=/dev/zero", "--readback"},
                                             {"if=/dev/zero", "--sweep=bs=4k,8k"}}) {
    std::vector<std::string> args = mode;
    args.insert(args.end(), {"of=" + device_, "bs=4k", "count=4"});
    const Result r = ddtime(args);
    EXPECT_STATUS(r, "exit 1") << mode[mode.size() - 1];
    EXPECT_NE(r.err.find("which is mounted or in use; --force writes to it anyway"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(device_bytes() == content_) << "nothing was written";
}

TEST_F(SessionOnAClaimedDevice, ForceWritesAnywayAndAPlainDdCommandIsGnus) {
  ASSERT_STATUS(ddtime({"if=/dev/zero", "of=" + device_, "bs=4k", "count=4", "oflag=direct", "--repeat=2", "--force"}),
                "exit 0");
  EXPECT_EQ(device_bytes().substr(0, 16384), std::string(16384, '\0'));
  ASSERT_STATUS(dd({"if=/dev/zero", "of=" + device_, "bs=4k", "count=1", "seek=8"}), "exit 0")
      << "GNU dd opens without O_EXCL";
}

}  // namespace
}  // namespace ddtime::e2e
