// SPDX-License-Identifier: GPL-3.0-or-later
// prefix_refill — after an error in a copy that wrote its blocks out of
// turn (--random, --jobs, --iodepth, --time), a regular output file made
// into what one sequential copy (GNU dd) leaves: cut back to the blocks
// known written from the range's start, then the blocks after them
// written in turn, read again from the input, until an error comes again.
// The counts and the words are the caller's to say.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dd/io.h"
#include "model/events.h"
#include "model/settings.h"
#include "model/stats.h"
#include "system/os.h"

namespace ddtime {

// Blocks are the range's, of ibs bytes, counted from its start.
struct RefillRequest {
  std::int64_t input_base = 0;   // where block 0 is read
  std::int64_t output_base = 0;  // where block 0 is written
  std::int64_t ibs = 0;
  // The blocks [0, in_place) hold their data in of=.
  std::int64_t in_place = 0;
  // The range's records (kNoLimit: to the input's end); the one at
  // short_record, when it is below records, is short_bytes long (count=
  // in bytes).
  std::int64_t records = 0;
  std::int64_t short_record = 0;
  std::int64_t short_bytes = 0;
  // The lowest block that failed, and how. A write that failed for want
  // of space is tried again (the cut freed what the blocks past the
  // prefix took); any other failure ends the prefix there, as it would
  // have ended one sequential copy.
  std::int64_t failed_block = 0;
  Side failed_side = Side::kOutput;
  int failed_err = 0;
  // Bytes of the file that stay (conv=notrunc keeps what it held before).
  std::int64_t keep_size = 0;

  // records, short_record and short_bytes as count= sets them (a count
  // in bytes ends with one short record), or, for a timed run's passes,
  // the range's blocks, all whole.
  void range_from(const Settings& settings, std::optional<std::int64_t> pass_blocks) noexcept;
};

struct RefillOutcome {
  Stats stats;  // the prefix's records and bytes, as one sequential copy counts them
  int err = 0;  // the error that ended the prefix (0: the range was copied whole)
  Side side = Side::kOutput;
  bool interrupted = false;  // a signal stopped it (the caller's Reader or Writer heard it)
  std::int64_t written = 0;  // of='s bytes from output_base on
  bool short_write = false;  // the failed write took part of its record
};

// A write failure that a cut can undo: the file system lacked room.
bool space_error(int err) noexcept;

// A block device, which keeps what was written, after an error (rule 2 of
// issue 28, both engines): of the blocks written (written[b] for block b
// of the range), those at or past stop_block, where the copy in turn ends,
// counted, with the first and the last.
WrittenOutOfOrder written_past(const std::vector<bool>& written, std::int64_t stop_block, std::int64_t block_size);

// Requires: buffer holds ibs bytes (aligned as the input's reads need);
// reader and writer are the copy's own.
RefillOutcome refill_prefix(Os& os, Reader& reader, Writer& writer, unsigned char* buffer,
                            const RefillRequest& request);

}  // namespace ddtime
