// SPDX-License-Identifier: GPL-3.0-or-later
// report_run — ddtime's own lines, printed before GNU's summary so that
// GNU's lines stay last: the engine that ran (with --iodepth or --engine),
// real/user/sys/cpu with the copy/flush split, read/write time, the rate in
// the units asked for, and what the durability flags mean. (Stats, times,
// settings) in, text out; GNU's sizes and rates come from report.h.
#pragma once

#include <string>
#include <string_view>

#include "model/run_result.h"
#include "model/run_times.h"
#include "model/settings.h"
#include "model/stats.h"

namespace ddtime {

// ddtime's timing report: the lines before GNU's summary, each starting
// "PROGRAM: ". Real/user/sys/cpu, the copy/flush split and the durability
// mode when a flush is in play, read/write time when measured, and the
// rate in the units --units asks for.
//
//   ddtime: real 0.0813 s  user 0.0000 s  sys 0.0811 s  cpu 99.8%
//   ddtime: read 0.0400 s (49.2%)  write 0.0410 s (50.4%)  other 0.0003 s
//   ddtime: 49.3 GiB/s = 52891030000 B/s; 51637 records/s (19.4 us each)
//   ddtime: durability: conv=fdatasync; data flushed to the device once, ...
//
// Line 1: seconds with 4 decimals, cpu = (user+sys)/real in percent with
// one decimal ("cpu 0.0%" when real is 0), the CPU of every thread of the
// process: with the threads engine it may pass 100%, and " over N threads"
// follows (times.threads > 1); with io_uring (threads 0) a figure above
// 100% is followed by " with io_uring's kernel workers". When a flush call
// follows the copy, real reads
// "real 7.6100 s (copy 1.2000 s + fdatasync 6.4100 s)", naming the call:
// fdatasync (conv=fdatasync), fsync (conv=fsync), fdatasync+fsync (both,
// GNU calls both), or fsync for oflag=direct alone, where GNU fsyncs after
// dropping O_DIRECT for a final partial block: that case shows the split
// only when stats has a partial output record, since an aligned end makes
// no call.
// oflag=sync/dsync alone make no call after the copy: no split, but the
// durability line. copy and flush are printed as measured; they need not
// add up to real exactly.
// Line 2, only when times.split (with --split-times and no such
// measurement, a queued engine's, "PROGRAM: read and write time not
// measured: ..." instead): percentages of real (one decimal, "0.0%"
// when real is 0); other = real - read - write - flush, never negative.
// Line 3: rate = bytes_out / real_ns, the window GNU's line uses. --units:
// the default "IEC = N B/s" (GNU's line has the SI rate), all
// "SI = IEC = N B/s", both "SI = IEC", si, iec, or bytes "N B/s"; SI and IEC with GNU's rounding (human_rate), N the
// nearest integer. Then "; R records/s (T each)" where R counts input records, full and partial alike ("1 record/s"
// when R is 1), rounded to nearest, and T = real / records with 3 significant digits in ns, us, ms or s
// ("19.4 us", "1.00 ms", "0.500 ns"; seconds keep every whole digit:
// "1234 s"). No records: no records part. real <= 0: the line is just
// "Infinity B/s", whatever the units.
// Line 4, when conv=fsync/fdatasync or oflag=sync/dsync/direct is given: the
// modes ("oflag=direct,dsync conv=fdatasync") and what they mean, joined
// by "; ", ASCII only.
std::string timing_report(std::string_view program, const Stats& stats, const RunTimes& times,
                          const Settings& settings);

// What ran, one line, with --iodepth or --engine:
//   ddtime: engine io_uring, depth 32 (mean 31.4 in flight), 0.06 system calls per I/O
//   ddtime: engine threads, depth 8 (mean 7.9 in flight), 8 threads; io_uring refused: Operation not permitted
//   ddtime: engine sync, depth 1; the input cannot seek, so it is read one record at a time
std::string engine_line(std::string_view program, const EngineUse& engine);

// --random, first among ddtime's lines: I/Os per second (records over
// real time; each record one read and one write), then the range and the
// order's seed.
//   ddtime: random order: 57100 IOPS, 256 blocks of 4096 B (1.0 MiB) from offset 0, each once; seed 5
//   ddtime: random order: 890 IOPS, 3 blocks of 4096 B and a last one of 100 B (12 KiB) from offset 8192, written from
//   0, each once; seed 7
std::string random_line(std::string_view program, const RandomAccess& access, const Stats& stats, const RunTimes& times,
                        std::int64_t bs);
// The duration as --time and --ramp take it: "2s", "500ms", "1.5m".
std::string option_duration(std::int64_t ns);

// --time, after the random line: how long the measured part ran against
// what was asked, the passes over the range, what ended it, and a ramp's
// unmeasured share.
//   ddtime: timed: 2.000 s of --time=2s, 14.20 passes over 15 blocks of 65536 B (960 KiB); ended by the time limit
//   ddtime: timed: 30.000 s of --time=30s, one pass over an endless range; ended by the time limit
//   ddtime: ramp: 5.000 s first, unmeasured: 81920+0 records, 335544320 B (in no figure here)
std::string timed_lines(std::string_view program, const TimedRun& timed, const RunTimes& times, std::int64_t bs);

// What a --latency duration is, in the words the report, the JSON's
// "definition" and the charts use.
std::string_view latency_definition_words(LatencyDefinition definition) noexcept;

// --latency: a line saying what was timed and how the percentiles were
// found, a line per side, then a power-of-two histogram per side drawn as
// bcc's tools draw them (Unicode blocks; '*' outside UTF-8 locales):
//   ddtime: latency per system call (clock 24 ns a reading, not subtracted): percentiles from every sample
//   ddtime: read  4096 I/Os: min 5.12 us  mean 8.95 us  sd 2.10 us  max 1.20 ms  p50 8.19 us  p90 11.3 us  p99 19.0 us
//   p99.9 150 us  p99.99 n/a ddtime: read latency, ns      : count     distribution ddtime:     4096 -> 8191      :
//   3000      |****************************************|
std::string latency_report(std::string_view program, const LatencyReport& latency, bool utf8);

// --jobs=N's line: the jobs that copied, how far apart they ended, how
// busy their submitting threads were ("CPU-limited" at 90% or more) and
// the process's CPU time per I/O; "" without --jobs.
std::string jobs_line(std::string_view program, const EngineUse& engine, const RunTimes& times, const Stats& stats);

// The process's CPU time per read or write, in seconds; 0 when not measured.
double cpu_per_io(const RunTimes& times, const Stats& stats);

// Why the engine asked for did not run, in words; "" when it did.
std::string engine_fallback(const EngineUse& engine);

// What the engine's ring set up, in words (the JSON's "setup", and the
// engine line's where the engine's ring_registry row asks for it); ""
// for the sync engine:
//   registered buffers, registered files, single issuer, deferred task run
//   8 threads
//   Linux AIO context of 32
std::string engine_setup(const EngineUse& engine);

}  // namespace ddtime
