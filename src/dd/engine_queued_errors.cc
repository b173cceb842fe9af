// SPDX-License-Identifier: GPL-3.0-or-later
// The queued copy after an error: which blocks every job wrote (in place
// from the range's start, or out of order past it), said for a block
// device, which keeps them; and a regular of= made into the prefix one
// sequential copy would have left (prefix_refill). Apart from
// engine_queued.cc: nothing here runs while the copy's requests are in
// flight.

#include <algorithm>
#include <memory>
#include <vector>

#include "dd/engine_queued_internal.h"
#include "dd/prefix_refill.h"

namespace ddtime {

std::int64_t QueuedCopy::first_unwritten() const noexcept {
  const std::int64_t retired = next_retire_;
  if (part_.length == kNoLimit) return retired;  // the only job: record i is block i
  if (retired < part_.length) return part_.first + retired;
  // Its part's first pass all written, or every Nth record of an endless range.
  if (request_.queue.order.repeats() || part_.period == kNoLimit) return kNoLimit;
  return part_.global(retired);
}

std::vector<const QueuedCopy*> QueuedCopy::every_copy() const {
  std::vector<const QueuedCopy*> copies{this};
  for (const std::unique_ptr<QueuedCopy>& other : others_) copies.push_back(other.get());
  return copies;
}

std::int64_t QueuedCopy::blocks_in_place() const {
  const std::vector<const QueuedCopy*> copies = every_copy();
  const BlockOrder& order = request_.queue.order;
  if (!order.random()) {
    std::int64_t first = kNoLimit;
    for (const QueuedCopy* copy : copies) first = std::min(first, copy->first_unwritten());
    return order.repeats() ? std::min(first, order.blocks()) : first;
  }
  // --random: the blocks the counted records went to, marked, until every
  // block is (a timed run's later passes go over them again).
  const std::int64_t blocks = order.blocks();
  std::vector<bool> written(static_cast<std::size_t>(blocks));
  std::int64_t marked = 0;
  for (const QueuedCopy* copy : copies) {
    for (std::int64_t record = 0; record < copy->next_retire_ && marked < blocks; ++record) {
      const std::int64_t block = order.block_of(copy->part_.global(record));
      if (block < blocks && !written[static_cast<std::size_t>(block)]) {
        written[static_cast<std::size_t>(block)] = true;
        ++marked;
      }
    }
  }
  return std::find(written.begin(), written.end(), false) - written.begin();
}

void QueuedCopy::say_written_out_of_order(std::int64_t stop_block) {
  // Blocks can repeat (a timed run's passes): each is marked once.
  std::vector<bool> written;
  auto mark = [&](const QueuedCopy& copy, std::int64_t record) {
    const auto block = static_cast<std::size_t>(request_.queue.order.block_of(copy.part_.global(record)));
    if (block >= written.size()) written.resize(block + 1);
    written[block] = true;
  };
  for (const QueuedCopy* copy : every_copy()) {
    for (std::int64_t record = 0; record < copy->next_retire_; ++record) mark(*copy, record);
    for (const Slot& s : copy->slots_) {
      if (s.state == Slot::State::kWritten && s.record >= copy->next_retire_ && s.write_error == 0 && s.written > 0) {
        mark(*copy, s.record);
      }
    }
  }
  const WrittenOutOfOrder said = written_past(written, stop_block, ibs_);
  if (said.blocks > 0) events_->written_out_of_order(said);
}

RefillRequest QueuedCopy::refill_request(std::int64_t failed, Side side, int err) const {
  RefillRequest request;
  request.input_base = input_base_;
  request.output_base = output_base_;
  request.ibs = ibs_;
  request.in_place = std::min(blocks_in_place(), failed);
  const BlockOrder& order = request_.queue.order;
  request.range_from(settings_, order.repeats() ? std::optional<std::int64_t>(order.blocks()) : std::nullopt);
  request.failed_block = failed;
  request.failed_side = side;
  request.failed_err = err;
  request.keep_size = output_size_before_;
  return request;
}

// One sequential copy meets the error at the lowest block that failed, and
// has written every block below it; blocks written out of turn above it are
// more than it leaves, and those they crowded out (ENOSPC) fewer. So the
// file is cut back to the blocks in place from the start and written on in
// turn from the input, until the error comes again.
void QueuedCopy::refill_after_error() {
  std::int64_t failed = failed_block_;
  Side side = failed_side_;
  int err = failed_err_;
  for (const std::unique_ptr<QueuedCopy>& other : others_) {
    if (other->failed_block_ >= 0 && (failed < 0 || other->failed_block_ < failed)) {
      failed = other->failed_block_;
      side = other->failed_side_;
      err = other->failed_err_;
    }
  }
  if (failed < 0 || !positional_output_) return;
  // A block device keeps what was written, and the user hears which
  // blocks one copy in turn would not have written.
  if (output_size_before_ < 0 && request_.kinds.output == FileKind::kBlock) {
    say_written_out_of_order(std::min(blocks_in_place(), failed));
    return;
  }
  // The generator's input cannot be read again through the Os.
  if (output_size_before_ < 0 || request_.queue.generated_input) return;
  const RefillOutcome outcome =
      refill_prefix(request_.os, reader_, writer_, slot_buffers_[0].data(), refill_request(failed, side, err));
  input_offset_.advance(outcome.stats.bytes_in - stats_.bytes_in);
  stats_ = outcome.stats;
  refilled_ = true;
  refilled_end_ = output_base_ + outcome.written;
  // A timed run's counts are now the prefix's, ramp and passes included.
  result_.counts_from_start = request_.queue.order.repeats();
  if (outcome.interrupted) {
    interrupted_ = true;
    result_.ending = Ending::kInterrupted;
    return;
  }
  const bool writing = outcome.side == Side::kOutput;
  // The first error was said; another one, a different one, is said too.
  if (outcome.err != 0 && (outcome.err != err || outcome.side != side)) {
    events_->notice(!writing                  ? Notice::kReadError
                    : settings_.two_buffers() ? Notice::kBlockWriteError
                                              : Notice::kWriteError,
                    outcome.side, outcome.err, 0);
  }
  if (outcome.err != 0 && writing && settings_.two_buffers()) {
    if (outcome.short_write) ++stats_.partial_records_out;
    result_.ending = Ending::kQuit;
  }
}

}  // namespace ddtime
