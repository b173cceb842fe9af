// SPDX-License-Identifier: GPL-3.0-or-later
// --timeline's text as a user reads it: the chart of rate against bytes
// (UTF-8 and ASCII) with its labels, never wider than the terminal, and
// the statistics lines under it.
#include "report/report_timeline.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "measure/timeline.h"

namespace ddtime {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

// One sample per second, each interval moving rate x 1 s.
Timeline every_second(const std::vector<std::int64_t>& rates) {
  Timeline timeline;
  timeline.interval_ns = kSecond;
  std::int64_t bytes = 0;
  for (std::size_t k = 0; k < rates.size(); ++k) {
    bytes += rates[k];
    timeline.samples.push_back({static_cast<std::int64_t>(k + 1) * kSecond, bytes, bytes / 4096, {}, {}, {}, {}});
  }
  return timeline;
}

std::vector<std::int64_t> repeated(std::int64_t rate, std::size_t count) {
  return std::vector<std::int64_t>(count, rate);
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return lines;
}

std::size_t columns_of(std::string_view line) {
  std::size_t count = 0;
  for (const char c : line) count += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return count;
}

// 100, 100, 60 and 140 MB/s, 400 MB in 4 s. At width 50 the chart has
// 50 - 10 (an 8-column label, a space, the axis) = 40 columns of 10 MB:
// 20 at 100 MB/s, 6 at 60, 14 at 140. The top is 150 MB/s, the least round
// rate above 140; in eighths of the 8 rows (64 in all) 100 is 42.7 -> 43
// (5 rows and 3/8), 60 is 25.6 -> 26 (3 rows and 2/8), 140 is 59.7 -> 60
// (7 rows and 4/8). Quarters of the x axis' labels leave one space between
// "300 MB" and "400 MB", so it is labelled in halves: 200 MB was reached
// 2 s in. The statistics: mean 100, sample sd sqrt((0 + 0 + 1600 + 1600) / 3)
// = 32.66 MB/s, so CV 32.7%. Steady state over windows of 3: 100 100 60
// (mean 86.67, deviation 26.67 / 86.67 = 30.8%, slope -20 = 23.1%) and
// 100 60 140 (mean 100, deviation 40%, slope +40 / 2 = 20 = 20.0%).
const Timeline kFourIntervals = every_second({100'000'000, 100'000'000, 60'000'000, 140'000'000});
const SteadyRule kWindowOfThree{10, 1, 3};

TEST(TimelineText, ASmallTimelineInEighthBlocks) {
  const std::string expected =
      "rate per 10 MB moved, against data moved and time:\n"
      "150 MB/s \u2524                          "
      "\u2584\u2584\u2584\u2584\u2584\u2584\u2584\u2584\u2584\u2584\u2584\u2584"
      "\u2584\u2584\n"
      "         \u2502                          "
      "\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588\u2588\n"
      "         \u2502\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583"
      "\u2583\u2583\u2583\u2583      "
      "\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\n"
      "         \u2502\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588\u2588\u2588\u2588      "
      "\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\n"
      " 75 MB/s \u2524\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588\u2588\u2588\u2588\u2582\u2582\u2582\u2582\u2582\u2582\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588"
      "\u2588\u2588\u2588\u2588\u2588\n"
      "         \u2502\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588"
      "\u2588\u2588\u2588\u2588\u2588\n"
      "         \u2502\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588"
      "\u2588\u2588\u2588\u2588\u2588\n"
      "         \u2502\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588"
      "\u2588"
      "\u2588\u2588\u2588\u2588\u2588\n"
      "   0 B/s "
      "\u2514\u252c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500"
      "\u2500\u2500\u2500\u252c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500"
      "\u2500"
      "\u2500\u2500\u2500\u252c\n"
      "          0 B              200 MB           400 MB\n"
      "          0 s              2.00 s           4.00 s\n"
      "interval rates: min 60 MB/s, median 100 MB/s,\n"
      "  max 140 MB/s, CV 32.7%\n"
      "  over 4 intervals of 1.00 s\n"
      "cliff: too few intervals to tell (4 of 6)\n"
      "steady state (max deviation from the window mean\n"
      "  <= 10%, 3 intervals): not reached\n"
      "  (smallest 30.8%)\n"
      "steady state (least-squares slope <= 1%\n"
      "  of the mean per interval, 3 intervals):\n"
      "  not reached (smallest 20.0%)\n";
  EXPECT_EQ(timeline_text(kFourIntervals, analyse_timeline(kFourIntervals, kWindowOfThree), 50, true), expected);
}

// The same in ASCII: '#' for a full cell, '.' for one at least half full
// (the 4/8 on top of 140 MB/s), nothing for less (the 3/8 and 2/8).
TEST(TimelineText, ASmallTimelineInAscii) {
  const std::string expected =
      "rate per 10 MB moved, against data moved and time:\n"
      "150 MB/s +                          ..............\n"
      "         |                          ##############\n"
      "         |                          ##############\n"
      "         |####################      ##############\n"
      " 75 MB/s +####################      ##############\n"
      "         |########################################\n"
      "         |########################################\n"
      "         |########################################\n"
      "   0 B/s ++-------------------+------------------+\n"
      "          0 B              200 MB           400 MB\n"
      "          0 s              2.00 s           4.00 s\n";
  const std::string text = timeline_text(kFourIntervals, analyse_timeline(kFourIntervals, kWindowOfThree), 50, false);
  EXPECT_EQ(text.substr(0, expected.size()), expected);
}

TEST(TimelineText, NoLineIsWiderThanTheTerminal) {
  // A long run with a cliff, a short last interval and labels of every length.
  std::vector<std::int64_t> rates = repeated(4'520'000'000, 62);
  const std::vector<std::int64_t> after = repeated(2'010'000'000, 57);
  rates.insert(rates.end(), after.begin(), after.end());
  Timeline timeline = every_second(rates);
  timeline.samples.push_back(
      {timeline.samples.back().end_ns + kSecond / 5, timeline.samples.back().bytes + 1, 0, {}, {}, {}, {}});
  const TimelineAnalysis analysis = analyse_timeline(timeline);
  for (const unsigned width : {40u, 80u, 200u}) {
    for (const bool utf8 : {true, false}) {
      const std::string text = timeline_text(timeline, analysis, width, utf8);
      for (const std::string_view line : lines_of(text)) {
        EXPECT_LE(columns_of(line), width) << "width " << width << ": " << line;
      }
      // The chart uses what it may: its baseline reaches the last column.
      std::string_view baseline;
      for (const std::string_view line : lines_of(text)) {
        if (line.starts_with("   0 B/s ")) baseline = line;
      }
      EXPECT_EQ(columns_of(baseline), width) << text;
    }
  }
}

TEST(TimelineText, EveryUnitsLabelsFitTheirMargin) {
  // IEC's "9.3 GiB/s" and plain "40000000000 B/s" are wider than SI's
  // labels: the margin is as wide as the units asked for need.
  const Timeline timeline = every_second(repeated(9'300'000'000, 30));
  const TimelineAnalysis analysis = analyse_timeline(timeline);
  for (const RateUnits units : {RateUnits::kSi, RateUnits::kIecAndBytes, RateUnits::kBytes, RateUnits::kAll}) {
    for (const unsigned width : {40u, 80u}) {
      const std::string text = timeline_text(timeline, analysis, width, true, units);
      for (const std::string_view line : lines_of(text)) {
        EXPECT_LE(columns_of(line), width) << "width " << width << ": " << line;
      }
    }
  }
}

// 4.52 GB/s for 62 s, then 2.01 GB/s: the cliff is after 62 x 4.52 GB =
// 280.24 GB, 62 s in. GNU's rounding writes 4.52 GB/s as "4.5 GB/s" and
// 280.24 GB as "280 GB".
TEST(TimelineText, TheCliffLineSaysFromWhatToWhatAndWhere) {
  std::vector<std::int64_t> rates = repeated(4'520'000'000, 62);
  const std::vector<std::int64_t> after = repeated(2'010'000'000, 57);
  rates.insert(rates.end(), after.begin(), after.end());
  const Timeline timeline = every_second(rates);
  const std::string text = timeline_text(timeline, analyse_timeline(timeline), 200, true);
  EXPECT_NE(text.find("cliff: fell from 4.5 GB/s to 2.0 GB/s after 280 GB, 62.0 s in (from there on, the median "
                      "rate was below 80% of the first plateau)\n"),
            std::string::npos)
      << text;
}

TEST(TimelineText, AStableRunHasNoCliffAndReachesSteadyStateByBothDefinitions) {
  const Timeline timeline = every_second(repeated(1'200'000'000, 14));
  const std::string text = timeline_text(timeline, analyse_timeline(timeline), 200, true);
  EXPECT_NE(text.find("\ninterval rates: min 1.2 GB/s, median 1.2 GB/s, max 1.2 GB/s, CV 0.0% over 14 intervals of "
                      "1.00 s\n"
                      "cliff: none (no fall below 80% of the first plateau that lasted)\n"
                      "steady state (max deviation from the window mean <= 10%, 10 intervals): reached at 10.0 s, "
                      "12 GB (deviation 0.0%, window mean 1.2 GB/s)\n"
                      "steady state (least-squares slope <= 1% of the mean per interval, 10 intervals): reached at "
                      "10.0 s, 12 GB (slope 0.0%, window mean 1.2 GB/s)\n"),
            std::string::npos)
      << text;
}

TEST(TimelineText, TooFewIntervalsForSteadyStateSaysHowMany) {
  Timeline timeline = every_second(repeated(1'000'000, 7));
  timeline.samples.push_back({7 * kSecond + kSecond / 4, 7'250'000, 0, {}, {}, {}, {}});
  const std::string text = timeline_text(timeline, analyse_timeline(timeline), 200, false);
  EXPECT_NE(text.find("over 7 intervals of 1.00 s, not counting 1 shorter than half of it\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("<= 10%, 10 intervals): too few intervals (7 of 10)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("of the mean per interval, 10 intervals): too few intervals (7 of 10)\n"), std::string::npos)
      << text;
}

TEST(TimelineText, NoBytesCopiedIsSaidInsteadOfAChart) {
  const Timeline timeline = every_second(repeated(0, 3));
  EXPECT_EQ(timeline_text(timeline, analyse_timeline(timeline), 80, true),
            "timeline: nothing was moved, so there is no rate to chart\n"
            "interval rates: min 0 B/s, median 0 B/s, max 0 B/s, CV n/a\n"
            "  over 3 intervals of 1.00 s\n"
            "cliff: too few intervals to tell (3 of 6)\n"
            "steady state (max deviation from the window mean <= 10%, 10 intervals):\n"
            "  too few intervals (3 of 10)\n"
            "steady state (least-squares slope <= 1% of the mean per interval, 10 intervals):\n"
            "  too few intervals (3 of 10)\n");
  Timeline empty;
  empty.interval_ns = kSecond;
  EXPECT_EQ(timeline_text(empty, analyse_timeline(empty), 80, true).substr(0, 59),
            "timeline: nothing was moved, so there is no rate to chart\n"
            "i");
}

// One sample: one interval, every column at its rate, with no gap.
TEST(TimelineText, OneSampleFillsEveryColumn) {
  const Timeline timeline = every_second({80'000'000});
  const std::string text = timeline_text(timeline, analyse_timeline(timeline), 40, false);
  // 40 - 10 = 30 columns at 80 MB/s under a top of 80 MB/s: all full.
  EXPECT_NE(text.find(" 80 MB/s +" + std::string(30, '#') + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("   0 B/s ++--------------+-------------+\n"), std::string::npos) << text;
}

// Fewer samples than columns, at rates that change: every column between
// the first and the last is drawn.
TEST(TimelineText, FewerSamplesThanColumnsLeaveNoGap) {
  const Timeline timeline = every_second({50'000'000, 30'000'000, 70'000'000});
  const std::string text = timeline_text(timeline, analyse_timeline(timeline), 200, false);
  const std::vector<std::string_view> lines = lines_of(text);
  ASSERT_GT(lines.size(), 8u);
  const std::string_view bottom_row = lines[8];  // heading, then 8 rows
  EXPECT_EQ(bottom_row, "         |" + std::string(190, '#'));
}

// Fewer bytes than columns: a column is at least one byte.
TEST(TimelineText, ARunOfAFewBytesHasAColumnPerByte) {
  const Timeline timeline = every_second({20});
  const std::string text = timeline_text(timeline, analyse_timeline(timeline), 80, false);
  EXPECT_NE(text.find("rate per 1 B moved"), std::string::npos) << text;
  EXPECT_NE(text.find(" 20 B/s +" + std::string(20, '#') + "\n"), std::string::npos) << text;
}

// Three bytes: three columns, each a byte at 1 B/s, with a baseline and no
// room for labels. The top is 2 B/s, not 1, whose middle would be 0.5 B/s.
TEST(TimelineText, ARunOfThreeBytesStillHasAChart) {
  Timeline timeline;
  timeline.interval_ns = kSecond;
  timeline.samples = {{3 * kSecond, 3, 3, {}, {}, {}, {}}};
  const std::string text = timeline_text(timeline, analyse_timeline(timeline), 80, false);
  EXPECT_EQ(text.substr(0, text.find("interval rates")),
            "rate per 1 B moved, against data moved and time:\n"
            "   2 B/s +\n"
            "         |\n"
            "         |\n"
            "         |\n"
            "   1 B/s +###\n"
            "         |###\n"
            "         |###\n"
            "         |###\n"
            "   0 B/s +---\n");
}

TEST(TimelineText, ATerminalTooNarrowForAChartSaysSo) {
  const std::string text = timeline_text(kFourIntervals, analyse_timeline(kFourIntervals), 20, false);
  EXPECT_EQ(text.substr(0, text.find("interval rates")), "timeline:\n  20 columns are too few\n  for the rate chart\n");
}

}  // namespace
}  // namespace ddtime
