// SPDX-License-Identifier: GPL-3.0-or-later
// engine — one dd copy: skip= and seek=, then the read/convert/write loop
// with GNU's record counting, the final partial block, and extending a
// sparse output. Buffers are allocated and the strategy chosen before the
// first read. Never formats text: everything worth saying goes to Events.
// (A later io_uring engine sits beside this one with the same entry point.)
#pragma once

#include <cstdint>
#include <optional>

#include "buffer.h"
#include "convert.h"
#include "events.h"
#include "io.h"
#include "os.h"
#include "settings.h"
#include "stats.h"
#include "timing.h"

namespace ddtime {

// How the copy ended, in GNU's terms.
enum class Ending {
  kFinished,  // the copy returned: flush, close and print stats as usual
  kQuit,      // stop now: flush, close, print stats, exit with the status
  kDie,       // stop now: exit with the status, no stats (GNU's die())
};

struct CopyOutcome {
  int exit_status = 0;
  Ending ending = Ending::kFinished;
};

class Engine final : private BlockSink {
 public:
  // Requires: fd 0 and fd 1 are the opened input and output; alignment is
  // a power of two (0: the page size). position: the input's, as probed
  // when it was opened; without it the engine probes as it starts.
  Engine(Os& os, Events& events, Clock& clock, const Settings& settings, std::size_t alignment = 0,
         std::optional<InputPosition> position = std::nullopt) noexcept;

  // Runs skip, seek and the copy. start_ns is when the measured window
  // began (status=progress counts from it).
  CopyOutcome run(std::int64_t start_ns) noexcept;

  const Stats& stats() const noexcept { return stats_; }

  // What the end of the run needs to know.
  bool output_needs_fsync() const noexcept { return writer_.needs_fsync(); }
  // Offsets for dropping the cache to end of file: -1 when not seekable.
  std::int64_t input_cache_offset() const noexcept { return input_seekable_ ? input_offset_ : -1; }
  Reader& reader() noexcept { return reader_; }
  Writer& writer() noexcept { return writer_; }

 private:
  enum class Strategy { kStraight, kReblock, kConvert };

  bool write_full_block(std::span<const unsigned char> block) noexcept override;

  bool ensure_input_buffer() noexcept;
  bool ensure_output_buffer() noexcept;
  void note_input_position(const InputPosition& position) noexcept;
  void advance_input_offset(std::int64_t bytes) noexcept;
  // GNU's skip(): returns the records that could not be skipped over.
  std::int64_t skip(Side side, std::int64_t records, std::int64_t blocksize, std::int64_t& bytes,
                    CopyOutcome& outcome) noexcept;
  bool skip_input(CopyOutcome& outcome) noexcept;
  bool seek_output(CopyOutcome& outcome) noexcept;
  bool advance_after_read_error(std::int64_t bad_bytes) noexcept;
  CopyOutcome copy_loop(std::int64_t start_ns) noexcept;
  bool flush_full_blocks() noexcept;
  void write_final_block(std::span<const unsigned char> pending, CopyOutcome& outcome) noexcept;
  void extend_after_final_seek(CopyOutcome& outcome) noexcept;
  unsigned char* output_area() noexcept;
  // A block's room for reading over skip= or seek= (side's block size), or
  // nullptr once its allocation failure was reported.
  unsigned char* positioning_buffer(Side side) noexcept;

  Os& os_;
  Events& events_;
  Clock& clock_;
  const Settings& settings_;
  Strategy strategy_;
  Stats stats_;
  Reader reader_;
  Writer writer_;
  Converter converter_;

  std::size_t ibs_;
  std::size_t obs_;
  std::size_t alignment_;
  AlignedBuffer input_buffer_;   // straight: the only buffer; reblock: obs+ibs
  AlignedBuffer output_buffer_;  // convert: obs bytes
  AlignedBuffer positioning_buffer_;  // reblock: skip/seek over a pipe
  std::size_t fill_ = 0;         // reblock: bytes waiting in input_buffer_
  std::optional<InputPosition> probed_position_;

  bool input_seekable_ = false;
  int input_seek_errno_ = 0;
  std::int64_t input_offset_ = 0;  // -1 once it no longer fits, as in GNU
  std::int64_t partial_read_bytes_ = 0;  // GNU's partread
};

}  // namespace ddtime
