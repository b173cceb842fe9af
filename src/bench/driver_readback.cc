// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's --readback: the write pass, the timed drop of the output's
// cached pages, the read pass of the same bytes from where they went, and
// --verify's comparison; and their report.
#include <fcntl.h>
#include <unistd.h>

#include <string_view>
#include <vector>

#include "bench/driver.h"
#include "bench/driver_internal.h"
#include "dd/io.h"
#include "measure/verify.h"
#include "report/report.h"
#include "system/signals.h"

namespace ddtime {
using namespace driver_internal;

namespace {

// O_DIRECT for the read pass only where the range written allows it: an
// O_DIRECT write leaves its last partial block through the page cache,
// and a read of it would be refused. Then the read goes through the page
// cache, its pages dropped first, and the report says so.
bool direct_read_aligned(Os& os, Console& console, const Settings& read, std::int64_t where, std::int64_t bytes) {
  const IoResult opened = os.open(read.input_file->c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return true;  // the pass says why it cannot open it
  const DirectIoNeeds needs = os.direct_io_needs(static_cast<int>(opened.n));
  os.close(static_cast<int>(opened.n));
  const auto alignment = static_cast<std::int64_t>(needs.offset_alignment);
  if (where % alignment == 0 && bytes % alignment == 0) return true;
  console.session_step(ReadBuffered{*read.input_file, bytes, where, alignment});
  return false;
}

// The output against what should be there: the input read anew (source,
// or -1), zeros, or the generator; stopped asks whether a signal stops it.
template <typename Stopped>
VerifyOutcome compare_output(Os& os, const ResolvedRun& resolved, std::int64_t where, std::int64_t bytes,
                             const PatternSource* pattern, Stopped stopped) {
  VerifyOutcome outcome;
  const Settings& settings = resolved.settings;
  const IoResult actual = os.open(settings.output_file->c_str(), O_RDONLY | O_CLOEXEC, 0);
  IoResult source{-1, 0};
  if (!pattern && is_positional(resolved.input))
    source = os.open(settings.input_file->c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!actual.ok() || !source.ok()) {
    outcome.err = !actual.ok() ? actual.err : source.err;
    outcome.read_expected = actual.ok();
  } else {
    const VerifySource expected{static_cast<int>(source.n), settings.skip_offset().value_or(0), pattern};
    outcome = verify_bytes(os, expected, static_cast<int>(actual.n), where, bytes, stopped);
  }
  if (actual.ok()) os.close(static_cast<int>(actual.n));
  if (source.ok() && source.n >= 0) os.close(static_cast<int>(source.n));
  return outcome;
}

}  // namespace

// A pass that failed (status set, true) or was stopped (the process dies).
bool Driver::pass_ended(SessionRecord& session, int& status) {
  const RunRecord& pass = session.runs.back();
  console_.session_run_ended(session, pass);
  if (pass.result.ending == Ending::kInterrupted) stop(session);
  if (pass.counted()) return false;
  status = finish(session, pass.result.exit_status != 0 ? pass.result.exit_status : 1);
  return true;
}

// A SIGINT between the passes ends the process, after what was measured.
void Driver::stop_if_interrupted(std::string_view phase, SessionRecord& session) {
  if (console_.interrupt() != 0 || console_.interrupted_in(phase, &session)) stop(session);
}

int Driver::run_readback() {
  SessionRecord session{.plan = plan(), .readback = true};
  session.runs.reserve(2);
  std::optional<PatternSource> pattern;
  int status = 0;

  const Settings write = write_pass_settings(settings(), plan().pattern.has_value());
  if (plan().pattern) {
    measure_pattern(session);
    pattern.emplace(next_pattern(write));
  }
  // --cache as for any run: what the write pass meets, before it starts.
  std::optional<CacheState> cache;
  if (plan().cache_given && !prepare_cache(write, resolved_->kinds(), "", session, cache)) {
    stop_if_interrupted("--cache", session);
    return finish(session, 1);
  }
  stop_if_interrupted("the write pass's setup", session);
  session.runs.push_back(run_with(write, resolved_->kinds(), row_plan(plan(), plan().iodepth),
                                  pattern ? &*pattern : nullptr, "the write pass"));
  RunRecord& written = session.runs.back();
  written.pass = Pass::kWrite;
  written.residency = cache;
  session.rows.push_back({.bs = written.settings.ibs, .depth = plan().iodepth, .pass = Pass::kWrite});
  if (pass_ended(session, status)) return status;

  stop_if_interrupted("the drop of the output's cached pages", session);
  const std::optional<std::int64_t> drop_ns = drop_output_cache(session.runs[0].settings);
  if (!drop_ns) return finish(session, 1);
  console_.session_step(CacheDropped{*drop_ns});

  const RunRecord& first = session.runs[0];
  const std::int64_t where = first.result.first_write >= 0 ? first.result.first_write : 0;
  const std::int64_t bytes = first.result.stats.bytes_out;
  Settings read = read_back_settings(settings(), first.settings, where, bytes);
  if (read.iflag.direct && !direct_read_aligned(os_, console_, read, where, bytes)) read.iflag.direct = false;
  stop_if_interrupted("the read pass's setup", session);
  session.runs.push_back(
      run_with(read, read_back_kinds(*resolved_), row_plan(plan(), plan().iodepth), nullptr, "the read pass"));
  RunRecord& reread = session.runs.back();
  reread.pass = Pass::kRead;
  reread.row = 1;
  reread.drop_cache_ns = drop_ns;
  session.rows.push_back({.bs = reread.settings.ibs, .depth = plan().iodepth, .pass = Pass::kRead});
  if (pass_ended(session, status)) return status;
  if (!plan().verify) {
    stop_if_interrupted("the read pass's end", session);
    return finish(session, 0);
  }
  return verify_readback(session, where, pattern ? &*pattern : nullptr);
}

// The output's cached pages dropped, so that the next read reaches the
// device: how long that took, or none (said) when it could not be done.
std::optional<std::int64_t> Driver::drop_output_cache(const Settings& written) {
  Settings output_only = written;
  output_only.input_file.reset();
  const std::int64_t start = window_.now_ns();
  if (const CacheFailure failed =
          CacheStateSetter(os_, output_only, {.output = resolved_->output}, CacheMode::kCold).prepare();
      failed.err != 0) {
    console_.session_step(CacheFailed{CacheMode::kCold, failed});
    return std::nullopt;
  }
  return window_.now_ns() - start;
}

int Driver::verify_readback(SessionRecord& session, std::int64_t where, const PatternSource* pattern) {
  stop_if_interrupted("the drop of the output's cached pages", session);
  if (!drop_output_cache(session.runs[0].settings)) return finish(session, 1);
  const std::string& output = *settings().output_file;
  const std::int64_t start = window_.now_ns();
  const std::int64_t bytes = session.runs[0].result.stats.bytes_out;
  const VerifyOutcome outcome = compare_output(os_, *resolved_, where, bytes, pattern, [&](std::int64_t compared) {
    return console_.interrupt() != 0 ||
           console_.interrupted_in(
               fmt::format("verify: {} of {} compared so far", human_size(compared, false), human_size(bytes, false)),
               &session);
  });
  RunRecord& read = session.runs[1];
  read.verify_ns = window_.now_ns() - start;
  read.verify = outcome;
  if (outcome.stopped) stop(session);
  if (outcome.err != 0) {
    console_.messages().verify_read_failed(outcome.read_expected ? *settings().input_file : output, outcome.err);
    return finish(session, 1);
  }
  // A SIGINT that came with the last block compared still ends it, as
  // GNU's dd heeds one that comes as its copy ends.
  stop_if_interrupted("verify: all compared", session);
  console_.session_step(Verified{outcome, read.verify_ns});
  if (outcome.first_bad) {
    console_.messages().verify_mismatch(output, *outcome.first_bad);
    return finish(session, 1);
  }
  return finish(session, 0);
}

}  // namespace ddtime
