// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/engine_queued.h"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <vector>

#include "dd/engine_queued_internal.h"
#include "dd/io_position.h"
#include "dd/prefix_refill.h"
#include "system/clock.h"
#include "system/signals.h"

namespace ddtime {

QueuedCopy::QueuedCopy(const CopyRequest& request)
    : QueuedCopy(request, QueueLane{request.queue.ring, request.queue.slots}, request.events, JobPart{}, nullptr,
                 request.taps.empty() ? nullptr : request.taps[0]) {}

QueuedCopy::QueuedCopy(const CopyRequest& request, const QueueLane& lane, Events& events, const JobPart& part,
                       JobsCrew* crew, IoTap* tap)
    : request_(request),
      settings_(request.settings),
      events_(&events),
      ring_(*lane.ring),
      slot_buffers_(lane.slots),
      part_(part),
      crew_(crew),
      reader_(request.os, events, result_.stats, request.settings, request.input_cache),
      writer_(request.os, events, result_.stats, request.settings, request.output_cache),
      input_offset_(request.input_position),
      slots_(lane.slots.size()),
      ibs_(request.settings.ibs),
      positional_output_(request.queue.positional_output),
      any_order_writes_(request.queue.positional_output || request.queue.order_free_output),
      refill_short_reads_(request.queue.refill_short_reads),
      tap_(tap),
      record_limit_(request.queue.order.repeats()                                  ? kNoLimit
                    : settings_.max_bytes != 0 && settings_.max_records < kNoLimit ? settings_.max_records + 1
                                                                                   : settings_.max_records),
      max_records_(request.queue.order.repeats() ? kNoLimit : settings_.max_records),
      progress_(request.settings.status == StatusLevel::kProgress || request.settings.ext.progress),
      progress_ticker_(request.clock, request.events, request.start_ns) {}

bool QueuedCopy::position() {
  const Ending end = position_files(request_.os, *events_, reader_, writer_, input_offset_, settings_, *this);
  if (end != Ending::kFinished) {
    end_before_copy(end, result_);
    return false;
  }
  input_base_ = input_offset_.value();
  result_.first_write = first_write_offset(request_.os, settings_, request_.kinds.output);
  if (positional_output_) output_base_ = result_.first_write >= 0 ? result_.first_write : 0;
  return true;
}

// ext4 and XFS make an O_DIRECT write that extends the file wait for the
// inode alone, so writes that each extend the output go one at a time,
// however many are queued. Reserving the output's final extent first makes
// every write an overwrite, and overwrites overlap (here an O_DIRECT copy
// at depth 4 went from 1.2x to 1.8x GNU dd's rate). Buffered writes only
// copy into the page cache and gain nothing from it. finish_positions cuts
// whatever the copy did not fill.
void QueuedCopy::reserve_output() {
  if (!positional_output_) return;
  if (request_.kinds.output != FileKind::kRegular) return;
  const std::optional<std::int64_t> size = file_size(request_.os, kOutputFd, request_.kinds.output);
  if (!size) return;
  output_size_before_ = *size;
  if (!settings_.oflag.direct) return;
  // A timed run goes round its whole blocks alone.
  const std::optional<std::int64_t> bytes =
      request_.queue.order.repeats() ? std::optional(request_.queue.order.blocks() * ibs_)
                                     : input_bytes_from(request_.os, settings_, request_.kinds.input, input_base_);
  std::int64_t end = 0;
  if (!bytes || __builtin_add_overflow(output_base_, *bytes, &end)) return;
  // Bytes before output_base_ that the file lacks stay a hole, as seek= leaves them.
  const std::int64_t from = std::max(output_size_before_, output_base_);
  if (end <= from) return;
  if (request_.os.reserve(kOutputFd, static_cast<off_t>(from), static_cast<off_t>(end - from)).ok()) {
    reserved_end_ = end;
    return;
  }
  // No reservation here (unsupported, or not room for all of it): the copy
  // runs unreserved and meets ENOSPC where the sync engine would. A failed
  // fallocate may have grown the file part of the way.
  request_.os.ftruncate(kOutputFd, static_cast<off_t>(output_size_before_));
}

void QueuedCopy::queue_reads() {
  while (!stopping_ && next_read_ < record_limit_ && slot(next_read_).state == Slot::State::kFree) {
    const std::int64_t record = next_read_++;
    // A count in bytes ends with one short record for the leftover bytes.
    slot(record) = Slot{Slot::State::kReading, record,
                        part_.global(record) >= max_records_ ? static_cast<std::size_t>(settings_.max_bytes)
                                                             : static_cast<std::size_t>(ibs_)};
    queue_read(record);
  }
}

void QueuedCopy::queue_read(std::int64_t record) {
  Slot& s = slot(record);
  if (tap_ != nullptr) s.queued_ticks = read_ticks();
  ring_.queue({static_cast<std::uint64_t>(record), RingRequest::Kind::kRead, kInputFd, buffer(record) + s.got,
               s.want - static_cast<std::size_t>(s.got), input_base_ + block_offset(record) + s.got,
               buffer_index(record)});
  ++in_flight_;
}

void QueuedCopy::queue_write(std::int64_t record) {
  Slot& s = slot(record);
  s.state = Slot::State::kWriting;
  const auto length = static_cast<std::size_t>(s.got) - s.written;
  const std::int64_t offset =
      positional_output_ ? output_base_ + block_offset(record) + static_cast<std::int64_t>(s.written) : -1;
  if (tap_ != nullptr) s.queued_ticks = read_ticks();
  ring_.queue({static_cast<std::uint64_t>(record) | kWriteBit, RingRequest::Kind::kWrite, kOutputFd,
               buffer(record) + s.written, length, offset, buffer_index(record)});
  ++in_flight_;
  if (!any_order_writes_) sequential_write_in_flight_ = true;
}

void QueuedCopy::queue_sequential_write() {
  if (any_order_writes_ || sequential_write_in_flight_ || stopping_) return;
  if (next_write_ >= next_read_ || next_write_ >= end_record_) return;
  Slot& s = slot(next_write_);
  // Full records only: the partial one is the Writer's, at the end.
  if (s.state != Slot::State::kRead || s.got != ibs_) return;
  queue_write(next_write_++);
}

bool QueuedCopy::timed(const RingCompletion& completion) const noexcept {
  const bool write = (completion.tag & kWriteBit) != 0;
  const std::optional<MixChoice>& mix = request_.queue.mix;
  // --mix: only the side that reached the target.
  if (mix) return mix->reads(job_index_, static_cast<std::int64_t>(completion.tag & ~kWriteBit)) != write;
  // A read past the end of the input fetches nothing and is not counted,
  // as in the sync engine; nor is a read the generator answered.
  return write || (completion.result != 0 && !request_.queue.generated_input);
}

void QueuedCopy::on_completion(const RingCompletion& completion, std::int64_t reaped_ticks) {
  --in_flight_;
  const auto record = static_cast<std::int64_t>(completion.tag & ~kWriteBit);
  Slot& s = slot(record);
  if (tap_ != nullptr && timed(completion)) {
    tap_->completed((completion.tag & kWriteBit) != 0, reaped_ticks - static_cast<std::int64_t>(s.queued_ticks));
  }
  if ((completion.tag & kWriteBit) == 0) {
    if (completion.result > 0 && refill_short_reads_ && s.got + completion.result < static_cast<std::int64_t>(s.want)) {
      s.got += completion.result;
      queue_read(record);
      return;
    }
    s.state = Slot::State::kRead;
    s.got = completion.result < 0 ? completion.result : s.got + completion.result;
    // A full record goes straight out at its own offset; what the input's
    // end or an error means is decided in record order.
    if (any_order_writes_ && !stopping_ && s.got == ibs_ && record < end_record_) queue_write(record);
    return;
  }
  if (!any_order_writes_) sequential_write_in_flight_ = false;
  if (completion.result < 0 || completion.result == 0) {
    // A write that takes nothing is the end of the medium, as in io.
    s.write_error = completion.result < 0 ? static_cast<int>(-completion.result) : ENOSPC;
    s.state = Slot::State::kWritten;
    return;
  }
  s.written += static_cast<std::size_t>(completion.result);
  const std::int64_t end =
      (positional_output_ ? output_base_ + block_offset(record) : 0) + static_cast<std::int64_t>(s.written);
  if (end > written_end_) written_end_ = end;
  if (s.written < static_cast<std::size_t>(s.got)) {
    queue_write(record);  // a short write: the rest, as the sync engine would
  } else {
    s.state = Slot::State::kWritten;
  }
}

void QueuedCopy::retire_in_order() {
  while (next_retire_ < next_read_ && next_retire_ < end_record_) {
    Slot& s = slot(next_retire_);
    if (s.state == Slot::State::kReading || s.state == Slot::State::kWriting) return;
    if (s.state == Slot::State::kRead) {
      if (s.got < 0) {
        events_->notice(Notice::kReadError, Side::kInput, static_cast<int>(-s.got), 0);
        note_failure(next_retire_, Side::kInput, static_cast<int>(-s.got));
        result_.exit_status = 1;
        return stop_every_job(next_retire_);
      }
      if (s.got == 0) return stop(next_retire_);
      if (s.got < ibs_) {
        tail_record_ = next_retire_;
        return stop(next_retire_ + 1);
      }
      return;  // a full record waiting for its write
    }
    // Written: the record counts, in and out, as in the sync engine.
    ++stats_.full_records_in;
    stats_.bytes_in += s.got;
    input_offset_.advance(s.got);
    stats_.bytes_out += static_cast<std::int64_t>(s.written);
    if (s.write_error != 0) {
      note_failure(next_retire_, Side::kOutput, s.write_error);
      // GNU's two paths: bs= writes each record as read ("error writing",
      // no partial record); ibs= and obs= write an output block ("writing
      // to", a partial one counted) and quit, flushing on the way out.
      if (settings_.two_buffers()) {
        events_->notice(Notice::kBlockWriteError, Side::kOutput, s.write_error, 0);
        if (s.written != 0) ++stats_.partial_records_out;
        result_.ending = Ending::kQuit;
      } else {
        events_->notice(Notice::kWriteError, Side::kOutput, s.write_error, 0);
      }
      result_.exit_status = 1;
      return stop_every_job(next_retire_);
    }
    ++stats_.full_records_out;
    s.state = Slot::State::kFree;
    ++next_retire_;
  }
}

void QueuedCopy::write_tail() {
  Slot& s = slot(tail_record_);
  ++stats_.partial_records_in;
  stats_.bytes_in += s.got;
  input_offset_.advance(s.got);
  // The Writer writes at the file's own offset, which pwrite left alone;
  // a job's own bytes are its part's, not those before the tail.
  if (positional_output_) {
    const std::int64_t before = crew_ != nullptr ? block_offset(tail_record_) : stats_.bytes_out;
    request_.os.lseek(kOutputFd, static_cast<off_t>(output_base_ + before), SEEK_SET);
  }
  IoResult wrote = writer_.write(buffer(tail_record_), static_cast<std::size_t>(s.got));
  if (wrote.err == kStopRequested) {
    result_.ending = Ending::kInterrupted;
    return;
  }
  stats_.bytes_out += wrote.n;
  if (wrote.n == s.got) {
    ++stats_.partial_records_out;
    return;
  }
  events_->notice(Notice::kWriteError, Side::kOutput, wrote.err, 0);
  result_.exit_status = 1;
}

void QueuedCopy::finish_positions() {
  if (refilled_) {
    // The refill cut the file and wrote the prefix in turn.
    if (!settings_.input_file) request_.os.lseek(kInputFd, static_cast<off_t>(input_offset_.value()), SEEK_SET);
    if (!settings_.output_file) request_.os.lseek(kOutputFd, static_cast<off_t>(refilled_end_), SEEK_SET);
    return;
  }
  // A regular file ends where the sync engine's would: what was written
  // ahead of a failure or a stop, and what a reservation held beyond the
  // copy, goes. Bytes the file held before the copy stay (conv=notrunc).
  // A timed run's passes write its range again and again: the sync
  // engine's end is the range's, once a pass is done. Blocks written out
  // of turn (--random, or --jobs' parts of a timed run, which no stop cuts
  // back) all stay, up to the furthest: the ones below it not written yet
  // are holes, or the old bytes.
  std::int64_t moved = stats_.bytes_out;
  if (request_.queue.order.random() || (request_.queue.order.repeats() && !others_.empty())) {
    moved = std::max(moved, written_end_ - output_base_);
  }
  if (request_.queue.order.repeats()) moved = std::min(moved, request_.queue.order.blocks() * ibs_);
  // --jobs in turn: one job's copy would have ended at the first record
  // left undone.
  if (cut_at_ >= 0) moved = std::min(moved, cut_at_ * ibs_);
  const std::int64_t sync_end = output_base_ + moved;
  if (output_size_before_ >= 0) {
    const std::int64_t keep = std::max(output_size_before_, sync_end);
    if (std::max(written_end_, reserved_end_) > keep) request_.os.ftruncate(kOutputFd, static_cast<off_t>(keep));
  }
  // pread and pwrite leave the offsets alone; a standard stream that the
  // caller shares is left where a sync copy would have left it.
  if (!settings_.input_file) request_.os.lseek(kInputFd, static_cast<off_t>(input_offset_.value()), SEEK_SET);
  if (!settings_.output_file && positional_output_ && tail_record_ < 0) {
    request_.os.lseek(kOutputFd, static_cast<off_t>(sync_end), SEEK_SET);
  }
}

bool QueuedCopy::begin() {
  const bool count_zero = settings_.max_records == 0 && settings_.max_bytes == 0;
  if (count_zero) result_.jobs.range_records = 0;
  if (!position() || count_zero) {
    result_.input_offset = input_offset_.for_cache();
    return false;
  }
  reserve_output();
  return true;
}

CopyResult QueuedCopy::end(JobsSupervisor* jobs) {
  if (jobs != nullptr) {
    others_ = jobs->others();
    interrupted_ = jobs->interrupted();
    write_other_tails();
  }
  if (interrupted_) {
    result_.ending = Ending::kInterrupted;
  } else if (tail_record_ >= 0 && result_.exit_status == 0) {
    write_tail();
  }
  if (jobs != nullptr) jobs->add_up();
  if (!interrupted_ && result_.exit_status != 0) refill_after_error();
  finish_positions();
  result_.output_needs_fsync = result_.output_needs_fsync || writer_.needs_fsync();
  result_.input_offset = input_offset_.for_cache();
  return result_;
}

void QueuedCopy::copy_alone() {
  // A ring set up for --jobs starts disabled, for the thread that enables
  // it; here the range made one part (or a SIGINT cut the set-up short).
  if (const int err = ring_.start_in_this_thread(); err != 0) {
    events_->notice(Notice::kReadError, Side::kInput, err, 0);
    result_.exit_status = 1;
    return stop(0);
  }
  copy_loop();
}

void QueuedCopy::poll_stops() {
  if (crew_ == nullptr) return watch_alone();
  // Another job's error or a SIGINT stops every job; the time is up or the
  // ramp over when the supervisor says so.
  if (crew_->stop.load(std::memory_order_relaxed)) stopping_ = true;
  if (crew_->time_up.load(std::memory_order_relaxed)) record_limit_ = std::min(record_limit_, next_read_);
  if (!ramp_forgotten_ && crew_->ramp_over.load(std::memory_order_acquire)) forget_ramp_samples();
}

void QueuedCopy::watch_alone() {
  if (progress_) progress_ticker_.poll(stats_);
  // SIGINT stops submission; what is in flight is drained and counted.
  if (signals::pending() && events_->handle_signals(stats_)) {
    interrupted_ = true;
    stopping_ = true;
  }
  // The time is up: no new reads; what was read is written and counted.
  if (time_to_stop(request_, stats_)) record_limit_ = std::min(record_limit_, next_read_);
}

void QueuedCopy::copy_loop() {
  while (true) {
    poll_stops();
    queue_reads();
    queue_sequential_write();
    if (in_flight_ == 0) {
      // Nothing in flight: what is complete is counted here, or a final
      // partial record would be lost.
      const std::int64_t retired_before = next_retire_;
      retire_in_order();
      if (next_retire_ != retired_before) continue;
      break;
    }
    // EINTR: a signal, or time to poll for one. Anything else means the
    // ring itself failed (io_uring_enter refused), and nothing in flight
    // will come back: the copy ends there, as a read that failed.
    if (const int err = ring_.submit_and_wait(1); err != 0 && err != EINTR) {
      events_->notice(Notice::kReadError, Side::kInput, err, 0);
      note_failure(next_retire_, Side::kInput, err);
      result_.exit_status = 1;
      stop_every_job(next_retire_);
      break;
    }
    // One clock reading for the whole batch: every request in it was
    // reaped by this call.
    const auto reaped = tap_ != nullptr ? static_cast<std::int64_t>(read_ticks()) : 0;
    for (const RingCompletion& completion : ring_.completions()) on_completion(completion, reaped);
    retire_in_order();
    if (crew_ != nullptr) publish();
    if (!stopping_ && next_read_ >= record_limit_ && next_retire_ >= record_limit_) break;
  }
  if (crew_ != nullptr) publish();
}

CopyResult run_queued_copy(const CopyRequest& request) {
  QueuedCopy copy(request);
  if (!copy.begin()) return copy.result();
  // --jobs: the supervisor is the calling thread's, and job 0 one of the
  // workers it starts; the range may make one part, and a SIGINT may have
  // cut the set-up to one ring: then the copy is the calling thread's.
  std::unique_ptr<JobsSupervisor> jobs;
  if (request.queue.lanes.size() > 1 && !request.queue.setup_interrupted) jobs = JobsSupervisor::start(copy);
  if (jobs) {
    jobs->supervise();
  } else {
    copy.copy_alone();
  }
  return copy.end(jobs.get());
}

}  // namespace ddtime
