// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/record.h"

#include <algorithm>
#include <utility>

#include "measure/latency.h"
#include "model/units.h"

namespace ddtime {

std::string_view pass_name(Pass pass) noexcept {
  switch (pass) {
    case Pass::kWrite:
      return "write";
    case Pass::kRead:
      return "read";
    case Pass::kMix:
      return "mix";
    case Pass::kSnapshot:
      return "snapshot";
    case Pass::kCopy:
      break;
  }
  return "copy";
}

RunFigures RunRecord::figures() const noexcept {
  RunFigures figures;
  figures.real = in_seconds(static_cast<double>(result.times.real_ns));
  figures.user = in_seconds(static_cast<double>(result.times.user_ns));
  figures.sys = in_seconds(static_cast<double>(result.times.sys_ns));
  const double bytes = result.stats.bytes_out > 0 ? static_cast<double>(result.stats.bytes_out) : 0;
  figures.bytes_per_second = figures.real > 0 ? bytes / figures.real : 0;
  return figures;
}

namespace {

// The runs a row's summary is of: measured (not warm-ups) and counted.
bool sample_of(const RunRecord& run, std::size_t row) noexcept {
  return run.row == row && !run.warmup && run.counted();
}

}  // namespace

std::optional<LatencyReport> merged_latency(const SessionRecord& session, std::size_t row) {
  // Exact percentiles for the row while its samples together stay within
  // a few million; the histogram beyond.
  constexpr std::size_t kMostMerged = 4'000'000;
  std::size_t reads = 0;
  std::size_t writes = 0;
  double ns_per_tick = 0;
  double clock_cost = 0;
  double between_calls = 0;
  std::size_t gaps_measured = 0;
  std::size_t measured = 0;
  LatencyDefinition definition = LatencyDefinition::kPerCall;
  for (const RunRecord& run : session.runs) {
    if (run.row != row || run.warmup || !run.result.latency_samples || !run.result.latency) continue;
    reads += run.result.latency_samples->reads.kept();
    writes += run.result.latency_samples->writes.kept();
    ns_per_tick += run.result.latency_ns_per_tick;
    clock_cost += run.result.latency->clock_cost_ns;
    if (run.result.latency->between_calls_ns) {
      between_calls += *run.result.latency->between_calls_ns;
      ++gaps_measured;
    }
    definition = run.result.latency->definition;
    ++measured;
  }
  if (measured == 0) return std::nullopt;
  LatencyRecorders merged(reads <= kMostMerged ? reads : 0, writes <= kMostMerged ? writes : 0);
  for (const RunRecord& run : session.runs) {
    if (run.row != row || run.warmup || !run.result.latency_samples || !run.result.latency) continue;
    merged.reads.merge(run.result.latency_samples->reads);
    merged.writes.merge(run.result.latency_samples->writes);
  }
  // The runs' tick lengths differ by their calibration's noise only.
  const auto runs = static_cast<double>(measured);
  ns_per_tick /= runs;
  return LatencyReport{
      definition, clock_cost / runs,
      gaps_measured > 0 ? std::optional(between_calls / static_cast<double>(gaps_measured)) : std::nullopt,
      merged.reads.summary(ns_per_tick), merged.writes.summary(ns_per_tick)};
}

std::optional<RowSummary> summarise_row(const SessionRecord& session, std::size_t row) {
  std::vector<RunFigures> figures;
  for (const RunRecord& run : session.runs) {
    if (sample_of(run, row)) figures.push_back(run.figures());
  }
  if (figures.empty()) return std::nullopt;
  return summarise_runs(figures);
}

void summarise_rows(SessionRecord& session) {
  for (std::size_t row = 0; row < session.rows.size(); ++row) {
    RowRecord& record = session.rows[row];
    record.summary = summarise_row(session, row);
    record.counted = record.summary ? static_cast<unsigned>(record.summary->real.count) : 0;
    const auto last = std::find_if(session.runs.rbegin(), session.runs.rend(),
                                   [&](const RunRecord& run) { return sample_of(run, row); });
    if (last == session.runs.rend()) {
      record.latency.reset();
      continue;
    }
    record.bytes = last->result.stats.bytes_out;
    record.records = last->records_in();
    // With one run a row's latency is that run's own report.
    record.latency = session.plan.latency && session.plan.repeat > 1 ? merged_latency(session, row) : std::nullopt;
  }
}

}  // namespace ddtime
