// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/svg_exporter.h"

#include <sys/utsname.h>

#include "model/settings.h"
#include "report/report_svg.h"
#include "system/os.h"

namespace ddtime {
namespace {

RateUnits units_of(const Settings& settings) { return settings.ext.units.value_or(RateUnits::kIecAndBytes); }

}  // namespace

std::string SvgExporter::document(const std::vector<SvgPanel>& panels) const {
  SvgTitle title{shell_command(context_.command_line), {}, {}};
  struct utsname names {};
  if (context_.os.system_names(names).ok()) title.host = names.nodename;
  if (const IoResult now = context_.os.wall_clock_seconds(); now.ok()) title.date = svg_date(now.n);
  return svg_report(title, panels);
}

std::optional<std::string> SvgExporter::run_ended(const RunRecord& run) {
  // The chart of a run that never measured says so: the file is an SVG.
  return document(run_panels(run, units_of(context_.settings)));
}

std::optional<std::string> SvgExporter::session_ended(const SessionRecord& session) {
  return document(session_panels(session, units_of(context_.settings)));
}

std::optional<std::string> SvgExporter::profile_ended(const ProfileRecord& profile) {
  return document(profile_panels(profile));
}

}  // namespace ddtime
