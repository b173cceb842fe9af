// SPDX-License-Identifier: GPL-3.0-or-later
// --jobs=N: the queued copy's range split among N jobs, each a QueuedCopy
// with a ring and slots of its own in a thread of its own, and the calling
// thread their supervisor. Job 0 is the copy that positioned the files:
// it copies its part as every other job does, and after the join its
// object ends the positions. The supervisor alone hears signals, keeps the
// time and says what the jobs met, so an error or a signal is said once
// and ends every job.
#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <thread>

#include "dd/engine_queued_internal.h"
#include "system/clock.h"

namespace ddtime {

// Parts of the range's records: contiguous ones when it has an end (one
// part per job, the last shorter), every Nth record when it has none.
std::vector<JobPart> split_range(std::optional<std::int64_t> records, unsigned jobs, bool passes) {
  std::vector<JobPart> parts;
  if (!records) {
    for (unsigned job = 0; job < jobs; ++job) parts.push_back({job, 1, jobs});
    return parts;
  }
  const std::int64_t each = (*records + jobs - 1) / jobs;
  for (std::int64_t first = 0; first < *records; first += each) {
    parts.push_back({first, std::min(each, *records - first), passes ? *records : kNoLimit});
  }
  return parts;
}

QueuedCopy::~QueuedCopy() = default;

std::unique_ptr<JobsSupervisor> JobsSupervisor::start(QueuedCopy& first) {
  // The range's records: a timed run's whole blocks each pass, or what
  // count= and the input's size leave.
  const CopyRequest& request = first.request_;
  const bool passes = request.queue.order.repeats();
  std::optional<std::int64_t> records;
  if (passes) {
    records = request.queue.order.blocks();
  } else if (const std::optional<std::int64_t> bytes =
                 input_bytes_from(request.os, first.settings_, request.kinds.input, first.input_base_)) {
    records = (*bytes + first.ibs_ - 1) / first.ibs_;
  }
  const auto asked = static_cast<unsigned>(request.queue.lanes.size());
  const std::vector<JobPart> parts = split_range(records, asked, passes);
  first.result_.jobs.ran = static_cast<unsigned>(std::max<std::size_t>(parts.size(), 1));
  first.result_.jobs.range_records = records.value_or(-1);
  if (parts.size() <= 1) return nullptr;
  auto supervisor = std::make_unique<JobsSupervisor>(first, static_cast<unsigned>(parts.size()));
  auto limit = [&](const JobPart& part) { return passes || !records ? kNoLimit : part.length; };
  first.part_ = parts[0];
  first.record_limit_ = limit(parts[0]);
  first.crew_ = &supervisor->crew_;
  first.events_ = &supervisor->events_[0];
  for (std::size_t job = 1; job < parts.size(); ++job) {
    IoTap* const tap = job < request.taps.size() ? request.taps[job] : nullptr;
    auto copy = std::make_unique<QueuedCopy>(request, request.queue.lanes[job], supervisor->events_[job], parts[job],
                                             &supervisor->crew_, tap);
    copy->job_index_ = static_cast<unsigned>(job);
    copy->record_limit_ = limit(parts[job]);
    // Where job 0 positioned the files, before any job's thread starts
    // (job 0's thread writes its own object, the others only read theirs).
    copy->input_base_ = first.input_base_;
    copy->output_base_ = first.output_base_;
    supervisor->others_.push_back(std::move(copy));
  }
  supervisor->start_threads();
  return supervisor;
}

JobsSupervisor::JobsSupervisor(QueuedCopy& first, unsigned jobs)
    : first_(first), crew_(jobs), events_(jobs), retired_(jobs) {}

void JobsSupervisor::start_threads() {
  const CopyRequest& request = first_.request_;
  // Each job forgets its own samples of the ramp (its recorders are its
  // thread's), job 0's too: the timekeeper keeps its hands off them.
  if (request.timekeeper != nullptr) request.timekeeper->leave_samples_to_jobs();
  crew_.running = static_cast<unsigned>(jobs());
  JobsCrew* const crew = &crew_;
  listener_.emplace([crew] { crew->stop.store(true, std::memory_order_relaxed); });
  start_ns_ = request.clock.now_ns();
  const int failed = threads_.start(static_cast<unsigned>(jobs()), [this](unsigned i) { job(i).run_part(); });
  started_ = threads_.size();
  if (failed == 0) return;
  // A job without a thread copies nothing: every job stops, and the copy
  // ends as a read that failed.
  request.events.notice(Notice::kThreadsUnavailable, Side::kInput, failed, static_cast<std::int64_t>(jobs()));
  threads_refused_ = true;
  crew_.stop.store(true, std::memory_order_relaxed);
  std::lock_guard lock(crew_.mutex);
  crew_.running -= static_cast<unsigned>(jobs() - started_);
}

void JobsSupervisor::supervise() {
  std::unique_lock lock(crew_.mutex);
  while (crew_.running > 0) {
    lock.unlock();
    watch();
    lock.lock();
    crew_.ended.wait_for(lock, std::chrono::milliseconds(1));
  }
  lock.unlock();
  threads_.join();
  listener_.reset();
  // Job 0's object is the calling thread's again: what it says now is said.
  first_.events_ = &first_.request_.events;
}

void JobsSupervisor::watch() {
  const CopyRequest& request = first_.request_;
  // Job 0's ticker: its thread asks only the crew, so the line is this one's.
  if (first_.progress_) first_.progress_ticker_.poll_counting([&] { return counted_so_far(); });
  // SIGINT stops submission; what is in flight is drained and counted.
  if (signals::pending() && request.events.handle_signals(counted_so_far())) {
    interrupted_ = true;
    crew_.stop.store(true, std::memory_order_relaxed);
  }
  Pacer* const pacer = request.timekeeper;
  if (pacer == nullptr) return;
  // At the ramp's end each job's samples so far are marked as the ramp's,
  // for the job to forget when it hears.
  const bool ramping = pacer->ramping();
  const bool time_up = pacer->due_counting([&] { return counted_so_far(ramping && first_.tap_ != nullptr); });
  if (ramping && !pacer->ramping()) crew_.ramp_over.store(true, std::memory_order_release);
  // No new reads: what was read is written and counted.
  if (time_up) crew_.time_up.store(true, std::memory_order_relaxed);
}

void QueuedCopy::run_part() {
  const std::int64_t start_ns = request_.clock.now_ns();
  const std::int64_t start_cpu = thread_cpu_ns();
  if (const int err = ring_.start_in_this_thread(); err != 0) {
    events_->notice(Notice::kReadError, Side::kInput, err, 0);
    result_.exit_status = 1;
    stop_every_job(0);
  } else {
    copy_loop();
    // Job 0's ring holds the registered files, and the calling thread
    // destroys it: only this thread may let them go.
    ring_.let_files_go();
  }
  // The tail (the range's partial record) waits for the join: see
  // write_other_tails.
  part_ended(start_ns, start_cpu);
  {
    std::lock_guard lock(crew_->mutex);
    --crew_->running;
  }
  crew_->ended.notify_one();
}

// The partial record at the range's end goes through the page cache (an
// O_DIRECT write cannot take it); written while other jobs' O_DIRECT
// writes are in flight, its page may hold their blocks, and the kernel,
// unable to drop the dirty page after such a write, warns of a collision
// and fails the next fsync with EIO. So the calling thread writes it,
// after every job ended, as the only job writes its own after its last
// O_DIRECT write.
void QueuedCopy::write_other_tails() {
  for (const std::unique_ptr<QueuedCopy>& other : others_) {
    if (!crew_->stop.load(std::memory_order_relaxed) && other->tail_record_ >= 0 && other->result_.exit_status == 0) {
      other->write_tail();
    }
    other->result_.output_needs_fsync = other->writer_.needs_fsync();
  }
}

void QueuedCopy::forget_ramp_samples() noexcept {
  ramp_forgotten_ = true;
  if (tap_ == nullptr) return;
  if (!crew_->ramp_over.load(std::memory_order_acquire)) {
    tap_->forget_all();
    return;
  }
  tap_->forget_first(crew_->ramp_marks[job_index_]);
}

void QueuedCopy::part_ended(std::int64_t start_ns, std::int64_t start_cpu_ns) noexcept {
  end_ns_ = request_.clock.now_ns();
  const std::int64_t real = end_ns_ - start_ns;
  busy_ = real > 0 ? static_cast<double>(thread_cpu_ns() - start_cpu_ns) / static_cast<double>(real) : 0;
}

// A sequence lock without fences (which ThreadSanitizer cannot follow):
// each field's release store keeps the odd version before it, so a reader
// whose acquire load saw a field of a later publish() sees the version
// changed when it reads it again.
void PublishedCounts::publish(const Values& values) noexcept {
  const std::uint64_t version = version_.load(std::memory_order_relaxed);
  version_.store(version + 1, std::memory_order_relaxed);
  const std::array<std::int64_t, 6> in_order = {values.full_records_in, values.full_records_out, values.bytes_in,
                                                values.bytes_out,       values.reads_sampled,    values.writes_sampled};
  for (std::size_t i = 0; i < in_order.size(); ++i) fields_[i].store(in_order[i], std::memory_order_release);
  version_.store(version + 2, std::memory_order_release);
}

PublishedCounts::Values PublishedCounts::read() const noexcept {
  for (unsigned attempt = 1;; ++attempt) {
    const std::uint64_t before = version_.load(std::memory_order_acquire);
    if (before % 2 == 0) {
      std::array<std::int64_t, 6> f{};
      for (std::size_t i = 0; i < f.size(); ++i) f[i] = fields_[i].load(std::memory_order_acquire);
      if (version_.load(std::memory_order_relaxed) == before) return {f[0], f[1], f[2], f[3], f[4], f[5]};
    }
    // The publisher was preempted half way: let it run (more jobs than
    // cores is allowed).
    if (attempt % 64 == 0) std::this_thread::yield();
  }
}

Stats JobsSupervisor::counted_so_far(bool marks) noexcept {
  Stats total;
  for (std::size_t index = 0; index < jobs(); ++index) {
    const PublishedCounts::Values counts = crew_.counts[index].read();
    total.full_records_in += counts.full_records_in;
    total.full_records_out += counts.full_records_out;
    total.bytes_in += counts.bytes_in;
    total.bytes_out += counts.bytes_out;
    // The samples of the records counted: a read that completed but
    // whose record was not counted yet is the measurement's.
    if (marks) crew_.ramp_marks[index] = {counts.full_records_in, counts.full_records_out};
    retired_[index] = counts.full_records_out;
  }
  if (first_.request_.timekeeper != nullptr) first_.request_.timekeeper->jobs_retired(retired_);
  return total;
}

void QueuedCopy::publish() noexcept {
  const IoTap::Counts sampled = tap_ != nullptr ? tap_->counts() : IoTap::Counts{};
  crew_->counts[job_index_].publish({stats_.full_records_in, stats_.full_records_out, stats_.bytes_in, stats_.bytes_out,
                                     sampled.reads, sampled.writes});
}

void JobsSupervisor::add_up() {
  find_the_cut();  // before job 0's counts hold the others'
  const CopyRequest& request = first_.request_;
  Stats& total = first_.stats_;
  bool error_said = threads_refused_;
  std::int64_t first_end = kNoLimit;
  std::int64_t last_end = start_ns_;
  double busy = 0;
  // A job that never heard the ramp end: its part done before it heard,
  // or the whole copy inside the ramp (then every sample is the ramp's).
  const bool ramped = request.timekeeper != nullptr && request.timekeeper->ramps();
  for (std::size_t index = 0; index < jobs(); ++index) {
    QueuedCopy& copy = job(index);
    if (ramped && !copy.ramp_forgotten_) copy.forget_ramp_samples();
    if (index != 0) {
      const Stats& counted = copy.result_.stats;
      total.full_records_in += counted.full_records_in;
      total.partial_records_in += counted.partial_records_in;
      total.full_records_out += counted.full_records_out;
      total.partial_records_out += counted.partial_records_out;
      total.bytes_in += counted.bytes_in;
      total.bytes_out += counted.bytes_out;
      first_.input_offset_.advance(counted.bytes_in);
      first_.written_end_ = std::max(first_.written_end_, copy.written_end_);
      first_.result_.output_needs_fsync = first_.result_.output_needs_fsync || copy.result_.output_needs_fsync;
    }
    if (copy.result_.exit_status == 0 || !error_said) {
      for (const HeldEvents::Held& held : events_[index].held()) {
        request.events.notice(held.what, held.side, held.err, held.value);
      }
    }
    if (copy.result_.exit_status != 0) {
      error_said = true;
      first_.result_.exit_status = copy.result_.exit_status;
    }
    retired_[index] = copy.result_.stats.full_records_out + copy.result_.stats.partial_records_out;
    if (index >= started_) continue;  // its thread was refused: it never ran
    first_end = std::min(first_end, copy.end_ns_);
    last_end = std::max(last_end, copy.end_ns_);
    busy += copy.busy_;
  }
  // The last sample counts what each job retired in the end.
  if (request.timekeeper != nullptr) request.timekeeper->jobs_retired(retired_);
  if (threads_refused_) first_.result_.exit_status = 1;
  if (started_ == 0) first_end = start_ns_;
  JobsUse& use = first_.result_.jobs;
  use.ran = static_cast<unsigned>(jobs());
  use.first_end_ns = first_end;
  use.last_end_ns = last_end;
  use.busy = busy / static_cast<double>(jobs());
}

// Contiguous parts in turn: the first part a stop left undone is where
// one job's copy would have stopped; the records other jobs wrote beyond
// it go with the cut, so of= never holds a gap.
void JobsSupervisor::find_the_cut() {
  if (first_.request_.queue.order.random() || first_.part_.period != kNoLimit) return;
  auto undone = [](const QueuedCopy& copy) -> std::int64_t {
    const std::int64_t done = copy.next_retire_ + (copy.result_.stats.partial_records_out > 0 ? 1 : 0);
    return done < copy.part_.length ? copy.part_.first + done : -1;
  };
  for (std::size_t index = 0; index < jobs() && first_.cut_at_ < 0; ++index) first_.cut_at_ = undone(job(index));
}

}  // namespace ddtime
