// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report.h"

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "model/units.h"
#include "report/report_internal.h"

namespace ddtime {

namespace report_internal {

Wide round_half_even(Wide num, Wide den) {
  Wide quotient = num / den;
  Wide twice_remainder = (num % den) * 2;
  if (twice_remainder > den || (twice_remainder == den && quotient % 2 == 1)) ++quotient;
  return quotient;
}

}  // namespace report_internal

namespace {

using report_internal::append;
using report_internal::append_format;
using report_internal::Buffer;
using report_internal::round_half_even;
using report_internal::to_string;
using report_internal::Wide;

// GNU dd 9.1's human_readable knows the prefixes k/K, M, G, T, P, E, Z, Y and
// stops scaling at Y even when the value is still above 1000.
constexpr int kMaxExponent = 8;
constexpr std::string_view kPrefixes = "KMGTPEZY";

enum class Base : unsigned { kSi = 1000, kIec = 1024 };

constexpr unsigned value_of(Base base) { return static_cast<unsigned>(base); }

// " B", " kB", " KiB", " MB", " MiB", ...: GNU puts a space between the number
// and the unit, writes the SI kilo as 'k', and marks powers of 1024 with 'i'.
void append_unit(Buffer& out, int exponent, Base base) {
  out.push_back(' ');
  if (exponent > 0) {
    char prefix = kPrefixes[static_cast<std::size_t>(exponent - 1)];
    if (base == Base::kSi && prefix == 'K') prefix = 'k';
    out.push_back(prefix);
    if (base == Base::kIec) out.push_back('i');
  }
  out.push_back('B');
}

// The exact-arithmetic branch of GNU's human_readable with autoscale,
// round-to-nearest and a "B" unit, for the value num/den.
// - Scale by the base while the whole part is at least the base.
// - Once scaled, a value below 10 keeps one decimal ("9.8 kB"); if it rounds
//   to 10.0 the decimal is dropped ("10 kB" for 9950 bytes).
// - Otherwise round to a whole number; reaching the base moves up one prefix
//   ("1.0 MB" for 999500 bytes; "1.0 kB/s" for 999.5 B/s).
// - Unscaled values never show a decimal ("9 B/s", "2 B/s" for 1.5 B/s).
// Requires: den > 0, num < 2^64 * den.
void append_exact(Buffer& out, Wide num, Wide den, Base base) {
  const unsigned step = value_of(base);
  int exponent = 0;
  Wide divisor = den;
  while (exponent < kMaxExponent && num / divisor >= step) {
    divisor *= step;
    ++exponent;
  }
  if (exponent > 0 && num / divisor < 10) {
    Wide tenths = round_half_even(num * 10, divisor);
    if (tenths < 100) {
      fmt::format_to(std::back_inserter(out), "{}.{}", static_cast<unsigned>(tenths / 10),
                     static_cast<unsigned>(tenths % 10));
      append_unit(out, exponent, base);
      return;
    }
    num = 10;
    divisor = 1;
  }
  Wide whole = round_half_even(num, divisor);
  if (whole == step && exponent < kMaxExponent) {
    append(out, "1.0");
    append_unit(out, exponent + 1, base);
    return;
  }
  fmt::format_to(std::back_inserter(out), "{}", static_cast<std::uint64_t>(whole));
  append_unit(out, exponent, base);
}

// printf's own "%.<precision>f", as GNU dd prints: exact decimal rounding
// of the binary value, ties to even. The program never sets LC_NUMERIC, so
// the point is '.' whatever the locale. (std::to_chars would do the same,
// but for long double it needs libm's fegetround/fesetround, which cost
// every start a library to load: 10 page faults.)
template <typename Float>
std::string_view fixed(std::array<char, 64>& text, Float value, int precision) {
  const int length = std::is_same_v<Float, long double>
                         ? std::snprintf(text.data(), text.size(), "%.*Lf", precision, static_cast<long double>(value))
                         : std::snprintf(text.data(), text.size(), "%.*f", precision, static_cast<double>(value));
  // Magnitudes here stay below 1e30, so the text always fits.
  if (length < 0 || static_cast<std::size_t>(length) >= text.size()) return {};
  return {text.data(), static_cast<std::size_t>(length)};
}

// The floating-point branch of GNU's human_readable, taken for a rate whose
// nanoseconds neither divide nor are a multiple of 1e9. Unlike the exact
// branch it always scales at least once ("0.0 kB/s" for nothing copied,
// "0.5 kB/s") and never moves up a prefix after rounding ("1000 kB/s" for
// 999.96 kB/s). One decimal is kept while "%.1Lf" fits in four characters
// ("99.9 kB/s", "10.0 kB/s" for 9.977 kB/s), otherwise none ("100 kB/s").
void append_scaled(Buffer& out, long double value, Base base) {
  const long double step = value_of(base);
  long double power = 1;
  int exponent = 0;
  do {
    power *= step;
    ++exponent;
  } while (power * step <= value && exponent < kMaxExponent);
  value /= power;

  std::array<char, 64> text;
  std::string_view digits = fixed(text, value, 1);
  if (digits.size() > 4) digits = fixed(text, value, 0);
  append(out, digits);
  append_unit(out, exponent, base);
}

// bytes * 1e9 / elapsed_ns per second: "20.4 kB/s", "Infinity B/s".
// GNU takes the exact branch when elapsed_ns divides 1e9 (and the product
// fits in 64 bits) or is a multiple of it, the floating branch otherwise, and
// computes the floating value as bytes * (1e9 / elapsed_ns) in long double;
// the order matters at rounding edges (51 B in 12 ns is "4.3 GB/s").
// GNU prints SI rates only; the timing report's IEC rate ("49.3 GiB/s")
// runs the same branches with base 1024.
void append_rate(Buffer& out, std::uint64_t bytes, std::int64_t elapsed_ns, Base base = Base::kSi) {
  if (elapsed_ns <= 0) {
    append(out, "Infinity B/s");
    return;
  }
  const auto nanos = static_cast<std::uint64_t>(elapsed_ns);
  if (nanos <= static_cast<std::uint64_t>(kNanosecondsPerSecond) &&
      static_cast<std::uint64_t>(kNanosecondsPerSecond) % nanos == 0) {
    const std::uint64_t multiplier = static_cast<std::uint64_t>(kNanosecondsPerSecond) / nanos;
    const Wide product = Wide{bytes} * multiplier;
    if (product >> 64 == 0) {
      append_exact(out, product, 1, base);
      append(out, "/s");
      return;
    }
  } else if (nanos > static_cast<std::uint64_t>(kNanosecondsPerSecond) &&
             nanos % static_cast<std::uint64_t>(kNanosecondsPerSecond) == 0) {
    append_exact(out, bytes, nanos / static_cast<std::uint64_t>(kNanosecondsPerSecond), base);
    append(out, "/s");
    return;
  }
  const long double per_nanosecond =
      static_cast<long double>(static_cast<std::uint64_t>(kNanosecondsPerSecond)) / static_cast<long double>(nanos);
  append_scaled(out, static_cast<long double>(bytes) * per_nanosecond, base);
  append(out, "/s");
}

// "%g s" for the summary ("0.000146889 s", "5.882e-05 s", "123457 s"); the
// progress line uses "%.0f s" ("2 s" for 1.5 s and for 2.5 s). A clock that
// did not advance prints "0 s".
void append_seconds(Buffer& out, std::int64_t elapsed_ns, bool progress_style) {
  const double seconds = elapsed_ns > 0 ? in_seconds(static_cast<double>(elapsed_ns)) : 0.0;
  std::array<char, 64> text;
  if (progress_style) {
    append(out, fixed(text, seconds, 0));
  } else {
    const int length = std::snprintf(text.data(), text.size(), "%g", seconds);
    if (length > 0 && static_cast<std::size_t>(length) < text.size()) {
      out.append(text.data(), text.data() + length);
    }
  }
  append(out, " s");
}

void append_human_size(Buffer& out, std::uint64_t bytes, Base base) { append_exact(out, bytes, 1, base); }

// "N byte(s) copied", "N bytes (SI) copied" or "N bytes (SI, IEC) copied",
// depending on which sizes carry a prefix, then ", S, R".
void append_transfer_line(Buffer& out, std::int64_t bytes, std::int64_t elapsed_ns, bool progress_style) {
  const auto count = static_cast<std::uint64_t>(bytes);
  if (count < value_of(Base::kSi)) {
    fmt::format_to(std::back_inserter(out), "{} {} copied, ", count, count == 1 ? "byte" : "bytes");
  } else {
    fmt::format_to(std::back_inserter(out), "{} bytes (", count);
    append_human_size(out, count, Base::kSi);
    if (count >= value_of(Base::kIec)) {
      append(out, ", ");
      append_human_size(out, count, Base::kIec);
    }
    append(out, ") copied, ");
  }
  append_seconds(out, elapsed_ns, progress_style);
  append(out, ", ");
  append_rate(out, count, elapsed_ns);
}

// "H:MM:SS" for a whole number of seconds.
void append_clock(Buffer& out, Wide seconds) {
  append_format(out, "{}:{:02}:{:02}", seconds / 3600, static_cast<unsigned>(seconds / 60 % 60),
                static_cast<unsigned>(seconds % 60));
}

// A \r-rewritten line of `length` characters: GNU erases the rest of a
// longer previous line with spaces, and then remembers the unpadded length.
void pad_over_previous_line(Buffer& out, std::size_t length, std::size_t& previous_length) {
  for (std::size_t width = length; width < previous_length; ++width) out.push_back(' ');
  previous_length = length;
}

}  // namespace

std::string human_size(std::int64_t bytes, bool si) {
  Buffer out;
  append_human_size(out, static_cast<std::uint64_t>(bytes), si ? Base::kSi : Base::kIec);
  return to_string(out);
}

std::string human_rate(std::int64_t bytes, std::int64_t elapsed_ns, bool si) {
  Buffer out;
  append_rate(out, static_cast<std::uint64_t>(bytes), elapsed_ns, si ? Base::kSi : Base::kIec);
  return to_string(out);
}

std::string transfer_line(std::int64_t bytes, std::int64_t elapsed_ns, bool progress_style) {
  Buffer out;
  append_transfer_line(out, bytes, elapsed_ns, progress_style);
  return to_string(out);
}

std::string Reporter::end_progress_line() {
  if (progress_length_ == 0) return {};
  progress_length_ = 0;
  return "\n";
}

std::string Reporter::summary(const Stats& stats, std::int64_t elapsed_ns) {
  if (level_ == StatusLevel::kNone) return {};
  Buffer out;
  // A progress line has no newline of its own; the summary ends it.
  append(out, end_progress_line());
  fmt::format_to(std::back_inserter(out), "{}+{} records in\n{}+{} records out\n", stats.full_records_in,
                 stats.partial_records_in, stats.full_records_out, stats.partial_records_out);
  if (stats.truncated_records != 0) {
    fmt::format_to(std::back_inserter(out), "{} truncated record{}\n", stats.truncated_records,
                   stats.truncated_records == 1 ? "" : "s");
  }
  if (level_ != StatusLevel::kNoxfer) {
    append_transfer_line(out, stats.bytes_out, elapsed_ns, false);
    out.push_back('\n');
  }
  return to_string(out);
}

std::string Reporter::progress(const Stats& stats, std::int64_t elapsed_ns) {
  if (level_ != StatusLevel::kProgress) return {};
  Buffer out;
  out.push_back('\r');
  append_transfer_line(out, stats.bytes_out, elapsed_ns, true);
  pad_over_previous_line(out, out.size() - 1, progress_length_);
  return to_string(out);
}

std::string duration_text(std::int64_t ns) {
  if (ns <= 0) return "0 s";
  if (ns < 1000) return fmt::format("{} ns", ns);
  // Three significant digits, rounded half to even like every figure
  // here; where rounding reaches the next digit, the next form.
  if (ns < 9'995) {
    const Wide hundredths = round_half_even(static_cast<Wide>(ns), 10);
    return fmt::format("{}.{:02} us", hundredths / 100, hundredths % 100);
  }
  if (ns < 99'950) {
    const Wide tenths = round_half_even(static_cast<Wide>(ns), 100);
    return fmt::format("{}.{} us", tenths / 10, tenths % 10);
  }
  if (ns < 999'500) return fmt::format("{} us", round_half_even(static_cast<Wide>(ns), 1000));
  const Wide scaled = round_half_even(static_cast<Wide>(ns), 100'000);  // tenths of a millisecond
  return fmt::format("{}.{:04} s", scaled / 10'000, scaled % 10'000);
}

std::string duration_text(double seconds) {
  if (!(seconds > 0)) return "0 s";
  const double ns = seconds * static_cast<double>(kNanosecondsPerSecond) + 0.5;
  return duration_text(ns >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(ns));
}

std::size_t columns_of(std::string_view text) noexcept {
  std::size_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return count;
}

std::string rate_in_units(std::int64_t bytes, std::int64_t elapsed_ns, RateUnits units) {
  if (elapsed_ns <= 0) return "Infinity B/s";
  const bool si = units == RateUnits::kAll || units == RateUnits::kBoth || units == RateUnits::kSi;
  const bool iec = units == RateUnits::kAll || units == RateUnits::kBoth || units == RateUnits::kIec ||
                   units == RateUnits::kIecAndBytes;
  const bool plain = units == RateUnits::kAll || units == RateUnits::kBytes || units == RateUnits::kIecAndBytes;
  const std::int64_t done = bytes > 0 ? bytes : 0;
  std::string text;
  if (si) text = human_rate(done, elapsed_ns, true);
  if (iec) text += (text.empty() ? "" : " = ") + human_rate(done, elapsed_ns, false);
  if (plain) {
    text += fmt::format("{}{} B/s", text.empty() ? "" : " = ",
                        round_half_even(static_cast<Wide>(done) * static_cast<std::uint64_t>(kNanosecondsPerSecond),
                                        static_cast<Wide>(elapsed_ns)));
  }
  return text;
}

std::string Reporter::extended_progress(std::string_view program, const Stats& stats, std::int64_t elapsed_ns,
                                        std::optional<std::int64_t> total_bytes, bool terminal) {
  Buffer out;
  if (terminal) {
    out.push_back('\r');
  } else if (progress_length_ > 0) {
    // A \r line is still open: end it rather than append to it.
    out.push_back('\n');
    progress_length_ = 0;
  }
  const std::size_t start = out.size();
  const std::int64_t done = stats.bytes_in > 0 ? stats.bytes_in : 0;
  append_format(out, "{}: {}", program, human_size(done, false));
  if (total_bytes) {
    const std::int64_t total = *total_bytes > 0 ? *total_bytes : 0;
    const Wide percent = total == 0 || done >= total ? 100 : static_cast<Wide>(done) * 100 / static_cast<Wide>(total);
    append_format(out, " of {} ({}%), {}, ETA ", human_size(total, false), percent, progress_rate(done, elapsed_ns));
    if (done >= total) {
      append(out, "0:00:00");
    } else if (done == 0 || elapsed_ns <= 0) {
      append(out, "-:--:--");
    } else {
      // remaining / (done / elapsed), in whole seconds rounded up.
      const Wide num = static_cast<Wide>(total - done) * static_cast<Wide>(elapsed_ns);
      const Wide den = static_cast<Wide>(done) * static_cast<std::uint64_t>(kNanosecondsPerSecond);
      append_clock(out, (num + den - 1) / den);
    }
  } else {
    append_format(out, " so far, {}", progress_rate(done, elapsed_ns));
  }
  if (terminal) {
    pad_over_previous_line(out, out.size() - start, progress_length_);
  } else {
    out.push_back('\n');
  }
  return to_string(out);
}

}  // namespace ddtime
