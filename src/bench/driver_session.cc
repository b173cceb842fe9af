// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's sessions of runs: --repeat, --warmup, --sweep, --cache,
// --pattern, --csv; each run a Run, its result kept, the rows
// summarised and printed, the session's JSON and CSV.
#include "bench/driver.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "measure/aggregate.h"
#include "bench/driver_internal.h"
#include "dd/io.h"
#include "dd/io_position.h"
#include "report/report_session.h"

namespace ddtime {
using namespace driver_detail;

std::optional<LatencyReport> Driver::merged_latency(const std::vector<SessionRun>& runs, std::size_t row) const {
  // Exact percentiles for the row while its samples together stay within
  // a few million; the histogram beyond.
  constexpr std::size_t kMostMerged = 4'000'000;
  std::size_t reads = 0;
  std::size_t writes = 0;
  double ns_per_tick = 0;
  double clock_cost = 0;
  double between_calls = 0;
  std::size_t gaps_measured = 0;
  std::size_t measured = 0;
  const char* definition = kLatencyPerCall;
  for (const SessionRun& run : runs) {
    if (run.row != row || run.warmup || !run.result.latency_samples) continue;
    reads += run.result.latency_samples->reads.kept();
    writes += run.result.latency_samples->writes.kept();
    ns_per_tick += run.result.latency_ns_per_tick;
    clock_cost += run.result.latency->clock_cost_ns;
    if (run.result.latency->between_calls_ns) {
      between_calls += *run.result.latency->between_calls_ns;
      ++gaps_measured;
    }
    definition = run.result.latency->definition;
    ++measured;
  }
  if (measured == 0) return std::nullopt;
  LatencyRecorders merged(reads <= kMostMerged ? reads : 0, writes <= kMostMerged ? writes : 0);
  for (const SessionRun& run : runs) {
    if (run.row != row || run.warmup || !run.result.latency_samples) continue;
    merged.reads.merge(run.result.latency_samples->reads);
    merged.writes.merge(run.result.latency_samples->writes);
  }
  // The runs' tick lengths differ by their calibration's noise only.
  ns_per_tick /= static_cast<double>(measured);
  return LatencyReport{definition, clock_cost / static_cast<double>(measured),
                       gaps_measured > 0 ? std::optional(between_calls / static_cast<double>(gaps_measured)) : std::nullopt,
                       merged.reads.summary(ns_per_tick), merged.writes.summary(ns_per_tick)};
}

std::string Driver::phase_json(std::string_view phase) const {
  if (runs_so_far_ == nullptr) {
    // A single run not begun: its document, nothing moved, nothing timed.
    const Stats nothing;
    RunTimes unmeasured;
    unmeasured.measured = false;
    JsonRun run{settings_, nothing, unmeasured, false, std::nullopt, 0, diag_.history(), DDTIME_VERSION};
    run.phase = phase;
    return json_report(run);
  }
  std::vector<JsonSessionRun> documents;
  documents.reserve(runs_so_far_->size());
  const bool show_engine = plan_.shows_engine();
  for (std::size_t i = 0; i < runs_so_far_->size(); ++i) {
    JsonSessionRun document = json_session_run((*runs_so_far_)[i], 0, show_engine);
    if (runs_are_passes_) document.pass = i == 0 ? "write" : "read";
    documents.push_back(document);
  }
  JsonSession session{plan_, documents, {}, std::nullopt, 0, DDTIME_VERSION, generator_rate_};
  session.complete = false;
  session.phase = phase;
  return json_session_report(session);
}

void Driver::stream_csv(const CsvRun& line) {
  if (!plan_.csv || plan_.csv_path) return;
  deliver_csv(session_csv({&line, 1}, !csv_header_sent_));
  csv_header_sent_ = true;
  ++csv_rows_sent_;
}

std::string Driver::csv_table(std::span<const CsvRun> lines) {
  if (!plan_.csv || plan_.csv_path) return session_csv(lines);
  const std::size_t sent = std::min(csv_rows_sent_, lines.size());
  std::string text = session_csv(lines.subspan(sent), !csv_header_sent_);
  csv_header_sent_ = true;
  csv_rows_sent_ = lines.size();
  return text;
}

std::string Driver::csv_snapshot(const Stats& stats, const RunTimes& times) {
  CsvRun line;
  line.bs = reported().ibs;
  line.depth = plan_.iodepth;
  line.pass = "snapshot";
  line.cache = cache_mode_name(plan_.cache);
  line.bytes = stats.bytes_out;
  line.records = stats.full_records_in + stats.partial_records_in;
  RunResult partial;
  partial.stats = stats;
  partial.times = times;
  line.figures = figures_of(partial);
  std::string text = session_csv({&line, 1}, !csv_header_sent_);
  csv_header_sent_ = true;
  return text;
}

JsonRun Driver::json_run(const SessionRun& run, int signal, bool show_engine) const {
  const RunResult& result = run.result;
  const bool complete = result.ending != Ending::kInterrupted;
  return JsonRun{run.settings,
                 result.stats,
                 result.times,
                 complete,
                 complete ? std::optional<int>(result.exit_status) : std::nullopt,
                 complete ? 0 : signal,
                 run.errors,
                 DDTIME_VERSION,
                 show_engine ? &result.engine : nullptr,
                 result.latency ? &*result.latency : nullptr};
}

CsvRun Driver::csv_run(const SessionRun& run, std::int64_t bs, unsigned depth, std::string_view pass) const {
  const RunResult& result = run.result;
  CsvRun line;
  line.bs = bs;
  line.depth = depth;
  line.pass = pass;
  line.repeat = run.index;
  line.warmup = run.warmup;
  line.cache = cache_mode_name(plan_.cache);
  line.bytes = result.stats.bytes_out;
  line.records = result.stats.full_records_in + result.stats.partial_records_in;
  line.figures = figures_of(result);
  if (result.ending != Ending::kInterrupted) line.exit_status = result.exit_status;
  return line;
}


std::string Driver::measured_words(const Settings& settings) {
  if (!settings.ext.timing_report || settings.status == StatusLevel::kNone) return {};
  MeasuredFacts facts;
  struct stat status {};
  auto kind = [&](const std::optional<std::string>& path, int fd) {
    if (!path) return os_.fstat(fd, status).ok() ? side_kind_of(status) : SideKind::kUnknown;
    const IoResult found = os_.stat_path(path->c_str(), status);
    // An output not there yet is the regular file dd will create.
    if (!found.ok()) return found.err == ENOENT ? SideKind::kRegular : SideKind::kUnknown;
    return side_kind_of(status);
  };
  facts.pattern = plan_.pattern.has_value();
  facts.input = kind(settings.input_file, STDIN_FILENO);
  facts.output = kind(settings.output_file, STDOUT_FILENO);
  facts.input_name = settings.input_file.value_or("standard input");
  facts.output_name = settings.output_file.value_or("standard output");
  facts.bs = settings.ibs;
  facts.input_direct = settings.iflag.direct;
  facts.output_flushed = settings.conv.fsync || settings.conv.fdatasync || settings.oflag.sync || settings.oflag.dsync ||
                         settings.oflag.direct;
  if (facts.input == SideKind::kRegular && !facts.input_direct) {
    // Of the bytes this copy reads, not of the whole file.
    const std::optional<Residency> range = CacheStateSetter(os_, settings, CacheMode::kAsIs).input_range_residency();
    if (range && range->pages > 0 && range->resident) {
      facts.input_resident = static_cast<double>(*range->resident) / static_cast<double>(range->pages);
    }
    facts.input_residency_unknown = range && !range->resident;
  }
  facts.caches = caches_.empty() ? read_cpu_caches(os_, "/sys/devices/system/cpu/cpu0/cache") : caches_;
  return measured_line(diag_.program(), facts);
}

std::vector<Driver::RowSetting> Driver::session_rows() const {
  std::vector<RowSetting> rows;
  // bs=auto starts from bs= (4k when not given) and grows as it goes.
  const std::int64_t first = plan_.sweep_bs_auto && !settings_.bs_given ? 4096 : settings_.ibs;
  const std::vector<std::int64_t> sizes = plan_.sweep_bs.empty() ? std::vector<std::int64_t>{first} : plan_.sweep_bs;
  const std::vector<unsigned> depths = plan_.sweep_iodepth.empty() ? std::vector<unsigned>{plan_.iodepth}
                                                                   : plan_.sweep_iodepth;
  for (const std::int64_t bs : sizes) {
    for (const unsigned depth : depths) rows.push_back({bs, depth});
  }
  return rows;
}

Settings Driver::row_settings(std::int64_t bs) const {
  Settings settings = settings_;
  if (plan_.sweeps_bs()) {
    settings.cut = settings_.empties_output() ? Settings::OutputCut::kWhole : Settings::OutputCut::kAtSeek;
    reblock(settings.skip_records, settings.skip_bytes, settings_.ibs, bs);
    reblock(settings.seek_records, settings.seek_bytes, settings_.obs, bs);
    settings.ibs = settings.obs = bs;
    settings.bs_given = true;
  }
  // Every row moves the same bytes, whatever its block size.
  if (sweep_bytes_) count_bytes(settings, *sweep_bytes_);
  // --pattern: a descriptor to have (its reads are the generator's).
  if (plan_.pattern) settings.input_file = std::string("/dev/zero");
  return settings;
}

int Driver::run_session() {
  std::vector<SessionRun> runs;
  const RunsInView in_view(*this, runs, false);
  if (plan_.pattern) measure_pattern();
  std::vector<RowSetting> rows = session_rows();
  runs.reserve(rows.size() * (plan_.warmup + plan_.repeat));
  std::vector<Figure> rates;  // bs=auto: each row's rates so far
  for (std::size_t row = 0; row < rows.size(); ++row) {
    if (const std::optional<int> ended = run_row(rows, row, runs)) return *ended;
    if (plan_.sweep_bs_auto) extend_auto_sweep(rows, row, runs, rates);
  }
  // A SIGINT that came as the last run ended still ends the session.
  if (interrupted_in("a session: all runs done")) return stopped_session(rows, runs);
  return finish_session(rows, runs, 0, 0);
}

std::optional<int> Driver::run_row(const std::vector<RowSetting>& rows, std::size_t row,
                                   std::vector<SessionRun>& runs) {
  const Settings settings = row_settings(rows[row].bs);
  Plan plan = plan_;
  plan.iodepth = rows[row].depth;
  plan.iodepth_given = plan_.iodepth_given || !plan_.sweep_iodepth.empty();
  const std::string setting = rows.size() > 1 || plan_.sweep_bs_auto ? setting_words(rows[row]) : std::string();
  for (unsigned i = 0; i < plan_.warmup + plan_.repeat; ++i) {
    const bool warmup = i < plan_.warmup;
    if (interrupted_in(fmt::format("a session: {} of {} runs done", runs.size(),
                                   rows.size() * (plan_.warmup + plan_.repeat)))) {
      return stopped_session(rows, runs);
    }
    // The page cache as asked, before the window opens, and what it holds.
    std::optional<CacheState> cache;
    if (plan_.cache_given && !prepare_cache(settings, setting, cache)) {
      return interrupt_ != 0 ? stopped_session(rows, runs) : finish_session(rows, runs, 1, 0);
    }
    // What the run measures, in words, now that --cache has acted.
    std::string measured = session_text() ? measured_words(settings) : std::string();
    std::optional<PatternSource> pattern;
    if (plan_.pattern) pattern.emplace(next_pattern(settings));
    running_ = fmt::format("{}{}{} {} of {}", setting, setting.empty() ? "" : ", ", warmup ? "warm-up" : "run",
                           warmup ? i + 1 : i - plan_.warmup + 1, warmup ? plan_.warmup : plan_.repeat);
    runs.push_back(run_once(settings, plan, row, warmup, warmup ? i + 1 : i - plan_.warmup + 1,
                            pattern ? &*pattern : nullptr));
    running_.clear();
    if (cache) runs.back().cache = *cache;
    runs.back().measured = std::move(measured);
    stream_csv(csv_run(runs.back(), rows[row].bs, rows[row].depth, "copy"));
    if (const std::optional<int> ended = after_run(rows, runs, setting)) return ended;
  }
  return std::nullopt;
}

// A run's line, or how its end ends the session.
std::optional<int> Driver::after_run(const std::vector<RowSetting>& rows, std::vector<SessionRun>& runs,
                                     const std::string& setting) {
  const SessionRun& run = runs.back();
  const RunResult& done = run.result;
  if (done.report == RunResult::Report::kNothing || done.report == RunResult::Report::kJsonOnly) {
    // GNU's die(): its message is all there is, then what was measured.
    return finish_session(rows, runs, done.exit_status != 0 ? done.exit_status : 1, 0);
  }
  // As dd, each run says what dd says, as so many dd commands would; one
  // that a SIGINT stopped too, as GNU's handler does before it dies.
  const bool as_dd = !session_text() && !machine_output_on_stderr();
  if (as_dd) diag_.raw(reporter_.summary(done.stats, done.times.real_ns));
  if (done.ending == Ending::kInterrupted) return stopped_session(rows, runs);
  if (session_text()) {
    diag_.raw(reporter_.end_progress_line());
    const RunFigures figures = figures_of(done);
    diag_.raw(session_run_line(
        diag_.program(),
        {setting, run.warmup, run.index, run.warmup ? plan_.warmup : plan_.repeat, !run.warmup && !run.counted()},
        {figures, done.times, rate_units(), settings_.ext.split_times}));
    if (done.latency) diag_.raw(latency_report(diag_.program(), *done.latency, diag_.utf8_quotes()));
  }
  if (done.exit_status != 0) return finish_session(rows, runs, done.exit_status, 0);
  return std::nullopt;
}

// A SIGINT: the runs done so far summarised, then the process dies by it.
int Driver::stopped_session(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs) {
  finish_session(rows, runs, std::nullopt, interrupt_);
  die_by(interrupt_);
}

// --sweep=bs=auto: the next doubling, unless the last two stopped paying.
void Driver::extend_auto_sweep(std::vector<RowSetting>& rows, std::size_t row, const std::vector<SessionRun>& runs,
                               std::vector<Figure>& rates) {
  std::vector<RunFigures> measured;
  for (const SessionRun& run : runs) {
    if (run.row == row && !run.warmup && run.counted()) measured.push_back(figures_of(run.result));
  }
  if (measured.empty()) return;
  rates.push_back(summarise_runs(measured).bytes_per_second);
  const KneeSearch search = knee_search(rates);
  // Doubling stops at the knee, or where a block would outgrow what
  // every row moves (or 1 GiB).
  const std::int64_t next = rows[row].bs * 2;
  const std::int64_t moved = sweep_bytes_ ? *sweep_bytes_ : range_bytes_.value_or(std::int64_t{1} << 30);
  const std::int64_t most = std::min<std::int64_t>(moved, std::int64_t{1} << 30);
  if (!search.more) {
    knee_row_ = search.knee;
  } else if (next <= most) {
    rows.push_back({next, rows[row].depth});
  }
}

bool Driver::prepare_cache(const Settings& settings, std::string_view setting, std::optional<CacheState>& state) {
  CacheStateSetter setter(os_, settings, plan_.cache);
  const CacheFailure failed = setter.prepare(
      [&] { return interrupted_in(fmt::format("--cache={}: setting the cache up", cache_mode_name(plan_.cache))); });
  if (interrupt_ != 0) return false;
  if (failed.err != 0) {
    messages_.cache_failed(cache_mode_name(plan_.cache), failed.err, failed.doing, failed.path);
    return false;
  }
  state = setter.measure();
  if (session_text()) diag_.raw(cache_line(diag_.program(), setting, plan_.cache, *state));
  return true;
}

PatternSource Driver::next_pattern(const Settings& settings) {
  // A seed per run, from the clock and a count: no two runs, and no two
  // sessions, write the same blocks.
  const std::uint64_t seed =
      (static_cast<std::uint64_t>(window_.now_ns()) * 0x9e3779b97f4a7c15ULL + ++pattern_seeds_) >> 1;
  // stamp writes each sector's output offset: where the stream's byte 0
  // lands, which under O_APPEND is a regular file's end, not seek=.
  return PatternSource(*plan_.pattern, seed, planned_write_offset(os_, settings));
}

void Driver::measure_pattern() {
  const PatternSource probe(*plan_.pattern, 1, 0);
  generator_rate_ = measure_generator_rate(probe, [&] { return interrupted_in("the generator's calibration"); });
  // A SIGINT there ends the process before the first run, saying so.
  if (interrupt_ != 0) {
    finish_session({}, {}, std::nullopt, interrupt_);
    die_by(interrupt_);
  }
  if (session_text()) {
    diag_.raw(generator_line(diag_.program(), pattern_name(*plan_.pattern), *generator_rate_, rate_units()));
  }
}

Driver::SessionRun Driver::run_once(const Settings& settings, const Plan& plan, std::size_t row, bool warmup,
                                   unsigned index, const PatternSource* pattern) {
  const std::size_t said_before = diag_.history().size();
  std::optional<PatternOs> generated;
  if (pattern != nullptr) generated.emplace(os_, *pattern);
  Run run(generated ? static_cast<Os&>(*generated) : os_, *this, window_, settings, plan, pattern);
  run_settings_ = &run.settings();
  RunResult result = run.perform();
  run_settings_ = nullptr;
  const std::vector<std::string>& said = diag_.history();
  return {row,
          warmup,
          index,
          run.settings(),
          std::move(result),
          {said.begin() + static_cast<std::ptrdiff_t>(std::min(said_before, said.size())), said.end()},
          {},
          pattern != nullptr ? std::optional<std::uint64_t>(pattern->seed()) : std::nullopt};
}

// The rows with measured runs, summarised (and, as text with --repeat,
// each row's statistics and merged latency printed as it is summarised).
void Driver::summarise_rows(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs,
                            SessionSummaries& out) {
  const bool text = session_text();
  std::vector<RunFigures> figures;
  out.latency.reserve(rows.size());  // rows point into it
  for (std::size_t row = 0; row < rows.size(); ++row) {
    figures.clear();
    const SessionRun* last = nullptr;
    // A run that failed or was stopped is listed, never a sample.
    for (const SessionRun& run : runs) {
      if (run.row != row || run.warmup || !run.counted()) continue;
      figures.push_back(figures_of(run.result));
      last = &run;
    }
    if (figures.empty()) continue;
    const RowSummary summary = summarise_runs(figures);
    out.rows.push_back({rows[row].bs, rows[row].depth, summary});
    const Stats& stats = last->result.stats;
    out.table.push_back({rows[row].bs, rows[row].depth, stats.bytes_out,
                         stats.full_records_in + stats.partial_records_in, summary, knee_row_ == row,
                         plan_.sweep_bs_memory ? cache_level_for(rows[row].bs, caches_) : std::string()});
    out.rows.back().knee = knee_row_ == row;
    if (text && plan_.repeat > 1) {
      const std::string setting = rows.size() > 1 ? setting_words(rows[row]) : std::string();
      diag_.raw(session_statistics(diag_.program(), setting, summary, plan_.warmup, diag_.utf8_quotes(), rate_units()));
    }
    if (!plan_.latency || plan_.repeat <= 1) continue;
    if (std::optional<LatencyReport> merged = merged_latency(runs, row)) {
      out.latency.push_back(std::move(*merged));
      out.rows.back().latency = &out.latency.back();
      if (text) {
        diag_.raw(fmt::format("{}: the {} runs' latency together:\n", diag_.program(), figures.size()));
        diag_.raw(latency_report(diag_.program(), out.latency.back(), diag_.utf8_quotes()));
      }
    }
  }
}

// The sweep table, the knee, then GNU's lines last: the last run's, as dd
// would have printed them.
void Driver::print_session_end(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs,
                               const SessionSummaries& summaries) {
  if ((rows.size() > 1 || plan_.sweep_bs_auto) && !summaries.table.empty()) {
    diag_.raw(sweep_table(diag_.program(), summaries.table, diag_.utf8_quotes(), rate_units()));
  }
  if (knee_row_ && *knee_row_ < rows.size()) {
    diag_.raw(knee_line(diag_.program(), rows[*knee_row_].bs, plan_.repeat > 1));
  }
  if (runs.empty() || runs.back().result.report != RunResult::Report::kSummary) return;
  const RunResult& last = runs.back().result;
  if (plan_.shows_engine()) diag_.raw(engine_line(diag_.program(), last.engine));
  // The measured line of the run whose GNU lines follow: in a sweep, the
  // last row's, and it says so.
  const SessionRun& shown = runs.back();
  diag_.raw(rows.size() > 1 ? row_labelled(shown.measured, setting_words(rows[shown.row])) : shown.measured);
  diag_.raw(reporter_.summary(last.stats, last.times.real_ns));
}

int Driver::finish_session(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs,
                           std::optional<int> exit_status, int signal) {
  SessionSummaries summaries;
  summarise_rows(rows, runs, summaries);
  if (session_text()) print_session_end(rows, runs, summaries);
  int status = exit_status.value_or(1);
  if (plan_.csv) {
    std::vector<CsvRun> lines;
    for (const SessionRun& run : runs) {
      lines.push_back(csv_run(run, rows[run.row].bs, rows[run.row].depth, "copy"));
    }
    if (deliver_csv(csv_table(lines)) != 0) status = 1;
  }
  if (!settings_.ext.json) return status;
  std::vector<JsonSessionRun> documents;
  documents.reserve(runs.size());
  const bool show_engine = plan_.shows_engine();
  for (const SessionRun& run : runs) {
    JsonSessionRun document = json_session_run(run, signal, show_engine);
    document.bs = rows[run.row].bs;
    document.iodepth = rows[run.row].depth;
    documents.push_back(document);
  }
  if (deliver_session_json(documents, summaries.rows, exit_status, signal) != 0) status = 1;
  return status;
}

JsonSessionRun Driver::json_session_run(const SessionRun& run, int signal, bool show_engine) const {
  JsonSessionRun document{json_run(run, signal, show_engine)};
  document.bs = run.settings.ibs;
  document.iodepth = run.result.engine.depth;
  document.repeat = run.index;
  document.warmup = run.warmup;
  document.counted = run.counted();
  document.cache = cache_mode_name(plan_.cache);
  document.residency = plan_.cache_given ? &run.cache : nullptr;
  document.seed = run.seed;
  return document;
}

int Driver::deliver_session_json(std::span<const JsonSessionRun> runs, std::span<const JsonSessionRow> rows,
                                 std::optional<int> exit_status, int signal) {
  const JsonSession session{plan_, runs, rows, exit_status, signal, DDTIME_VERSION, generator_rate_};
  return deliver_json(json_session_report(session), true);
}


}  // namespace ddtime
