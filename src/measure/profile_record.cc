// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/profile_record.h"

#include <algorithm>
#include <utility>

#include "model/units.h"

namespace ddtime {
namespace {

constexpr std::size_t kP99 = percentile_index(99);

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

namespace {

// The side's latency, when --latency timed any of its I/Os.
const LatencySummary* timed_side(const ProfileRun& run) noexcept {
  const std::optional<LatencyReport>& latency = run.record.result.latency;
  if (!latency) return nullptr;
  const LatencySummary& side = run.write ? latency->write : latency->read;
  return side.count > 0 ? &side : nullptr;
}

}  // namespace

std::optional<double> ProfileRun::mean_latency_ns() const noexcept {
  const LatencySummary* side = timed_side(*this);
  return side != nullptr ? std::optional<double>(side->mean_ns) : std::nullopt;
}

std::optional<double> ProfileRun::p99_latency_ns() const noexcept {
  const LatencySummary* side = timed_side(*this);
  if (side == nullptr || !side->percentiles[kP99]) return std::nullopt;
  return static_cast<double>(*side->percentiles[kP99]);
}

void summarise_profile_row(ProfileRow& row) {
  std::vector<double> rates;
  std::vector<double> means;
  std::vector<double> p99s;
  for (const ProfileRun& run : row.runs) {
    if (run.warmup() || !run.counted()) continue;
    rates.push_back(run.bytes_per_second());
    if (const std::optional<double> mean = run.mean_latency_ns()) means.push_back(*mean);
    if (const std::optional<double> p99 = run.p99_latency_ns()) p99s.push_back(*p99);
  }
  if (rates.empty()) return;
  row.rate = summarise_figure(rates);
  row.iops = row.rate->median / static_cast<double>(row.test.bs);
  if (!means.empty()) {
    double sum = 0;
    for (const double mean : means) sum += mean;
    row.mean_latency_s = in_seconds(sum / static_cast<double>(means.size()));
  }
  if (!p99s.empty()) row.p99_latency_s = in_seconds(median_of(p99s));
}

ProfileRecord profile_of(ProfileRecord parameters, const SessionRecord& session, std::size_t rows_begun) {
  ProfileRecord record = std::move(parameters);
  for (std::size_t i = 0; i < rows_begun && i < session.rows.size(); ++i) {
    const RowRecord& row = session.rows[i];
    record.rows.push_back(ProfileRow{.test = row.test.value_or(ProfileTest{}), .write = row.pass == Pass::kWrite});
  }
  for (const RunRecord& run : session.runs) {
    if (run.row >= record.rows.size()) continue;
    ProfileRow& row = record.rows[run.row];
    row.runs.push_back(ProfileRun{run, row.write});
  }
  for (ProfileRow& row : record.rows) summarise_profile_row(row);
  record.exit_status = session.exit_status;
  record.signal = session.signal;
  return record;
}

}  // namespace ddtime
