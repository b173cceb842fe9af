// SPDX-License-Identifier: GPL-3.0-or-later
// ddtime's own reports: the timing lines after GNU's summary, the --progress
// line and the --json object. GNU's sizes and rates come from report.cc
// (human_size, human_rate); this file adds fixed-point seconds, percentages
// and the JSON encoder. Formats are specified in report.h.
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "report.h"
#include "report_internal.h"

namespace ddtime {
namespace {

using report_internal::round_half_even;
using report_internal::Wide;
using Buffer = fmt::memory_buffer;

constexpr Wide kNanos = 1'000'000'000;

void append(Buffer& out, std::string_view text) { out.append(text.data(), text.data() + text.size()); }

template <typename... Args>
void append_format(Buffer& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

Wide power_of_ten(int exponent) {
  Wide power = 1;
  for (int i = 0; i < exponent; ++i) power *= 10;
  return power;
}

// num/den with exactly `decimals` decimals, rounded half to even like the
// GNU figures beside it. Integer arithmetic, so no locale and no binary
// rounding: 81300000 ns / 1e9 at 4 decimals is "0.0813".
// Requires: den > 0, num * 10^decimals < 2^128.
void append_fixed(Buffer& out, Wide num, Wide den, int decimals) {
  const Wide scale = power_of_ten(decimals);
  const Wide scaled = round_half_even(num * scale, den);
  append_format(out, "{}", scaled / scale);
  if (decimals > 0) append_format(out, ".{:0>{}}", scaled % scale, decimals);
}

Wide non_negative(std::int64_t value) { return value > 0 ? static_cast<Wide>(value) : 0; }

// "0.0813 s"; a negative duration (a clock that went backwards) is 0.
void append_seconds(Buffer& out, std::int64_t ns) {
  append_fixed(out, non_negative(ns), kNanos, 4);
  append(out, " s");
}

// part/whole in percent with one decimal: "49.2%"; "0.0%" when whole is 0.
void append_percent(Buffer& out, Wide part, std::int64_t whole) {
  if (whole <= 0) {
    append(out, "0.0");
  } else {
    append_fixed(out, part * 100, static_cast<Wide>(whole), 1);
  }
  out.push_back('%');
}

// Input records, full and partial alike: the reads that returned data.
Wide records_in(const Stats& stats) {
  return non_negative(stats.full_records_in) + non_negative(stats.partial_records_in);
}

// real/records with 3 significant digits in the largest unit (ns, us, ms,
// s) that keeps the value at least 1: "19.4 us", "2.50 ms", "120 ns". A
// value that rounds up to 1000 moves to the next unit ("1.00 us" for
// 999.7 ns); seconds keep every whole digit. Below 1 ns, 3 decimals.
// Requires: records > 0.
void append_duration_each(Buffer& out, Wide real_ns, Wide records) {
  static constexpr std::string_view kUnits[] = {"ns", "us", "ms", "s"};
  constexpr int kLastUnit = 3;
  int unit = 0;
  Wide unit_ns = 1;
  while (unit < kLastUnit && real_ns >= records * unit_ns * 1000) {
    unit_ns *= 1000;
    ++unit;
  }
  const Wide den = records * unit_ns;
  if (real_ns < den && round_half_even(real_ns * 1000, den) < 1000) {  // below 1 ns
    append_fixed(out, real_ns, den, 3);
  } else {
    for (int decimals = 2;; --decimals) {
      const Wide scaled = round_half_even(real_ns * power_of_ten(decimals), den);
      if (scaled < 1000 || (decimals == 0 && unit == kLastUnit)) {
        append_fixed(out, real_ns, den, decimals);
        break;
      }
      if (decimals == 0) {  // 999.5 and up: one of the next unit
        ++unit;
        append(out, "1.00");
        break;
      }
    }
  }
  out.push_back(' ');
  append(out, kUnits[unit]);
}

// The call made after the copy, if any (see report.h). Under oflag=direct
// GNU writes a short final block with O_DIRECT cleared and then fsyncs;
// only a short write makes a partial output record.
std::string_view flush_call(const Settings& settings, const Stats& stats) {
  if (settings.conv.fdatasync && settings.conv.fsync) return "fdatasync+fsync";
  if (settings.conv.fdatasync) return "fdatasync";
  if (settings.conv.fsync) return "fsync";
  if (settings.oflag.direct && stats.partial_records_out > 0) return "fsync";
  return {};
}

bool durability_in_play(const Settings& settings) {
  return settings.conv.fsync || settings.conv.fdatasync || settings.oflag.sync || settings.oflag.dsync ||
         settings.oflag.direct;
}

// "oflag=direct,dsync conv=fdatasync; page cache bypassed; ...".
void append_durability(Buffer& out, const Settings& settings) {
  const IoFlags& oflag = settings.oflag;
  const Conversions& conv = settings.conv;
  std::string_view separator = "";
  auto symbol = [&](bool set, std::string_view name) {
    if (!set) return;
    append(out, separator);
    append(out, name);
    separator = ",";
  };
  if (oflag.direct || oflag.dsync || oflag.sync) {
    append(out, "oflag=");
    symbol(oflag.direct, "direct");
    symbol(oflag.dsync, "dsync");
    symbol(oflag.sync, "sync");
  }
  if (conv.fdatasync || conv.fsync) {
    if (!separator.empty()) out.push_back(' ');
    separator = "";
    append(out, "conv=");
    symbol(conv.fdatasync, "fdatasync");
    symbol(conv.fsync, "fsync");
  }

  if (oflag.direct) append(out, "; page cache bypassed");
  // O_SYNC includes O_DSYNC's guarantee, so it alone is described.
  if (oflag.sync) {
    append(out, "; every write waited for the device, data and metadata");
  } else if (oflag.dsync) {
    append(out, "; every write waited for the device");
  }
  if (conv.fsync) {
    append(out, "; data and metadata flushed to the device once, at the end");
  } else if (conv.fdatasync) {
    append(out, "; data flushed to the device once, at the end");
  }
  // The complaint this answers: the progress rate looked great, then dd
  // sat in fsync. With per-write sync there is nothing left to wait for.
  if ((conv.fsync || conv.fdatasync) && !oflag.sync && !oflag.dsync) {
    append(out, "; rates shown before the flush overstate sustained speed");
  }
}

void append_rate_line(Buffer& out, const Stats& stats, const RunTimes& times, RateUnits units) {
  if (times.real_ns <= 0) {
    append(out, "Infinity B/s");
    return;
  }
  const Wide real = static_cast<Wide>(times.real_ns);
  const std::int64_t bytes = stats.bytes_out > 0 ? stats.bytes_out : 0;
  const bool si = units == RateUnits::kAll || units == RateUnits::kBoth || units == RateUnits::kSi;
  const bool iec = units == RateUnits::kAll || units == RateUnits::kBoth || units == RateUnits::kIec ||
                   units == RateUnits::kIecAndBytes;
  const bool plain = units == RateUnits::kAll || units == RateUnits::kBytes || units == RateUnits::kIecAndBytes;
  std::string_view separator = "";
  if (si) {
    append(out, human_rate(bytes, times.real_ns, true));
    separator = " = ";
  }
  if (iec) {
    append(out, separator);
    append(out, human_rate(bytes, times.real_ns, false));
    separator = " = ";
  }
  if (plain) {
    append(out, separator);
    append_format(out, "{} B/s", round_half_even(static_cast<Wide>(bytes) * kNanos, real));
  }

  const Wide records = records_in(stats);
  if (records == 0) return;
  const Wide per_second = round_half_even(records * kNanos, real);
  append_format(out, "; {} {}/s (", per_second, per_second == 1 ? "record" : "records");
  append_duration_each(out, real, records);
  append(out, " each)");
}

// --- JSON ---

// Length of the valid UTF-8 sequence starting text[0], or 0 if there is
// none (stray continuation byte, overlong form, surrogate, above U+10FFFF,
// truncated sequence).
std::size_t utf8_sequence_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length;
  unsigned char low = 0x80;  // bounds of the second byte
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

void append_json_string(Buffer& out, std::string_view text) {
  out.push_back('"');
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '"' || byte == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(byte));
      ++i;
    } else if (byte < 0x20 || byte == 0x7F) {
      append_format(out, "\\u{:04x}", byte);
      ++i;
    } else if (byte < 0x80) {
      out.push_back(static_cast<char>(byte));
      ++i;
    } else if (std::size_t length = utf8_sequence_length(text.substr(i)); length > 0) {
      append(out, text.substr(i, length));
      i += length;
    } else {
      append_format(out, "\\u{:04x}", byte);
      ++i;
    }
  }
  out.push_back('"');
}

// Exact seconds from nanoseconds: "0.081300000", "-1.000000000".
void append_json_seconds(Buffer& out, std::int64_t ns) {
  Wide magnitude;
  if (ns < 0) {
    out.push_back('-');
    magnitude = static_cast<Wide>(-(ns + 1)) + 1;  // INT64_MIN too
  } else {
    magnitude = static_cast<Wide>(ns);
  }
  append_fixed(out, magnitude, kNanos, 9);
}

void append_json_per_second(Buffer& out, Wide count, std::int64_t real_ns) {
  if (real_ns <= 0) {
    append(out, "null");
  } else {
    append_fixed(out, count * kNanos, static_cast<Wide>(real_ns), 3);
  }
}

// Names as <signal.h> spells them; the numbers differ between systems.
std::optional<std::string_view> signal_name(int signal) {
  struct Named {
    int number;
    std::string_view name;
  };
  static constexpr Named kSignals[] = {
      {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"},
      {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"},
      {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
      {SIGCHLD, "SIGCHLD"}, {SIGCONT, "SIGCONT"}, {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"}, {SIGTTIN, "SIGTTIN"},
      {SIGTTOU, "SIGTTOU"}, {SIGURG, "SIGURG"},   {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGVTALRM, "SIGVTALRM"},
      {SIGPROF, "SIGPROF"}, {SIGSYS, "SIGSYS"},
  };
  for (const Named& named : kSignals) {
    if (named.number == signal) return named.name;
  }
  return std::nullopt;
}

std::string_view status_name(StatusLevel level) {
  switch (level) {
    case StatusLevel::kNone:
      return "none";
    case StatusLevel::kNoxfer:
      return "noxfer";
    case StatusLevel::kProgress:
      return "progress";
    case StatusLevel::kDefault:
      break;
  }
  return "default";
}

// A JSON array of the names whose flag is set, in the order given.
struct Symbol {
  bool set;
  std::string_view name;
};
void append_json_symbols(Buffer& out, std::initializer_list<Symbol> symbols) {
  out.push_back('[');
  std::string_view separator = "";
  for (const Symbol& symbol : symbols) {
    if (!symbol.set) continue;
    append(out, separator);
    append_json_string(out, symbol.name);
    separator = ",";
  }
  out.push_back(']');
}

void append_json_conv(Buffer& out, const Conversions& conv) {
  append_json_symbols(out, {{conv.ascii, "ascii"},
                            {conv.ebcdic, "ebcdic"},
                            {conv.ibm, "ibm"},
                            {conv.block, "block"},
                            {conv.unblock, "unblock"},
                            {conv.lcase, "lcase"},
                            {conv.ucase, "ucase"},
                            {conv.sparse, "sparse"},
                            {conv.swab, "swab"},
                            {conv.sync, "sync"},
                            {conv.excl, "excl"},
                            {conv.nocreat, "nocreat"},
                            {conv.notrunc, "notrunc"},
                            {conv.noerror, "noerror"},
                            {conv.fdatasync, "fdatasync"},
                            {conv.fsync, "fsync"}});
}

void append_json_flags(Buffer& out, const IoFlags& flags) {
  append_json_symbols(out, {{flags.append, "append"},
                            {flags.direct, "direct"},
                            {flags.directory, "directory"},
                            {flags.dsync, "dsync"},
                            {flags.sync, "sync"},
                            {flags.fullblock, "fullblock"},
                            {flags.nonblock, "nonblock"},
                            {flags.noatime, "noatime"},
                            {flags.nocache, "nocache"},
                            {flags.noctty, "noctty"},
                            {flags.nofollow, "nofollow"},
                            {flags.count_bytes, "count_bytes"},
                            {flags.skip_bytes, "skip_bytes"},
                            {flags.seek_bytes, "seek_bytes"}});
}

void append_json_path(Buffer& out, const std::optional<std::string>& path) {
  if (path) {
    append_json_string(out, *path);
  } else {
    append(out, "null");
  }
}

void append_json_operands(Buffer& out, const Settings& settings) {
  append(out, "{\"if\":");
  append_json_path(out, settings.input_file);
  append(out, ",\"of\":");
  append_json_path(out, settings.output_file);
  append_format(out, ",\"ibs\":{},\"obs\":{},\"cbs\":{}", settings.ibs, settings.obs, settings.cbs);
  append_format(out, ",\"skip\":{{\"records\":{},\"bytes\":{}}}", settings.skip_records, settings.skip_bytes);
  append_format(out, ",\"seek\":{{\"records\":{},\"bytes\":{}}}", settings.seek_records, settings.seek_bytes);
  append(out, ",\"count\":{\"records\":");
  if (settings.max_records == kNoLimit) {
    append(out, "null");
  } else {
    append_format(out, "{}", settings.max_records);
  }
  append_format(out, ",\"bytes\":{}}}", settings.max_bytes);
  append(out, ",\"conv\":");
  append_json_conv(out, settings.conv);
  append(out, ",\"iflag\":");
  append_json_flags(out, settings.iflag);
  append(out, ",\"oflag\":");
  append_json_flags(out, settings.oflag);
  append(out, ",\"status\":");
  append_json_string(out, status_name(settings.status));
  out.push_back('}');
}

void append_json_times(Buffer& out, const RunTimes& times) {
  append(out, "{\"real\":");
  append_json_seconds(out, times.real_ns);
  append(out, ",\"copy\":");
  append_json_seconds(out, times.copy_ns);
  append(out, ",\"flush\":");
  append_json_seconds(out, times.flush_ns);
  append(out, ",\"read\":");
  if (times.split) {
    append_json_seconds(out, times.read_ns);
  } else {
    append(out, "null");
  }
  append(out, ",\"write\":");
  if (times.split) {
    append_json_seconds(out, times.write_ns);
  } else {
    append(out, "null");
  }
  append(out, ",\"user\":");
  append_json_seconds(out, times.user_ns);
  append(out, ",\"sys\":");
  append_json_seconds(out, times.sys_ns);
  out.push_back('}');
}

// "H:MM:SS" for a whole number of seconds.
void append_clock(Buffer& out, Wide seconds) {
  append_format(out, "{}:{:02}:{:02}", seconds / 3600, static_cast<unsigned>(seconds / 60 % 60),
                static_cast<unsigned>(seconds % 60));
}

std::string to_string(const Buffer& buffer) { return std::string(buffer.data(), buffer.size()); }

}  // namespace

std::string timing_report(std::string_view program, const Stats& stats, const RunTimes& times,
                          const Settings& settings) {
  Buffer out;
  append_format(out, "{}: real ", program);
  append_seconds(out, times.real_ns);
  if (std::string_view call = flush_call(settings, stats); !call.empty()) {
    append(out, " (copy ");
    append_seconds(out, times.copy_ns);
    append_format(out, " + {} ", call);
    append_seconds(out, times.flush_ns);
    out.push_back(')');
  }
  append(out, "  user ");
  append_seconds(out, times.user_ns);
  append(out, "  sys ");
  append_seconds(out, times.sys_ns);
  append(out, "  cpu ");
  append_percent(out, non_negative(times.user_ns) + non_negative(times.sys_ns), times.real_ns);
  out.push_back('\n');

  if (times.split) {
    const Wide real = non_negative(times.real_ns);
    const Wide read = non_negative(times.read_ns);
    const Wide write = non_negative(times.write_ns);
    const Wide accounted = read + write + non_negative(times.flush_ns);
    append_format(out, "{}: read ", program);
    append_seconds(out, times.read_ns);
    append(out, " (");
    append_percent(out, read, times.real_ns);
    append(out, ")  write ");
    append_seconds(out, times.write_ns);
    append(out, " (");
    append_percent(out, write, times.real_ns);
    append(out, ")  other ");
    append_fixed(out, real > accounted ? real - accounted : 0, kNanos, 4);
    append(out, " s\n");
  }

  append_format(out, "{}: ", program);
  append_rate_line(out, stats, times, settings.ext.units.value_or(RateUnits::kIecAndBytes));
  out.push_back('\n');

  if (durability_in_play(settings)) {
    append_format(out, "{}: durability: ", program);
    append_durability(out, settings);
    out.push_back('\n');
  }
  return to_string(out);
}

std::string json_quote(std::string_view text) {
  Buffer out;
  append_json_string(out, text);
  return to_string(out);
}

std::string json_report(const JsonRun& run) {
  const Stats& stats = run.stats;
  Buffer out;
  append(out, "{\"tool\":\"ddtime\",\"version\":");
  append_json_string(out, run.version.empty() ? std::string_view(DDTIME_VERSION) : run.version);
  append_format(out, ",\"complete\":{}", run.complete);
  append(out, ",\"operands\":");
  append_json_operands(out, run.settings);
  append_format(out, ",\"records_in\":{{\"full\":{},\"partial\":{}}}", stats.full_records_in, stats.partial_records_in);
  append_format(out, ",\"records_out\":{{\"full\":{},\"partial\":{}}}", stats.full_records_out,
                stats.partial_records_out);
  append_format(out, ",\"truncated_records\":{},\"bytes_in\":{},\"bytes_out\":{}", stats.truncated_records,
                stats.bytes_in, stats.bytes_out);
  append(out, ",\"times\":");
  append_json_times(out, run.times);
  append(out, ",\"rates\":{\"bytes_per_second\":");
  append_json_per_second(out, non_negative(stats.bytes_out), run.times.real_ns);
  append(out, ",\"records_per_second\":");
  append_json_per_second(out, records_in(stats), run.times.real_ns);
  append(out, "},\"exit_status\":");
  if (run.exit_status) {
    append_format(out, "{}", *run.exit_status);
  } else {
    append(out, "null");
  }
  append(out, ",\"signal\":");
  if (run.signal == 0) {
    append(out, "null");
  } else if (auto name = signal_name(run.signal)) {
    append_json_string(out, *name);
  } else {
    append_json_string(out, fmt::format("{}", run.signal));
  }
  append(out, ",\"errors\":[");
  std::string_view separator = "";
  for (const std::string& error : run.errors) {
    append(out, separator);
    append_json_string(out, error);
    separator = ",";
  }
  append(out, "]}\n");
  return to_string(out);
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
    append_format(out, " of {} ({}%), {}, ETA ", human_size(total, false), percent, human_rate(done, elapsed_ns, true));
    if (done >= total) {
      append(out, "0:00:00");
    } else if (done == 0 || elapsed_ns <= 0) {
      append(out, "-:--:--");
    } else {
      // remaining / (done / elapsed), in whole seconds rounded up.
      const Wide num = static_cast<Wide>(total - done) * static_cast<Wide>(elapsed_ns);
      const Wide den = static_cast<Wide>(done) * kNanos;
      append_clock(out, (num + den - 1) / den);
    }
  } else {
    append_format(out, " copied, {}", human_rate(done, elapsed_ns, true));
  }
  if (terminal) {
    const std::size_t length = out.size() - start;
    for (std::size_t width = length; width < progress_length_; ++width) out.push_back(' ');
    progress_length_ = length;
  } else {
    out.push_back('\n');
  }
  return to_string(out);
}

}  // namespace ddtime
