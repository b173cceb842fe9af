// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/number.h"

#include <cstddef>
#include <limits>
#include <string_view>
#include <utility>

#include "model/units.h"

namespace ddtime {
namespace {

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kI64Max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

// One factor as GNU's strtoumax-based scanner sees it. `stop` is where the
// scan ended; a factor is complete only when nothing follows it.
struct Factor {
  enum class Kind {
    kNone,      // no digits and no suffix letter: not a number at all
    kComplete,  // the whole remaining text was consumed
    kTrailing,  // a number, followed by text at `stop`
  };
  Kind kind = Kind::kNone;
  std::uint64_t value = 0;  // saturated at UINT64_MAX when `overflow`
  bool overflow = false;
  std::size_t stop = 0;
};

// The C locale's isspace(), independent of the process locale.
bool is_c_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Power letters take an optional "B"/"D" (decimal) or "iB" (binary) tail.
int power_of(char c) {
  switch (c) {
    case 'k':
    case 'K':
      return 1;
    case 'M':
      return 2;
    case 'G':
      return 3;
    case 'T':
      return 4;
    case 'P':
      return 5;
    case 'E':
      return 6;
    case 'Z':
      return 7;
    case 'Y':
      return 8;
    default:
      return 0;
  }
}

bool is_suffix_letter(char c) { return c == 'b' || c == 'c' || c == 'w' || power_of(c) != 0; }

void scale(Factor& f, std::uint64_t by) {
  if (f.value != 0 && f.value > kU64Max / by) {
    f.value = kU64Max;
    f.overflow = true;
  } else {
    f.value *= by;
  }
}

// Accumulates the decimal digits from i into f.value (saturating, with
// f.overflow set); returns where they end.
std::size_t scan_digits(std::string_view text, std::size_t i, Factor& f) {
  for (; i < text.size() && is_digit(text[i]); ++i) {
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    if (f.overflow) continue;
    if (f.value > (kU64Max - digit) / 10) {
      f.value = kU64Max;
      f.overflow = true;
    } else {
      f.value = f.value * 10 + digit;
    }
  }
  return i;
}

// Scans one unsigned factor starting at `pos`: optional C-locale white
// space, an optional '+', decimal digits, then at most one suffix. A suffix
// letter with no digits before it counts as 1 of that unit ("K" is 1024).
Factor scan_factor(std::string_view text, std::size_t pos) {
  Factor f;
  std::size_t i = pos;
  while (i < text.size() && is_c_space(text[i])) ++i;
  if (i < text.size() && text[i] == '-') return f;  // unsigned: no sign flip
  if (i < text.size() && text[i] == '+') ++i;

  const std::size_t digits_end = scan_digits(text, i, f);

  std::size_t suffix = digits_end;
  if (digits_end == i) {
    // No digits: only a bare suffix letter right at the start qualifies
    // (" K" and "+K" do not).
    if (pos >= text.size() || !is_suffix_letter(text[pos])) return f;
    f.value = 1;
    suffix = pos;
  }

  f.kind = Factor::Kind::kComplete;
  f.stop = suffix;
  if (suffix == text.size()) return f;

  const char letter = text[suffix];
  if (!is_suffix_letter(letter)) {
    f.kind = Factor::Kind::kTrailing;
    return f;
  }

  std::size_t length = 1;
  if (const int power = power_of(letter); power != 0) {
    std::uint64_t base = 1024;
    const std::string_view tail = text.substr(suffix + 1);
    if (tail.starts_with("iB")) {
      length = 3;
    } else if (tail.starts_with('B') || tail.starts_with('D')) {
      base = 1000;
      length = 2;
    }
    for (int n = 0; n < power; ++n) scale(f, base);
  } else if (letter == 'b') {
    scale(f, 512);
  } else if (letter == 'w') {
    scale(f, 2);
  }  // 'c' is 1

  f.stop = suffix + length;
  if (f.stop != text.size()) f.kind = Factor::Kind::kTrailing;
  return f;
}

ParsedNumber overflowed() {
  return ParsedNumber{std::numeric_limits<std::int64_t>::max(), NumberVerdict::kOverflow, false};
}

}  // namespace

ParsedNumber parse_number(std::string_view text) noexcept {
  Factor first = scan_factor(text, 0);
  if (first.kind == Factor::Kind::kNone) return ParsedNumber{0, NumberVerdict::kInvalid, false};

  // A 'B' straight after the number marks a byte count ("2B", "1bB"); it may
  // not follow another 'B' ("2BB", "1KBB").
  if (first.kind == Factor::Kind::kTrailing && text[first.stop] == 'B' && text[first.stop - 1] != 'B') {
    ++first.stop;
    if (first.stop == text.size()) first.kind = Factor::Kind::kComplete;
  }

  // GNU refuses to multiply when the first factor ends in 'B' and a 'B'
  // appears anywhere after the 'x' ("2KiBx3KiB", "EBxKB"): the text is then
  // judged on its first factor alone, invalid unless that overflowed.
  const bool b_on_both_sides = first.kind == Factor::Kind::kTrailing && text[first.stop - 1] == 'B' &&
                               text.find('B', first.stop + 1) != std::string_view::npos;
  if (first.kind == Factor::Kind::kTrailing && text[first.stop] == 'x' && !b_on_both_sides) {
    // GNU takes exactly two factors; the second has no 'B' and no 'x'.
    const Factor second = scan_factor(text, first.stop + 1);
    if (second.kind != Factor::Kind::kComplete) return ParsedNumber{0, NumberVerdict::kInvalid, false};
    if (first.value == 0 || second.value == 0) {
      // A zero product wins over any overflow in the other factor.
      return ParsedNumber{0, NumberVerdict::kOk, text.starts_with("0x")};
    }
    if (first.overflow || second.overflow || first.value > kI64Max / second.value) return overflowed();
    return ParsedNumber{static_cast<std::int64_t>(first.value * second.value), NumberVerdict::kOk, false};
  }

  // Beyond INT64_MAX is an overflow even when junk follows ("99999999999999999999y").
  if (first.overflow || first.value > kI64Max) return overflowed();
  const auto value = static_cast<std::int64_t>(first.value);
  if (first.kind == Factor::Kind::kTrailing) return ParsedNumber{value, NumberVerdict::kInvalid, false};
  return ParsedNumber{value, NumberVerdict::kOk, false};
}

namespace {

// A decimal number as a count of its last digit's units: {15, 1} is 1.5.
// (std::from_chars for double would link libm for its rounding mode, and
// strtod reads the locale's decimal point.)
struct DecimalDigits {
  std::int64_t units = 0;
  int decimals = 0;
};

// The digits at the start of text, and what follows them; text itself when
// it does not start with one.
std::string_view take_decimal(std::string_view text, DecimalDigits& number) noexcept {
  std::size_t at = 0;
  bool digits = false;
  bool point = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9' || number.units > (INT64_MAX - 9) / 10 || number.decimals >= 9) break;
    number.units = number.units * 10 + (c - '0');
    if (point) ++number.decimals;
    digits = true;
  }
  return digits ? text.substr(at) : text;
}

}  // namespace

std::optional<std::int64_t> parse_duration_ns(std::string_view text) noexcept {
  static constexpr std::pair<std::string_view, std::int64_t> kUnits[] = {{"ms", 1'000'000},
                                                                         {"s", kNanosecondsPerSecond},
                                                                         {"m", 60 * kNanosecondsPerSecond},
                                                                         {"h", 3600 * kNanosecondsPerSecond},
                                                                         {"", kNanosecondsPerSecond}};
  DecimalDigits number;
  const std::string_view unit = take_decimal(text, number);
  if (unit.size() == text.size()) return std::nullopt;
  for (const auto& [name, ns] : kUnits) {
    if (unit != name) continue;
    __extension__ using Wide = __int128;
    Wide scale = 1;
    for (int i = 0; i < number.decimals; ++i) scale *= 10;
    const Wide total = (static_cast<Wide>(number.units) * ns + scale / 2) / scale;
    if (total > INT64_MAX) return std::nullopt;
    return static_cast<std::int64_t>(total);
  }
  return std::nullopt;
}

std::optional<double> parse_percentage(std::string_view text) noexcept {
  DecimalDigits number;
  const std::string_view rest = take_decimal(text, number);
  if (rest.size() == text.size() || !(rest.empty() || rest == "%")) return std::nullopt;
  double value = static_cast<double>(number.units);
  for (int i = 0; i < number.decimals; ++i) value /= 10;
  return value;
}

}  // namespace ddtime
