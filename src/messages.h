// SPDX-License-Identifier: GPL-3.0-or-later
// messages — the words for everything a run reports: each Notice in GNU dd
// 9.1's wording, with its quoting rules and the status=none rules for what
// is a warning, and ddtime's own wording for the checks it adds (direct-I/O
// alignment, the JSON report file). Formats through diag; never touches a
// file itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "diag.h"
#include "events.h"
#include "settings.h"

namespace ddtime {

class Messages {
 public:
  Messages(const Diag& diag, const Settings& settings);

  const std::string& name_of(Side side) const { return side == Side::kInput ? input_name_ : output_name_; }

  void notice(Notice what, Side side, int err, std::int64_t value) const;
  void alignment(const AlignmentProblem& problem) const;
  void json_report_failed(const std::string& path, int err) const;

 private:
  // False when `what` is not one of its notices.
  bool transfer_notice(Notice what, Side side, int err, std::int64_t value) const;
  void position_or_setup_notice(Notice what, Side side, int err, std::int64_t value) const;

  const Diag& diag_;
  const Settings& settings_;
  std::string input_name_;
  std::string output_name_;
};

}  // namespace ddtime
