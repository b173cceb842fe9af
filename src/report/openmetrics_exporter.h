// SPDX-License-Identifier: GPL-3.0-or-later
// openmetrics_exporter — --openmetrics=PATH: what was measured in the
// Prometheus text exposition format, version 0.0.4, the one
// node_exporter's textfile collector reads: "# HELP" and "# TYPE" before
// each family's samples, names ddtime_* in base units (bytes, seconds),
// counters ending in _total, --latency's percentiles as a summary with
// quantile labels. A run's samples have no labels; a session's runs are
// labelled by their row and run (bs, iodepth, pass, run, warmup), a
// profile's figures by test and side.
//
// node_exporter may read the file while it is written. The file is opened
// (and emptied) before the first run like every report, so that a bad
// PATH is refused before anything is copied; the whole text then goes out
// at the end in one write(2). A reader sees an empty file (a valid
// exposition without samples) or the whole one; to have it appear at once
// under its final name, write to a temporary name and rename it (mv).
#pragma once

#include <optional>
#include <string>

#include "report/exporter.h"

namespace ddtime {

class OpenMetricsExporter final : public Exporter {
 public:
  using Exporter::Exporter;

  std::optional<std::string> run_ended(const RunRecord& run) override;
  std::optional<std::string> session_ended(const SessionRecord& session) override;
  std::optional<std::string> profile_ended(const ProfileRecord& profile) override;
};

// A label's value as the text format quotes it: backslash, double quote
// and newline escaped.
std::string openmetrics_label_value(std::string_view value);

}  // namespace ddtime
