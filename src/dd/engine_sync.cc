// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/engine_sync.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "dd/convert.h"
#include "dd/engine_sync_internal.h"
#include "dd/io_position.h"
#include "dd/prefix_refill.h"
#include "system/buffer.h"

namespace ddtime {

SyncCopy::SyncCopy(const CopyRequest& request)
    : request_(request),
      settings_(request.settings),
      events_(request.events),
      strategy_(!settings_.two_buffers() ? Strategy::kStraight
                : settings_.converts()   ? Strategy::kConvert
                                         : Strategy::kReblock),
      reader_(request.os, request.events, result_.stats, request.settings, request.input_cache),
      writer_(request.os, request.events, result_.stats, request.settings, request.output_cache),
      input_offset_(request.input_position),
      converter_(settings_.conv, settings_.cbs),
      ibs_(static_cast<std::size_t>(settings_.ibs)),
      obs_(static_cast<std::size_t>(settings_.obs)),
      progress_ticker_(request.clock, request.events, request.start_ns),
      progress_(settings_.status == StatusLevel::kProgress || settings_.ext.progress) {}

// --- buffers ---

bool SyncCopy::ensure_input_buffer() {
  if (!input_buffer_.empty()) return true;
  // Reblocking reads straight into the output buffer at its fill point, so
  // that buffer needs room for one more input record.
  const std::size_t size = strategy_ == Strategy::kReblock ? obs_ + ibs_ : ibs_;
  if (input_buffer_.allocate(size, request_.alignment)) return true;
  if (strategy_ == Strategy::kReblock && obs_ > ibs_) {
    events_.notice(Notice::kOutputBufferExhausted, Side::kOutput, 0, settings_.obs);
  } else {
    events_.notice(Notice::kInputBufferExhausted, Side::kInput, 0, settings_.ibs);
  }
  return false;
}

bool SyncCopy::ensure_output_buffer() {
  if (strategy_ != Strategy::kConvert) return ensure_input_buffer();
  if (!output_buffer_.empty()) return true;
  if (output_buffer_.allocate(obs_, request_.alignment)) return true;
  events_.notice(Notice::kOutputBufferExhausted, Side::kOutput, 0, settings_.obs);
  return false;
}

unsigned char* SyncCopy::block_for(Side side) {
  // Reading over skip= takes an ibs buffer and seek= an obs one, as in GNU:
  // a skip must not fail for want of the memory a huge obs= would need.
  // Only reblocking's buffer is larger than one side's block.
  if (strategy_ != Strategy::kReblock) {
    if (side == Side::kInput) return ensure_input_buffer() ? input_buffer_.data() : nullptr;
    if (!ensure_output_buffer()) return nullptr;
    return strategy_ == Strategy::kConvert ? output_buffer_.data() : input_buffer_.data();
  }
  const std::size_t size = side == Side::kInput ? ibs_ : obs_;
  if (positioning_buffer_.size() == size || positioning_buffer_.allocate(size, request_.alignment)) {
    return positioning_buffer_.data();
  }
  if (side == Side::kInput) {
    events_.notice(Notice::kInputBufferExhausted, Side::kInput, 0, settings_.ibs);
  } else {
    events_.notice(Notice::kOutputBufferExhausted, Side::kOutput, 0, settings_.obs);
  }
  return nullptr;
}

// --- writing ---

bool SyncCopy::write_full_block(std::span<const unsigned char> block) {
  IoResult wrote = writer_.write(block.data(), block.size());
  if (wrote.err == kStopRequested) {
    end(0, Ending::kInterrupted);
    return false;
  }
  stats_.bytes_out += wrote.n;
  if (static_cast<std::size_t>(wrote.n) != block.size()) {
    events_.notice(Notice::kBlockWriteError, Side::kOutput, wrote.err, 0);
    if (wrote.n != 0) ++stats_.partial_records_out;
    end(1, Ending::kQuit);
    return false;
  }
  ++stats_.full_records_out;
  return true;
}

bool SyncCopy::write_final_block(std::span<const unsigned char> pending) {
  if (pending.empty()) return true;
  IoResult wrote = writer_.write(pending.data(), pending.size());
  if (wrote.err == kStopRequested) {
    end(0, Ending::kInterrupted);
    return false;
  }
  stats_.bytes_out += wrote.n;
  if (wrote.n != 0) ++stats_.partial_records_out;
  if (static_cast<std::size_t>(wrote.n) == pending.size()) return true;
  events_.notice(Notice::kWriteError, Side::kOutput, wrote.err, 0);
  end(1, Ending::kFinished);
  return false;
}

// --- the sinks: what happens to each record ---

// bs= without conversions: each record is written as it was read.
class SyncCopy::StraightSink {
 public:
  explicit StraightSink(SyncCopy& copy) : copy_(copy) {}
  unsigned char* record_area() { return copy_.input_buffer_.data(); }
  // Always inlined: see Reader::read.
  [[gnu::always_inline]] bool put(unsigned char* record, std::int64_t length) {
    IoResult wrote = copy_.writer_.write(record, static_cast<std::size_t>(length));
    if (wrote.err == kStopRequested) {
      copy_.end(0, Ending::kInterrupted);
      return false;
    }
    copy_.stats_.bytes_out += wrote.n;
    if (wrote.n != length) {
      copy_.events_.notice(Notice::kWriteError, Side::kOutput, wrote.err, 0);
      copy_.end(1, Ending::kFinished);
      return false;
    }
    if (length == copy_.settings_.ibs) {
      ++copy_.stats_.full_records_out;
    } else {
      ++copy_.stats_.partial_records_out;
    }
    return true;
  }
  bool finish() { return true; }

 private:
  SyncCopy& copy_;
};

// ibs= and obs= differ: records gather in one buffer, which is written out
// in obs blocks; only the tail that did not make a block moves.
class SyncCopy::ReblockSink {
 public:
  explicit ReblockSink(SyncCopy& copy) : copy_(copy) {}
  unsigned char* record_area() { return copy_.input_buffer_.data() + fill_; }
  bool put(unsigned char*, std::int64_t length) {
    fill_ += static_cast<std::size_t>(length);
    unsigned char* base = copy_.input_buffer_.data();
    std::size_t start = 0;
    while (fill_ - start >= copy_.obs_) {
      if (!copy_.write_full_block({base + start, copy_.obs_})) return false;
      start += copy_.obs_;
    }
    if (start != 0) {
      std::memmove(base, base + start, fill_ - start);
      fill_ -= start;
    }
    return true;
  }
  bool finish() { return copy_.write_final_block({copy_.input_buffer_.data(), fill_}); }

 private:
  SyncCopy& copy_;
  std::size_t fill_ = 0;  // bytes waiting in the buffer
};

// Conversions: records are translated in place, then converted into the
// obs-sized output buffer, which writes itself out as it fills.
class SyncCopy::ConvertSink {
 public:
  explicit ConvertSink(SyncCopy& copy)
      : copy_(copy), blocker_(copy.output_buffer_.span(), static_cast<BlockSink&>(copy)) {}
  unsigned char* record_area() { return copy_.input_buffer_.data(); }
  bool put(unsigned char* record, std::int64_t length) {
    std::span<unsigned char> bytes(record, static_cast<std::size_t>(length));
    if (copy_.converter_.translates()) copy_.converter_.translate(bytes);
    const bool ok = copy_.converter_.convert(bytes, blocker_);
    copy_.stats_.truncated_records = copy_.converter_.truncated_records();
    return ok || fail();
  }
  bool finish() {
    const bool ok = copy_.converter_.finish(blocker_);
    copy_.stats_.truncated_records = copy_.converter_.truncated_records();
    if (!ok) return fail();
    return copy_.write_final_block(blocker_.pending());
  }

 private:
  // A failed full-block write has ended the copy already (write_full_block).
  bool fail() {
    if (!copy_.done_) copy_.end(1, Ending::kQuit);
    return false;
  }

  SyncCopy& copy_;
  OutputBlocker blocker_;
};

// --- the loop ---

SyncCopy::Read SyncCopy::read_record(const ReadRules& rules, unsigned char* record, std::int64_t& length) {
  const std::int64_t records_in = stats_.full_records_in + stats_.partial_records_in;
  // With noerror,sync a failed read leaves zeros (or spaces) behind what
  // was read, so the block is padded before the read, not after.
  if (rules.sync && rules.noerror) std::memset(record, rules.pad, ibs_);
  // A count in bytes ends with one short record for the leftover bytes.
  const std::size_t want = __builtin_expect(records_in >= rules.max_records, 0) ? rules.max_bytes : ibs_;
  IoResult got = reader_.read(record, want);
  length = got.n;
  if (got.n > 0) [[likely]] {
    input_offset_.advance(got.n);
    stats_.bytes_in += got.n;
    reader_.cache().transferred(got.n, input_offset_.for_cache());
  } else if (got.ok()) {
    // At end of input the final advice reaches to end of file; on the
    // output only when it is being rewritten, not under notrunc.
    if (reader_.cache().enabled()) reader_.cache().reach_end_of_file();
    if (writer_.cache().enabled() && !settings_.conv.notrunc) writer_.cache().reach_end_of_file();
    return Read::kEnd;
  } else {
    const Read failed = after_failed_read(rules, got.err, length);
    if (failed != Read::kRecord) return failed;
  }
  if (length < rules.ibs) [[unlikely]] {
    ++stats_.partial_records_in;
    partial_read_bytes_ = length;
    if (rules.sync) {
      if (!rules.noerror) std::memset(record + length, rules.pad, static_cast<std::size_t>(rules.ibs - length));
      length = rules.ibs;
    }
  } else {
    ++stats_.full_records_in;
    partial_read_bytes_ = 0;
  }
  return Read::kRecord;
}

template <typename Sink, typename Place>
void SyncCopy::copy_with(Sink& sink, Place place) {
  // A timed run goes round its range until the time is up: count= drew
  // the range, it does not end the copy.
  const bool timed = request_.queue.order.repeats();
  const ReadRules rules{settings_.conv.sync,
                        settings_.conv.noerror,
                        strategy_ == Strategy::kConvert ? converter_.sync_pad_byte() : static_cast<unsigned char>(0),
                        settings_.ibs,
                        timed ? kNoLimit : settings_.max_records,
                        timed ? 0 : static_cast<std::size_t>(settings_.max_bytes)};
  const bool progress = progress_;
  const std::int64_t record_limit =
      rules.max_bytes != 0 && rules.max_records < kNoLimit ? rules.max_records + 1 : rules.max_records;
  while (true) {
    if (progress) progress_ticker_.poll(stats_);
    if (time_to_stop(request_, stats_)) break;
    const std::int64_t records = stats_.full_records_in + stats_.partial_records_in;
    if (records >= record_limit) break;
    if (!place(records)) return;
    unsigned char* record = sink.record_area();
    std::int64_t length = 0;
    const Read read = read_record(rules, record, length);
    if (read == Read::kStop) return end(0, Ending::kInterrupted);
    if (read == Read::kEnd) break;
    if (read == Read::kDropped) continue;
    if (!sink.put(record, length)) return;
  }
  if (!sink.finish()) return;
  if (writer_.final_op_was_seek() && extend_to_final_seek(request_.os, events_) != 0) result_.exit_status = 1;
}

bool SyncCopy::place(std::int64_t input_at, std::int64_t output_at) {
  for (const auto& [fd, at, side] :
       {std::tuple{kInputFd, input_at, Side::kInput}, std::tuple{kOutputFd, output_at, Side::kOutput}}) {
    if (at < 0) continue;
    if (const IoResult moved = request_.os.lseek(fd, static_cast<off_t>(at), SEEK_SET); !moved.ok()) {
      events_.notice(Notice::kCannotSeek, side, moved.err, 0);
      end(1, Ending::kFinished);
      return false;
    }
  }
  return true;
}

class SyncCopy::AtItsBlock {
 public:
  AtItsBlock(SyncCopy& copy, std::int64_t input_base, std::int64_t output_base) noexcept
      : copy_(copy), input_base_(input_base), output_base_(output_base) {}
  // No system call: the record's read and write go at its block by pread
  // and pwrite, one call a side.
  bool operator()(std::int64_t record) {
    const std::int64_t offset = copy_.request_.queue.order.block_of(record) * copy_.settings_.ibs;
    copy_.reader_.read_at(input_base_ + offset);
    copy_.writer_.write_at(output_base_ + offset);
    return true;
  }

 private:
  SyncCopy& copy_;
  const std::int64_t input_base_;
  const std::int64_t output_base_;
};

class SyncCopy::AtPassStart {
 public:
  AtPassStart(SyncCopy& copy, std::int64_t input_base, std::int64_t output_base) noexcept
      : copy_(copy), input_base_(input_base), output_base_(output_base), blocks_(copy.request_.queue.order.blocks()) {}
  bool operator()(std::int64_t record) {
    if (record < next_pass_) [[likely]]
      return true;
    next_pass_ += blocks_;
    return record == 0 || copy_.place(input_base_, output_base_);
  }

 private:
  SyncCopy& copy_;
  const std::int64_t input_base_;
  const std::int64_t output_base_;  // -1: the output goes on where it is
  const std::int64_t blocks_;
  std::int64_t next_pass_ = 0;  // the record that starts the next pass
};

template <typename Sink>
void SyncCopy::copy_in_passes(Sink& sink) {
  const IoResult input_base = request_.os.lseek(kInputFd, 0, SEEK_CUR);
  if (!input_base.ok()) {
    events_.notice(Notice::kCannotSeek, Side::kInput, input_base.err, 0);
    return end(1, Ending::kFinished);
  }
  // A pipe or a terminal takes the passes one after another.
  const IoResult output_base = request_.os.lseek(kOutputFd, 0, SEEK_CUR);
  copy_with(sink, AtPassStart(*this, input_base.n, output_base.ok() ? output_base.n : -1));
}

void SyncCopy::copy_randomly(StraightSink& sink) {
  // Where record 0's block starts on each side: skip= and seek= applied.
  const IoResult input_base = request_.os.lseek(kInputFd, 0, SEEK_CUR);
  const IoResult output_base = request_.os.lseek(kOutputFd, 0, SEEK_CUR);
  if (!input_base.ok() || !output_base.ok()) {
    events_.notice(Notice::kCannotSeek, input_base.ok() ? Side::kOutput : Side::kInput,
                   input_base.ok() ? output_base.err : input_base.err, 0);
    return end(1, Ending::kFinished);
  }
  // The size before the copy: what a refill after an error cuts back to.
  const FileKind output = request_.kinds.output;
  const std::optional<std::int64_t> size_before =
      output == FileKind::kRegular ? file_size(request_.os, kOutputFd, output) : std::nullopt;
  copy_with(sink, AtItsBlock(*this, input_base.n, output_base.n));
  if (size_before) refill_after_random_error(input_base.n, output_base.n, *size_before);
  if (output == FileKind::kBlock) say_written_out_of_order();
}

bool SyncCopy::position() {
  const Ending end_of_step = position_files(request_.os, events_, reader_, writer_, input_offset_, settings_, *this);
  if (end_of_step == Ending::kFinished) {
    result_.first_write = first_write_offset(request_.os, settings_, request_.kinds.output);
    return true;
  }
  end_before_copy(end_of_step, result_);
  done_ = true;
  return false;
}

CopyResult SyncCopy::run() {
  const bool count_zero = settings_.max_records == 0 && settings_.max_bytes == 0;
  if (position() && !count_zero) {
    positioning_buffer_ = AlignedBuffer();  // the copy's own buffers replace it
    if (!ensure_input_buffer() || !ensure_output_buffer()) {
      end(1, Ending::kDie);
    } else if (strategy_ == Strategy::kStraight && request_.queue.order.random()) {
      StraightSink sink(*this);
      copy_randomly(sink);
    } else if (strategy_ == Strategy::kStraight && request_.queue.order.repeats()) {
      StraightSink sink(*this);
      copy_in_passes(sink);
    } else if (strategy_ == Strategy::kReblock && request_.queue.order.repeats()) {
      ReblockSink sink(*this);
      copy_in_passes(sink);
    } else if (strategy_ == Strategy::kStraight) {
      StraightSink sink(*this);
      copy_with(sink);
    } else if (strategy_ == Strategy::kReblock) {
      ReblockSink sink(*this);
      copy_with(sink);
    } else {
      ConvertSink sink(*this);
      copy_with(sink);
    }
  }
  result_.output_needs_fsync = writer_.needs_fsync();
  result_.input_offset = input_offset_.for_cache();
  return result_;
}

CopyResult run_sync_copy(const CopyRequest& request) { return SyncCopy(request).run(); }

}  // namespace ddtime
