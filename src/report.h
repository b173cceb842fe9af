// SPDX-License-Identifier: GPL-3.0-or-later
// report — every byte of summary and progress text: GNU's records lines,
// the truncated-records line, the bytes/seconds/rate line with GNU's SI and
// IEC sizes and rounding, and the \r-rewritten status=progress line; and
// ddtime's own timing report, --progress line and --json object
// (report_timing.cc). (Stats, times, settings) in, text out; never writes
// anything itself, and whether to print is the caller's decision.
// Every number is formatted without the locale: '.' decimal point, no
// grouping.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "settings.h"
#include "stats.h"
#include "run_times.h"

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

// One run as a JSON object on one line, '\n'-terminated (--json).
struct JsonRun {
  const Settings& settings;
  const Stats& stats;
  const RunTimes& times;
  bool complete = true;             // false: a SIGUSR1 snapshot mid-copy
  std::optional<int> exit_status;   // absent when not complete or killed
  int signal = 0;                   // the signal ending the run, or 0
  std::span<const std::string> errors;  // every diagnostic line, without prefix
  std::string_view version;
};

// The --json schema, one object on one line (keys always in this order):
//
//   {"tool":"ddtime","version":"0.1.0","complete":true,
//    "operands":{"if":"in.img"|null,"of":null|"...","ibs":512,"obs":512,
//      "cbs":0,"skip":{"records":0,"bytes":0},"seek":{"records":0,"bytes":0},
//      "count":{"records":8|null,"bytes":0},"conv":["ucase"],"iflag":[],
//      "oflag":["direct"],"status":"default"|"none"|"noxfer"|"progress"},
//    "records_in":{"full":8,"partial":0},"records_out":{"full":8,"partial":0},
//    "truncated_records":0,"bytes_in":4096,"bytes_out":4096,
//    "times":{"real":0.081300000,"copy":0.081200000,"flush":0.000000000,
//      "read":0.040000000|null,"write":0.041000000|null,
//      "user":0.000000000,"sys":0.081100000},
//    "rates":{"bytes_per_second":50381.304|null,"records_per_second":98.401|null},
//    "exit_status":0|1|null,"signal":null|"SIGINT","errors":["..."]}
//
// - if/of: null for standard input/output. skip/seek/count: as resolved
//   (whole records of ibs/obs plus leftover bytes); count.records is null
//   without count=. conv/iflag/oflag: the symbols in effect after GNU's
//   implications (conv=ascii lists "ascii","unblock"), in settings.h's
//   declaration order.
// - times in seconds, exactly the nanoseconds with 9 decimals; read/write
//   null unless measured (--split-times).
// - rates: bytes_out and input records (full + partial) over real, rounded
//   to 3 decimals; null when real is 0.
// - exit_status: null when absent (a snapshot, or killed by a signal).
//   signal: null, or the signal's name ("SIGINT"), or its number as a
//   string ("42") when it has no portable name.
// - version: run.version, or the build's version when empty.
std::string json_report(const JsonRun& run);

// text as a JSON string literal, quotes included. '"' and '\\' are
// escaped, control characters (and DEL) as \u00XX; valid UTF-8 passes
// through; any byte that is not part of a valid UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF included) becomes
// \u00XX of the byte, so a file name that is not UTF-8 still gives valid
// JSON, read back as that byte's Latin-1 character.
std::string json_quote(std::string_view text);

}  // namespace ddtime
