// SPDX-License-Identifier: GPL-3.0-or-later
#include "driver.h"

#include <signal.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <csignal>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "aggregate.h"
#include "io.h"
#include "report_session.h"
#include "signals.h"

namespace ddtime {
namespace {

// Dies by sig with its default action, after the statistics, as GNU does.
[[noreturn]] void die_by(int sig) noexcept {
  std::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  std::raise(sig);
  // Only reached if the signal could not kill us.
  _exit(128 + sig);
}

// count= as a number of bytes (count_bytes), whatever the block size.
void count_bytes(Settings& settings, std::int64_t bytes) noexcept {
  settings.max_records = bytes / settings.ibs;
  settings.max_bytes = bytes % settings.ibs;
}

// skip= or seek= counted again in blocks of a new size.
void reblock(std::int64_t& records, std::int64_t& bytes, std::int64_t old_size, std::int64_t new_size) noexcept {
  std::int64_t total = 0;
  if (__builtin_mul_overflow(records, old_size, &total) || __builtin_add_overflow(total, bytes, &total)) return;
  records = total / new_size;
  bytes = total % new_size;
}

std::string bs_words(std::int64_t bs) {
  if (bs >= (1 << 20) && bs % (1 << 20) == 0) return fmt::format("{}M", bs >> 20);
  if (bs >= 1024 && bs % 1024 == 0) return fmt::format("{}k", bs >> 10);
  return fmt::format("{}", bs);
}

// "bs=64k depth 4": which row of a sweep a line is about.
template <typename Row>
std::string setting_words(const Row& row) {
  return fmt::format("bs={} depth {}", bs_words(row.bs), row.depth);
}

// Where the copy starts writing: seek= in bytes.
std::int64_t seek_offset(const Settings& settings) noexcept {
  std::int64_t offset = 0;
  if (__builtin_mul_overflow(settings.seek_records, settings.obs, &offset) ||
      __builtin_add_overflow(offset, settings.seek_bytes, &offset)) {
    return -1;
  }
  return offset;
}

RunFigures figures_of(const RunResult& result) {
  RunFigures figures;
  figures.real = static_cast<double>(result.times.real_ns) / 1e9;
  figures.user = static_cast<double>(result.times.user_ns) / 1e9;
  figures.sys = static_cast<double>(result.times.sys_ns) / 1e9;
  const double bytes = result.stats.bytes_out > 0 ? static_cast<double>(result.stats.bytes_out) : 0;
  figures.bytes_per_second = figures.real > 0 ? bytes / figures.real : 0;
  return figures;
}

}  // namespace

Driver::Driver(Os& os, Clock& clock, Diag& diag, const Settings& settings, const Plan& plan,
               bool stderr_is_terminal)
    : os_(os),
      diag_(diag),
      settings_(settings),
      plan_(plan),
      messages_(diag, settings_),
      reporter_(settings.status),
      window_(clock, settings.ext.timing_report || settings.ext.json),
      stderr_is_terminal_(stderr_is_terminal) {}

void Driver::notice(Notice what, Side side, int err, std::int64_t value) {
  messages_.notice(what, side, err, value);
}

void Driver::alignment_refused(const AlignmentProblem& problem) { messages_.alignment(problem); }

void Driver::starting(const RunStart& start) { total_bytes_ = start.expected_bytes; }

void Driver::show_stats(const Stats& stats) {
  // After a read error under conv=noerror GNU prints its statistics; the
  // timing report waits for the end.
  std::string text = reporter_.summary(stats, window_.now_ns() - window_.start_ns());
  if (!text.empty()) diag_.raw(text);
}

void Driver::progress(const Stats& stats, std::int64_t now_ns) {
  const std::int64_t elapsed = now_ns - window_.start_ns();
  if (settings_.ext.progress) {
    diag_.raw(reporter_.extended_progress(diag_.program(), stats, elapsed, total_bytes_, stderr_is_terminal_));
  } else {
    diag_.raw(reporter_.progress(stats, elapsed));
  }
}

bool Driver::handle_signals(const Stats& stats) {
  while (true) {
    const signals::Taken taken = signals::take();
    if (taken.interrupt != 0) {
      // The run stops, closes and comes back here to be reported.
      interrupt_ = taken.interrupt;
      return true;
    }
    if (!taken.info) return false;
    summarise(stats, window_.measure(), false, std::nullopt, 0);
  }
}

int Driver::summarise(const Stats& stats, const RunTimes& times, bool complete, std::optional<int> exit_status,
                      int signal, const EngineUse* engine, const LatencyReport* latency) {
  const Settings& settings = reported();
  std::string text;
  // ddtime's lines come first, so that GNU's summary stays last: scripts
  // read dd's result with tail -1, awk 'END{print}' or a grep for one rate.
  if (settings.ext.timing_report && settings.status != StatusLevel::kNone) {
    text = reporter_.end_progress_line();
    if (engine != nullptr) text += engine_line(diag_.program(), *engine);
    text += timing_report(diag_.program(), stats, times, settings);
    if (latency != nullptr) text += latency_report(diag_.program(), *latency, diag_.utf8_quotes());
    if (complete || signal != 0) text += measured_;
  }
  text += reporter_.summary(stats, times.real_ns);
  if (!text.empty()) diag_.raw(text);
  if (!settings.ext.json) return 0;
  JsonRun run{settings, stats, times, complete, exit_status, signal, diag_.history(), DDTIME_VERSION, engine, latency};
  return deliver_json(json_report(run), complete || signal != 0);
}

int Driver::report_without_summary(const RunResult& result) {
  if (!settings_.ext.json) return result.exit_status;
  const RunTimes no_time;
  JsonRun run{reported(), result.stats, no_time, true, result.exit_status, 0, diag_.history(), DDTIME_VERSION};
  deliver_json(json_report(run), true);
  return result.exit_status;
}

std::optional<LatencyReport> Driver::merged_latency(const std::vector<SessionRun>& runs, std::size_t row) const {
  // Exact percentiles for the row while its samples together stay within
  // a few million; the histogram beyond.
  constexpr std::size_t kMostMerged = 4'000'000;
  std::size_t reads = 0;
  std::size_t writes = 0;
  double ns_per_tick = 0;
  double clock_cost = 0;
  std::size_t measured = 0;
  const char* definition = "system call";
  for (const SessionRun& run : runs) {
    if (run.row != row || run.warmup || !run.result.latency_samples) continue;
    reads += run.result.latency_samples->reads.kept();
    writes += run.result.latency_samples->writes.kept();
    ns_per_tick += run.result.latency_ns_per_tick;
    clock_cost += run.result.latency->clock_cost_ns;
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
  return LatencyReport{definition, clock_cost / static_cast<double>(measured), merged.reads.summary(ns_per_tick),
                       merged.writes.summary(ns_per_tick)};
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

int Driver::deliver_csv(const std::string& csv) {
  if (!plan_.csv_path) return write_all(os_, STDERR_FILENO, csv) == 0 ? 0 : 1;
  if (int err = write_file(os_, plan_.csv_path->c_str(), csv); err != 0) {
    messages_.csv_report_failed(*plan_.csv_path, err);
    return 1;
  }
  return 0;
}

int Driver::deliver_json(const std::string& json, bool final) {
  if (!settings_.ext.json_path) {
    // JSON replaces the human text on stderr, so it bypasses the muted
    // diag; as with GNU's summary, a report that cannot be written fails.
    return write_all(os_, STDERR_FILENO, json) == 0 ? 0 : 1;
  }
  // A file holds the last word only: the end of the run, or its signal.
  if (!final) return 0;
  const std::string& path = *settings_.ext.json_path;
  if (int err = write_file(os_, path.c_str(), json); err != 0) {
    messages_.json_report_failed(path, err);
    return 1;
  }
  return 0;
}

int Driver::run() {
  if (plan_.sweep_bs_memory) prepare_memory_sweep();
  if (plan_.readback) return run_readback();
  if (plan_.session()) return run_session();
  if (plan_.size) count_bytes(settings_, *plan_.size);
  if (plan_.preallocate && !preallocate_output(settings_)) return 1;
  if (settings_.ext.json && !settings_.ext.json_path) diag_.set_muted(true);
  measured_ = measured_words(settings_);
  Session session(os_, *this, window_, settings_, plan_);
  run_settings_ = &session.settings();
  const RunResult result = session.run();
  switch (result.report) {
    case RunResult::Report::kNothing:
      return result.exit_status;
    case RunResult::Report::kJsonOnly:
      return report_without_summary(result);
    case RunResult::Report::kSummary:
      break;
  }
  const bool show_engine = plan_.queued() || plan_.iodepth_given;
  const EngineUse* engine = show_engine ? &result.engine : nullptr;
  if (result.ending == Ending::kInterrupted) {
    summarise(result.stats, result.times, false, std::nullopt, interrupt_, engine,
              result.latency ? &*result.latency : nullptr);
    die_by(interrupt_);
  }
  int status = result.exit_status;
  // The JSON carries the status as it stood; failing to write it fails too.
  if (summarise(result.stats, result.times, true, status, 0, engine, result.latency ? &*result.latency : nullptr) != 0) {
    status = 1;
  }
  return status;
}

// ---------------------------------------------------------------------------
// A session of runs.

bool Driver::claim_output_device(std::string_view asked) {
  struct stat status {};
  if (!settings_.output_file || !os_.stat_path(settings_.output_file->c_str(), status).ok() ||
      !S_ISBLK(status.st_mode) || plan_.force) {
    return true;
  }
  const IoResult claimed = os_.open(settings_.output_file->c_str(), O_WRONLY | O_EXCL | O_CLOEXEC, 0);
  if (!claimed.ok() && claimed.err == EBUSY) {
    messages_.device_in_use(asked, *settings_.output_file);
    return false;
  }
  if (claimed.ok()) os_.close(static_cast<int>(claimed.n));
  settings_.ext.exclusive_device = true;
  return true;
}

void Driver::prepare_memory_sweep() {
  // The memory-bandwidth measurement people use dd for, done properly:
  // every row the same bytes, from a buffer in L1 to four times the
  // last-level cache, each labelled with the level it fits in.
  caches_ = read_cpu_caches(os_, "/sys/devices/system/cpu/cpu0/cache");
  const std::int64_t last_level = caches_.empty() ? std::int64_t{16} << 20 : caches_.back().bytes;
  settings_.input_file = std::string("/dev/zero");
  settings_.output_file = std::string("/dev/null");
  for (std::int64_t bs = 4096; bs <= 4 * last_level; bs *= 2) plan_.sweep_bs.push_back(bs);
  if (!plan_.size && settings_.max_records == kNoLimit) plan_.size = std::max<std::int64_t>(std::int64_t{1} << 30, 16 * 4 * last_level);
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
    Settings input_only = settings;
    input_only.output_file.reset();
    const CacheState state = CacheStateSetter(os_, input_only, CacheMode::kAsIs).measure();
    if (state.input && state.input->pages > 0) {
      facts.input_resident = static_cast<double>(state.input->resident) / static_cast<double>(state.input->pages);
    }
  }
  facts.caches = read_cpu_caches(os_, "/sys/devices/system/cpu/cpu0/cache");
  return measured_line(diag_.program(), facts);
}

std::string Driver::session_words() const {
  if (plan_.repeat > 1) return fmt::format("--repeat={}", plan_.repeat);
  if (plan_.warmup > 0) return fmt::format("--warmup={}", plan_.warmup);
  if (plan_.sweeps_bs() || !plan_.sweep_iodepth.empty()) return "--sweep";
  if (plan_.pattern) return "--pattern";
  if (plan_.cache_given) return "--cache";
  return "--csv";
}

bool Driver::check_rerunnable() {
  const std::string asked = session_words();
  auto kind_of = [](const struct stat& status) -> std::string_view {
    if (S_ISFIFO(status.st_mode)) return "a pipe";
    if (S_ISSOCK(status.st_mode)) return "a socket";
    return "a character device that gives each read once";
  };
  for (Side side : {Side::kInput, Side::kOutput}) {
    if (side == Side::kInput && plan_.pattern) continue;  // the generator gives its bytes again and again
    const std::optional<std::string>& file = side == Side::kInput ? settings_.input_file : settings_.output_file;
    struct stat status {};
    if (!file) {
      // Each run closes its output as dd does, and a standard stream is
      // not opened again: it has no name to open.
      messages_.cannot_repeat(asked, side, {});
      return false;
    }
    // A file that is not there yet is the run's to report (or create).
    if (!os_.stat_path(file->c_str(), status).ok()) continue;
    if (positioning_of(status) == Positioning::kInOrder) {
      messages_.cannot_repeat(asked, side, kind_of(status));
      return false;
    }
  }
  return true;
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
    reblock(settings.skip_records, settings.skip_bytes, settings_.ibs, bs);
    reblock(settings.seek_records, settings.seek_bytes, settings_.obs, bs);
    settings.ibs = settings.obs = bs;
    settings.bs_given = true;
  }
  if (sweep_bytes_) {
    count_bytes(settings, *sweep_bytes_);
  } else if (plan_.size) {
    count_bytes(settings, *plan_.size);
  }
  // --pattern: a descriptor to have (its reads are the generator's).
  if (plan_.pattern) settings.input_file = std::string("/dev/zero");
  settings.warn_partial_read = settings.partial_read_matters();
  return settings;
}

int Driver::run_session() {
  if (!check_rerunnable()) return 1;
  if (!claim_output_device(session_words())) return 1;
  if (plan_.sweeps_bs()) {
    // Every row moves the same bytes: --size, else count= in the command
    // line's blocks, else the whole input, which must then have an end.
    std::int64_t counted = 0;
    struct stat status {};
    if (plan_.size) {
      sweep_bytes_ = plan_.size;
    } else if (settings_.max_records != kNoLimit &&
               !__builtin_mul_overflow(settings_.max_records, settings_.ibs, &counted) &&
               !__builtin_add_overflow(counted, settings_.max_bytes, &counted)) {
      sweep_bytes_ = counted;
    } else if (plan_.pattern || !os_.stat_path(settings_.input_file->c_str(), status).ok() ||
               positioning_of(status) != Positioning::kPositional) {
      messages_.sweep_needs_size();
      return 1;
    }
  }
  if (machine_output_on_stderr()) diag_.set_muted(true);
  const bool text = session_text();
  if (plan_.pattern) measure_pattern();
  if (text) measured_ = measured_words(row_settings(session_rows().front().bs));
  std::vector<RowSetting> rows = session_rows();
  std::vector<SessionRun> runs;
  runs.reserve(rows.size() * (plan_.warmup + plan_.repeat));
  std::vector<Figure> rates;  // bs=auto: each row's rates so far
  for (std::size_t row = 0; row < rows.size(); ++row) {
    const Settings settings = row_settings(rows[row].bs);
    Plan plan = plan_;
    plan.iodepth = rows[row].depth;
    plan.iodepth_given = plan_.iodepth_given || !plan_.sweep_iodepth.empty();
    const std::string setting = rows.size() > 1 || plan_.sweep_bs_auto ? setting_words(rows[row]) : std::string();
    for (unsigned i = 0; i < plan_.warmup + plan_.repeat; ++i) {
      const bool warmup = i < plan_.warmup;
      // The page cache as asked, before the window opens, and what it holds.
      CacheState cache;
      if (plan_.cache_given) {
        CacheStateSetter setter(os_, settings, plan_.cache);
        if (const CacheFailure failed = setter.prepare(); failed.err != 0) {
          messages_.cache_failed(cache_mode_name(plan_.cache), failed.err, failed.doing, failed.path);
          return finish_session(rows, runs, 1, 0);
        }
        cache = setter.measure();
        if (text) diag_.raw(cache_line(diag_.program(), setting, plan_.cache, cache));
      }
      Settings run_settings = settings;
      if (plan_.preallocate && !preallocate_output(run_settings)) return finish_session(rows, runs, 1, 0);
      std::optional<PatternSource> pattern;
      if (plan_.pattern) pattern.emplace(next_pattern(run_settings));
      runs.push_back(run_once(run_settings, plan, row, warmup, warmup ? i + 1 : i - plan_.warmup + 1,
                              pattern ? &*pattern : nullptr));
      runs.back().cache = cache;
      const RunResult& done = runs.back().result;
      if (done.report == RunResult::Report::kNothing || done.report == RunResult::Report::kJsonOnly) {
        // GNU's die(): its message is all there is, then what was measured.
        return finish_session(rows, runs, done.exit_status != 0 ? done.exit_status : 1, 0);
      }
      if (done.ending == Ending::kInterrupted) {
        finish_session(rows, runs, std::nullopt, interrupt_);
        die_by(interrupt_);
      }
      if (text) {
        diag_.raw(reporter_.end_progress_line());
        diag_.raw(session_run_line(diag_.program(),
                                   {setting, warmup, runs.back().index, warmup ? plan_.warmup : plan_.repeat},
                                   figures_of(done)));
        if (done.latency) diag_.raw(latency_report(diag_.program(), *done.latency, diag_.utf8_quotes()));
      } else if (!machine_output_on_stderr()) {
        // As dd, each run says what dd says, as so many dd commands would.
        diag_.raw(reporter_.summary(done.stats, done.times.real_ns));
      }
      if (done.exit_status != 0) return finish_session(rows, runs, done.exit_status, 0);
    }
    if (plan_.sweep_bs_auto) {
      std::vector<RunFigures> measured;
      for (const SessionRun& run : runs) {
        if (run.row == row && !run.warmup) measured.push_back(figures_of(run.result));
      }
      rates.push_back(summarise_runs(measured).bytes_per_second);
      const KneeSearch search = knee_search(rates);
      // Doubling stops at the knee, or where a block would outgrow what
      // every row moves (or 1 GiB).
      const std::int64_t next = rows[row].bs * 2;
      const std::int64_t most = std::min<std::int64_t>(sweep_bytes_.value_or(std::int64_t{1} << 30), std::int64_t{1} << 30);
      if (!search.more) {
        knee_row_ = search.knee;
      } else if (next <= most) {
        rows.push_back({next, rows[row].depth});
      }
    }
  }
  return finish_session(rows, runs, 0, 0);
}

PatternSource Driver::next_pattern(const Settings& settings) {
  // A seed per run, from the clock and a count: no two runs, and no two
  // sessions, write the same blocks.
  const std::uint64_t seed =
      (static_cast<std::uint64_t>(window_.now_ns()) * 0x9e3779b97f4a7c15ULL + ++pattern_seeds_) >> 1;
  return PatternSource(*plan_.pattern, seed, seek_offset(settings));
}

void Driver::measure_pattern() {
  const PatternSource probe(*plan_.pattern, 1, 0);
  generator_rate_ = measure_generator_rate(probe);
  if (session_text()) diag_.raw(generator_line(diag_.program(), pattern_name(*plan_.pattern), *generator_rate_));
}

Driver::SessionRun Driver::run_once(const Settings& settings, const Plan& plan, std::size_t row, bool warmup,
                                   unsigned index, const PatternSource* pattern) {
  const std::size_t said_before = diag_.history().size();
  std::optional<PatternOs> generated;
  if (pattern != nullptr) generated.emplace(os_, *pattern);
  Session session(generated ? static_cast<Os&>(*generated) : os_, *this, window_, settings, plan, pattern);
  run_settings_ = &session.settings();
  RunResult result = session.run();
  run_settings_ = nullptr;
  const std::vector<std::string>& said = diag_.history();
  return {row,
          warmup,
          index,
          session.settings(),
          std::move(result),
          {said.begin() + static_cast<std::ptrdiff_t>(std::min(said_before, said.size())), said.end()},
          {},
          pattern != nullptr ? std::optional<std::uint64_t>(pattern->seed()) : std::nullopt};
}

int Driver::finish_session(const std::vector<RowSetting>& rows, const std::vector<SessionRun>& runs,
                           std::optional<int> exit_status, int signal) {
  const bool text = session_text();
  // The rows with measured runs, summarised.
  std::vector<JsonSessionRow> summaries;
  std::vector<SweepRow> table;
  std::vector<RunFigures> figures;
  std::vector<LatencyReport> row_latency;  // --latency: each row's runs merged
  row_latency.reserve(rows.size());
  for (std::size_t row = 0; row < rows.size(); ++row) {
    figures.clear();
    const SessionRun* last = nullptr;
    for (const SessionRun& run : runs) {
      if (run.row != row || run.warmup || run.result.ending != Ending::kFinished ||
          run.result.report != RunResult::Report::kSummary) {
        continue;
      }
      figures.push_back(figures_of(run.result));
      last = &run;
    }
    if (figures.empty()) continue;
    const RowSummary summary = summarise_runs(figures);
    summaries.push_back({rows[row].bs, rows[row].depth, summary});
    const Stats& stats = last->result.stats;
    table.push_back({rows[row].bs, rows[row].depth, stats.bytes_out, stats.full_records_in + stats.partial_records_in,
                     summary, knee_row_ == row,
                     plan_.sweep_bs_memory ? cache_level_for(rows[row].bs, caches_) : std::string()});
    summaries.back().knee = knee_row_ == row;
    if (text && plan_.repeat > 1) {
      const std::string setting = rows.size() > 1 ? setting_words(rows[row]) : std::string();
      diag_.raw(session_statistics(diag_.program(), setting, summary, plan_.warmup, diag_.utf8_quotes()));
    }
    if (plan_.latency && plan_.repeat > 1) {
      if (std::optional<LatencyReport> merged = merged_latency(runs, row)) {
        row_latency.push_back(std::move(*merged));
        summaries.back().latency = &row_latency.back();
        if (text) {
          diag_.raw(fmt::format("{}: the {} runs' latency together:\n", diag_.program(), figures.size()));
          diag_.raw(latency_report(diag_.program(), row_latency.back(), diag_.utf8_quotes()));
        }
      }
    }
  }
  if (text && (rows.size() > 1 || plan_.sweep_bs_auto) && !table.empty()) {
    diag_.raw(sweep_table(diag_.program(), table, diag_.utf8_quotes()));
  }
  if (text && knee_row_ && *knee_row_ < rows.size()) {
    diag_.raw(knee_line(diag_.program(), rows[*knee_row_].bs));
  }
  // GNU's lines stay last: the last run's, as dd would have printed them.
  if (text && !runs.empty() && runs.back().result.report == RunResult::Report::kSummary) {
    const RunResult& last = runs.back().result;
    if (plan_.queued() || plan_.iodepth_given || !plan_.sweep_iodepth.empty()) {
      diag_.raw(engine_line(diag_.program(), last.engine));
    }
    diag_.raw(measured_);
    diag_.raw(reporter_.summary(last.stats, last.times.real_ns));
  }
  int status = exit_status.value_or(1);
  if (plan_.csv) {
    std::vector<CsvRun> lines;
    for (const SessionRun& run : runs) {
      lines.push_back(csv_run(run, rows[run.row].bs, rows[run.row].depth, "copy"));
    }
    if (deliver_csv(session_csv(lines)) != 0) status = 1;
  }
  if (!settings_.ext.json) return status;
  std::vector<JsonSessionRun> documents;
  documents.reserve(runs.size());
  const bool show_engine = plan_.queued() || plan_.iodepth_given || !plan_.sweep_iodepth.empty();
  for (const SessionRun& run : runs) {
    const RunResult& result = run.result;
    const bool complete = result.ending != Ending::kInterrupted;
    JsonSessionRun document{JsonRun{run.settings, result.stats, result.times, complete,
                                    complete ? std::optional<int>(result.exit_status) : std::nullopt,
                                    complete ? 0 : signal, run.errors, DDTIME_VERSION,
                                    show_engine ? &result.engine : nullptr,
                                    result.latency ? &*result.latency : nullptr}};
    document.bs = rows[run.row].bs;
    document.iodepth = rows[run.row].depth;
    document.repeat = run.index;
    document.warmup = run.warmup;
    document.cache = cache_mode_name(plan_.cache);
    document.residency = plan_.cache_given ? &run.cache : nullptr;
    document.seed = run.seed;
    documents.push_back(document);
  }
  const JsonSession session{plan_, documents, summaries, exit_status, signal, DDTIME_VERSION, generator_rate_};
  if (deliver_json(json_session_report(session), true) != 0) status = 1;
  return status;
}

// ---------------------------------------------------------------------------
// --preallocate and --readback.

namespace {

// count= in bytes, or what a regular file or block device holds after
// skip=; nullopt when neither tells.
std::optional<std::int64_t> bytes_to_copy(Os& os, const Settings& settings) {
  std::int64_t counted = 0;
  if (settings.max_records != kNoLimit && !__builtin_mul_overflow(settings.max_records, settings.ibs, &counted) &&
      !__builtin_add_overflow(counted, settings.max_bytes, &counted)) {
    return counted;
  }
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
  std::int64_t skipped = 0;
  if (size < 0 || __builtin_mul_overflow(settings.skip_records, settings.ibs, &skipped) ||
      __builtin_add_overflow(skipped, settings.skip_bytes, &skipped)) {
    return std::nullopt;
  }
  return size > skipped ? size - skipped : 0;
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
  const std::int64_t from = seek_offset(settings);
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
  const std::int64_t where = seek_offset(runs[0].settings);
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
      std::int64_t skipped = 0;
      if (__builtin_mul_overflow(settings_.skip_records, settings_.ibs, &skipped) ||
          __builtin_add_overflow(skipped, settings_.skip_bytes, &skipped)) {
        skipped = 0;
      }
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
    if (text && (plan_.queued() || plan_.iodepth_given)) diag_.raw(engine_line(diag_.program(), write.engine));
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
  const bool show_engine = plan_.queued() || plan_.iodepth_given;
  std::vector<JsonSessionRun> documents;
  std::vector<JsonSessionRow> summaries;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunResult& result = runs[i].result;
    const bool complete = result.ending != Ending::kInterrupted;
    JsonSessionRun document{JsonRun{runs[i].settings, result.stats, result.times, complete,
                                    complete ? std::optional<int>(result.exit_status) : std::nullopt,
                                    complete ? 0 : signal, runs[i].errors, DDTIME_VERSION,
                                    show_engine ? &result.engine : nullptr,
                                    result.latency ? &*result.latency : nullptr}};
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
  const JsonSession session{plan_, documents, summaries, exit_status, signal, DDTIME_VERSION, generator_rate_};
  if (deliver_json(json_session_report(session), true) != 0) status = 1;
  return status;
}

}  // namespace ddtime
