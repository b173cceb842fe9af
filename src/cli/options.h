// SPDX-License-Identifier: GPL-3.0-or-later
// options — part of operands: ddtime's own --long options as the rows of a
// Boost.ProgramOptions description (each row: the value's type, its
// validation, the notifier that stores it into Extensions or Plan, the
// words --help shows), and the table of what each refuses once every
// operand is known.
#pragma once

#include "cli/command_line.h"
#include "model/plan.h"
#include "model/settings.h"
#include "report/diag.h"

namespace ddtime {

class DdtimeOptions {
 public:
  // The rows' notifiers write into ext and plan; both must outlive this.
  // Only the rows wanted are described.
  DdtimeOptions(Extensions& ext, Plan& plan, const RowsWanted& wanted);
  DdtimeOptions(const DdtimeOptions&) = delete;
  DdtimeOptions& operator=(const DdtimeOptions&) = delete;

  const po::options_description& rows() const { return rows_; }

 private:
  void describe_reports(const RowsWanted& wanted);
  void describe_io(const RowsWanted& wanted);
  void describe_sessions(const RowsWanted& wanted);
  // --time and the rows after it (in --help's order).
  void describe_time(const RowsWanted& wanted);
  void describe_profile(const RowsWanted& wanted);

  Extensions& ext_;
  Plan& plan_;
  po::options_description rows_{"Extensions"};
};

// --help and --version, when wanted.
po::options_description gnu_options(const RowsWanted& wanted);

// What the options, read together with dd's operands, refuse: GNU's words
// are not involved, these are ddtime's. Says why through diag; false then.
bool check_plan(const Settings& settings, const Plan& plan, const Diag& diag);

// --profile's and --pause's refusals (options_profile.cc), part of check_plan.
bool check_profile(const Settings& settings, const Plan& plan, const Diag& diag);
// --capacity's and --keep's (options_capacity.cc), part of check_plan.
bool check_capacity(const Settings& settings, const Plan& plan, const Diag& diag);

}  // namespace ddtime
