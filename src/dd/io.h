// SPDX-License-Identifier: GPL-3.0-or-later
// io — dd's file semantics over Os: opening if=/of= with the right modes,
// reads that retry EINTR and honour fullblock, writes that continue short
// writes, turn NUL blocks into seeks for conv=sparse and drop O_DIRECT for a
// final partial block, nocache's cache advice, and (io_position.h) skip=,
// seek=, truncation and flushing. Reports through Events; never formats
// text.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/events.h"
#include "model/settings.h"
#include "model/stats.h"
#include "system/file_kind.h"
#include "system/os.h"
#include "system/signals.h"

namespace ddtime {

// Opens if= onto fd 0 (or applies iflag= to standard input) as GNU does.
// Returns errno on failure, 0 on success.
int open_input(Os& os, const Settings& settings) noexcept;

// Opens of= onto fd 1 (or applies oflag= to standard output): creation,
// excl, nocreat, truncation unless seek= or notrunc. Truncation at the seek
// point happens in truncate_at_seek (io_position.h).
int open_output(Os& os, const Settings& settings) noexcept;

// How a queued engine may reach a file: at offsets of its own and in any
// order (a regular file, a block device); in any order because a read
// yields the same kind of bytes wherever and whenever it is made
// (/dev/zero, /dev/full, /dev/null, /dev/random, /dev/urandom); or only one
// request at a time, in order (pipes, sockets, terminals, tapes and every
// other character device, where each read or write may be a record).
enum class Positioning { kPositional, kOrderFree, kInOrder };
Positioning positioning_of(FileKind kind) noexcept;

// What O_DIRECT asks of fd (statx, else the logical block size).
inline DirectIoNeeds direct_io_needs_of(Os& os, int fd) noexcept { return os.direct_io_needs(fd); }

// What a side under O_DIRECT would have refused, as far as the kernel
// stated what it needs (needs.source is not kAssumed): a block size, the
// leftover of a count in bytes, or a start offset that is not a multiple
// of its alignment. nullopt when it would take them all.
std::optional<AlignmentProblem> alignment_problem(const Settings& settings, Side side, const DirectIoNeeds& needs);

// Closes fd 0 or 1. Returns errno, or 0.
int close_side(Os& os, int fd) noexcept;

// The open(2) flags an iflag=/oflag= set stands for.
int open_flags_for(const IoFlags& flags) noexcept;

// GNU applies iflag=/oflag= to an inherited standard stream with fcntl;
// only flags fcntl can change are applied. Returns errno or 0.
int apply_flags_to_std_stream(Os& os, int fd, const IoFlags& flags) noexcept;

inline constexpr int kInputFd = 0;
inline constexpr int kOutputFd = 1;

// IoResult::err of a read or write that did not happen because a signal
// asked the run to stop (Events::handle_signals returned true). Never an
// errno: those are positive.
inline constexpr int kStopRequested = -1;

// Where the input stands as the copy begins: GNU asks right after opening
// it, before the output is opened, and counts the input offset from there.
struct InputPosition {
  bool seekable = false;
  std::int64_t offset = 0;
  int err = 0;  // why it cannot seek
};
InputPosition probe_input_position(Os& os) noexcept;

// nocache's advice to drop cached pages, for one side, made call for call
// as GNU dd 9.1 makes it (scripts and strace-based tests see the calls):
// transfers are batched into 128 KiB advice; the input's position is the
// copy's own count, the output's is asked of the kernel once and then
// advanced by what was advised; at the end whatever is pending is advised,
// or, once `to end of file` was asked for, everything from the page that
// holds the first unadvised byte.
class CacheAdvice {
 public:
  CacheAdvice(Os& os, int fd) noexcept : os_(&os), fd_(fd) {}
  // As the settings ask for fd's side: enabled by nocache, and reaching to
  // end of file with count=0, the documented way to drop a file's cache.
  CacheAdvice(Os& os, int fd, const Settings& settings) noexcept;
  // nocache was asked for: every transfer counts towards advice.
  void enable() noexcept { enabled_ = true; }
  bool enabled() const noexcept { return enabled_; }
  // The final advice reaches to end of file (nocache with count=0 or at
  // end of input, or the O_DIRECT tail written through the page cache).
  void reach_end_of_file() noexcept { to_end_of_file_ = true; }
  bool reaches_end_of_file() const noexcept { return to_end_of_file_; }

  // Bytes just moved; input_offset is where the input now stands (-1 when
  // unknown). The output side ignores it.
  void transferred(std::int64_t length, std::int64_t input_offset) noexcept {
    if (enabled_) advise(length, input_offset);
  }
  // Advice for what is pending, or to end of file. Returns errno when
  // advice was due and could not be given, else 0.
  int finish(std::int64_t input_offset) noexcept { return advise(0, input_offset); }

 private:
  // length 0: the final advice. Returns errno or 0.
  int advise(std::int64_t length, std::int64_t input_offset) noexcept;
  // Adds length to the pending bytes; returns how many of them make whole
  // batches now (length 0: all that is pending).
  std::int64_t take_whole_batches(std::int64_t length) noexcept;

  static constexpr std::int64_t kUnknown = -2;
  Os* os_;
  int fd_;
  bool enabled_ = false;
  bool to_end_of_file_ = false;
  std::int64_t pending_ = 0;
  std::int64_t output_offset_ = kUnknown;  // -1 once the kernel could not say
  int output_offset_err_ = 0;
};

class Reader {
 public:
  Reader(Os& os, Events& events, const Stats& stats, const Settings& settings, CacheAdvice& cache);

  // One record's read, as GNU's iread (or iread_fullblock with
  // iflag=fullblock): EINTR retried with signals handled in between; a
  // failure to read after a short O_DIRECT read counts as end of file;
  // err kStopRequested when a signal stopped the run first.
  // Always inlined, as read_once and Writer::write: whether GCC inlines
  // them otherwise follows how big the including file is (its
  // inline-unit-growth is a share of the unit), and a header fewer in
  // engine_sync.cc cost 57 instructions a record at bs=4k (callgrind).
  [[gnu::always_inline]] IoResult read(unsigned char* buffer, std::size_t size) {
    return fullblock_ ? read_full(kInputFd, buffer, size) : read_once(kInputFd, buffer, size);
  }
  // The same from another descriptor: GNU reads over seek= on an output it
  // cannot seek, with the same reading rules.
  IoResult read_from(int fd, unsigned char* buffer, std::size_t size) {
    return fullblock_ ? read_full(fd, buffer, size) : read_once(fd, buffer, size);
  }

  CacheAdvice& cache() noexcept { return cache_; }

  // --random's synchronous copy: the next reads at this offset of the
  // input, by pread (one call, where lseek and read were two), each
  // going on where the one before ended, as read does; the input's own
  // position stays. A negative offset: read where the input stands.
  void read_at(std::int64_t offset) noexcept { at_ = offset; }

 private:
  // Inline, because it runs once per record: a healthy read costs a signal
  // poll, the call and two tests. Everything rarer is out of line.
  [[gnu::always_inline]] IoResult read_once(int fd, unsigned char* buffer, std::size_t size) {
    if (signals::pending() && events_.handle_signals(stats_)) return IoResult{-1, kStopRequested};
    IoResult result = call_read(fd, buffer, size);
    if (!result.ok()) result = retry_failed_read(fd, buffer, size, result);
    // Only a short read, or the read after one, has anything more to check.
    if (static_cast<std::size_t>(result.n) != size || previous_was_short_) result = after_unusual_read(result, size);
    previous_read_ = result.n;
    previous_was_short_ = result.n > 0 && static_cast<std::size_t>(result.n) < size;
    if (at_ >= 0 && result.n > 0) at_ += result.n;
    return result;
  }
  // The plain read laid out first: it is every call but --random's.
  [[gnu::always_inline]] IoResult call_read(int fd, unsigned char* buffer, std::size_t size) {
    if (at_ < 0) [[likely]]
      return os_.read(fd, buffer, size);
    return os_.pread(fd, buffer, size, static_cast<off_t>(at_));
  }
  IoResult read_full(int fd, unsigned char* buffer, std::size_t size);
  IoResult retry_failed_read(int fd, unsigned char* buffer, std::size_t size, IoResult failed);
  IoResult after_unusual_read(IoResult result, std::size_t size);

  Os& os_;
  Events& events_;
  const Stats& stats_;
  bool fullblock_;
  bool direct_;
  bool warn_partial_read_;
  ssize_t previous_read_ = 0;
  bool previous_was_short_ = false;
  std::int64_t at_ = -1;  // read_at()'s offset, or -1
  CacheAdvice& cache_;
};

class Writer {
 public:
  Writer(Os& os, Events& events, const Stats& stats, const Settings& settings, CacheAdvice& cache);

  // GNU's iwrite: writes all of it unless an error stops it; n is the bytes
  // written (a NUL block turned into a seek counts as written), err the
  // reason for stopping short (ENOSPC for a write that returned 0, or
  // kStopRequested when a signal stopped the run).
  [[gnu::always_inline]] IoResult write(const unsigned char* buffer, std::size_t size) {
    if (plain_ && !signals::pending()) {
      // One write(2) taking the whole block is by far the common case.
      IoResult wrote = call_write(buffer, size);
      if (wrote.n == static_cast<ssize_t>(size)) {
        final_op_was_seek_ = false;
        return wrote;
      }
      return finish_write(buffer, size, wrote);
    }
    return write_from(buffer, size, 0);
  }

  // The last operation was a seek over NULs: the file must be extended.
  bool final_op_was_seek() const noexcept { return final_op_was_seek_; }
  // The last partial block went out without O_DIRECT: fsync it.
  bool needs_fsync() const noexcept { return needs_fsync_; }
  CacheAdvice& cache() noexcept { return cache_; }

  // --random's synchronous copy: the next writes at this offset of the
  // output, by pwrite (one call, where lseek and write were two; /dev/null
  // still gets each one), each going on where the one before ended. A
  // negative offset: write where the output stands.
  void write_at(std::int64_t offset) noexcept { at_ = offset; }

 private:
  [[gnu::always_inline]] IoResult call_write(const unsigned char* buffer, std::size_t size) {
    if (at_ < 0) [[likely]]
      return os_.write(kOutputFd, buffer, size);
    IoResult wrote = os_.pwrite(kOutputFd, buffer, size, static_cast<off_t>(at_));
    if (wrote.n > 0) at_ += wrote.n;
    return wrote;
  }
  void leave_direct_mode();
  // After a first write that did not take everything.
  IoResult finish_write(const unsigned char* buffer, std::size_t size, IoResult first);
  // The general loop: signals, sparse seeks, short writes, EINTR, O_DIRECT.
  IoResult write_from(const unsigned char* buffer, std::size_t size, std::size_t total);

  Os& os_;
  Events& events_;
  const Stats& stats_;
  std::size_t obs_;
  bool sparse_;
  bool direct_;
  bool plain_;  // no sparse, direct or nocache: the fast path applies
  bool final_op_was_seek_ = false;
  bool needs_fsync_ = false;
  std::int64_t at_ = -1;  // write_at()'s offset, or -1
  CacheAdvice& cache_;
};

// Writes all of text to fd, retrying EINTR. Returns errno, ENOSPC for a
// write that took nothing, or 0.
int write_all(Os& os, int fd, std::string_view text) noexcept;

// Creates or empties path and writes text to it (the --json=PATH report).
// Returns errno, or 0.
int write_file(Os& os, const char* path, std::string_view text) noexcept;

// True when every byte is zero.
bool all_zero(const unsigned char* buffer, std::size_t size) noexcept;

}  // namespace ddtime
