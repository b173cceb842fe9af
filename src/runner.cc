#include "runner.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "io.h"
#include "signals.h"

namespace ddtime {

Runner::Runner(Os& os, Clock& clock, const Diag& diag, const Settings& settings)
    : os_(os),
      clock_(clock),
      diag_(diag),
      settings_(settings),
      reporter_(settings.status),
      input_name_(settings.input_file ? *settings.input_file : "standard input"),
      output_name_(settings.output_file ? *settings.output_file : "standard output") {}

// The copy path reports events; this is where they get GNU dd's words.
void Runner::notice(Notice what, Side side, int err, std::int64_t value) noexcept {
  const bool quiet = settings_.status == StatusLevel::kNone;
  const std::string& name = name_of(side);
  switch (what) {
    case Notice::kPartialRead:
      if (!quiet) {
        diag_.error(0, "warning: partial read ({} {}); suggest iflag=fullblock", value,
                    value == 1 ? "byte" : "bytes");
      }
      break;
    case Notice::kReadError:
      if (!settings_.conv.noerror || !quiet) diag_.error(err, "error reading {}", diag_.quote_always(name));
      break;
    case Notice::kWriteError:
      diag_.error(err, "error writing {}", diag_.quote_always(name));
      break;
    case Notice::kBlockWriteError:
      diag_.error(err, "writing to {}", diag_.quote_always(name));
      break;
    case Notice::kCannotSkipToOffset:
      if (!quiet) diag_.error(0, "{}: cannot skip to specified offset", diag_.quote_if_needed(name));
      break;
    case Notice::kCannotSkip:
      diag_.error(err, "{}: cannot skip", diag_.quote_if_needed(name));
      break;
    case Notice::kCannotSeek:
      diag_.error(err, "{}: cannot seek", diag_.quote_if_needed(name));
      break;
    case Notice::kCannotFstat:
      diag_.error(err, "cannot fstat {}", diag_.quote_always(name));
      break;
    case Notice::kTruncateFailed:
      diag_.error(err, "failed to truncate to {} bytes in output file {}", value, diag_.quote_always(name));
      break;
    case Notice::kFdatasyncFailed:
      diag_.error(err, "fdatasync failed for {}", diag_.quote_always(name));
      break;
    case Notice::kFsyncFailed:
      diag_.error(err, "fsync failed for {}", diag_.quote_always(name));
      break;
    case Notice::kDirectOffFailed:
      if (!quiet) diag_.error(err, "failed to turn off O_DIRECT: {}", diag_.quote_if_needed(name));
      break;
    case Notice::kCacheDropFailed:
      diag_.error(err, "failed to discard cache for: {}", diag_.quote_if_needed(name));
      break;
    case Notice::kOffsetOverflow:
      diag_.error(0, "offset overflow while reading file {}", diag_.quote_always(name));
      break;
    case Notice::kInvalidOffsetAfterRead:
      if (!quiet) diag_.error(0, "warning: invalid file offset after failed read");
      break;
    case Notice::kKernelBugWorkaround:
      diag_.error(0, "cannot work around kernel bug after all");
      break;
    case Notice::kInputBufferExhausted:
      diag_.error(0, "memory exhausted by input buffer of size {} bytes ({})", value, human_size(value, false));
      break;
    case Notice::kOutputBufferExhausted:
      diag_.error(0, "memory exhausted by output buffer of size {} bytes ({})", value, human_size(value, false));
      break;
  }
}

void Runner::show_stats(const Stats& stats) noexcept {
  std::string text = reporter_.summary(stats, clock_.now_ns() - start_ns_);
  if (!text.empty()) diag_.raw(text);
}

void Runner::progress(const Stats& stats, std::int64_t now_ns) noexcept {
  diag_.raw(reporter_.progress(stats, now_ns - start_ns_));
}

void Runner::handle_signals(const Stats& stats) noexcept {
  while (true) {
    signals::Taken taken = signals::take();
    if (taken.interrupt == 0 && !taken.info) return;
    if (taken.interrupt != 0) close_files();
    show_stats(stats);
    if (taken.interrupt != 0) signals::die_by(taken.interrupt);
  }
}

void Runner::die(int status) noexcept { std::_Exit(status); }

void Runner::close_files() noexcept {
  if (files_closed_) return;
  files_closed_ = true;
  IoResult closed = os_.close(kInputFd);
  if (!closed.ok()) {
    diag_.error(closed.err, "closing input file {}", diag_.quote_always(input_name_));
    die(EXIT_FAILURE);
  }
  closed = os_.close(kOutputFd);
  if (!closed.ok()) {
    diag_.error(closed.err, "closing output file {}", diag_.quote_always(output_name_));
    die(EXIT_FAILURE);
  }
}

void Runner::finish(const Stats& stats) noexcept {
  if (signals::pending()) handle_signals(stats);
  close_files();
  show_stats(stats);
}

int Runner::open_files() noexcept {
  int err = open_input(os_, settings_);
  if (err != 0) {
    if (settings_.input_file) {
      diag_.error(err, "failed to open {}", diag_.quote_always(input_name_));
    } else {
      diag_.error(err, "setting flags for {}", diag_.quote_always(input_name_));
    }
    return EXIT_FAILURE;
  }

  std::int64_t seek_size = 0;
  if (settings_.output_file && !settings_.conv.notrunc &&
      (__builtin_mul_overflow(settings_.seek_records, settings_.obs, &seek_size) ||
       __builtin_add_overflow(seek_size, settings_.seek_bytes, &seek_size))) {
    diag_.error(0, "offset too large: cannot truncate to a length of seek={} ({}-byte) blocks",
                settings_.seek_records, settings_.obs);
    return EXIT_FAILURE;
  }

  err = open_output(os_, settings_);
  if (err != 0) {
    if (settings_.output_file) {
      diag_.error(err, "failed to open {}", diag_.quote_always(output_name_));
    } else {
      diag_.error(err, "setting flags for {}", diag_.quote_always(output_name_));
    }
    return EXIT_FAILURE;
  }

  if (settings_.output_file && settings_.seek_records != 0 && !settings_.conv.notrunc) {
    IoResult cut = os_.ftruncate(kOutputFd, static_cast<off_t>(seek_size));
    if (!cut.ok()) {
      // POSIX defines ftruncate only for regular files, directories and
      // shared memory, so only there is a failure worth stopping for.
      struct stat status {};
      IoResult stat_result = os_.fstat(kOutputFd, status);
      if (!stat_result.ok()) {
        diag_.error(stat_result.err, "cannot fstat {}", diag_.quote_always(output_name_));
        return EXIT_FAILURE;
      }
      if (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode)) {
        diag_.error(cut.err, "failed to truncate to {} bytes in output file {}", seek_size,
                    diag_.quote_always(output_name_));
        return EXIT_FAILURE;
      }
    }
  }
  return 0;
}

int Runner::synchronize_output(const Engine& engine) noexcept {
  int status = 0;
  bool want_fsync = settings_.conv.fsync || engine.output_needs_fsync();
  if (settings_.conv.fdatasync) {
    IoResult synced;
    do synced = os_.fdatasync(kOutputFd);
    while (!synced.ok() && synced.err == EINTR);
    if (!synced.ok()) {
      // Where fdatasync is not supported, fsync is the fallback.
      if (synced.err != ENOSYS && synced.err != EINVAL) {
        notice(Notice::kFdatasyncFailed, Side::kOutput, synced.err, 0);
        status = EXIT_FAILURE;
      }
      want_fsync = true;
    }
  }
  if (want_fsync) {
    IoResult synced;
    do synced = os_.fsync(kOutputFd);
    while (!synced.ok() && synced.err == EINTR);
    if (!synced.ok()) {
      notice(Notice::kFsyncFailed, Side::kOutput, synced.err, 0);
      return EXIT_FAILURE;
    }
  }
  return status;
}

int Runner::drop_caches(Engine& engine) noexcept {
  const bool count_zero = settings_.max_records == 0 && settings_.max_bytes == 0;
  int status = 0;
  if (settings_.iflag.nocache && (count_zero || engine.input_reached_eof())) {
    int err = engine.reader().cache().drop_to_end(engine.input_cache_offset());
    // count=0 with nocache is the documented way to drop a file's cache,
    // so only then is a failure an error.
    if (err != 0 && count_zero) {
      notice(Notice::kCacheDropFailed, Side::kInput, err, 0);
      status = EXIT_FAILURE;
    }
  }
  if (settings_.oflag.nocache && (count_zero || (engine.input_reached_eof() && !settings_.conv.notrunc))) {
    IoResult here = os_.lseek(kOutputFd, 0, SEEK_CUR);
    int err = engine.writer().cache().drop_to_end(here.ok() ? here.n : -1);
    if (err != 0 && count_zero) {
      notice(Notice::kCacheDropFailed, Side::kOutput, err, 0);
      status = EXIT_FAILURE;
    }
  }
  return status;
}

int Runner::run() noexcept {
  if (int status = open_files(); status != 0) return status;

  // POSIX lets SIGUSR1 keep its default (terminating) action when
  // POSIXLY_CORRECT is set; GNU dd honours that.
  signals::install(std::getenv("POSIXLY_CORRECT") == nullptr);
  start_ns_ = clock_.now_ns();

  Engine engine(os_, *this, clock_, settings_);
  CopyOutcome outcome = engine.run(start_ns_);
  switch (outcome.ending) {
    case Ending::kDie:
      return outcome.exit_status;
    case Ending::kQuit:
      finish(engine.stats());
      return outcome.exit_status;
    case Ending::kFinished:
      break;
  }
  int status = outcome.exit_status;
  if (int synced = synchronize_output(engine); synced != 0) status = synced;
  if (int dropped = drop_caches(engine); dropped != 0) status = dropped;
  finish(engine.stats());
  return status;
}

}  // namespace ddtime
