// SPDX-License-Identifier: GPL-3.0-or-later
// number — dd's size grammar: decimal digits, GNU's multiplicative suffixes
// (c w b kB K KiB ... ), 'x' products, overflow-checked. Pure functions; the
// caller decides what range each operand accepts and words the errors.
#pragma once

#include <cstdint>
#include <optional>
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

// --time, --ramp and --timeline's durations: a decimal number without
// sign or exponent ("30", "1.5", ".5") and a unit, ms, s, m or h (seconds
// without one), in nanoseconds, rounded; nullopt for anything else or
// beyond INT64_MAX. No floating point: "0.1s" is exactly 100000000.
std::optional<std::int64_t> parse_duration_ns(std::string_view text) noexcept;

// --steady's limit: a decimal number, "10" or "2.5", with an optional "%".
std::optional<double> parse_percentage(std::string_view text) noexcept;

}  // namespace ddtime
