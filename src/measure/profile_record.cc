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
  if (!latency || run.side == ProfileSide::kMix) return nullptr;
  const LatencySummary& side = run.side == ProfileSide::kWrite ? latency->write : latency->read;
  return side.count > 0 ? &side : nullptr;
}

}  // namespace

std::string_view profile_side_name(ProfileSide side) noexcept {
  switch (side) {
    case ProfileSide::kWrite:
      return "write";
    case ProfileSide::kMix:
      return "mix";
    case ProfileSide::kRead:
      break;
  }
  return "read";
}

std::optional<double> ProfileRun::mean_latency_ns() const noexcept {
  if (side == ProfileSide::kMix) {
    // Both sides' I/Os together: their means weighted by their counts.
    const std::optional<LatencyReport>& latency = record.result.latency;
    if (!latency) return std::nullopt;
    const double count = static_cast<double>(latency->read.count + latency->write.count);
    if (count == 0) return std::nullopt;
    return (latency->read.mean_ns * static_cast<double>(latency->read.count) +
            latency->write.mean_ns * static_cast<double>(latency->write.count)) /
           count;
  }
  const LatencySummary* timed = timed_side(*this);
  return timed != nullptr ? std::optional<double>(timed->mean_ns) : std::nullopt;
}

std::optional<double> ProfileRun::p99_latency_ns() const noexcept {
  const LatencySummary* timed = timed_side(*this);
  if (timed == nullptr || !timed->percentiles[kP99]) return std::nullopt;
  return static_cast<double>(*timed->percentiles[kP99]);
}

std::optional<double> ProfileRun::mix_bytes_per_second(bool write) const noexcept {
  const std::optional<MixResult>& mix = record.result.mix;
  const std::int64_t ns = real_ns();
  if (!mix || ns <= 0) return std::nullopt;
  const std::int64_t bytes = write ? mix->counts.write_bytes : mix->counts.read_bytes;
  return per_second(static_cast<double>(bytes), static_cast<double>(ns));
}

const LatencySummary* ProfileRun::mix_latency(bool write) const noexcept {
  const std::optional<LatencyReport>& latency = record.result.latency;
  if (side != ProfileSide::kMix || !latency) return nullptr;
  const LatencySummary& timed = write ? latency->write : latency->read;
  return timed.count > 0 ? &timed : nullptr;
}

namespace {

double mean_of(const std::vector<double>& values) {
  double sum = 0;
  for (const double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

// One side of a mixed row, from its counted runs.
std::optional<ProfileMixSide> mix_side(const ProfileRow& row, bool write) {
  std::vector<double> rates;
  std::vector<double> means;
  std::vector<double> p99s;
  for (const ProfileRun& run : row.runs) {
    if (run.warmup() || !run.counted()) continue;
    if (const std::optional<double> rate = run.mix_bytes_per_second(write)) rates.push_back(*rate);
    if (const LatencySummary* timed = run.mix_latency(write)) {
      means.push_back(timed->mean_ns);
      if (timed->percentiles[kP99]) p99s.push_back(static_cast<double>(*timed->percentiles[kP99]));
    }
  }
  if (rates.empty()) return std::nullopt;
  ProfileMixSide side{.bytes_per_second = median_of(rates)};
  if (!means.empty()) side.mean_latency_s = in_seconds(mean_of(means));
  if (!p99s.empty()) side.p99_latency_s = in_seconds(median_of(p99s));
  return side;
}

}  // namespace

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
  if (row.side == ProfileSide::kMix) {
    row.mix_reads = mix_side(row, false);
    row.mix_writes = mix_side(row, true);
  }
  row.rate = summarise_figure(rates);
  row.iops = row.rate->median / static_cast<double>(row.test.bs);
  if (!means.empty()) row.mean_latency_s = in_seconds(mean_of(means));
  if (!p99s.empty()) row.p99_latency_s = in_seconds(median_of(p99s));
}

ProfileRecord profile_of(ProfileRecord parameters, const SessionRecord& session, std::size_t rows_begun) {
  ProfileRecord record = std::move(parameters);
  for (std::size_t i = 0; i < rows_begun && i < session.rows.size(); ++i) {
    const RowRecord& row = session.rows[i];
    record.rows.push_back(ProfileRow{.test = row.test.value_or(ProfileTest{}), .side = profile_side_of(row.pass)});
  }
  for (const RunRecord& run : session.runs) {
    if (run.row >= record.rows.size()) continue;
    ProfileRow& row = record.rows[run.row];
    row.runs.push_back(ProfileRun{run, row.side});
  }
  for (ProfileRow& row : record.rows) summarise_profile_row(row);
  record.exit_status = session.exit_status;
  record.signal = session.signal;
  return record;
}

}  // namespace ddtime
