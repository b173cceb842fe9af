// SPDX-License-Identifier: GPL-3.0-or-later
// --latency end to end (issue 14): the JSON's counts equal the records
// read and written, percentiles in order and never above the max, the
// definition per engine, the text lines, and a session's runs each with
// their own figures.
#include <linux/magic.h>
#include <sys/statfs.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

class Latency : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }
  static void expect_side(const Json& side, std::int64_t count) {
    EXPECT_EQ(side["count"].integer(), count);
    const double max = side["max_ns"].number();
    EXPECT_LE(side["min_ns"].number(), side["mean_ns"].number());
    EXPECT_LE(side["mean_ns"].number(), max);
    double last = side["min_ns"].number();
    const char* keys[] = {"50", "90", "99", "99.9", "99.99"};
    const std::int64_t fewest[] = {2, 10, 100, 1000, 10000};
    for (std::size_t i = 0; i < 5; ++i) {
      const Json& value = side["percentiles_ns"][keys[i]];
      EXPECT_EQ(value.is_number(), count >= fewest[i]) << keys[i] << " of " << count;
      if (!value.is_number()) continue;
      EXPECT_GE(value.number(), last) << keys[i];
      EXPECT_LE(value.number(), max) << keys[i];
      last = value.number();
    }
    std::int64_t total = 0;
    for (std::size_t i = 0; i < side["histogram"].size(); ++i) total += side["histogram"][i]["count"].integer();
    EXPECT_EQ(total, count);
  }
};

TEST_F(Latency, TheJsonCountsEveryReadAndWrite) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=4k", "count=5000", "--latency", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  const Json& latency = doc["latency"];
  // The straight copy chains its calls: each from the end of the one before.
  EXPECT_EQ(latency["definition"].string(), "system call, from the end of the one before");
  EXPECT_GT(latency["clock_cost_ns"].number(), 0);
  // 10000 calls, one in 1024 sampled: the work between them was measured.
  EXPECT_GT(latency["between_calls_ns"].number(), 0);
  EXPECT_TRUE(latency["exact"].boolean());
  expect_side(latency["read"], doc["records_in"]["full"].integer());
  expect_side(latency["write"], doc["records_out"]["full"].integer());
  EXPECT_TRUE(latency["read"]["percentiles_ns"]["99.99"].is_null()) << "5000 samples cannot support p99.99";
}

TEST_F(Latency, ACopyThatWorksBetweenCallsTimesEachCallAlone) {
  // conv=ucase translates each record between its read and its write, so
  // no call may start where the last one ended.
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=4k", "count=50", "conv=ucase", "--latency", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  EXPECT_EQ(doc["latency"]["definition"].string(), "system call");
  EXPECT_FALSE(doc["latency"].has("between_calls_ns"));
  expect_side(doc["latency"]["read"], 50);
}

TEST_F(Latency, AQueuedEngineTimesSubmitToReap) {
  write_file("in", std::string(1 << 20, 'q'));
  const Result r = ddtime({"if=in", "of=out", "bs=4k", "--iodepth=8", "--latency", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  EXPECT_EQ(doc["latency"]["definition"].string(), "submit to reap");
  expect_side(doc["latency"]["read"], 256);
  expect_side(doc["latency"]["write"], 256);
}

TEST_F(Latency, TheTextSaysWhatWasTimedThenALinePerSideThenTheHistograms) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=512", "count=2000", "--latency"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ddtime: latency per system call, from the end of the one before (ddtime's work between "
                       "calls, "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("ddtime: read  2000 I/Os: min "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("p99.9 "), std::string::npos);
  EXPECT_NE(r.err.find("p99.99 n/a"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ddtime: read latency, ns"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ddtime: write latency, ns"), std::string::npos) << r.err;
  EXPECT_LT(r.err.find("latency per"), r.err.find("2000+0 records in")) << "GNU's lines stay last";
}

TEST_F(Latency, InTheCLocaleTheBarsAreAscii) {
  Options o;
  o.args = {"if=/dev/zero", "of=/dev/null", "bs=512", "count=100", "--latency"};
  o.as_ddtime = true;
  o.locale = Locale::kC;
  const Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  for (const char c : r.err) EXPECT_LT(static_cast<unsigned char>(c), 0x80);
  EXPECT_NE(r.err.find("|****"), std::string::npos) << r.err;
}

TEST_F(Latency, EachRunOfASessionHasItsOwnFigures) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=4k", "count=300", "--repeat=2", "--latency", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  ASSERT_EQ(doc["runs"].size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) expect_side(doc["runs"][i]["latency"]["read"], 300);
}

TEST_F(Latency, ARowsRunsAreMergedInItsSummary) {
  const Result r =
      ddtime({"if=/dev/zero", "of=/dev/null", "bs=4k", "count=400", "--repeat=3", "--warmup=1", "--latency", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  ASSERT_EQ(doc["summary"].size(), 1u);
  const Json& merged = doc["summary"][0]["latency"];
  expect_side(merged["read"], 1200);  // three measured runs; the warm-up is left out
  expect_side(merged["write"], 1200);
  EXPECT_TRUE(merged["exact"].boolean());
  std::int64_t most = 0;
  for (std::size_t i = 1; i < 4; ++i) most = std::max(most, doc["runs"][i]["latency"]["read"]["max_ns"].integer());
  // Ticks become nanoseconds by each run's calibration, and the merge by
  // their mean: the same within a hair.
  EXPECT_NEAR(merged["read"]["max_ns"].number(), static_cast<double>(most), 0.01 * static_cast<double>(most));
}

// Defect 27: as dd, --latency printed nothing where --split-times printed
// the report. An option that asks for a figure by name gets it, as dd
// too; GNU's summary stays last.
TEST_F(Latency, AsDdItTurnsTheReportOnAsSplitTimesDoes) {
  const Result r = dd({"if=/dev/zero", "of=/dev/null", "bs=512", "count=10", "--latency"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("dd: latency per system call"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dd: real "), std::string::npos) << r.err;
  EXPECT_TRUE(
      r.err_masked().ends_with("10+0 records in\n10+0 records out\n5120 bytes (5.1 kB, 5.0 KiB) copied, <T> s, <R>\n"))
      << r.err;
  const Result gnu = dd({"if=/dev/zero", "of=/dev/null", "bs=512", "count=10", "--latency", "--gnu"});
  EXPECT_EQ(gnu.err_masked(), "10+0 records in\n10+0 records out\n5120 bytes (5.1 kB, 5.0 KiB) copied, <T> s, <R>\n");
}

// ---- the "measured:" line ----

TEST_F(Latency, TheMeasuredLineEndsDdtimesLinesBeforeGnusSummary) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=64k", "count=10"});
  ASSERT_STATUS(r, "exit 0");
  const std::size_t measured = r.err.find("ddtime: measured: the kernel zero-filling a 64 KiB buffer");
  ASSERT_NE(measured, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("10+0 records in"), r.err.find('\n', measured) + 1) << r.err;
}

TEST_F(Latency, AFileJustWrittenIsSaidToBeReadFromMemory) {
  write_file("in", std::string(1 << 20, 'm'));
  ASSERT_STATUS(dd({"if=in", "of=/dev/null"}), "exit 0");
  const Result r = ddtime({"if=in", "of=out", "bs=64k"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_GE(said_resident_percent(r.err, "in"), 95.0) << r.err;
  EXPECT_NE(r.err.find("; writing 'out' into the page cache, not the device: add conv=fdatasync"), std::string::npos)
      << r.err;
}

TEST_F(Latency, TheResidencyIsOfTheBytesReadNotTheWholeFile) {
  struct statfs fs {};
  ASSERT_EQ(::statfs(path("").c_str(), &fs), 0);
  if (fs.f_type == TMPFS_MAGIC) GTEST_SKIP() << "the test directory is on tmpfs, whose pages cannot be dropped";
  // The file's first MiB is cached (and what readahead brings after it);
  // its last MiB is not, and is what skip= and count= read.
  write_file("in", std::string(16 << 20, 'r'));
  ASSERT_STATUS(ddtime({"if=in", "of=/dev/null", "count=0", "--cache=cold"}), "exit 0");  // drops, copies nothing
  ASSERT_STATUS(dd({"if=in", "of=/dev/null", "bs=1M", "count=1"}), "exit 0");
  Result r = ddtime({"if=in", "of=/dev/null", "bs=1M", "skip=15", "count=1"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("reading 'in', 0.0% of the data read in the page cache before the run;"), std::string::npos)
      << r.err;
  r = ddtime({"if=in", "of=/dev/null", "bs=1M", "count=1"});
  EXPECT_GE(said_resident_percent(r.err, "in"), 95.0) << "the first MiB, just read: " << r.err;
}

// The largest cache sysfs describes for CPU 0, in bytes ("260M", "48K").
std::int64_t last_level_cache_bytes() {
  std::int64_t largest = 0;
  for (const auto& index : std::filesystem::directory_iterator("/sys/devices/system/cpu/cpu0/cache")) {
    std::ifstream in(index.path() / "size");
    std::int64_t value = 0;
    char unit = 0;
    if (!(in >> value)) continue;
    in >> unit;
    const std::int64_t scale = unit == 'K' ? 1 << 10 : unit == 'M' ? 1 << 20 : unit == 'G' ? 1 << 30 : 1;
    largest = std::max(largest, value * scale);
  }
  return largest;
}

TEST_F(Latency, TheMemorySweepLabelsEachRowWithTheLevelItFits) {
  if (!std::filesystem::exists("/sys/devices/system/cpu/cpu0/cache/index0")) {
    GTEST_SKIP() << "this machine's sysfs does not describe its CPU caches";
  }
  // A size past the last-level cache, whatever this machine's (a server's
  // L3 can hold 260 MiB): the rows beyond it are memory's.
  std::int64_t size = 64 << 20;
  while (size <= last_level_cache_bytes()) size *= 2;
  Options options = opts({"--sweep=bs=memory", "--size=" + std::to_string(size)});
  options.as_ddtime = true;
  options.timeout = 120s;  // each row moves the whole size, up to a GiB on a server
  const Result r = run(std::move(options));
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find(" bs fits   depth "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("     4k L1 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" memory "), std::string::npos) << "rows beyond the last-level cache\n" << r.err;
}

// Defect 14: a row whose block outgrows what every row moves copies one
// short record, and its label describes a buffer never filled.
TEST_F(Latency, TheMemorySweepStopsWhereTheBlockOutgrowsTheSize) {
  const Result r = ddtime({"--sweep=bs=memory", "--size=1M", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const support::Json doc = support::parse_json(r.err);
  const support::Json& sizes = doc["plan"]["sweep"]["bs"];
  ASSERT_GT(sizes.size(), 0u);
  EXPECT_EQ(sizes[sizes.size() - 1].integer(), 1 << 20) << "4k to 1M, no row beyond --size";
  for (std::size_t i = 0; i < doc["runs"].size(); ++i) {
    EXPECT_EQ(doc["runs"][i]["records_in"]["partial"].integer(), 0) << "every row's records whole";
  }
}

TEST_F(Latency, TheMemorySweepIsZeroToNullOnly) {
  const Result r = ddtime({"if=/dev/zero", "--sweep=bs=memory"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: --sweep=bs=memory copies /dev/zero to /dev/null; it takes no if=, of= or --pattern\n");
}

}  // namespace
}  // namespace ddtime::e2e
