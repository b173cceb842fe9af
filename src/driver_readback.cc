// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's --preallocate and --readback: the output reserved before
// the copy; the write pass, the timed drop of the output's cached pages,
// the read pass and --verify's comparison, and their report.
#include "driver.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "aggregate.h"
#include "driver_internal.h"
#include "io.h"
#include "report_session.h"
#include "verify.h"

namespace ddtime {
using namespace driver_detail;


namespace {

// count= in bytes, or what a regular file or block device holds after
// skip=; nullopt when neither tells.
std::optional<std::int64_t> bytes_to_copy(Os& os, const Settings& settings) {
  if (const std::optional<std::int64_t> counted = settings.count_in_bytes()) return counted;
  if (!settings.input_file) return std::nullopt;
  const IoResult opened = os.open(settings.input_file->c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return std::nullopt;
  const int fd = static_cast<int>(opened.n);
  struct stat status {};
  std::int64_t size = -1;
  if (os.fstat(fd, status).ok()) {
    if (S_ISREG(status.st_mode)) size = status.st_size;
    if (S_ISBLK(status.st_mode)) {
      const IoResult device = os.block_device_size(fd);
      if (device.ok()) size = device.n;
    }
  }
  os.close(fd);
  const std::optional<std::int64_t> skipped = settings.skip_offset();
  if (size < 0 || !skipped) return std::nullopt;
  return size > *skipped ? size - *skipped : 0;
}

// The input gives the same bytes again: a file or a device read anew, or
// the zeros of /dev/zero and /dev/full. /dev/urandom does not.
enum class Replay { kFile, kZeros, kPattern, kNone };
Replay replay_of(Os& os, const Settings& settings) {
  struct stat status {};
  if (!settings.input_file || !os.stat_path(settings.input_file->c_str(), status).ok()) return Replay::kNone;
  if (positioning_of(status) == Positioning::kPositional) return Replay::kFile;
  if (S_ISCHR(status.st_mode) && major(status.st_rdev) == 1 && (minor(status.st_rdev) == 5 || minor(status.st_rdev) == 7)) {
    return Replay::kZeros;
  }
  return Replay::kNone;
}

}  // namespace

bool Driver::preallocate_output(Settings& settings) {
  const std::string& path = *settings.output_file;
  const std::optional<std::int64_t> bytes = bytes_to_copy(os_, settings);
  const std::int64_t from = settings.seek_offset().value_or(-1);
  if (!bytes || from < 0) {
    messages_.preallocate_needs_size();
    return false;
  }
  const IoResult opened = os_.open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (!opened.ok()) {
    messages_.preallocate_failed(path, opened.err);
    return false;
  }
  const int fd = static_cast<int>(opened.n);
  int err = 0;
  // As dd's own open would: cut at seek=, unless conv=notrunc.
  if (!settings.conv.notrunc) {
    struct stat status {};
    if (os_.fstat(fd, status).ok() && S_ISREG(status.st_mode)) err = os_.ftruncate(fd, static_cast<off_t>(from)).err;
  }
  if (err == 0 && *bytes > 0) err = os_.reserve(fd, static_cast<off_t>(from), static_cast<off_t>(*bytes)).err;
  if (err == 0 && *bytes > 0) {
    // The last block written for real, so that the file's end is settled
    // before the clock starts; the copy writes it again.
    const std::int64_t last = std::min<std::int64_t>(*bytes, settings.obs);
    const std::vector<unsigned char> zeros(static_cast<std::size_t>(last), 0);
    if (IoResult moved = os_.lseek(fd, static_cast<off_t>(from + *bytes - last), SEEK_SET); !moved.ok()) {
      err = moved.err;
    } else {
      err = write_all(os_, fd, std::string_view(reinterpret_cast<const char*>(zeros.data()), zeros.size()));
    }
  }
  if (err == 0) err = os_.fdatasync(fd).err;
  const IoResult closed = os_.close(fd);
  if (err == 0) err = closed.err;
  if (err != 0) {
    messages_.preallocate_failed(path, err);
    return false;
  }
  settings.conv.notrunc = true;
  return true;
}

int Driver::run_readback() {
  if (!claim_output_device("--readback")) return 1;
  const std::string& output = *settings_.output_file;
  struct stat status {};
  if (os_.stat_path(output.c_str(), status).ok() && positioning_of(status) != Positioning::kPositional) {
    messages_.readback_needs_file(output);
    return 1;
  }
  const Replay replay = !plan_.verify ? Replay::kNone : plan_.pattern ? Replay::kPattern : replay_of(os_, settings_);
  if (plan_.verify && replay == Replay::kNone) {
    messages_.verify_needs_replay();
    return 1;
  }
  if (machine_output_on_stderr()) diag_.set_muted(true);
  const bool text = session_text();
  std::vector<SessionRun> runs;
  runs.reserve(2);

  // The write pass: the copy, then fdatasync, timed apart.
  Settings write = settings_;
  if (!write.conv.fsync && !write.conv.fdatasync) write.conv.fdatasync = true;
  std::optional<PatternSource> pattern;
  if (plan_.pattern) {
    measure_pattern();
    write.input_file = std::string("/dev/zero");
    pattern.emplace(next_pattern(write));
  }
  if (plan_.preallocate && !preallocate_output(write)) return 1;
  runs.push_back(run_once(write, plan_, 0, false, 1, pattern ? &*pattern : nullptr));
  const RunResult& written = runs[0].result;
  PassExtras extras;
  auto finish = [&](std::optional<int> exit_status, int signal) {
    return finish_readback(runs, extras, exit_status, signal);
  };
  // A pass stopped by a signal ends the process; one that failed ends the
  // readback with what was measured so far.
  auto ended_badly = [&](const RunResult& pass) -> std::optional<int> {
    if (pass.ending == Ending::kInterrupted) {
      finish(std::nullopt, interrupt_);
      die_by(interrupt_);
    }
    if (pass.report == RunResult::Report::kSummary && pass.exit_status == 0) return std::nullopt;
    return finish(pass.exit_status != 0 ? pass.exit_status : 1, 0);
  };
  if (const auto ending = ended_badly(written)) return *ending;
  if (text) diag_.raw(pass_line(diag_.program(), "write", figures_of(written), written.times));

  // The output's cached pages dropped, so that the read reaches the device.
  Settings output_only = write;
  output_only.input_file.reset();
  CacheStateSetter dropper(os_, output_only, CacheMode::kCold);
  const std::int64_t drop_start = window_.now_ns();
  if (const CacheFailure failed = dropper.prepare(); failed.err != 0) {
    messages_.cache_failed("cold", failed.err, failed.doing, failed.path);
    return finish(1, 0);
  }
  extras.drop_ns = window_.now_ns() - drop_start;
  if (text) diag_.raw(drop_line(diag_.program(), extras.drop_ns));

  // The read pass: the same bytes, from where they were written, to /dev/null.
  const std::int64_t bytes = written.stats.bytes_out;
  const std::int64_t where = runs[0].settings.seek_offset().value_or(0);
  Settings read = settings_;
  read.input_file = output;
  read.output_file = std::string("/dev/null");
  read.ibs = read.obs = runs[0].settings.obs;
  read.bs_given = true;
  read.skip_records = runs[0].settings.seek_records;
  read.skip_bytes = runs[0].settings.seek_bytes;
  read.seek_records = read.seek_bytes = 0;
  read.conv = {};
  read.block_or_unblock_requested = false;
  read.iflag = {};
  read.iflag.direct = runs[0].settings.oflag.direct;
  read.oflag = {};
  count_bytes(read, bytes);
  read.warn_partial_read = read.partial_read_matters();
  runs.push_back(run_once(read, plan_, 0, false, 1));
  const RunResult& read_back = runs[1].result;
  if (const auto ending = ended_badly(read_back)) return *ending;
  if (text) diag_.raw(pass_line(diag_.program(), "read", figures_of(read_back), read_back.times));
  if (!plan_.verify) return finish(0, 0);

  // --verify: the output read once more, after another drop, against the
  // input read anew (or zeros), timed apart from the read.
  if (const CacheFailure failed = dropper.prepare(); failed.err != 0) {
    messages_.cache_failed("cold", failed.err, failed.doing, failed.path);
    return finish(1, 0);
  }
  const std::int64_t verify_start = window_.now_ns();
  VerifyOutcome outcome;
  {
    const IoResult actual = os_.open(output.c_str(), O_RDONLY | O_CLOEXEC, 0);
    IoResult source{-1, 0};
    if (replay == Replay::kFile) source = os_.open(settings_.input_file->c_str(), O_RDONLY | O_CLOEXEC, 0);
    if (!actual.ok() || !source.ok()) {
      outcome.err = !actual.ok() ? actual.err : source.err;
      outcome.read_expected = actual.ok();
    } else {
      const std::int64_t skipped = settings_.skip_offset().value_or(0);
      const VerifySource expected{replay == Replay::kFile ? static_cast<int>(source.n) : -1, skipped,
                                  pattern ? &*pattern : nullptr};
      outcome = verify_bytes(os_, expected, static_cast<int>(actual.n), where, bytes);
    }
    if (actual.ok()) os_.close(static_cast<int>(actual.n));
    if (source.ok() && source.n >= 0) os_.close(static_cast<int>(source.n));
  }
  extras.verify_ns = window_.now_ns() - verify_start;
  extras.verify = outcome;
  extras.verified = true;
  if (outcome.err != 0) {
    messages_.verify_read_failed(outcome.read_expected ? *settings_.input_file : output, outcome.err);
    return finish(1, 0);
  }
  if (text) diag_.raw(verify_line(diag_.program(), outcome, extras.verify_ns));
  if (outcome.first_bad) {
    messages_.verify_mismatch(output, *outcome.first_bad);
    return finish(1, 0);
  }
  return finish(0, 0);
}

int Driver::finish_readback(const std::vector<SessionRun>& runs, const PassExtras& extras,
                            std::optional<int> exit_status, int signal) {
  const bool text = session_text();
  // GNU's lines last: the write pass's, the dd command as typed.
  if (!runs.empty() && runs[0].result.report == RunResult::Report::kSummary &&
      (text || !machine_output_on_stderr())) {
    const RunResult& write = runs[0].result;
    if (text && plan_.shows_engine()) diag_.raw(engine_line(diag_.program(), write.engine));
    diag_.raw(reporter_.summary(write.stats, write.times.real_ns));
  }
  int status = exit_status.value_or(1);
  if (plan_.csv) {
    std::vector<CsvRun> lines;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      lines.push_back(csv_run(runs[i], runs[i].settings.ibs, plan_.iodepth, i == 0 ? "write" : "read"));
    }
    if (deliver_csv(session_csv(lines)) != 0) status = 1;
  }
  if (!settings_.ext.json) return status;
  const bool show_engine = plan_.shows_engine();
  std::vector<JsonSessionRun> documents;
  std::vector<JsonSessionRow> summaries;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunResult& result = runs[i].result;
    const bool complete = result.ending != Ending::kInterrupted;
    JsonSessionRun document{json_run(runs[i], signal, show_engine)};
    document.bs = runs[i].settings.ibs;
    document.iodepth = plan_.iodepth;
    document.seed = runs[i].seed;
    document.pass = i == 0 ? "write" : "read";
    if (i == 1) {
      document.drop_cache_ns = extras.drop_ns;
      if (extras.verified) {
        document.verify = &extras.verify;
        document.verify_ns = extras.verify_ns;
      }
    }
    documents.push_back(document);
    if (complete && result.report == RunResult::Report::kSummary) {
      const RunFigures figures = figures_of(result);
      JsonSessionRow row{runs[i].settings.ibs, plan_.iodepth, summarise_runs({&figures, 1})};
      row.pass = document.pass;
      summaries.push_back(row);
    }
  }
  if (deliver_session_json(documents, summaries, exit_status, signal) != 0) status = 1;
  return status;
}


}  // namespace ddtime
