// SPDX-License-Identifier: GPL-3.0-or-later
// plan — plain benchmark intent, beside the dd operands: which engine moves
// the bytes and how many I/Os it keeps in flight, how many times the copy
// runs and over which settings. operands fills it in; the session and the
// driver read it. No behaviour lives here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/profile.h"

namespace ddtime {

// --engine=: auto takes io_uring when more than one I/O is to be in flight
// and the kernel allows it, else a pool of threads; libaio is Linux AIO,
// by name only (on zram, a bio-based device, io_uring outran it at depth
// for fio and for us alike); sync is GNU's one system call at a time.
enum class EngineChoice { kAuto, kIoUring, kThreads, kSync, kLibaio };

// --cache=: the page cache each run of a session meets. as-is leaves it
// alone; cold drops the input's and the output's cached pages (those
// files only); cold-system drops every clean page (vm.drop_caches); warm
// reads the input once, unmeasured.
enum class CacheMode { kAsIs, kCold, kColdSystem, kWarm };

// --pattern=: what the generator in place of if= makes (pattern.h).
enum class PatternKind { kByte, kRandom, kStamp };
struct PatternSpec {
  PatternKind kind = PatternKind::kByte;
  unsigned char byte = 0;  // kByte: zero 0x00, ones 0xff, 0xHH
};

// --json, --csv, --svg, --openmetrics: a report asked for, named by its
// option's word (the formats' table is report/output_formats.cc), with its
// PATH; none: it takes the place of the text on standard error.
struct OutputRequest {
  std::string format;
  std::optional<std::string> path;
};

struct Plan {
  EngineChoice engine = EngineChoice::kAuto;
  unsigned iodepth = 1;  // --iodepth=N, 1..kMaxIodepth
  // --jobs=N: N submitters, each with its own ring and iodepth slots,
  // sharing the range (1..kMaxJobs).
  unsigned jobs = 1;
  bool iodepth_given = false;
  bool engine_given = false;  // --engine, even --engine=sync or auto

  unsigned repeat = 1;  // --repeat=N: measured runs per setting
  unsigned warmup = 0;  // --warmup=M: unmeasured runs before them
  // Given on the command line: --profile's own defaults (3 and 1) apply
  // only when not.
  bool repeat_given = false;
  bool warmup_given = false;
  // --profile=NAME: the preset's tests in place of one copy (null: none).
  const ProfilePreset* profile = nullptr;
  std::optional<std::int64_t> pause_ns;  // --pause=DURATION: between a profile's tests
  // --sweep=bs=LIST and --sweep=iodepth=LIST: one row per setting (both:
  // every pair, bs outermost). Empty: the command line's own.
  std::vector<std::int64_t> sweep_bs;
  std::vector<unsigned> sweep_iodepth;
  bool sweep_bs_auto = false;        // --sweep=bs=auto: double bs= until it stops paying
  bool sweep_bs_memory = false;      // --sweep=bs=memory: /dev/zero to /dev/null, 4k to 4x the last-level cache
  std::optional<std::int64_t> size;  // --size=BYTES: what every row moves
  bool readback = false;             // --readback: write, drop the output's cache, read it back
  bool verify = false;               // --verify: compare what was read back (implies readback)
  bool preallocate = false;          // --preallocate: reserve the output and write its last block first
  CacheMode cache = CacheMode::kAsIs;
  bool cache_given = false;                  // --cache=, even as-is: residency is measured and shown
  std::optional<PatternSpec> pattern;        // --pattern=: a generator in place of if=
  std::optional<unsigned> mix;               // --mix=PERCENT: of='s reads and writes at once, PERCENT reads
  bool force = false;                        // --force: write to a device that is mounted or in use
  bool latency = false;                      // --latency: every read and write timed
  bool random = false;                       // --random[=SEED]: the range's blocks in a random order
  std::optional<std::uint64_t> random_seed;  // its seed: given, or drawn before resolve
  // --time=DURATION: each run lasts that long, going over its range again
  // as often as it needs; count= or --size sets the range, not the total.
  std::optional<std::int64_t> time_ns;
  std::int64_t ramp_ns = 0;                          // --ramp=DURATION: copied first, unmeasured (with --time)
  bool timeline = false;                             // --timeline[=INTERVAL]: the rate sampled over the run
  std::optional<std::int64_t> timeline_interval_ns;  // its INTERVAL; absent: chosen per run
  // --steady[=LIMIT]: a --time run ends once steady by both of fio's
  // definitions, deviation within LIMIT percent, slope within LIMIT/10.
  std::optional<double> steady_percent;
  // The reports asked for, each format once (the last PATH given wins).
  std::vector<OutputRequest> outputs;
  // --capacity: probe what of= really holds (quick, as f3probe) instead of
  // copying; --keep: save the blocks it overwrites and write them back.
  // capacity_full (--capacity=full): write and verify every block, as
  // f3write and f3read.
  bool capacity = false;
  bool capacity_full = false;
  bool keep = false;
  // --compare: the JSON documents named on the command line, the first the
  // baseline; nothing is copied.
  bool compare = false;
  std::vector<std::string> documents;

  static constexpr unsigned kMaxIodepth = 1024;
  static constexpr unsigned kMaxJobs = 64;
  static constexpr unsigned kMaxRuns = 100000;

  // Whether the queued engine is asked for: more than one I/O in flight,
  // more than one job, or a queued engine named outright (io_uring or
  // threads at depth 1, to compare with sync). At depth 1 `auto` is the
  // synchronous engine, --random included (by pread and pwrite): one
  // system call a side, as dd and fio's psync, where io_uring hands each
  // read of a device that cannot take it without blocking (zram, a loop
  // device) to a kernel worker, a context switch per I/O.
  bool queued() const noexcept {
    return engine != EngineChoice::kSync && (iodepth > 1 || jobs > 1 || engine != EngineChoice::kAuto);
  }

  // Whether the report has an engine line and the JSON an engine object:
  // whenever the engine or the depth was asked about, and for --random,
  // whose engine is chosen by its depth.
  bool shows_engine() const noexcept {
    return queued() || random || iodepth_given || engine_given || jobs > 1 || !sweep_iodepth.empty();
  }

  // How many I/Os a job of the queued copy can have in flight at depth:
  // never more than its part of a range of range_bytes in blocks of ibs
  // has records (an endless range: depth). Its slots, and the threads
  // engine's workers, are that many (rule 3 of issue 28).
  std::size_t slots_per_job(std::optional<std::int64_t> range_bytes, std::int64_t ibs, unsigned depth) const noexcept {
    if (!range_bytes || ibs <= 0) return depth;
    const std::int64_t records = *range_bytes / ibs + (*range_bytes % ibs != 0 ? 1 : 0);
    const std::int64_t per_job = (records + jobs - 1) / jobs;
    const auto most = static_cast<std::int64_t>(depth);
    return static_cast<std::size_t>(per_job < 1 ? 1 : per_job < most ? per_job : most);
  }

  // The report of format asked for, or null.
  const OutputRequest* output(std::string_view format) const noexcept {
    for (const OutputRequest& asked : outputs) {
      if (asked.format == format) return &asked;
    }
    return nullptr;
  }
  // Whether format's report takes the place of the text on standard error.
  bool on_stderr(std::string_view format) const noexcept {
    const OutputRequest* asked = output(format);
    return asked != nullptr && !asked->path;
  }
  // Asks for format's report, in place of an earlier request for it.
  void ask_output(std::string_view format, std::optional<std::string> path) {
    for (OutputRequest& asked : outputs) {
      if (asked.format == format) {
        asked.path = std::move(path);
        return;
      }
    }
    outputs.push_back({std::string(format), std::move(path)});
  }

  // Whether --sweep=bs= asks for rows of block sizes (a list, auto or memory).
  bool sweeps_bs() const noexcept { return !sweep_bs.empty() || sweep_bs_auto || sweep_bs_memory; }

  // Whether the copy runs more than once, or as a session for another
  // reason (--cache, --csv, --pattern): a session of runs, each a value the
  // driver aggregates.
  bool session() const noexcept {
    return repeat > 1 || warmup > 0 || !sweep_bs.empty() || !sweep_iodepth.empty() || sweep_bs_auto ||
           sweep_bs_memory || cache_given || output("csv") != nullptr || pattern.has_value();
  }
};

}  // namespace ddtime
