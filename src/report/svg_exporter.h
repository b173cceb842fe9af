// SPDX-License-Identifier: GPL-3.0-or-later
// svg_exporter — --svg=PATH: one document, once, when a run, a session, a
// profile or --capacity=full's passes end, of the panels report_svg draws
// from its record, or when a comparison ends, of its ratios
// (report_compare's panels), under the command as typed, the host and the
// date (svg_document).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/exporter.h"
#include "report/svg_charts.h"

namespace ddtime {

class Os;

// One document of panels under the heading every chart has: the command
// as given (shell-quoted), the host and the date, as os tells them.
std::string svg_document(Os& os, const std::vector<std::string>& command_line, const std::vector<SvgPanel>& panels);

class SvgExporter final : public Exporter {
 public:
  using Exporter::Exporter;

  std::optional<std::string> run_ended(const RunRecord& run) override;
  std::optional<std::string> session_ended(const SessionRecord& session) override;
  std::optional<std::string> profile_ended(const ProfileRecord& profile) override;
  // --capacity=full: its passes' chart, each pass's rate over the device.
  std::optional<std::string> capacity_ended(const CapacityReport& report) override;
  std::optional<std::string> comparison_ended(const ComparisonReport& report) override;
};

}  // namespace ddtime
