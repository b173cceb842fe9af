// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/io.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "system/buffer.h"
#include "system/file_kind.h"

namespace ddtime {
namespace {

// GNU batches cache advice in units of its I/O buffer size.
constexpr std::int64_t kCacheAdviceBatch = 128 * 1024;

// Output files are created rw for everyone, less the umask, as GNU does.
constexpr mode_t kCreateMode = S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH;

// Opens path and moves it onto want_fd, the way the shell would have. The
// handlers are in place before the first open, without SA_RESTART: an open
// that blocks (a FIFO waiting for its other end) and is interrupted by a
// signal is made again, as GNU dd's is, and the signal is acted on in the
// copy.
int reopen_onto(Os& os, int want_fd, const char* path, int flags) noexcept {
  IoResult opened = os.open(path, flags, kCreateMode);
  while (!opened.ok() && opened.err == EINTR) opened = os.open(path, flags, kCreateMode);
  if (!opened.ok()) return opened.err;
  int fd = static_cast<int>(opened.n);
  if (fd == want_fd) return 0;
  IoResult moved = os.dup2(fd, want_fd);
  os.close(fd);
  return moved.ok() ? 0 : moved.err;
}

}  // namespace

int open_flags_for(const IoFlags& flags) noexcept {
  int result = 0;
  if (flags.append) result |= O_APPEND;
  if (flags.direct) result |= O_DIRECT;
  if (flags.directory) result |= O_DIRECTORY;
  if (flags.dsync) result |= O_DSYNC;
  if (flags.sync) result |= O_SYNC;
  if (flags.nonblock) result |= O_NONBLOCK;
  if (flags.noatime) result |= O_NOATIME;
  if (flags.noctty) result |= O_NOCTTY;
  if (flags.nofollow) result |= O_NOFOLLOW;
  return result;
}

int apply_flags_to_std_stream(Os& os, int fd, const IoFlags& flags) noexcept {
  // noctty and nofollow only mean something to open(2).
  int wanted = open_flags_for(flags) & ~(O_NOCTTY | O_NOFOLLOW);
  if (wanted == 0) return 0;
  IoResult current = os.get_status_flags(fd);
  if (!current.ok()) return current.err;
  int old_flags = static_cast<int>(current.n);
  int new_flags = old_flags | wanted;
  if (new_flags == old_flags) return 0;
  if (new_flags & O_DIRECTORY) {
    // fcntl cannot set O_DIRECTORY; check what it would have checked. The
    // fstat is GNU's (set_fd_flags), with its error, not a kind to carry.
    struct stat status {};
    IoResult stat_result = os.fstat(fd, status);
    if (!stat_result.ok()) return stat_result.err;
    if (!S_ISDIR(status.st_mode)) return ENOTDIR;
    new_flags &= ~O_DIRECTORY;
  }
  if (new_flags == old_flags) return 0;
  IoResult set = os.set_status_flags(fd, new_flags);
  return set.ok() ? 0 : set.err;
}

int open_input(Os& os, const Settings& settings) noexcept {
  int flags = open_flags_for(settings.iflag);
  // Synchronised reads, as POSIX asks when dsync or sync is given.
  if (settings.iflag.dsync || settings.iflag.sync) flags |= O_RSYNC;
  if (!settings.input_file) return apply_flags_to_std_stream(os, kInputFd, settings.iflag);
  return reopen_onto(os, kInputFd, settings.input_file->c_str(), O_RDONLY | flags);
}

Positioning positioning_of(FileKind kind) noexcept {
  if (is_positional(kind)) return Positioning::kPositional;
  return is_order_free(kind) ? Positioning::kOrderFree : Positioning::kInOrder;
}

int close_side(Os& os, int fd) noexcept { return os.close(fd).err; }

std::optional<AlignmentProblem> alignment_problem(const Settings& settings, Side side, const DirectIoNeeds& needs) {
  if (needs.source == DirectIoNeeds::Source::kAssumed) return std::nullopt;
  const bool input = side == Side::kInput;
  const char* size_operand = settings.bs_given ? "bs" : input ? "ibs" : "obs";
  const std::int64_t size = input ? settings.ibs : settings.obs;
  AlignmentProblem problem{AlignmentProblem::Kind::kBlockSize,
                           side,
                           needs.source == DirectIoNeeds::Source::kLogicalBlockSize,
                           static_cast<std::int64_t>(needs.offset_alignment),
                           size_operand,
                           size};
  if (size % problem.block != 0) return problem;
  if (input && settings.max_bytes % problem.block != 0) {
    // A count in bytes ends with a read of the leftover bytes, which the
    // device would refuse.
    problem.kind = AlignmentProblem::Kind::kCountBytes;
    problem.operand = settings.ext.count_from_size ? "--size" : "count=";
    problem.value = settings.max_bytes;
    return problem;
  }
  const std::optional<std::int64_t> offset = input ? settings.skip_offset() : settings.seek_offset();
  if (!offset || *offset % problem.block != 0) {
    problem.kind = AlignmentProblem::Kind::kStartOffset;
    problem.operand = input ? "skip" : "seek";
    problem.value = offset.value_or(-1);
    return problem;
  }
  return std::nullopt;
}

InputPosition probe_input_position(Os& os) noexcept {
  IoResult here = os.lseek(kInputFd, 0, SEEK_CUR);
  return {here.ok(), here.ok() ? static_cast<std::int64_t>(here.n) : 0, here.err};
}

int open_output(Os& os, const Settings& settings) noexcept {
  if (!settings.output_file) return apply_flags_to_std_stream(os, kOutputFd, settings.oflag);
  int flags = open_flags_for(settings.oflag);
  if (!settings.conv.nocreat) flags |= O_CREAT;
  if (settings.conv.excl) flags |= O_EXCL;
  // With seek= the file is cut at the seek point later, not emptied here.
  if (settings.empties_output() && !settings.conv.notrunc) flags |= O_TRUNC;
  const char* path = settings.output_file->c_str();
  // Read access is wanted only to read over seek= on an unseekable file;
  // if it is refused, write-only may still work.
  if (settings.seek_records != 0 && reopen_onto(os, kOutputFd, path, O_RDWR | flags) == 0) return 0;
  return reopen_onto(os, kOutputFd, path, O_WRONLY | flags);
}

CacheAdvice::CacheAdvice(Os& os, int fd, const Settings& settings) noexcept : CacheAdvice(os, fd) {
  enabled_ = fd == kInputFd ? settings.iflag.nocache : settings.oflag.nocache;
  to_end_of_file_ = enabled_ && settings.max_records == 0 && settings.max_bytes == 0;
}

std::int64_t CacheAdvice::take_whole_batches(std::int64_t length) noexcept {
  if (length == 0) return pending_;
  std::int64_t total = 0;
  if (__builtin_add_overflow(pending_, length, &total)) total = INT64_MAX;
  pending_ = total % kCacheAdviceBatch;
  return total - pending_;
}

int CacheAdvice::advise(std::int64_t length, std::int64_t input_offset) noexcept {
  std::int64_t advised = take_whole_batches(length);
  if (length != 0 && advised == 0) return 0;  // not a whole batch yet
  if (length == 0 && advised == 0 && !to_end_of_file_) return 0;
  // What stays pending after this advice lies between it and the offset.
  std::int64_t left_over = length != 0 ? pending_ : 0;

  std::int64_t offset = input_offset;
  if (fd_ != kInputFd) {
    if (output_offset_ == kUnknown) {
      IoResult here = os_->lseek(fd_, 0, SEEK_CUR);
      output_offset_ = here.ok() ? static_cast<std::int64_t>(here.n) : -1;
      output_offset_err_ = here.err;
    } else if (output_offset_ >= 0 && length != 0) {
      // GNU moves its idea of the output offset by the advised bytes and
      // what is left over, not by what was written: kept, call for call.
      output_offset_ += advised + left_over;
    }
    offset = output_offset_;
  }
  if (offset < 0) return fd_ == kInputFd ? ESPIPE : output_offset_err_;

  if (length == 0 && advised != 0 && to_end_of_file_) {
    left_over = advised;
    advised = 0;
  }
  offset -= advised + left_over;
  // To end of file: from the start of the page holding the first byte, as
  // the kernel drops whole pages only.
  if (advised == 0) offset -= offset % static_cast<std::int64_t>(page_size());
  IoResult result = os_->drop_cache(fd_, offset, advised);
  return result.ok() ? 0 : result.err;
}

Reader::Reader(Os& os, Events& events, const Stats& stats, const Settings& settings, CacheAdvice& cache)
    : os_(os),
      events_(events),
      stats_(stats),
      fullblock_(settings.iflag.fullblock),
      direct_(settings.iflag.direct),
      warn_partial_read_(settings.partial_read_matters()),
      cache_(cache) {}

IoResult Reader::retry_failed_read(int fd, unsigned char* buffer, std::size_t size, IoResult failed) {
  IoResult result = failed;
  while (true) {
    // Under O_DIRECT the kernel refuses a read at an unaligned end of file
    // with EINVAL; after a short read that is simply the end.
    if (result.err == EINVAL && direct_ && previous_read_ > 0 && static_cast<std::size_t>(previous_read_) < size) {
      return IoResult{0, 0};
    }
    if (result.ok() || result.err != EINTR) return result;
    if (signals::pending() && events_.handle_signals(stats_)) return IoResult{-1, kStopRequested};
    result = call_read(fd, buffer, size);
  }
}

IoResult Reader::after_unusual_read(IoResult result, std::size_t size) {
  // A short read may have been cut short by a signal; a stop then drops
  // what was read, as GNU dies before counting it.
  if (result.n > 0 && static_cast<std::size_t>(result.n) < size && signals::pending() &&
      events_.handle_signals(stats_)) {
    return IoResult{-1, kStopRequested};
  }
  if (result.n > 0 && warn_partial_read_) {
    if (previous_read_ > 0 && static_cast<std::size_t>(previous_read_) < size) {
      events_.notice(Notice::kPartialRead, Side::kInput, 0, previous_read_);
      warn_partial_read_ = false;
    }
  }
  return result;
}

IoResult Reader::read_full(int fd, unsigned char* buffer, std::size_t size) {
  std::size_t total = 0;
  while (total < size) {
    IoResult got = read_once(fd, buffer + total, size - total);
    if (!got.ok()) return got;
    if (got.n == 0) break;
    total += static_cast<std::size_t>(got.n);
  }
  return IoResult{static_cast<ssize_t>(total), 0};
}

Writer::Writer(Os& os, Events& events, const Stats& stats, const Settings& settings, CacheAdvice& cache)
    : os_(os),
      events_(events),
      stats_(stats),
      obs_(static_cast<std::size_t>(settings.obs)),
      sparse_(settings.conv.sparse),
      direct_(settings.oflag.direct),
      plain_(!settings.conv.sparse && !settings.oflag.direct && !settings.oflag.nocache),
      cache_(cache) {}

void Writer::leave_direct_mode() {
  // The kernel rejects a write that is not a multiple of the block size
  // under O_DIRECT, so the last partial block goes through the page cache
  // and is then forced out with fsync, as GNU does.
  direct_ = false;
  IoResult flags = os_.get_status_flags(kOutputFd);
  IoResult set = flags.ok() ? os_.set_status_flags(kOutputFd, static_cast<int>(flags.n) & ~O_DIRECT) : flags;
  if (!set.ok()) events_.notice(Notice::kDirectOffFailed, Side::kOutput, set.err, 0);
  // What O_DIRECT would have kept out of the page cache is advised away to
  // end of file now, and again after the fsync (GNU's order).
  cache_.reach_end_of_file();
  cache_.finish(-1);
  needs_fsync_ = true;
}

IoResult Writer::finish_write(const unsigned char* buffer, std::size_t size, IoResult first) {
  final_op_was_seek_ = false;
  if (first.ok() && first.n == 0) return IoResult{0, ENOSPC};
  if (!first.ok() && first.err != EINTR) return IoResult{0, first.err};
  return write_from(buffer, size, first.ok() ? static_cast<std::size_t>(first.n) : 0);
}

IoResult Writer::write_from(const unsigned char* buffer, std::size_t size, std::size_t total) {
  if (direct_ && size < obs_) leave_direct_mode();
  int stop_reason = 0;
  while (total < size) {
    if (signals::pending() && events_.handle_signals(stats_))
      return IoResult{static_cast<ssize_t>(total), kStopRequested};
    final_op_was_seek_ = false;
    std::size_t done = 0;
    if (sparse_ && all_zero(buffer, size)) {
      IoResult seek = os_.lseek(kOutputFd, static_cast<off_t>(size), SEEK_CUR);
      if (seek.ok()) {
        final_op_was_seek_ = true;
        done = size;
      } else {
        // Sparse output is advice: where seeking fails, write the zeros.
        sparse_ = false;
      }
    }
    if (done == 0) {
      IoResult wrote = call_write(buffer + total, size - total);
      if (!wrote.ok()) {
        if (wrote.err == EINTR) continue;
        stop_reason = wrote.err;
        break;
      }
      if (wrote.n == 0) {
        // Some devices report the end of the medium as a zero-byte write.
        stop_reason = ENOSPC;
        break;
      }
      done = static_cast<std::size_t>(wrote.n);
    }
    total += done;
  }
  if (total > 0) cache_.transferred(static_cast<std::int64_t>(total), -1);
  return IoResult{static_cast<ssize_t>(total), stop_reason};
}

int write_all(Os& os, int fd, std::string_view text) noexcept {
  while (!text.empty()) {
    IoResult wrote = os.write(fd, text.data(), text.size());
    if (!wrote.ok() && wrote.err == EINTR) continue;
    if (!wrote.ok()) return wrote.err;
    if (wrote.n == 0) return ENOSPC;
    text.remove_prefix(static_cast<std::size_t>(wrote.n));
  }
  return 0;
}

int write_file(Os& os, const char* path, std::string_view text) noexcept {
  IoResult opened = os.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (!opened.ok()) return opened.err;
  const int fd = static_cast<int>(opened.n);
  int err = write_all(os, fd, text);
  IoResult closed = os.close(fd);
  return err != 0 ? err : closed.err;
}

bool all_zero(const unsigned char* buffer, std::size_t size) noexcept {
  // Comparing the buffer with itself shifted by one lets memcmp's vector
  // code do the scan.
  return size == 0 || (buffer[0] == 0 && std::memcmp(buffer, buffer + 1, size - 1) == 0);
}

}  // namespace ddtime
