// SPDX-License-Identifier: GPL-3.0-or-later
// The console's --profile: the table and its footer on standard error
// once the profile ends (or a SIGINT ends it), then CSV, SVG and JSON,
// all read from the profile's record.
#include "bench/console.h"
#include "report/report_profile.h"
#include "report/report_svg.h"

namespace ddtime {

void Console::profile_step(std::string_view step) {
  if (!stderr_is_terminal_ || !session_text()) return;
  diag_.raw(profile_step_line(diag_.program(), plan_.profile->name, step, profile_step_shown_));
}

int Console::profile_ended(const ProfileRecord& record) {
  if (profile_step_shown_ > 0) diag_.raw(profile_step_cleared(profile_step_shown_));
  if (session_text()) diag_.raw(profile_table(record, {settings_.ext.units, diag_.utf8_quotes()}));
  int status = record.exit_status.value_or(1);
  if (plan_.csv && deliver_csv(profile_csv(record)) != 0) status = 1;
  if (reports_ != nullptr && reports_->wanted(ReportFormat::kSvg) &&
      deliver_svg_document(profile_panels(record)) != 0) {
    status = 1;
  }
  if (!settings_.ext.json) return status;
  // An if= profile reads into /dev/null, which is not a file it measures
  // or writes: its output is null, as a document with no output's is.
  Environment facts = environment();
  if (!record.writes) facts.output.reset();
  if (deliver_json(profile_json(record, facts, DDTIME_VERSION), true) != 0) status = 1;
  return status;
}

}  // namespace ddtime
