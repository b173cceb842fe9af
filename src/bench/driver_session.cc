// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's sessions of runs: --repeat, --warmup, --sweep, --cache,
// --pattern, --csv; each run a Run, its record kept in the session's,
// the rows summarised, and the console told at each step.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>
#include <vector>

#include "bench/driver.h"
#include "bench/driver_internal.h"
#include "dd/io.h"
#include "dd/io_position.h"
#include "measure/aggregate.h"
#include "report/report_session.h"

namespace ddtime {
using namespace driver_internal;

namespace {

RowRecord row_record(const ResolvedRun& resolved, std::int64_t bs, unsigned depth) {
  RowRecord row{.bs = bs, .depth = depth, .setting = setting_words(bs, depth)};
  if (resolved.plan.sweep_bs_memory) row.fits = cache_level_for(bs, resolved.caches);
  return row;
}

// A session's rows: its block sizes by its depths (one row without a sweep).
std::vector<RowRecord> session_rows(const ResolvedRun& resolved) {
  std::vector<RowRecord> rows;
  // bs=auto starts from bs= (4k when not given) and grows as it goes.
  const std::int64_t first = resolved.plan.sweep_bs_auto ? first_auto_bs(resolved.settings) : resolved.settings.ibs;
  const std::vector<std::int64_t> sizes =
      resolved.plan.sweep_bs.empty() ? std::vector<std::int64_t>{first} : resolved.plan.sweep_bs;
  const std::vector<unsigned> depths =
      resolved.plan.sweep_iodepth.empty() ? std::vector<unsigned>{resolved.plan.iodepth} : resolved.plan.sweep_iodepth;
  for (const std::int64_t bs : sizes) {
    for (const unsigned depth : depths) rows.push_back(row_record(resolved, bs, depth));
  }
  return rows;
}

// A profile's rows: its tests' reads, then (of=) their writes, then
// (--mix) their mixes, as CrystalDiskMark orders them.
std::vector<RowRecord> profile_rows(const ProfileRecord& profile) {
  std::vector<RowRecord> rows;
  for (const Pass pass : {Pass::kRead, Pass::kWrite, Pass::kMix}) {
    if (pass == Pass::kWrite && !profile.writes) break;
    if (pass == Pass::kMix && !profile.mix_percent) break;
    for (const ProfileTest& test : profile.preset->tests) {
      rows.push_back(RowRecord{.bs = test.bs, .depth = test.iodepth, .pass = pass, .test = test});
    }
  }
  return rows;
}

// --sweep=bs=auto: the next doubling, unless the last two stopped paying.
void extend_auto_sweep(const ResolvedRun& resolved, SessionRecord& session, std::size_t row,
                       std::vector<Figure>& rates) {
  const std::optional<RowSummary> summary = summarise_row(session, row);
  if (!summary) return;
  rates.push_back(summary->bytes_per_second);
  const KneeSearch search = knee_search(rates);
  // Doubling stops at the knee, or where a block would outgrow what
  // every row moves (or 1 GiB), or a timed run's range: --time goes round
  // whole blocks only, and a row with none would copy once, untimed.
  const std::int64_t next = session.rows[row].bs * 2;
  const std::int64_t moved =
      resolved.sweep_bytes ? *resolved.sweep_bytes : resolved.bytes.value_or(std::int64_t{1} << 30);
  const std::int64_t most = std::min({moved, resolved.timed_range.value_or(INT64_MAX), std::int64_t{1} << 30});
  if (!search.more) {
    if (search.knee && *search.knee < session.rows.size()) session.rows[*search.knee].knee = true;
  } else if (next <= most) {
    session.rows.push_back(row_record(resolved, next, session.rows[row].depth));
  }
}

}  // namespace

int Driver::run_session() {
  SessionRecord session{.plan = plan()};
  if (plan().profile) {
    profile_.emplace(profile_parameters(*resolved_));
    if (const std::optional<int> ended = prepare_profile_range(session)) return *ended;
  } else if (plan().pattern) {
    measure_pattern(session);
  }
  session.rows = profile_ ? profile_rows(*profile_) : session_rows(*resolved_);
  session.runs.reserve(session.rows.size() * (plan().warmup + plan().repeat));
  std::vector<Figure> rates;  // bs=auto: each row's rates so far
  for (std::size_t row = 0; row < session.rows.size(); ++row) {
    if (profile_ && row > 0) profile_pause(session);
    rows_begun_ = row + 1;
    if (const std::optional<int> ended = run_row(session, row)) return *ended;
    if (plan().sweep_bs_auto) extend_auto_sweep(*resolved_, session, row, rates);
  }
  // A SIGINT that came as the last run ended still ends the session.
  if (profile_ ? console_.interrupted_in("a profile: all tests done", nullptr)
               : console_.interrupted_in("a session: all runs done", &session)) {
    stop(session);
  }
  if (profile_) profile_->complete = true;
  return finish(session, 0);
}

std::optional<int> Driver::run_row(SessionRecord& session, std::size_t row) {
  const RowRecord& at = session.rows[row];
  const ProfileSide side = profile_side_of(at.pass);
  // A profile's test on its side, or a sweep's block size and depth.
  const Settings settings =
      at.test ? profile_test_settings(*resolved_, *at.test, side) : row_settings(*resolved_, at.bs);
  const FileKinds kinds = at.test ? profile_test_kinds(*resolved_, side) : resolved_->kinds();
  const Plan plan = at.test ? profile_test_plan(this->plan(), *at.test, side, drawn_seed(window_.now_ns()))
                            : row_plan(this->plan(), at.depth);
  const std::string setting = at.test                ? fmt::format("{} {}", at.test->label, profile_side_name(side))
                              : session.names_rows() ? at.setting
                                                     : std::string();
  const unsigned runs = plan.warmup + plan.repeat;
  for (unsigned i = 0; i < runs; ++i) {
    const bool warmup = i < plan.warmup;
    const unsigned index = warmup ? i + 1 : i - plan.warmup + 1;
    // Which run a SIGUSR1 during it is about.
    std::string label = fmt::format("{}{}{} {} of {}", setting, setting.empty() ? "" : ", ", warmup ? "warm-up" : "run",
                                    index, warmup ? plan.warmup : plan.repeat);
    const bool interrupted =
        at.test ? console_.interrupted_in(fmt::format("a profile: {}", label), nullptr)
                : console_.interrupted_in(
                      fmt::format("a session: {} of {} runs done", session.runs.size(), session.rows.size() * runs),
                      &session);
    if (interrupted) stop(session);
    if (at.test) console_.profile_step(label);
    // The page cache as asked, before the window opens, and what it holds.
    std::optional<CacheState> cache;
    if (plan.cache_given) {
      SessionRecord no_runs{.plan = plan};  // a profile's SIGUSR1 during --cache: no session to show
      if (!prepare_cache(settings, kinds, setting, at.test ? no_runs : session, cache)) {
        if (console_.interrupt() != 0) stop(session);
        return finish(session, 1);
      }
    }
    std::optional<PatternSource> pattern;
    if (plan.pattern) pattern.emplace(next_pattern(settings));
    RunRecord record = run_with(settings, kinds, plan, pattern ? &*pattern : nullptr, std::move(label));
    record.row = row;
    record.warmup = warmup;
    record.index = index;
    record.residency = cache;
    // A profile's table takes each run's mean and p99, never its samples.
    if (at.test) record.result.latency_samples.reset();
    session.runs.push_back(std::move(record));
    if (const std::optional<int> ended = after_run(session, session.runs.back())) return ended;
  }
  return std::nullopt;
}

// A run's line, or how its end ends the session.
std::optional<int> Driver::after_run(SessionRecord& session, const RunRecord& run) {
  if (!profile_) console_.session_run_ended(session, run);
  const RunResult& done = run.result;
  if (done.report != RunResult::Report::kSummary) {
    // GNU's die(): its message is all there is, then what was measured.
    return finish(session, done.exit_status != 0 ? done.exit_status : 1);
  }
  if (done.ending == Ending::kInterrupted) stop(session);
  if (done.exit_status != 0) return finish(session, done.exit_status);
  return std::nullopt;
}

int Driver::finish(SessionRecord& session, std::optional<int> exit_status) {
  session.exit_status = exit_status;
  session.signal = exit_status ? 0 : console_.interrupt();
  if (profile_) return console_.profile_ended(profile_of(*profile_, session, rows_begun_));
  summarise_rows(session);
  return console_.session_ended(session);
}

void Driver::stop(SessionRecord& session) {
  finish(session, std::nullopt);
  die_by(console_.interrupt());
}

bool Driver::prepare_cache(const Settings& settings, FileKinds kinds, std::string_view setting, SessionRecord& session,
                           std::optional<CacheState>& state) {
  CacheStateSetter setter(os_, settings, kinds, plan().cache);
  const std::string phase = fmt::format("--cache={}: setting the cache up", cache_mode_name(plan().cache));
  const CacheFailure failed = setter.prepare([&] { return console_.interrupted_in(phase, &session); });
  if (console_.interrupt() != 0) return false;
  if (failed.err != 0) {
    console_.session_step(CacheFailed{plan().cache, failed});
    return false;
  }
  state = setter.measure();
  console_.session_step(CachePrepared{setting, *state});
  return true;
}

PatternSource Driver::next_pattern(const Settings& settings) {
  // A seed per run, from the clock and a count: no two runs, and no two
  // sessions, write the same blocks.
  const std::uint64_t seed = drawn_seed(window_.now_ns(), ++pattern_seeds_);
  // stamp writes each sector's output offset: where the stream's byte 0
  // lands, which under O_APPEND is a regular file's end, not seek=.
  return PatternSource(*plan().pattern, seed, planned_write_offset(os_, settings));
}

void Driver::measure_pattern(SessionRecord& session) {
  const PatternSource probe(*plan().pattern, 1, 0);
  session.generator_rate =
      measure_generator_rate(probe, [&] { return console_.interrupted_in("the generator's calibration", &session); });
  // A SIGINT there ends the process before the first run, saying so.
  if (console_.interrupt() != 0) stop(session);
  console_.session_step(GeneratorMeasured{*session.generator_rate});
}

}  // namespace ddtime
