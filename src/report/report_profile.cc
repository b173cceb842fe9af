// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "model/units.h"
#include "report/report.h"

namespace ddtime {
namespace {

constexpr double kMegabyte = 1e6;  // MB/s = 1,000,000 B/s, as CrystalDiskMark states
// The bars: six decades, 1 MB/s to 1 TB/s, two characters a decade.
constexpr int kBarWidth = 12;
// A mark for each half decade the rate reaches, rounded to the nearest:
// 10^(1/4), 10^(3/4), ... 10^(23/4) MB/s. A table rather than log10, which
// would make ddtime need libm (it needs only libc: tests/link).
constexpr std::array<double, kBarWidth> kMarkThresholds = {1.7782794100389228, 5.623413251903491,  17.78279410038923,
                                                           56.23413251903491,  177.82794100389228, 562.3413251903491,
                                                           1778.2794100389228, 5623.413251903491,  17782.794100389227,
                                                           56234.13251903491,  177827.94100389228, 562341.3251903491};

// The table's rate unit: CrystalDiskMark's MB/s, or what --units asks for,
// and the bars' six decades in the same unit (issue 28, B11).
struct RateUnit {
  std::string_view name;
  double bytes;
  std::string_view definition;
  double bar_start;             // bytes a second where the bars' first decade starts
  std::string_view bar_scale;   // the title's words for the six decades
  std::string_view bar_column;  // the bars' column heading
};

RateUnit rate_unit(std::optional<RateUnits> units) {
  if (units == RateUnits::kIec || units == RateUnits::kIecAndBytes) {
    return {"MiB/s", 1048576.0, "MiB/s = 1,048,576 B/s", 1048576.0, "1 MiB/s to 10^6 MiB/s", "MiB/s 1..1e6"};
  }
  if (units == RateUnits::kBytes) {
    return {"B/s", 1.0, "B/s = bytes a second", kMegabyte, "10^6 B/s to 10^12 B/s", "B/s 1e6..1e12"};
  }
  return {"MB/s", kMegabyte, "MB/s = 1,000,000 B/s", kMegabyte, "1 MB/s to 1 TB/s", "1M..1T (log)"};
}

std::string bar(const std::optional<Figure>& rate, const RateUnit& unit, bool utf8) {
  if (!rate || rate->median <= 0) return std::string(kBarWidth, ' ');
  const double megabytes_per_second = rate->median / unit.bar_start;  // in the first decade's units
  const auto reached = std::count_if(kMarkThresholds.begin(), kMarkThresholds.end(),
                                     [&](double threshold) { return megabytes_per_second >= threshold; });
  // At least one mark for anything measured, even below 1 MB/s.
  const int marks = std::max(1, static_cast<int>(reached));
  std::string drawn;
  for (int i = 0; i < marks; ++i) drawn += utf8 ? "\u2588" : "#";
  return drawn + std::string(static_cast<std::size_t>(kBarWidth - marks), ' ');
}

std::string in_unit(double bytes_per_second, const RateUnit& unit) {
  const double value = bytes_per_second / unit.bytes;
  return value >= 100 ? fmt::format("{:.0f}", value)
         : value >= 1 ? fmt::format("{:.1f}", value)
                      : fmt::format("{:.3f}", value);
}

// The median, its interval when there are runs enough, the best run.
std::string rate_cell(const std::optional<Figure>& rate, const RateUnit& unit) {
  if (!rate) return "n/a";
  std::string cell = in_unit(rate->median, unit);
  if (rate->median_low && rate->median_high) {
    cell += fmt::format(" [{}-{}]", in_unit(*rate->median_low, unit), in_unit(*rate->median_high, unit));
  }
  return cell + fmt::format(" ({})", in_unit(rate->max, unit));
}

std::string seconds_cell(const std::optional<double>& seconds) {
  if (!seconds) return "n/a";
  const double s = *seconds;
  if (s >= 1) return fmt::format("{:.2f}s", s);
  if (s >= 1e-3) return fmt::format("{:.2f}ms", s * 1e3);
  return fmt::format("{:.1f}us", s * 1e6);
}

std::string iops_cell(const ProfileRow& row) { return row.rate ? fmt::format("{:.0f}", row.iops) : "n/a"; }

std::string mean_cell(const ProfileRow& row) { return seconds_cell(row.mean_latency_s); }

// The columns of one side: the rate, IOPS, mean, p99, the bar.
std::array<std::string, 5> side_cells(const ProfileRow* row, const RateUnit& unit, bool utf8) {
  if (row == nullptr) return {"-", "-", "-", "-", std::string(kBarWidth, ' ')};
  return {rate_cell(row->rate, unit), iops_cell(*row), mean_cell(*row), seconds_cell(row->p99_latency_s),
          bar(row->rate, unit, utf8)};
}

const ProfileRow* find_row(const ProfileRecord& record, std::string_view label, ProfileSide side) {
  for (const ProfileRow& row : record.rows) {
    if (row.test.label == label && row.side == side) return &row;
  }
  return nullptr;
}

// The sides the table shows: reads, then (of=) writes, then (--mix) mixes.
std::vector<ProfileSide> shown_sides(const ProfileRecord& record) {
  std::vector<ProfileSide> sides{ProfileSide::kRead};
  if (record.writes) sides.push_back(ProfileSide::kWrite);
  if (record.writes && record.mix_percent) sides.push_back(ProfileSide::kMix);
  return sides;
}

using Line = std::vector<std::string>;

std::vector<Line> table_lines(const ProfileRecord& record, const RateUnit& unit, bool utf8) {
  std::vector<Line> lines;
  const std::string bars(unit.bar_column);
  Line header{"test"};
  for (const ProfileSide side : shown_sides(record)) {
    header.insert(header.end(),
                  {fmt::format("{} {}", profile_side_name(side), unit.name), "IOPS", "mean", "p99", bars});
  }
  lines.push_back(header);
  for (const ProfileTest& test : record.preset->tests) {
    Line line{std::string(test.label)};
    for (const ProfileSide side : shown_sides(record)) {
      const std::array<std::string, 5> cells = side_cells(find_row(record, test.label, side), unit, utf8);
      line.insert(line.end(), cells.begin(), cells.end());
    }
    lines.push_back(line);
  }
  return lines;
}

std::string padded(const std::string& text, std::size_t width, bool left) {
  const std::string fill(width - std::min(width, columns_of(text)), ' ');
  return left ? text + fill : fill + text;
}

std::string aligned(const std::vector<Line>& lines) {
  std::vector<std::size_t> widths(lines.front().size(), 0);
  for (const Line& line : lines) {
    for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], columns_of(line[i]));
  }
  std::string text;
  for (const Line& line : lines) {
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
      // The test's name and the bars read from the left, figures from the right.
      const bool left = i == 0 || (i % 5 == 0);
      out += i == 0 ? "" : (i % 5 == 1 ? "   " : "  ");
      out += padded(line[i], widths[i], left);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    text += out + '\n';
  }
  return text;
}

std::string range_words(std::int64_t bytes) {
  if (bytes >= (std::int64_t{1} << 30) && bytes % (std::int64_t{1} << 30) == 0) {
    return fmt::format("{} GiB", bytes >> 30);
  }
  if (bytes >= (std::int64_t{1} << 20) && bytes % (std::int64_t{1} << 20) == 0) {
    return fmt::format("{} MiB", bytes >> 20);
  }
  return fmt::format("{} B", bytes);
}

std::string duration_words(std::int64_t ns) {
  if (ns == 0) return "none";
  if (ns % kNanosecondsPerSecond == 0) return fmt::format("{} s", ns / kNanosecondsPerSecond);
  return fmt::format("{} ms", ns / 1'000'000);
}

std::string cache_words(const ProfileRecord& record) {
  if (!record.cache_given) {
    return record.direct ? "uncached: O_DIRECT, as CrystalDiskMark and KDiskMark"
                         : "O_DIRECT refused by the target: page cache as-is";
  }
  constexpr std::array<const char*, 4> kWords = {"as-is", "cold", "cold-system", "warm"};
  return fmt::format("through the page cache, --cache={} before each run",
                     kWords[static_cast<std::size_t>(record.cache)]);
}

std::string footer(const ProfileRecord& record, const RateUnit& unit) {
  std::string text = fmt::format("profile: {}; range: {} of {} from offset {}\n", record.preset->name,
                                 range_words(record.range), record.target, record.start);
  text += fmt::format("each test: {} warm-up run{} (unmeasured), then {} run{} of {}; pause between tests: {}\n",
                      record.warmup, record.warmup == 1 ? "" : "s", record.repeat, record.repeat == 1 ? "" : "s",
                      duration_words(record.time_ns), duration_words(record.pause_ns));
  text += fmt::format("cache: {}\n", cache_words(record));
  if (record.writes) {
    text +=
        fmt::format("data: random (--pattern=random); the range written once first in 1 MiB blocks, unmeasured{}\n",
                    record.prepare_ns ? fmt::format(" ({:.2f} s)", in_seconds(static_cast<double>(*record.prepare_ns)))
                                      : std::string());
    text += record.mix_percent ? "order: the read tests (of the range written), then the write tests, then the mixes\n"
                               : "order: the read tests (of the range written), then the write tests\n";
  }
  if (record.mix_percent) {
    // CrystalDiskMark's Mix setting: the ratio, and what the column holds.
    text += fmt::format(
        "mix: each I/O a read with probability {}%, else a write (--mix={}); the column is both sides together,\n"
        "  its mean over every I/O; p99 is each side's own, in the JSON (percentiles of two sides do not add)\n",
        *record.mix_percent, *record.mix_percent);
  }
  // The interval is shown only from 6 runs (aggregate's rule): with fewer,
  // say so rather than a bracket the table never shows.
  text += fmt::format("{}: median of {} run{}{} (best run in parentheses:\n", unit.definition, record.repeat,
                      record.repeat == 1 ? "" : "s",
                      record.repeat >= 6 ? " [its 95% interval]" : "; the 95% interval needs 6 or more runs");
  text += "  CrystalDiskMark's figure; KDiskMark's is the mean); IOPS = median rate / block size\n";
  text += "latency: mean and p99 per I/O, submit to reap, every job's I/Os (--latency; mean of the runs' means,\n";
  text += "  median of their p99s)\n";
  return text;
}

}  // namespace

std::string profile_step_line(std::string_view program, std::string_view name, std::string_view step,
                              std::size_t& shown) {
  std::string line = fmt::format("\r{}: --profile={}: {} ...", program, name, step);
  const std::size_t width = columns_of(line) - 1;
  if (width < shown) line.append(shown - width, ' ');
  shown = width;
  return line;
}

std::string profile_step_cleared(std::size_t& shown) {
  std::string text = "\r" + std::string(shown, ' ') + "\r";
  shown = 0;
  return text;
}

std::string profile_table(const ProfileRecord& record, const ProfileLook& look) {
  const RateUnit unit = rate_unit(look.units);
  std::string text = fmt::format("{}: {} (bars: log scale, {})\n", record.preset->name, record.target, unit.bar_scale);
  text += aligned(table_lines(record, unit, look.utf8));
  if (!record.complete) text += "(incomplete: the tests marked - did not run)\n";
  return text + footer(record, unit);
}

}  // namespace ddtime
