// SPDX-License-Identifier: GPL-3.0-or-later
// The session's lines as a user reads them: one line per run, the
// statistics block in UTF-8 and in ASCII, and the sweep table with its
// bars and its best row.
#include "report/report_session.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ddtime {
namespace {

TEST(IecRate, PicksTheLargestUnitThatLeavesAtLeastOne) {
  EXPECT_EQ(iec_rate(512), "512.00 B/s");
  EXPECT_EQ(iec_rate(1536), "1.50 KiB/s");
  EXPECT_EQ(iec_rate(2.0 * 1024 * 1024 * 1024), "2.00 GiB/s");
  EXPECT_EQ(iec_rate(0), "0.00 B/s");
}

const RunTimes kNoSplit;

TEST(SessionRunLine, SaysWhichRunWithItsFigures) {
  const RunFigures figures{0.5, 0.01, 0.48, 2.0 * 1024 * 1024 * 1024};
  EXPECT_EQ(session_run_line("ddtime", {"", false, 2, 5}, {figures, kNoSplit}),
            "ddtime: run 2 of 5: real 0.5000 s  user 0.0100 s  sys 0.4800 s  cpu 98.0%  2.00 GiB/s\n");
}

// Defect 13: a run that failed is listed, and says it is not counted.
TEST(SessionRunLine, AFailedRunSaysItIsNotCounted) {
  const RunFigures figures{0.5, 0.01, 0.48, 1024};
  EXPECT_EQ(session_run_line("ddtime", {"", false, 2, 3, true}, {figures, kNoSplit}),
            "ddtime: run 2 of 3: real 0.5000 s  user 0.0100 s  sys 0.4800 s  cpu 98.0%  1.00 KiB/s "
            "(failed: not counted)\n");
}

// Defect 18: a session's lines honour --units and --split-times.
TEST(SessionRunLine, TheRateIsInTheUnitsAskedForAndSplitTimesAreGiven) {
  const RunFigures figures{0.5, 0.01, 0.48, 2e9};
  RunTimes split;
  split.split = true;
  split.read_ns = 250'000'000;
  split.write_ns = 240'000'000;
  split.real_ns = 500'000'000;
  EXPECT_EQ(session_run_line("ddtime", {"", false, 1, 2}, {figures, split, RateUnits::kSi, true}),
            "ddtime: run 1 of 2: real 0.5000 s  user 0.0100 s  sys 0.4800 s  cpu 98.0%  2.00 GB/s  "
            "read 0.2500 s  write 0.2400 s  other 0.0100 s\n");
  // Asked for where a queued engine ran: said not measured, never 0.
  EXPECT_EQ(session_run_line("ddtime", {"", false, 1, 2}, {figures, kNoSplit, RateUnits::kSi, true}),
            "ddtime: run 1 of 2: real 0.5000 s  user 0.0100 s  sys 0.4800 s  cpu 98.0%  2.00 GB/s  "
            "read and write time not measured: a queued engine's I/O is in flight together\n");
  EXPECT_EQ(rate_text(2e9, RateUnits::kAll), "2.00 GB/s = 1.86 GiB/s = 2000000000 B/s");
  EXPECT_EQ(rate_text(2e9, RateUnits::kBytes), "2000000000 B/s");
  EXPECT_EQ(rate_text(2e9, RateUnits::kIecAndBytes), "1.86 GiB/s");
}

TEST(SessionRunLine, AWarmupInASweepNamesItsRowAndIsNotCounted) {
  const RunFigures figures{0.25, 0, 0, 1024};
  EXPECT_EQ(session_run_line("ddtime", {"bs=64k depth 4", true, 1, 1}, {figures, kNoSplit}),
            "ddtime: bs=64k depth 4, warm-up 1 of 1: real 0.2500 s  user 0 s  sys 0 s  cpu 0.0%  "
            "1.00 KiB/s (not counted)\n");
}

RowSummary six_runs() {
  const std::vector<RunFigures> runs{{1.00, 0.1, 0.8, 100 << 20}, {1.01, 0.1, 0.8, 99 << 20},
                                     {0.99, 0.1, 0.8, 101 << 20}, {1.00, 0.1, 0.8, 100 << 20},
                                     {1.60, 0.1, 0.8, 62 << 20},  {1.00, 0.1, 0.8, 100 << 20}};
  return summarise_runs(runs);
}

TEST(SessionStatistics, GivesEachFigureWithItsIntervalAndOutliers) {
  const std::string text = session_statistics("ddtime", "", six_runs(), 1, true);
  // real: mean 6.6 / 6 = 1.1, squares 0.3002 over 5, sd 0.2450; the 1.60
  // run scores 0.6745 * 0.6 / 0.005 = 81 against a MAD of 0.005. rate:
  // mean 562 / 6 = 93.67 MiB/s, sd sqrt(1205.33 / 5) = 15.53 MiB/s.
  // Defect 28: each column as wide as its widest cell, so that no figure
  // runs into the next.
  EXPECT_EQ(
      text,
      "ddtime: 6 runs, 1 warm-up not counted\n"
      "ddtime:               min        median  95% interval        mean \u00b1 sd                           max  "
      "outliers\n"
      "ddtime: real     0.9900 s      1.0000 s  0.9900 s\u20131.6000 s   1.1000 s \u00b1 0.2450 s            "
      "1.6000 s  run 5\n"
      "ddtime: user     0.1000 s      0.1000 s  0.1000 s\u20130.1000 s   0.1000 s \u00b1 0 s                 "
      "0.1000 s  -\n"
      "ddtime: sys      0.8000 s      0.8000 s  0.8000 s\u20130.8000 s   0.8000 s \u00b1 0 s                 "
      "0.8000 s  -\n"
      "ddtime: rate  62.00 MiB/s  100.00 MiB/s  62.00\u2013101.00 MiB/s  93.67 MiB/s \u00b1 15.53 MiB/s  "
      "101.00 MiB/s  run 5\n");
}

// Defect 29: a run under a millisecond reads in us or ns, not 0.0000 s.
TEST(SessionStatistics, ShortRunsAreInMicroseconds) {
  const std::vector<RunFigures> runs{{0.000813, 0.0, 0.0008, 1 << 30}, {0.000412, 0.0000495, 0.0003, 1 << 30}};
  const std::string text = session_statistics("ddtime", "", summarise_runs(runs), 0, true);
  EXPECT_NE(text.find("ddtime: real      412 us      612 us  n/a "), std::string::npos) << text;
  EXPECT_EQ(text.find("0.0000"), std::string::npos) << text;
}

TEST(SessionStatistics, InAsciiUsesPlusMinusAndDots) {
  const std::string text = session_statistics("dd", "bs=4k depth 1", six_runs(), 0, false);
  EXPECT_EQ(text.substr(0, text.find('\n') + 1), "dd: bs=4k depth 1: 6 runs\n");
  EXPECT_NE(text.find("0.9900 s..1.6000 s   1.1000 s +- 0.2450 s"), std::string::npos) << text;
  for (const char c : text) EXPECT_LT(static_cast<unsigned char>(c), 0x80);
}

TEST(SessionStatistics, BelowSixRunsTheIntervalIsNotAvailable) {
  const std::vector<RunFigures> runs{{1, 0, 1, 10}, {2, 0, 2, 5}};
  const std::string text = session_statistics("ddtime", "", summarise_runs(runs), 0, true);
  EXPECT_NE(text.find("ddtime: real  1.0000 s  1.5000 s  n/a "), std::string::npos) << text;
}

std::vector<RowRecord> two_rows() {
  const std::vector<RunFigures> slow{{2.0, 0.5, 1.0, 50e6}};
  const std::vector<RunFigures> fast{{1.0, 0.2, 0.6, 100e6}};
  return {
      {.bs = 4096, .depth = 1, .summary = summarise_runs(slow), .bytes = 100000000, .records = 24415},
      {.bs = 1 << 20, .depth = 4, .knee = true, .summary = summarise_runs(fast), .bytes = 100000000, .records = 96}};
}

TEST(SweepTable, HasARowPerSettingWithBarsScaledToTheBest) {
  std::vector<RowRecord> rows = two_rows();
  // A row without a counted run has nothing to show.
  rows.insert(rows.begin() + 1, RowRecord{.bs = 65536, .depth = 1});
  EXPECT_EQ(
      sweep_table("ddtime", rows, false, RateUnits::kSi),
      "ddtime:     bs depth        moved      real      user       sys   cpu%      MB/s     MiB/s      IOPS  rate\n"
      "ddtime:     4k     1    100000000  2.0000 s  0.5000 s  1.0000 s   75.0      50.0      47.7     12208  "
      "###############\n"
      "ddtime:     1M     4    100000000  1.0000 s  0.2000 s  0.6000 s   80.0     100.0      95.4        96  "
      "############################## *best knee\n");
  // Rule 8: without --units asking for SI, no SI rate for a script's grep
  // to find besides GNU's.
  EXPECT_EQ(sweep_table("ddtime", rows, false),
            "ddtime:     bs depth        moved      real      user       sys   cpu%     MiB/s      IOPS  rate\n"
            "ddtime:     4k     1    100000000  2.0000 s  0.5000 s  1.0000 s   75.0      47.7     12208  "
            "###############\n"
            "ddtime:     1M     4    100000000  1.0000 s  0.2000 s  0.6000 s   80.0      95.4        96  "
            "############################## *best knee\n");
}

TEST(SessionRunLine, ARandomRunGivesItsIopsAfterTheRate) {
  const RunFigures figures{0.5, 0.01, 0.2, 4.0 * 1048576};
  RunTimes times;
  times.real_ns = 500'000'000;
  const std::string line =
      session_run_line("ddtime", {"", false, 1, 3}, {figures, times, RateUnits::kIec, false, 2048.4});
  EXPECT_NE(line.find("4.00 MiB/s  2048 IOPS\n"), std::string::npos) << line;
  EXPECT_EQ(session_run_line("ddtime", {"", false, 1, 3}, {figures, times}).find("IOPS"), std::string::npos);
}

// Defect 27: with single runs no spread was measured, so the knee line
// does not claim one.
TEST(KneeLine, NamesTheSpreadOnlyWhenItWasMeasured) {
  EXPECT_EQ(knee_line("ddtime", 256 << 10, true),
            "ddtime: knee at bs=256k: doubling it gained under 5% (and under the run-to-run spread) twice\n");
  EXPECT_EQ(knee_line("ddtime", 256 << 10, false), "ddtime: knee at bs=256k: doubling it gained under 5% twice\n");
}

// Defect 30: sweep labels in the largest unit that divides them.
TEST(BsText, NamesGigabytesToo) {
  EXPECT_EQ(bs_text(1 << 30), "1G");
  EXPECT_EQ(bs_text(std::int64_t{2} << 30), "2G");
  EXPECT_EQ(bs_text(1536 << 20), "1536M");
  EXPECT_EQ(bs_text(3000), "3000");
}

TEST(SweepTable, DrawsUnicodeEighthsInUtf8) {
  std::vector<RowRecord> rows = two_rows();
  rows[0].summary->bytes_per_second.median = 100e6 * (10.0 / 30 + 1.0 / 240);  // 10 columns and one eighth
  const std::string text = sweep_table("ddtime", rows, true);
  std::string ten;
  for (int i = 0; i < 10; ++i) ten += "\u2588";
  EXPECT_NE(text.find("  " + ten + "\u258f\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace ddtime
