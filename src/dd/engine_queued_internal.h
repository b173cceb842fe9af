// SPDX-License-Identifier: GPL-3.0-or-later
// engine_queued's copy, shared by engine_queued.cc (one job's loop) and
// engine_jobs.cc (--jobs: the range split among jobs, each a QueuedCopy
// with a ring of its own in a thread of its own, and the calling thread
// their supervisor).
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "dd/engine.h"
#include "dd/io.h"
#include "dd/io_position.h"
#include "dd/prefix_refill.h"
#include "model/settings.h"
#include "system/signals.h"
#include "system/threads.h"

namespace ddtime {

// Which of the range's records one job copies: its record i is the
// range's (i / length) * period + first + i % length. A contiguous part
// of every pass of period records (sequential access splits the range as
// fio's offset_increment does, a timed run's passes repeat the split, and
// --random's parts are parts of one permutation, so every block is still
// visited once a pass); with length 1 and period N, every Nth record of an
// endless range. The default: the whole range, record for record.
struct JobPart {
  std::int64_t first = 0;
  std::int64_t length = kNoLimit;
  std::int64_t period = kNoLimit;
  std::int64_t global(std::int64_t record) const noexcept {
    return length == kNoLimit ? record : (record / length) * period + first + record % length;
  }
};

// Parts of the range's records (nullopt: endless) for up to jobs jobs:
// contiguous ones, one per job and the last shorter, never an empty one;
// every jobs-th record of an endless range. passes: a timed run's, which
// repeat the split each pass of records.
std::vector<JobPart> split_range(std::optional<std::int64_t> records, unsigned jobs, bool passes);

// What one job has counted so far, published by the job after each reaped
// batch and read whole by the supervisor (a sequence lock): the records,
// the bytes and the latency samples of one moment. Read field by field
// instead, a reader preempted between the records and the samples took
// thousands of the measurement's samples for the ramp's.
class alignas(64) PublishedCounts {
 public:
  struct Values {
    std::int64_t full_records_in = 0;
    std::int64_t full_records_out = 0;
    std::int64_t bytes_in = 0;
    std::int64_t bytes_out = 0;
    std::int64_t reads_sampled = 0;   // --latency: the samples the job's
    std::int64_t writes_sampled = 0;  // recorders hold (count())
  };
  // The publishing job alone calls it.
  void publish(const Values& values) noexcept;
  // Any thread: one publish()'s values, never a mix of two.
  Values read() const noexcept;

 private:
  std::atomic<std::uint64_t> version_{0};  // odd while a publish() is under way
  std::array<std::atomic<std::int64_t>, 6> fields_{};
};

// What the jobs share: the stop every job obeys, the time the supervisor
// keeps, and what each job has counted so far (its own cache line each).
struct JobsCrew {
  // --ramp with --latency: a job's samples when the supervisor counted the
  // ramp's records: they are the ramp's, the ones after them the
  // measurement's.
  using SampleMarks = IoTap::Counts;
  explicit JobsCrew(unsigned jobs) : counts(jobs), ramp_marks(jobs) {}
  std::atomic<bool> stop{false};     // an error or a SIGINT: no job starts I/O
  std::atomic<bool> time_up{false};  // the timekeeper said so
  // --ramp ended: ramp_marks hold each job's samples of the ramp, which it
  // forgets when it hears (release by the supervisor, acquire by the jobs).
  std::atomic<bool> ramp_over{false};
  std::vector<PublishedCounts> counts;  // each job's, [job]
  // The supervisor writes them with each count while the ramp lasts, and
  // no more once it sets ramp_over; the jobs read them after.
  std::vector<SampleMarks> ramp_marks;
  std::mutex mutex;
  std::condition_variable ended;  // a job ended (running fell)
  unsigned running = 0;           // under mutex
};

// A job's events, held until the supervisor says them: the Events the
// console implements are the calling thread's alone.
class HeldEvents final : public Events {
 public:
  struct Held {
    Notice what;
    Side side;
    int err;
    std::int64_t value;
  };
  HeldEvents() { held_.reserve(4); }
  void notice(Notice what, Side side, int err, std::int64_t value) override {
    held_.push_back({what, side, err, value});
  }
  void alignment_refused(const AlignmentProblem&) override {}
  // Worked out from every job's slots after they ended, in the calling thread.
  void written_out_of_order(const WrittenOutOfOrder&) override {}
  void starting(const RunStart&) override {}
  void show_stats(const Stats&) override {}
  bool handle_signals(const Stats&) override { return false; }
  void progress(const Stats&, std::int64_t) override {}
  const std::vector<Held>& held() const noexcept { return held_; }

 private:
  std::vector<Held> held_;
};

constexpr std::uint64_t kWriteBit = kWriteTag;

class JobsSupervisor;

class QueuedCopy final : private PositionBuffers {
 public:
  // The only job, or --jobs' job 0: the copy as a whole, whose object
  // positions the files before the jobs start and ends the positions, the
  // counts and the errors after they ended. Alone, it also hears the
  // signals and keeps the time and the progress line as it copies.
  explicit QueuedCopy(const CopyRequest& request);
  // Another job of --jobs: its own lane (ring and slots), its part of the
  // range, its events held for the supervisor to say, the crew it belongs
  // to. tap: its own --latency tap, or null.
  QueuedCopy(const CopyRequest& request, const QueueLane& lane, Events& events, const JobPart& part, JobsCrew* crew,
             IoTap* tap);
  ~QueuedCopy() override;
  // The copy as a whole (run_queued_copy drives it): begin() positions
  // the files and reserves the output (false: nothing to copy, result()
  // says why); then the only job copies in the calling thread
  // (copy_alone), or --jobs' supervisor, which run_queued_copy owns, runs
  // every job, this one among them; end() writes the tails, adds up the
  // jobs, refills after an error and ends the positions.
  bool begin();
  void copy_alone();
  CopyResult end(JobsSupervisor* jobs);
  // A job's copy of its part, in its own thread, from where job 0 positioned
  // the files (the supervisor hands every job the bases before it starts).
  void run_part();
  const CopyResult& result() const noexcept { return result_; }

 private:
  friend class JobsSupervisor;

  // Where one record stands. Record i always lives in slot i % depth, so
  // in-order accounting needs no search.
  struct Slot {
    enum class State : std::uint8_t { kFree, kReading, kRead, kWriting, kWritten };
    State state = State::kFree;
    std::int64_t record = -1;
    std::size_t want = 0;            // bytes asked of the read
    std::int64_t got = 0;            // bytes read, or -errno
    std::size_t written = 0;         // bytes written so far
    int write_error = 0;             // errno of a failed write, or 0
    std::uint64_t queued_ticks = 0;  // --latency: when its request was queued (read_ticks)
  };

  Slot& slot(std::int64_t record) { return slots_[static_cast<std::size_t>(record) % slots_.size()]; }
  // Where record's block starts, from the range's start: in turn, or
  // where --random's order sends it.
  // record counts this job's records; part_ says which of the range's it is.
  std::int64_t block_offset(std::int64_t record) const noexcept {
    return request_.queue.order.block_of(part_.global(record)) * ibs_;
  }
  unsigned char* buffer(std::int64_t record) {
    return slot_buffers_[static_cast<std::size_t>(record) % slots_.size()].data();
  }
  int buffer_index(std::int64_t record) const {
    return static_cast<int>(static_cast<std::size_t>(record) % slots_.size());
  }
  unsigned char* block_for(Side) override { return slot_buffers_[0].data(); }

  bool position();
  void copy_loop();
  // The copy's turn to stop: for a job of --jobs, what the crew says (a
  // stop, the time, the ramp's end); for the only job, the time, a signal
  // and the progress line, heard by itself (watch_alone).
  void poll_stops();
  void watch_alone();
  // After the join: the tail another job's part ends in, written in this
  // thread once no O_DIRECT write is in flight.
  void write_other_tails();
  // --ramp with --latency: a job's samples from the ramp forgotten, once,
  // when it first hears the ramp is over (or, all of them, when the copy
  // ended inside it).
  void forget_ramp_samples() noexcept;
  // When this job's part ended, and how busy its thread was since start.
  void part_ended(std::int64_t start_ns, std::int64_t start_cpu_ns) noexcept;
  // An error (the first of this job): where it struck, for the refill.
  void note_failure(std::int64_t record, Side side, int err) noexcept {
    if (failed_block_ >= 0) return;
    failed_block_ = request_.queue.order.block_of(part_.global(record));
    failed_side_ = side;
    failed_err_ = err;
  }
  // After every job ended: the range's blocks from its start that every
  // job's counted records wrote (the blocks past the first unwritten one
  // may be written too, out of turn; they do not count).
  std::int64_t blocks_in_place() const;
  // This job and, for job 0 of --jobs once they ended, every other.
  std::vector<const QueuedCopy*> every_copy() const;
  // A block device after an error: the blocks every job wrote at or past
  // stop_block (its retired records and the writes that completed after
  // them), said as written out of order.
  void say_written_out_of_order(std::int64_t stop_block);
  // This job's first block not written (kNoLimit: its part is all written).
  std::int64_t first_unwritten() const noexcept;
  // After an error, a regular of= made into one sequential copy's prefix
  // (prefix_refill), and the counts made that prefix's.
  void refill_after_error();
  // What refill_prefix needs: the range, the blocks in place, the error.
  RefillRequest refill_request(std::int64_t failed, Side side, int err) const;
  // A job of --jobs: its counts so far, for the supervisor to read.
  void publish() noexcept;
  void reserve_output();
  void queue_reads();
  // The record's read, or the rest of it after a short one.
  void queue_read(std::int64_t record);
  void queue_write(std::int64_t record);
  void queue_sequential_write();
  // reaped_ticks: when the batch holding it was reaped (read_ticks), for
  // --latency.
  void on_completion(const RingCompletion& completion, std::int64_t reaped_ticks);
  // Whether the completion is of an I/O the tap is told of.
  bool timed(const RingCompletion& completion) const noexcept;
  void retire_in_order();
  // The final partial record, through the Writer as in the sync engine.
  void write_tail();
  void stop(std::int64_t end_record) {
    stopping_ = true;
    if (end_record < end_record_) end_record_ = end_record;
  }
  // An error: every job stops starting I/O.
  void stop_every_job(std::int64_t end_record) {
    stop(end_record);
    if (crew_ != nullptr) crew_->stop.store(true, std::memory_order_relaxed);
  }
  void finish_positions();

  const CopyRequest& request_;
  const Settings& settings_;
  // Where what happens is said: the console's, or, while job 0 copies in a
  // thread of its own, the events the supervisor holds for it.
  Events* events_;
  Ring& ring_;
  std::span<const std::span<unsigned char>> slot_buffers_;
  JobPart part_;             // --jobs' job 0 learns its part when the jobs start
  JobsCrew* crew_;           // null: the only job (job 0 of --jobs joins its crew when the jobs start)
  unsigned job_index_ = 0;   // in crew_->counts
  std::int64_t end_ns_ = 0;  // --jobs: when this job's copy ended
  // --jobs in turn: the range's first record no job copied, when a stop
  // (an error, a signal) left one undone; -1: none. One job's copy would
  // have ended there, and so does a regular of=.
  std::int64_t cut_at_ = -1;
  double busy_ = 0;  // and its thread's CPU time over its real time
  // The block this job's first error struck (-1: none), on which side, and errno.
  std::int64_t failed_block_ = -1;
  Side failed_side_ = Side::kOutput;
  int failed_err_ = 0;
  // refill_after_error made of= the sequential prefix, ending at this offset.
  bool refilled_ = false;
  std::int64_t refilled_end_ = 0;
  bool ramp_forgotten_ = false;  // forget_ramp_samples done

  CopyResult result_;
  Stats& stats_ = result_.stats;
  Reader reader_;
  Writer writer_;
  InputOffset input_offset_;
  std::vector<Slot> slots_;
  const std::int64_t ibs_;
  const bool positional_output_;
  // Writes go out as their reads complete: at their own offsets, or, to
  // /dev/null and its kind, anywhere; else one at a time in record order.
  const bool any_order_writes_;
  const bool refill_short_reads_;
  IoTap* const tap_;              // --latency: told each request's duration; null: nothing timed
  std::int64_t input_base_ = 0;   // where record 0 is read
  std::int64_t output_base_ = 0;  // where record 0 is written
  // Records count= allows (kNoLimit: to the end, or round and round for
  // --time); lowered to what was started when the time is up.
  std::int64_t record_limit_;
  const std::int64_t max_records_;        // where count= in bytes has its short record
  std::int64_t next_read_ = 0;            // the next record to read
  std::int64_t next_write_ = 0;           // sequential output: the next record to write
  std::int64_t next_retire_ = 0;          // the next record to count
  std::int64_t end_record_ = kNoLimit;    // records from here on do not count
  std::int64_t tail_record_ = -1;         // the partial record the Writer writes
  std::int64_t written_end_ = 0;          // the furthest byte a write reached
  std::int64_t output_size_before_ = -1;  // a regular file's size before the copy; -1: not one
  std::int64_t reserved_end_ = 0;         // where reserve_output grew the file to; 0: it did not
  unsigned in_flight_ = 0;                // requests queued or in flight
  bool sequential_write_in_flight_ = false;
  bool stopping_ = false;  // no new requests
  bool interrupted_ = false;
  const bool progress_;             // status=progress or --progress: a line each second
  ProgressTicker progress_ticker_;  // the only job's, or --jobs' supervisor's (job 0's object)
  // Job 0 of --jobs, from end(): jobs 1..N-1, the supervisor's, whose
  // tails, counts and errors the copy as a whole ends with.
  std::span<const std::unique_ptr<QueuedCopy>> others_;
};

// --jobs: the calling thread's part, which run_queued_copy holds for the
// copy (job 0's object only reads the other jobs at the end, for the
// copy as a whole). It splits the range and starts every
// job in a thread of its own, job 0 (the copy that positioned the files)
// as an ordinary worker among them; while they copy it hears the signals
// and keeps the time, the ramp's end and the progress line, from the
// counts each job publishes; then it joins them, says what they met, and
// adds their counts up into job 0's.
class JobsSupervisor {
 public:
  // A supervisor, the jobs started, when the range makes more than one
  // part; null (first copies alone) when it does not.
  static std::unique_ptr<JobsSupervisor> start(QueuedCopy& first);
  JobsSupervisor(QueuedCopy& first, unsigned jobs);
  // Until every job ended: the signals, the time, the progress line.
  void supervise();
  // After supervise(): every job's records and bytes in job 0's result;
  // what the jobs met, said once: an error only when none was said before.
  void add_up();
  // A SIGINT stopped the jobs.
  bool interrupted() const noexcept { return interrupted_; }
  // Jobs 1..N-1 (job 0 is the first copy).
  std::span<const std::unique_ptr<QueuedCopy>> others() const noexcept { return others_; }

 private:
  // One look at the signals, the time and the progress line.
  void watch();
  // Every job's counts as last published; with marks, each job's samples
  // at the same moment into the crew's ramp_marks.
  Stats counted_so_far(bool marks = false) noexcept;
  // Job index's copy: the first for 0.
  QueuedCopy& job(std::size_t index) noexcept { return index == 0 ? first_ : *others_[index - 1]; }
  std::size_t jobs() const noexcept { return others_.size() + 1; }
  void start_threads();
  void find_the_cut();

  QueuedCopy& first_;
  JobsCrew crew_;
  std::vector<HeldEvents> events_;  // each job's, [job]
  // Each job's records retired, as last counted (the pacer is told them).
  std::vector<std::int64_t> retired_;
  std::vector<std::unique_ptr<QueuedCopy>> others_;
  ThreadGroup threads_;
  // SIGINT heard by a thread that sleeps until it comes: every job stops
  // at once, however many busy threads the supervisor waits behind
  // (issue 28, A5).
  std::optional<signals::Listener> listener_;
  std::int64_t start_ns_ = 0;
  std::size_t started_ = 0;       // the jobs whose threads started: 0 to started_ - 1
  bool threads_refused_ = false;  // a thread could not be started: said, and every job stopped
  bool interrupted_ = false;
};

}  // namespace ddtime
