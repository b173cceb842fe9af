// SPDX-License-Identifier: GPL-3.0-or-later
// compare_driver — the --compare mode: reads the documents named on the
// command line (through Os), refuses those that are no ddtime document or
// that did not measure the same thing (unless --force), compares every
// other document's rows with the baseline's, and writes the table and
// what each exporter the plan's outputs name (output_formats) answers the
// comparison. Opens no measured window and copies nothing.
#pragma once

#include <string>
#include <vector>

#include "model/plan.h"
#include "model/settings.h"
#include "report/diag.h"
#include "system/os.h"

namespace ddtime {

// The exit status: 0 once the comparison is written, whatever it says; 1
// for a refusal or an error, said through diag.
// command_line: argv as given, for --svg's heading.
int run_compare(Os& os, const Diag& diag, const Settings& settings, const Plan& plan,
                const std::vector<std::string>& command_line);

}  // namespace ddtime
