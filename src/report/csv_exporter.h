// SPDX-License-Identifier: GPL-3.0-or-later
// csv_exporter — --csv[=PATH]: a line per run (with --timeline one per
// sample) of a session, a read-back or a profile (report_session,
// report_profile), a line per compared row (report_compare). To a file the
// whole table at the end; on standard error, in place of the text, each
// line as its run ends, a SIGUSR1 snapshot's line, then at the end the
// lines not yet sent, one header.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "report/exporter.h"

namespace ddtime {

class CsvExporter final : public Exporter {
 public:
  using Exporter::Exporter;

  std::optional<std::string> run_ended(const RunRecord& run) override;
  std::optional<std::string> snapshot(const RunRecord& reported, const RunRecord& counted) override;
  std::optional<std::string> session_run_ended(const RunRecord& run) override;
  std::optional<std::string> session_ended(const SessionRecord& session) override;
  std::optional<std::string> profile_ended(const ProfileRecord& profile) override;
  std::optional<std::string> comparison_ended(const ComparisonReport& report) override;

 private:
  // The lines of runs, the header first when it has not gone yet.
  std::string lines(std::span<const RunRecord> runs);

  bool header_sent_ = false;   // on standard error: the header goes once
  std::size_t rows_sent_ = 0;  // on standard error: runs streamed so far
};

}  // namespace ddtime
