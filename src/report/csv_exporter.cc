// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/csv_exporter.h"

#include <algorithm>

#include "measure/record.h"
#include "model/plan.h"
#include "report/report_compare.h"
#include "report/report_profile.h"
#include "report/report_session.h"

namespace ddtime {

std::string CsvExporter::lines(std::span<const RunRecord> runs) {
  const bool header = !header_sent_;
  header_sent_ = true;
  return context_.plan.timeline ? timeline_csv(runs, header) : session_csv(runs, header);
}

std::optional<std::string> CsvExporter::run_ended(const RunRecord& run) { return lines({&run, 1}); }

std::optional<std::string> CsvExporter::snapshot(const RunRecord&, const RunRecord& counted) {
  // In place of the text, the snapshot is a CSV line of its own: the
  // counters as they stand.
  if (path()) return std::nullopt;
  return lines({&counted, 1});
}

std::optional<std::string> CsvExporter::session_run_ended(const RunRecord& run) {
  if (path()) return std::nullopt;
  ++rows_sent_;
  return lines({&run, 1});
}

std::optional<std::string> CsvExporter::session_ended(const SessionRecord& session) {
  const std::span<const RunRecord> runs = session.runs;
  if (path()) {
    header_sent_ = false;
    return lines(runs);
  }
  const std::size_t sent = std::min(rows_sent_, runs.size());
  rows_sent_ = runs.size();
  return lines(runs.subspan(sent));
}

std::optional<std::string> CsvExporter::profile_ended(const ProfileRecord& profile) { return profile_csv(profile); }

std::optional<std::string> CsvExporter::comparison_ended(const ComparisonReport& report) {
  return comparison_csv(report);
}

}  // namespace ddtime
