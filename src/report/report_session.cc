// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <vector>

#include "measure/timeline.h"
#include "model/units.h"
#include "report/json.h"
#include "report/report.h"

namespace ddtime {
namespace {

using Buffer = fmt::memory_buffer;

template <typename... Args>
void put(Buffer& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string text_of(const Buffer& out) { return {out.data(), out.size()}; }

// Characters, not string_views: a table of pointers would need relocating,
// a page the loader writes at every start.
constexpr char kIecUnits[][6] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"};
constexpr std::size_t kIecUnitCount = sizeof kIecUnits / sizeof kIecUnits[0];

constexpr char kSiUnits[][5] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};

std::size_t si_unit(double bytes_per_second) {
  std::size_t unit = 0;
  while (unit + 1 < sizeof kSiUnits / sizeof kSiUnits[0] && bytes_per_second >= 1000.0) {
    bytes_per_second /= 1000.0;
    ++unit;
  }
  return unit;
}

double in_si_unit(double bytes_per_second) {
  for (std::size_t unit = si_unit(bytes_per_second); unit > 0; --unit) bytes_per_second /= 1000.0;
  return bytes_per_second;
}

// The IEC unit a rate is shown in: the largest that leaves at least 1.
std::size_t iec_unit(double bytes_per_second) {
  std::size_t unit = 0;
  while (unit + 1 < kIecUnitCount && bytes_per_second >= 1024.0) {
    bytes_per_second /= 1024.0;
    ++unit;
  }
  return unit;
}

double in_unit(double bytes_per_second, std::size_t unit) {
  for (std::size_t i = 0; i < unit; ++i) bytes_per_second /= 1024.0;
  return bytes_per_second;
}

// How one figure's values are written: durations as duration_text does
// (so a short run never reads 0.0000 s), or a rate in one IEC unit for the
// whole line.
struct Scale {
  bool rate = false;
  std::size_t unit = 0;
  double base = 1024.0;  // 1000 for SI rates
  const char* suffix() const { return base == 1000.0 ? kSiUnits[unit] : kIecUnits[unit]; }
  double scaled(double x) const {
    for (std::size_t i = 0; i < unit; ++i) x /= base;
    return x;
  }
  std::string value(double x) const { return rate ? fmt::format("{:.2f} {}", scaled(x), suffix()) : duration_text(x); }
  // Both ends of an interval, the unit said once for a rate.
  std::string range(double low, double high, bool utf8) const {
    const char* dash = utf8 ? "\u2013" : "..";
    if (!rate) return fmt::format("{}{}{}", duration_text(low), dash, duration_text(high));
    return fmt::format("{:.2f}{}{:.2f} {}", scaled(low), dash, scaled(high), suffix());
  }
  // The scale of a rate row in the units asked for: SI, B/s, or IEC.
  static Scale for_rate(double median, RateUnits units) {
    if (units == RateUnits::kSi) return {true, si_unit(median), 1000.0};
    if (units == RateUnits::kBytes) return {true, 0, 1000.0};
    return {true, iec_unit(median), 1024.0};
  }
};

// The columns a text takes on a terminal: each UTF-8 character one.
std::size_t columns(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return count;
}

// One figure's cells: name, min, median, interval, mean ± sd, max, outliers.
using StatisticsRow = std::array<std::string, 7>;

StatisticsRow figure_cells(std::string_view name, const Figure& figure, const Scale& scale, bool utf8) {
  std::string outliers = "-";
  if (!figure.outliers.empty()) {
    outliers = figure.outliers.size() == 1 ? "run" : "runs";
    for (std::size_t i = 0; i < figure.outliers.size(); ++i) {
      outliers += fmt::format("{}{}", i == 0 ? " " : ", ", figure.outliers[i] + 1);
    }
  }
  return {std::string(name),
          scale.value(figure.min),
          scale.value(figure.median),
          figure.median_low ? scale.range(*figure.median_low, *figure.median_high, utf8) : std::string("n/a"),
          fmt::format("{} {} {}", scale.value(figure.mean), utf8 ? "\u00b1" : "+-", scale.value(figure.sd)),
          scale.value(figure.max),
          outliers};
}

// A bar of width columns times fraction: Unicode eighth blocks, or '#'.
std::string bar(double fraction, bool utf8) {
  constexpr int kWidth = 30;
  fraction = std::clamp(fraction, 0.0, 1.0);
  if (!utf8) return std::string(static_cast<std::size_t>(fraction * kWidth + 0.5), '#');
  // One to seven eighths of a column, three bytes each in UTF-8.
  static constexpr std::string_view kEighths = "\u258f\u258e\u258d\u258c\u258b\u258a\u2589";
  const int eighths = static_cast<int>(fraction * kWidth * 8 + 0.5);
  std::string text;
  for (int i = 0; i < eighths / 8; ++i) text += "\u2588";
  if (const int rest = eighths % 8; rest > 0) text += kEighths.substr(static_cast<std::size_t>(rest - 1) * 3, 3);
  return text;
}

}  // namespace

std::string bs_text(std::int64_t bs) {
  constexpr std::int64_t kGiB = std::int64_t{1} << 30;
  if (bs >= kGiB && bs % kGiB == 0) return fmt::format("{}G", bs >> 30);
  if (bs >= (1 << 20) && bs % (1 << 20) == 0) return fmt::format("{}M", bs >> 20);
  if (bs >= 1024 && bs % 1024 == 0) return fmt::format("{}k", bs >> 10);
  return fmt::format("{}", bs);
}

std::string setting_words(std::int64_t bs, unsigned depth) { return fmt::format("bs={} depth {}", bs_text(bs), depth); }

std::string iec_rate(double bytes_per_second) {
  const std::size_t unit = iec_unit(bytes_per_second);
  return fmt::format("{:.2f} {}", in_unit(bytes_per_second, unit), kIecUnits[unit]);
}

std::string rate_text(double bytes_per_second, RateUnits units) {
  const std::string si = fmt::format("{:.2f} {}", in_si_unit(bytes_per_second), kSiUnits[si_unit(bytes_per_second)]);
  const std::string plain = fmt::format("{:.0f} B/s", bytes_per_second);
  switch (units) {
    case RateUnits::kSi:
      return si;
    case RateUnits::kBytes:
      return plain;
    case RateUnits::kBoth:
      return si + " = " + iec_rate(bytes_per_second);
    case RateUnits::kAll:
      return si + " = " + iec_rate(bytes_per_second) + " = " + plain;
    case RateUnits::kIec:
    case RateUnits::kIecAndBytes:
      break;
  }
  return iec_rate(bytes_per_second);
}

// With --split-times: the reads' and the writes' time and the rest, or,
// where a queued engine ran, that they were not measured.
void put_split(Buffer& out, const RunLineFigures& figures) {
  const RunTimes& times = figures.times;
  if (times.split) {
    const std::int64_t other = times.real_ns - times.read_ns - times.write_ns - (times.flushed ? times.flush_ns : 0);
    put(out, "  read {}  write {}  other {}", duration_text(times.read_ns), duration_text(times.write_ns),
        duration_text(other > 0 ? other : 0));
  } else if (figures.split_asked) {
    put(out, "  read and write time not measured: a queued engine's I/O is in flight together");
  }
}

// "real X  user Y  sys Z  cpu P%  RATE", and with --split-times the reads'
// and the writes' time.
void put_figures(Buffer& out, const RunLineFigures& figures) {
  const RunFigures& run = figures.run;
  put(out, "real {}  user {}  sys {}  cpu {:.1f}%  {}", duration_text(run.real), duration_text(run.user),
      duration_text(run.sys), run.real > 0 ? (run.user + run.sys) / run.real * 100 : 0.0,
      rate_text(run.bytes_per_second, figures.units));
  if (figures.iops) put(out, "  {:.0f} IOPS", *figures.iops);
  put_split(out, figures);
}

std::string session_run_line(std::string_view program, const RunLabel& label, const RunLineFigures& figures) {
  Buffer out;
  put(out, "{}: ", program);
  if (!label.setting.empty()) put(out, "{}, ", label.setting);
  put(out, "{} {} of {}: ", label.warmup ? "warm-up" : "run", label.index, label.of);
  put_figures(out, figures);
  put(out, "{}\n", label.failed ? " (failed: not counted)" : label.warmup ? " (not counted)" : "");
  return text_of(out);
}

std::string session_statistics(std::string_view program, std::string_view setting, const RowSummary& row,
                               unsigned warmups, bool utf8, RateUnits units) {
  Buffer out;
  put(out, "{}: ", program);
  if (!setting.empty()) put(out, "{}: ", setting);
  put(out, "{} {}", row.real.count, row.real.count == 1 ? "run" : "runs");
  if (warmups > 0) put(out, ", {} {} not counted", warmups, warmups == 1 ? "warm-up" : "warm-ups");
  put(out, "\n");
  const Scale seconds;
  const std::array<StatisticsRow, 5> table = {
      StatisticsRow{"", "min", "median", "95% interval", utf8 ? "mean \u00b1 sd" : "mean +- sd", "max", "outliers"},
      figure_cells("real", row.real, seconds, utf8),
      figure_cells("user", row.user, seconds, utf8),
      figure_cells("sys", row.sys, seconds, utf8),
      figure_cells("rate", row.bytes_per_second, Scale::for_rate(row.bytes_per_second.median, units), utf8),
  };
  // Each column as wide as its widest cell: names and intervals to the
  // left, figures to the right, two spaces between.
  std::array<std::size_t, 7> width{};
  for (const StatisticsRow& cells : table) {
    for (std::size_t i = 0; i < cells.size(); ++i) width[i] = std::max(width[i], columns(cells[i]));
  }
  for (const StatisticsRow& cells : table) {
    put(out, "{}:", program);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::size_t pad = width[i] - columns(cells[i]);
      const bool left = i == 0 || i == 3 || i == 4 || i == 6;
      if (i == 6 && cells[i].empty()) break;
      put(out, "{}{}{}{}", i == 0 ? " " : "  ", left ? "" : std::string(pad, ' '), cells[i],
          left && i != 6 ? std::string(pad, ' ') : "");
    }
    put(out, "\n");
  }
  return text_of(out);
}

std::string pass_line(std::string_view program, std::string_view pass, const RunLineFigures& figures) {
  const RunFigures& run = figures.run;
  const RunTimes& times = figures.times;
  Buffer out;
  put(out, "{}: {}: real {}", program, pass, duration_text(run.real));
  if (times.flush_ns > 0) {
    put(out, " (copy {} + flush {}, user {} sys {} of it)", duration_text(times.copy_ns), duration_text(times.flush_ns),
        duration_text(times.flush_user_ns), duration_text(times.flush_sys_ns));
  }
  put(out, "  user {}  sys {}  cpu {:.1f}%  {}", duration_text(run.user), duration_text(run.sys),
      run.real > 0 ? (run.user + run.sys) / run.real * 100 : 0.0, rate_text(run.bytes_per_second, figures.units));
  if (figures.iops) put(out, "  {:.0f} IOPS", *figures.iops);
  put_split(out, figures);
  put(out, "\n");
  return text_of(out);
}

std::string buffered_read_line(std::string_view program, std::string_view path, std::int64_t bytes, std::int64_t offset,
                               std::int64_t alignment) {
  return fmt::format(
      "{}: read: through the page cache, its pages dropped first: {} B from offset {} is no multiple of '{}''s "
      "direct I/O alignment {}\n",
      program, bytes, offset, path, alignment);
}

std::string drop_line(std::string_view program, std::int64_t ns) {
  return fmt::format("{}: drop cache: {}\n", program, duration_text(ns));
}

std::string verify_line(std::string_view program, const VerifyOutcome& outcome, std::int64_t ns, RateUnits units) {
  const double seconds = in_seconds(static_cast<double>(ns));
  const double rate = seconds > 0 ? static_cast<double>(outcome.compared) / seconds : 0;
  // Sizes in B, not "bytes": a script's grep for GNU's summary must not
  // find ddtime's lines.
  if (outcome.first_bad) {
    return fmt::format("{}: verify: mismatch at offset {}, {} B equal before it, in {}\n", program, *outcome.first_bad,
                       outcome.compared, duration_text(ns));
  }
  return fmt::format("{}: verify: ok, {} ({} B) compared in {} ({})\n", program, human_size(outcome.compared, false),
                     outcome.compared, duration_text(ns), rate_text(rate, units));
}

std::string phase_line(std::string_view program, std::string_view phase) {
  return fmt::format("{}: SIGUSR1 during {}\n", program, phase);
}

std::string generator_line(std::string_view program, std::string_view pattern, double bytes_per_second,
                           RateUnits units) {
  return fmt::format("{}: pattern {}: the generator makes {} on one core; a copy from it cannot go much faster\n",
                     program, pattern, rate_text(bytes_per_second, units));
}

std::string knee_line(std::string_view program, std::int64_t bs, bool spread) {
  return fmt::format("{}: knee at bs={}: doubling it gained under 5%{} twice\n", program, bs_text(bs),
                     spread ? " (and under the run-to-run spread)" : "");
}

std::string session_csv(std::span<const RunRecord> runs, bool header) {
  Buffer out;
  if (header) {
    put(out,
        "bs,iodepth,pass,repeat,warmup,cache,bytes,records,real_s,user_s,sys_s,cpu_percent,bytes_per_second,iops,"
        "exit_status,read_percent,read_ios,read_bytes,write_ios,write_bytes\n");
  }
  for (const RunRecord& run : runs) {
    const RunFigures f = run.figures();
    const double cpu = f.real > 0 ? (f.user + f.sys) / f.real * 100 : 0;
    const double iops = f.real > 0 ? static_cast<double>(run.records_in()) / f.real : 0;
    // Numbers in the shortest form that reads back, as in the JSON.
    put(out, "{},{},{},{},{},{},{},{},{},{},{},{},{},{},", run.settings.ibs, run.depth, pass_name(run.pass), run.index,
        run.warmup ? "true" : "false", cache_mode_name(run.cache), run.result.stats.bytes_out, run.records_in(),
        json::shortest(f.real), json::shortest(f.user), json::shortest(f.sys), json::shortest(cpu),
        json::shortest(f.bytes_per_second), json::shortest(iops));
    if (const std::optional<int> status = run.exit_status()) put(out, "{}", *status);
    // --mix: each side's I/Os (empty without it).
    if (const std::optional<MixResult>& mix = run.result.mix) {
      put(out, ",{},{},{},{},{}\n", mix->choice.read_percent, mix->counts.reads, mix->counts.read_bytes,
          mix->counts.writes, mix->counts.write_bytes);
    } else {
      put(out, ",,,,,\n");
    }
  }
  return text_of(out);
}

std::string timeline_csv(std::span<const RunRecord> runs, bool header) {
  Buffer out;
  if (header) {
    put(out,
        "bs,iodepth,pass,repeat,warmup,sample,end_s,bytes,records,interval_s,interval_bytes,bytes_per_second,iops,"
        "read_p50_ns,read_p99_ns,read_max_ns,write_p50_ns,write_p99_ns,write_max_ns,read_bytes_per_second,"
        "write_bytes_per_second\n");
  }
  auto latency = [&](const std::optional<TimelineLatency>& figures) {
    if (figures) {
      put(out, ",{},{},{}", figures->p50_ns, figures->p99_ns, figures->max_ns);
    } else {
      put(out, ",,,");
    }
  };
  // --mix (one job): each side's rate over the interval (empty without).
  auto mix_rates = [&](const TimelineSample& sample, const TimelineSample& previous) {
    if (const std::optional<SideRates> rates = mix_side_rates(sample, previous)) {
      put(out, ",{},{}", json::shortest(rates->read), json::shortest(rates->write));
    } else {
      put(out, ",,");
    }
  };
  for (const RunRecord& run : runs) {
    if (!run.result.timeline) continue;
    const std::vector<TimelineInterval> intervals = timeline_intervals(*run.result.timeline);
    for (std::size_t i = 0; i < intervals.size(); ++i) {
      const TimelineInterval& interval = intervals[i];
      const TimelineSample& sample = run.result.timeline->samples[i];
      put(out, "{},{},{},{},{},{},{},{},{},{},{},{},{}", run.settings.ibs, run.depth, pass_name(run.pass), run.index,
          run.warmup ? "true" : "false", i + 1, json::shortest(in_seconds(static_cast<double>(sample.end_ns))),
          sample.bytes, sample.records,
          json::shortest(in_seconds(static_cast<double>(interval.end_ns - interval.start_ns))),
          interval.end_bytes - interval.start_bytes, json::shortest(interval.rate), json::shortest(interval.iops));
      latency(sample.read_latency);
      latency(sample.write_latency);
      mix_rates(sample, i > 0 ? run.result.timeline->samples[i - 1] : TimelineSample{});
      put(out, "\n");
    }
  }
  return text_of(out);
}

std::string cache_line(std::string_view program, std::string_view setting, CacheMode mode, const CacheState& state) {
  Buffer out;
  put(out, "{}: ", program);
  if (!setting.empty()) put(out, "{}, ", setting);
  put(out, "cache {}: ", cache_mode_name(mode));
  auto side = [&](std::string_view name, std::string_view does, const std::optional<Residency>& residency) {
    if (!residency) {
      put(out, "{} not measured", name);
      return;
    }
    if (!residency->resident) {
      put(out,
          "{} residency unknown ({} pages: the kernel tells it only to the file's owner or a user who may write it)",
          name, residency->pages);
      return;
    }
    const double percent = residency->pages > 0
                               ? static_cast<double>(*residency->resident) / static_cast<double>(residency->pages) * 100
                               : 0;
    put(out, "{} {:.1f}% resident ({} of the {} pages it {})", name, percent, *residency->resident, residency->pages,
        does);
  };
  side("input", "reads", state.input);
  put(out, ", ");
  side("output", "writes", state.output);
  put(out, "\n");
  return text_of(out);
}

std::string sweep_table(std::string_view program, std::span<const RowRecord> rows, bool utf8, RateUnits units) {
  // An SI rate only when --units asks for one: GNU's summary carries it,
  // and a script's grep for one SI rate must find one.
  const bool si = units == RateUnits::kSi || units == RateUnits::kBoth || units == RateUnits::kAll;
  Buffer out;
  double best = 0;
  for (const RowRecord& row : rows) {
    if (row.summary) best = std::max(best, row.summary->bytes_per_second.median);
  }
  const bool fits = std::any_of(rows.begin(), rows.end(), [](const RowRecord& row) { return !row.fits.empty(); });
  put(out, "{}: {:>6} ", program, "bs");
  if (fits) put(out, "{:<6} ", "fits");
  // "moved", not "bytes": no line before GNU's summary says that word.
  put(out, "{:>5} {:>12} {:>9} {:>9} {:>9} {:>6} ", "depth", "moved", "real", "user", "sys", "cpu%");
  if (si) put(out, "{:>9} ", "MB/s");
  put(out, "{:>9} {:>9}  {}\n", "MiB/s", "IOPS", "rate");
  for (const RowRecord& row : rows) {
    if (!row.summary) continue;  // no counted run: nothing to show
    const RowSummary& s = *row.summary;
    const double real = s.real.median;
    const double rate = s.bytes_per_second.median;
    const double cpu = real > 0 ? (s.user.median + s.sys.median) / real * 100 : 0;
    const double iops = real > 0 ? static_cast<double>(row.records) / real : 0;
    put(out, "{}: {:>6} ", program, bs_text(row.bs));
    if (fits) put(out, "{:<6} ", row.fits);
    put(out, "{:>5} {:>12} {:>9} {:>9} {:>9} {:>6.1f} ", row.depth, row.bytes, duration_text(real),
        duration_text(s.user.median), duration_text(s.sys.median), cpu);
    if (si) put(out, "{:>9.1f} ", rate / 1e6);
    put(out, "{:>9.1f} {:>9.0f}  {}", rate / 1048576.0, iops, bar(best > 0 ? rate / best : 0, utf8));
    if (rate == best && best > 0) put(out, " *best");
    if (row.knee) put(out, " knee");
    put(out, "\n");
  }
  return text_of(out);
}

}  // namespace ddtime
