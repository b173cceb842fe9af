// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/svg_exporter.h"

#include <sys/utsname.h>

#include "model/capacity.h"
#include "model/settings.h"
#include "report/report_compare.h"
#include "report/report_svg.h"
#include "system/os.h"

namespace ddtime {
namespace {

RateUnits units_of(const Settings& settings) { return settings.ext.units.value_or(RateUnits::kIecAndBytes); }

}  // namespace

std::string svg_document(Os& os, const std::vector<std::string>& command_line, const std::vector<SvgPanel>& panels) {
  SvgTitle title{shell_command(command_line), {}, {}};
  struct utsname names {};
  if (os.system_names(names).ok()) title.host = names.nodename;
  if (const IoResult now = os.wall_clock_seconds(); now.ok()) title.date = svg_date(now.n);
  return svg_report(title, panels);
}

std::optional<std::string> SvgExporter::run_ended(const RunRecord& run) {
  // The chart of a run that never measured says so: the file is an SVG.
  return svg_document(context_.os, context_.command_line, run_panels(run, units_of(context_.settings)));
}

std::optional<std::string> SvgExporter::session_ended(const SessionRecord& session) {
  return svg_document(context_.os, context_.command_line, session_panels(session, units_of(context_.settings)));
}

std::optional<std::string> SvgExporter::profile_ended(const ProfileRecord& profile) {
  return svg_document(context_.os, context_.command_line, profile_panels(profile));
}

std::optional<std::string> SvgExporter::capacity_ended(const CapacityReport& report) {
  if (report.passes == nullptr) return std::nullopt;
  return session_ended(*report.passes);
}

std::optional<std::string> SvgExporter::comparison_ended(const ComparisonReport& report) {
  // The ratios with their intervals.
  return svg_document(context_.os, context_.command_line, comparison_panels(report));
}

}  // namespace ddtime
