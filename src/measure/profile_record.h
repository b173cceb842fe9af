// SPDX-License-Identifier: GPL-3.0-or-later
// profile_record — what a --profile run measured, as plain values: the
// parameters every test ran with, and for each test and side its runs and
// the figures the table shows (the median rate with its interval, the best
// run, IOPS, mean and p99 latency). The driver fills it; every report
// (text, JSON, CSV, SVG) reads it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "measure/aggregate.h"
#include "measure/latency.h"
#include "measure/record.h"
#include "model/plan.h"
#include "model/profile.h"

namespace ddtime {

// The side a test runs on: reads, writes, or (--mix) both at once at the
// ratio asked, as CrystalDiskMark's Mix column.
enum class ProfileSide { kRead, kWrite, kMix };
std::string_view profile_side_name(ProfileSide side) noexcept;  // "read", "write", "mix"
// The side a profile's row runs on, from its session row's pass.
constexpr ProfileSide profile_side_of(Pass pass) noexcept {
  return pass == Pass::kWrite ? ProfileSide::kWrite : pass == Pass::kMix ? ProfileSide::kMix : ProfileSide::kRead;
}

// One run of a test: its record whole (every figure a run has), and the
// side whose latency the table shows; the figures are read from it when
// asked, never copied out field by field.
struct ProfileRun {
  RunRecord record = {};
  ProfileSide side = ProfileSide::kRead;

  double bytes_per_second() const noexcept { return record.figures().bytes_per_second; }
  bool warmup() const noexcept { return record.warmup; }
  bool counted() const noexcept { return record.counted(); }  // ran to its end without an error
  // The engine that ran it (io_uring, threads, sync).
  EngineChoice engine() const noexcept { return record.result.engine.kind; }
  std::int64_t bytes() const noexcept { return record.result.stats.bytes_out; }
  std::int64_t real_ns() const noexcept { return record.result.times.real_ns; }  // the measured window
  // Its side's mean and p99, when --latency timed any of its I/Os. A mixed
  // run's mean is over both sides; its p99 is none, as percentiles of two
  // sides do not combine (each side's is in mix_latency).
  std::optional<double> mean_latency_ns() const noexcept;
  std::optional<double> p99_latency_ns() const noexcept;
  // A mixed run: each side's bytes a second over the measured window.
  std::optional<double> mix_bytes_per_second(bool write) const noexcept;
  // A mixed run's side, when --latency timed any of its I/Os.
  const LatencySummary* mix_latency(bool write) const noexcept;
};

// One side of a mixed test: its median rate, and (--latency) the mean of
// the runs' means and the median of their p99s.
struct ProfileMixSide {
  double bytes_per_second = 0;
  std::optional<double> mean_latency_s = std::nullopt;
  std::optional<double> p99_latency_s = std::nullopt;
};

// One test on one side: its runs, and the figures of the measured ones.
struct ProfileRow {
  ProfileTest test = {};
  ProfileSide side = ProfileSide::kRead;
  std::vector<ProfileRun> runs = {};
  std::optional<Figure> rate = std::nullopt;  // over the counted measured runs; absent: none
  double iops = 0;                            // the median rate over the block size
  // By --latency, every job's I/Os timed from submit to reap: the mean of
  // the runs' means, the median of their p99s.
  std::optional<double> mean_latency_s = std::nullopt;
  std::optional<double> p99_latency_s = std::nullopt;
  // A mixed row: each side's figures over the counted runs.
  std::optional<ProfileMixSide> mix_reads = std::nullopt;
  std::optional<ProfileMixSide> mix_writes = std::nullopt;
};

struct ProfileRecord {
  const ProfilePreset* preset = nullptr;
  std::string target = {};    // the file or device measured
  std::int64_t start = 0;     // skip= (if=) or seek= (of=), in bytes
  std::int64_t range = 0;     // bytes every test goes round
  std::int64_t time_ns = 0;   // each run
  unsigned warmup = 0;        // unmeasured runs per test
  unsigned repeat = 0;        // measured runs per test
  std::int64_t pause_ns = 0;  // between tests
  bool direct = false;        // O_DIRECT on the target
  CacheMode cache = CacheMode::kAsIs;
  bool cache_given = false;
  bool writes = false;                          // of=: the range prepared, then read and write rows
  std::optional<unsigned> mix_percent = {};     // --mix: a mix row per test too, reads at this percentage
  std::optional<std::int64_t> prepare_ns = {};  // the unmeasured preparation's time
  std::vector<ProfileRow> rows = {};            // in the order run: reads, then writes
  bool complete = false;                        // every test ran
  std::optional<int> exit_status = {};          // absent when a signal ended it
  int signal = 0;
};

// The row's figures from its runs: the rate's median, interval and best,
// the IOPS, and the latency.
void summarise_profile_row(ProfileRow& row);

// A profile's record as a view of the session it ran as: parameters (the
// profile's), then a row for each of the session's first rows_begun rows
// (a test on a side) with its runs, summarised, and how the session ended.
ProfileRecord profile_of(ProfileRecord parameters, const SessionRecord& session, std::size_t rows_begun);

}  // namespace ddtime
