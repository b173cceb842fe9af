// SPDX-License-Identifier: GPL-3.0-or-later
// The sync engine's copy when something failed: a read that failed
// (conv=noerror's dropped or padded record), and a --random copy that a
// write error ended: the blocks it wrote out of order said for a block
// device, a regular of= made into the prefix one copy in turn leaves.
// Apart from engine_sync.cc, whose loop calls here only after an error.
#include <algorithm>
#include <cerrno>
#include <optional>
#include <vector>

#include "dd/engine_sync_internal.h"
#include "dd/prefix_refill.h"

namespace ddtime {

// A read that failed: a stop, the end of the copy, or (conv=noerror) a
// record left out or, under sync, an empty record to be padded.
SyncCopy::Read SyncCopy::after_failed_read(const ReadRules& rules, int err, std::int64_t& length) {
  if (err == kStopRequested) return Read::kStop;
  events_.notice(Notice::kReadError, Side::kInput, err, 0);
  if (!rules.noerror) {
    result_.exit_status = 1;
    return Read::kEnd;
  }
  events_.show_stats(stats_);
  if (!input_offset_.skip_bad_bytes(request_.os, events_, rules.ibs - partial_read_bytes_)) {
    result_.exit_status = 1;
    input_offset_.stop_seeking();
  }
  // Only a read that failed at a record boundary becomes a padded record.
  if (!(rules.sync && partial_read_bytes_ == 0)) return Read::kDropped;
  length = 0;
  return Read::kRecord;
}

bool SyncCopy::a_write_failed() const noexcept {
  const std::int64_t read = stats_.full_records_in + stats_.partial_records_in;
  const std::int64_t written = stats_.full_records_out + stats_.partial_records_out;
  return result_.exit_status != 0 && result_.ending != Ending::kInterrupted && read == written + 1;
}

std::vector<bool> SyncCopy::blocks_written() const {
  const BlockOrder& order = request_.queue.order;
  const std::int64_t written = stats_.full_records_out + stats_.partial_records_out;
  std::vector<bool> written_blocks(static_cast<std::size_t>(order.blocks()));
  for (std::int64_t record = 0; record < written && record < order.blocks(); ++record) {
    written_blocks[static_cast<std::size_t>(order.block_of(record))] = true;
  }
  return written_blocks;
}

// As the queued engine says it: from the first block one copy in turn
// would have written and this one did not, or the failed block if lower.
void SyncCopy::say_written_out_of_order() {
  if (!a_write_failed()) return;
  const std::vector<bool> written = blocks_written();
  const std::int64_t failed = request_.queue.order.block_of(stats_.full_records_out + stats_.partial_records_out);
  const auto first_hole = static_cast<std::int64_t>(std::find(written.begin(), written.end(), false) - written.begin());
  const WrittenOutOfOrder said = written_past(written, std::min(first_hole, failed), settings_.ibs);
  if (said.blocks > 0) events_.written_out_of_order(said);
}

// Blocks written in the seed's order leave holes below the block whose
// write failed, and blocks above it that one sequential copy never writes.
void SyncCopy::refill_after_random_error(std::int64_t input_base, std::int64_t output_base, std::int64_t size_before) {
  // Only a write that failed (its record read, not written) is refilled.
  if (!a_write_failed()) return;
  const BlockOrder& order = request_.queue.order;
  const std::int64_t written = stats_.full_records_out + stats_.partial_records_out;
  const std::vector<bool> in_place = blocks_written();
  RefillRequest request;
  request.input_base = input_base;
  request.output_base = output_base;
  request.ibs = settings_.ibs;
  request.in_place = std::find(in_place.begin(), in_place.end(), false) - in_place.begin();
  request.range_from(settings_, std::nullopt);
  request.failed_block = order.block_of(written);
  request.failed_err = ENOSPC;  // tried again: whatever failed, the refill meets it anew
  request.keep_size = size_before;
  const RefillOutcome outcome = refill_prefix(request_.os, reader_, writer_, input_buffer_.data(), request);
  input_offset_.advance(outcome.stats.bytes_in - stats_.bytes_in);
  stats_ = outcome.stats;
  if (outcome.interrupted) end(0, Ending::kInterrupted);
  // The write error was said; a read error here is new.
  if (outcome.err != 0 && outcome.side == Side::kInput)
    events_.notice(Notice::kReadError, Side::kInput, outcome.err, 0);
}

}  // namespace ddtime
