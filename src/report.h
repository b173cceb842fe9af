// SPDX-License-Identifier: GPL-3.0-or-later
// report — every byte of summary and progress text: GNU's records lines,
// the truncated-records line, the bytes/seconds/rate line with GNU's SI and
// IEC sizes and rounding, and the \r-rewritten status=progress line; and
// ddtime's own timing report and --progress line (report_timing.cc; the
// --json object is report_json.h's). (Stats, times, settings) in, text out; never writes
// anything itself, and whether to print is the caller's decision.
// Every number is formatted without the locale: '.' decimal point, no
// grouping.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "run_times.h"
#include "settings.h"
#include "stats.h"

// The --json document has a header of its own; included here so that what
// reached it through report.h still does.
#include "report_json.h"

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

class Reporter {
 public:
  explicit Reporter(StatusLevel level) noexcept : level_(level) {}

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
  //   "ddtime: 1.2 GiB of 4.0 GiB (30%), 1.5 GB/s, ETA 0:00:02"
  //   "ddtime: 1.2 GiB copied, 1.5 GB/s"            (total unknown)
  // Sizes are stats.bytes_in in IEC units, the rate is bytes_in over
  // elapsed_ns in GNU's SI rate ("Infinity B/s" at 0 ns). The percentage is
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
  StatusLevel level_;
  std::size_t progress_length_ = 0;  // length of the last progress line shown
};

// ddtime's timing report: the lines after GNU's summary, each starting
// "PROGRAM: ". Real/user/sys/cpu, the copy/flush split and the durability
// mode when a flush is in play, read/write time when measured, and the
// rate in the units --units asks for.
//
//   ddtime: real 0.0813 s  user 0.0000 s  sys 0.0811 s  cpu 99.8%
//   ddtime: read 0.0400 s (49.2%)  write 0.0410 s (50.4%)  other 0.0003 s
//   ddtime: 52.9 GB/s = 49.3 GiB/s = 52891030000 B/s; 51637 records/s (19.4 us each)
//   ddtime: durability: conv=fdatasync; data flushed to the device once, ...
//
// Line 1: seconds with 4 decimals, cpu = (user+sys)/real in percent with
// one decimal ("cpu 0.0%" when real is 0; above 100% is possible from
// getrusage's granularity). When a flush call follows the copy, real reads
// "real 7.6100 s (copy 1.2000 s + fdatasync 6.4100 s)", naming the call:
// fdatasync (conv=fdatasync), fsync (conv=fsync), fdatasync+fsync (both,
// GNU calls both), or fsync for oflag=direct alone, where GNU fsyncs after
// dropping O_DIRECT for a final partial block: that case shows the split
// only when stats has a partial output record, since an aligned end makes
// no call.
// oflag=sync/dsync alone make no call after the copy: no split, but the
// durability line. copy and flush are printed as measured; they need not
// add up to real exactly.
// Line 2, only when times.split: percentages of real (one decimal, "0.0%"
// when real is 0); other = real - read - write - flush, never negative.
// Line 3: rate = bytes_out / real_ns, the window GNU's line uses. --units:
// all (default) "SI = IEC = N B/s", both "SI = IEC", si, iec, or bytes
// "N B/s"; SI and IEC with GNU's rounding (human_rate), N the nearest
// integer. Then "; R records/s (T each)" where R counts input records,
// full and partial alike ("1 record/s" when R is 1), rounded to nearest,
// and T = real / records with 3 significant digits in ns, us, ms or s
// ("19.4 us", "1.00 ms", "0.500 ns"; seconds keep every whole digit:
// "1234 s"). No records: no records part. real <= 0: the line is just
// "Infinity B/s", whatever the units.
// Line 4, when conv=fsync/fdatasync or oflag=sync/dsync/direct is given: the
// modes ("oflag=direct,dsync conv=fdatasync") and what they mean, joined
// by "; ", ASCII only.
std::string timing_report(std::string_view program, const Stats& stats, const RunTimes& times,
                          const Settings& settings);

}  // namespace ddtime
