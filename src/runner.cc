// SPDX-License-Identifier: GPL-3.0-or-later
#include "runner.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstdlib>

#include "buffer.h"
#include "io.h"
#include "signals.h"

namespace ddtime {

Runner::Runner(Os& os, Clock& clock, Diag& diag, const Settings& settings, bool stderr_is_terminal)
    : os_(os),
      clock_(clock),
      diag_(diag),
      settings_(settings),
      stderr_is_terminal_(stderr_is_terminal),
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
  // After a read error under conv=noerror GNU prints its statistics; the
  // timing report waits for the end.
  std::string text = reporter_.summary(stats, clock_.now_ns() - start_ns_);
  if (!text.empty()) diag_.raw(text);
}

void Runner::progress(const Stats& stats, std::int64_t now_ns) noexcept {
  if (settings_.ext.progress) {
    diag_.raw(reporter_.extended_progress(diag_.program(), stats, now_ns - start_ns_, total_bytes_,
                                          stderr_is_terminal_));
  } else {
    diag_.raw(reporter_.progress(stats, now_ns - start_ns_));
  }
}

void Runner::handle_signals(const Stats& stats) noexcept {
  while (true) {
    signals::Taken taken = signals::take();
    if (taken.interrupt == 0 && !taken.info) return;
    if (taken.interrupt != 0) close_files();
    summarise(stats, false, std::nullopt, taken.interrupt);
    if (taken.interrupt != 0) signals::die_by(taken.interrupt);
  }
}

RunTimes Runner::measure(std::int64_t now_ns) const noexcept {
  RunTimes times;
  times.real_ns = now_ns - start_ns_;
  times.copy_ns = (copy_end_ns_ >= 0 ? copy_end_ns_ : now_ns) - start_ns_;
  times.flush_ns = flush_ns_;
  const CpuSplit cpu = cpu_in_window(cpu_at_start_, process_cpu_times(), times.real_ns);
  times.user_ns = cpu.user_ns;
  times.sys_ns = cpu.sys_ns;
  if (timed_os_ != nullptr) {
    // Ticks become nanoseconds by their rate over the whole window.
    const std::uint64_t ticks = read_ticks() - ticks_at_start_;
    if (ticks > 0 && times.real_ns > 0) {
      const long double ns_per_tick = static_cast<long double>(times.real_ns) / static_cast<long double>(ticks);
      times.split = true;
      times.read_ns = static_cast<std::int64_t>(static_cast<long double>(timed_os_->read_ticks_spent()) * ns_per_tick);
      times.write_ns =
          static_cast<std::int64_t>(static_cast<long double>(timed_os_->write_ticks_spent()) * ns_per_tick);
    }
  }
  return times;
}

int Runner::summarise(const Stats& stats, bool complete, std::optional<int> exit_status, int signal) noexcept {
  const std::int64_t now = clock_.now_ns();
  const Extensions& ext = settings_.ext;
  // The CPU times are read next to the clock, before any formatting, so that
  // real and CPU time cover the same window.
  const bool timed = reports_times();
  const RunTimes times = timed ? measure(now) : RunTimes{};
  std::string text;
  // ddtime's lines come first, so that GNU's summary stays last: scripts
  // read dd's result with tail -1, awk 'END{print}' or a grep for one rate.
  if (timed && ext.timing_report && settings_.status != StatusLevel::kNone) {
    text = reporter_.end_progress_line();
    text += timing_report(diag_.program(), stats, times, settings_);
  }
  text += reporter_.summary(stats, now - start_ns_);
  if (!text.empty()) diag_.raw(text);
  if (!timed) return 0;
  if (!ext.json) return 0;
  JsonRun run{settings_, stats, times, complete, exit_status, signal, diag_.history(), DDTIME_VERSION};
  const std::string json = json_report(run);
  if (!ext.json_path) {
    // As with GNU's summary, a report that cannot be written fails the run.
    if (!write_to_stderr(json)) return EXIT_FAILURE;
  } else if (complete || signal != 0) {
    return write_json_file(json);
  }
  return 0;
}

int Runner::report_without_summary(int status, const Stats& stats) noexcept {
  // GNU prints no statistics when it cannot start, or when the flush on
  // the way out fails; --json still owes its one object, carrying the
  // message.
  if (!settings_.ext.json) return status;
  const RunTimes no_time;
  JsonRun run{settings_, stats, no_time, true, status, 0, diag_.history(), DDTIME_VERSION};
  const std::string json = json_report(run);
  if (settings_.ext.json_path) {
    write_json_file(json);
  } else {
    write_to_stderr(json);
  }
  return status;
}

bool Runner::write_to_stderr(std::string_view text) noexcept {
  // JSON replaces the human text on stderr, so it bypasses the muted diag.
  while (!text.empty()) {
    IoResult wrote = os_.write(STDERR_FILENO, text.data(), text.size());
    if (!wrote.ok() && wrote.err == EINTR) continue;
    if (!wrote.ok() || wrote.n == 0) return false;
    text.remove_prefix(static_cast<std::size_t>(wrote.n));
  }
  return true;
}

int Runner::write_json_file(const std::string& json) noexcept {
  const std::string& path = *settings_.ext.json_path;
  IoResult opened = os_.open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  int err = opened.ok() ? 0 : opened.err;
  if (opened.ok()) {
    const int fd = static_cast<int>(opened.n);
    std::string_view rest = json;
    while (!rest.empty() && err == 0) {
      IoResult wrote = os_.write(fd, rest.data(), rest.size());
      if (!wrote.ok() && wrote.err == EINTR) continue;
      if (!wrote.ok()) err = wrote.err;
      else if (wrote.n == 0) err = ENOSPC;
      else rest.remove_prefix(static_cast<std::size_t>(wrote.n));
    }
    IoResult closed = os_.close(fd);
    if (err == 0 && !closed.ok()) err = closed.err;
  }
  if (err == 0) return 0;
  diag_.error(err, "failed to write the JSON report to {}", diag_.quote_always(path));
  return EXIT_FAILURE;
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

int Runner::finish(const Stats& stats, int exit_status) noexcept {
  if (signals::pending()) handle_signals(stats);
  close_files();
  return summarise(stats, true, exit_status, 0);
}

void Runner::resolve_direct_shorthand() noexcept {
  // --direct: O_DIRECT wherever the file can take it. Character devices,
  // pipes and sockets cannot; a file about to be created can.
  auto can_take_direct = [this](const std::optional<std::string>& path, int fd) {
    struct stat status {};
    IoResult result = path ? os_.stat_path(path->c_str(), status) : os_.fstat(fd, status);
    if (!result.ok()) return path.has_value() && result.err == ENOENT;
    return S_ISREG(status.st_mode) || S_ISBLK(status.st_mode);
  };
  if (can_take_direct(settings_.input_file, kInputFd)) settings_.iflag.direct = true;
  if (can_take_direct(settings_.output_file, kOutputFd)) settings_.oflag.direct = true;
}

int Runner::check_direct_alignment(std::size_t& buffer_alignment) noexcept {
  struct DirectSide {
    bool direct;
    int fd;
    const std::string& name;
    std::string_view size_operand;
    std::int64_t size;
    std::string_view position_operand;
    std::int64_t records;
    std::int64_t bytes;
  };
  const bool bs = settings_.bs_given;
  const DirectSide sides[] = {
      {settings_.iflag.direct, kInputFd, input_name_, bs ? "bs" : "ibs", settings_.ibs, "skip",
       settings_.skip_records, settings_.skip_bytes},
      {settings_.oflag.direct, kOutputFd, output_name_, bs ? "bs" : "obs", settings_.obs, "seek",
       settings_.seek_records, settings_.seek_bytes},
  };
  for (const DirectSide& side : sides) {
    if (!side.direct) continue;
    const DirectIoNeeds needs = os_.direct_io_needs(side.fd);
    if (settings_.ext.align == 0 && needs.memory_alignment > buffer_alignment) {
      buffer_alignment = needs.memory_alignment;
    }
    // Only a requirement the kernel stated is worth refusing over; as dd,
    // the kernel's EINVAL speaks, exactly as with GNU.
    if (!settings_.ext.actionable_errors || needs.source == DirectIoNeeds::Source::kAssumed) continue;
    const std::int64_t block = static_cast<std::int64_t>(needs.offset_alignment);
    const char* what = needs.source == DirectIoNeeds::Source::kLogicalBlockSize ? "logical block size"
                                                                                 : "direct I/O alignment";
    if (side.size % block != 0) {
      diag_.error(0, "{}={} is not a multiple of {}'s {} {}; use {}={} or a multiple", side.size_operand,
                  side.size, side.name, what, block, side.size_operand, block);
      return EXIT_FAILURE;
    }
    // A count in bytes ends with a read of the leftover bytes, which the
    // device would refuse.
    if (side.fd == kInputFd && settings_.max_bytes % block != 0) {
      diag_.error(0, "count= leaves a last read of {} bytes, which is not a multiple of {}'s {} {}",
                  settings_.max_bytes, side.name, what, block);
      return EXIT_FAILURE;
    }
    std::int64_t offset = 0;
    if (__builtin_mul_overflow(side.records, side.size, &offset) ||
        __builtin_add_overflow(offset, side.bytes, &offset) || offset % block != 0) {
      diag_.error(0, "{} would start at byte {}, which is not a multiple of {}'s {} {}", side.position_operand,
                  offset, side.name, what, block);
      return EXIT_FAILURE;
    }
  }
  return 0;
}

std::optional<std::int64_t> Runner::expected_total_bytes() noexcept {
  std::optional<std::int64_t> total;
  std::int64_t counted = 0;
  if (settings_.max_records != kNoLimit &&
      !__builtin_mul_overflow(settings_.max_records, settings_.ibs, &counted) &&
      !__builtin_add_overflow(counted, settings_.max_bytes, &counted)) {
    total = counted;
  }
  struct stat status {};
  std::int64_t size = -1;
  if (os_.fstat(kInputFd, status).ok()) {
    if (S_ISREG(status.st_mode)) size = status.st_size;
    if (S_ISBLK(status.st_mode)) {
      IoResult device = os_.block_device_size(kInputFd);
      if (device.ok()) size = device.n;
    }
  }
  // The copy starts where the input already stands (an inherited stdin may
  // be part-read), then skip= moves it further.
  IoResult here = os_.lseek(kInputFd, 0, SEEK_CUR);
  std::int64_t skipped = here.ok() ? static_cast<std::int64_t>(here.n) : 0;
  std::int64_t skip_length = 0;
  if (size >= 0 && !__builtin_mul_overflow(settings_.skip_records, settings_.ibs, &skip_length) &&
      !__builtin_add_overflow(skip_length, settings_.skip_bytes, &skip_length) &&
      !__builtin_add_overflow(skipped, skip_length, &skipped)) {
    const std::int64_t left = size > skipped ? size - skipped : 0;
    total = total ? std::min(*total, left) : left;
  }
  return total;
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
  input_position_ = probe_input_position(os_);

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
    IoResult cut;
    do cut = os_.ftruncate(kOutputFd, static_cast<off_t>(seek_size));
    while (!cut.ok() && cut.err == EINTR);
    if (!cut.ok()) {
      // POSIX defines ftruncate only for regular files, directories and
      // shared memory, so only there is a failure worth stopping for.
      struct stat status {};
      IoResult stat_result = os_.fstat(kOutputFd, status);
      if (!stat_result.ok()) {
        diag_.error(stat_result.err, "cannot fstat {}", diag_.quote_always(output_name_));
        return EXIT_FAILURE;
      }
      // GNU 9.1 reports it and carries on; the exit status is the copy's.
      if (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode)) {
        diag_.error(cut.err, "failed to truncate to {} bytes in output file {}", seek_size,
                    diag_.quote_always(output_name_));
      }
    }
  }
  return 0;
}

int Runner::synchronize_output(const Engine& engine) noexcept {
  const bool flushing = settings_.conv.fdatasync || settings_.conv.fsync || engine.output_needs_fsync();
  if (!flushing) return 0;
  const std::int64_t flush_start = clock_.now_ns();
  int status = flush(engine);
  flush_ns_ = clock_.now_ns() - flush_start;
  return status;
}

int Runner::flush(const Engine& engine) noexcept {
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
  // count=0 with nocache is the documented way to drop a file's cache,
  // so only then is a failure an error.
  const bool count_zero = settings_.max_records == 0 && settings_.max_bytes == 0;
  int status = 0;
  CacheAdvice& input = engine.reader().cache();
  if (input.enabled() || input.reaches_end_of_file()) {
    int err = input.finish(engine.input_cache_offset());
    if (err != 0 && count_zero) {
      notice(Notice::kCacheDropFailed, Side::kInput, err, 0);
      status = EXIT_FAILURE;
    }
  }
  CacheAdvice& output = engine.writer().cache();
  if (output.enabled() || output.reaches_end_of_file()) {
    int err = output.finish(-1);
    if (err != 0 && count_zero) {
      notice(Notice::kCacheDropFailed, Side::kOutput, err, 0);
      status = EXIT_FAILURE;
    }
  }
  return status;
}

int Runner::run() noexcept {
  if (settings_.ext.json && !settings_.ext.json_path) diag_.set_muted(true);
  if (settings_.ext.direct) resolve_direct_shorthand();
  if (int status = open_files(); status != 0) return report_without_summary(status);
  std::size_t buffer_alignment = settings_.ext.align != 0 ? settings_.ext.align : page_size();
  if (settings_.iflag.direct || settings_.oflag.direct) {
    if (int status = check_direct_alignment(buffer_alignment); status != 0) return report_without_summary(status);
  }
  if (settings_.ext.progress) total_bytes_ = expected_total_bytes();

  // POSIX lets SIGUSR1 keep its default (terminating) action when
  // POSIXLY_CORRECT is set; GNU dd honours that.
  signals::install(std::getenv("POSIXLY_CORRECT") == nullptr);

  TimedOs timed(os_);
  Os& copy_os = settings_.ext.split_times ? static_cast<Os&>(timed) : os_;
  if (settings_.ext.split_times) timed_os_ = &timed;
  // As dd, nothing reads the CPU clocks: two system calls GNU does not make.
  if (reports_times()) cpu_at_start_ = process_cpu_times();
  ticks_at_start_ = read_ticks();
  start_ns_ = clock_.now_ns();

  Engine engine(copy_os, *this, clock_, settings_, buffer_alignment, input_position_);
  CopyOutcome outcome = engine.run(start_ns_);
  copy_end_ns_ = clock_.now_ns();
  switch (outcome.ending) {
    case Ending::kDie:
      return outcome.exit_status;
    case Ending::kQuit:
      // GNU 9.1 flushes on the way out too (conv=fsync, or the O_DIRECT
      // tail); a flush that fails ends the run there, with no statistics.
      if (int synced = synchronize_output(engine); synced != 0) {
        return report_without_summary(synced, engine.stats());
      }
      finish(engine.stats(), outcome.exit_status);
      return outcome.exit_status;
    case Ending::kFinished:
      break;
  }
  int status = outcome.exit_status;
  if (int synced = synchronize_output(engine); synced != 0) status = synced;
  if (int dropped = drop_caches(engine); dropped != 0) status = dropped;
  // The JSON carries the status as it stood; failing to write it fails too.
  if (finish(engine.stats(), status) != 0) status = EXIT_FAILURE;
  return status;
}

}  // namespace ddtime
