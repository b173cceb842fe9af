// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <optional>

namespace ddtime {
namespace {

bool multiply_add_fits(std::int64_t records, std::int64_t blocksize, std::int64_t bytes,
                       std::int64_t& result) noexcept {
  return !__builtin_mul_overflow(records, blocksize, &result) &&
         !__builtin_add_overflow(result, bytes, &result);
}

}  // namespace

Engine::Engine(Os& os, Events& events, Clock& clock, const Settings& settings, std::size_t alignment,
               std::optional<InputPosition> position) noexcept
    : os_(os),
      events_(events),
      clock_(clock),
      settings_(settings),
      strategy_(!settings.two_buffers() ? Strategy::kStraight
                : settings.converts()       ? Strategy::kConvert
                                            : Strategy::kReblock),
      reader_(os, events, stats_, settings),
      writer_(os, events, stats_, settings),
      converter_(settings.conv, settings.cbs),
      ibs_(static_cast<std::size_t>(settings.ibs)),
      obs_(static_cast<std::size_t>(settings.obs)),
      alignment_(alignment != 0 ? alignment : page_size()),
      probed_position_(position) {
  // nocache with count=0 is the documented way to drop a whole file's
  // cached pages.
  const bool count_zero = settings.max_records == 0 && settings.max_bytes == 0;
  if (settings.iflag.nocache) {
    reader_.cache().enable();
    if (count_zero) reader_.cache().reach_end_of_file();
  }
  if (settings.oflag.nocache) {
    writer_.cache().enable();
    if (count_zero) writer_.cache().reach_end_of_file();
  }
}

bool Engine::ensure_input_buffer() noexcept {
  if (!input_buffer_.empty()) return true;
  // Reblocking reads straight into the output buffer at its fill point, so
  // that buffer needs room for one more input record.
  std::size_t size = strategy_ == Strategy::kReblock ? obs_ + ibs_ : ibs_;
  if (input_buffer_.allocate(size, alignment_)) return true;
  if (strategy_ == Strategy::kReblock && obs_ > ibs_) {
    events_.notice(Notice::kOutputBufferExhausted, Side::kOutput, 0, settings_.obs);
  } else {
    events_.notice(Notice::kInputBufferExhausted, Side::kInput, 0, settings_.ibs);
  }
  return false;
}

bool Engine::ensure_output_buffer() noexcept {
  if (strategy_ != Strategy::kConvert) return ensure_input_buffer();
  if (!output_buffer_.empty()) return true;
  if (output_buffer_.allocate(obs_, alignment_)) return true;
  events_.notice(Notice::kOutputBufferExhausted, Side::kOutput, 0, settings_.obs);
  return false;
}

unsigned char* Engine::positioning_buffer(Side side) noexcept {
  // Reading over skip= takes an ibs buffer and seek= an obs one, as in GNU:
  // a skip must not fail for want of the memory a huge obs= would need.
  // Only reblocking's buffer is larger than one side's block.
  if (strategy_ != Strategy::kReblock) {
    if (side == Side::kInput) return ensure_input_buffer() ? input_buffer_.data() : nullptr;
    return ensure_output_buffer() ? output_area() : nullptr;
  }
  const std::size_t size = side == Side::kInput ? ibs_ : obs_;
  if (positioning_buffer_.size() == size || positioning_buffer_.allocate(size, alignment_)) {
    return positioning_buffer_.data();
  }
  if (side == Side::kInput) {
    events_.notice(Notice::kInputBufferExhausted, Side::kInput, 0, settings_.ibs);
  } else {
    events_.notice(Notice::kOutputBufferExhausted, Side::kOutput, 0, settings_.obs);
  }
  return nullptr;
}

unsigned char* Engine::output_area() noexcept {
  return strategy_ == Strategy::kConvert ? output_buffer_.data() : input_buffer_.data();
}

void Engine::note_input_position(const InputPosition& position) noexcept {
  input_seekable_ = position.seekable;
  input_offset_ = position.offset;
  input_seek_errno_ = position.err;
}

void Engine::advance_input_offset(std::int64_t bytes) noexcept {
  if (input_offset_ >= 0 && __builtin_add_overflow(input_offset_, bytes, &input_offset_)) {
    input_offset_ = -1;
  }
}

std::int64_t Engine::skip(Side side, std::int64_t records, std::int64_t blocksize,
                          std::int64_t& bytes, CopyOutcome& outcome) noexcept {
  const int fd = side == Side::kInput ? kInputFd : kOutputFd;
  int lseek_errno = 0;
  std::int64_t offset = 0;
  if (multiply_add_fits(records, blocksize, bytes, offset)) {
    IoResult moved = os_.lseek(fd, static_cast<off_t>(offset), SEEK_CUR);
    if (moved.ok()) {
      if (side == Side::kOutput) {
        bytes = 0;
        return 0;
      }
      struct stat status {};
      IoResult stat_result = os_.fstat(kInputFd, status);
      if (!stat_result.ok()) {
        events_.notice(Notice::kCannotFstat, Side::kInput, stat_result.err, 0);
        outcome = {1, Ending::kDie};
        return 0;
      }
      // Past the end of a regular file: report the whole records that are
      // missing and stop at the end, so the caller can warn.
      if (S_ISREG(status.st_mode) && input_offset_ >= 0 && status.st_size - input_offset_ < offset) {
        records = (offset - status.st_size) / blocksize;
        offset = status.st_size - input_offset_;
      } else {
        records = 0;
      }
      advance_input_offset(offset);
      return records;
    }
    lseek_errno = moved.err;
  }

  // The seek failed or was not representable. If the file is seekable at
  // all, reading over the gap would be pointless: give up.
  if (os_.lseek(fd, 0, SEEK_END).ok()) {
    if (lseek_errno == 0) lseek_errno = EOVERFLOW;
    events_.notice(side == Side::kInput ? Notice::kCannotSkip : Notice::kCannotSeek, side,
                   lseek_errno, 0);
    outcome = {1, Ending::kQuit};
    return 0;
  }

  // Not seekable (a pipe, a character device): read over it.
  unsigned char* buffer = positioning_buffer(side);
  if (buffer == nullptr) {
    outcome = {1, Ending::kDie};
    return 0;
  }
  do {
    std::size_t want = static_cast<std::size_t>(records != 0 ? blocksize : bytes);
    IoResult got = reader_.read_from(fd, buffer, want);
    if (!got.ok()) {
      if (side == Side::kInput) {
        events_.notice(Notice::kReadError, Side::kInput, got.err, 0);
        if (settings_.conv.noerror) events_.show_stats(stats_);
      } else {
        events_.notice(Notice::kCannotSeek, Side::kOutput, lseek_errno, 0);
      }
      outcome = {1, Ending::kQuit};
      return 0;
    }
    if (got.n == 0) break;
    if (side == Side::kInput) advance_input_offset(got.n);
    if (records != 0) {
      --records;
    } else {
      bytes = 0;
    }
  } while (records != 0 || bytes != 0);
  return records;
}

bool Engine::skip_input(CopyOutcome& outcome) noexcept {
  std::int64_t wanted = 0;
  bool wanted_overflows =
      !multiply_add_fits(settings_.skip_records, settings_.ibs, settings_.skip_bytes, wanted);
  std::int64_t offset_before = input_offset_;
  std::int64_t bytes = settings_.skip_bytes;
  std::int64_t records_left = skip(Side::kInput, settings_.skip_records, settings_.ibs, bytes, outcome);
  if (outcome.ending != Ending::kFinished) return false;
  // A file too short, a pipe with too little data, or short reads.
  if (records_left != 0 ||
      (input_offset_ >= 0 && (wanted_overflows || wanted != input_offset_ - offset_before))) {
    events_.notice(Notice::kCannotSkipToOffset, Side::kInput, 0, 0);
  }
  return true;
}

bool Engine::seek_output(CopyOutcome& outcome) noexcept {
  std::int64_t bytes = settings_.seek_bytes;
  std::int64_t records_left = skip(Side::kOutput, settings_.seek_records, settings_.obs, bytes, outcome);
  if (outcome.ending != Ending::kFinished) return false;
  if (records_left == 0 && bytes == 0) return true;
  // An output that could be read but not seeked: write zeros over the rest.
  unsigned char* zeros = positioning_buffer(Side::kOutput);
  if (zeros == nullptr) {
    outcome = {1, Ending::kDie};
    return false;
  }
  std::memset(zeros, 0, static_cast<std::size_t>(records_left != 0 ? settings_.obs : bytes));
  do {
    std::size_t size = static_cast<std::size_t>(records_left != 0 ? settings_.obs : bytes);
    IoResult wrote = writer_.write(zeros, size);
    if (static_cast<std::size_t>(wrote.n) != size) {
      events_.notice(Notice::kBlockWriteError, Side::kOutput, wrote.err, 0);
      outcome = {1, Ending::kQuit};
      return false;
    }
    if (records_left != 0) {
      --records_left;
    } else {
      bytes = 0;
    }
  } while (records_left != 0 || bytes != 0);
  return true;
}

bool Engine::advance_after_read_error(std::int64_t bad_bytes) noexcept {
  int err = 0;
  if (!input_seekable_) {
    if (input_seek_errno_ == ESPIPE) return true;
    err = input_seek_errno_;
  } else {
    advance_input_offset(bad_bytes);
    if (input_offset_ < 0) {
      events_.notice(Notice::kOffsetOverflow, Side::kInput, 0, 0);
      return false;
    }
    IoResult here = os_.lseek(kInputFd, 0, SEEK_CUR);
    if (here.ok()) {
      if (here.n == input_offset_) return true;
      std::int64_t diff = input_offset_ - here.n;
      if (!(0 <= diff && diff <= bad_bytes)) {
        events_.notice(Notice::kInvalidOffsetAfterRead, Side::kInput, 0, 0);
      }
      IoResult moved = os_.lseek(kInputFd, static_cast<off_t>(diff), SEEK_CUR);
      if (moved.ok()) return true;
      err = moved.err;
    } else {
      err = here.err;
    }
  }
  events_.notice(Notice::kCannotSeek, Side::kInput, err, 0);
  return false;
}

bool Engine::write_full_block(std::span<const unsigned char> block) noexcept {
  IoResult wrote = writer_.write(block.data(), block.size());
  stats_.bytes_out += wrote.n;
  if (static_cast<std::size_t>(wrote.n) != block.size()) {
    events_.notice(Notice::kBlockWriteError, Side::kOutput, wrote.err, 0);
    if (wrote.n != 0) ++stats_.partial_records_out;
    return false;
  }
  ++stats_.full_records_out;
  return true;
}

bool Engine::flush_full_blocks() noexcept {
  unsigned char* base = input_buffer_.data();
  std::size_t start = 0;
  while (fill_ - start >= obs_) {
    if (!write_full_block({base + start, obs_})) return false;
    start += obs_;
  }
  if (start != 0) {
    // Only the tail that did not make a whole block moves.
    std::memmove(base, base + start, fill_ - start);
    fill_ -= start;
  }
  return true;
}

void Engine::write_final_block(std::span<const unsigned char> pending, CopyOutcome& outcome) noexcept {
  if (pending.empty()) return;
  IoResult wrote = writer_.write(pending.data(), pending.size());
  stats_.bytes_out += wrote.n;
  if (wrote.n != 0) ++stats_.partial_records_out;
  if (static_cast<std::size_t>(wrote.n) != pending.size()) {
    events_.notice(Notice::kWriteError, Side::kOutput, wrote.err, 0);
    outcome.exit_status = 1;
    outcome.ending = Ending::kFinished;
  }
}

void Engine::extend_after_final_seek(CopyOutcome& outcome) noexcept {
  // The file ends in a hole made by seeking: only a truncate makes the
  // size right.
  struct stat status {};
  IoResult stat_result = os_.fstat(kOutputFd, status);
  if (!stat_result.ok()) {
    events_.notice(Notice::kCannotFstat, Side::kOutput, stat_result.err, 0);
    outcome.exit_status = 1;
    return;
  }
  if (!S_ISREG(status.st_mode)) return;
  IoResult here = os_.lseek(kOutputFd, 0, SEEK_CUR);
  if (!here.ok() || status.st_size >= here.n) return;
  IoResult cut = os_.ftruncate(kOutputFd, static_cast<off_t>(here.n));
  if (!cut.ok()) {
    events_.notice(Notice::kTruncateFailed, Side::kOutput, cut.err, here.n);
    outcome.exit_status = 1;
  }
}

CopyOutcome Engine::run(std::int64_t start_ns) noexcept {
  CopyOutcome outcome;
  note_input_position(probed_position_ ? *probed_position_ : probe_input_position(os_));
  if ((settings_.skip_records != 0 || settings_.skip_bytes != 0) && !skip_input(outcome)) return outcome;
  if ((settings_.seek_records != 0 || settings_.seek_bytes != 0) && !seek_output(outcome)) return outcome;
  if (settings_.max_records == 0 && settings_.max_bytes == 0) return outcome;
  positioning_buffer_ = AlignedBuffer();  // the copy's own buffers replace it
  if (!ensure_input_buffer() || !ensure_output_buffer()) return CopyOutcome{1, Ending::kDie};
  return copy_loop(start_ns);
}

CopyOutcome Engine::copy_loop(std::int64_t start_ns) noexcept {
  CopyOutcome outcome;
  const bool progress = settings_.status == StatusLevel::kProgress || settings_.ext.progress;
  std::int64_t next_progress_ns = start_ns + kNanosecondsPerSecond;
  const bool sync = settings_.conv.sync;
  const bool noerror = settings_.conv.noerror;
  const unsigned char pad = strategy_ == Strategy::kConvert ? converter_.sync_pad_byte() : 0;
  const std::int64_t ibs = settings_.ibs;
  // A count in bytes ends with one short record for the leftover bytes.
  const std::int64_t max_records = settings_.max_records;
  const std::int64_t record_limit =
      settings_.max_bytes != 0 && max_records < kNoLimit ? max_records + 1 : max_records;
  std::optional<OutputBlocker> blocker;
  if (strategy_ == Strategy::kConvert) blocker.emplace(output_buffer_.span(), static_cast<BlockSink&>(*this));

  while (true) {
    if (progress) {
      std::int64_t now = clock_.now_ns();
      if (next_progress_ns <= now) {
        events_.progress(stats_, now);
        next_progress_ns += kNanosecondsPerSecond;
      }
    }
    const std::int64_t records_in = stats_.full_records_in + stats_.partial_records_in;
    if (records_in >= record_limit) break;

    unsigned char* record =
        strategy_ == Strategy::kReblock ? input_buffer_.data() + fill_ : input_buffer_.data();
    // With noerror,sync a failed read leaves zeros (or spaces) behind what
    // was read, so the block is padded before the read, not after.
    if (sync && noerror) std::memset(record, pad, ibs_);
    const std::size_t want = records_in >= max_records ? static_cast<std::size_t>(settings_.max_bytes) : ibs_;
    IoResult got = reader_.read(record, want);
    std::int64_t length = got.n;
    if (got.ok() && got.n > 0) {
      advance_input_offset(got.n);
      stats_.bytes_in += got.n;
      reader_.cache().transferred(got.n, input_cache_offset());
    } else if (got.ok()) {
      // At end of input the final advice reaches to end of file; on the
      // output only when it is being rewritten, not under notrunc.
      if (reader_.cache().enabled()) reader_.cache().reach_end_of_file();
      if (writer_.cache().enabled() && !settings_.conv.notrunc) writer_.cache().reach_end_of_file();
      break;
    } else {
      events_.notice(Notice::kReadError, Side::kInput, got.err, 0);
      if (!noerror) {
        outcome.exit_status = 1;
        break;
      }
      events_.show_stats(stats_);
      if (!advance_after_read_error(ibs - partial_read_bytes_)) {
        outcome.exit_status = 1;
        // One complaint about seeking is enough.
        input_seekable_ = false;
        input_seek_errno_ = ESPIPE;
      }
      // Only a read that failed at a record boundary becomes a padded record.
      if (!(sync && partial_read_bytes_ == 0)) continue;
      length = 0;
    }

    if (length < ibs) {
      ++stats_.partial_records_in;
      partial_read_bytes_ = length;
      if (sync) {
        if (!noerror) std::memset(record + length, pad, static_cast<std::size_t>(ibs - length));
        length = ibs;
      }
    } else {
      ++stats_.full_records_in;
      partial_read_bytes_ = 0;
    }

    switch (strategy_) {
      case Strategy::kStraight: {
        IoResult wrote = writer_.write(record, static_cast<std::size_t>(length));
        stats_.bytes_out += wrote.n;
        if (wrote.n != length) {
          events_.notice(Notice::kWriteError, Side::kOutput, wrote.err, 0);
          outcome.exit_status = 1;
          return outcome;
        }
        if (length == ibs) {
          ++stats_.full_records_out;
        } else {
          ++stats_.partial_records_out;
        }
        break;
      }
      case Strategy::kReblock:
        fill_ += static_cast<std::size_t>(length);
        if (!flush_full_blocks()) return CopyOutcome{1, Ending::kQuit};
        break;
      case Strategy::kConvert: {
        std::span<unsigned char> bytes(record, static_cast<std::size_t>(length));
        if (converter_.translates()) converter_.translate(bytes);
        bool ok = converter_.convert(bytes, *blocker);
        stats_.truncated_records = converter_.truncated_records();
        if (!ok) return CopyOutcome{1, Ending::kQuit};
        break;
      }
    }
  }

  std::span<const unsigned char> pending;
  if (strategy_ == Strategy::kConvert) {
    bool ok = converter_.finish(*blocker);
    stats_.truncated_records = converter_.truncated_records();
    if (!ok) return CopyOutcome{1, Ending::kQuit};
    pending = blocker->pending();
  } else if (strategy_ == Strategy::kReblock) {
    pending = {input_buffer_.data(), fill_};
  }
  CopyOutcome final_write;
  write_final_block(pending, final_write);
  if (final_write.exit_status != 0) return final_write;
  if (writer_.final_op_was_seek()) extend_after_final_seek(outcome);
  return outcome;
}

}  // namespace ddtime
