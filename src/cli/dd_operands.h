// SPDX-License-Identifier: GPL-3.0-or-later
// dd_operands — part of operands: dd's key=value operands as the rows of a
// Boost.ProgramOptions description, each with its value type and the
// notifier that stores it into Settings; then GNU's defaults and
// consistency checks once the last operand is read. Every complaint is GNU
// dd 9.1's, said through Diag.
#pragma once

#include <cstdint>
#include <string_view>

#include "cli/command_line.h"
#include "model/settings.h"
#include "report/diag.h"

namespace ddtime {

class DdOperands {
 public:
  // The rows' notifiers write into settings and speak through diag; both
  // must outlive this. Only the rows wanted are described.
  DdOperands(const Diag& diag, Settings& settings, const RowsWanted& wanted);
  DdOperands(const DdOperands&) = delete;
  DdOperands& operator=(const DdOperands&) = delete;

  const po::options_description& rows() const { return rows_; }

  // An operand no row names, as typed. GNU reads the value as a number
  // before it looks at the name, so "foo=0x5" warns about the zero
  // multiplier first. Always throws Refused.
  [[noreturn]] void unrecognized(std::string_view token) const;

  // After the last operand: block sizes, GNU's checks in GNU's order, and
  // skip=/seek=/count= as records and bytes. csv_on_stderr: --csv without a
  // PATH, whose lines take the place of all text there, so a warning has
  // nowhere to go. False when a message was said.
  bool finish(bool csv_on_stderr);

 private:
  struct Sizes {
    std::int64_t ibs = 0;  // 0: not given
    std::int64_t obs = 0;
    std::int64_t bs = 0;
    std::int64_t skip = 0;
    bool skip_in_bytes = false;  // a 'B' anywhere in the value
    std::int64_t seek = 0;
    bool seek_in_bytes = false;
    std::int64_t count = kNoLimit;
    bool count_in_bytes = false;
  };
  struct Range {
    std::int64_t minimum;
    std::int64_t maximum;
    std::int64_t* target;
    bool* in_bytes;  // where a 'B' suffix is remembered, if it counts
  };

  void describe(const RowsWanted& wanted);
  void warn_if_zero_multiplier(const ParsedNumber& number) const;
  void number(const DdNumber& number, const Range& range) const;
  void conversions(std::string_view list);
  void flags(std::string_view list, IoFlags& flags, std::string_view what);
  void status(std::string_view list);
  [[noreturn]] void refuse_symbol(std::string_view what, std::string_view item) const;

  const Diag& diag_;
  Settings& settings_;
  Sizes sizes_;
  po::options_description rows_{"Operands"};
};

}  // namespace ddtime
