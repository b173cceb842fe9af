// SPDX-License-Identifier: GPL-3.0-or-later
// ddtime's own reports: the timing lines, --progress and --json. The
// expected figures were worked out by hand or with exact fractions, not
// copied from the output; GNU's SI rounding is pinned in report_test.cc.
#include "report.h"

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <locale>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/json.h"

namespace ddtime {
namespace {

constexpr std::int64_t kMillisecond = 1'000'000;
constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kGiB = std::int64_t{1} << 30;

Stats copied(std::int64_t full, std::int64_t partial, std::int64_t bytes) {
  Stats stats;
  stats.full_records_in = full;
  stats.partial_records_in = partial;
  stats.full_records_out = full;
  stats.partial_records_out = partial;
  stats.bytes_in = bytes;
  stats.bytes_out = bytes;
  return stats;
}

RunTimes timed(std::int64_t real, std::int64_t user = 0, std::int64_t sys = 0) {
  RunTimes times;
  times.real_ns = real;
  times.copy_ns = real;
  times.user_ns = user;
  times.sys_ns = sys;
  return times;
}

Settings with_units(RateUnits units) {
  Settings settings;
  settings.ext.units = units;
  return settings;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      ADD_FAILURE() << "unterminated line in: " << text;
      end = text.size();
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The line of the report starting with prefix, or "" if none does.
std::string line_starting(const std::string& report, std::string_view prefix) {
  for (const std::string& line : lines_of(report)) {
    if (line.starts_with(prefix)) return line;
  }
  return "";
}

std::string rate_line(const Stats& stats, const RunTimes& times, const Settings& settings = {}) {
  std::vector<std::string> lines = lines_of(timing_report("ddtime", stats, times, settings));
  // real, [read/write], rate, [durability]
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (!lines[i].starts_with("ddtime: read ") && !lines[i].starts_with("ddtime: durability: ")) return lines[i];
  }
  return "";
}

// A finished run with no errors, every other field at its default.
JsonRun plain_run(const Settings& settings, const Stats& stats, const RunTimes& times) {
  return JsonRun{settings, stats, times, true, std::nullopt, 0, {}, {}};
}

// --- reading the JSON back ---

using support::Json;
using support::JsonError;
using support::parse_json;

// The value filling all of text (whitespace aside), or nullopt with error
// saying why.
std::optional<Json> read_json(std::string_view text, std::string* error = nullptr) {
  try {
    return parse_json(text);
  } catch (const JsonError& failure) {
    if (error) *error = failure.what();
    return std::nullopt;
  }
}

// Length of a valid UTF-8 sequence at text[0], 0 if invalid. Written from
// RFC 3629's table, independently of the encoder.
std::size_t utf8_length(std::string_view text) {
  auto at = [&](std::size_t i) -> unsigned { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0x100; };
  const unsigned lead = at(0);
  if (lead < 0x80) return 1;
  std::size_t length = lead >= 0xF8 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0) return 0;
  std::uint32_t code = lead & (0x7Fu >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if ((at(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (at(i) & 0x3F);
  }
  const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = utf8_length(text.substr(i));
    if (length == 0) return false;
    i += length;
  }
  return true;
}

void put_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

TEST(JsonReader, AcceptsAndRejectsWhatRfc8259Says) {
  // The checker itself, so that a pass below means something.
  for (std::string_view good :
       {R"({})", R"([1,-0.5,2e3,true,false,null])", R"({"a":{"b":["\u00e9\ud83d\ude00"]}})", " \"x\" "}) {
    EXPECT_TRUE(read_json(good)) << good;
  }
  for (std::string_view bad :
       {R"({"a":1,})", R"([01])", R"([1.])", R"("\x")", R"("\ud800")", R"({"a":1,"a":2})", "\"a\nb\"", "\"\xff\"",
        "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", R"([1] x)", R"({a:1})", R"([.5])", ""}) {
    EXPECT_FALSE(read_json(bad)) << bad;
  }
  EXPECT_EQ(read_json(R"("\u00e9\u000a")")->string(), "\xc3\xa9\n");
}

// --- timing_report: the real/user/sys/cpu line ---

TEST(TimingReport, PrintsRealUserSysAndCpuThenTheRate) {
  // bs=1M count=4096 in 0.0813 s
  EXPECT_EQ(timing_report("ddtime", copied(4096, 0, 4 * kGiB), timed(81'300'000, 0, 81'100'000), Settings{}),
            "ddtime: real 0.0813 s  user 0.0000 s  sys 0.0811 s  cpu 99.8%\n"
            "ddtime: 49.2 GiB/s = 52828626027 B/s; 50381 records/s (19.8 us each)\n");
}

TEST(TimingReport, EveryLineCarriesTheProgramNameAndEndsWithANewline) {
  Settings settings;
  settings.conv.fdatasync = true;
  RunTimes times = timed(2 * kSecond, 1, 1);
  times.split = true;
  const std::string report = timing_report("dd", copied(1, 0, 512), times, settings);
  ASSERT_EQ(report.back(), '\n');
  const auto lines = lines_of(report);
  EXPECT_EQ(lines.size(), 4u);
  for (const std::string& line : lines) {
    EXPECT_TRUE(line.starts_with("dd: ")) << line;
    for (char c : line) EXPECT_TRUE(c >= 0x20 && c < 0x7F) << "not printable ASCII: " << line;
  }
}

TEST(TimingReport, PrintsSecondsWithFourDecimalsRoundedHalfToEven) {
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, timed(12'345'678'900, 50'000, 150'000), Settings{}),
                          "ddtime: real"),
            "ddtime: real 12.3457 s  user 0.0000 s  sys 0.0002 s  cpu 0.0%");
  EXPECT_EQ(
      line_starting(timing_report("ddtime", Stats{}, timed(123'456 * kSecond, kSecond - 1, 99'995'000), Settings{}),
                    "ddtime: real"),
      "ddtime: real 123456.0000 s  user 1.0000 s  sys 0.1000 s  cpu 0.0%");
}

TEST(TimingReport, PrintsCpuAsAPercentageOfRealWithOneDecimal) {
  auto cpu_line = [](std::int64_t real, std::int64_t user, std::int64_t sys) {
    return line_starting(timing_report("ddtime", Stats{}, timed(real, user, sys), Settings{}), "ddtime: real");
  };
  EXPECT_EQ(cpu_line(kSecond, 250 * kMillisecond, 250 * kMillisecond),
            "ddtime: real 1.0000 s  user 0.2500 s  sys 0.2500 s  cpu 50.0%");
  // 1/3 and 2/3
  EXPECT_TRUE(cpu_line(3 * kSecond, kSecond, 0).ends_with("cpu 33.3%"));
  EXPECT_TRUE(cpu_line(3 * kSecond, kSecond, kSecond).ends_with("cpu 66.7%"));
  // getrusage ticks can make user+sys exceed real.
  EXPECT_TRUE(cpu_line(kSecond, 600 * kMillisecond, 600 * kMillisecond).ends_with("cpu 120.0%"));
}

TEST(TimingReport, ZeroRealGivesZeroCpuAndAnInfiniteRate) {
  EXPECT_EQ(timing_report("ddtime", copied(3, 1, 1600), timed(0, 0, 4000), Settings{}),
            "ddtime: real 0.0000 s  user 0.0000 s  sys 0.0000 s  cpu 0.0%\n"
            "ddtime: Infinity B/s\n");
  // Whatever the units.
  EXPECT_EQ(rate_line(copied(3, 1, 1600), timed(0), with_units(RateUnits::kIec)), "ddtime: Infinity B/s");
}

TEST(TimingReport, NegativeTimesPrintAsZero) {
  RunTimes times = timed(-5, -1, -1);
  times.split = true;
  times.read_ns = -1;
  const std::string report = timing_report("ddtime", Stats{}, times, Settings{});
  EXPECT_EQ(line_starting(report, "ddtime: real"), "ddtime: real 0.0000 s  user 0.0000 s  sys 0.0000 s  cpu 0.0%");
  EXPECT_EQ(line_starting(report, "ddtime: read"),
            "ddtime: read 0.0000 s (0.0%)  write 0.0000 s (0.0%)  other 0.0000 s");
}

// --- flush split and durability ---

RunTimes flushed(std::int64_t copy, std::int64_t flush) {
  RunTimes times = timed(copy + flush, 0, 100 * kMillisecond);
  times.copy_ns = copy;
  times.flush_ns = flush;
  return times;
}

TEST(TimingReport, SplitsRealAndNamesFdatasync) {
  Settings settings;
  settings.conv.fdatasync = true;
  EXPECT_EQ(timing_report("ddtime", copied(4, 0, 4 * kGiB), flushed(1'200'000'000, 6'410'000'000), settings),
            "ddtime: real 7.6100 s (copy 1.2000 s + fdatasync 6.4100 s)  user 0.0000 s  sys 0.1000 s  cpu 1.3%\n"
            "ddtime: 538 MiB/s = 564384664 B/s; 1 record/s (1.90 s each)\n"
            "ddtime: durability: conv=fdatasync; data flushed to the device once, at the end; "
            "rates shown before the flush overstate sustained speed\n");
}

TEST(TimingReport, NamesFsyncAndBothCallsWhenBothAreAsked) {
  Settings settings;
  settings.conv.fsync = true;
  std::string report = timing_report("ddtime", Stats{}, flushed(kSecond, 2 * kSecond), settings);
  EXPECT_TRUE(line_starting(report, "ddtime: real")
                  .starts_with("ddtime: real 3.0000 s (copy 1.0000 s + fsync 2.0000 s)  user"));
  EXPECT_EQ(line_starting(report, "ddtime: durability"),
            "ddtime: durability: conv=fsync; data and metadata flushed to the device once, at the end; "
            "rates shown before the flush overstate sustained speed");

  settings.conv.fdatasync = true;  // GNU calls fdatasync, then fsync
  report = timing_report("ddtime", Stats{}, flushed(kSecond, 2 * kSecond), settings);
  EXPECT_TRUE(line_starting(report, "ddtime: real")
                  .starts_with("ddtime: real 3.0000 s (copy 1.0000 s + fdatasync+fsync 2.0000 s)  user"));
  EXPECT_EQ(line_starting(report, "ddtime: durability"),
            "ddtime: durability: conv=fdatasync,fsync; data and metadata flushed to the device once, at the end; "
            "rates shown before the flush overstate sustained speed");
}

TEST(TimingReport, PrintsCopyAndFlushAsMeasuredEvenIfTheyMissRealByALittle) {
  Settings settings;
  settings.conv.fsync = true;
  RunTimes times = flushed(kSecond, 2 * kSecond);
  times.real_ns += 300'000;  // the summary's own time
  EXPECT_TRUE(line_starting(timing_report("ddtime", Stats{}, times, settings), "ddtime: real")
                  .starts_with("ddtime: real 3.0003 s (copy 1.0000 s + fsync 2.0000 s)  user"));
}

TEST(TimingReport, PerWriteSyncHasNoSplitButADurabilityLine) {
  Settings settings;
  settings.oflag.dsync = true;
  std::string report = timing_report("ddtime", Stats{}, flushed(kSecond, 0), settings);
  EXPECT_EQ(line_starting(report, "ddtime: real"), "ddtime: real 1.0000 s  user 0.0000 s  sys 0.1000 s  cpu 10.0%");
  EXPECT_EQ(line_starting(report, "ddtime: durability"),
            "ddtime: durability: oflag=dsync; every write waited for the device");

  settings.oflag.sync = true;  // sync says more than dsync: only it is explained
  report = timing_report("ddtime", Stats{}, flushed(kSecond, 0), settings);
  EXPECT_EQ(line_starting(report, "ddtime: durability"),
            "ddtime: durability: oflag=dsync,sync; every write waited for the device, data and metadata");
}

TEST(TimingReport, DirectOutputSplitsOnlyWhenAFinalPartialBlockWasSynced) {
  Settings settings;
  settings.oflag.direct = true;
  // Whole blocks only: no fsync, whatever the clock says between copy
  // end and summary.
  std::string report = timing_report("ddtime", copied(8, 0, 4096), flushed(kSecond, 700), settings);
  EXPECT_EQ(line_starting(report, "ddtime: real"), "ddtime: real 1.0000 s  user 0.0000 s  sys 0.1000 s  cpu 10.0%");
  EXPECT_EQ(line_starting(report, "ddtime: durability"), "ddtime: durability: oflag=direct; page cache bypassed");

  // A short last write: GNU cleared O_DIRECT for it and fsynced.
  report = timing_report("ddtime", copied(8, 1, 4100), flushed(kSecond, 5 * kMillisecond), settings);
  EXPECT_TRUE(line_starting(report, "ddtime: real")
                  .starts_with("ddtime: real 1.0050 s (copy 1.0000 s + fsync 0.0050 s)  user"));
}

TEST(TimingReport, CombinesDurabilityModesOnOneLine) {
  Settings settings;
  settings.oflag.direct = true;
  settings.oflag.dsync = true;
  settings.conv.fdatasync = true;
  const std::string report = timing_report("ddtime", Stats{}, flushed(kSecond, kMillisecond), settings);
  EXPECT_TRUE(
      line_starting(report, "ddtime: real").starts_with("ddtime: real 1.0010 s (copy 1.0000 s + fdatasync 0.0010 s)"));
  // Every write waited already: no warning about the rate.
  EXPECT_EQ(line_starting(report, "ddtime: durability"),
            "ddtime: durability: oflag=direct,dsync conv=fdatasync; page cache bypassed; every write waited for the "
            "device; data flushed to the device once, at the end");
}

TEST(TimingReport, InputFlagsAndOtherConversionsAreNotDurability) {
  Settings settings;
  settings.iflag.direct = true;
  settings.iflag.sync = true;
  settings.conv.sync = true;
  settings.conv.notrunc = true;
  const std::string report = timing_report("ddtime", Stats{}, timed(kSecond), settings);
  EXPECT_EQ(lines_of(report).size(), 2u);
  EXPECT_EQ(line_starting(report, "ddtime: durability"), "");
}

// --- read/write split ---

TEST(TimingReport, PrintsReadWriteAndOtherTimeWhenMeasured) {
  RunTimes times = timed(81'300'000);
  times.split = true;
  times.read_ns = 40'000'000;
  times.write_ns = 41'000'000;
  const auto lines = lines_of(timing_report("ddtime", copied(4096, 0, 4 * kGiB), times, Settings{}));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1], "ddtime: read 0.0400 s (49.2%)  write 0.0410 s (50.4%)  other 0.0003 s");
}

TEST(TimingReport, OtherTimeLeavesOutTheFlushAndIsNeverNegative) {
  Settings settings;
  settings.conv.fsync = true;
  RunTimes times = flushed(kSecond, kSecond);
  times.split = true;
  times.read_ns = 300 * kMillisecond;
  times.write_ns = 600 * kMillisecond;
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, times, settings), "ddtime: read"),
            "ddtime: read 0.3000 s (15.0%)  write 0.6000 s (30.0%)  other 0.1000 s");

  times.write_ns = 800 * kMillisecond;  // overlapping measurements
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, times, settings), "ddtime: read"),
            "ddtime: read 0.3000 s (15.0%)  write 0.8000 s (40.0%)  other 0.0000 s");
}

TEST(TimingReport, SplitPercentagesAreZeroWhenRealIsZero) {
  RunTimes times = timed(0);
  times.split = true;
  times.read_ns = 7;
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, times, Settings{}), "ddtime: read"),
            "ddtime: read 0.0000 s (0.0%)  write 0.0000 s (0.0%)  other 0.0000 s");
}

TEST(TimingReport, NoReadWriteLineUnlessMeasured) {
  RunTimes times = timed(kSecond);
  times.read_ns = 5;  // left over, but split is false
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, times, Settings{}), "ddtime: read"), "");
}

// --- the rate line ---

TEST(TimingReport, UnitsChooseTheRates) {
  const Stats stats = copied(4096, 0, 4 * kGiB);
  const RunTimes times = timed(81'300'000);
  const std::string records = "; 50381 records/s (19.8 us each)";
  // By default GNU's summary line keeps the only SI rate.
  EXPECT_EQ(rate_line(stats, times), "ddtime: 49.2 GiB/s = 52828626027 B/s" + records);
  EXPECT_EQ(rate_line(stats, times, with_units(RateUnits::kAll)),
            "ddtime: 52.8 GB/s = 49.2 GiB/s = 52828626027 B/s" + records);
  EXPECT_EQ(rate_line(stats, times, with_units(RateUnits::kSi)), "ddtime: 52.8 GB/s" + records);
  EXPECT_EQ(rate_line(stats, times, with_units(RateUnits::kIec)), "ddtime: 49.2 GiB/s" + records);
  EXPECT_EQ(rate_line(stats, times, with_units(RateUnits::kBoth)), "ddtime: 52.8 GB/s = 49.2 GiB/s" + records);
  EXPECT_EQ(rate_line(stats, times, with_units(RateUnits::kBytes)), "ddtime: 52828626027 B/s" + records);
}

TEST(TimingReport, SiRateIsGnusRateOverTheSameWindow) {
  // The rate at the end of GNU's line and the first one here agree.
  for (std::int64_t real : {std::int64_t{1}, std::int64_t{12}, 81'300'000 + std::int64_t{0}, kSecond, 3 * kSecond}) {
    for (std::int64_t bytes : {std::int64_t{0}, std::int64_t{51}, std::int64_t{999'500}, 4 * kGiB}) {
      const std::string gnu = transfer_line(bytes, real, false);
      const std::string ours = rate_line(copied(0, 0, bytes), timed(real), with_units(RateUnits::kSi));
      EXPECT_TRUE(gnu.ends_with(", " + ours.substr(std::string_view("ddtime: ").size()))) << gnu << " vs " << ours;
    }
  }
}

TEST(TimingReport, IecRateFollowsGnusRulesWithPowersOf1024) {
  // Exact branch (1 s): below 1024 unscaled, one decimal below 10.
  EXPECT_EQ(human_rate(1000, kSecond, false), "1000 B/s");
  EXPECT_EQ(human_rate(1024, kSecond, false), "1.0 KiB/s");
  EXPECT_EQ(human_rate(10 * 1024 - 1, kSecond, false), "10 KiB/s");
  EXPECT_EQ(human_rate(1048064, kSecond, false), "1.0 MiB/s");
  // Floating branch (0.3 s): always scaled at least once.
  EXPECT_EQ(human_rate(3, 300'000'000, false), "0.0 KiB/s");
  EXPECT_EQ(human_rate(3 * kGiB, 300'000'000, false), "10.0 GiB/s");
  EXPECT_EQ(human_rate(1, 0, false), "Infinity B/s");
  EXPECT_EQ(human_rate(1, 0, true), "Infinity B/s");
}

TEST(TimingReport, BytesPerSecondRoundsToTheNearestInteger) {
  auto bytes_rate = [](std::int64_t bytes, std::int64_t real) {
    return rate_line(copied(0, 0, bytes), timed(real), with_units(RateUnits::kBytes));
  };
  EXPECT_EQ(bytes_rate(1, 3 * kSecond), "ddtime: 0 B/s");
  EXPECT_EQ(bytes_rate(2, 3 * kSecond), "ddtime: 1 B/s");
  EXPECT_EQ(bytes_rate(1, 2 * kSecond), "ddtime: 0 B/s");  // ties to even
  EXPECT_EQ(bytes_rate(3, 2 * kSecond), "ddtime: 2 B/s");
  EXPECT_EQ(bytes_rate(0, kSecond), "ddtime: 0 B/s");
  // Beyond 64 bits.
  EXPECT_EQ(bytes_rate(kInt64Max, 1), "ddtime: 9223372036854775807000000000 B/s");
}

TEST(TimingReport, CountsFullAndPartialInputRecords) {
  // 3 full + 1 partial in 2 s: 2 records/s, 500 ms each.
  Stats stats = copied(3, 1, 1600);
  stats.full_records_out = 0;  // output records do not count
  stats.partial_records_out = 9;
  EXPECT_EQ(rate_line(stats, timed(2 * kSecond), with_units(RateUnits::kBytes)),
            "ddtime: 800 B/s; 2 records/s (500 ms each)");
}

TEST(TimingReport, SaysRecordForExactlyOnePerSecond) {
  EXPECT_EQ(rate_line(copied(1, 0, 5), timed(kSecond), with_units(RateUnits::kBytes)),
            "ddtime: 5 B/s; 1 record/s (1.00 s each)");
  EXPECT_EQ(rate_line(copied(0, 1, 5), timed(3 * kSecond), with_units(RateUnits::kBytes)),
            "ddtime: 2 B/s; 0 records/s (3.00 s each)");
  EXPECT_EQ(rate_line(copied(3, 0, 5), timed(2 * kSecond), with_units(RateUnits::kBytes)),
            "ddtime: 2 B/s; 2 records/s (667 ms each)");
}

TEST(TimingReport, OmitsTheRecordsPartWithoutRecords) {
  EXPECT_EQ(rate_line(Stats{}, timed(kSecond)), "ddtime: 0 B/s = 0 B/s");
  EXPECT_EQ(rate_line(Stats{}, timed(300'000'000)), "ddtime: 0.0 KiB/s = 0 B/s");
}

std::string each(std::int64_t records, std::int64_t real) {
  const std::string line = rate_line(copied(records, 0, 0), timed(real), with_units(RateUnits::kBytes));
  const std::size_t open = line.find('(');
  if (open == std::string::npos) return line;
  return line.substr(open + 1, line.size() - open - std::string_view(" each)").size() - 1);
}

TEST(TimingReport, TimePerRecordHasThreeSignificantDigitsInTheBestUnit) {
  EXPECT_EQ(each(1000, 120'000), "120 ns");
  EXPECT_EQ(each(3, 10), "3.33 ns");
  EXPECT_EQ(each(1, 1), "1.00 ns");
  EXPECT_EQ(each(3, 100), "33.3 ns");
  EXPECT_EQ(each(1, 1'000), "1.00 us");
  EXPECT_EQ(each(4096, 81'300'000), "19.8 us");
  EXPECT_EQ(each(1, 999'999), "1.00 ms");  // rounds up into the next unit
  EXPECT_EQ(each(1, 999'499), "999 us");
  EXPECT_EQ(each(1, 9'996), "10.0 us");  // rounds up to a fourth digit
  EXPECT_EQ(each(1, 99'960), "100 us");
  EXPECT_EQ(each(1, 2'500'000), "2.50 ms");
  EXPECT_EQ(each(1, 999'500'000), "1.00 s");        // a tie, rounded to even: 1000 ms
  EXPECT_EQ(each(1, 1'234'600'000'000), "1235 s");  // seconds keep every digit
  EXPECT_EQ(each(1, kInt64Max), "9223372037 s");
}

TEST(TimingReport, TimePerRecordBelowOneNanosecondKeepsThreeDecimals) {
  EXPECT_EQ(each(2, 1), "0.500 ns");
  EXPECT_EQ(each(3, 1), "0.333 ns");
  EXPECT_EQ(each(1'000'000, 1), "0.000 ns");
  EXPECT_EQ(each(10'001, 10'000), "1.00 ns");  // 0.9999 rounds up to 1
}

TEST(TimingReport, RatesAndTimesAgreeWithEachOther) {
  // bytes/s * real ~ bytes, records/s * each ~ 1 s, SI ~ IEC * 1.024^k.
  std::mt19937_64 random(20240601);
  for (int i = 0; i < 500; ++i) {
    const std::int64_t real =
        kMillisecond + static_cast<std::int64_t>(random() % (100 * static_cast<std::uint64_t>(kSecond)));
    const std::int64_t records = 1 + static_cast<std::int64_t>(random() % 10'000'000);
    const std::int64_t bytes = records * 512;
    const std::string line = rate_line(copied(records, 0, bytes), timed(real), with_units(RateUnits::kAll));
    SCOPED_TRACE(line);
    // "ddtime: SI = IEC = N B/s; R records/s (T unit each)"
    double si = 0, iec = 0, plain = 0, per_second = 0, each_value = 0;
    char si_unit[8] = {}, iec_unit[8] = {}, each_unit[8] = {};
    ASSERT_EQ(std::sscanf(line.c_str(), "ddtime: %lf %7s = %lf %7s = %lf B/s; %lf %*s (%lf %7s each)", &si, si_unit,
                          &iec, iec_unit, &plain, &per_second, &each_value, each_unit),
              8);
    const double seconds = static_cast<double>(real) / 1e9;
    EXPECT_NEAR(plain * seconds, static_cast<double>(bytes), static_cast<double>(bytes) * 1e-6 + seconds);
    const auto scale = [](std::string_view unit, double base) {
      double factor = 1;
      for (char prefix : std::string_view("kMGTPEZY")) {
        factor *= base;
        if (std::tolower(unit[0]) == std::tolower(prefix)) return factor;
      }
      return 1.0;
    };
    EXPECT_NEAR(si * scale(si_unit, 1000), plain, plain * 0.06 + 50);
    EXPECT_NEAR(iec * scale(iec_unit, 1024), plain, plain * 0.06 + 52);
    double each_seconds = each_value;
    if (std::string_view(each_unit) == "ns") each_seconds /= 1e9;
    if (std::string_view(each_unit) == "us") each_seconds /= 1e6;
    if (std::string_view(each_unit) == "ms") each_seconds /= 1e3;
    EXPECT_NEAR(each_seconds * static_cast<double>(records), seconds, seconds * 0.006);
    if (per_second >= 100) {
      EXPECT_NEAR(per_second * each_seconds, 1.0, 0.02);
    }
  }
}

TEST(TimingReport, IgnoresTheGlobalLocale) {
  // A C++ locale with ',' for the decimal point and '.' for grouping;
  // no numbers here may change.
  struct Comma : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
  };
  const std::string before = timing_report("ddtime", copied(4096, 0, 4 * kGiB), timed(81'300'000, 1, 2), Settings{});
  const std::locale previous = std::locale::global(std::locale(std::locale::classic(), new Comma));
  const std::string after = timing_report("ddtime", copied(4096, 0, 4 * kGiB), timed(81'300'000, 1, 2), Settings{});
  const Settings settings;
  const Stats stats = copied(4096, 0, 4 * kGiB);
  const RunTimes times = timed(81'300'000, 1, 2);
  const JsonRun run = plain_run(settings, stats, times);
  const std::string json = json_report(run);
  std::locale::global(previous);
  EXPECT_EQ(before, after);
  EXPECT_EQ(json, json_report(run));
}

// --- json_quote ---

TEST(JsonQuote, QuotesAndEscapesQuotesAndBackslashes) {
  EXPECT_EQ(json_quote(""), R"("")");
  EXPECT_EQ(json_quote("in.img"), R"("in.img")");
  EXPECT_EQ(json_quote(R"(a"b\c/d)"), R"("a\"b\\c/d")");
}

TEST(JsonQuote, EscapesControlCharactersAndDelAsU00XX) {
  EXPECT_EQ(json_quote(std::string("a\nb\tc\rd\x01\x1f\x7f", 10)), R"("a\u000ab\u0009c\u000dd\u0001\u001f\u007f")");
  EXPECT_EQ(json_quote(std::string("\0x", 2)), R"("\u0000x")");
}

TEST(JsonQuote, PassesValidUtf8Through) {
  EXPECT_EQ(json_quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");                            // U+00E9
  EXPECT_EQ(json_quote("\xe2\x82\xac"), "\"\xe2\x82\xac\"");                          // U+20AC
  EXPECT_EQ(json_quote("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");                  // U+1F600
  EXPECT_EQ(json_quote("\xed\x9f\xbf\xee\x80\x80"), "\"\xed\x9f\xbf\xee\x80\x80\"");  // around the surrogates
  EXPECT_EQ(json_quote("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");                  // U+10FFFF
  EXPECT_EQ(json_quote("\xe2\x80\xa8"), "\"\xe2\x80\xa8\"");                          // U+2028 is valid JSON
}

TEST(JsonQuote, EscapesEachByteOfAnInvalidSequence) {
  EXPECT_EQ(json_quote("\xff"), R"("\u00ff")");
  EXPECT_EQ(json_quote("a\x80z"), R"("a\u0080z")");        // stray continuation
  EXPECT_EQ(json_quote("\xc0\xaf"), R"("\u00c0\u00af")");  // overlong '/'
  EXPECT_EQ(json_quote("\xc1\xbf"), R"("\u00c1\u00bf")");
  EXPECT_EQ(json_quote("\xe0\x80\xaf"), R"("\u00e0\u0080\u00af")");
  EXPECT_EQ(json_quote("\xf0\x80\x80\xaf"), R"("\u00f0\u0080\u0080\u00af")");
  EXPECT_EQ(json_quote("\xed\xa0\x80"), R"("\u00ed\u00a0\u0080")");            // U+D800
  EXPECT_EQ(json_quote("\xf4\x90\x80\x80"), R"("\u00f4\u0090\u0080\u0080")");  // U+110000
  EXPECT_EQ(json_quote("\xf5\x80\x80\x80"), R"("\u00f5\u0080\u0080\u0080")");
  // Truncated, then a valid character: only the broken bytes are escaped.
  EXPECT_EQ(json_quote("\xe2\x82\xc3\xa9"), "\"\\u00e2\\u0082\xc3\xa9\"");
  EXPECT_EQ(json_quote("x\xe2\x82"), R"("x\u00e2\u0082")");
}

// Expected reading of json_quote's output: valid UTF-8 kept, every other
// byte read as the Latin-1 character of the same value.
std::string latin1_fallback(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size();) {
    std::size_t length = utf8_length(raw.substr(i));
    if (length == 0) {
      put_utf8(out, static_cast<unsigned char>(raw[i]));
      ++i;
    } else {
      out += raw.substr(i, length);
      i += length;
    }
  }
  return out;
}

TEST(JsonQuote, AnyBytesGiveAValidStringThatReadsBack) {
  std::mt19937 random(42);
  // Bias towards the interesting bytes.
  const std::string interesting(
      "\"\\\n\r\t\x00\x1f\x7f\x80\xbf\xc0\xc2\xdf\xe0\xed\xef\xf0\xf4\xf5\xff"
      "a/",
      22);
  for (int i = 0; i < 5000; ++i) {
    std::string raw;
    const int length = static_cast<int>(random() % 24);
    for (int j = 0; j < length; ++j) {
      raw += random() % 2 ? interesting[random() % interesting.size()] : static_cast<char>(random() % 256);
    }
    const std::string quoted = json_quote(raw);
    std::string error;
    const auto parsed = read_json(quoted, &error);
    ASSERT_TRUE(parsed) << error << " in " << ::testing::PrintToString(quoted);
    ASSERT_EQ(parsed->kind(), Json::Kind::kString);
    EXPECT_EQ(parsed->string(), latin1_fallback(raw)) << ::testing::PrintToString(raw);
    if (valid_utf8(raw)) {
      EXPECT_EQ(parsed->string(), raw);
    }
    for (char c : quoted) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20) << ::testing::PrintToString(quoted);
  }
}

// --- json_report ---

TEST(JsonReport, PrintsTheWholeObjectForAPlainRun) {
  Settings settings;
  settings.input_file = "/dev/zero";
  settings.output_file = "/dev/null";
  settings.ibs = settings.obs = 1048576;
  settings.bs_given = true;
  settings.max_records = 4096;
  Stats stats = copied(4096, 0, 4 * kGiB);
  RunTimes times = timed(81'300'000, 0, 81'100'000);
  const JsonRun run{settings, stats, times, true, 0, 0, {}, "0.1.0"};
  EXPECT_EQ(json_report(run),
            R"({"tool":"ddtime","version":"0.1.0","complete":true,)"
            R"("operands":{"if":"/dev/zero","of":"/dev/null","ibs":1048576,"obs":1048576,"cbs":0,)"
            R"("skip":{"records":0,"bytes":0},"seek":{"records":0,"bytes":0},"count":{"records":4096,"bytes":0},)"
            R"("conv":[],"iflag":[],"oflag":[],"status":"default"},)"
            R"("records_in":{"full":4096,"partial":0},"records_out":{"full":4096,"partial":0},)"
            R"("truncated_records":0,"bytes_in":4294967296,"bytes_out":4294967296,)"
            R"("times":{"real":0.081300000,"copy":0.081300000,"flush":0.000000000,"read":null,"write":null,)"
            R"("user":0.000000000,"sys":0.081100000},)"
            R"("rates":{"bytes_per_second":52828626027.060,"records_per_second":50381.304},)"
            R"("exit_status":0,"signal":null,"errors":[]})"
            "\n");
}

TEST(JsonReport, PrintsAnInterruptedRunWithEverythingOptional) {
  Settings settings;
  settings.skip_records = 3;
  settings.skip_bytes = 7;
  settings.seek_records = 2;
  settings.seek_bytes = 1;
  settings.max_bytes = 100;
  settings.max_records = 0;
  settings.cbs = 80;
  settings.status = StatusLevel::kNoxfer;
  settings.conv.fsync = true;
  settings.conv.ascii = true;
  settings.conv.unblock = true;
  settings.iflag.count_bytes = true;
  settings.iflag.fullblock = true;
  settings.oflag.seek_bytes = true;
  settings.oflag.direct = true;
  Stats stats = copied(1, 2, 100);
  stats.full_records_out = 3;
  stats.partial_records_out = 4;
  stats.truncated_records = 5;
  stats.bytes_in = 99;
  RunTimes times;
  times.real_ns = 3;
  times.copy_ns = 2;
  times.flush_ns = 1;
  times.user_ns = 12'345'678'901;
  times.sys_ns = -1;
  times.split = true;
  times.read_ns = 1;
  times.write_ns = 0;
  const std::vector<std::string> errors = {"error reading 'in': Input/output error", "say \"hi\"\n"};
  const JsonRun run{settings, stats, times, false, std::nullopt, SIGINT, errors, "9.9.9"};
  EXPECT_EQ(
      json_report(run),
      R"({"tool":"ddtime","version":"9.9.9","complete":false,)"
      R"("operands":{"if":null,"of":null,"ibs":512,"obs":512,"cbs":80,)"
      R"("skip":{"records":3,"bytes":7},"seek":{"records":2,"bytes":1},"count":{"records":0,"bytes":100},)"
      R"("conv":["ascii","unblock","fsync"],"iflag":["fullblock","count_bytes"],"oflag":["direct","seek_bytes"],)"
      R"("status":"noxfer"},)"
      R"("records_in":{"full":1,"partial":2},"records_out":{"full":3,"partial":4},)"
      R"("truncated_records":5,"bytes_in":99,"bytes_out":100,)"
      R"("times":{"real":0.000000003,"copy":0.000000002,"flush":0.000000001,"read":0.000000001,"write":0.000000000,)"
      R"("user":12.345678901,"sys":-0.000000001},)"
      R"("rates":{"bytes_per_second":33333333333.333,"records_per_second":1000000000.000},)"
      R"("exit_status":null,"signal":"SIGINT","errors":["error reading 'in': Input/output error","say \"hi\"\u000a"]})"
      "\n");
}

Json parsed_report(const JsonRun& run) {
  const std::string text = json_report(run);
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line, newline-terminated";
  std::string error;
  auto json = read_json(text, &error);
  EXPECT_TRUE(json) << error << " in " << text;
  return json.value_or(Json{});
}

TEST(JsonReport, HasTheDocumentedKeysInOrder) {
  Settings settings;
  const Json json = parsed_report(plain_run(settings, Stats{}, RunTimes{}));
  EXPECT_EQ(json.keys(), (std::vector<std::string>{"tool", "version", "complete", "operands", "records_in",
                                                   "records_out", "truncated_records", "bytes_in", "bytes_out", "times",
                                                   "rates", "exit_status", "signal", "errors"}));
  EXPECT_EQ(json["operands"].keys(), (std::vector<std::string>{"if", "of", "ibs", "obs", "cbs", "skip", "seek", "count",
                                                               "conv", "iflag", "oflag", "status"}));
  EXPECT_EQ(json["times"].keys(), (std::vector<std::string>{"real", "copy", "flush", "read", "write", "user", "sys"}));
  EXPECT_EQ(json["rates"].keys(), (std::vector<std::string>{"bytes_per_second", "records_per_second"}));
  EXPECT_EQ(json["tool"].string(), "ddtime");
  EXPECT_EQ(json["version"].string(), DDTIME_VERSION);              // the build's when not given
  EXPECT_TRUE(json["operands"]["count"]["records"].is_null());  // no count=
  EXPECT_TRUE(json["rates"]["bytes_per_second"].is_null());     // real is 0
  EXPECT_TRUE(json["rates"]["records_per_second"].is_null());
  EXPECT_TRUE(json["exit_status"].is_null());
  EXPECT_TRUE(json["signal"].is_null());
  EXPECT_EQ(json["errors"].kind(), Json::Kind::kArray);
  EXPECT_EQ(json["errors"].size(), 0u);
}

TEST(JsonReport, ListsEverySymbolInCanonicalOrder) {
  Settings settings;
  settings.conv = {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true};
  IoFlags all{true, true, true, true, true, true, true, true, true, true, true, true, true, true};
  settings.iflag = all;
  settings.oflag = all;
  const Json json = parsed_report(plain_run(settings, Stats{}, RunTimes{}));
  EXPECT_EQ(json["operands"]["conv"].strings(),
            (std::vector<std::string>{"ascii", "ebcdic", "ibm", "block", "unblock", "lcase", "ucase", "sparse", "swab",
                                      "sync", "excl", "nocreat", "notrunc", "noerror", "fdatasync", "fsync"}));
  const std::vector<std::string> flags = {"append",    "direct",      "directory",  "dsync",     "sync",
                                          "fullblock", "nonblock",    "noatime",    "nocache",   "noctty",
                                          "nofollow",  "count_bytes", "skip_bytes", "seek_bytes"};
  EXPECT_EQ(json["operands"]["iflag"].strings(), flags);
  EXPECT_EQ(json["operands"]["oflag"].strings(), flags);
}

TEST(JsonReport, NamesEveryStatusLevel) {
  Settings settings;
  const std::pair<StatusLevel, std::string> levels[] = {{StatusLevel::kDefault, "default"},
                                                        {StatusLevel::kNone, "none"},
                                                        {StatusLevel::kNoxfer, "noxfer"},
                                                        {StatusLevel::kProgress, "progress"}};
  for (const auto& [level, name] : levels) {
    settings.status = level;
    EXPECT_EQ(parsed_report(plain_run(settings, Stats{}, RunTimes{}))["operands"]["status"].string(), name);
  }
}

TEST(JsonReport, NamesSignalsOrGivesTheirNumber) {
  Settings settings;
  const Stats stats;
  const RunTimes times;
  auto signal_of = [&](int signal) {
    JsonRun run = plain_run(settings, stats, times);
    run.signal = signal;
    return parsed_report(run)["signal"].string();
  };
  EXPECT_EQ(signal_of(SIGINT), "SIGINT");
  EXPECT_EQ(signal_of(SIGTERM), "SIGTERM");
  EXPECT_EQ(signal_of(SIGUSR1), "SIGUSR1");
  EXPECT_EQ(signal_of(SIGPIPE), "SIGPIPE");
  EXPECT_EQ(signal_of(SIGRTMIN + 1), std::to_string(SIGRTMIN + 1));
}

TEST(JsonReport, PrintsExitStatus) {
  const Settings settings;
  const Stats stats;
  const RunTimes times;
  JsonRun run = plain_run(settings, stats, times);
  run.exit_status = 1;
  EXPECT_EQ(parsed_report(run)["exit_status"].literal(), "1");
  run.exit_status = 0;
  EXPECT_EQ(parsed_report(run)["exit_status"].literal(), "0");
}

TEST(JsonReport, SecondsAreExactNanoseconds) {
  Settings settings;
  RunTimes times;
  times.real_ns = kInt64Max;
  times.copy_ns = std::numeric_limits<std::int64_t>::min();
  times.flush_ns = 1'000'000'001;
  const std::string text = json_report(plain_run(settings, Stats{}, times));
  EXPECT_NE(text.find(R"("real":9223372036.854775807,"copy":-9223372036.854775808,"flush":1.000000001,)"),
            std::string::npos)
      << text;
  EXPECT_TRUE(read_json(text));
}

TEST(JsonReport, RatesAgreeWithBytesRecordsAndTime) {
  Settings settings;
  std::mt19937_64 random(7);
  for (int i = 0; i < 300; ++i) {
    const std::int64_t real = 1 + static_cast<std::int64_t>(random() % (1000 * static_cast<std::uint64_t>(kSecond)));
    const std::int64_t full = static_cast<std::int64_t>(random() % 1'000'000);
    const std::int64_t partial = static_cast<std::int64_t>(random() % 3);
    const std::int64_t bytes = static_cast<std::int64_t>(random() % (std::uint64_t{1} << 40));
    const Stats stats = copied(full, partial, bytes);
    const RunTimes times = timed(real);
    const Json json = parsed_report(plain_run(settings, stats, times));
    const double seconds = json["times"]["real"].number();
    EXPECT_NEAR(seconds, static_cast<double>(real) / 1e9, 1e-9);
    EXPECT_NEAR(json["rates"]["bytes_per_second"].number() * seconds, static_cast<double>(bytes),
                static_cast<double>(bytes) * 1e-9 + seconds * 0.001);
    EXPECT_NEAR(json["rates"]["records_per_second"].number() * seconds, static_cast<double>(full + partial),
                static_cast<double>(full + partial) * 1e-9 + seconds * 0.001);
    EXPECT_EQ(json["bytes_out"].literal(), std::to_string(bytes));
  }
}

TEST(JsonReport, WeirdNamesAndMessagesStillGiveValidJson) {
  std::mt19937 random(1);
  for (int i = 0; i < 1000; ++i) {
    std::string name;
    const int length = 1 + static_cast<int>(random() % 40);
    for (int j = 0; j < length; ++j) name += static_cast<char>(random() % 256);
    Settings settings;
    settings.input_file = name;
    settings.output_file = "quote\" back\\slash\nnewline \xff\xfe" + name;
    const std::vector<std::string> errors = {"failed to open '" + name + "'", std::string(1, '\0'), ""};
    const Stats stats;
    const RunTimes times = timed(kSecond);
    JsonRun run = plain_run(settings, stats, times);
    run.errors = errors;
    const Json json = parsed_report(run);
    EXPECT_EQ(json["operands"]["if"].string(), latin1_fallback(name));
    EXPECT_EQ(json["operands"]["of"].string(), latin1_fallback(*settings.output_file));
    EXPECT_EQ(json["errors"].strings(),
              (std::vector<std::string>{latin1_fallback(errors[0]), std::string(1, '\0'), ""}));
  }
}

// --- Reporter::extended_progress ---

Stats read_so_far(std::int64_t bytes) {
  Stats stats;
  stats.bytes_in = bytes;
  stats.bytes_out = bytes / 2;  // the line follows what was read
  return stats;
}

TEST(ExtendedProgress, ShowsPercentageRateAndEtaWhenTheTotalIsKnown) {
  // 1.2 GiB of 4 GiB at 1.5 GB/s; 2.004 s left, rounded up.
  Reporter reporter(StatusLevel::kDefault);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1'288'490'189), 858'993'459, 4 * kGiB, false),
            "ddtime: 1.2 GiB of 4.0 GiB (30%), 1.5 GB/s, ETA 0:00:03\n");
}

TEST(ExtendedProgress, ShowsBytesAndRateWhenTheTotalIsUnknown) {
  Reporter reporter(StatusLevel::kDefault);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1'288'490'189), 858'993'459, std::nullopt, false),
            "ddtime: 1.2 GiB copied, 1.5 GB/s\n");
  EXPECT_EQ(reporter.extended_progress("dd", read_so_far(512), kSecond, std::nullopt, false),
            "dd: 512 B copied, 512 B/s\n");
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(0), 0, std::nullopt, false),
            "ddtime: 0 B copied, Infinity B/s\n");
}

TEST(ExtendedProgress, RoundsThePercentageDownAndCapsItAt100) {
  Reporter reporter(StatusLevel::kDefault);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(999), kSecond, 1000, false),
            "ddtime: 999 B of 1000 B (99%), 999 B/s, ETA 0:00:01\n");
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1000), kSecond, 1000, false),
            "ddtime: 1000 B of 1000 B (100%), 1.0 kB/s, ETA 0:00:00\n");
  // More than announced (a growing file).
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(2048), kSecond, 1024, false),
            "ddtime: 2.0 KiB of 1.0 KiB (100%), 2.0 kB/s, ETA 0:00:00\n");
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(0), kSecond, 0, false),
            "ddtime: 0 B of 0 B (100%), 0 B/s, ETA 0:00:00\n");
}

TEST(ExtendedProgress, EtaIsUnknownBeforeAnythingIsRead) {
  Reporter reporter(StatusLevel::kDefault);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(0), kSecond, 1000, false),
            "ddtime: 0 B of 1000 B (0%), 0 B/s, ETA -:--:--\n");
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(10), 0, 1000, false),
            "ddtime: 10 B of 1000 B (1%), Infinity B/s, ETA -:--:--\n");
}

TEST(ExtendedProgress, EtaCountsHoursWithoutLimit) {
  Reporter reporter(StatusLevel::kDefault);
  // 1 MB/s with 7384 MB left: 2:03:04.
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1'000'000), kSecond, 7'385'000'000, false),
            "ddtime: 977 KiB of 6.9 GiB (0%), 1.0 MB/s, ETA 2:03:04\n");
  // 1 B/s with 442800 B left: 123 hours.
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1), kSecond, 442'801, false),
            "ddtime: 1 B of 432 KiB (0%), 1 B/s, ETA 123:00:00\n");
  // Rounded up: 0.1 s left is still 0:00:01.
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(10), kSecond, 11, false),
            "ddtime: 10 B of 11 B (90%), 10 B/s, ETA 0:00:01\n");
}

TEST(ExtendedProgress, EtaAgreesWithTheRateShown) {
  Reporter reporter(StatusLevel::kDefault);
  // 100 MB in 2 s (50 MB/s), 400 MB left: 8 s.
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(100'000'000), 2 * kSecond, 500'000'000, false),
            "ddtime: 95 MiB of 477 MiB (20%), 50 MB/s, ETA 0:00:08\n");
}

TEST(ExtendedProgress, OnATerminalRewritesOneLine) {
  Reporter reporter(StatusLevel::kDefault);
  const std::string first = reporter.extended_progress("ddtime", read_so_far(2'000'000), 2 * kSecond, 4'000'000, true);
  EXPECT_EQ(first, "\rddtime: 1.9 MiB of 3.8 MiB (50%), 1.0 MB/s, ETA 0:00:02");
  // Shorter: padded over the previous line, 23 characters shorter.
  const std::string second = reporter.extended_progress("ddtime", read_so_far(2'000), 2 * kSecond, std::nullopt, true);
  EXPECT_EQ(second, "\rddtime: 2.0 KiB copied, 1.0 kB/s" + std::string(23, ' '));
  // The padding is not remembered as part of the line.
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(2'000), 2 * kSecond, std::nullopt, true),
            "\rddtime: 2.0 KiB copied, 1.0 kB/s");
  // The summary ends the open line.
  EXPECT_EQ(reporter.summary(copied(1, 0, 2000), 2 * kSecond),
            "\n1+0 records in\n1+0 records out\n2000 bytes (2.0 kB, 2.0 KiB) copied, 2 s, 1.0 kB/s\n");
}

TEST(ExtendedProgress, SharesTheLineLengthWithStatusProgress) {
  Reporter reporter(StatusLevel::kProgress);
  const std::string gnu = reporter.progress(copied(1, 0, 200000), kSecond);
  const std::string ours = reporter.extended_progress("ddtime", read_so_far(1), kSecond, std::nullopt, true);
  EXPECT_EQ(ours.size(), gnu.size());
  EXPECT_EQ(ours, "\rddtime: 1 B copied, 1 B/s" + std::string(gnu.size() - 26, ' '));
}

TEST(ExtendedProgress, OffATerminalWritesWholeLinesAndTheSummaryAddsNoNewline) {
  Reporter reporter(StatusLevel::kDefault);
  const std::string line = reporter.extended_progress("ddtime", read_so_far(2'000'000), 2 * kSecond, 4'000'000, false);
  EXPECT_EQ(line, "ddtime: 1.9 MiB of 3.8 MiB (50%), 1.0 MB/s, ETA 0:00:02\n");
  EXPECT_EQ(line.find('\r'), std::string::npos);
  // A shorter line next: no padding.
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(2'000), 2 * kSecond, std::nullopt, false),
            "ddtime: 2.0 KiB copied, 1.0 kB/s\n");
  EXPECT_EQ(reporter.summary(copied(1, 0, 2000), 2 * kSecond),
            "1+0 records in\n1+0 records out\n2000 bytes (2.0 kB, 2.0 KiB) copied, 2 s, 1.0 kB/s\n");
}

TEST(ExtendedProgress, EndsAnOpenTerminalLineBeforeAWholeLine) {
  Reporter reporter(StatusLevel::kDefault);
  reporter.extended_progress("ddtime", read_so_far(1), kSecond, std::nullopt, true);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(2), kSecond, std::nullopt, false),
            "\nddtime: 2 B copied, 2 B/s\n");
  EXPECT_EQ(reporter.summary(Stats{}, kSecond), "0+0 records in\n0+0 records out\n0 bytes copied, 1 s, 0 B/s\n");
}

TEST(ExtendedProgress, PrintsWhateverTheStatusLevel) {
  // --progress is asked for by name; status=none silences GNU's lines only.
  Reporter reporter(StatusLevel::kNone);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1), kSecond, std::nullopt, false),
            "ddtime: 1 B copied, 1 B/s\n");
}

}  // namespace
}  // namespace ddtime
