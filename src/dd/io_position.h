// SPDX-License-Identifier: GPL-3.0-or-later
// io_position — the part of io that moves the files rather than their
// bytes, in GNU dd's terms: the input offset as dd counts it, skip= and
// seek= (by seeking, or by reading and writing over what cannot seek), the
// truncation at seek=, the final truncate that makes a sparse output's
// trailing hole count, the flush, and the input's size for --progress.
// Reports through Events; never formats text.
#pragma once

#include <cstdint>
#include <optional>

#include "dd/io.h"
#include "model/ending.h"
#include "model/events.h"
#include "model/settings.h"
#include "model/stats.h"
#include "system/file_kind.h"
#include "system/os.h"

namespace ddtime {

// Where the input stands, as GNU counts it: from the position probed when
// it was opened, advanced by every byte skipped or read; -1 once the count
// no longer fits.
class InputOffset {
 public:
  explicit InputOffset(const InputPosition& position) noexcept
      : seekable_(position.seekable), offset_(position.offset), seek_errno_(position.err) {}

  bool seekable() const noexcept { return seekable_; }
  std::int64_t value() const noexcept { return offset_; }
  // For cache advice: -1 when the input cannot seek.
  std::int64_t for_cache() const noexcept { return seekable_ ? offset_ : -1; }
  void advance(std::int64_t bytes) noexcept {
    if (offset_ >= 0 && __builtin_add_overflow(offset_, bytes, &offset_)) offset_ = -1;
  }

  // After a failed read under conv=noerror: moves the input past the bad
  // bytes, as GNU does. False when that failed (the notice is given).
  bool skip_bad_bytes(Os& os, Events& events, std::int64_t bad_bytes);
  // One complaint about seeking is enough: treat the input as a pipe.
  void stop_seeking() noexcept {
    seekable_ = false;
    seek_errno_ = ESPIPE;
  }

 private:
  bool seekable_;
  std::int64_t offset_;
  int seek_errno_;
};

// A positioning step ends as a copy does (ending.h): kFinished goes on.

// Room for one block when a step must read or write over what it cannot
// seek: the input's ibs block for skip=, the output's obs block for seek=.
// nullptr when it could not be allocated (the notice is given).
class PositionBuffers {
 public:
  virtual ~PositionBuffers() = default;
  virtual unsigned char* block_for(Side side) = 0;
};

// skip=: seeks past the records and bytes, or reads over them where the
// input cannot seek, warning as GNU does when the input ends first.
Ending skip_input(Os& os, Events& events, Reader& reader, InputOffset& offset, const Settings& settings,
                  PositionBuffers& buffers);

// seek=: seeks the output, or reads over it where it can be read but not
// seeked and writes zeros over the rest, as GNU does.
Ending seek_output(Os& os, Events& events, Reader& reader, Writer& writer, const Settings& settings,
                   PositionBuffers& buffers);

// skip= then seek=, as every engine starts a copy.
Ending position_files(Os& os, Events& events, Reader& reader, Writer& writer, InputOffset& offset,
                      const Settings& settings, PositionBuffers& buffers);

// Where the copy's first write lands, once skip= and seek= are done: the
// output's position, or under O_APPEND a regular file's end; -1 when the
// output has no position (a pipe). --readback reads back from there.
std::int64_t first_write_offset(Os& os, const Settings& settings, FileKind output) noexcept;

// Where the first write will land, asked before of= is opened (for
// --pattern=stamp, whose sectors carry their offset): seek=, or under
// O_APPEND the end a regular file will have once it is opened and cut.
std::int64_t planned_write_offset(Os& os, const Settings& settings) noexcept;

// GNU cuts of= at the seek point when seek= is given without notrunc.
// Returns 0, or 1 when the run must not go on (the notice is given).
int truncate_at_seek(Os& os, Events& events, const Settings& settings);

// The output ends in a hole made by a conv=sparse seek: only a truncate
// makes its size right. Returns the exit status (1 when it failed).
int extend_to_final_seek(Os& os, Events& events);

// conv=fdatasync / conv=fsync, and the fsync that the O_DIRECT tail needs.
// Returns the exit status, GNU's synchronize_output.
int flush_output(Os& os, Events& events, const Conversions& conv, bool needs_fsync);

// Whether flush_output has anything to do.
inline bool flush_wanted(const Conversions& conv, bool needs_fsync) noexcept {
  return conv.fdatasync || conv.fsync || needs_fsync;
}

// The bytes the copy will read, for --progress: count= bounded by what is
// left of a regular file or block device after skip=; nullopt when unknown.
std::optional<std::int64_t> expected_input_bytes(Os& os, const Settings& settings, FileKind input) noexcept;

// The same once skip= is done and the copy starts at byte `from` of the
// input: count= bounded by what the file or device holds past `from`.
std::optional<std::int64_t> input_bytes_from(Os& os, const Settings& settings, FileKind input,
                                             std::int64_t from) noexcept;

}  // namespace ddtime
