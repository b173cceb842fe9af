// SPDX-License-Identifier: GPL-3.0-or-later
// report_json — the --json document: one run's operands, counters, times
// and outcome, in the schema below, written with the json writer (which
// owns the syntax). (Settings, stats, times) in, text out; whether and
// where it is written is the caller's decision.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "measure/record.h"
#include "model/environment_facts.h"
#include "report/json.h"

namespace ddtime {

// One run as a JSON object on one line, '\n'-terminated (--json), from
// its record: complete is false for a SIGUSR1 snapshot (pass kSnapshot) or
// a run stopped by a signal; the engine is there when the record shows it.
// The --json schema, one object on one line (keys always in this order):
//
//   {"tool":"ddtime","version":"0.1.0","environment":{...},"complete":true,"phase":"..."|absent,
//    "operands":{"if":"in.img"|null,"of":null|"...","ibs":512,"obs":512,
//      "cbs":0,"skip":{"records":0,"bytes":0},"seek":{"records":0,"bytes":0},
//      "count":{"records":8|null,"bytes":0},"conv":["ucase"],"iflag":[],
//      "oflag":["direct"],"status":"default"|"none"|"noxfer"|"progress"},
//    "records_in":{"full":8,"partial":0},"records_out":{"full":8,"partial":0},
//    "truncated_records":0,"bytes_in":4096,"bytes_out":4096,
//    "times":{"real":0.081300000,"copy":0.081200000,"flush":0.002000000|null,
//      "read":0.040000000|null,"write":0.041000000|null,
//      "user":0.000000000,"sys":0.081100000},
//    "rates":{"bytes_per_second":50381.304|null,"records_per_second":98.401|null},
//    "exit_status":0|1|null,"signal":null|"SIGINT","errors":["..."]}
//
// - if/of: null for standard input/output; with --pattern if is /dev/zero,
//   opened and never read. skip/seek/count: as resolved
//   (whole records of ibs/obs plus leftover bytes); count.records is null
//   without count=. conv/iflag/oflag: the symbols in effect after GNU's
//   implications (conv=ascii lists "ascii","unblock"), in settings.h's
//   declaration order.
// - times in seconds, exactly the nanoseconds with 9 decimals. What was
//   not measured is null, never 0: read/write unless --split-times timed
//   them, flush unless a flush call followed the copy, and every time of
//   a run that ended before its window opened (a file that would not
//   open, a refused operand).
// - rates: bytes_out and input records (full + partial) over real, rounded
//   to 3 decimals; null when real is 0 or was not measured.
// - complete: false for a SIGUSR1 snapshot; phase (snapshots only) says
//   what was going on when the signal came outside the copy ("the
//   generator's calibration"), the figures then those of a copy not begun.
// - exit_status: null when absent (a snapshot, or killed by a signal).
//   signal: null, or the signal's name ("SIGINT"), or its number as a
//   string ("42") when it has no portable name.
// - Strings are escaped as json::Writer does (json.h), so a file name that
//   is not UTF-8 still gives valid JSON, with U+FFFD for each byte that is
//   not; operands then add "if_hex" (after "if") or "of_hex" (after "of"):
//   the name's bytes in lower-case hex, present only for such a name.
// - version: the version given, or the build's version when empty.
// - environment: the machine, the command line, the date and the files
//   (report_environment_json.h), with the seeds the run used: --random's
//   order seed and --pattern's seed from the record, else the
//   environment's own.
// - With --latency, a last key "latency":
//     {"clock_cost_ns":24.1,"definition":"system call"|"system call, from
//      the end of the one before"|"submit to reap","between_calls_ns":21.5
//      (chained only; null when none was sampled),"exact":true,"read":{"count":4096,"min_ns":5120,"mean_ns":8950.2,
//        "sd_ns":2100.5,"max_ns":1200000,"percentiles_ns":{"50":8190,
//        "90":11300,"99":19000,"99.9":150000,"99.99":null},
//        "histogram":[{"le_ns":8191,"count":3000},...]},"write":{...}}
//   A percentile the count cannot support is null; exact is false when
//   the percentiles came from the histogram.
// - With --random, after them: "access":"random","order_seed":12345,
//   "range":{"input_offset":0,"output_offset":0,"bytes":1048576,
//   "blocks":256}: the order's seed (not --pattern's "seed" of a session
//   run) and the range it was drawn over, its whole blocks each visited
//   once; a partial last block, if any, came last.
std::string json_report(const RunRecord& run, const Environment& environment, std::string_view version = {});

// A session of runs (--repeat, --warmup, --sweep) as one document:
//
//   {"schema":1,"tool":"ddtime","version":"0.1.0","environment":{...},"complete":true,
//    "phase":"..."|absent,
//    "plan":{"repeat":5,"warmup":1,"sweep":{"bs":[4096,65536]|null,
//      "iodepth":[1,8]|null},"size":268435456|null,
//      "pattern":null|{"name":"random","generator_bytes_per_second":1.0e10}},
//    "runs":[{...one run as above...,"bs":4096,"iodepth":1,"pass":"copy",
//      "repeat":1,"warmup":false,"counted":true,"cache":"as-is",
//      "residency":{"input":{"resident_pages":0,"pages":64}|null,
//        "output":{...}|null}|null,"seed":12345|absent}, ...],
//    "summary":[{"bs":4096,"iodepth":1,"pass":"copy","runs":5,"knee":false,
//      "real":{"min":0.5,"median":0.51,"median_ci95":[0.5,0.52]|null,
//        "mean":0.51,"sd":0.004,"max":0.52,"outliers":[4]},
//      "user":{...},"sys":{...},"bytes_per_second":{...},
//      "latency":{...as a run's, its runs merged}|absent}, ...],
//    "exit_status":0|1|null,"signal":null|"SIGINT"}
//
// - environment: as a run's, once for the session (its runs have none), its
//   seeds the first run's that has one; each run keeps its own "seed".
// - complete: false for a SIGUSR1 snapshot outside a copy (between runs,
//   in the verify pass), with phase saying what was going on, the runs
//   finished so far and an empty summary.
// - runs: warm-ups too, in the order run; "repeat" counts from 1 within
//   the row's warm-ups or its measured runs. "counted" is false for a run
//   that failed or was stopped by a signal: listed, never a sample of the
//   summary. residency: null without
//   --cache; a side is null when it is not a file or block device (or not
//   there yet).
// - --readback: two runs, "pass":"write" then "pass":"read"; the write
//   run adds "flush_user_seconds" and "flush_sys_seconds", the CPU time of
//   its fdatasync (times.flush is its clock time); the read
//   run adds "drop_cache_seconds" (the drop before it) and, with --verify,
//   "verify":"ok"|"mismatch", "first_bad_offset" (null when ok) and
//   "verify_seconds"; other runs have none of these three keys.
// - summary: one object per row that has measured runs, in the order of
//   the rows; seconds with 9 decimals, bytes_per_second with 3; the
//   outliers are the 1-based numbers of the measured runs the MAD rule
//   flags; median_ci95 is null below 6 runs.
std::string json_session_report(const SessionRecord& session, const Environment& environment,
                                std::string_view version = {});

// A command refused before anything ran (a bad option, a conflict, a
// report path that aliases a data file), with --json on standard error,
// where JSON replaces all text, diagnostics included. One object on one
// line:
//   {"tool":"ddtime","version":"0.1.0","environment":{...},"complete":false,
//    "refused":true,"exit_status":1,"signal":null,"errors":["..."]}
std::string json_refusal(std::span<const std::string> errors, const Environment& environment, std::string_view version);

// The document for a command that failed where nothing else could report
// it (an exception that unwound to main): as a refusal's, with
// "refused": false, since work may have been done.
std::string json_failure(std::span<const std::string> errors, const Environment& environment, std::string_view version);

// The same with no environment, made without the heap, for when memory
// is what failed: "memory exhausted".
std::string_view json_memory_exhausted() noexcept;

// text as a JSON string literal, quotes included. '"' and '\\' are
// escaped, control characters (and DEL) as \u00XX; valid UTF-8 passes
// through; any byte that is not part of a valid UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF included) becomes
// \ufffd, so a file name that is not UTF-8 still gives valid JSON, read
// back as plainly not the name given (operands then add its hex).
std::string json_quote(std::string_view text);

// "signal": null (0), the signal's name ("SIGINT"), or its number as a
// string where it has no name; every document (run, session, profile).
void put_signal(json::Object& object, int signal);

// The version a document names: version, or the build's when empty.
std::string_view version_or_build(std::string_view version);

}  // namespace ddtime
