// SPDX-License-Identifier: GPL-3.0-or-later
// limits: what /proc says the machine allows, parsed and gathered through Os.
#include "system/limits.h"

#include <gtest/gtest.h>

#include "fakes/fake_os.h"

namespace ddtime {
namespace {

using testing::FakeOs;

constexpr const char* kLimits =
    "Limit                     Soft Limit           Hard Limit           Units     \n"
    "Max cpu time              unlimited            unlimited            seconds   \n"
    "Max processes             96367                96367                processes \n"
    "Max open files            1024                 1048576              files     \n";

TEST(Limits, ReadsTheSoftProcessLimit) { EXPECT_EQ(max_processes_in(kLimits), 96367); }

TEST(Limits, AnUnlimitedProcessLimitIsNoLimit) {
  EXPECT_EQ(max_processes_in("Max processes             unlimited            unlimited            processes\n"),
            std::nullopt);
  EXPECT_EQ(max_processes_in("Max open files 1024 1024 files\n"), std::nullopt);
}

TEST(Limits, CountsTheThreadsRunningFromLoadavg) {
  EXPECT_EQ(threads_running_in("3.00 4.65 4.40 5/142 21817\n"), 142);
  EXPECT_EQ(threads_running_in("garbage"), std::nullopt);
}

TEST(Limits, ReadsMemAvailableInBytes) {
  EXPECT_EQ(memory_available_in("MemTotal:       24683784 kB\nMemFree:  1 kB\nMemAvailable:   23000000 kB\n"),
            std::int64_t{23000000} * 1024);
  EXPECT_EQ(memory_available_in("MemTotal: 1 kB\n"), std::nullopt);
}

TEST(Limits, TheSmallestOfTheThreeThreadLimitsWinsAndNamesItself) {
  FakeOs os;
  os.files["/proc/self/limits"] = kLimits;
  os.files["/proc/sys/kernel/pid_max"] = "32768\n";
  os.files["/proc/sys/kernel/threads-max"] = "192735\n";
  os.files["/proc/loadavg"] = "0.1 0.2 0.3 2/300 999\n";
  os.files["/proc/meminfo"] = "MemAvailable:   1000 kB\n";
  const SystemLimits limits = read_system_limits(os);
  ASSERT_TRUE(limits.threads.has_value());
  EXPECT_EQ(limits.threads->threads, 32768);
  EXPECT_EQ(limits.threads->source, ThreadLimit::Source::kPidMax);
  EXPECT_EQ(limits.threads->running, 300);
  EXPECT_EQ(limits.memory_available, 1024000);
}

TEST(Limits, NothingReadableIsNoLimit) {
  FakeOs os;
  const SystemLimits limits = read_system_limits(os);
  EXPECT_FALSE(limits.threads.has_value());
  EXPECT_FALSE(limits.memory_available.has_value());
}

}  // namespace
}  // namespace ddtime
