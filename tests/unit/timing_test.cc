// SPDX-License-Identifier: GPL-3.0-or-later
// The CPU time of the report's window: exact in total, split as the kernel
// splits it; TimedOs, which counts the ticks of reads and writes only; and
// LatencyOs, which times each read and write, chained or alone.
#include "measure/timing.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "fakes/fake_os.h"
#include "fakes/recording_events.h"
#include "measure/run_window.h"

namespace ddtime {
namespace {

// Longer than any CPU time below, so that only the tests about the limit
// meet it.
constexpr std::int64_t kLongWindow = 1'000'000'000'000;

TEST(CpuInWindow, KeepsTheExactTotalAndTheKernelsProportion) {
  const CpuTimes start{1'000'000, 3'000'000, 4'100'000};
  const CpuTimes end{4'000'000, 4'000'000, 8'100'000};  // 3 ms user, 1 ms sys by ticks
  const CpuSplit split = cpu_in_window(start, end, kLongWindow);
  EXPECT_EQ(split.user_ns, 3'000'000);
  EXPECT_EQ(split.sys_ns, 1'000'000);
}

TEST(CpuInWindow, NeverMoreThanTheRealTimeOfTheWindow) {
  // The CPU clock moved 40 us while the monotonic clock saw 10 us: the
  // difference is the CPU clock reads themselves.
  const CpuTimes start{1'000'000, 3'000'000, 4'000'000};
  const CpuTimes end{1'000'000, 3'040'000, 4'040'000};
  const CpuSplit split = cpu_in_window(start, end, 10'000);
  EXPECT_EQ(split.user_ns, 0);
  EXPECT_EQ(split.sys_ns, 10'000);
  const CpuSplit no_time = cpu_in_window(start, end, 0);
  EXPECT_EQ(no_time.user_ns + no_time.sys_ns, 0);
}

// Defect 9: with the threads engine the process's threads together use
// more CPU than there was time, and the figure says so.
TEST(CpuInWindow, SeveralThreadsMayUseMoreThanTheRealTime) {
  if (usable_cpus() < 2) GTEST_SKIP() << "needs two CPUs to run two threads at once";
  const CpuTimes start{1'000'000, 3'000'000, 4'000'000};
  const CpuTimes end{1'000'000, 3'015'000, 4'015'000};
  const CpuSplit split = cpu_in_window(start, end, 10'000, 9);
  EXPECT_EQ(split.user_ns + split.sys_ns, 15'000);
  // Still no more than the CPUs could have run: 9 threads on 2 CPUs.
  const CpuTimes busy{1'000'000, 3'900'000, 4'900'000};
  const CpuSplit capped = cpu_in_window(start, busy, 10'000, 9);
  EXPECT_EQ(capped.user_ns + capped.sys_ns, 10'000 * static_cast<std::int64_t>(std::min(9u, usable_cpus())));
}

TEST(CpuInWindow, TickEstimatesLargerThanTheWindowAreScaledDown) {
  // Seen on a 33 us copy: getrusage moved 300 us of user time from one
  // reading to the next, so the report claimed 758% CPU.
  const CpuTimes start{0, 7'220'000, 7'220'000};
  const CpuTimes end{300'000, 7'220'000, 7'250'000};
  const CpuSplit split = cpu_in_window(start, end, kLongWindow);
  EXPECT_EQ(split.user_ns, 30'000);
  EXPECT_EQ(split.sys_ns, 0);
}

TEST(CpuInWindow, NoTickInTheWindowUsesTheWholeProcesssProportion) {
  const CpuTimes start{2'000'000, 6'000'000, 8'000'000};
  const CpuTimes end{2'000'000, 6'000'000, 8'400'000};
  const CpuSplit split = cpu_in_window(start, end, kLongWindow);
  EXPECT_EQ(split.user_ns, 100'000);
  EXPECT_EQ(split.sys_ns, 300'000);
}

TEST(CpuInWindow, NoTickAtAllCountsAsUserTime) {
  const CpuSplit split = cpu_in_window(CpuTimes{0, 0, 100}, CpuTimes{0, 0, 900}, kLongWindow);
  EXPECT_EQ(split.user_ns, 800);
  EXPECT_EQ(split.sys_ns, 0);
}

TEST(CpuInWindow, NeverNegative) {
  // The kernel keeps each figure monotonic, but a reading from a clock
  // that went backwards must not turn into negative time.
  const CpuSplit split = cpu_in_window(CpuTimes{5, 5, 500}, CpuTimes{4, 4, 400}, kLongWindow);
  EXPECT_EQ(split.user_ns, 0);
  EXPECT_EQ(split.sys_ns, 0);
}

TEST(ProcessCpuTimes, TotalGrowsWithWork) {
  const CpuTimes before = process_cpu_times();
  volatile unsigned long sink = 0;
  for (unsigned long i = 0; i < 20'000'000; ++i) sink = sink + i;
  const CpuTimes after = process_cpu_times();
  EXPECT_GT(after.total_ns, before.total_ns);
  const CpuSplit split = cpu_in_window(before, after, kLongWindow);
  EXPECT_EQ(split.user_ns + split.sys_ns, after.total_ns - before.total_ns);
}

// Every call takes at least one tick before reaching the fake, so that a
// call TimedOs times always adds to its count, whatever the tick source's
// resolution, and one it does not time visibly adds nothing.
class TakesATick final : public OsWrapper {
 public:
  using OsWrapper::OsWrapper;

  IoResult read(int fd, void* buffer, std::size_t length) noexcept override {
    wait();
    return OsWrapper::read(fd, buffer, length);
  }
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override {
    wait();
    return OsWrapper::write(fd, buffer, length);
  }
  IoResult lseek(int fd, off_t offset, int whence) noexcept override {
    wait();
    return OsWrapper::lseek(fd, offset, whence);
  }
  IoResult fsync(int fd) noexcept override {
    wait();
    return OsWrapper::fsync(fd);
  }
  IoResult ftruncate(int fd, off_t length) noexcept override {
    wait();
    return OsWrapper::ftruncate(fd, length);
  }

 private:
  static void wait() noexcept {
    const std::uint64_t start = read_ticks();
    while (read_ticks() == start) {
    }
  }
};

class TimedOsOverAFake : public ::testing::Test {
 protected:
  TimedOsOverAFake() { fake_.input.assign(4096, 'x'); }

  testing::FakeOs fake_;
  TakesATick slow_{fake_};
  TimedOs timed_{slow_};
  char buffer_[512] = {};
};

TEST_F(TimedOsOverAFake, CountsReadsAndWritesApart) {
  EXPECT_EQ(timed_.read_ticks_spent(), 0u);
  EXPECT_EQ(timed_.write_ticks_spent(), 0u);
  EXPECT_EQ(timed_.read(0, buffer_, sizeof buffer_).n, 512);
  const std::uint64_t read = timed_.read_ticks_spent();
  EXPECT_GT(read, 0u);
  EXPECT_EQ(timed_.write_ticks_spent(), 0u);
  EXPECT_EQ(timed_.write(1, buffer_, sizeof buffer_).n, 512);
  EXPECT_GT(timed_.write_ticks_spent(), 0u);
  EXPECT_EQ(timed_.read_ticks_spent(), read);
  EXPECT_EQ(fake_.calls, (std::vector<std::string>{"read 0 512", "write 1 512"}));
}

TEST_F(TimedOsOverAFake, CountsOnlyARelativeSeekOnTheOutputAsWriting) {
  // Other seeks position the files: neither reading nor writing.
  EXPECT_EQ(timed_.lseek(0, 512, SEEK_CUR).n, 512);
  EXPECT_EQ(timed_.lseek(1, 512, SEEK_SET).n, 512);
  EXPECT_EQ(timed_.lseek(1, 0, SEEK_CUR).n, 512);
  EXPECT_EQ(timed_.write_ticks_spent(), 0u);
  // conv=sparse skipping a block of zeros on the output.
  EXPECT_EQ(timed_.lseek(STDOUT_FILENO, 512, SEEK_CUR).n, 1024);
  EXPECT_GT(timed_.write_ticks_spent(), 0u);
  EXPECT_EQ(timed_.read_ticks_spent(), 0u);
  EXPECT_EQ(fake_.count_calls("lseek "), 4u);
}

TEST_F(TimedOsOverAFake, PassesEveryOtherCallThroughUntimed) {
  fake_.fsync_error = EIO;
  EXPECT_EQ(timed_.fsync(1).err, EIO);
  EXPECT_EQ(timed_.ftruncate(1, 100).n, 0);
  EXPECT_EQ(timed_.read_ticks_spent(), 0u);
  EXPECT_EQ(timed_.write_ticks_spent(), 0u);
  EXPECT_EQ(fake_.calls, (std::vector<std::string>{"fsync 1", "ftruncate 1 100"}));
  EXPECT_EQ(fake_.output.size(), 100u);
}

// Spends at least `ticks` of read_ticks() before returning: a stand-in
// for work done between two calls.
void spend_ticks(std::uint64_t ticks) {
  const std::uint64_t start = read_ticks();
  while (read_ticks() - start < ticks) {
  }
}

constexpr std::uint64_t kLongPause = 50'000'000;  // ticks: many times one fake call

class LatencyOsOverAFake : public ::testing::Test {
 protected:
  LatencyOsOverAFake() { fake_.input.assign(1 << 20, 'x'); }

  // The longest duration recorded on each side.
  std::int64_t longest_read() const { return recorders_.reads.summary().max_ns; }
  std::int64_t longest_write() const { return recorders_.writes.summary().max_ns; }

  testing::FakeOs fake_;
  TakesATick slow_{fake_};
  LatencyRecorders recorders_{4096, 4096};
  char buffer_[512] = {};
};

TEST_F(LatencyOsOverAFake, ChainedACallStartsWhereTheLastOneEnded) {
  LatencyOs timed(slow_, recorders_, true);
  ASSERT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 512);
  spend_ticks(kLongPause);
  ASSERT_EQ(timed.write(1, buffer_, sizeof buffer_).n, 512);
  EXPECT_GE(static_cast<std::uint64_t>(longest_write()), kLongPause) << "the pause is inside the write";
  EXPECT_LT(static_cast<std::uint64_t>(longest_read()), kLongPause) << "the first call reads the clock itself";
}

TEST_F(LatencyOsOverAFake, AloneEachCallIsTimedByItself) {
  LatencyOs timed(slow_, recorders_, false);
  ASSERT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 512);
  spend_ticks(kLongPause);
  ASSERT_EQ(timed.write(1, buffer_, sizeof buffer_).n, 512);
  EXPECT_LT(static_cast<std::uint64_t>(longest_write()), kLongPause);
  EXPECT_EQ(recorders_.reads.count(), 1);
  EXPECT_EQ(recorders_.writes.count(), 1);
  EXPECT_EQ(timed.gaps_sampled(), 0);
}

TEST_F(LatencyOsOverAFake, AnyOtherCallBreaksTheChain) {
  LatencyOs timed(slow_, recorders_, true);
  ASSERT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 512);
  spend_ticks(kLongPause);
  ASSERT_EQ(timed.lseek(1, 0, SEEK_CUR).n, 0);
  ASSERT_EQ(timed.write(1, buffer_, sizeof buffer_).n, 512);
  // A read or write of another file descriptor counts as another call.
  spend_ticks(kLongPause);
  ASSERT_EQ(timed.write(2, buffer_, 3).n, 3);
  ASSERT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 512);
  EXPECT_LT(static_cast<std::uint64_t>(longest_write()), kLongPause);
  EXPECT_LT(static_cast<std::uint64_t>(longest_read()), kLongPause);
  EXPECT_EQ(recorders_.writes.count(), 1) << "only the output's writes are timed";
}

TEST_F(LatencyOsOverAFake, TheCopysEventsBreakTheChain) {
  LatencyOs timed(slow_, recorders_, true);
  testing::RecordingEvents inner;
  ChainBreakingEvents events(inner, timed);
  ASSERT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 512);
  spend_ticks(kLongPause);  // as if printing the statistics took this long
  events.show_stats(Stats{});
  ASSERT_EQ(timed.write(1, buffer_, sizeof buffer_).n, 512);
  EXPECT_LT(static_cast<std::uint64_t>(longest_write()), kLongPause);
  EXPECT_EQ(inner.stats_shown, 1) << "and are passed on";
}

TEST_F(LatencyOsOverAFake, OneChainedCallIn1024MeasuresTheWorkBeforeIt) {
  LatencyOs timed(slow_, recorders_, true);
  for (int i = 0; i < 1024; ++i) ASSERT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 512);
  EXPECT_EQ(timed.gaps_sampled(), 0) << "the first call is not chained";
  ASSERT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 512);
  EXPECT_EQ(timed.gaps_sampled(), 1);
  EXPECT_GT(timed.gap_ticks(), 0u);
  EXPECT_EQ(recorders_.reads.count(), 1025);
}

TEST_F(LatencyOsOverAFake, TheReadThatFindsTheEndIsNotCounted) {
  fake_.input.assign(100, 'x');
  LatencyOs timed(slow_, recorders_, true);
  EXPECT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 100);
  EXPECT_EQ(timed.read(0, buffer_, sizeof buffer_).n, 0);
  EXPECT_EQ(recorders_.reads.count(), 1);
}

// A clock the test moves by hand.
class SteppedClock final : public Clock {
 public:
  std::int64_t now = 0;
  std::int64_t now_ns() noexcept override { return now; }
};

TEST(RunWindow, StartingAgainForgetsTheLastRunsCopyEndAndFlush) {
  SteppedClock clock;
  RunWindow window(clock, false);
  window.start(nullptr);
  clock.now = 100;
  window.copy_ended();
  window.flush_starting();
  clock.now = 150;
  window.flush_finished();
  EXPECT_EQ(window.measure().flush_ns, 50);
  EXPECT_EQ(window.measure().copy_ns, 100);
  // The next run of a session.
  window.start(nullptr);
  clock.now = 400;
  const RunTimes second = window.measure();
  EXPECT_EQ(second.flush_ns, 0);
  EXPECT_EQ(second.copy_ns, 250) << "the copy runs to now until it ends";
  EXPECT_EQ(second.real_ns, 250);
}

// A SIGUSR1 after the copy (in the flush, the close, between a session's
// runs) measures a window whose TimedOs has gone with the copy.
TEST(RunWindow, KeepsTheSplitOfATimedOsThatHasGone) {
  SteppedClock clock;
  RunWindow window(clock, true);
  testing::FakeOs fake;
  fake.input.assign(4096, 'x');
  char buffer[512] = {};
  std::uint64_t read_ticks = 0;
  {
    TakesATick slow(fake);
    TimedOs timed(slow);
    const OpenedWindow opened(window, &timed);
    clock.now = 1'000'000;
    ASSERT_EQ(timed.read(0, buffer, sizeof buffer).n, 512);
    read_ticks = timed.read_ticks_spent();
    ASSERT_GT(read_ticks, 0u);
  }
  // The TimedOs is gone; its bytes may be anything now.
  const RunTimes after = window.measure();
  EXPECT_TRUE(after.split) << "the reads and writes it counted still split the time";
  EXPECT_GT(after.read_ns, 0);
  EXPECT_EQ(after.write_ns, 0);
}

}  // namespace
}  // namespace ddtime
