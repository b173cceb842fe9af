// SPDX-License-Identifier: GPL-3.0-or-later
// report_session — ddtime's lines for a session of runs (--repeat,
// --warmup, --sweep): one line per run as it ends, the statistics of each
// row's measured runs, and the sweep table. Figures in, text out; what is
// measured and when is the driver's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "measure/aggregate.h"
#include "measure/cache_state.h"
#include "measure/record.h"
#include "measure/verify.h"
#include "model/run_times.h"
#include "model/settings.h"

namespace ddtime {

// Which run a line is about. setting: "bs=64k depth 4" in a sweep, else
// empty.
struct RunLabel {
  std::string_view setting;
  bool warmup = false;
  unsigned index = 1;  // 1-based, among the row's warm-ups or its measured runs
  unsigned of = 1;
  bool failed = false;  // ended in an error: listed, not a sample of the statistics
};

// A run's figures as a session's lines give them: the rate in the units
// --units names (IEC unless it says otherwise), and with --split-times
// (times.split) the time in reads and in writes.
struct RunLineFigures {
  const RunFigures& run;
  const RunTimes& times;
  RateUnits units = RateUnits::kIecAndBytes;
  bool split_asked = false;                   // --split-times: said even where it was not measured
  std::optional<double> iops = std::nullopt;  // --random: records per second, said after the rate
};

//   ddtime: run 2 of 5: real 0.5123 s  user 0.0010 s  sys 0.5000 s  cpu 97.8%  2.00 GiB/s
//   ddtime: bs=64k depth 4, warm-up 1 of 1: real ... (not counted)
//   ddtime: run 3 of 5: real ... (failed: not counted)
//   ddtime: run 1 of 2: real ...  2.00 GiB/s  read 0.2500 s  write 0.2400 s  other 0.0100 s   (--split-times)
//   ddtime: run 1 of 3: real ...  45.91 MiB/s  11753 IOPS   (--random)
std::string session_run_line(std::string_view program, const RunLabel& label, const RunLineFigures& figures);

// A rate in the units --units names: IEC with two decimals ("2.00 GiB/s")
// by default and for iec, SI for si ("2.15 GB/s"), "2147483648 B/s" for
// bytes, both joined by " = " for both, all three for all.
std::string rate_text(double bytes_per_second, RateUnits units);

// A row's measured runs, each figure on a line: min, median with its 95%
// interval (n/a below 6 runs), mean ± sd, max, and the runs the
// median-absolute-deviation rule flags ("-" for none). utf8: "±" and "–",
// else "+-" and "..".
//
//   ddtime: 5 runs, 1 warm-up not counted        (in a sweep: "ddtime: bs=4k depth 1: 5 runs, ...")
//   ddtime:         min        median     95% interval         mean ± sd               max  outliers
//   ddtime: real    0.5012 s   0.5123 s   n/a                  0.5130 s ± 0.0040 s     0.5201 s  -
//   ddtime: rate    1.95 GiB/s 2.00 GiB/s 1.97–2.02 GiB/s      2.00 GiB/s ± 0.02 GiB/s 2.05 GiB/s  run 4
// units: the rate's, SI for --units=si and B/s for bytes, else IEC.
std::string session_statistics(std::string_view program, std::string_view setting, const RowSummary& row,
                               unsigned warmups, bool utf8, RateUnits units = RateUnits::kIecAndBytes);

// Before a run with --cache: the mode and what was resident, as the run
// began, of the range it reads and the range it writes ("not measured" for
// what is not a file or block device, or not there yet; "residency
// unknown" where the kernel would not tell).
//   ddtime: cache cold: input 0.0% resident (0 of the 65536 pages it reads), output 0.0% resident (0 of the 65536 pages
//   it writes)
std::string cache_line(std::string_view program, std::string_view setting, CacheMode mode, const CacheState& state);

// A readback's passes, each on a line:
//   ddtime: write: real 1.2000 s (copy 1.0000 s + flush 0.2000 s, user 0.0000 s sys 0.0100 s of it)  user 0.0100 s  sys
//   0.5000 s  cpu 42.5%  213.33 MiB/s ddtime: drop cache: 0.0100 s ddtime: read: real 0.9000 s  user 0.0000 s  sys
//   0.3000 s  cpu 33.3%  284.44 MiB/s ddtime: verify: ok, 268435456 bytes compared in 0.8000 s (320.00 MiB/s)
// The copy/flush split, with the flush's own CPU time, shows when a flush
// took time (times.flush_ns > 0).
std::string pass_line(std::string_view program, std::string_view pass, const RunLineFigures& figures);

// --readback's read pass without O_DIRECT, where the range written is no
// multiple of the output's direct I/O alignment:
//   ddtime: read: through the page cache, its pages dropped first: 1000000 B from offset 0 is no multiple of 'out''s
//   direct I/O alignment 512
std::string buffered_read_line(std::string_view program, std::string_view path, std::int64_t bytes, std::int64_t offset,
                               std::int64_t alignment);
std::string drop_line(std::string_view program, std::int64_t ns);
std::string verify_line(std::string_view program, const VerifyOutcome& outcome, std::int64_t ns,
                        RateUnits units = RateUnits::kIecAndBytes);

// --sweep=bs=auto's verdict, after the table:
//   ddtime: knee at bs=256k: doubling it gained under 5% (and under the run-to-run spread) twice
// The spread is named only when it was measured (spread: --repeat of 2 or more).
std::string knee_line(std::string_view program, std::int64_t bs, bool spread);

// SIGUSR1 between runs and passes, where no copy has statistics to give:
// what is going on.
//   ddtime: SIGUSR1 during verify: 64 MiB compared so far
std::string phase_line(std::string_view program, std::string_view phase);

// --pattern, before the first run: the generator's own speed, so that no
// one takes it for the device's.
//   ddtime: pattern random: the generator makes 9.81 GiB/s on one core; a copy from it cannot go much faster
std::string generator_line(std::string_view program, std::string_view pattern, double bytes_per_second,
                           RateUnits units = RateUnits::kIecAndBytes);

// The header line and one line per run:
//   bs,iodepth,pass,repeat,warmup,cache,bytes,records,real_s,user_s,sys_s,cpu_percent,bytes_per_second,iops,exit_status
//   65536,1,copy,1,false,as-is,1048576,16,0.001200000,0.000000000,0.001100000,91.7,873813333.333,13333.333,0
// Seconds with 9 decimals, rates with 3, cpu with 1; exit_status empty
// when a signal ended the run.
// header: false for lines that continue a table already begun.
std::string session_csv(std::span<const RunRecord> runs, bool header = true);
// With --timeline, the CSV is the samples, a line each, in place of a
// line per run: the run's bs, iodepth, pass, repeat and warmup columns,
// then the sample's number, its end, the cumulative bytes and records,
// its interval's length, bytes, rate and IOPS, and with --latency each
// side's p50, p99 and max in ns (empty without). A run without samples
// (a refusal, a snapshot) has no line.
std::string timeline_csv(std::span<const RunRecord> runs, bool header = true);

// A block size as a sweep names it: "4k", "1M", "1000".
std::string bs_text(std::int64_t bs);

// "bs=64k depth 4": which row of a sweep a line is about.
std::string setting_words(std::int64_t bs, unsigned depth);

// A rate in IEC units with two decimals: "2.00 GiB/s", "512.00 B/s".
std::string iec_rate(double bytes_per_second);

// The sweep table, one row per setting with counted runs: bs, depth, bytes, real, user, sys,
// cpu%, MB/s, MiB/s, IOPS (medians when rows have several runs) and a bar
// of the rate, the best rate marked with "*best" (and, for
// --sweep=bs=memory, a "fits" column after bs). utf8: the bar in Unicode
// eighth blocks, else in '#'.
// units: an MB/s column (SI) only with --units=si, both or all.
std::string sweep_table(std::string_view program, std::span<const RowRecord> rows, bool utf8,
                        RateUnits units = RateUnits::kIecAndBytes);

}  // namespace ddtime
