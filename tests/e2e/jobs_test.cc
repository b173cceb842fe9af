// SPDX-License-Identifier: GPL-3.0-or-later
// --jobs=N: N submitters share the range, each with its own ring. A copy
// stays a copy: of= ends byte for byte as one job's copy (and GNU dd's)
// leaves it, with the same records lines and status, in turn or at
// random, with io_uring and the thread pool; a timed run's jobs go round
// their parts; more jobs than records run as many as there are records;
// an error is said once and ends every job; the report says how the jobs
// went; what cannot take offsets of its own, or another option cannot
// take, is refused before anything is written.

#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <fstream>
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

const CopyCase kCases[] = {
    {"Bs4kEndsShort", {"bs=4096"}},
    {"SkipAndCountInBlocks", {"bs=64K", "skip=3", "count=7"}},
    {"SeekIntoAnExistingFileUnderNotrunc", {"bs=4096", "seek=9", "count=20", "conv=notrunc"}, true},
    {"SkipAndCountInBytes", {"bs=4096", "iflag=skip_bytes,count_bytes", "skip=1000", "count=50000"}},
    {"CountPastTheEnd", {"bs=16K", "count=1000"}},
    {"DirectBothWithSeekAndCount", {"bs=4096", "iflag=direct", "oflag=direct", "seek=3", "count=33"}},
};

class Jobs : public CopyCaseTest {
 protected:
  void SetUp() override {
    CopyCaseTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }
};

TEST_F(Jobs, ACopyEndsAsOneJobsCopyAtEveryJobCountEngineAndOrder) {
  for (const CopyCase& c : kCases) {
    const Copy one = copy(c, {});
    ASSERT_STATUS(one.result, "exit 0") << c.name;
    for (const char* jobs : {"--jobs=2", "--jobs=3", "--jobs=16"}) {
      for (const char* engine : {"--engine=io_uring", "--engine=threads", "--engine=libaio"}) {
        for (const char* order : {"--iodepth=4", "--random=7"}) {
          SCOPED_TRACE(std::string(c.name) + " " + jobs + " " + engine + " " + order);
          const Copy shared = copy(c, {jobs, engine, order});
          EXPECT_EQ(shared.result.status(), one.result.status()) << shared.result;
          EXPECT_EQ(shared.result.err_masked(), one.result.err_masked());
          EXPECT_TRUE(shared.output == one.output)
              << "output differs: " << shared.output.size() << " against " << one.output.size() << " bytes";
        }
      }
    }
  }
}

// Every job count the issue asks for, 1 to 16, on the case with a skip,
// a count and a partial last part: the same copy, records and status.
TEST_F(Jobs, EveryJobCountFromOneToSixteenLeavesOneJobsCopy) {
  // bs=64K skip=3 count=7 (fewer records than jobs, from 8 on), and skip
  // and count in bytes (a partial last record).
  for (const CopyCase* each : {&kCases[1], &kCases[3]}) {
    const Copy one = copy(*each, {});
    ASSERT_STATUS(one.result, "exit 0") << each->name;
    for (int jobs = 1; jobs <= 16; ++jobs) {
      SCOPED_TRACE(std::string(each->name) + " --jobs=" + std::to_string(jobs));
      const Copy shared = copy(*each, {"--jobs=" + std::to_string(jobs), "--iodepth=2"});
      EXPECT_EQ(shared.result.status(), one.result.status()) << shared.result;
      EXPECT_EQ(shared.result.err_masked(), one.result.err_masked());
      EXPECT_TRUE(shared.output == one.output)
          << "output differs: " << shared.output.size() << " against " << one.output.size() << " bytes";
    }
  }
}

TEST_F(Jobs, TheReportSaysHowManyJobsRanHowFarApartTheyEndedAndTheCpuPerIo) {
  const Result r = ddtime({"if=in", "of=out", "bs=4096", "--jobs=4"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(
      std::regex_search(r.err, std::regex(R"(: jobs 4, the last ended \d+\.\d ms after the first; submitters \d+% busy)"
                                          R"((: CPU-limited, more jobs may help)?; \d+\.\d\d us CPU per I/O\n)")))
      << r.err;
  EXPECT_TRUE(read_file("out") == input_);
}

TEST_F(Jobs, MoreJobsThanRecordsRunOneJobARecord) {
  const Result r = ddtime({"if=in", "of=out", "bs=4096", "count=3", "--jobs=8", "--json=report.json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find(": jobs 3 of 8 asked (the range has 3 records)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3+0 records in\n3+0 records out\n"), std::string::npos) << r.err;
  const Json jobs = parse_json(read_file("report.json"))["engine"]["jobs"];
  EXPECT_EQ(jobs["asked"].integer(), 8);
  EXPECT_EQ(jobs["ran"].integer(), 3);
  EXPECT_TRUE(jobs.has("cpu_limited"));
  EXPECT_TRUE(read_file("out") == input_.substr(0, 3 * 4096));
}

// More jobs than records: the jobs that ran had no more to take, so a busy
// submitter says nothing about more jobs; and the record count is the
// range's, not the jobs'.
TEST_F(Jobs, FewerRecordsThanJobsGiveNoAdviceAndTheRangesOwnRecordCount) {
  const Result r = ddtime({"if=in", "of=/dev/null", "bs=4096", "count=3", "--jobs=8", "--json=report.json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err.find("more jobs may help"), std::string::npos) << r.err;
  EXPECT_FALSE(parse_json(read_file("report.json"))["engine"]["jobs"]["cpu_limited"].boolean());
  const Result nine = ddtime({"if=in", "of=/dev/null", "bs=4096", "count=9", "--jobs=6"});
  ASSERT_STATUS(nine, "exit 0");
  EXPECT_NE(nine.err.find(": jobs 5 of 6 asked (the range has 9 records)"), std::string::npos) << nine.err;
}

// count=0: no record, no I/O. The report says the range has none, and the
// JSON gives null, never 0.0, for what one job and no I/O cannot measure.
TEST_F(Jobs, AnEmptyRangeSaysItHasNoRecordAndLeavesTheUnmeasuredNull) {
  const Result r = ddtime({"if=in", "of=/dev/null", "bs=4096", "count=0", "--jobs=4", "--json=report.json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("(the range has 0 records)"), std::string::npos) << r.err;
  const Json jobs = parse_json(read_file("report.json"))["engine"]["jobs"];
  EXPECT_TRUE(jobs["submitters_busy"].is_null());
  EXPECT_TRUE(jobs["cpu_per_io_s"].is_null());
  EXPECT_TRUE(jobs["spread_s"].is_null());
}

// With io_uring the CPU above 100% is the job threads' first: the line
// names them, not io_uring's kernel workers.
TEST_F(Jobs, TheCpuFigureNamesTheJobThreads) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=4096", "--time=200ms", "--jobs=2", "--engine=io_uring"});
  ASSERT_STATUS(r, "exit 0");
  if (r.err.find("engine io_uring") == std::string::npos) GTEST_SKIP() << "io_uring is not available here";
  EXPECT_NE(r.err.find(" over 2 job threads"), std::string::npos) << r.err;
}

TEST_F(Jobs, ATimedRunsJobsGoRoundTheirPartsAndLeaveTheRangesBlocks) {
  for (const char* order : {"--iodepth=2", "--random=5"}) {
    SCOPED_TRACE(order);
    const Result r = ddtime({"if=in", "of=out", "bs=4096", "count=10", "--jobs=3", "--time=150ms", order});
    ASSERT_STATUS(r, "exit 0");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"((\d+)\+0 records in\n(\d+)\+0 records out\n(\d+) bytes)")))
        << r.err;
    EXPECT_GT(std::stoll(m[1]), 30) << "more than three passes in 150 ms";
    EXPECT_EQ(m[1], m[2]);
    EXPECT_EQ(std::stoll(m[3]), std::stoll(m[2]) * 4096);
    EXPECT_TRUE(read_file("out") == input_.substr(0, 10 * 4096));
  }
}

// A timed run that ends inside its first pass keeps every block it wrote,
// each in its place, however far the jobs' parts (or --random's order)
// took it: the blocks not written yet are holes in the new file. Before,
// the file was cut at the bytes moved, and blocks written past that went.
TEST_F(Jobs, ATimedRunEndingInItsFirstPassKeepsEveryBlockItWrote) {
  const std::string big = pattern(32 << 20, 5);
  write_file("big", big);
  for (const std::vector<std::string>& how :
       {std::vector<std::string>{"--jobs=3", "--iodepth=2"}, std::vector<std::string>{"--jobs=1", "--random=9"},
        std::vector<std::string>{"--jobs=4", "--random=9"}}) {
    SCOPED_TRACE(how[0] + " " + how[1]);
    ::unlink((dir() / "new").c_str());
    std::vector<std::string> args = {"if=big", "of=new", "bs=512", "--time=20ms"};
    args.insert(args.end(), how.begin(), how.end());
    const Result r = ddtime(args);
    ASSERT_STATUS(r, "exit 0");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"(\n(\d+)\+0 records out\n)"))) << r.err;
    const std::int64_t written = std::stoll(m[1]);
    ASSERT_LT(written, std::int64_t{32 << 20} / 512) << "the first pass ended inside 20 ms: nothing tested";
    const std::string out = read_file("new");
    const std::string hole(512, '\0');
    std::int64_t copied = 0;
    for (std::size_t at = 0; at < out.size(); at += 512) {
      const std::string block = out.substr(at, 512);
      if (block == big.substr(at, block.size())) {
        ++copied;
      } else {
        ASSERT_EQ(block, hole.substr(0, block.size())) << "block " << at / 512 << " is neither the copy's nor a hole";
      }
    }
    EXPECT_EQ(copied, written) << "every block written is in of=, in its place";
  }
}

// SIGINT ends a run of many jobs deep in flight, with either engine: by
// the signal, the statistics printed once. (The bound is generous: the
// stop's speed is a benchmark's to measure, not a loaded machine's test.)
TEST_F(Jobs, SigintEndsManyJobsDeepInFlightByTheSignalWithTheStatistics) {
  for (const std::vector<std::string>& shape :
       {std::vector<std::string>{"bs=4096", "--jobs=64", "--iodepth=1024", "--engine=io_uring"},
        std::vector<std::string>{"bs=1M", "--jobs=8", "--iodepth=64", "--engine=threads"}}) {
    std::vector<std::string> args{"if=/dev/zero", "of=/dev/null", "--time=30s"};
    args.insert(args.end(), shape.begin(), shape.end());
    SCOPED_TRACE(shape[1] + " " + shape[2] + " " + shape[3]);
    Options o = opts(args);
    o.as_ddtime = true;
    o.timeout = 60000ms;
    DdProcess p(o);
    ASSERT_TRUE(wait_for_handler(p.pid(), SIGINT));
    std::this_thread::sleep_for(1000ms);
    const auto sent = std::chrono::steady_clock::now();
    p.send_signal(SIGINT);
    const Result r = p.finish();
    const auto took = std::chrono::steady_clock::now() - sent;
    if (r.err.find("engine io_uring") == std::string::npos && shape[3] == "--engine=io_uring") {
      GTEST_SKIP() << "io_uring is not available here";
    }
    EXPECT_STATUS(r, "signal SIGINT");
    EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(\d+\+0 records in\n\d+\+0 records out\n)"))) << r.err;
    EXPECT_LT(took, std::chrono::seconds(10)) << "the run went on after SIGINT";
  }
}

TEST_F(Jobs, AnEndlessCopyToDevNullSharesTheRecordsAmongTheJobs) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=64k", "--jobs=2", "--time=100ms"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find(": jobs 2, the last ended"), std::string::npos) << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(\n(\d+)\+0 records in\n\1\+0 records out\n)"))) << r.err;
}

// The range's partial record goes through the page cache; written while
// another job's O_DIRECT write to the same page was in flight, the kernel
// failed the dirty page's invalidation and the fsync after it with EIO
// (26 runs in 100 on ext4 before job 0 took over the other jobs' tails).
TEST_F(Jobs, ADirectCopyWithAPartialRecordEndsCleanEveryTime) {
  const std::string small = pattern(20 * 512 + 100, 8);
  write_file("small", small);
  const Result probe = ddtime({"if=small", "of=probe", "bs=512", "count=1", "oflag=direct"});
  if (probe.status() != "exit 0" && probe.err.find("Invalid argument") != std::string::npos) {
    GTEST_SKIP() << "the test directory's file system refuses O_DIRECT: " << probe.err;
  }
  for (int run = 0; run < 40; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    ::unlink((dir() / "out").c_str());
    const Result r = ddtime({"if=small", "of=out", "bs=512", "oflag=direct", "--jobs=16", "--iodepth=2"});
    ASSERT_STATUS(r, "exit 0");
    ASSERT_TRUE(read_file("out") == small);
  }
}

TEST_F(Jobs, AWriteErrorIsSaidOnceAndEndsEveryJob) {
  const Result r = ddtime({"if=in", "of=/dev/full", "bs=4096", "count=200", "--jobs=4", "--iodepth=2"});
  EXPECT_STATUS(r, "exit 1");
  const std::string said = "error writing '/dev/full': No space left on device";
  const std::size_t first = r.err.find(said);
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(said, first + 1), std::string::npos) << "said once: " << r.err;
  EXPECT_NE(r.err.find("+0 records out\n0 bytes copied"), std::string::npos) << r.err;
}

// Each job times its own I/Os; the report holds every job's, one sample
// per read and per write, whichever job made it.
TEST_F(Jobs, LatencyCountsEveryJobsReadsAndWritesInOneReport) {
  for (const char* engine : {"--engine=io_uring", "--engine=threads"}) {
    SCOPED_TRACE(engine);
    const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=4096", "count=30000", "--jobs=3", "--iodepth=4",
                             engine, "--latency", "--json=l.json"});
    ASSERT_STATUS(r, "exit 0");
    EXPECT_NE(r.err.find("30000+0 records in\n30000+0 records out\n"), std::string::npos) << r.err;
    const Json doc = parse_json(read_file("l.json"));
    const Json& latency = doc["latency"];
    EXPECT_EQ(latency["definition"].string(), "submit to reap");
    EXPECT_EQ(latency["read"]["count"].integer(), 30000);
    EXPECT_EQ(latency["write"]["count"].integer(), 30000);
    EXPECT_TRUE(latency["exact"].boolean()) << "each job's share of the samples was kept";
    EXPECT_GT(latency["read"]["percentiles_ns"]["99"].integer(), 0);
  }
}

// --ramp's samples are forgotten by every job, not only job 0: the
// samples kept are the measured part's, exactly as many as the records it
// counted (a read in flight at the ramp's end counts in the measurement,
// and so does its sample).
TEST_F(Jobs, EveryJobForgetsItsLatencySamplesFromTheRamp) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=4096", "--size=4M", "--jobs=4", "--iodepth=2",
                           "--time=600ms", "--ramp=300ms", "--latency", "--json=l.json"});
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(read_file("l.json"));
  const std::int64_t measured = doc["records_in"]["full"].integer();
  const std::int64_t sampled = doc["latency"]["read"]["count"].integer();
  EXPECT_GT(doc["time"]["ramp"]["records"].integer(), 0) << "the ramp moved records";
  EXPECT_EQ(sampled, measured) << sampled << " samples, " << measured << " records measured";
}

// Latency samples per side equal the records per side after a ramp, with
// either engine, at depth 1 and 8, with one job and two, from /dev/zero
// and from a file.
TEST_F(Jobs, LatencySamplesEqualTheRecordsAfterARampInEveryCombination) {
  for (const char* engine : {"--engine=io_uring", "--engine=threads"}) {
    for (const char* depth : {"--iodepth=1", "--iodepth=8"}) {
      for (const char* jobs : {"--jobs=1", "--jobs=2"}) {
        for (const bool zero : {true, false}) {
          SCOPED_TRACE(std::string(engine) + " " + depth + " " + jobs + (zero ? " zero" : " file"));
          const Result r = ddtime({zero ? "if=/dev/zero" : "if=in", zero ? "of=/dev/null" : "of=out", "bs=4096", engine,
                                   depth, jobs, "--time=150ms", "--ramp=50ms", "--latency", "--json=l.json"});
          ASSERT_STATUS(r, "exit 0");
          const Json doc = parse_json(read_file("l.json"));
          const std::int64_t in = doc["records_in"]["full"].integer() + doc["records_in"]["partial"].integer();
          const std::int64_t out = doc["records_out"]["full"].integer() + doc["records_out"]["partial"].integer();
          EXPECT_EQ(doc["latency"]["read"]["count"].integer(), in);
          EXPECT_EQ(doc["latency"]["write"]["count"].integer(), out);
        }
      }
    }
  }
}

TEST_F(Jobs, WhatCannotTakeOffsetsOrJobsIsRefusedBeforeAnythingIsWritten) {
  expect_refused({"if=in", "of=new", "bs=4096", "--jobs=2", "--engine=sync"},
                 "--engine=sync is one loop in one thread; it does not combine with --jobs=2");
  expect_refused({"if=in", "of=new", "bs=4096", "--jobs=2", "oflag=append", "conv=notrunc"},
                 "--jobs writes each job's part at its own offsets: it does not combine with oflag=append");
  expect_refused({"if=in", "of=new", "bs=4096", "--jobs=2", "conv=ucase"}, "--jobs=2 does not combine with conv=ucase");
  expect_refused({"if=in", "of=new", "ibs=4096", "obs=512", "--jobs=2"}, "--jobs=2 needs bs=, not ibs= and obs=");
  expect_refused({"if=in", "of=new", "bs=4096", "--jobs=0"}, "The jobs are a whole number from 1 to 64.");
  expect_refused({"if=in", "of=new", "bs=4096", "--jobs=65"}, "The jobs are a whole number from 1 to 64.");
  Options o = opts({"of=new", "bs=4096", "--jobs=2"});
  o.in = Stdin::chunked({"from a pipe"});
  o.as_ddtime = true;
  ::unlink((dir() / "new").c_str());
  const Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(
      r.err.find("--jobs=2 reads each job's part at its own offsets, which ‘standard input’ cannot take: it is a pipe"),
      std::string::npos)
      << r.err;
}

// Rule 3 of issue 28 (defect A6): 64 jobs of 1024 threads each is more than
// any machine here allows (pid_max); it was accepted, spent seconds starting
// threads and then failed with of= already emptied. It is refused before
// anything is opened, naming the product and the limit.
TEST_F(Jobs, MoreThreadsThanTheMachineAllowsAreRefusedBeforeAnythingIsOpened) {
  std::ifstream pid_max_file("/proc/sys/kernel/pid_max");
  long pid_max = 0;
  pid_max_file >> pid_max;
  if (pid_max <= 0 || pid_max >= 64 * 1024 + 64) GTEST_SKIP() << "pid_max allows 64 x 1024 threads here";
  write_file("kept", "what the user had");
  // 4 GiB: every job's part has more records than the depth.
  Options o = opts({"if=/dev/zero", "of=kept", "bs=4k", "count=1M", "--jobs=64", "--iodepth=1024", "--engine=threads"});
  o.as_ddtime = true;
  const Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("--jobs=64 x --iodepth=1024 on the threads engine is 65599 threads, and "), std::string::npos)
      << r.err;
  EXPECT_EQ(read_file("kept"), "what the user had");
}

// Rule 3 of issue 28 for --engine=libaio: 64 contexts of 1024 take more
// of fs.aio-max-nr (65536 by default) than there is; io_setup would refuse
// one only after of= was emptied. Refused before anything is opened.
TEST_F(Jobs, MoreLinuxAioEventsThanTheKernelAllowsAreRefusedBeforeAnythingIsOpened) {
  std::ifstream max_file("/proc/sys/fs/aio-max-nr");
  long aio_max = 0;
  max_file >> aio_max;
  if (aio_max <= 0 || aio_max >= 2 * 64 * 1024) GTEST_SKIP() << "fs.aio-max-nr allows 64 x 1024 x 2 events here";
  write_file("kept", "what the user had");
  Options o = opts({"if=/dev/zero", "of=kept", "bs=4k", "count=1M", "--jobs=64", "--iodepth=1024", "--engine=libaio"});
  o.as_ddtime = true;
  const Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("--jobs=64 x --iodepth=1024 on the libaio engine is 131072 Linux AIO events"), std::string::npos)
      << r.err;
  EXPECT_EQ(read_file("kept"), "what the user had");
}

// Issue 28, rule 3, and the locked-memory limit: a process without
// CAP_IPC_LOCK pays for each io_uring's own memory out of RLIMIT_MEMLOCK
// (on recent kernels), as for registered buffers. Every job's ring is set
// up before any job's buffers are registered, so one job's buffers no
// longer crowd out the other jobs' rings (the jobs whose rings no longer
// fit ran on the threads engine instead, 256 threads each);
// past the limit the run is refused, naming the limit, not shared out
// between two engines.
Options under_memlock(Options o, const char* limit) {
  o.run_under = {"/usr/bin/prlimit", std::string("--memlock=") + limit + ":" + limit};
  if (::geteuid() == 0) {
    // root's CAP_IPC_LOCK would lift the limit: dropped from the bounding
    // set, it is gone once the program is executed.
    for (const char* arg : {"/usr/bin/setpriv", "--bounding-set=-ipc_lock", "--inh-caps=-ipc_lock"}) {
      o.run_under.emplace_back(arg);
    }
  }
  o.as_ddtime = true;
  o.timeout = 30000ms;
  return o;
}

bool memlock_tools_missing() {
  return ::access("/usr/bin/prlimit", X_OK) != 0 || (::geteuid() == 0 && ::access("/usr/bin/setpriv", X_OK) != 0);
}

// One test, not two: the kernel counts the locked memory per user, so two
// such runs side by side (ctest -j2) would eat into each other's limit.
TEST_F(Jobs, EveryJobsRingFitsBeforeAnyBufferAndRingsPastTheLimitAreRefusedNamingIt) {
  if (memlock_tools_missing()) GTEST_SKIP() << "needs prlimit and setpriv (util-linux)";
  // 48 rings of depth 256 fit in 2 MiB, but not after job 0's 1 MiB of
  // buffers, which were registered first.
  const Result fits = run(under_memlock(
      opts({"if=/dev/zero", "of=/dev/null", "bs=4096", "count=20000", "--jobs=48", "--iodepth=256"}), "2097152"));
  if (fits.err.find("engine io_uring") == std::string::npos && fits.err.find("io_uring set up") == std::string::npos) {
    GTEST_SKIP() << "io_uring is not available here: " << fits.err;
  }
  ASSERT_STATUS(fits, "exit 0");
  EXPECT_NE(fits.err.find(": engine io_uring, depth 256"), std::string::npos) << fits.err;
  EXPECT_EQ(fits.err.find("refused"), std::string::npos) << fits.err;
  EXPECT_NE(fits.err.find("\n20000+0 records in\n20000+0 records out\n"), std::string::npos) << fits.err;

  // 64 do not fit in 1 MiB: refused, of= as it was, no job on threads.
  write_file("out", "the old bytes");
  const Result r = run(under_memlock(
      opts({"if=/dev/zero", "of=out", "bs=4096", "count=20000", "--jobs=64", "--iodepth=256"}), "1048576"));
  if (r.err.find("engine io_uring") != std::string::npos && r.err.find("refused") == std::string::npos) {
    GTEST_SKIP() << "this kernel does not count io_uring rings against RLIMIT_MEMLOCK: " << r.err.substr(0, 200);
  }
  EXPECT_STATUS(r, "exit 1");
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex(R"(: io_uring set up the rings of \d+ jobs, then refused the next \(Cannot allocate memory\): )"
                        R"(every ring counts against the locked-memory limit \(ulimit -l\); give fewer --jobs or a )"
                        R"(lower --iodepth\n)")))
      << r.err;
  EXPECT_EQ(r.err.find("engine threads"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("records in"), std::string::npos) << r.err;
  EXPECT_EQ(read_file("out"), "the old bytes") << "the refused run cut of=";
}

}  // namespace
}  // namespace ddtime::e2e
