// SPDX-License-Identifier: GPL-3.0-or-later
// convert — what dd does to bytes between read and write: the translate
// table (ascii/ebcdic/ibm, lcase/ucase), conv=swab with its odd byte carried
// across reads, conv=block/unblock with their column state, and collecting
// the result into obs-sized output blocks. No system calls: full blocks are
// handed to a BlockSink that the engine provides.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "model/settings.h"

namespace ddtime {

// Receives each full obs-sized block. One virtual call per output block.
class BlockSink {
 public:
  virtual ~BlockSink() = default;
  // Returns false when the write failed: the caller stops converting.
  virtual bool write_full_block(std::span<const unsigned char> block) = 0;
};

// Collects bytes into the caller's obs-sized buffer (GNU's obuf/oc) and
// hands it to the sink each time it fills.
// Requires: buffer.size() == obs > 0, and buffer outlives the blocker.
class OutputBlocker {
 public:
  OutputBlocker(std::span<unsigned char> buffer, BlockSink& sink) noexcept : buffer_(buffer), sink_(&sink) {}

  // Append bytes; flushes every time the buffer fills. False: a flush failed;
  // the failed block is left in the buffer and the blocker should not be
  // used further (GNU gives up at a failed full-block write).
  bool put(std::span<const unsigned char> bytes);
  bool put_byte(unsigned char byte);
  // Appends `count` copies of `byte` (block's padding, unblock's held-back
  // spaces) straight into the buffer.
  bool put_repeated(unsigned char byte, std::size_t count);

  // Bytes waiting for the final partial write.
  std::span<const unsigned char> pending() const noexcept { return buffer_.first(fill_); }
  void clear() noexcept { fill_ = 0; }

 private:
  std::span<unsigned char> buffer_;
  BlockSink* sink_;
  std::size_t fill_ = 0;
};

class Converter {
 public:
  // Builds the 256-byte table once, in GNU's order: ascii first, then case,
  // then ebcdic/ibm.
  Converter(const Conversions& conv, std::int64_t cbs) noexcept;

  bool translates() const noexcept { return translates_; }
  const std::array<unsigned char, 256>& table() const noexcept { return table_; }

  // In place, as the table says. Requires: translates().
  void translate(std::span<unsigned char> bytes) const noexcept;

  // Converts one read's worth of bytes (already padded by conv=sync and
  // translated) and appends the result to out: swab, then block, unblock or
  // a plain copy. Counts truncated records. False: a flush failed.
  // `bytes` may be modified in place.
  bool convert(std::span<unsigned char> bytes, OutputBlocker& out);

  // At end of input: the byte swab held back, block's padding of a last
  // line without newline, unblock's final newline. False: a flush failed.
  bool finish(OutputBlocker& out);

  std::int64_t truncated_records() const noexcept { return truncated_records_; }

  // The byte conv=sync pads with: an ASCII space when block or unblock is
  // active (cbs > 0), NUL otherwise. The pad goes in before translate(), so
  // it is translated like input: conv=ebcdic pads records with 0x40, and
  // conv=ascii turns the pad into 0x80, which unblock then keeps.
  unsigned char sync_pad_byte() const noexcept { return sync_pad_; }

 private:
  // Sets shifts_one_range_ and the range when the table allows it.
  void find_shifted_range() noexcept;
  // The stage after swab: block, unblock or a plain copy.
  bool emit(std::span<const unsigned char> bytes, OutputBlocker& out);
  bool block_bytes(std::span<const unsigned char> bytes, OutputBlocker& out);
  bool unblock_bytes(std::span<const unsigned char> bytes, OutputBlocker& out);

  std::array<unsigned char, 256> table_{};
  bool translates_ = false;
  // Set when the table only moves one contiguous run of byte values by a
  // constant (lcase and ucase alone: 'A'..'Z' by +32, 'a'..'z' by -32).
  // translate() then tests a range, which the compiler vectorises; a
  // lookup per byte cannot be.
  bool shifts_one_range_ = false;
  unsigned char range_first_ = 0;
  unsigned char range_size_ = 0;
  unsigned char range_delta_ = 0;
  bool swab_ = false;
  bool block_ = false;
  bool unblock_ = false;
  std::int64_t cbs_ = 0;
  unsigned char newline_ = '\n';
  unsigned char space_ = ' ';
  unsigned char sync_pad_ = 0;
  // swab: a byte held back from an odd-length read, or -1.
  int saved_byte_ = -1;
  // block/unblock: column within the current record. block parks it at
  // cbs + 1 once the current line has been counted as truncated.
  std::int64_t column_ = 0;
  // unblock: spaces seen but not yet known to be trailing.
  std::int64_t pending_spaces_ = 0;
  std::int64_t truncated_records_ = 0;
};

}  // namespace ddtime
