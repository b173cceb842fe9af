// SPDX-License-Identifier: GPL-3.0-or-later
// exporter — what a report format is told, one class per format (JSON,
// CSV, SVG, OpenMetrics): a run ended, a snapshot of one (SIGUSR1), a
// phase between runs, a session's run or pass, a session, a profile or
// --compare's comparison ended, a refusal. Each answers with the text its
// target gets now, or nothing; where the text goes, and what a failed
// write says, is the console's (--compare's: compare_driver's). The
// formats themselves are a table (output_formats.h).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ddtime {

class Os;
struct Settings;
struct Plan;
struct RunRecord;
struct SessionRecord;
struct ProfileRecord;
struct CapacityReport;
struct ComparisonReport;

// What an exporter reads besides the records: the settings and the plan
// (the command line's until they are resolved, then as resolved), argv as
// given, and the operating system for the facts a document carries.
// Requires: everything outlives the exporters built on it.
struct ExportContext {
  Os& os;
  const Settings& settings;
  const Plan& plan;
  const std::vector<std::string>& command_line;
};

class Exporter {
 public:
  // path: the report's file; none: standard error, in place of the text
  // (--compare's: standard output, in place of the table).
  Exporter(const ExportContext& context, std::optional<std::string> path) : context_(context), path_(std::move(path)) {}
  virtual ~Exporter() = default;
  Exporter(const Exporter&) = delete;
  Exporter& operator=(const Exporter&) = delete;

  const std::optional<std::string>& path() const noexcept { return path_; }

  // The command line is resolved: context's settings and plan are final,
  // and no measured window is open (facts are gathered now, if ever).
  virtual void resolved() {}
  // A plain run's end, or its stop by a signal, or (times not measured) a
  // run GNU ends without statistics.
  virtual std::optional<std::string> run_ended(const RunRecord& run) = 0;
  // SIGUSR1 during a run: reported, the record as the text report shows it
  // (the ramp taken away, the timeline so far); counted, the counters as
  // they stand.
  virtual std::optional<std::string> snapshot(const RunRecord& reported, const RunRecord& counted) {
    (void)reported;
    (void)counted;
    return std::nullopt;
  }
  // SIGUSR1 between runs: unbegun, the record of a run not begun with its
  // phase; so_far, the session's runs (null before a single run).
  virtual std::optional<std::string> phase(const RunRecord& unbegun, const SessionRecord* so_far) {
    (void)unbegun;
    (void)so_far;
    return std::nullopt;
  }
  // A run of a session, or a pass of a read-back, as it ends.
  virtual std::optional<std::string> session_run_ended(const RunRecord& run) {
    (void)run;
    return std::nullopt;
  }
  virtual std::optional<std::string> session_ended(const SessionRecord& session) = 0;
  virtual std::optional<std::string> profile_ended(const ProfileRecord& profile) = 0;
  // --capacity's end.
  virtual std::optional<std::string> capacity_ended(const CapacityReport& report) {
    (void)report;
    return std::nullopt;
  }
  // --compare's end: every document compared with the baseline
  // (ddtime-compare's alone; context's settings and plan are the command
  // line's, and nothing was measured).
  virtual std::optional<std::string> comparison_ended(const ComparisonReport& report) {
    (void)report;
    return std::nullopt;
  }
  // A command refused before anything ran, with what diag said.
  virtual std::optional<std::string> refused(std::span<const std::string> errors) {
    (void)errors;
    return std::nullopt;
  }

 protected:
  const ExportContext& context_;

 private:
  std::optional<std::string> path_;
};

}  // namespace ddtime
