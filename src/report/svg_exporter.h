// SPDX-License-Identifier: GPL-3.0-or-later
// svg_exporter — --svg=PATH: one document, once, when a run, a session or
// a profile ends, of the panels report_svg draws from its record, under
// the command as typed, the host and the date.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/exporter.h"
#include "report/svg_charts.h"

namespace ddtime {

class SvgExporter final : public Exporter {
 public:
  using Exporter::Exporter;

  std::optional<std::string> run_ended(const RunRecord& run) override;
  std::optional<std::string> session_ended(const SessionRecord& session) override;
  std::optional<std::string> profile_ended(const ProfileRecord& profile) override;

 private:
  std::string document(const std::vector<SvgPanel>& panels) const;
};

}  // namespace ddtime
