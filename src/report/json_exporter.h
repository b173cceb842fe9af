// SPDX-License-Identifier: GPL-3.0-or-later
// json_exporter — --json[=PATH]: the document of a run, a session, a
// profile (report_json, report_profile) or a comparison (report_compare),
// and on standard error also each snapshot and a refusal's document; a
// file holds the last word only. It gathers the documents' environment
// once, when the command line is resolved (outside every measured window),
// or for an early refusal; a comparison carries its documents' instead.
#pragma once

#include <optional>
#include <string>

#include "model/environment_facts.h"
#include "report/exporter.h"

namespace ddtime {

class JsonExporter final : public Exporter {
 public:
  using Exporter::Exporter;

  void resolved() override;
  std::optional<std::string> run_ended(const RunRecord& run) override;
  std::optional<std::string> snapshot(const RunRecord& reported, const RunRecord& counted) override;
  std::optional<std::string> phase(const RunRecord& unbegun, const SessionRecord* so_far) override;
  std::optional<std::string> session_ended(const SessionRecord& session) override;
  std::optional<std::string> profile_ended(const ProfileRecord& profile) override;
  std::optional<std::string> capacity_ended(const CapacityReport& report) override;
  std::optional<std::string> comparison_ended(const ComparisonReport& report) override;
  std::optional<std::string> refused(std::span<const std::string> errors) override;

 private:
  const Environment& environment();

  std::optional<Environment> environment_;
};

}  // namespace ddtime
