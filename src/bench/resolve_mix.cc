// SPDX-License-Identifier: GPL-3.0-or-later
// resolve_mix — part of resolve: --mix's target as both sides of the run.
#include <cstdint>
#include <optional>
#include <string>

#include "bench/resolve.h"

namespace ddtime {

void mix_both_sides(Settings& settings) noexcept {
  settings.input_file = settings.output_file;
  settings.conv.notrunc = true;
  settings.skip_records = settings.seek_records;
  settings.skip_bytes = settings.seek_bytes;
  settings.iflag.direct = settings.oflag.direct;
}

bool resolve_mix(Os& os, ResolvedRun& resolved, const Messages& messages) {
  Settings& settings = resolved.settings;
  const std::string& path = *settings.output_file;
  mix_both_sides(settings);
  resolved.input = resolved.output;
  const std::optional<std::int64_t> size = resolved.output == FileKind::kRegular || resolved.output == FileKind::kBlock
                                               ? file_size(os, path, resolved.output)
                                               : std::nullopt;
  const std::int64_t seek = settings.seek_offset().value_or(0);
  if (!size || *size <= seek) {
    messages.mix_needs_data(path);
    return false;
  }
  const std::int64_t rest = *size - seek;
  const std::int64_t asked = settings.count_in_bytes().value_or(rest);
  if (asked > rest) {
    messages.mix_would_grow(path, *size, seek + asked);
    return false;
  }
  // Whole blocks: every I/O is one block, read or written (a partial last
  // one is left out, as a timed run leaves it).
  const std::int64_t bytes = asked - asked % settings.ibs;
  if (bytes == 0) {
    messages.mix_needs_a_block(asked, settings.ibs);
    return false;
  }
  settings.max_records = bytes / settings.ibs;
  settings.max_bytes = 0;
  resolved.bytes = bytes;
  return true;
}

}  // namespace ddtime
