// SPDX-License-Identifier: GPL-3.0-or-later
// Where ddtime's options meet each other and dd's operands (issue 19):
// each test is a defect a new user found, named by its number in the
// review, and what the rules of issue 19 make of it instead.
#include <linux/magic.h>
#include <sys/statfs.h>

#include <csignal>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "e2e/harness.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::parse_json;

class Combinations : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
    input_.resize(1000000);
    for (std::size_t i = 0; i < input_.size(); ++i) input_[i] = static_cast<char>((i * 7919) >> 5);
    write_file("r1m", input_);
  }
  bool on_tmpfs() const {
    struct statfs fs {};
    return ::statfs(dir().c_str(), &fs) == 0 && fs.f_type == TMPFS_MAGIC;
  }
  static std::size_t count(const std::string& text, const std::string& pattern) {
    const std::regex re(pattern, std::regex::multiline);
    return static_cast<std::size_t>(
        std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
  }
  std::string input_;
};

// Defect 7: the read pass added iflag=direct and refused its own count=
// for a size that is no multiple of the alignment, naming r1m.
TEST_F(Combinations, ReadbackOfADirectWriteWithAPartialLastBlock) {
  const Result r = ddtime({"if=r1m", "of=vout", "bs=4k", "oflag=direct", "--verify"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count(r.err,
                  "^ddtime: read: through the page cache, its pages dropped first: 1000000 B from offset 0 "
                  "is no multiple of 'vout''s direct I/O alignment \\d+$"),
            1u)
      << r.err;
  EXPECT_NE(r.err.find("ddtime: verify: ok, "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("count="), std::string::npos) << r.err;
  EXPECT_TRUE(read_file("vout") == input_);
}

// Defect 8: --verify read back and compared from offset 0 under
// oflag=append, and called a correct file corrupt.
TEST_F(Combinations, VerifyUnderAppendReadsFromWhereTheBytesWent) {
  write_file("ex", std::string(1000, 'x'));
  const Result r = ddtime({"if=r1m", "of=ex", "oflag=append", "conv=notrunc", "bs=4k", "--verify", "--json=v.json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(read_file("ex") == std::string(1000, 'x') + input_);
  const Json doc = parse_json(read_file("v.json"));
  EXPECT_EQ(doc["runs"][1]["verify"].string(), "ok");
  EXPECT_EQ(doc["runs"][1]["operands"]["skip"]["records"].integer() * 4096 +
                doc["runs"][1]["operands"]["skip"]["bytes"].integer(),
            1000)
      << "the read pass starts at the old end of the file";
}

// Defect 22: a message about a count's last read named count= when the
// user gave --size.
TEST_F(Combinations, AnUnalignedSizeNamesSize) {
  if (on_tmpfs()) GTEST_SKIP() << "tmpfs states no direct I/O alignment";
  const Result r = ddtime({"if=r1m", "of=o", "bs=4k", "--size=100", "iflag=direct", "--iodepth=4"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_TRUE(std::regex_match(r.err, std::regex("ddtime: --size leaves a last read of 100 bytes, which is not a "
                                                 "multiple of r1m's direct I/O alignment \\d+\\n")))
      << r.err;
  EXPECT_FALSE(exists("o")) << "refused before anything is opened for writing";
}

// Defect 23: with --json on stderr a refusal was plain text, and an empty
// PATH silently meant stderr.
TEST_F(Combinations, UnderJsonARefusalIsJsonAndAnEmptyPathIsAnError) {
  Result r = ddtime({"if=r1m", "of=/dev/null", "--iodepth=4", "conv=sync", "--json"});
  EXPECT_STATUS(r, "exit 1");
  const Json doc = parse_json(r.err);
  EXPECT_TRUE(doc["refused"].boolean());
  EXPECT_EQ(doc["errors"].strings(), std::vector<std::string>{"--iodepth=4 does not combine with conv=sync"});
  r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=4k", "count=10", "--json="});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: invalid argument \u2018\u2019 for \u2018--json\u2019\n"
            "A PATH names the file the report goes to; --json alone puts it on standard error in place of the text.\n"
            "Try 'ddtime --help' for more information.\n");
  r = ddtime({"if=/dev/zero", "of=/dev/null", "count=1", "--csv=", "--repeat=2"});
  EXPECT_STATUS(r, "exit 1");
}

// Defect 13: a run that failed partway was counted in the statistics.
TEST_F(Combinations, AFailedRunIsListedAndNotCounted) {
  Options o = opts({"if=r1m", "of=xa", "bs=64k", "oflag=append", "conv=notrunc", "--repeat=3", "--json=s.json"});
  o.as_ddtime = true;
  // 3000 blocks of 512 bytes: room for one run's 1000000 bytes, not two.
  o.run_under = {"/bin/sh", "-c", "ulimit -f 3000 && exec \"$0\" \"$@\""};
  o.ignored_signals = {SIGXFSZ};
  const Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(count(r.err, "run 2 of 3: .* \\(failed: not counted\\)$"), 1u) << r.err;
  const Json doc = parse_json(read_file("s.json"));
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_TRUE(doc["runs"][0]["counted"].boolean());
  EXPECT_FALSE(doc["runs"][1]["counted"].boolean());
  ASSERT_EQ(doc["summary"].size(), 1u);
  EXPECT_EQ(doc["summary"][0]["runs"].integer(), 1) << "the failed run is no sample";
}

// Defect 18: sessions dropped --units and --split-times.
TEST_F(Combinations, ASessionHonoursUnitsAndSplitTimes) {
  const Result r = ddtime({"if=r1m", "of=/dev/null", "bs=64k", "--units=si", "--split-times", "--repeat=2"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count(r.err, "^ddtime: run [12] of 2: .* [0-9.]+ [kMG]?B/s  read " + kDuration + "  write " + kDuration +
                             "  other " + kDuration + "$"),
            2u)
      << r.err;
  EXPECT_EQ(count(r.err, "^ddtime: rate +[0-9.]+ [kMG]?B/s "), 1u) << r.err;
}

// Defect 18: --readback dropped --latency, --cache and --split-times.
TEST_F(Combinations, ReadbackHonoursLatencyCacheAndSplitTimes) {
  if (on_tmpfs()) GTEST_SKIP() << "tmpfs's pages cannot be dropped";
  const Result r = ddtime(
      {"if=r1m", "of=o", "bs=64k", "--readback", "--cache=cold", "--latency", "--split-times", "--json=rl.json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count(r.err, "^ddtime: cache cold: input 0\\.0% resident"), 1u) << r.err;
  EXPECT_EQ(count(r.err, "^ddtime: latency per "), 2u) << "one report per pass\n" << r.err;
  EXPECT_EQ(count(r.err, "^ddtime: (write|read): .*  read " + kDuration + "  write " + kDuration + "  other " +
                             kDuration + "$"),
            2u)
      << r.err;
  const Json doc = parse_json(read_file("rl.json"));
  EXPECT_EQ(doc["runs"][0]["cache"].string(), "cold");
  EXPECT_EQ(doc["runs"][0]["residency"]["input"]["resident_pages"].integer(), 0);
}

// Defects 10 and 24: the measured line was taken before --cache acted, and
// residency was of the whole file, not of what the copy reads.
TEST_F(Combinations, TheMeasuredLineAndTheCacheLineTellOfTheRangeAfterCacheActed) {
  if (on_tmpfs()) GTEST_SKIP() << "tmpfs's pages cannot be dropped";
  write_file("r64m", std::string(64 << 20, 'm'));
  ASSERT_STATUS(dd({"if=r64m", "of=/dev/null", "bs=1M"}), "exit 0");  // all cached
  Result r = ddtime({"if=r64m", "of=/dev/null", "bs=1M", "count=8", "--cache=cold"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("reading 'r64m', 0.0% of the data read in the page cache before the run"), std::string::npos)
      << r.err;
  r = ddtime({"if=r64m", "of=/dev/null", "bs=1M", "count=8", "skip=16", "--cache=warm"});
  ASSERT_STATUS(r, "exit 0");
  // Warmed, the range is cached but for the page or two this machine's
  // kernel may let go (harness.h, said_resident_percent).
  std::smatch warm;
  ASSERT_TRUE(std::regex_search(r.err, warm,
                                std::regex(R"(ddtime: cache warm: input \d+\.\d% resident \((\d+) of )"
                                           R"(the 2048 pages it reads\))")))
      << r.err;
  EXPECT_GE(std::stoi(warm[1].str()), 2048 * 95 / 100) << r.err;
  EXPECT_GE(said_resident_percent(r.err, "r64m"), 95.0) << r.err;
}

// Defect 16: after a sweep the measured line described the first row,
// while GNU's summary below it was the last row's.
TEST_F(Combinations, AfterASweepTheMeasuredLineIsOfTheLastRowAndSaysSo) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "--sweep=bs=1M,4k", "--size=8M"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count(r.err,
                  "^ddtime: measured \\(bs=4k depth 1, the row of GNU's lines below\\): the kernel "
                  "zero-filling a 4 KiB buffer"),
            1u)
      << r.err;
  EXPECT_NE(r.err.find("2048+0 records in"), std::string::npos) << r.err;
}

// Defect 15: --direct did not reach the measured line, which said the
// reads came from memory.
TEST_F(Combinations, DirectReachesTheMeasuredLine) {
  if (on_tmpfs()) GTEST_SKIP() << "tmpfs takes no O_DIRECT";
  const Result r = ddtime({"if=r1m", "of=/dev/null", "bs=4k", "--direct"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ddtime: measured: reading 'r1m' with O_DIRECT, past the page cache"), std::string::npos)
      << r.err;
}

// Defect 27: with --csv on stderr a SIGUSR1 printed nothing, where --json
// gives a snapshot.
TEST_F(Combinations, Usr1UnderCsvGivesACsvSnapshot) {
  // /dev/zero with a count long enough that the signal is sent while the
  // first run is under way.
  Options z = opts({"if=/dev/zero", "of=/dev/null", "bs=512", "count=400000", "--csv", "--repeat=2"});
  z.as_ddtime = true;
  z.timeout = 30000ms;
  DdProcess p(z);
  ASSERT_TRUE(wait_for_handler(p.pid(), SIGUSR1));
  std::this_thread::sleep_for(50ms);
  p.send_signal(SIGUSR1);
  const Result r = p.finish();
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(count(r.err, "^512,1,snapshot,"), 1u) << r.err;
  EXPECT_EQ(count(r.err, "^512,1,copy,"), 2u) << r.err;
  EXPECT_EQ(count(r.err, "^bs,iodepth,pass,"), 1u) << "one table, one header: " << r.err;
}

// Found trying --csv as dd: the CPU columns were 0, as dd measured no CPU
// time; a figure not measured is never 0, and CSV asks for this one.
TEST_F(Combinations, CsvAsDdHasTheCpuTimeOfTheRun) {
  const Result r = dd({"if=/dev/zero", "of=/dev/null", "bs=1M", "count=2000", "--csv"});
  ASSERT_STATUS(r, "exit 0");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.err, m, std::regex("\n1048576,1,copy,1,false,as-is,2097152000,2000,[0-9.]+,([0-9.]+),([0-9.]+),")))
      << r.err;
  EXPECT_GT(std::stod(m[1]) + std::stod(m[2]), 0.0) << r.err;
}

// Found by the combination test: a sweep row that counted seek= in a
// block larger than the seek had no whole output block of seek, so it
// emptied of= as GNU does for oflag=seek_bytes, and the bytes before
// seek= that the command line keeps were lost; the reverse held for
// bytes the command line empties.
TEST_F(Combinations, EverySweepRowCutsTheOutputAsTheCommandLineDoes) {
  write_file("kept", std::string(5000, 'k'));
  const Result kept = ddtime({"if=r1m", "of=kept", "bs=1000", "seek=2", "count=3", "--sweep=bs=1000,64k"});
  ASSERT_STATUS(kept, "exit 0");
  EXPECT_TRUE(read_file("kept") == std::string(2000, 'k') + input_.substr(0, 3000))
      << "the bytes before seek=2 are kept at every row";

  write_file("emptied", std::string(20000, 'e'));
  const Result emptied =
      ddtime({"if=r1m", "of=emptied", "bs=16k", "seek=8192", "oflag=seek_bytes", "count=1", "--sweep=bs=16k,4k"});
  ASSERT_STATUS(emptied, "exit 0");
  EXPECT_TRUE(read_file("emptied") == std::string(8192, '\0') + input_.substr(0, 16384))
      << "bs=16k has no whole block in seek=8192 bytes, so of= is emptied at every row";
}

// Found by the combination test: invoked as dd, a session printed GNU's
// lines for every run but the one a SIGINT stopped, where GNU's dd prints
// them before it dies.
TEST_F(Combinations, AsDdARunStoppedBySigintPrintsGnusLines) {
  Options z = opts({"if=/dev/zero", "of=/dev/null", "bs=512", "count=40000000", "--repeat=3"});
  z.timeout = 30000ms;
  DdProcess p(z);
  ASSERT_TRUE(wait_for_handler(p.pid(), SIGINT));
  std::this_thread::sleep_for(50ms);
  p.send_signal(SIGINT);
  const Result r = p.finish();
  ASSERT_STATUS(r, "signal SIGINT");
  EXPECT_EQ(count(r.err, "^\\d+\\+0 records in\n\\d+\\+0 records out\n\\d+ bytes .* copied, "), 1u) << r.err;
}

}  // namespace
}  // namespace ddtime::e2e
