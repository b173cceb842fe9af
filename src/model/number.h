// SPDX-License-Identifier: GPL-3.0-or-later
// number — dd's size grammar: decimal digits, GNU's multiplicative suffixes
// (c w b kB K KiB ... ), 'x' products, overflow-checked. Pure functions; the
// caller decides what range each operand accepts and words the errors.
#pragma once

#include <cstdint>
#include <string_view>

namespace ddtime {

enum class NumberVerdict {
  kOk,
  kInvalid,   // not a number in dd's grammar
  kOverflow,  // a number, but beyond INT64_MAX: "Value too large ..."
};

struct ParsedNumber {
  // Meaningful when verdict is kOk. For kOverflow it is INT64_MAX and for
  // kInvalid the digits read before the junk (or 0): GNU range-checks that
  // value anyway, so "bs=9223372036854775807y" reports an overflow.
  std::int64_t value = 0;
  NumberVerdict verdict = NumberVerdict::kOk;
  // The text starts with "0x" and the product is zero: GNU warns
  // "'0x' is a zero multiplier; use '00x' if that is intended".
  bool zero_multiplier = false;
};

ParsedNumber parse_number(std::string_view text) noexcept;

}  // namespace ddtime
