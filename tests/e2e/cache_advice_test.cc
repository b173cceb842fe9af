// SPDX-License-Identifier: GPL-3.0-or-later
// The cache advice and flushes dd makes, seen through strace: iflag= and
// oflag=nocache advise exactly the ranges GNU dd 9.1 advises (batched in
// 128 KiB, the pending rest at the end, to end of file at end of input or
// with count=0), and oflag=direct advises away the final partial block it
// wrote through the page cache, before and after the fsync. Scripts and
// test suites (GNU's tests/dd/nocache.sh among them) check these calls.
// Every expected trace was learned by running /usr/bin/dd (GNU 9.1) on the
// same operands; DDTIME_E2E_DD=/bin/dd runs them against it again.
// Without strace the tests skip and say so.

#include <fcntl.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <vector>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

constexpr const char* kStrace = "/usr/bin/strace";
constexpr std::size_t kInputSize = 1234567;  // 1 MiB + a partial block

struct TraceCase {
  const char* name;
  std::vector<std::string> args;  // after if=in of=out
  std::string trace;              // the traced calls, one per line
  bool needs_direct = false;
  const char* status = "exit 0";
};

class CacheAdvice : public DdTest, public ::testing::WithParamInterface<TraceCase> {
 protected:
  // The fadvise64, fsync and fdatasync calls of one run, without pids.
  std::string traced_calls(const std::vector<std::string>& args, Result& result) {
    Options o = opts(args);
    o.run_under = {kStrace, "-o", "trace", "-e", "trace=fadvise64,fsync,fdatasync", "--"};
    result = dd(o);
    std::istringstream lines(read_file("trace"));
    std::string line;
    std::string calls;
    while (std::getline(lines, line)) {
      if (line.rfind("+++", 0) == 0 || line.rfind("---", 0) == 0) continue;
      calls += line + "\n";
    }
    return calls;
  }

  // Whether this directory's filesystem takes O_DIRECT (tmpfs does not).
  bool takes_direct_io() const {
    int fd = ::open(path("probe").c_str(), O_WRONLY | O_CREAT | O_DIRECT, 0600);
    if (fd < 0) return false;
    ::close(fd);
    return true;
  }
};

std::string input_bytes() {
  std::string bytes(kInputSize, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>('a' + i % 23);
  return bytes;
}

TEST_P(CacheAdvice, MatchesGnuDdCallForCall) {
  if (::access(kStrace, X_OK) != 0) GTEST_SKIP() << "needs strace (" << kStrace << ")";
  const TraceCase& c = GetParam();
  if (c.needs_direct && !takes_direct_io()) GTEST_SKIP() << "the test directory's filesystem refuses O_DIRECT";
  write_file("in", input_bytes());
  std::vector<std::string> args{"if=in", "of=out", "status=none"};
  args.insert(args.end(), c.args.begin(), c.args.end());
  Result result;
  const std::string calls = traced_calls(args, result);
  EXPECT_STATUS(result, c.status);
  EXPECT_EQ(calls, c.trace);
}

#define ADV(fd, offset, length) "fadvise64(" #fd ", " #offset ", " #length ", POSIX_FADV_DONTNEED) = 0\n"

INSTANTIATE_TEST_SUITE_P(
    Gnu91, CacheAdvice,
    ::testing::Values(
        // What was read, exactly, when count= stops before end of file.
        TraceCase{
            "InputRangeReadWithSkipAndCount", {"iflag=nocache", "bs=512", "skip=10", "count=10"}, ADV(0, 5120, 5120)},
        TraceCase{"InputAndOutputRangesWithCount",
                  {"iflag=nocache", "oflag=nocache", "bs=4096", "count=3"},
                  ADV(0, 0, 12288) ADV(1, 0, 12288)},
        // Batches of 128 KiB, then from the last batch's page to end of file.
        TraceCase{"InputBatchesThenToEndOfFile",
                  {"iflag=nocache", "bs=100000"},
                  ADV(0, 0, 131072) ADV(0, 131072, 131072) ADV(0, 262144, 131072) ADV(0, 393216, 131072)
                      ADV(0, 524288, 131072) ADV(0, 655360, 131072) ADV(0, 786432, 131072) ADV(0, 917504, 131072)
                          ADV(0, 1048576, 131072) ADV(0, 1179648, 0)},
        // GNU advances its idea of the output offset by more than was
        // written when a write is not a multiple of 128 KiB; kept as is.
        TraceCase{"OutputOffsetsAsGnuCountsThem",
                  {"oflag=nocache", "bs=100000"},
                  ADV(1, 0, 131072) ADV(1, 200000, 131072) ADV(1, 368928, 131072) ADV(1, 506784, 131072)
                      ADV(1, 713568, 131072) ADV(1, 889280, 131072) ADV(1, 1033920, 131072) ADV(1, 1247488, 131072)
                          ADV(1, 1429984, 131072) ADV(1, 1523712, 0)},
        TraceCase{"OutputRangeAfterSeek", {"oflag=nocache", "bs=512", "seek=3", "count=5"}, ADV(1, 1536, 2560)},
        // notrunc keeps what follows, so only the pending range is advised.
        TraceCase{"OutputUnderNotruncStopsAtWhatWasWritten",
                  {"oflag=nocache", "conv=notrunc", "bs=1M", "count=1"},
                  ADV(1, 0, 1048576)},
        // count=0: the whole file from the skip or seek point.
        TraceCase{
            "CountZeroDropsInputFromTheSkipPoint", {"iflag=nocache", "bs=4096", "skip=1", "count=0"}, ADV(0, 4096, 0)},
        // From the start of the page holding the seek point.
        TraceCase{"CountZeroDropsOutputFromTheSeekPointsPage",
                  {"oflag=nocache", "bs=512", "seek=7", "count=0"},
                  ADV(1, 0, 0)},
        TraceCase{"CountBytesAdvisesTheBytesCopied",
                  {"iflag=nocache,count_bytes", "oflag=nocache", "bs=64k", "count=5"},
                  ADV(0, 0, 5) ADV(1, 0, 5)},
        // The O_DIRECT tail goes through the page cache: advised away to end
        // of file before it is written and after the fsync that follows.
        TraceCase{"DirectOutputTailIsAdvisedAroundItsFsync",
                  {"oflag=direct", "bs=1M"},
                  ADV(1, 1048576, 0) "fsync(1)                                = 0\n" ADV(1, 1048576, 0),
                  true},
        TraceCase{"DirectOutputTailWithFdatasync",
                  {"oflag=direct", "conv=fdatasync", "bs=1M"},
                  ADV(1, 1048576, 0) "fdatasync(1)                            = 0\n"
                                     "fsync(1)                                = 0\n" ADV(1, 1048576, 0),
                  true},
        // The flush comes before the final advice, so it drops clean pages.
        TraceCase{"NocacheOutputAdvisesToEndOfFileAfterTheFlush",
                  {"oflag=nocache", "conv=fdatasync", "bs=1M"},
                  ADV(1, 0, 1048576)
                      ADV(1, 1048576, 131072) "fdatasync(1)                            = 0\n" ADV(1, 1179648, 0)},
        // A reblocked block the kernel refuses under O_DIRECT stops the copy;
        // GNU 9.1 still flushes on the way out.
        TraceCase{"FlushOnTheWayOutAfterAFailedDirectWrite",
                  {"oflag=direct", "conv=fsync", "ibs=1000", "obs=3000", "count=7"},
                  "fsync(1)                                = 0\n",
                  true,
                  "exit 1"}),
    ParamName{});

#undef ADV

}  // namespace
}  // namespace ddtime::e2e
