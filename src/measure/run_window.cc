// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/run_window.h"

namespace ddtime {

void RunWindow::start(const TimedOs* timed) noexcept {
  // A session opens the window once per run: nothing of the last run's stays.
  copy_end_ns_ = -1;
  flush_ns_ = 0;
  flushed_ = false;
  flush_cpu_ = {};
  timed_ = timed;
  split_ = timed != nullptr;
  threads_ = 1;
  job_threads_ = 1;
  // The clock first, then the CPU readings: the CPU window lies inside
  // the real one, and the readings' own cost is not charged to the copy.
  start_ns_ = clock_.now_ns();
  if (timed_ != nullptr) {
    ticks_at_start_ = read_ticks();
    read_ticks_at_start_ = timed_->read_ticks_spent();
    write_ticks_at_start_ = timed_->write_ticks_spent();
  }
  if (cpu_) cpu_at_start_ = process_cpu_times();
}

void RunWindow::timed_ended() noexcept {
  if (timed_ == nullptr) return;
  read_ticks_at_end_ = timed_->read_ticks_spent();
  write_ticks_at_end_ = timed_->write_ticks_spent();
  timed_ = nullptr;
}

void RunWindow::restart() noexcept {
  const unsigned threads = threads_;
  const unsigned job_threads = job_threads_;
  start(timed_);
  threads_ = threads;
  job_threads_ = job_threads;
}

void RunWindow::flush_starting() noexcept {
  flush_start_ns_ = clock_.now_ns();
  if (cpu_) cpu_at_flush_ = process_cpu_times();
}

void RunWindow::flush_finished() noexcept {
  const CpuTimes cpu_now = cpu_ ? process_cpu_times() : CpuTimes{};
  flush_ns_ = clock_.now_ns() - flush_start_ns_;
  flushed_ = true;
  if (cpu_) flush_cpu_ = cpu_in_window(cpu_at_flush_, cpu_now, flush_ns_);
}

RunTimes RunWindow::measure() noexcept {
  const CpuTimes cpu_now = cpu_ ? process_cpu_times() : CpuTimes{};
  const std::int64_t now = clock_.now_ns();
  RunTimes times;
  times.threads = threads_;
  times.job_threads = job_threads_;
  times.real_ns = now - start_ns_;
  times.copy_ns = (copy_end_ns_ >= 0 ? copy_end_ns_ : now) - start_ns_;
  times.flush_ns = flush_ns_;
  times.flushed = flushed_;
  times.flush_user_ns = flush_cpu_.user_ns;
  times.flush_sys_ns = flush_cpu_.sys_ns;
  if (!cpu_) return times;
  const CpuSplit cpu = cpu_in_window(cpu_at_start_, cpu_now, times.real_ns, threads_ == 0 ? usable_cpus() : threads_);
  times.user_ns = cpu.user_ns;
  times.sys_ns = cpu.sys_ns;
  if (split_) {
    // Ticks become nanoseconds by their rate over the whole window.
    const std::uint64_t read_ticks_now = timed_ != nullptr ? timed_->read_ticks_spent() : read_ticks_at_end_;
    const std::uint64_t write_ticks_now = timed_ != nullptr ? timed_->write_ticks_spent() : write_ticks_at_end_;
    const std::uint64_t ticks = read_ticks() - ticks_at_start_;
    if (ticks > 0 && times.real_ns > 0) {
      const long double ns_per_tick = static_cast<long double>(times.real_ns) / static_cast<long double>(ticks);
      times.split = true;
      times.read_ns =
          static_cast<std::int64_t>(static_cast<long double>(read_ticks_now - read_ticks_at_start_) * ns_per_tick);
      times.write_ns =
          static_cast<std::int64_t>(static_cast<long double>(write_ticks_now - write_ticks_at_start_) * ns_per_tick);
    }
  }
  return times;
}

}  // namespace ddtime
