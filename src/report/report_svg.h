// SPDX-License-Identifier: GPL-3.0-or-later
// report_svg — --svg's document of what a run or a session produced: the
// panels chosen from the records (a session's rows as bars, --timeline's
// rate over the bytes moved, --latency's histogram, and for a plain run
// where its time went) under a heading that names the command, the
// machine and the date. Records in, XML out; the drawing is svg_charts',
// the file the console's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "measure/profile_record.h"
#include "measure/record.h"
#include "model/settings.h"
#include "report/svg_charts.h"

namespace ddtime {

// What the heading says, as plain strings the console fills.
struct SvgTitle {
  std::string command;  // the command line as given, shell-quoted (shell_command)
  std::string host;     // the machine's host name; empty when unknown
  std::string date;     // svg_date's; empty when unknown
};

// argv joined by spaces, each word that a shell would split or expand in
// single quotes ('it'\''s'), so that the line can be pasted back.
std::string shell_command(const std::vector<std::string>& argv);

// A time in seconds since the epoch as "2026-12-03 00:10 UTC".
std::string svg_date(std::int64_t unix_seconds);

// The panels of one run: --timeline's and --latency's when it has them,
// else where its time went.
std::vector<SvgPanel> run_panels(const RunRecord& run, RateUnits units);
// The panels of a session: its rows' median rates as bars (the knee and
// the best marked, each median's 95% interval as a whisker), then the
// latency of the best row and the timeline of the last run that has one.
std::vector<SvgPanel> session_panels(const SessionRecord& session, RateUnits units);

// The panel of a --profile: a bar per test and side, the median in MB/s
// (1,000,000 B/s) on six decades of log scale, its interval a whisker.
std::vector<SvgPanel> profile_panels(const ProfileRecord& record);

// The whole document.
std::string svg_report(const SvgTitle& title, const std::vector<SvgPanel>& panels);

}  // namespace ddtime
