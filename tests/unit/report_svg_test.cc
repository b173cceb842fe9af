// SPDX-License-Identifier: GPL-3.0-or-later
// --svg's document from the records: which panels a run and a session
// get, what their bars and marks say, and the heading's command line.
#include "report/report_svg.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "unit/report_fixtures.h"

namespace ddtime {
namespace {

using namespace report_fixtures;

TEST(ShellCommand, QuotesOnlyTheWordsAShellWouldSplitOrExpand) {
  EXPECT_EQ(shell_command({"ddtime", "if=/dev/zero", "of=/dev/null", "bs=64k", "--sweep=bs=4k,64k"}),
            "ddtime if=/dev/zero of=/dev/null bs=64k --sweep=bs=4k,64k");
  EXPECT_EQ(shell_command({"dd", "of=my file", "it's", "", "$HOME", "a*"}),
            "dd 'of=my file' 'it'\\''s' '' '$HOME' 'a*'");
}

TEST(SvgDate, IsTheUtcDateAndMinute) {
  EXPECT_EQ(svg_date(1764720000), "2025-12-03 00:00 UTC");
  EXPECT_EQ(svg_date(0), "1970-01-01 00:00 UTC");
}

TEST(RunPanels, APlainRunShowsWhereItsTimeWent) {
  RunTimes times = timed(2 * kSecond, 100 * kMillisecond, 900 * kMillisecond);
  times.split = true;
  times.read_ns = 500 * kMillisecond;
  times.write_ns = kSecond;
  const std::vector<SvgPanel> panels = run_panels(plain_run(Settings{}, copied(16, 0, 8192), times), RateUnits::kIec);
  ASSERT_EQ(panels.size(), 1u);
  const TimeChart& chart = std::get<TimeChart>(panels[0]);
  ASSERT_EQ(chart.real.size(), 4u);
  EXPECT_EQ(chart.real[0].name, "read");
  EXPECT_DOUBLE_EQ(chart.real[0].seconds, 0.5);
  EXPECT_DOUBLE_EQ(chart.real[1].seconds, 1.0);
  EXPECT_EQ(chart.real[3].name, "other");
  EXPECT_DOUBLE_EQ(chart.real[3].seconds, 0.5);
  ASSERT_EQ(chart.cpu.size(), 3u);
  EXPECT_DOUBLE_EQ(chart.cpu[2].seconds, 1.0);  // off the CPU
}

TEST(RunPanels, ARunWithATimelineAndLatencyShowsBothAndNotItsTime) {
  RunRecord run = plain_run(Settings{}, copied(16, 0, 8192), timed(kSecond));
  Timeline timeline{100 * kMillisecond, {}};
  for (int k = 1; k <= 10; ++k) timeline.samples.push_back({k * 100 * kMillisecond, k * 1000, k, {}, {}});
  run.result.timeline = timeline;
  LatencyReport latency;
  latency.read.count = 3;
  latency.read.histogram = {{1024, 1}, {2048, 2}};
  latency.read.percentiles[0] = 2000;
  run.result.latency = latency;
  const std::vector<SvgPanel> panels = run_panels(run, RateUnits::kIec);
  ASSERT_EQ(panels.size(), 2u);
  const TimelineChart& chart = std::get<TimelineChart>(panels[0]);
  EXPECT_EQ(chart.steps.size(), 10u);
  EXPECT_EQ(chart.bytes.name, "KiB");
  const LatencyChart& histogram = std::get<LatencyChart>(panels[1]);
  ASSERT_EQ(histogram.series.size(), 1u);  // no write was timed
  ASSERT_EQ(histogram.series[0].bins.size(), 2u);
  EXPECT_DOUBLE_EQ(histogram.series[0].bins[1].low_ns, 1024);
  ASSERT_EQ(histogram.series[0].marks.size(), 1u);  // p99 not supported by 3 samples
  EXPECT_EQ(histogram.series[0].marks[0].label, "read p50");
}

TEST(RunPanels, TheCliffAndSteadyStateAreTheAnalysisOnesInTheUnitsAsked) {
  RunRecord run = plain_run(Settings{}, copied(16, 0, 8192), timed(kSecond));
  Timeline timeline{kSecond, {}};
  std::int64_t bytes = 0;
  // 10 s at 400 MB/s, then 20 s at 100 MB/s.
  for (int k = 1; k <= 30; ++k) {
    bytes += k <= 10 ? 400'000'000 : 100'000'000;
    timeline.samples.push_back({k * kSecond, bytes, k, {}, {}});
  }
  run.result.timeline = timeline;
  const TimelineChart chart = std::get<TimelineChart>(run_panels(run, RateUnits::kSi)[0]);
  ASSERT_TRUE(chart.cliff);
  EXPECT_EQ(chart.cliff->label, "cliff: 400 MB/s -> 100 MB/s at 4.0 GB");
  EXPECT_DOUBLE_EQ(chart.cliff->at, 4e9);
  // The first plateau is already steady (a cache's can be): its ten
  // intervals, by the deviation rule, first of the two.
  ASSERT_TRUE(chart.steady);
  EXPECT_DOUBLE_EQ(chart.steady->from, 0);
  EXPECT_DOUBLE_EQ(chart.steady->to, 4e9);
  EXPECT_EQ(chart.steady->label, "steady: deviation within 10% over 10 intervals, mean 400 MB/s");
  EXPECT_EQ(chart.bytes.name, "GB");
  EXPECT_EQ(chart.rate.name, "MB/s");
}

RowRecord row_of(std::int64_t bs, double median) {
  RowRecord row;
  row.bs = bs;
  row.counted = 1;
  RowSummary summary;
  summary.bytes_per_second.count = 1;
  summary.bytes_per_second.median = median;
  row.summary = summary;
  return row;
}

TEST(SessionPanels, ASweepsRowsAreBarsWithTheKneeAndTheBestMarked) {
  SessionRecord session;
  session.plan.repeat = 1;
  session.rows = {row_of(4096, 100 * 1048576.0), row_of(65536, 300 * 1048576.0), row_of(1048576, 310 * 1048576.0)};
  session.rows[1].knee = true;
  session.rows[2].summary->bytes_per_second.median_low = 305 * 1048576.0;
  session.rows[2].summary->bytes_per_second.median_high = 320 * 1048576.0;
  const std::vector<SvgPanel> panels = session_panels(session, RateUnits::kIecAndBytes);
  ASSERT_EQ(panels.size(), 1u);
  const BarChart& chart = std::get<BarChart>(panels[0]);
  EXPECT_EQ(chart.value_axis, "MiB/s");
  EXPECT_FALSE(chart.log_scale);
  ASSERT_EQ(chart.bars.size(), 3u);
  EXPECT_EQ(chart.bars[0].label, "4k d1");
  EXPECT_DOUBLE_EQ(chart.bars[0].value, 100);
  EXPECT_EQ(chart.bars[0].mark, "");
  EXPECT_EQ(chart.bars[1].mark, "knee");
  EXPECT_EQ(chart.bars[2].mark, "best");
  EXPECT_DOUBLE_EQ(*chart.bars[2].low, 305);
  EXPECT_FALSE(chart.bars[1].low);
}

TEST(SessionPanels, RowsWithoutCountedRunsAreLeftOutAndTheChartStillDrawn) {
  SessionRecord session;
  session.rows = {RowRecord{}};
  const std::vector<SvgPanel> panels = session_panels(session, RateUnits::kSi);
  ASSERT_EQ(panels.size(), 1u);
  EXPECT_TRUE(std::get<BarChart>(panels[0]).bars.empty());
  const std::string xml = svg_report({"ddtime --repeat=2", "", ""}, panels);
  EXPECT_NE(xml.find("on an unnamed machine"), std::string::npos);
}

TEST(SvgReport, TheHeadingNamesTheCommandTheHostAndTheDate) {
  const std::string xml = svg_report({"ddtime if=a&b --svg=x.svg", "box", "2025-12-03 00:00 UTC"},
                                     run_panels(plain_run(Settings{}, Stats{}, RunTimes{}), RateUnits::kIec));
  EXPECT_NE(xml.find(">ddtime if=a&amp;b --svg=x.svg</text>"), std::string::npos);
  EXPECT_NE(xml.find(">on box, 2025-12-03 00:00 UTC (ddtime "), std::string::npos);
  EXPECT_EQ(xml.find("nan"), std::string::npos);
}

}  // namespace
}  // namespace ddtime
