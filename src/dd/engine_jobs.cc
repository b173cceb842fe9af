// SPDX-License-Identifier: GPL-3.0-or-later
// --jobs=N: the queued copy's range split among N jobs, each a QueuedCopy
// with a ring and slots of its own, job 0 in the calling thread and the
// others in threads of their own. Job 0 positions the files first and
// ends their positions last; it alone hears signals, keeps the time and
// says what the other jobs met, so an error or a signal is said once and
// ends every job.
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

void QueuedCopy::start_jobs() {
  // The range's records: a timed run's whole blocks each pass, or what
  // count= and the input's size leave.
  const bool passes = request_.queue.order.repeats();
  std::optional<std::int64_t> records;
  if (passes) {
    records = request_.queue.order.blocks();
  } else if (const std::optional<std::int64_t> bytes =
                 input_bytes_from(request_.os, settings_, request_.kinds.input, input_base_)) {
    records = (*bytes + ibs_ - 1) / ibs_;
  }
  const auto asked = static_cast<unsigned>(request_.queue.lanes.size());
  const std::vector<JobPart> parts = split_range(records, asked, passes);
  result_.jobs.ran = static_cast<unsigned>(std::max<std::size_t>(parts.size(), 1));
  result_.jobs.range_records = records.value_or(-1);
  if (parts.size() <= 1) return;
  jobs_ = std::make_unique<JobsRun>(static_cast<unsigned>(parts.size()));
  crew_ = &jobs_->crew;
  auto limit = [&](const JobPart& part) { return passes || !records ? kNoLimit : part.length; };
  part_ = parts[0];
  record_limit_ = limit(parts[0]);
  for (std::size_t job = 1; job < parts.size(); ++job) {
    IoTap* const tap = job < request_.taps.size() ? request_.taps[job] : nullptr;
    auto copy =
        std::make_unique<QueuedCopy>(request_, request_.queue.lanes[job], jobs_->events[job], parts[job], crew_, tap);
    copy->job_index_ = static_cast<unsigned>(job);
    copy->record_limit_ = limit(parts[job]);
    jobs_->copies.push_back(std::move(copy));
  }
  jobs_->crew.running = static_cast<unsigned>(jobs_->copies.size());
  JobsCrew* const crew = crew_;
  jobs_->listener.emplace([crew] { crew->stop.store(true, std::memory_order_relaxed); });
  jobs_->start_ns = request_.clock.now_ns();
  jobs_->start_cpu_ns = thread_cpu_ns();
  const int failed = jobs_->threads.start(static_cast<unsigned>(jobs_->copies.size()),
                                          [this](unsigned i) { jobs_->copies[i]->run_part(*this); });
  if (failed != 0) {
    // A job without a thread copies nothing: every job stops, and the
    // copy ends as a read that failed.
    events_.notice(Notice::kThreadsUnavailable, Side::kInput, failed, static_cast<std::int64_t>(parts.size()));
    result_.exit_status = 1;
    stop_every_job(0);
    std::lock_guard lock(jobs_->crew.mutex);
    jobs_->crew.running -= static_cast<unsigned>(jobs_->copies.size()) - static_cast<unsigned>(jobs_->threads.size());
  }
}

void QueuedCopy::run_part(const QueuedCopy& first) {
  input_base_ = first.input_base_;
  output_base_ = first.output_base_;
  const std::int64_t start_ns = request_.clock.now_ns();
  const std::int64_t start_cpu = thread_cpu_ns();
  if (const int err = ring_.start_in_this_thread(); err != 0) {
    events_.notice(Notice::kReadError, Side::kInput, err, 0);
    result_.exit_status = 1;
    stop_every_job(0);
  } else {
    copy_loop();
  }
  // The tail (the range's partial record) waits for job 0: see
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
// and fails the next fsync with EIO. So job 0 writes it, after every job
// ended, as the only job writes its own after its last O_DIRECT write.
void QueuedCopy::write_other_tails() {
  for (const std::unique_ptr<QueuedCopy>& other : jobs_->copies) {
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

void QueuedCopy::wait_for_jobs() {
  part_ended(jobs_->start_ns, jobs_->start_cpu_ns);
  // Job 0's own part is done; it still hears the signals and keeps the
  // time (its record limit no longer matters) until the last job ends.
  std::unique_lock lock(crew_->mutex);
  while (crew_->running > 0) {
    lock.unlock();
    poll_stops();
    lock.lock();
    crew_->ended.wait_for(lock, std::chrono::milliseconds(1));
  }
  lock.unlock();
  jobs_->threads.join();
  jobs_->listener.reset();
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

Stats QueuedCopy::counted_so_far(bool marks) const noexcept {
  Stats total = stats_;
  if (crew_ == nullptr) return total;
  for (std::size_t job = 1; job < crew_->counts.size(); ++job) {
    const PublishedCounts::Values counts = crew_->counts[job].read();
    total.full_records_in += counts.full_records_in;
    total.full_records_out += counts.full_records_out;
    total.bytes_in += counts.bytes_in;
    total.bytes_out += counts.bytes_out;
    // The samples of the records counted: a read that completed but
    // whose record was not counted yet is the measurement's.
    if (marks) crew_->ramp_marks[job] = {counts.full_records_in, counts.full_records_out};
  }
  return total;
}

void QueuedCopy::publish() noexcept {
  if (job_index_ == 0) return;
  const IoTap::Counts sampled = tap_ != nullptr ? tap_->counts() : IoTap::Counts{};
  crew_->counts[job_index_].publish({stats_.full_records_in, stats_.full_records_out, stats_.bytes_in, stats_.bytes_out,
                                     sampled.reads, sampled.writes});
}

// Every job's records and bytes in one result; what the other jobs met,
// said once: an error only when none was said before it.
void QueuedCopy::add_up_jobs() {
  find_the_cut();  // before job 0's counts hold the others'
  bool error_said = result_.exit_status != 0;
  std::int64_t first_end = end_ns_;
  std::int64_t last_end = end_ns_;
  double busy = busy_;
  // A job that never heard the ramp end: its part done before it heard,
  // or the whole copy inside the ramp (then every sample is the ramp's).
  const bool ramped = request_.timekeeper != nullptr && request_.timekeeper->ramps();
  for (std::size_t i = 0; i < jobs_->copies.size(); ++i) {
    QueuedCopy& other = *jobs_->copies[i];
    if (ramped && !other.ramp_forgotten_) other.forget_ramp_samples();
    const Stats& counted = other.result_.stats;
    stats_.full_records_in += counted.full_records_in;
    stats_.partial_records_in += counted.partial_records_in;
    stats_.full_records_out += counted.full_records_out;
    stats_.partial_records_out += counted.partial_records_out;
    stats_.bytes_in += counted.bytes_in;
    stats_.bytes_out += counted.bytes_out;
    input_offset_.advance(counted.bytes_in);
    written_end_ = std::max(written_end_, other.written_end_);
    result_.output_needs_fsync = result_.output_needs_fsync || other.result_.output_needs_fsync;
    if (other.result_.exit_status == 0 || !error_said) {
      for (const HeldEvents::Held& held : jobs_->events[i + 1].held()) {
        events_.notice(held.what, held.side, held.err, held.value);
      }
    }
    if (other.result_.exit_status != 0) {
      error_said = true;
      result_.exit_status = other.result_.exit_status;
    }
    first_end = std::min(first_end, other.end_ns_);
    last_end = std::max(last_end, other.end_ns_);
    busy += other.busy_;
  }
  result_.jobs.ran = static_cast<unsigned>(jobs_->copies.size() + 1);
  result_.jobs.first_end_ns = first_end;
  result_.jobs.last_end_ns = last_end;
  result_.jobs.busy = busy / static_cast<double>(jobs_->copies.size() + 1);
}

// Contiguous parts in turn: the first part a stop left undone is where
// one job's copy would have stopped; the records other jobs wrote beyond
// it go with the cut, so of= never holds a gap.
void QueuedCopy::find_the_cut() {
  if (request_.queue.order.random() || part_.period != kNoLimit) return;
  auto undone = [](const QueuedCopy& copy) -> std::int64_t {
    const std::int64_t done = copy.next_retire_ + (copy.result_.stats.partial_records_out > 0 ? 1 : 0);
    return done < copy.part_.length ? copy.part_.first + done : -1;
  };
  cut_at_ = undone(*this);
  for (std::size_t i = 0; i < jobs_->copies.size() && cut_at_ < 0; ++i) cut_at_ = undone(*jobs_->copies[i]);
}

}  // namespace ddtime
