// SPDX-License-Identifier: GPL-3.0-or-later
// timing — what a run is measured with: its window on the clock
// (system/clock, which tests replace), the process's CPU times and how
// they divide. Reads a clock only when asked; the copy loop asks at the
// start, at the end and, for status=progress, once per block.
#pragma once

#include <cstdint>

#include "measure/latency.h"
#include "model/events.h"
#include "model/run_times.h"  // RunTimes, which the times measured here fill
#include "system/clock.h"
#include "system/os.h"

namespace ddtime {

// CPU time consumed by this process so far. total_ns is exact
// (CLOCK_PROCESS_CPUTIME_ID); user_ns and sys_ns come from getrusage, whose
// split the kernel estimates from the clock ticks that landed in each mode,
// so over a short window their differences can even exceed the real time.
struct CpuTimes {
  std::int64_t user_ns = 0;
  std::int64_t sys_ns = 0;
  std::int64_t total_ns = 0;
};
CpuTimes process_cpu_times() noexcept;

// The CPU time spent between two readings taken inside a window of
// real_ns: the exact total of every thread of the process, divided between
// user and system in the proportion getrusage moved in the window (or,
// when no tick landed in it, in the proportion of the whole process so
// far; with no tick at all, as user time, as the kernel does). Never more
// than real_ns times the threads that could run at once (threads, at most
// the CPUs online): one thread cannot use more CPU than there was time,
// and over a few microseconds the clocks' own granularity would otherwise
// show it doing so. With the threads engine the copy's CPU may well exceed
// real time.
struct CpuSplit {
  std::int64_t user_ns = 0;
  std::int64_t sys_ns = 0;
};
CpuSplit cpu_in_window(const CpuTimes& start, const CpuTimes& end, std::int64_t real_ns, unsigned threads = 1) noexcept;

// The CPUs this process may run on (sched_getaffinity), at least 1.
unsigned usable_cpus() noexcept;

// Wraps the real Os for --split-times: counts the ticks spent inside read
// calls and inside write calls (and the seeks that stand for writes under
// conv=sparse). Every other call passes straight through OsWrapper.
class TimedOs final : public OsWrapper {
 public:
  explicit TimedOs(Os& inner) noexcept : OsWrapper(inner) {}

  std::uint64_t read_ticks_spent() const noexcept { return read_ticks_; }
  std::uint64_t write_ticks_spent() const noexcept { return write_ticks_; }

  IoResult read(int fd, void* buffer, std::size_t length) noexcept override;
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override;
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override;
  IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept override;
  IoResult lseek(int fd, off_t offset, int whence) noexcept override;

 private:
  std::uint64_t read_ticks_ = 0;
  std::uint64_t write_ticks_ = 0;
};

// --latency with the sync engine: each read of the input (fd 0) and each
// write of the output (fd 1) is one system call, timed in ticks
// (read_ticks) and recorded.
//
// Chained, a call that follows the copy's previous read or write with
// nothing between but ddtime's own record keeping (the straight copy: no
// conversion, padding, sparse check or progress line) starts where that
// one ended: one clock reading a call instead of two, which at bs=4k to
// /dev/null is the difference between about 1% and 5% of the copy. The
// work between the calls is then inside each duration; one call in
// kGapSampleEvery also reads the clock just before it, so the report can
// say how long that work took. Any other call through this Os, and
// break_chain() (the copy's events: a notice, a statistics line), make the
// next call read the clock afresh.
class LatencyOs final : public OsWrapper {
 public:
  LatencyOs(Os& inner, LatencyRecorders& recorders, bool chained) noexcept
      : OsWrapper(inner),
        recorders_(recorders),
        chained_(chained),
        direct_(dynamic_cast<PosixOs*>(&inner) != nullptr) {}

  bool chained() const noexcept { return chained_; }
  void break_chain() noexcept { linked_ = false; }
  // The sampled work between chained calls, in ticks: how many, and their sum.
  std::int64_t gaps_sampled() const noexcept { return gaps_sampled_; }
  std::uint64_t gap_ticks() const noexcept { return gap_ticks_; }

  IoResult read(int fd, void* buffer, std::size_t length) noexcept override;
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override;
  // --random's records, at their offsets: timed as read and write are.
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override;
  IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept override;

  // Everything else breaks the chain, then passes straight through.
  IoResult open(const char* path, int flags, mode_t mode) noexcept override {
    break_chain();
    return OsWrapper::open(path, flags, mode);
  }
  IoResult close(int fd) noexcept override {
    break_chain();
    return OsWrapper::close(fd);
  }
  IoResult dup2(int from, int to) noexcept override {
    break_chain();
    return OsWrapper::dup2(from, to);
  }
  IoResult lseek(int fd, off_t offset, int whence) noexcept override {
    break_chain();
    return OsWrapper::lseek(fd, offset, whence);
  }
  IoResult fstat(int fd, struct stat& status) noexcept override {
    break_chain();
    return OsWrapper::fstat(fd, status);
  }
  IoResult ftruncate(int fd, off_t length) noexcept override {
    break_chain();
    return OsWrapper::ftruncate(fd, length);
  }
  IoResult fsync(int fd) noexcept override {
    break_chain();
    return OsWrapper::fsync(fd);
  }
  IoResult fdatasync(int fd) noexcept override {
    break_chain();
    return OsWrapper::fdatasync(fd);
  }
  IoResult get_status_flags(int fd) noexcept override {
    break_chain();
    return OsWrapper::get_status_flags(fd);
  }
  IoResult set_status_flags(int fd, int flags) noexcept override {
    break_chain();
    return OsWrapper::set_status_flags(fd, flags);
  }
  IoResult drop_cache(int fd, off_t offset, off_t length) noexcept override {
    break_chain();
    return OsWrapper::drop_cache(fd, offset, length);
  }
  IoResult stat_path(const char* path, struct stat& status) noexcept override {
    break_chain();
    return OsWrapper::stat_path(path, status);
  }
  DirectIoNeeds direct_io_needs(int fd) noexcept override {
    break_chain();
    return OsWrapper::direct_io_needs(fd);
  }
  IoResult block_device_size(int fd) noexcept override {
    break_chain();
    return OsWrapper::block_device_size(fd);
  }
  IoResult reserve(int fd, off_t offset, off_t length) noexcept override {
    break_chain();
    return OsWrapper::reserve(fd, offset, length);
  }
  IoResult resident_pages(int fd, off_t offset, off_t length) noexcept override {
    break_chain();
    return OsWrapper::resident_pages(fd, offset, length);
  }
  IoResult flush_device_cache(int fd) noexcept override {
    break_chain();
    return OsWrapper::flush_device_cache(fd);
  }
  IoResult allocate_blocks(int fd, off_t offset, off_t length) noexcept override {
    break_chain();
    return OsWrapper::allocate_blocks(fd, offset, length);
  }
  IoResult real_path(const char* path, char* resolved) noexcept override {
    break_chain();
    return OsWrapper::real_path(path, resolved);
  }
  IoResult remove_file(const char* path) noexcept override {
    break_chain();
    return OsWrapper::remove_file(path);
  }

 private:
  static constexpr int kGapSampleEvery = 1024;

  // call(), with the ticks from its start (chained or read afresh) to its
  // return in `took`; the chain then starts from that return.
  template <typename Call>
  IoResult timed(std::uint64_t& took, Call call) noexcept {
    const std::uint64_t start = start_ticks();
    const IoResult result = call();
    const std::uint64_t end = read_ticks();
    ended_at(end);
    took = end - start;
    return result;
  }

  std::uint64_t start_ticks() noexcept {
    if (!linked_) return read_ticks();
    if (--until_gap_sample_ == 0) [[unlikely]] {
      until_gap_sample_ = kGapSampleEvery;
      gap_ticks_ += read_ticks() - last_end_;
      ++gaps_sampled_;
    }
    return last_end_;
  }
  void ended_at(std::uint64_t end) noexcept {
    last_end_ = end;
    linked_ = chained_;
  }

  LatencyRecorders& recorders_;
  const bool chained_;
  // Over the real Os, the copy's reads and writes go straight to the
  // kernel (os_direct): no call level more than without --latency.
  const bool direct_;
  bool linked_ = false;  // the next call may start at last_end_
  std::uint64_t last_end_ = 0;
  int until_gap_sample_ = kGapSampleEvery;
  std::int64_t gaps_sampled_ = 0;
  std::uint64_t gap_ticks_ = 0;
};

// The copy's events, passed on, each breaking a LatencyOs chain: what they
// print or handle is no part of the next call.
class ChainBreakingEvents final : public Events {
 public:
  ChainBreakingEvents(Events& inner, LatencyOs& os) noexcept : inner_(inner), os_(os) {}

  void notice(Notice what, Side side, int err, std::int64_t value) override {
    os_.break_chain();
    inner_.notice(what, side, err, value);
  }
  void alignment_refused(const AlignmentProblem& problem) override {
    os_.break_chain();
    inner_.alignment_refused(problem);
  }
  void written_out_of_order(const WrittenOutOfOrder& blocks) override {
    os_.break_chain();
    inner_.written_out_of_order(blocks);
  }
  void starting(const RunStart& start) override {
    os_.break_chain();
    inner_.starting(start);
  }
  void show_stats(const Stats& stats) override {
    os_.break_chain();
    inner_.show_stats(stats);
  }
  bool handle_signals(const Stats& stats) override {
    os_.break_chain();
    return inner_.handle_signals(stats);
  }
  void progress(const Stats& stats, std::int64_t now_ns) override {
    os_.break_chain();
    inner_.progress(stats, now_ns);
  }

 private:
  Events& inner_;
  LatencyOs& os_;
};

}  // namespace ddtime
