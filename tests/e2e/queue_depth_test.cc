// SPDX-License-Identifier: GPL-3.0-or-later
// --iodepth and --engine: for the same operands, the output bytes, the
// records lines, the messages and the exit status are the sync engine's
// (and so GNU dd's), at depths 1, 2, 8 and 32, with io_uring and with the
// thread pool, on regular files and on loop devices with 512- and
// 4096-byte sectors, with and without direct I/O to the backing file.
// Then the report line and the JSON engine object, the fallbacks (an
// input that cannot seek; io_uring refused by a seccomp filter), the
// operands refused before any file is opened, and SIGINT at depth.

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <regex>
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

struct Engine {
  const char* name;
  const char* option;
};
const Engine kEngines[] = {
    {"IoUring", "--engine=io_uring"}, {"Threads", "--engine=threads"}, {"LinuxAio", "--engine=libaio"}};
const unsigned kDepths[] = {1, 2, 8, 32};

const CopyCase kCases[] = {
    {"Bs4k", {"bs=4096"}},
    {"Bs1MEndsShort", {"bs=1M"}},
    {"SkipAndCountInBlocks", {"bs=64K", "skip=3", "count=7"}},
    {"SeekInBlocks", {"bs=4096", "seek=5"}},
    {"SeekIntoAnExistingFileUnderNotrunc", {"bs=4096", "seek=9", "count=20", "conv=notrunc"}, true},
    {"SkipAndCountInBytes", {"bs=4096", "iflag=skip_bytes,count_bytes", "skip=1000", "count=50000"}},
    {"SeekInBytes", {"bs=512", "oflag=seek_bytes", "seek=777"}},
    {"CountPastTheEnd", {"bs=16K", "count=1000"}},
    {"Fsync", {"bs=64K", "conv=fsync"}},
    {"Fdatasync", {"bs=64K", "conv=fdatasync"}},
    {"Append", {"bs=4096", "oflag=append", "conv=notrunc"}, true},
    {"Dsync", {"bs=64K", "oflag=dsync", "count=4"}},
    // O_DIRECT output is reserved ahead; the file must still end where
    // the sync engine's does, the tail written through the page cache.
    {"DirectOutputEndsShort", {"bs=64K", "oflag=direct"}},
    {"DirectBothWithSeekAndCount", {"bs=4096", "iflag=direct", "oflag=direct", "seek=3", "count=33"}},
    {"DirectIntoAnExistingFileUnderNotrunc", {"bs=4096", "oflag=direct", "seek=200", "conv=notrunc"}, true},
};

class QueueDepth : public CopyCaseTest {
 protected:
  void SetUp() override {
    CopyCaseTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }
};

TEST_F(QueueDepth, EveryDepthAndEngineGivesTheSyncEnginesResults) {
  for (const CopyCase& c : kCases) {
    const Copy sync = copy(c, {});
    ASSERT_STATUS(sync.result, "exit 0") << c.name;
    for (const Engine& engine : kEngines) {
      for (unsigned depth : kDepths) {
        SCOPED_TRACE(std::string(c.name) + " " + engine.name + " depth " + std::to_string(depth));
        const Copy queued = copy(c, {engine.option, "--iodepth=" + std::to_string(depth)});
        EXPECT_EQ(queued.result.status(), sync.result.status()) << queued.result;
        EXPECT_EQ(queued.result.err_masked(), sync.result.err_masked());
        EXPECT_TRUE(queued.output == sync.output)
            << "output differs: " << queued.output.size() << " against " << sync.output.size() << " bytes";
      }
    }
  }
}

TEST_F(QueueDepth, ZeroToNullAtDepth) {
  Result r = dd({"if=/dev/zero", "of=/dev/null", "bs=64K", "count=100", "--iodepth=8"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "100+0 records in\n100+0 records out\n6553600 bytes (6.6 MB, 6.2 MiB) copied, <T> s, <R>\n");
}

// io_uring cuts a large /dev/zero read short when its own work is pending;
// the copy reads on, as read(2) in the sync engine never sees that.
TEST_F(QueueDepth, LargeBlocksFromDevZeroAreAllWhole) {
  for (const Engine& engine : kEngines) {
    // Slow under ThreadSanitizer (3 GB took 4.8 s there): time enough.
    Options o = opts({"if=/dev/zero", "of=/dev/null", "bs=1M", "count=3000", engine.option, "--iodepth=32"});
    o.timeout = 60000ms;
    Result r = dd(o);
    EXPECT_STATUS(r, "exit 0");
    EXPECT_EQ(r.err_masked(),
              "3000+0 records in\n3000+0 records out\n3145728000 bytes (3.1 GB, 2.9 GiB) copied, <T> s, <R>\n")
        << engine.name;
  }
}

TEST_F(QueueDepth, AnOutputPipeGetsTheBytesInOrder) {
  Result r = dd({"if=in", "bs=4096", "--iodepth=16"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_TRUE(r.out == input_) << r.out.size() << " bytes";
  EXPECT_EQ(r.err_masked(),
            "259+1 records in\n259+1 records out\n1060921 bytes (1.1 MB, 1.0 MiB) copied, <T> s, <R>\n");
}

// Whichever thread makes the write that meets the closed pipe, the process
// dies by SIGPIPE as GNU dd does (defect 20: the threads engine's workers
// blocked it, which turned it into an EPIPE message and status 1).
TEST_F(QueueDepth, AClosedPipeKillsBySigpipeWithEveryEngine) {
  for (const Engine& engine : kEngines) {
    Options o = opts({"if=in", "bs=4096", "--iodepth=32", engine.option});
    o.out = Stdout::broken_pipe();
    const Result r = dd(o);
    EXPECT_STATUS(r, "signal SIGPIPE") << engine.name;
    EXPECT_EQ(r.err, "") << engine.name;
  }
}

// Found by the combination test: with ibs= and obs= (equal) a failed write
// said "error writing", GNU's words for bs=; GNU's dd 9.1 writes an output
// block there and says "writing to".
TEST_F(QueueDepth, AFailedWriteSaysWhatGnuSaysForBsAndForIbsAndObs) {
  for (const Engine& engine : kEngines) {
    Result r = dd({"if=in", "of=/dev/full", "ibs=4096", "obs=4096", "count=2", "--iodepth=4", engine.option});
    EXPECT_STATUS(r, "exit 1") << engine.name;
    EXPECT_EQ(r.err_masked(),
              "dd: writing to '/dev/full': No space left on device\n"
              "1+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n")
        << engine.name;
    r = dd({"if=in", "of=/dev/full", "bs=4096", "count=2", "--iodepth=4", engine.option});
    EXPECT_STATUS(r, "exit 1") << engine.name;
    EXPECT_EQ(r.err_masked(),
              "dd: error writing '/dev/full': No space left on device\n"
              "1+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n")
        << engine.name;
  }
}

TEST_F(QueueDepth, AClosedPipeWithSigpipeIgnoredSaysWhatTheSyncEngineSays) {
  for (const Engine& engine : kEngines) {
    Options o = opts({"if=in", "bs=4096", "--iodepth=8", engine.option});
    o.out = Stdout::broken_pipe();
    o.ignored_signals = {SIGPIPE};
    const Result r = dd(o);
    EXPECT_STATUS(r, "exit 1") << engine.name;
    EXPECT_EQ(r.err_masked(),
              "dd: error writing 'standard output': Broken pipe\n"
              "1+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n")
        << engine.name;
  }
}

// Defect 21: an --align the slots cannot have is named, with how many
// buffers of what size were asked for, not "input buffer of size bs".
TEST_F(QueueDepth, SlotsThatCannotBeHadNameTheDepthAndTheAlignment) {
  Options o = opts({"if=/dev/zero", "of=/dev/null", "bs=1M", "count=4096", "--align=1G", "--iodepth=1024"});
  o.as_ddtime = true;
  const Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: memory exhausted by 1024 buffers of 1048576 bytes (1.0 MiB) each, one per I/O of "
            "--iodepth=1024, aligned to 1073741824 bytes (1.0 GiB) as --align asks\n");
}

TEST_F(QueueDepth, AnInputPipeRunsAtDepthOneAndTheReportSaysSo) {
  Options o = opts({"bs=4096", "of=out", "--iodepth=8"});
  o.as_ddtime = true;
  o.in = Stdin::pipe(input_);
  Result r = dd(o);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_TRUE(read_file("out") == input_);
  EXPECT_NE(r.err.find("ddtime: engine sync, depth 1; the input cannot seek, so it is read one record at a time\n"),
            std::string::npos)
      << r.err;
}

TEST_F(QueueDepth, TheReportNamesWhatRan) {
  Options o = opts({"if=in", "of=out", "bs=4096", "--iodepth=8", "--engine=threads"});
  o.as_ddtime = true;
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(std::regex_search(r.err, std::regex(R"(^ddtime: engine threads, depth 8 \(mean \d+\.\d in flight\), )"
                                                  R"(\d+\.\d\d system calls per I/O, 8 threads\n)")))
      << r.err;
  EXPECT_TRUE(r.err.ends_with("B/s\n")) << "GNU's summary stays last: " << r.err;
}

// Defect 9: the threads engine's CPU time is every thread's, not cut down
// to the real time, and the report says how many threads worked.
TEST_F(QueueDepth, TheThreadsEnginesCpuTimeIsEveryThreads) {
  Options o = opts({"if=in", "of=/dev/null", "bs=4096", "--iodepth=8", "--engine=threads"});
  o.as_ddtime = true;
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(
      std::regex_search(r.err, std::regex(R"(^ddtime: real .* cpu \d+\.\d% over 9 threads\n)", std::regex::multiline)))
      << r.err;
  o.args.push_back("--json");
  r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  EXPECT_EQ(doc["engine"]["threads"].integer(), 9);
  o.args = {"if=in", "of=/dev/null", "bs=4096", "--iodepth=8", "--engine=io_uring", "--json"};
  r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(parse_json(r.err)["engine"]["threads"].is_null()) << "io_uring's kernel workers are not counted";
}

// Defect 19: --engine, whatever it names, gets the engine line and key.
TEST_F(QueueDepth, AnyEngineAskedForIsNamed) {
  for (const char* engine : {"--engine=sync", "--engine=auto"}) {
    Options o = opts({"if=in", "of=/dev/null", "bs=4096", engine});
    o.as_ddtime = true;
    Result r = dd(o);
    ASSERT_STATUS(r, "exit 0");
    EXPECT_NE(r.err.find("ddtime: engine sync, depth 1\n"), std::string::npos) << engine << "\n" << r.err;
    o.args.push_back("--json");
    r = dd(o);
    ASSERT_STATUS(r, "exit 0");
    const Json doc = parse_json(r.err);
    EXPECT_EQ(doc["engine"]["name"].string(), "sync") << engine;
    EXPECT_EQ(doc["engine"]["threads"].integer(), 1) << engine;
  }
}

// Defect 30: "1 threads".
TEST_F(QueueDepth, OneWorkerIsOneThread) {
  Options o = opts({"if=in", "of=/dev/null", "bs=4096", "--engine=threads"});
  o.as_ddtime = true;
  const Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find(", 1 thread\n"), std::string::npos) << r.err;
}

// Defect 12: a queued engine's reads and writes are not timed one by one;
// --split-times says so, and the JSON has null, never 0.
TEST_F(QueueDepth, SplitTimesAtDepthAreNotMeasuredAndSaySo) {
  Options o = opts({"if=in", "of=/dev/null", "bs=64k", "--split-times", "--iodepth=8"});
  o.as_ddtime = true;
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ddtime: read and write time not measured: a queued engine's I/O is in flight together\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("ddtime: read 0.0000 s"), std::string::npos) << r.err;
  o.args.push_back("--json");
  r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  const Json doc = parse_json(r.err);
  EXPECT_TRUE(doc["times"]["read"].is_null());
  EXPECT_TRUE(doc["times"]["write"].is_null());
}

TEST_F(QueueDepth, IoUringBatchesItsSystemCalls) {
  Options o = opts({"if=in", "of=out", "bs=4096", "--iodepth=32", "--engine=io_uring"});
  o.as_ddtime = true;
  Result r = dd(o);
  if (r.status() == "exit 1" && r.err.find("cannot set up io_uring") != std::string::npos) {
    GTEST_SKIP() << "io_uring refused here: " << r.err;
  }
  ASSERT_STATUS(r, "exit 0");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m,
                                std::regex(R"(engine io_uring, depth 32 \(mean (\d+\.\d) in flight\), )"
                                           R"((\d+\.\d\d) system calls per I/O)")))
      << r.err;
  // How many complete per call depends on the device; from the page cache
  // they complete as they are submitted, and still share calls.
  EXPECT_LT(std::stod(m[2]), 1.0) << "a system call per batch, not per I/O";
  EXPECT_GT(std::stod(m[1]), 1.0);
}

TEST_F(QueueDepth, JsonCarriesTheEngine) {
  Options o = opts({"if=in", "of=out", "bs=4096", "--iodepth=4", "--engine=threads", "--json"});
  o.as_ddtime = true;
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  const Json json = parse_json(r.err);
  const Json& engine = json["engine"];
  EXPECT_EQ(engine["name"].string(), "threads");
  EXPECT_EQ(engine["depth"].integer(), 4);
  EXPECT_EQ(engine["setup"].string(), "4 threads");
  EXPECT_GT(engine["mean_in_flight"].number(), 0);
  EXPECT_GT(engine["system_calls_per_io"].number(), 0);
  EXPECT_TRUE(engine["fallback"].is_null());
  EXPECT_EQ(json["records_out"]["partial"].integer(), 1);
}

TEST_F(QueueDepth, WithoutIodepthJsonHasNoEngine) {
  Options o = opts({"if=in", "of=out", "bs=4096", "--json"});
  o.as_ddtime = true;
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_FALSE(parse_json(r.err).has("engine"));
}

TEST_F(QueueDepth, RefusedIoUringFallsBackToThreadsAndSaysWhy) {
  Options o = opts({"if=in", "of=out", "bs=4096", "--iodepth=8"});
  o.as_ddtime = true;
  o.run_under = {DDTIME_NO_URING};
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(read_file("out") == input_);
  EXPECT_NE(r.err.find(", 8 threads; io_uring refused: Operation not permitted\n"), std::string::npos) << r.err;
}

TEST_F(QueueDepth, IoUringAskedForAndRefusedIsAnError) {
  Options o = opts({"if=in", "of=out", "bs=4096", "--iodepth=8", "--engine=io_uring"});
  o.as_ddtime = true;
  o.run_under = {DDTIME_NO_URING};
  Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            std::string(DDTIME_BINARY) + ": --engine=io_uring: cannot set up io_uring: Operation not permitted\n");
}

struct Refusal {
  const char* name;
  std::vector<std::string> operands;
  std::string message;
};

class QueueDepthRefuses : public DdTest, public ::testing::WithParamInterface<Refusal> {};

TEST_P(QueueDepthRefuses, BeforeAnyFileIsOpened) {
  SKIP_IF_ANOTHER_DD();
  std::vector<std::string> args{"if=/dev/zero", "of=never", "count=1"};
  args.insert(args.end(), GetParam().operands.begin(), GetParam().operands.end());
  Options o = opts(args);
  o.as_ddtime = true;
  Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: " + GetParam().message + "\n");
  EXPECT_FALSE(exists("never"));
}

INSTANTIATE_TEST_SUITE_P(
    Operands, QueueDepthRefuses,
    ::testing::Values(
        Refusal{"Noerror", {"--iodepth=8", "conv=noerror"}, "--iodepth=8 does not combine with conv=noerror"},
        Refusal{"Sync", {"--iodepth=8", "conv=sync"}, "--iodepth=8 does not combine with conv=sync"},
        Refusal{"Sparse", {"--iodepth=2", "conv=sparse"}, "--iodepth=2 does not combine with conv=sparse"},
        Refusal{"Conversion", {"--iodepth=8", "conv=ucase"}, "--iodepth=8 does not combine with conv=ucase"},
        Refusal{"Swab", {"--iodepth=8", "conv=swab"}, "--iodepth=8 does not combine with conv=swab"},
        Refusal{"InputNocache", {"--iodepth=8", "iflag=nocache"}, "--iodepth=8 does not combine with iflag=nocache"},
        Refusal{"OutputNocache", {"--iodepth=8", "oflag=nocache"}, "--iodepth=8 does not combine with oflag=nocache"},
        Refusal{"Reblocking", {"--iodepth=8", "ibs=4k", "obs=8k"}, "--iodepth=8 needs bs=, not ibs= and obs="},
        Refusal{"SyncEngineWithDepth",
                {"--iodepth=8", "--engine=sync"},
                "--engine=sync keeps one I/O in flight; it does not combine with --iodepth=8"},
        Refusal{"DepthOutOfRange",
                {"--iodepth=1025"},
                "invalid argument \xe2\x80\x98"
                "1025\xe2\x80\x99 for \xe2\x80\x98--iodepth\xe2\x80\x99\n"
                "1025 is more than 1024, the deepest queue.\n"
                "Try 'ddtime --help' for more information."},
        // Defect 27: dd's number syntax makes 4k a whole number, only too large.
        Refusal{"DepthInDdsNumberSyntaxTooLarge",
                {"--iodepth=4k"},
                "invalid argument \xe2\x80\x98"
                "4k\xe2\x80\x99 for \xe2\x80\x98--iodepth\xe2\x80\x99\n"
                "4096 is more than 1024, the deepest queue.\n"
                "Try 'ddtime --help' for more information."},
        Refusal{"DepthZero",
                {"--iodepth=0"},
                "invalid argument \xe2\x80\x98"
                "0\xe2\x80\x99 for \xe2\x80\x98--iodepth\xe2\x80\x99\n"
                "The depth must be a whole number from 1 to 1024.\n"
                "Try 'ddtime --help' for more information."}),
    ParamName{});

// --engine=libaio (issue 28, P): of= byte for byte GNU dd's, the records
// lines GNU's, at depth, in random order, with two jobs, under O_DIRECT
// and with a partial last record (in ends in one at every bs here).
TEST_F(QueueDepth, LinuxAioCopiesByteForByteAsGnuDd) {
  constexpr const char* kGnuDd = "/usr/bin/dd";
  if (::access(kGnuDd, X_OK) != 0) GTEST_SKIP() << "needs GNU dd at " << kGnuDd;
  const std::vector<std::vector<std::string>> shapes{
      {"bs=4096"}, {"bs=64K", "skip=3", "count=7"}, {"bs=4096", "iflag=direct", "oflag=direct"}};
  for (const std::vector<std::string>& shape : shapes) {
    const CopyCase c{"shape", shape};
    Options gnu = opts({"if=in", "of=out"});
    gnu.args.insert(gnu.args.end(), shape.begin(), shape.end());
    gnu.run_under = {"/bin/bash", "-c", std::string("exec -a dd ") + kGnuDd + " \"$@\""};
    write_file("out", "");
    const Result gnu_result = dd(gnu);
    ASSERT_STATUS(gnu_result, "exit 0") << gnu_result;
    const std::string gnu_output = read_file("out");
    for (const std::vector<std::string>& way :
         {std::vector<std::string>{"--iodepth=8"}, {"--iodepth=8", "--random=7"}, {"--jobs=2", "--iodepth=4"}}) {
      std::vector<std::string> extra{"--engine=libaio"};
      extra.insert(extra.end(), way.begin(), way.end());
      SCOPED_TRACE(shape[0] + (shape.size() > 1 ? " " + shape[1] : std::string()) + " " + way.back());
      const Copy aio = copy(c, extra);
      EXPECT_EQ(aio.result.status(), gnu_result.status()) << aio.result;
      EXPECT_EQ(lines_of(aio.result.err).at(0), lines_of(gnu_result.err).at(0));
      EXPECT_EQ(lines_of(aio.result.err).at(1), lines_of(gnu_result.err).at(1));
      EXPECT_TRUE(aio.output == gnu_output)
          << "output differs: " << aio.output.size() << " against " << gnu_output.size() << " bytes";
    }
  }
}

TEST_F(QueueDepth, UnknownEngineIsRejectedWithTheValidOnes) {
  Options o = opts({"--engine=aio", "if=/dev/zero", "of=/dev/null", "count=1"});
  o.as_ddtime = true;
  Result r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: invalid argument \xe2\x80\x98"
            "aio\xe2\x80\x99 for \xe2\x80\x98--engine\xe2\x80\x99\n"
            "Valid arguments are: auto, io_uring, threads, libaio, sync\n"
            "Try 'ddtime --help' for more information.\n");
}

TEST_F(QueueDepth, SigintDrainsPrintsAndDiesBySigint) {
  // A slow reader on an output pipe keeps the copy going until the signal.
  SlowFifo fifo(path("slow"), 4096, 20ms);
  Options o = opts({"if=in", "of=slow", "bs=4096", "--iodepth=8"});
  o.as_ddtime = true;
  o.timeout = 20000ms;
  DdProcess p(o);
  std::this_thread::sleep_for(300ms);
  p.send_signal(SIGINT);
  Result r = p.finish();
  const std::string copied = fifo.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(R"((\d+)\+0 records in\n(\d+)\+0 records out\n)"))) << r.err;
  EXPECT_EQ(m[1], m[2]) << "records are counted in order, in and out together";
  EXPECT_EQ(copied.size(), std::stoul(m[2]) * 4096) << "the pipe got exactly the records counted";
  EXPECT_TRUE(copied == input_.substr(0, copied.size()));
}

// ---- loop devices ----

struct DeviceCase {
  const char* name;
  unsigned sector;
  bool direct_io;
};

class QueueDepthOnLoop : public LoopDevice, public ::testing::WithParamInterface<DeviceCase> {
 protected:
  QueueDepthOnLoop() : LoopDevice(GetParam().sector, 2 * 1048576 + 3 * 4096, GetParam().direct_io) {}
};

TEST_P(QueueDepthOnLoop, DirectReadsOfTheWholeDeviceMatchTheSyncEngine) {
  SKIP_IF_ANOTHER_DD();
  const std::string bs = "bs=" + std::to_string(GetParam().sector * 8);
  const Result sync = dd({"if=" + device_, "of=sync.out", bs, "iflag=direct"});
  ASSERT_STATUS(sync, "exit 0");
  EXPECT_TRUE(read_file("sync.out") == content_);
  for (const Engine& engine : kEngines) {
    for (unsigned depth : kDepths) {
      SCOPED_TRACE(std::string(engine.name) + " depth " + std::to_string(depth));
      const Result queued = dd(
          {"if=" + device_, "of=queued.out", bs, "iflag=direct", engine.option, "--iodepth=" + std::to_string(depth)});
      EXPECT_EQ(queued.status(), sync.status()) << queued;
      EXPECT_EQ(queued.err_masked(), sync.err_masked());
      EXPECT_TRUE(read_file("queued.out") == content_);
    }
  }
}

TEST_P(QueueDepthOnLoop, DirectWritesWithAPartialLastBlockMatchTheSyncEngine) {
  SKIP_IF_ANOTHER_DD();
  const std::string input = pattern(1048576 + 3 * GetParam().sector + 100, 5);
  write_file("in", input);
  const std::string bs = "bs=" + std::to_string(GetParam().sector * 16);
  write_file("zero", std::string(size_, '\0'));
  ASSERT_STATUS(dd({"if=zero", "of=" + device_, "bs=1M", "oflag=direct"}), "exit 0");
  const Result sync = dd({"if=in", "of=" + device_, bs, "oflag=direct"});
  ASSERT_STATUS(sync, "exit 0");
  const std::string sync_device = device_bytes();
  for (const Engine& engine : kEngines) {
    for (unsigned depth : kDepths) {
      SCOPED_TRACE(std::string(engine.name) + " depth " + std::to_string(depth));
      ASSERT_STATUS(dd({"if=zero", "of=" + device_, "bs=1M", "oflag=direct"}), "exit 0");
      const Result queued =
          dd({"if=in", "of=" + device_, bs, "oflag=direct", engine.option, "--iodepth=" + std::to_string(depth)});
      EXPECT_EQ(queued.status(), sync.status()) << queued;
      EXPECT_EQ(queued.err_masked(), sync.err_masked());
      EXPECT_TRUE(device_bytes() == sync_device);
    }
  }
}

// Defect 33: O_APPEND means nothing to a block device, and GNU's writes
// land one after another from offset 0; io_uring at the file's own
// position wrote every record at 0.
TEST_P(QueueDepthOnLoop, AppendToADeviceWritesWhereTheSyncEngineDoes) {
  SKIP_IF_ANOTHER_DD();
  const std::string input = pattern(32 * GetParam().sector * 8, 9);
  write_file("in", input);
  const std::string bs = "bs=" + std::to_string(GetParam().sector * 8);
  write_file("zero", std::string(size_, '\0'));
  ASSERT_STATUS(dd({"if=zero", "of=" + device_, "bs=1M", "oflag=direct"}), "exit 0");
  const Result sync = dd({"if=in", "of=" + device_, bs, "oflag=append,direct", "conv=notrunc", "seek=3"});
  ASSERT_STATUS(sync, "exit 0");
  const std::string sync_device = device_bytes();
  ASSERT_TRUE(sync_device.substr(3 * GetParam().sector * 8, input.size()) == input) << "GNU's placement";
  for (const Engine& engine : kEngines) {
    for (unsigned depth : {2u, 8u}) {
      SCOPED_TRACE(std::string(engine.name) + " depth " + std::to_string(depth));
      ASSERT_STATUS(dd({"if=zero", "of=" + device_, "bs=1M", "oflag=direct"}), "exit 0");
      const Result queued = dd({"if=in", "of=" + device_, bs, "oflag=append,direct", "conv=notrunc", "seek=3",
                                engine.option, "--iodepth=" + std::to_string(depth)});
      EXPECT_EQ(queued.err_masked(), sync.err_masked());
      EXPECT_TRUE(device_bytes() == sync_device);
    }
  }
}

TEST_P(QueueDepthOnLoop, ReadingPastTheEndWithSkipAndCountMatchesTheSyncEngine) {
  SKIP_IF_ANOTHER_DD();
  const std::vector<std::string> operands{"if=" + device_, "of=out", "bs=64K", "skip=30", "count=10", "iflag=direct"};
  const Result sync = dd(operands);
  const std::string sync_out = read_file("out");
  std::vector<std::string> queued_operands = operands;
  queued_operands.push_back("--iodepth=8");
  const Result queued = dd(queued_operands);
  EXPECT_EQ(queued.status(), sync.status());
  EXPECT_EQ(queued.err_masked(), sync.err_masked());
  EXPECT_TRUE(read_file("out") == sync_out);
}

// A small ext4 file system that fills up: an O_DIRECT copy at depth cannot
// reserve its output, runs unreserved and meets ENOSPC. Which record fails
// may differ from the sync engine's by the requests in flight, so the test
// holds the copy to its own report: the file is exactly the bytes it says
// were copied, all of them the input's.
class QueueDepthOnFullFileSystem : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to mount a file system";
    if (!shell("command -v mkfs.ext4").ok) GTEST_SKIP() << "needs mkfs.ext4 (e2fsprogs)";
    input_ = pattern(6 << 20, 5);
    write_file("in", input_);
    write_file("fs.img", std::string());
    ::mkdir(path("mnt").c_str(), 0755);
  }
  void TearDown() override {
    if (mounted_) {
      EXPECT_TRUE(shell("umount '" + path("mnt").string() + "'").ok);
    }
    DdTest::TearDown();
  }
  // A fresh 4 MiB file system each time, so every copy meets the same room.
  void remake() {
    if (mounted_) {
      ASSERT_TRUE(shell("umount '" + path("mnt").string() + "'").ok);
    }
    mounted_ = false;
    const Command made =
        shell("truncate -s 4M '" + path("fs.img").string() + "' && mkfs.ext4 -q -F '" + path("fs.img").string() +
              "' && mount -o loop '" + path("fs.img").string() + "' '" + path("mnt").string() + "'");
    if (!made.ok) GTEST_SKIP() << "could not make and mount a small ext4: " << made.output;
    mounted_ = true;
  }
  std::string input_;
  bool mounted_ = false;
};

TEST_F(QueueDepthOnFullFileSystem, ADirectCopyThatRunsOutOfRoomEndsAtWhatItReports) {
  const std::string out = path("mnt/out").string();
  for (const Engine& engine : kEngines) {
    SCOPED_TRACE(engine.name);
    remake();
    if (!mounted_) return;
    const Result r = dd({"if=in", "of=" + out, "bs=64K", "oflag=direct", engine.option, "--iodepth=8"});
    EXPECT_STATUS(r, "exit 1");
    std::smatch m;
    const std::string err = r.err_masked();
    ASSERT_TRUE(std::regex_search(err, m,
                                  std::regex("error writing '[^']*': No space left on device\n"
                                             "\\d+\\+\\d+ records in\n\\d+\\+\\d+ records out\n"
                                             "(\\d+) bytes")))
        << err;
    const std::size_t copied = std::stoul(m[1]);
    const std::string written = read_file("mnt/out");
    EXPECT_GT(copied, 0u);
    EXPECT_EQ(written.size(), copied) << "nothing written ahead or reserved is left past what was copied";
    EXPECT_TRUE(written == input_.substr(0, written.size()));
  }
}

// --jobs: job 0's ring holds the registered files; job 0's thread submits
// to it and the calling thread tears it down after the join. A single
// issuer's ring refuses to let the files go for any thread but its
// submitter, so job 0's thread does, and the file system can be unmounted
// the moment ddtime exits, as after a copy by one job.
TEST_F(QueueDepthOnFullFileSystem, AJobsCopyLeavesNothingThatKeepsTheFileSystemBusy) {
  remake();
  if (!mounted_) return;
  const Result r = dd({"if=in", "of=" + path("mnt/out").string(), "bs=64K", "count=16", "oflag=direct",
                       "--engine=io_uring", "--jobs=2", "--iodepth=4"});
  if (r.status() != "exit 0" && r.err.find("io_uring") != std::string::npos) {
    GTEST_SKIP() << "io_uring refused here: " << r.err;
  }
  EXPECT_STATUS(r, "exit 0");
  const Command unmounted = shell("umount '" + path("mnt").string() + "'");
  EXPECT_TRUE(unmounted.ok) << unmounted.output;
  mounted_ = !unmounted.ok;
}

INSTANTIATE_TEST_SUITE_P(Devices, QueueDepthOnLoop,
                         ::testing::Values(DeviceCase{"Sectors512", 512, false}, DeviceCase{"Sectors4096", 4096, false},
                                           DeviceCase{"Sectors512DirectIo", 512, true},
                                           DeviceCase{"Sectors4096DirectIo", 4096, true}),
                         ParamName{});

}  // namespace
// The threads engine's workers under an address-space limit that leaves
// room for the copy but not for 1024 thread stacks: a clean refusal that
// names them, exit status 1 and a JSON document, not an exception caught
// in main with nothing said under --json. (Not in the QueueDepth suite:
// the ThreadSanitizer preset runs that, and no sanitizer starts under a
// tight ulimit -v.)
class ThreadsEngineUnderALimit : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    GTEST_SKIP() << "a sanitizer reserves more address space than any ulimit -v leaves";
#endif
  }
  Result limited(std::vector<std::string> args) const {
    Options o = opts(std::move(args));
    o.run_under = {"/bin/bash", "-c", "ulimit -v 65536 && exec -a dd \"$0\" \"$@\""};
    return dd(o);
  }
};

TEST_F(ThreadsEngineUnderALimit, ThreadsThatCannotBeStartedAreNamedAndTheRunEndsWithStatusOne) {
  // More records than the depth: the engine starts a worker per slot it
  // can use, never more than the range has records.
  const std::vector<std::string> copy{"if=/dev/zero", "of=/dev/null", "bs=512", "count=4096", "--engine=threads"};
  std::vector<std::string> few = copy;
  few.push_back("--iodepth=2");
  if (limited(few).status() != "exit 0") GTEST_SKIP() << "ddtime does not start under ulimit -v 65536 here";

  std::vector<std::string> many = copy;
  many.push_back("--iodepth=1024");
  const Result text = limited(many);
  EXPECT_STATUS(text, "exit 1");
  EXPECT_NE(text.err.find("dd: cannot start the threads engine's 1024 threads: "), std::string::npos) << text.err;

  many.push_back("--json");
  const Result json = limited(many);
  EXPECT_STATUS(json, "exit 1");
  EXPECT_NE(json.err.find("cannot start the threads engine's 1024 threads"), std::string::npos) << json.err;
  EXPECT_NE(json.err.find("\"exit_status\":1"), std::string::npos) << json.err;
}

}  // namespace ddtime::e2e
