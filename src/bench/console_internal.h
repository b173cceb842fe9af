// SPDX-License-Identifier: GPL-3.0-or-later
// console_internal — what the console's files share and Console need not
// declare: the --timeline text fitted to the terminal, the rate units.
#pragma once

#include <string>

#include "measure/timeline.h"
#include "model/settings.h"
#include "report/diag.h"
#include "system/os.h"

namespace ddtime::console_internal {

inline RateUnits units_of(const Settings& settings) { return settings.ext.units.value_or(RateUnits::kIecAndBytes); }

// --timeline's chart and analysis, each line ours, fitted to the terminal.
std::string timeline_report(Os& os, const Diag& diag, const Timeline& timeline, const SteadyRule& rule,
                            RateUnits units);

}  // namespace ddtime::console_internal
