// SPDX-License-Identifier: GPL-3.0-or-later
// report — every byte of summary and progress text: GNU's records lines,
// the truncated-records line, the bytes/seconds/rate line with GNU's SI and
// IEC sizes and rounding, the \r-rewritten status=progress line, and
// ddtime's --progress line, which shares its line state. (Stats, settings)
// in, text out; never writes anything itself, and whether to print is the
// caller's decision. ddtime's timing lines are report_run's, the --json
// document report_json's. Every number is formatted without the locale:
// '.' decimal point, no grouping.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/settings.h"
#include "model/stats.h"

namespace ddtime {

// GNU's human_readable() for a byte count: "4.3 GB" (si) or "4.0 GiB" (iec);
// below the first prefix just "999 B" / "1000 B".
// Requires: bytes >= 0.
std::string human_size(std::int64_t bytes, bool si);

// The bytes line without its line ending:
// "4294967296 bytes (4.3 GB, 4.0 GiB) copied, 0.0812 s, 52.9 GB/s".
// elapsed_ns <= 0 gives "Infinity B/s". progress_style prints the seconds as
// GNU's progress line does.
// Requires: bytes >= 0.
std::string transfer_line(std::int64_t bytes, std::int64_t elapsed_ns, bool progress_style);

// bytes per second as GNU's rate: "52.9 GB/s" (si), and the same rounding
// rules with powers of 1024 for "49.3 GiB/s" (iec). elapsed_ns <= 0 gives
// "Infinity B/s".
// Requires: bytes >= 0.
std::string human_rate(std::int64_t bytes, std::int64_t elapsed_ns, bool si);

// A duration as ddtime's lines write it: seconds with four decimals from
// a millisecond up ("0.0813 s", "12.3456 s"), and below that three
// significant digits in us or ns ("812 us", "43.2 us", "950 ns"), so that
// a short run never reads 0.0000 s; "0 s" for nothing at all, and a
// negative duration (a clock that went backwards) counts as 0.
std::string duration_text(std::int64_t ns);
// The same for seconds as a double (statistics of runs).
std::string duration_text(double seconds);

// The columns a text takes on a terminal: each UTF-8 character one (a
// bar's block is three bytes and one column).
std::size_t columns_of(std::string_view text) noexcept;

// bytes per elapsed_ns in the units --units names, as the timing report
// gives them: "52.9 GB/s" (si), "49.3 GiB/s" (iec), "52.9 GB/s = 49.3 GiB/s"
// (both), "52891030000 B/s" (bytes), all three joined by " = " (all), and
// IEC then bytes for the default. "Infinity B/s" at 0 ns.
std::string rate_in_units(std::int64_t bytes, std::int64_t elapsed_ns, RateUnits units);

class Reporter {
 public:
  // units: the --progress line's rate (extended_progress).
  explicit Reporter(StatusLevel level, RateUnits units = RateUnits::kIecAndBytes) noexcept
      : level_(level), units_(units) {}

  // What GNU prints at the end, on SIGUSR1/SIGINT, and after each read error
  // under conv=noerror: a newline ending any progress line, the records
  // lines, the truncated line, then (unless noxfer) the bytes line.
  // Empty for status=none.
  std::string summary(const Stats& stats, std::int64_t elapsed_ns);

  // A newline when a progress line is still open, so that lines printed
  // before the summary start on a line of their own; "" otherwise.
  std::string end_progress_line();

  // One status=progress update: "\r" + bytes line, padded with spaces to
  // cover a longer previous line.
  std::string progress(const Stats& stats, std::int64_t elapsed_ns);

  // One --progress update (ddtime's own): bytes read so far, and when the
  // total is known the percentage and the time left. On a terminal it
  // rewrites one line like status=progress; otherwise one line per update.
  //   "ddtime: 1.2 GiB of 4.0 GiB (30%), 1.4 GiB/s, ETA 0:00:02"
  //   "ddtime: 1.2 GiB so far, 1.4 GiB/s"            (total unknown)
  // Sizes are stats.bytes_in in IEC units, the rate is bytes_in over
  // elapsed_ns with GNU's rounding, in the units --units names (IEC unless
  // it says si, both, bytes or all; "Infinity B/s" at 0 ns). Never the
  // words a script greps GNU's summary for ("copied", "bytes"). The percentage is
  // rounded down and capped at 100 (a total of 0 is 100%). ETA is H:MM:SS
  // (hours unbounded) from the average rate so far, rounded up so that
  // 0:00:00 means done; "ETA -:--:--" while nothing has been read or no time
  // has passed.
  // terminal: "\r" + line, padded with spaces over a longer previous line;
  // shares the remembered length with progress(), so summary() still ends
  // the line with "\n". Otherwise: the line + "\n", never padded, and
  // summary() adds no newline (one is added first if a \r line is open).
  // Printed whatever status= says: --progress is asked for by name.
  std::string extended_progress(std::string_view program, const Stats& stats, std::int64_t elapsed_ns,
                                std::optional<std::int64_t> total_bytes, bool terminal);

 private:
  // One rate for the --progress line: IEC by default, as the report's.
  std::string progress_rate(std::int64_t bytes, std::int64_t elapsed_ns) const {
    return rate_in_units(bytes, elapsed_ns, units_ == RateUnits::kIecAndBytes ? RateUnits::kIec : units_);
  }

  StatusLevel level_;
  RateUnits units_;
  std::size_t progress_length_ = 0;  // length of the last progress line shown
};

}  // namespace ddtime
