// SPDX-License-Identifier: GPL-3.0-or-later
// The console's --profile: the table and its footer on standard error
// once the profile ends (or a SIGINT ends it), then the reports,
// all read from the profile's record.
#include "bench/console.h"
#include "report/report_profile.h"

namespace ddtime {

void Console::profile_step(std::string_view step) {
  if (!stderr_is_terminal_ || !session_text_) return;
  diag_.raw(profile_step_line(diag_.program(), plan_.profile->name, step, profile_step_shown_));
}

int Console::profile_ended(const ProfileRecord& record) {
  if (profile_step_shown_ > 0) diag_.raw(profile_step_cleared(profile_step_shown_));
  if (session_text_) diag_.raw(profile_table(record, {settings_.ext.units, diag_.utf8_quotes()}));
  int status = record.exit_status.value_or(1);
  if (export_all([&](Exporter& exporter) { return exporter.profile_ended(record); }) != 0) status = 1;
  return status;
}

}  // namespace ddtime
