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

ProfileRun profile_run(const RunRecord& record, bool write, bool warmup) {
  ProfileRun run{.bytes_per_second = record.figures().bytes_per_second,
                 .warmup = warmup,
                 .counted = record.counted(),
                 .engine = record.result.engine.name,
                 .bytes = record.result.stats.bytes_out,
                 .real_ns = record.result.times.real_ns};
  if (record.result.latency) {
    const LatencySummary& side = write ? record.result.latency->write : record.result.latency->read;
    if (side.count > 0) {
      run.mean_latency_ns = side.mean_ns;
      if (side.percentiles[kP99]) run.p99_latency_ns = static_cast<double>(*side.percentiles[kP99]);
    }
  }
  return run;
}

void summarise_profile_row(ProfileRow& row) {
  std::vector<double> rates;
  std::vector<double> means;
  std::vector<double> p99s;
  for (const ProfileRun& run : row.runs) {
    if (run.warmup || !run.counted) continue;
    rates.push_back(run.bytes_per_second);
    if (run.mean_latency_ns) means.push_back(*run.mean_latency_ns);
    if (run.p99_latency_ns) p99s.push_back(*run.p99_latency_ns);
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
    row.runs.push_back(profile_run(run, row.write, run.warmup));
  }
  for (ProfileRow& row : record.rows) summarise_profile_row(row);
  record.exit_status = session.exit_status;
  record.signal = session.signal;
  return record;
}

}  // namespace ddtime
