// SPDX-License-Identifier: GPL-3.0-or-later
// Peak memory must not grow with the amount of data copied: ddtime sizes its
// buffers once, before the first read (STYLE.md "keep the hot loop boring").
// Each case copies 1 MiB and then 1 GiB from /dev/zero to /dev/null with the
// same operands and compares the children's peak resident set sizes
// (getrusage's ru_maxrss, through wait4).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

struct Peak {
  long max_rss_kib = -1;
  int exit_code = -1;
  std::string failure;
};

std::string binary_under_test() {
  if (const char* env = std::getenv("DDTIME_E2E_DD"); env != nullptr && *env != '\0') return env;
  return DDTIME_DD_LINK;
}

// Runs dd with stdout and stderr on /dev/null, killing it after `limit`.
Peak run_dd(const std::vector<std::string>& operands, std::chrono::seconds limit) {
  Peak peak;
  const std::string binary = binary_under_test();
  std::vector<std::string> argv_strings{"dd"};
  argv_strings.insert(argv_strings.end(), operands.begin(), operands.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    int null_fd = ::open("/dev/null", O_RDWR);
    ::dup2(null_fd, 0);
    ::dup2(null_fd, 1);
    ::dup2(null_fd, 2);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  if (pid < 0) {
    peak.failure = "fork failed";
    return peak;
  }
  const auto deadline = std::chrono::steady_clock::now() + limit;
  int status = 0;
  struct rusage usage {};
  for (;;) {
    pid_t r = ::wait4(pid, &status, WNOHANG, &usage);
    if (r == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::wait4(pid, &status, 0, &usage);
      peak.failure = "timed out";
      return peak;
    }
    std::this_thread::sleep_for(1ms);
  }
  if (WIFEXITED(status)) peak.exit_code = WEXITSTATUS(status);
  peak.max_rss_kib = usage.ru_maxrss;
  return peak;
}

struct RssCase {
  std::string name;
  std::vector<std::string> operands;  // everything but count=
  std::int64_t block;                 // the input block size, for count=
  bool per_byte_work = false;         // a conversion touches every byte

  friend std::ostream& operator<<(std::ostream& os, const RssCase& c) { return os << c.name; }
};

#ifdef DDTIME_RSS_SANITIZED
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

class Rss : public ::testing::TestWithParam<RssCase> {};

TEST_P(Rss, PeakDoesNotGrowWithBytesCopied) {
  const RssCase& c = GetParam();
  if (kSanitized && c.per_byte_work) {
    GTEST_SKIP() << "converting 1 GiB takes about 40 s in the unoptimised sanitizer build; "
                    "the release build runs this case";
  }
  auto with_count = [&](std::int64_t bytes) {
    std::vector<std::string> ops = c.operands;
    ops.insert(ops.begin(), {"if=/dev/zero", "of=/dev/null"});
    ops.push_back("count=" + std::to_string(bytes / c.block));
    return ops;
  };
  // Page-granular noise (the kernel accounts whole pages, and libc's arenas
  // settle differently) stays well under this; a buffer per block, a leak
  // per record or an unbounded queue would not.
  constexpr long kToleranceKib = 512;
  const Peak small = run_dd(with_count(std::int64_t{1} << 20), 30s);
  Peak large = run_dd(with_count(std::int64_t{1} << 30), 120s);
  ASSERT_EQ(small.failure, "");
  ASSERT_EQ(large.failure, "");
  ASSERT_EQ(small.exit_code, 0);
  ASSERT_EQ(large.exit_code, 0);
  if (large.max_rss_kib > small.max_rss_kib + kToleranceKib) {
    // Once more before calling it growth: a loaded CI machine showed one
    // such peak in the sanitizer's build that no run here repeats (about
    // 52 MiB for both sizes); growth with the bytes copied repeats every
    // time.
    std::printf("%s: peak RSS %ld KiB for 1 GiB; once more\n", c.name.c_str(), large.max_rss_kib);
    const Peak again = run_dd(with_count(std::int64_t{1} << 30), 120s);
    ASSERT_EQ(again.failure, "");
    ASSERT_EQ(again.exit_code, 0);
    large.max_rss_kib = std::min(large.max_rss_kib, again.max_rss_kib);
  }
  EXPECT_LE(large.max_rss_kib, small.max_rss_kib + kToleranceKib)
      << "1 MiB: " << small.max_rss_kib << " KiB peak, 1 GiB: " << large.max_rss_kib << " KiB peak";
  std::printf("%s: peak RSS %ld KiB for 1 MiB, %ld KiB for 1 GiB\n", c.name.c_str(), small.max_rss_kib,
              large.max_rss_kib);
}

// Rule 3 of issue 28 (defect A6): never more slots than the range has
// records. 64 jobs at depth 1024 over 4 MiB held 64 x 1024 buffers of 4 KiB
// (276 MB peak) where 16 per job are all the copy can use; it now peaks
// where depth 16 does.
TEST(RssOfAQueue, HoldsNoMoreBuffersThanTheRangeHasRecords) {
  if (const char* env = std::getenv("DDTIME_E2E_DD"); env != nullptr && *env != '\0') {
    GTEST_SKIP() << "--jobs is ddtime's; DDTIME_E2E_DD names another dd";
  }
  auto copy_at = [](const char* depth) {
    return run_dd({"if=/dev/zero", "of=/dev/null", "bs=4k", "count=1024", "--jobs=64", depth}, 60s);
  };
  const Peak sixteen = copy_at("--iodepth=16");
  const Peak deep = copy_at("--iodepth=1024");
  ASSERT_EQ(sixteen.failure, "");
  ASSERT_EQ(deep.failure, "");
  ASSERT_EQ(sixteen.exit_code, 0);
  ASSERT_EQ(deep.exit_code, 0);
  // The rings themselves grow with the depth (64 rings of 1024 entries,
  // a few MiB); 64 x 1008 unused buffers would be 252 MiB more.
  constexpr long kRingsKib = 16 * 1024;
  EXPECT_LE(deep.max_rss_kib, sixteen.max_rss_kib + kRingsKib)
      << "depth 16: " << sixteen.max_rss_kib << " KiB peak, depth 1024: " << deep.max_rss_kib << " KiB peak";
}

INSTANTIATE_TEST_SUITE_P(Copy, Rss,
                         ::testing::Values(RssCase{"bs_1M", {"bs=1M"}, 1 << 20},
                                           RssCase{"bs_64K", {"bs=64K"}, 64 << 10},
                                           RssCase{"reblock_ibs_64K_obs_1M", {"ibs=64K", "obs=1M"}, 64 << 10},
                                           RssCase{"fullblock_bs_256K", {"bs=256K", "iflag=fullblock"}, 256 << 10},
                                           RssCase{"conv_ucase_bs_1M", {"bs=1M", "conv=ucase"}, 1 << 20, true}),
                         [](const ::testing::TestParamInfo<RssCase>& p) { return p.param.name; });

}  // namespace
