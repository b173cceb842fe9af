// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/io_position.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ddtime {
namespace {

// Retries EINTR for the calls dd makes once (ftruncate, fsync, fdatasync).
template <typename Call>
IoResult retrying(Call call) noexcept {
  IoResult result;
  do result = call();
  while (!result.ok() && result.err == EINTR);
  return result;
}

// What is left to pass over by reading or writing, after seeking failed:
// whole blocks first, then the leftover bytes.
struct Gap {
  std::int64_t records;
  std::int64_t bytes;

  bool done() const noexcept { return records == 0 && bytes == 0; }
  std::size_t next(std::int64_t blocksize) const noexcept {
    return static_cast<std::size_t>(records != 0 ? blocksize : bytes);
  }
  void step() noexcept {
    if (records != 0) {
      --records;
    } else {
      bytes = 0;
    }
  }
};

// GNU's skip() when lseek could not do it: a file that can seek at all is
// not worth reading over; anything else is read over block by block.
Ending read_over(Os& os, Events& events, Reader& reader, Side side, int lseek_errno, std::int64_t blocksize, Gap& gap,
                 InputOffset* offset, bool noerror, PositionBuffers& buffers) {
  const int fd = side == Side::kInput ? kInputFd : kOutputFd;
  if (os.lseek(fd, 0, SEEK_END).ok()) {
    events.notice(side == Side::kInput ? Notice::kCannotSkip : Notice::kCannotSeek, side,
                  lseek_errno != 0 ? lseek_errno : EOVERFLOW, 0);
    return Ending::kQuit;
  }
  unsigned char* buffer = buffers.block_for(side);
  if (buffer == nullptr) return Ending::kDie;
  do {
    IoResult got = reader.read_from(fd, buffer, gap.next(blocksize));
    if (got.err == kStopRequested) return Ending::kInterrupted;
    if (!got.ok()) {
      if (side == Side::kInput) {
        events.notice(Notice::kReadError, Side::kInput, got.err, 0);
        if (noerror) events.show_stats(Stats{});
      } else {
        events.notice(Notice::kCannotSeek, Side::kOutput, lseek_errno, 0);
      }
      return Ending::kQuit;
    }
    if (got.n == 0) break;
    if (offset != nullptr) offset->advance(got.n);
    gap.step();
  } while (!gap.done());
  return Ending::kFinished;
}

}  // namespace

bool InputOffset::skip_bad_bytes(Os& os, Events& events, std::int64_t bad_bytes) {
  int err = 0;
  if (!seekable_) {
    if (seek_errno_ == ESPIPE) return true;
    err = seek_errno_;
  } else {
    advance(bad_bytes);
    if (offset_ < 0) {
      events.notice(Notice::kOffsetOverflow, Side::kInput, 0, 0);
      return false;
    }
    IoResult here = os.lseek(kInputFd, 0, SEEK_CUR);
    if (here.ok()) {
      if (here.n == offset_) return true;
      const std::int64_t diff = offset_ - here.n;
      if (!(0 <= diff && diff <= bad_bytes)) events.notice(Notice::kInvalidOffsetAfterRead, Side::kInput, 0, 0);
      IoResult moved = os.lseek(kInputFd, static_cast<off_t>(diff), SEEK_CUR);
      if (moved.ok()) return true;
      err = moved.err;
    } else {
      err = here.err;
    }
  }
  events.notice(Notice::kCannotSeek, Side::kInput, err, 0);
  return false;
}

Ending skip_input(Os& os, Events& events, Reader& reader, InputOffset& offset, const Settings& settings,
                  PositionBuffers& buffers) {
  std::int64_t wanted = 0;
  const bool wanted_fits = multiply_add_fits(settings.skip_records, settings.ibs, settings.skip_bytes, wanted);
  const std::int64_t offset_before = offset.value();
  Gap gap{settings.skip_records, settings.skip_bytes};
  int lseek_errno = 0;
  bool seeked = false;
  if (wanted_fits) {
    IoResult moved = os.lseek(kInputFd, static_cast<off_t>(wanted), SEEK_CUR);
    lseek_errno = moved.err;
    seeked = moved.ok();
  }
  if (seeked) {
    // Not the kind the run carries: GNU's skip() makes this fstat here,
    // after the lseek, and dies with "cannot fstat" when it fails; and
    // the size is the input's as it stands now.
    struct stat status {};
    IoResult stat_result = os.fstat(kInputFd, status);
    if (!stat_result.ok()) {
      events.notice(Notice::kCannotFstat, Side::kInput, stat_result.err, 0);
      return Ending::kDie;
    }
    // Past the end of a regular file: count the whole records that are
    // missing and stand at the end, so that the warning below is given.
    std::int64_t moved_by = wanted;
    gap.records = 0;
    if (S_ISREG(status.st_mode) && offset.value() >= 0 && status.st_size - offset.value() < wanted) {
      gap.records = (wanted - status.st_size) / settings.ibs;
      moved_by = status.st_size - offset.value();
    }
    offset.advance(moved_by);
  } else {
    Ending end = read_over(os, events, reader, Side::kInput, lseek_errno, settings.ibs, gap, &offset,
                           settings.conv.noerror, buffers);
    if (end != Ending::kFinished) return end;
  }
  // A file too short, a pipe with too little data, or short reads.
  if (gap.records != 0 || (offset.value() >= 0 && (!wanted_fits || wanted != offset.value() - offset_before))) {
    events.notice(Notice::kCannotSkipToOffset, Side::kInput, 0, 0);
  }
  return Ending::kFinished;
}

Ending seek_output(Os& os, Events& events, Reader& reader, Writer& writer, const Settings& settings,
                   PositionBuffers& buffers) {
  std::int64_t wanted = 0;
  Gap gap{settings.seek_records, settings.seek_bytes};
  int lseek_errno = 0;
  if (multiply_add_fits(settings.seek_records, settings.obs, settings.seek_bytes, wanted)) {
    IoResult moved = os.lseek(kOutputFd, static_cast<off_t>(wanted), SEEK_CUR);
    if (moved.ok()) return Ending::kFinished;
    lseek_errno = moved.err;
  }
  Ending end = read_over(os, events, reader, Side::kOutput, lseek_errno, settings.obs, gap, nullptr, false, buffers);
  if (end != Ending::kFinished || gap.done()) return end;
  // An output that could be read but not seeked: write zeros over the rest.
  unsigned char* zeros = buffers.block_for(Side::kOutput);
  if (zeros == nullptr) return Ending::kDie;
  std::memset(zeros, 0, gap.next(settings.obs));
  do {
    const std::size_t size = gap.next(settings.obs);
    IoResult wrote = writer.write(zeros, size);
    if (wrote.err == kStopRequested) return Ending::kInterrupted;
    if (static_cast<std::size_t>(wrote.n) != size) {
      events.notice(Notice::kBlockWriteError, Side::kOutput, wrote.err, 0);
      return Ending::kQuit;
    }
    gap.step();
  } while (!gap.done());
  return Ending::kFinished;
}

Ending position_files(Os& os, Events& events, Reader& reader, Writer& writer, InputOffset& offset,
                      const Settings& settings, PositionBuffers& buffers) {
  Ending end = Ending::kFinished;
  if (settings.skip_records != 0 || settings.skip_bytes != 0) {
    end = skip_input(os, events, reader, offset, settings, buffers);
  }
  if (end == Ending::kFinished && (settings.seek_records != 0 || settings.seek_bytes != 0)) {
    end = seek_output(os, events, reader, writer, settings, buffers);
  }
  return end;
}

std::int64_t first_write_offset(Os& os, const Settings& settings, FileKind output) noexcept {
  if (settings.oflag.append && output == FileKind::kRegular) {
    if (const std::optional<std::int64_t> end = file_size(os, kOutputFd, output)) return *end;
  }
  const IoResult here = os.lseek(kOutputFd, 0, SEEK_CUR);
  return here.ok() ? static_cast<std::int64_t>(here.n) : -1;
}

std::int64_t planned_write_offset(Os& os, const Settings& settings) noexcept {
  const std::int64_t seek = settings.seek_offset().value_or(0);
  if (!settings.oflag.append || !settings.output_file) return seek;
  // Asked now, by name, not of the kind the run carries: an earlier run of
  // the session may have made or grown the file.
  struct stat status {};
  const bool exists = os.stat_path(settings.output_file->c_str(), status).ok();
  // A device or a pipe takes the bytes where it takes them (positional
  // for a block device, see open_output).
  if (exists && !S_ISREG(status.st_mode)) return seek;
  if (settings.conv.notrunc) return exists ? static_cast<std::int64_t>(status.st_size) : 0;
  // Opened with O_TRUNC the file is empty; cut at seek= it ends there.
  return settings.empties_output() ? 0 : seek;
}

int truncate_at_seek(Os& os, Events& events, const Settings& settings) {
  if (!settings.output_file || settings.empties_output() || settings.conv.notrunc) return 0;
  std::int64_t size = 0;
  multiply_add_fits(settings.seek_records, settings.obs, settings.seek_bytes, size);  // checked before opening
  IoResult cut = retrying([&] { return os.ftruncate(kOutputFd, static_cast<off_t>(size)); });
  if (cut.ok()) return 0;
  // POSIX defines ftruncate only for regular files, directories and shared
  // memory, so only there is a failure worth reporting. The fstat is GNU's,
  // made here and only here, with its "cannot fstat": kept, not the kind
  // the run carries.
  struct stat status {};
  IoResult stat_result = os.fstat(kOutputFd, status);
  if (!stat_result.ok()) {
    events.notice(Notice::kCannotFstat, Side::kOutput, stat_result.err, 0);
    return 1;
  }
  // GNU 9.1 reports it and carries on; the exit status is the copy's.
  if (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode)) {
    events.notice(Notice::kTruncateFailed, Side::kOutput, cut.err, size);
  }
  return 0;
}

int extend_to_final_seek(Os& os, Events& events) {
  // GNU's fstat at the end of a copy whose last op was a seek: it can fail
  // with "cannot fstat", and the size is the one the copy left.
  struct stat status {};
  IoResult stat_result = os.fstat(kOutputFd, status);
  if (!stat_result.ok()) {
    events.notice(Notice::kCannotFstat, Side::kOutput, stat_result.err, 0);
    return 1;
  }
  if (!S_ISREG(status.st_mode)) return 0;
  IoResult here = os.lseek(kOutputFd, 0, SEEK_CUR);
  if (!here.ok() || status.st_size >= here.n) return 0;
  IoResult cut = os.ftruncate(kOutputFd, static_cast<off_t>(here.n));
  if (cut.ok()) return 0;
  events.notice(Notice::kTruncateFailed, Side::kOutput, cut.err, here.n);
  return 1;
}

int flush_output(Os& os, Events& events, const Conversions& conv, bool needs_fsync) {
  int status = 0;
  bool want_fsync = conv.fsync || needs_fsync;
  if (conv.fdatasync) {
    IoResult synced = retrying([&] { return os.fdatasync(kOutputFd); });
    if (!synced.ok()) {
      // Where fdatasync is not supported, fsync is the fallback.
      if (synced.err != ENOSYS && synced.err != EINVAL) {
        events.notice(Notice::kFdatasyncFailed, Side::kOutput, synced.err, 0);
        status = 1;
      }
      want_fsync = true;
    }
  }
  if (want_fsync) {
    IoResult synced = retrying([&] { return os.fsync(kOutputFd); });
    if (!synced.ok()) {
      events.notice(Notice::kFsyncFailed, Side::kOutput, synced.err, 0);
      return 1;
    }
  }
  return status;
}

namespace {

// A regular file's or block device's size; -1 for anything else.
std::int64_t input_size(Os& os, FileKind input) noexcept { return file_size(os, kInputFd, input).value_or(-1); }

std::optional<std::int64_t> at_most_left(std::optional<std::int64_t> total, std::int64_t size,
                                         std::int64_t from) noexcept {
  const std::int64_t left = size > from ? size - from : 0;
  return total ? std::min(*total, left) : left;
}

}  // namespace

std::optional<std::int64_t> expected_input_bytes(Os& os, const Settings& settings, FileKind input) noexcept {
  std::optional<std::int64_t> total = settings.count_in_bytes();
  const std::int64_t size = input_size(os, input);
  // The copy starts where the input already stands (an inherited stdin may
  // be part-read), then skip= moves it further.
  IoResult here = os.lseek(kInputFd, 0, SEEK_CUR);
  std::int64_t skipped = here.ok() ? static_cast<std::int64_t>(here.n) : 0;
  std::int64_t skip_length = 0;
  if (size >= 0 && multiply_add_fits(settings.skip_records, settings.ibs, settings.skip_bytes, skip_length) &&
      !__builtin_add_overflow(skipped, skip_length, &skipped)) {
    total = at_most_left(total, size, skipped);
  }
  return total;
}

std::optional<std::int64_t> input_bytes_from(Os& os, const Settings& settings, FileKind input,
                                             std::int64_t from) noexcept {
  std::optional<std::int64_t> total = settings.count_in_bytes();
  const std::int64_t size = input_size(os, input);
  return size >= 0 ? at_most_left(total, size, from) : total;
}

}  // namespace ddtime
