// SPDX-License-Identifier: GPL-3.0-or-later
// ddtime's own reports: the timing lines and --progress (--json is in
// report_json_test.cc). The expected figures were worked out by hand or with exact fractions, not
// copied from the output; GNU's SI rounding is pinned in report_test.cc.
#include "report/report_run.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <locale>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report/report.h"  // Reporter::extended_progress
#include "unit/report_fixtures.h"

namespace ddtime {
namespace {

using namespace report_fixtures;

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

// --- timing_report: the real/user/sys/cpu line ---

TEST(TimingReport, PrintsRealUserSysAndCpuThenTheRate) {
  // bs=1M count=4096 in 0.0813 s
  EXPECT_EQ(timing_report("ddtime", copied(4096, 0, 4 * kGiB), timed(81'300'000, 0, 81'100'000), Settings{}),
            "ddtime: real 0.0813 s  user 0 s  sys 0.0811 s  cpu 99.8%\n"
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
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, timed(12'345'678'900, 50'000'000, 150'050'000), Settings{}),
                          "ddtime: real"),
            "ddtime: real 12.3457 s  user 0.0500 s  sys 0.1500 s  cpu 1.6%");
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

// Defect 29: four decimals of seconds read 0.0000 s for a short run.
TEST(TimingReport, DurationsUnderAMillisecondAreInMicrosecondsOrNanoseconds) {
  EXPECT_EQ(
      line_starting(timing_report("ddtime", Stats{}, timed(999'400, 50'000, 150'000), Settings{}), "ddtime: real"),
      "ddtime: real 999 us  user 50.0 us  sys 150 us  cpu 20.0%");
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, timed(9'994, 999, 1'005), Settings{}), "ddtime: real"),
            "ddtime: real 9.99 us  user 999 ns  sys 1.00 us  cpu 20.1%");
  // Where rounding reaches the next form, the next form: never "1000 us".
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, timed(999'500, 9'995, 99'950), Settings{}), "ddtime: real"),
            "ddtime: real 0.0010 s  user 10.0 us  sys 100 us  cpu 11.0%");
}

TEST(TimingReport, ZeroRealGivesZeroCpuAndAnInfiniteRate) {
  EXPECT_EQ(timing_report("ddtime", copied(3, 1, 1600), timed(0, 0, 4000), Settings{}),
            "ddtime: real 0 s  user 0 s  sys 4.00 us  cpu 0.0%\n"
            "ddtime: Infinity B/s\n");
  // Whatever the units.
  EXPECT_EQ(rate_line(copied(3, 1, 1600), timed(0), with_units(RateUnits::kIec)), "ddtime: Infinity B/s");
}

TEST(TimingReport, NegativeTimesPrintAsZero) {
  RunTimes times = timed(-5, -1, -1);
  times.split = true;
  times.read_ns = -1;
  const std::string report = timing_report("ddtime", Stats{}, times, Settings{});
  EXPECT_EQ(line_starting(report, "ddtime: real"), "ddtime: real 0 s  user 0 s  sys 0 s  cpu 0.0%");
  EXPECT_EQ(line_starting(report, "ddtime: read"), "ddtime: read 0 s (0.0%)  write 0 s (0.0%)  other 0 s");
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
            "ddtime: real 7.6100 s (copy 1.2000 s + fdatasync 6.4100 s)  user 0 s  sys 0.1000 s  cpu 1.3%\n"
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
  EXPECT_EQ(line_starting(report, "ddtime: real"), "ddtime: real 1.0000 s  user 0 s  sys 0.1000 s  cpu 10.0%");
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
  EXPECT_EQ(line_starting(report, "ddtime: real"), "ddtime: real 1.0000 s  user 0 s  sys 0.1000 s  cpu 10.0%");
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
  EXPECT_EQ(lines[1], "ddtime: read 0.0400 s (49.2%)  write 0.0410 s (50.4%)  other 300 us");
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
            "ddtime: read 0.3000 s (15.0%)  write 0.8000 s (40.0%)  other 0 s");
}

TEST(TimingReport, SplitPercentagesAreZeroWhenRealIsZero) {
  RunTimes times = timed(0);
  times.split = true;
  times.read_ns = 7;
  EXPECT_EQ(line_starting(timing_report("ddtime", Stats{}, times, Settings{}), "ddtime: read"),
            "ddtime: read 7 ns (0.0%)  write 0 s (0.0%)  other 0 s");
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
  const RunRecord run = plain_run(settings, stats, times);
  const std::string json = json_report(run, Environment{});
  std::locale::global(previous);
  EXPECT_EQ(before, after);
  EXPECT_EQ(json, json_report(run, Environment{}));
}

// --- Reporter::extended_progress ---
// A member of GNU's Reporter (report.cc), as it shares the progress line's
// state, but ddtime's own line, so it is tested here.

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
            "ddtime: 1.2 GiB of 4.0 GiB (30%), 1.4 GiB/s, ETA 0:00:03\n");
}

TEST(ExtendedProgress, ShowsBytesAndRateWhenTheTotalIsUnknown) {
  Reporter reporter(StatusLevel::kDefault);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1'288'490'189), 858'993'459, std::nullopt, false),
            "ddtime: 1.2 GiB so far, 1.4 GiB/s\n");
  EXPECT_EQ(reporter.extended_progress("dd", read_so_far(512), kSecond, std::nullopt, false),
            "dd: 512 B so far, 512 B/s\n");
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(0), 0, std::nullopt, false),
            "ddtime: 0 B so far, Infinity B/s\n");
}

// Defect 31: the rate is in the units --units names, IEC by default like
// every other ddtime rate; and the line never says "copied" (rule 8).
TEST(ExtendedProgress, TheRateIsInTheUnitsAskedFor) {
  const Stats stats = read_so_far(1'288'490'189);
  EXPECT_EQ(Reporter(StatusLevel::kDefault, RateUnits::kSi)
                .extended_progress("ddtime", stats, 858'993'459, std::nullopt, false),
            "ddtime: 1.2 GiB so far, 1.5 GB/s\n");
  EXPECT_EQ(Reporter(StatusLevel::kDefault, RateUnits::kBoth)
                .extended_progress("ddtime", stats, 858'993'459, std::nullopt, false),
            "ddtime: 1.2 GiB so far, 1.5 GB/s = 1.4 GiB/s\n");
  EXPECT_EQ(Reporter(StatusLevel::kDefault, RateUnits::kBytes)
                .extended_progress("ddtime", stats, 1'000'000'000, std::nullopt, false),
            "ddtime: 1.2 GiB so far, 1288490189 B/s\n");
}

TEST(ExtendedProgress, RoundsThePercentageDownAndCapsItAt100) {
  Reporter reporter(StatusLevel::kDefault);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(999), kSecond, 1000, false),
            "ddtime: 999 B of 1000 B (99%), 999 B/s, ETA 0:00:01\n");
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1000), kSecond, 1000, false),
            "ddtime: 1000 B of 1000 B (100%), 1000 B/s, ETA 0:00:00\n");
  // More than announced (a growing file).
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(2048), kSecond, 1024, false),
            "ddtime: 2.0 KiB of 1.0 KiB (100%), 2.0 KiB/s, ETA 0:00:00\n");
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
            "ddtime: 977 KiB of 6.9 GiB (0%), 977 KiB/s, ETA 2:03:04\n");
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
            "ddtime: 95 MiB of 477 MiB (20%), 48 MiB/s, ETA 0:00:08\n");
}

TEST(ExtendedProgress, OnATerminalRewritesOneLine) {
  Reporter reporter(StatusLevel::kDefault);
  const std::string first = reporter.extended_progress("ddtime", read_so_far(2'000'000), 2 * kSecond, 4'000'000, true);
  EXPECT_EQ(first, "\rddtime: 1.9 MiB of 3.8 MiB (50%), 977 KiB/s, ETA 0:00:02");
  // Shorter: padded over the previous line, 24 characters shorter.
  const std::string second = reporter.extended_progress("ddtime", read_so_far(2'000), 2 * kSecond, std::nullopt, true);
  EXPECT_EQ(second, "\rddtime: 2.0 KiB so far, 1000 B/s" + std::string(24, ' '));
  // The padding is not remembered as part of the line.
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(2'000), 2 * kSecond, std::nullopt, true),
            "\rddtime: 2.0 KiB so far, 1000 B/s");
  // The summary ends the open line.
  EXPECT_EQ(reporter.summary(copied(1, 0, 2000), 2 * kSecond),
            "\n1+0 records in\n1+0 records out\n2000 bytes (2.0 kB, 2.0 KiB) copied, 2 s, 1.0 kB/s\n");
}

TEST(ExtendedProgress, SharesTheLineLengthWithStatusProgress) {
  Reporter reporter(StatusLevel::kProgress);
  const std::string gnu = reporter.progress(copied(1, 0, 200000), kSecond);
  const std::string ours = reporter.extended_progress("ddtime", read_so_far(1), kSecond, std::nullopt, true);
  EXPECT_EQ(ours.size(), gnu.size());
  EXPECT_EQ(ours, "\rddtime: 1 B so far, 1 B/s" + std::string(gnu.size() - 26, ' '));
}

TEST(ExtendedProgress, OffATerminalWritesWholeLinesAndTheSummaryAddsNoNewline) {
  Reporter reporter(StatusLevel::kDefault);
  const std::string line = reporter.extended_progress("ddtime", read_so_far(2'000'000), 2 * kSecond, 4'000'000, false);
  EXPECT_EQ(line, "ddtime: 1.9 MiB of 3.8 MiB (50%), 977 KiB/s, ETA 0:00:02\n");
  EXPECT_EQ(line.find('\r'), std::string::npos);
  // A shorter line next: no padding.
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(2'000), 2 * kSecond, std::nullopt, false),
            "ddtime: 2.0 KiB so far, 1000 B/s\n");
  EXPECT_EQ(reporter.summary(copied(1, 0, 2000), 2 * kSecond),
            "1+0 records in\n1+0 records out\n2000 bytes (2.0 kB, 2.0 KiB) copied, 2 s, 1.0 kB/s\n");
}

TEST(ExtendedProgress, EndsAnOpenTerminalLineBeforeAWholeLine) {
  Reporter reporter(StatusLevel::kDefault);
  reporter.extended_progress("ddtime", read_so_far(1), kSecond, std::nullopt, true);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(2), kSecond, std::nullopt, false),
            "\nddtime: 2 B so far, 2 B/s\n");
  EXPECT_EQ(reporter.summary(Stats{}, kSecond), "0+0 records in\n0+0 records out\n0 bytes copied, 1 s, 0 B/s\n");
}

TEST(ExtendedProgress, PrintsWhateverTheStatusLevel) {
  // --progress is asked for by name; status=none silences GNU's lines only.
  Reporter reporter(StatusLevel::kNone);
  EXPECT_EQ(reporter.extended_progress("ddtime", read_so_far(1), kSecond, std::nullopt, false),
            "ddtime: 1 B so far, 1 B/s\n");
}

TEST(EngineLine, AnIoUringRefusalNamesTheErrnoInTheCLocaleWords) {
  EngineUse engine;
  engine.fallback = EngineUse::Fallback::kEngineRefused;
  engine.refused = EngineChoice::kIoUring;
  engine.fallback_err = ENOSYS;
  EXPECT_NE(engine_line("ddtime", engine).find("io_uring refused: Function not implemented"), std::string::npos)
      << engine_line("ddtime", engine);
}

TEST(EngineLine, AnErrnoWithoutWordsIsNamedByItsNumber) {
  EngineUse engine;
  engine.fallback = EngineUse::Fallback::kEngineRefused;
  engine.refused = EngineChoice::kIoUring;
  engine.fallback_err = 4095;
  EXPECT_NE(engine_line("ddtime", engine).find("io_uring refused: Unknown error 4095"), std::string::npos)
      << engine_line("ddtime", engine);
}

TEST(EngineLine, NamesTheSetupOnlyOfAnEngineWhoseRowAsksForIt) {
  EngineUse engine;
  engine.kind = EngineChoice::kThreads;
  engine.setup.entries = 8;
  EXPECT_NE(engine_line("ddtime", engine).find(", 8 threads"), std::string::npos) << engine_line("ddtime", engine);
  engine.kind = EngineChoice::kIoUring;
  engine.setup = {.registered_buffers = true};
  EXPECT_EQ(engine_line("ddtime", engine).find("registered buffers"), std::string::npos)
      << engine_line("ddtime", engine);
}

TEST(EngineLine, NamesTheEngineByItsEngineWord) {
  EngineUse engine;
  EXPECT_EQ(engine_line("ddtime", engine), "ddtime: engine sync, depth 1\n");
  engine.kind = EngineChoice::kLibaio;
  engine.depth = 32;
  EXPECT_EQ(engine_line("ddtime", engine), "ddtime: engine libaio, depth 32\n");
}

TEST(EngineSetup, WordsIoUringsFlagsInTheOrderTheRingSetThemUp) {
  EngineUse engine;
  engine.kind = EngineChoice::kIoUring;
  engine.setup = {.registered_buffers = true,
                  .registered_files = true,
                  .single_issuer = true,
                  .cooperative_task_run = true,
                  .deferred_task_run = true};
  EXPECT_EQ(engine_setup(engine),
            "registered buffers, registered files, single issuer, cooperative task run, deferred task run");
  engine.setup = {.single_issuer = true, .deferred_task_run = true};
  EXPECT_EQ(engine_setup(engine), "plain buffers, single issuer, deferred task run");
}

TEST(EngineSetup, CountsTheThreadsEnginesWorkersWithOneInTheSingular) {
  EngineUse engine;
  engine.kind = EngineChoice::kThreads;
  engine.setup.entries = 8;
  EXPECT_EQ(engine_setup(engine), "8 threads");
  engine.setup.entries = 1;
  EXPECT_EQ(engine_setup(engine), "1 thread");
}

TEST(EngineSetup, SizesTheLinuxAioContext) {
  EngineUse engine;
  engine.kind = EngineChoice::kLibaio;
  engine.setup.entries = 32;
  EXPECT_EQ(engine_setup(engine), "Linux AIO context of 32");
}

TEST(EngineSetup, SaysNothingForTheSyncEngine) { EXPECT_EQ(engine_setup(EngineUse{}), ""); }

// The jobs line says why fewer jobs ran than were asked: a range with
// fewer records, or a SIGINT that came while they were set up.
TEST(JobsLine, FewerJobsThanAskedSayWhy) {
  EngineUse engine;
  engine.jobs_asked = 64;
  engine.jobs.ran = 3;
  engine.jobs.range_records = 3;
  EXPECT_NE(jobs_line("ddtime", engine, RunTimes{}, Stats{}).find("jobs 3 of 64 asked (the range has 3 records)"),
            std::string::npos);
  engine.jobs.ran = 1;
  engine.jobs.range_records = -1;
  engine.setup_interrupted = true;
  EXPECT_NE(jobs_line("ddtime", engine, RunTimes{}, Stats{})
                .find("jobs 1 of 64 asked (a SIGINT came while they were set up)"),
            std::string::npos);
}

}  // namespace
}  // namespace ddtime
