// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's --readback: the write pass, the timed drop of the output's
// cached pages, the read pass of the same bytes from where they went, and
// --verify's comparison; and their report.
#include "bench/driver.h"

#include <fcntl.h>
#include <unistd.h>

#include <string_view>
#include <vector>

#include "measure/aggregate.h"
#include "bench/driver_internal.h"
#include "dd/io.h"
#include "report/report_session.h"
#include "system/signals.h"
#include "measure/verify.h"

namespace ddtime {
using namespace driver_detail;

namespace {

// The write pass's settings: the copy as given, flushed at the end.
Settings write_pass_settings(const Settings& settings, bool pattern) {
  Settings write = settings;
  if (!write.conv.fsync && !write.conv.fdatasync) write.conv.fdatasync = true;
  if (pattern) write.input_file = std::string("/dev/zero");  // a descriptor to have
  return write;
}

// The read pass's settings: the bytes the write pass wrote, from where
// the first of them went, to /dev/null, in the write's blocks.
Settings read_pass_settings(const Settings& settings, const Settings& written, std::int64_t where,
                            std::int64_t bytes) {
  Settings read = settings;
  read.input_file = written.output_file;
  read.output_file = std::string("/dev/null");
  read.ibs = read.obs = written.obs;
  read.bs_given = true;
  read.skip_records = where / read.ibs;
  read.skip_bytes = where % read.ibs;
  read.iflag = {};
  read.iflag.direct = written.oflag.direct;
  read.seek_records = read.seek_bytes = 0;
  read.conv = {};
  read.block_or_unblock_requested = false;
  read.oflag = {};
  read.max_records = bytes / read.ibs;
  read.max_bytes = bytes % read.ibs;
  read.ext.count_from_size = false;
  return read;
}

}  // namespace

bool Driver::readback_pass_ended(const std::vector<SessionRun>& runs, const PassExtras& extras, int& status) {
  const RunResult& pass = runs.back().result;
  if (pass.ending == Ending::kInterrupted) {
    finish_readback(runs, extras, std::nullopt, interrupt_);
    die_by(interrupt_);
  }
  if (pass.report == RunResult::Report::kSummary && pass.exit_status == 0) return false;
  status = finish_readback(runs, extras, pass.exit_status != 0 ? pass.exit_status : 1, 0);
  return true;
}

void Driver::say_pass(std::string_view pass, const SessionRun& run) {
  if (!session_text()) return;
  const RunFigures figures = figures_of(run.result);
  diag_.raw(reporter_.end_progress_line());
  diag_.raw(pass_line(diag_.program(), pass, {figures, run.result.times, rate_units(), settings_.ext.split_times}));
  if (run.result.latency) diag_.raw(latency_report(diag_.program(), *run.result.latency, diag_.utf8_quotes()));
}

// A SIGINT between the passes ends the process, after what was measured.
void Driver::stop_if_interrupted(std::string_view phase, const std::vector<SessionRun>& runs,
                                 const PassExtras& extras) {
  if (interrupt_ == 0 && !interrupted_in(phase)) return;
  finish_readback(runs, extras, std::nullopt, interrupt_);
  die_by(interrupt_);
}

int Driver::run_readback() {
  std::vector<SessionRun> runs;
  runs.reserve(2);
  const RunsInView in_view(*this, runs, true);
  PassExtras extras;
  std::optional<PatternSource> pattern;
  int status = 0;

  const Settings write = write_pass_settings(settings_, plan_.pattern.has_value());
  if (plan_.pattern) {
    measure_pattern();
    pattern.emplace(next_pattern(write));
  }
  // --cache as for any run: what the write pass meets, before it starts.
  std::optional<CacheState> cache;
  if (plan_.cache_given && !prepare_cache(write, "", cache)) {
    stop_if_interrupted("--cache", runs, extras);
    return finish_readback(runs, extras, 1, 0);
  }
  stop_if_interrupted("the write pass's setup", runs, extras);
  running_ = "the write pass";
  runs.push_back(run_once(write, plan_, 0, false, 1, pattern ? &*pattern : nullptr));
  if (cache) runs.back().cache = *cache;
  stream_csv(csv_run(runs.back(), runs.back().settings.ibs, plan_.iodepth, "write"));
  if (readback_pass_ended(runs, extras, status)) return status;
  say_pass("write", runs[0]);

  if (!drop_output_cache(runs[0].settings, extras.drop_ns, runs, extras)) return finish_readback(runs, extras, 1, 0);
  if (session_text()) diag_.raw(drop_line(diag_.program(), extras.drop_ns));

  const std::int64_t where = runs[0].result.first_write >= 0 ? runs[0].result.first_write : 0;
  Settings read = read_pass_settings(settings_, runs[0].settings, where, runs[0].result.stats.bytes_out);
  if (read.iflag.direct && !direct_read_aligned(read, where, runs[0].result.stats.bytes_out)) read.iflag.direct = false;
  stop_if_interrupted("the read pass's setup", runs, extras);
  running_ = "the read pass";
  runs.push_back(run_once(read, plan_, 0, false, 1));
  running_.clear();
  stream_csv(csv_run(runs.back(), runs.back().settings.ibs, plan_.iodepth, "read"));
  if (readback_pass_ended(runs, extras, status)) return status;
  say_pass("read", runs[1]);
  if (!plan_.verify) {
    stop_if_interrupted("the read pass's end", runs, extras);
    return finish_readback(runs, extras, 0, 0);
  }
  return verify_readback(runs, extras, where, pattern ? &*pattern : nullptr);
}

// The output's cached pages dropped, so that the next read reaches the
// device; timed.
bool Driver::drop_output_cache(const Settings& written, std::int64_t& took_ns, const std::vector<SessionRun>& runs,
                               const PassExtras& extras) {
  stop_if_interrupted("the drop of the output's cached pages", runs, extras);
  Settings output_only = written;
  output_only.input_file.reset();
  const std::int64_t start = window_.now_ns();
  if (const CacheFailure failed = CacheStateSetter(os_, output_only, CacheMode::kCold).prepare(); failed.err != 0) {
    messages_.cache_failed("cold", failed.err, failed.doing, failed.path);
    return false;
  }
  took_ns = window_.now_ns() - start;
  return true;
}

// O_DIRECT for the read pass only where the range written allows it: an
// O_DIRECT write leaves its last partial block through the page cache,
// and a read of it would be refused. Then the read goes through the page
// cache, its pages dropped first, and the report says so.
bool Driver::direct_read_aligned(const Settings& read, std::int64_t where, std::int64_t bytes) {
  const IoResult opened = os_.open(read.input_file->c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return true;  // the pass says why it cannot open it
  const DirectIoNeeds needs = os_.direct_io_needs(static_cast<int>(opened.n));
  os_.close(static_cast<int>(opened.n));
  const auto alignment = static_cast<std::int64_t>(needs.offset_alignment);
  if (where % alignment == 0 && bytes % alignment == 0) return true;
  if (session_text()) diag_.raw(buffered_read_line(diag_.program(), *read.input_file, bytes, where, alignment));
  return false;
}

int Driver::verify_readback(std::vector<SessionRun>& runs, PassExtras& extras, std::int64_t where,
                            const PatternSource* pattern) {
  std::int64_t drop_ns = 0;
  if (!drop_output_cache(runs[0].settings, drop_ns, runs, extras)) return finish_readback(runs, extras, 1, 0);
  const std::string& output = *settings_.output_file;
  const std::int64_t bytes = runs[0].result.stats.bytes_out;
  const std::int64_t start = window_.now_ns();
  VerifyOutcome outcome;
  const IoResult actual = os_.open(output.c_str(), O_RDONLY | O_CLOEXEC, 0);
  IoResult source{-1, 0};
  if (!pattern && is_positional(input_kind_)) source = os_.open(settings_.input_file->c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!actual.ok() || !source.ok()) {
    outcome.err = !actual.ok() ? actual.err : source.err;
    outcome.read_expected = actual.ok();
  } else {
    const VerifySource expected{static_cast<int>(source.n), settings_.skip_offset().value_or(0), pattern};
    outcome = verify_bytes(os_, expected, static_cast<int>(actual.n), where, bytes, [&](std::int64_t compared) {
      return interrupt_ != 0 || interrupted_in(fmt::format("verify: {} of {} compared so far", human_size(compared, false),
                                        human_size(bytes, false)));
    });
  }
  if (actual.ok()) os_.close(static_cast<int>(actual.n));
  if (source.ok() && source.n >= 0) os_.close(static_cast<int>(source.n));
  extras.verify_ns = window_.now_ns() - start;
  extras.verify = outcome;
  extras.verified = true;
  if (outcome.stopped) {
    finish_readback(runs, extras, std::nullopt, interrupt_);
    die_by(interrupt_);
  }
  if (outcome.err != 0) {
    messages_.verify_read_failed(outcome.read_expected ? *settings_.input_file : output, outcome.err);
    return finish_readback(runs, extras, 1, 0);
  }
  // A SIGINT that came with the last block compared still ends it, as
  // GNU's dd heeds one that comes as its copy ends.
  stop_if_interrupted("verify: all compared", runs, extras);
  if (session_text()) diag_.raw(verify_line(diag_.program(), outcome, extras.verify_ns, rate_units()));
  if (outcome.first_bad) {
    messages_.verify_mismatch(output, *outcome.first_bad);
    return finish_readback(runs, extras, 1, 0);
  }
  return finish_readback(runs, extras, 0, 0);
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
    if (deliver_csv(csv_table(lines)) != 0) status = 1;
  }
  if (!settings_.ext.json) return status;
  const bool show_engine = plan_.shows_engine();
  std::vector<JsonSessionRun> documents;
  std::vector<JsonSessionRow> summaries;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    JsonSessionRun document = json_session_run(runs[i], signal, show_engine);
    document.pass = i == 0 ? "write" : "read";
    if (i == 1) {
      document.drop_cache_ns = extras.drop_ns;
      if (extras.verified) {
        document.verify = &extras.verify;
        document.verify_ns = extras.verify_ns;
      }
    }
    documents.push_back(document);
    if (runs[i].counted()) {
      const RunFigures figures = figures_of(runs[i].result);
      JsonSessionRow row{runs[i].settings.ibs, plan_.iodepth, summarise_runs({&figures, 1})};
      row.pass = document.pass;
      summaries.push_back(row);
    }
  }
  if (deliver_session_json(documents, summaries, exit_status, signal) != 0) status = 1;
  return status;
}

}  // namespace ddtime
