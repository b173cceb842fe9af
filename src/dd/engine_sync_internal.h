// SPDX-License-Identifier: GPL-3.0-or-later
// engine_sync's copy, shared by engine_sync.cc (the loop, its sinks and
// the order it copies in) and engine_sync_errors.cc (what a failed read
// or a failed --random write leaves). Not for other modules.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dd/convert.h"
#include "dd/engine.h"
#include "dd/io.h"
#include "dd/io_position.h"
#include "system/buffer.h"

namespace ddtime {

// The state of one copy. The loop is a template over the sink, so that
// the strategy costs nothing per block: no switch, no virtual call.
class SyncCopy final : private PositionBuffers, private BlockSink {
 public:
  explicit SyncCopy(const CopyRequest& request);
  CopyResult run();

 private:
  enum class Strategy { kStraight, kReblock, kConvert };
  // What read_record() produced.
  enum class Read {
    kRecord,   // a record of `length` bytes, counted
    kDropped,  // a failed read that conv=noerror leaves out
    kEnd,      // end of input, or a read error that ends the copy
    kStop,     // a signal stopped the run
  };

  class StraightSink;
  class ReblockSink;
  class ConvertSink;

  // What read_record() needs to know, fixed for the run: the loop keeps
  // it in registers rather than reloading it through settings_ after
  // every system call.
  struct ReadRules {
    bool sync;
    bool noerror;
    unsigned char pad;
    std::int64_t ibs;
    std::int64_t max_records;
    std::size_t max_bytes;
  };

  // dd's order: each record where the last one ended; nothing to do.
  struct InTurn {
    bool operator()(std::int64_t) const noexcept { return true; }
  };
  // --random: both sides' next call at the start of the record's block.
  // --time in turn: both sides back at the range's start at each pass's
  // first record (false when a seek failed: said, and the copy ended).
  class AtItsBlock;
  class AtPassStart;
  // Both sides to these offsets (a negative one: that side stays); false
  // when a seek failed (said, and the copy ended).
  bool place(std::int64_t input_at, std::int64_t output_at);

  template <typename Sink, typename Place = InTurn>
  void copy_with(Sink& sink, Place place = {});
  // --random: the copy with its records placed by pread and pwrite;
  // --time in turn: by an lseek at each pass's start.
  void copy_randomly(StraightSink& sink);
  // --random ended by a write error: a regular of= made into the prefix
  // one sequential copy leaves (prefix_refill), and the counts that prefix's.
  void refill_after_random_error(std::int64_t input_base, std::int64_t output_base, std::int64_t size_before);
  // --random ended by a write error on a block device, which keeps what
  // was written: the blocks written past the run in place from the
  // range's start are said (rule 2 of issue 28).
  void say_written_out_of_order();
  // --random: whether a write failed (its record read, not written), not
  // a read, a signal or nothing.
  bool a_write_failed() const noexcept;
  // Which of the range's blocks the records written so far are in.
  std::vector<bool> blocks_written() const;
  template <typename Sink>
  void copy_in_passes(Sink& sink);
  [[gnu::always_inline]] inline Read read_record(const ReadRules& rules, unsigned char* record, std::int64_t& length);
  Read after_failed_read(const ReadRules& rules, int err, std::int64_t& length);
  bool position();
  // Writes the bytes left for the final partial output block.
  bool write_final_block(std::span<const unsigned char> pending);
  bool write_full_block(std::span<const unsigned char> block) override;
  unsigned char* block_for(Side side) override;
  bool ensure_input_buffer();
  bool ensure_output_buffer();
  void end(int status, Ending ending) {
    result_.exit_status = status;
    result_.ending = ending;
    done_ = true;
  }

  const CopyRequest& request_;
  const Settings& settings_;
  Events& events_;
  Strategy strategy_;
  CopyResult result_;
  Stats& stats_ = result_.stats;
  Reader reader_;
  Writer writer_;
  InputOffset input_offset_;
  Converter converter_;
  std::size_t ibs_;
  std::size_t obs_;
  AlignedBuffer input_buffer_;           // straight: the only buffer; reblock: obs+ibs
  AlignedBuffer output_buffer_;          // convert: obs bytes
  AlignedBuffer positioning_buffer_;     // reblock: one side's block, for skip/seek over a pipe
  std::int64_t partial_read_bytes_ = 0;  // GNU's partread
  ProgressTicker progress_ticker_;
  bool progress_;
  bool done_ = false;  // result_ holds how the copy ended
};

}  // namespace ddtime
