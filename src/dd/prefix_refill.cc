// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/prefix_refill.h"

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace ddtime {

void RefillRequest::range_from(const Settings& settings, std::optional<std::int64_t> pass_blocks) noexcept {
  if (pass_blocks) {
    records = *pass_blocks;
    short_record = kNoLimit;
    return;
  }
  const bool short_last = settings.max_bytes != 0;
  records = short_last && settings.max_records < kNoLimit ? settings.max_records + 1 : settings.max_records;
  short_record = short_last ? settings.max_records : kNoLimit;
  short_bytes = static_cast<std::int64_t>(settings.max_bytes);
}

bool space_error(int err) noexcept { return err == ENOSPC || err == EDQUOT || err == EFBIG; }

WrittenOutOfOrder written_past(const std::vector<bool>& written, std::int64_t stop_block, std::int64_t block_size) {
  WrittenOutOfOrder said;
  said.stop_block = stop_block;
  said.block_size = block_size;
  for (auto block = static_cast<std::size_t>(std::max<std::int64_t>(stop_block, 0)); block < written.size(); ++block) {
    if (!written[block]) continue;
    if (said.blocks++ == 0) said.first_block = static_cast<std::int64_t>(block);
    said.last_block = static_cast<std::int64_t>(block);
  }
  return said;
}

RefillOutcome refill_prefix(Os& os, Reader& reader, Writer& writer, unsigned char* buffer,
                            const RefillRequest& request) {
  RefillOutcome out;
  Stats& stats = out.stats;
  const std::int64_t ibs = request.ibs;
  const std::int64_t in_place = std::min(request.in_place, request.records);
  stats.full_records_in = stats.full_records_out = in_place;
  stats.bytes_in = stats.bytes_out = in_place * ibs;
  out.written = in_place * ibs;
  // The cut first: the blocks written past the prefix go, and with them
  // the room they took, which the sequential copy would have had.
  os.ftruncate(kOutputFd, static_cast<off_t>(std::max(request.keep_size, request.output_base + in_place * ibs)));
  for (std::int64_t block = in_place; block < request.records; ++block) {
    const bool retry = request.failed_side == Side::kOutput && space_error(request.failed_err);
    if (block == request.failed_block && request.failed_side == Side::kInput) {
      out.err = request.failed_err;
      out.side = Side::kInput;
      break;
    }
    const std::int64_t want = block == request.short_record ? request.short_bytes : ibs;
    // At the block's offset, one call a side (pread, pwrite), whether the
    // copy before placed its records that way (--random's sync engine) or
    // not: the Reader and Writer keep going from there as a short transfer
    // needs.
    reader.read_at(request.input_base + block * ibs);
    const IoResult got = reader.read(buffer, static_cast<std::size_t>(want));
    if (got.err == kStopRequested) {
      out.interrupted = true;
      break;
    }
    if (got.n < 0) {
      out.err = got.err;
      out.side = Side::kInput;
      break;
    }
    if (got.n == 0) break;
    ++(got.n == ibs ? stats.full_records_in : stats.partial_records_in);
    stats.bytes_in += got.n;
    if (block == request.failed_block && !retry) {
      // The write that failed there fails the sequential copy too.
      out.err = request.failed_err;
      out.side = Side::kOutput;
      break;
    }
    writer.write_at(request.output_base + block * ibs);
    const IoResult wrote = writer.write(buffer, static_cast<std::size_t>(got.n));
    if (wrote.err == kStopRequested) {
      out.interrupted = true;
      break;
    }
    stats.bytes_out += wrote.n;
    out.written = block * ibs + wrote.n;
    if (wrote.n != got.n) {
      out.short_write = wrote.n > 0;
      out.err = wrote.err;
      out.side = Side::kOutput;
      break;
    }
    ++(got.n == ibs ? stats.full_records_out : stats.partial_records_out);
    if (got.n < want) break;  // the input's end: its partial record was the last
  }
  return out;
}

}  // namespace ddtime
