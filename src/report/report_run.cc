// SPDX-License-Identifier: GPL-3.0-or-later
// ddtime's own lines before GNU's summary, as report_run.h specifies.
// GNU's rates come from report.cc (human_rate); this file adds fixed-point
// seconds, percentages and the time per record.
#include "report/report_run.h"

#include <string.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "model/units.h"
#include "report/diag.h"
#include "report/report.h"
#include "report/report_internal.h"
#include "system/ring_registry.h"

namespace ddtime {
namespace {

using report_internal::append;
using report_internal::append_format;
using report_internal::Buffer;
using report_internal::non_negative;
using report_internal::records_in;
using report_internal::round_half_even;
using report_internal::to_string;
using report_internal::Wide;

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

// "0.0813 s", "43.2 us" (duration_text).
void append_seconds(Buffer& out, std::int64_t ns) { append(out, duration_text(ns)); }

// part/whole in percent with one decimal: "49.2%"; "0.0%" when whole is 0.
void append_percent(Buffer& out, Wide part, std::int64_t whole) {
  if (whole <= 0) {
    append(out, "0.0");
  } else {
    append_fixed(out, part * 100, static_cast<Wide>(whole), 1);
  }
  out.push_back('%');
}

// real/records with 3 significant digits in the largest unit (ns, us, ms,
// s) that keeps the value at least 1: "19.4 us", "2.50 ms", "120 ns". A
// value that rounds up to 1000 moves to the next unit ("1.00 us" for
// 999.7 ns); seconds keep every whole digit. Below 1 ns, 3 decimals.
// Requires: records > 0.
void append_duration_each(Buffer& out, Wide real_ns, Wide records) {
  // Characters, not string_views: a table of pointers would need
  // relocating, a page the loader writes at every start.
  static constexpr char kUnits[][3] = {"ns", "us", "ms", "s"};
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
  append(out, rate_in_units(stats.bytes_out, times.real_ns, units));
  if (times.real_ns <= 0) return;
  const Wide real = static_cast<Wide>(times.real_ns);
  const Wide records = records_in(stats);
  if (records == 0) return;
  const Wide per_second = round_half_even(records * Wide{kNanosecondsPerSecond}, real);
  append_format(out, "; {} {}/s (", per_second, per_second == 1 ? "record" : "records");
  append_duration_each(out, real, records);
  append(out, " each)");
}

// --split-times: the read and write time, or why a run has none.
void append_split_line(Buffer& out, std::string_view program, const RunTimes& times, const Settings& settings) {
  if (settings.ext.split_times && !times.split) {
    // Asked for and not measured: said, never shown as 0.
    append_format(out, "{}: read and write time not measured: a queued engine's I/O is in flight together\n", program);
  } else if (times.split) {
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
    append_seconds(out, real > accounted ? static_cast<std::int64_t>(real - accounted) : 0);
    out.push_back('\n');
  }
}

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
  const Wide cpu = non_negative(times.user_ns) + non_negative(times.sys_ns);
  append_percent(out, cpu, times.real_ns);
  // Above 100% is no error when more than the copy's thread worked.
  if (times.threads > 1) {
    append_format(out, " over {} threads", times.threads);
  } else if (times.threads == 0 && times.job_threads > 1) {
    // --jobs with io_uring: the job threads' CPU first; the kernel's
    // workers named only for what the job threads cannot hold.
    append_format(out, " over {} job threads", times.job_threads);
    if (cpu > non_negative(times.real_ns) * times.job_threads) append(out, " and io_uring's kernel workers");
  } else if (times.threads == 0 && cpu > non_negative(times.real_ns)) {
    append(out, " with io_uring's kernel workers");
  }
  out.push_back('\n');

  append_split_line(out, program, times, settings);

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

namespace {

// A duration with 3 significant digits in ns, us, ms or s: "812 ns", "8.19 us".
std::string three_digits(double ns) {
  static constexpr const char* kUnits[] = {"ns", "us", "ms", "s"};
  std::size_t unit = 0;
  while (unit < 3 && ns >= 999.5) {
    ns /= 1000;
    ++unit;
  }
  const int decimals = ns >= 99.95 ? 0 : ns >= 9.995 ? 1 : 2;
  return fmt::format("{:.{}f} {}", ns, unit == 0 ? 0 : decimals, kUnits[unit]);
}

void append_side(Buffer& out, std::string_view program, std::string_view name, const LatencySummary& side) {
  append_format(out, "{}: {:<5} {} I/O{}:", program, name, side.count, side.count == 1 ? "" : "s");
  if (side.count == 0) {
    append(out, " none\n");
    return;
  }
  append_format(out, " min {}  mean {}  sd {}  max {}", three_digits(static_cast<double>(side.min_ns)),
                three_digits(side.mean_ns), three_digits(side.sd_ns), three_digits(static_cast<double>(side.max_ns)));
  for (std::size_t i = 0; i < side.percentiles.size(); ++i) {
    append_format(out, "  {} {}", kLatencyPercentiles[i].label,
                  side.percentiles[i] ? three_digits(static_cast<double>(*side.percentiles[i])) : std::string("n/a"));
  }
  out.push_back('\n');
}

void append_histogram(Buffer& out, std::string_view program, std::string_view name, const LatencySummary& side,
                      bool utf8) {
  if (side.histogram.empty()) return;
  constexpr int kWidth = 40;
  std::int64_t most = 0;
  for (const LatencyBucket& bucket : side.histogram) most = std::max(most, bucket.count);
  append_format(out, "{}: {:<29}: count      distribution\n", program, fmt::format("{} latency, ns", name));
  for (const LatencyBucket& bucket : side.histogram) {
    const std::int64_t low = bucket.le_ns == 0 ? 0 : bucket.le_ns / 2 + 1;
    const auto filled = static_cast<int>(most > 0 ? (bucket.count * kWidth + most - 1) / most : 0);
    append_format(out, "{}: {:>12} -> {:<12}: {:<10} |", program, low, bucket.le_ns, bucket.count);
    for (int i = 0; i < kWidth; ++i) append(out, i < filled ? (utf8 ? "\u2588" : "*") : " ");
    append(out, "|\n");
  }
}

}  // namespace

std::string_view latency_definition_words(LatencyDefinition definition) noexcept {
  switch (definition) {
    case LatencyDefinition::kChained:
      return "system call, from the end of the one before";
    case LatencyDefinition::kQueued:
      return "submit to reap";
    case LatencyDefinition::kPerCall:
      break;
  }
  return "system call";
}

std::string latency_report(std::string_view program, const LatencyReport& latency, bool utf8) {
  Buffer out;
  const bool exact = latency.read.exact && latency.write.exact;
  const char* percentiles = exact ? "from every sample" : "from a histogram (under 1% off) beyond the samples kept";
  if (latency.definition != LatencyDefinition::kChained) {
    append_format(out, "{}: latency per {} (clock {:.0f} ns a reading, not subtracted): percentiles {}\n", program,
                  latency_definition_words(latency.definition), latency.clock_cost_ns, percentiles);
  } else if (latency.between_calls_ns) {
    append_format(out,
                  "{}: latency per system call, from the end of the one before (ddtime's work between calls, "
                  "{:.0f} ns, and clock {:.0f} ns a reading, included, not subtracted): percentiles {}\n",
                  program, *latency.between_calls_ns, latency.clock_cost_ns, percentiles);
  } else {
    append_format(out,
                  "{}: latency per system call, from the end of the one before (ddtime's work between calls and "
                  "clock {:.0f} ns a reading included, not subtracted): percentiles {}\n",
                  program, latency.clock_cost_ns, percentiles);
  }
  append_side(out, program, "read", latency.read);
  append_side(out, program, "write", latency.write);
  append_histogram(out, program, "read", latency.read, utf8);
  append_histogram(out, program, "write", latency.write, utf8);
  return to_string(out);
}

std::string engine_fallback(const EngineUse& engine) {
  switch (engine.fallback) {
    case EngineUse::Fallback::kNone:
      return {};
    case EngineUse::Fallback::kInputCannotSeek:
      return "the input cannot seek, so it is read one record at a time";
    case EngineUse::Fallback::kInputReadInOrder:
      return "the input is a character device, whose reads may each be a record, so it is read one record at a time";
    case EngineUse::Fallback::kEngineRefused:
      // strerror in the C locale, as every message of ours; an errno
      // glibc has no words for is named by its number, not a null pointer.
      return fmt::format("{} refused: {}",
                         engine.refused ? engine_word(*engine.refused) : std::string_view("the engine"),
                         error_text(engine.fallback_err));
  }
  return {};
}

std::string engine_setup(const EngineUse& engine) {
  const RingSetup& setup = engine.setup;
  switch (engine.kind) {
    case EngineChoice::kIoUring: {
      std::string words = setup.registered_buffers ? "registered buffers" : "plain buffers";
      if (setup.registered_files) words += ", registered files";
      if (setup.single_issuer) words += ", single issuer";
      if (setup.cooperative_task_run) words += ", cooperative task run";
      if (setup.deferred_task_run) words += ", deferred task run";
      return words;
    }
    case EngineChoice::kThreads:
      return fmt::format("{} {}", setup.entries, setup.entries == 1 ? "thread" : "threads");
    case EngineChoice::kLibaio:
      return fmt::format("Linux AIO context of {}", setup.entries);
    case EngineChoice::kAuto:
    case EngineChoice::kSync:
      return {};
  }
  return {};
}

std::string random_line(std::string_view program, const RandomAccess& access, const Stats& stats, const RunTimes& times,
                        std::int64_t bs) {
  const std::int64_t records = stats.full_records_in + stats.partial_records_in;
  const double iops =
      times.real_ns > 0 ? per_second(static_cast<double>(records), static_cast<double>(times.real_ns)) : 0;
  std::string range = fmt::format("{} blocks of {} B", access.blocks, bs);
  if (access.bytes % bs != 0) range += fmt::format(" and a last one of {} B", access.bytes % bs);
  range += fmt::format(" ({}) from offset {}", human_size(access.bytes, false), access.input_offset);
  if (access.output_offset != access.input_offset) range += fmt::format(", written from {}", access.output_offset);
  return fmt::format("{}: random order: {:.0f} IOPS, {}, each once{}; seed {}\n", program, iops, range,
                     access.per_pass ? " a pass" : "", access.seed);
}

std::string option_duration(std::int64_t ns) {
  constexpr std::pair<std::int64_t, const char*> kUnits[] = {
      {3'600'000'000'000, "h"}, {60'000'000'000, "m"}, {kNanosecondsPerSecond, "s"}, {1'000'000, "ms"}};
  for (const auto& [length, unit] : kUnits) {
    if (ns >= length && ns % length == 0) return fmt::format("{}{}", ns / length, unit);
  }
  if (ns >= kNanosecondsPerSecond) return fmt::format("{:g}s", in_seconds(static_cast<double>(ns)));
  return fmt::format("{:g}ms", static_cast<double>(ns) / 1e6);
}

std::string timed_lines(std::string_view program, const TimedRun& timed, const RunTimes& times, std::int64_t bs) {
  Buffer out;
  if (timed.in_ramp) {
    append_format(out, "{}: ramp: {:.3f} s of --ramp={} so far, unmeasured: the figures below are the ramp's\n",
                  program, in_seconds(static_cast<double>(timed.ramp_elapsed_ns)), option_duration(timed.ramp_ns));
    return to_string(out);
  }
  append_format(out, "{}: timed: {:.3f} s of --time={}, ", program, in_seconds(static_cast<double>(times.copy_ns)),
                option_duration(timed.limit_ns));
  if (timed.range_blocks > 0) {
    append_format(out, "{:.2f} passes over {} blocks of {} B ({})", timed.passes, timed.range_blocks, bs,
                  human_size(timed.range_bytes, false));
  } else {
    append_format(out, "one pass over an endless range");
  }
  switch (timed.ended_by) {
    case TimedEnd::kTime:
      append_format(out, "; ended by the time limit\n");
      break;
    case TimedEnd::kSteady:
      append_format(out, "; ended early, steady by --steady's rule\n");
      break;
    case TimedEnd::kRange:
      append_format(out, "; ended before the time was up\n");
      break;
    case TimedEnd::kRunning:
      append_format(out, " so far; still running\n");
      break;
  }
  if (timed.ramp_ns > 0) {
    const Stats& ramp = timed.ramp_stats;
    append_format(out, "{}: ramp: {:.3f} s first, unmeasured: {}+{} records, {} B (in no figure here)\n", program,
                  in_seconds(static_cast<double>(timed.ramp_elapsed_ns)), ramp.full_records_out,
                  ramp.partial_records_out, ramp.bytes_out);
  }
  return to_string(out);
}

double cpu_per_io(const RunTimes& times, const Stats& stats) {
  const std::int64_t ios =
      stats.full_records_in + stats.partial_records_in + stats.full_records_out + stats.partial_records_out;
  const std::int64_t cpu = times.user_ns + times.sys_ns;
  return ios > 0 && cpu > 0 ? in_seconds(static_cast<double>(cpu)) / static_cast<double>(ios) : 0;
}

std::string jobs_line(std::string_view program, const EngineUse& engine, const RunTimes& times, const Stats& stats) {
  if (engine.jobs_asked <= 1) return {};
  Buffer out;
  append_format(out, "{}: jobs {}", program, engine.jobs.ran);
  if (engine.jobs.ran < engine.jobs_asked && engine.setup_interrupted) {
    append_format(out, " of {} asked (a SIGINT came while they were set up)", engine.jobs_asked);
  } else if (engine.jobs.ran < engine.jobs_asked) {
    const std::int64_t records = engine.jobs.range_records >= 0 ? engine.jobs.range_records : engine.jobs.ran;
    append_format(out, " of {} asked (the range has {} record{})", engine.jobs_asked, records, records == 1 ? "" : "s");
  }
  if (engine.jobs.ran > 1) {
    append_format(out, ", the last ended {:.1f} ms after the first; submitters {:.0f}% busy",
                  engine.jobs.spread_s() * 1e3, engine.jobs.busy * 100);
    if (engine.cpu_limited()) out.append(std::string_view(": CPU-limited, more jobs may help"));
  }
  if (const double cpu = cpu_per_io(times, stats); cpu > 0) append_format(out, "; {:.2f} us CPU per I/O", cpu * 1e6);
  out.push_back('\n');
  return to_string(out);
}

std::string engine_line(std::string_view program, const EngineUse& engine) {
  Buffer out;
  append_format(out, "{}: engine {}, depth {}", program, engine_word(engine.kind), engine.depth);
  if (engine.system_calls_per_io > 0) {
    append_format(out, " (mean {:.1f} in flight), {:.2f} system calls per I/O", engine.mean_in_flight,
                  engine.system_calls_per_io);
  }
  if (const RingEngine* ring = find_ring_engine(engine.kind); ring && ring->setup_in_report) {
    append_format(out, ", {}", engine_setup(engine));
  }
  if (const std::string why = engine_fallback(engine); !why.empty()) append_format(out, "; {}", why);
  out.push_back('\n');
  return to_string(out);
}

}  // namespace ddtime
