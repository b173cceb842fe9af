// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/json_exporter.h"

#include "measure/environment.h"
#include "measure/profile_record.h"
#include "measure/record.h"
#include "model/capacity.h"
#include "model/plan.h"
#include "model/settings.h"
#include "report/report_capacity.h"
#include "report/report_compare.h"
#include "report/report_json.h"
#include "report/report_profile.h"

namespace ddtime {

void JsonExporter::resolved() {
  // Now, while no window is open, and of the files as resolved.
  environment_.reset();
  environment();
}

const Environment& JsonExporter::environment() {
  if (!environment_) {
    const Settings& settings = context_.settings;
    environment_ = gather_environment(context_.os, context_.command_line, settings.input_file, settings.output_file);
    // Every run of --random goes in the order of the plan's one seed.
    if (context_.plan.random) environment_->random_seed = context_.plan.random_seed;
  }
  return *environment_;
}

std::optional<std::string> JsonExporter::run_ended(const RunRecord& run) {
  return json_report(run, environment(), DDTIME_VERSION);
}

std::optional<std::string> JsonExporter::snapshot(const RunRecord& reported, const RunRecord&) {
  // A file holds the last word only: the end of the run, or its signal.
  if (path()) return std::nullopt;
  return json_report(reported, environment(), DDTIME_VERSION);
}

std::optional<std::string> JsonExporter::phase(const RunRecord& unbegun, const SessionRecord* so_far) {
  if (path()) return std::nullopt;
  // A single run not begun: its document, nothing moved, nothing timed.
  if (so_far == nullptr) return json_report(unbegun, environment(), DDTIME_VERSION);
  SessionRecord snapshot = *so_far;
  snapshot.complete = false;
  snapshot.phase = unbegun.phase;
  snapshot.exit_status.reset();
  snapshot.signal = 0;
  return json_session_report(snapshot, environment(), DDTIME_VERSION);
}

std::optional<std::string> JsonExporter::session_ended(const SessionRecord& session) {
  return json_session_report(session, environment(), DDTIME_VERSION);
}

std::optional<std::string> JsonExporter::profile_ended(const ProfileRecord& profile) {
  // An if= profile reads into /dev/null, which is not a file it measures
  // or writes: its output is null, as a document with no output's is.
  Environment facts = environment();
  if (!profile.writes) facts.output.reset();
  return profile_json(profile, facts, DDTIME_VERSION);
}

std::optional<std::string> JsonExporter::capacity_ended(const CapacityReport& report) {
  // The stamps are made in memory: no file is read.
  Environment facts = environment();
  facts.input.reset();
  return capacity_json(report.result, report.passes, report.complete(), facts, DDTIME_VERSION, report.exit_status,
                       report.signal);
}

std::optional<std::string> JsonExporter::comparison_ended(const ComparisonReport& report) {
  // No environment is gathered: the documents carry theirs, and the
  // comparison says where they differ.
  return comparison_json(report, DDTIME_VERSION);
}

std::optional<std::string> JsonExporter::refused(std::span<const std::string> errors) {
  if (path()) return std::nullopt;
  return json_refusal(errors, environment(), DDTIME_VERSION);
}

}  // namespace ddtime
