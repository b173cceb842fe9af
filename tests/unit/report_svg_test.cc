// SPDX-License-Identifier: GPL-3.0-or-later
// --svg's document from the records: which panels a run and a session
// get, what their bars and marks say, and the heading's command line.
#include "report/report_svg.h"

#include <gtest/gtest.h>

#include <csignal>
#include <regex>
#include <string>
#include <variant>
#include <vector>

#include "report/report_compare.h"
#include "unit/profile_runs.h"
#include "unit/report_fixtures.h"
#include "unit/svg_layout.h"

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
  for (int k = 1; k <= 10; ++k) timeline.samples.push_back({k * 100 * kMillisecond, k * 1000, k, {}, {}, {}, {}});
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
    timeline.samples.push_back({k * kSecond, bytes, k, {}, {}, {}, {}});
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

// A diskmark profile's record: each rate a row, the reads first; with
// writes, as many write rows after them.
ProfileRecord profile_of(std::vector<double> read_rates, std::vector<double> write_rates = {}) {
  ProfileRecord record{.preset = find_profile("diskmark"),
                       .target = "/dev/loop1",
                       .range = 256 << 20,
                       .time_ns = kSecond,
                       .warmup = 0,
                       .repeat = 3,
                       .pause_ns = 0,
                       .direct = true};
  record.writes = !write_rates.empty();
  for (const bool write : {false, true}) {
    const std::vector<double>& rates = write ? write_rates : read_rates;
    for (std::size_t i = 0; i < rates.size(); ++i) {
      ProfileRow row{.test = kDiskmarkTests[i], .side = write ? ProfileSide::kWrite : ProfileSide::kRead};
      row.runs.assign(3, profile_run_at(rates[i]));
      summarise_profile_row(row);
      record.rows.push_back(row);
    }
  }
  record.complete =
      read_rates.size() == kDiskmarkTests.size() && (!record.writes || write_rates.size() == kDiskmarkTests.size());
  if (record.complete) record.exit_status = 0;
  return record;
}

const SvgTitle kTitle{"ddtime --profile=diskmark of=/dev/loop1 --size=256M --svg=p.svg", "box", ""};

std::vector<std::string> texts_of(const std::string& xml) {
  std::vector<std::string> found;
  const std::regex text("<text[^>]*>([^<]*)</text>");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), text); it != std::sregex_iterator(); ++it) {
    found.push_back((*it)[1]);
  }
  return found;
}

bool has_text(const std::string& xml, const std::string& words) {
  for (const std::string& text : texts_of(xml)) {
    if (text == words) return true;
  }
  return false;
}

// B2.
TEST(ProfilePanels, ReadAndWriteBarsAreGroupedByTestInTwoColoursWithALegendAndNoLabelOverlaps) {
  const std::string xml =
      svg_report(kTitle, profile_panels(profile_of({1.7e9, 1.4e9, 2.1e8, 5.8e7}, {1.6e9, 7.3e8, 1.7e8, 4.2e7})));
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
  EXPECT_TRUE(has_text(xml, "read"));
  EXPECT_TRUE(has_text(xml, "write"));
  EXPECT_TRUE(has_text(xml, "SEQ1M Q8T1"));  // once, under its pair of bars
  std::size_t read_bars = 0, write_bars = 0;
  for (std::size_t at = xml.find("class=\"bar\""); at != std::string::npos; at = xml.find("class=\"bar\"", at + 1)) {
    ++read_bars;
  }
  for (std::size_t at = xml.find("class=\"bar1\""); at != std::string::npos; at = xml.find("class=\"bar1\"", at + 1)) {
    ++write_bars;
  }
  EXPECT_EQ(read_bars, 5u);  // four bars and the legend's swatch
  EXPECT_EQ(write_bars, 5u);
}

// --mix: a third colour beside read and write, named with its ratio.
TEST(ProfilePanels, AMixIsAThirdSeriesInAColourOfItsOwn) {
  ProfileRecord record = profile_of({1.7e9, 1.4e9, 2.1e8, 5.8e7}, {1.6e9, 7.3e8, 1.7e8, 4.2e7});
  record.mix_percent = 70;
  for (std::size_t i = 0; i < kDiskmarkTests.size(); ++i) {
    ProfileRow row{.test = kDiskmarkTests[i], .side = ProfileSide::kMix};
    row.runs.assign(3, profile_run_at(1e9));
    summarise_profile_row(row);
    record.rows.push_back(row);
  }
  const std::string xml = svg_report(kTitle, profile_panels(record));
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
  EXPECT_TRUE(has_text(xml, "mix 70% reads"));
  std::size_t mix_bars = 0;
  for (std::size_t at = xml.find("class=\"bar2\""); at != std::string::npos; at = xml.find("class=\"bar2\"", at + 1)) {
    ++mix_bars;
  }
  EXPECT_EQ(mix_bars, 5u);  // four bars and the legend's swatch
}

// B9.
TEST(ProfilePanels, TheTitleNamesThePresetTheTargetTheRangeAndODirect) {
  const BarChart chart = std::get<BarChart>(profile_panels(profile_of({1e9, 1e9, 1e8, 1e7}))[0]);
  EXPECT_EQ(chart.title.find("diskmark, /dev/loop1, 256 MiB, O_DIRECT: "), 0u) << chart.title;
}

// B9.
TEST(SvgReport, TheHeadingWrapsALongCommandLineInsteadOfCuttingIt) {
  std::vector<std::string> argv{"ddtime", "--profile=diskmark",
                                "of=/dev/disk/by-id/nvme-Samsung_SSD_990_PRO_2TB_S6Z2NJ0W"};
  for (const char* option :
       {"--size=256M", "--time=1s", "--repeat=3", "--pause=0", "--json=/home/someone/results/p.json",
        "--svg=/home/someone/results/a chart with spaces.svg", "--csv=/home/someone/results/p.csv"}) {
    argv.push_back(option);
  }
  const std::string command = shell_command(argv);
  const std::string xml = svg_report({command, "box", ""}, profile_panels(profile_of({1e9, 1e9, 1e8, 1e7})));
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
  std::string shown;
  for (const std::string& text : texts_of(xml)) {
    if (text.rfind("ddtime ", 0) == 0 || !shown.empty()) shown += (shown.empty() ? "" : " ") + text;
    if (shown.size() >= command.size()) break;
  }
  shown = std::regex_replace(shown, std::regex("&apos;"), "'");
  EXPECT_NE(shown.find("'--svg=/home/someone/results/a chart with spaces.svg' --csv=/home/someone/results/p.csv"),
            std::string::npos)
      << shown;
}

// B10.
TEST(ProfilePanels, AnInterruptedProfileSaysSoAndLeavesEmptySlotsForTheTestsThatDidNotRun) {
  ProfileRecord record = profile_of({1.7e9});
  record.signal = SIGINT;
  const std::vector<SvgPanel> panels = profile_panels(record);
  const BarChart& chart = std::get<BarChart>(panels[0]);
  EXPECT_NE(chart.title.find("interrupted by SIGINT: 1 of 4 tests"), std::string::npos) << chart.title;
  ASSERT_EQ(chart.bars.size(), 4u);
  EXPECT_EQ(chart.bars[3].label, "RND4K Q1T1");
  const std::string xml = svg_report(kTitle, panels);
  EXPECT_TRUE(has_text(xml, "did not run"));
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
}

// B21.
TEST(RunPanels, AVeryShortRunsTimesAreInTheUnitThatShowsThem) {
  const std::string xml =
      svg_report({"ddtime count=0", "box", ""},
                 run_panels(plain_run(Settings{}, Stats{}, timed(31'000, 12'000, 9'000)), RateUnits::kIec));
  EXPECT_EQ(xml.find("0.0000 s"), std::string::npos);
  EXPECT_NE(xml.find("real 31 \xc2\xb5s"), std::string::npos) << xml;
  EXPECT_TRUE(has_text(xml, "time (\xc2\xb5s)")) << "the axis names its unit";
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
}

// B20.
TEST(SessionPanels, WithoutAWhiskerTheTitleSaysTheIntervalNeedsSixRunsAndWithOneItSaysItIsDrawn) {
  SessionRecord session;
  session.plan.repeat = 3;
  session.rows = {row_of(65536, 300 * 1048576.0)};
  const std::string few = std::get<BarChart>(session_panels(session, RateUnits::kIec)[0]).title;
  EXPECT_EQ(few, "median rate of each setting's 3 runs; the 95% interval needs 6 or more");
  session.plan.repeat = 6;
  session.rows[0].summary->bytes_per_second.median_low = 290 * 1048576.0;
  session.rows[0].summary->bytes_per_second.median_high = 310 * 1048576.0;
  const std::string many = std::get<BarChart>(session_panels(session, RateUnits::kIec)[0]).title;
  EXPECT_EQ(many, "median rate of each setting's 6 runs, its 95% interval as a whisker");
  session.readback = true;
  session.plan.repeat = 1;
  session.rows = {row_of(65536, 300 * 1048576.0), row_of(65536, 200 * 1048576.0)};
  session.rows[1].pass = Pass::kRead;
  const std::string readback = std::get<BarChart>(session_panels(session, RateUnits::kIec)[0]).title;
  EXPECT_EQ(readback, "rate of each pass, one run each");
}

// B10: a session or a run that a signal ended says so in its chart.
TEST(SessionPanels, AnInterruptedSessionOrRunSaysSoInItsTitle) {
  SessionRecord session;
  session.plan.repeat = 3;
  session.rows = {row_of(65536, 300 * 1048576.0), RowRecord{.bs = 1048576}};
  session.signal = SIGINT;
  session.complete = false;
  const BarChart chart = std::get<BarChart>(session_panels(session, RateUnits::kIec)[0]);
  EXPECT_NE(chart.title.find("interrupted by SIGINT: 1 of 2 settings"), std::string::npos) << chart.title;
  ASSERT_EQ(chart.bars.size(), 2u);
  EXPECT_TRUE(chart.bars[1].missing);
  EXPECT_EQ(chart.bars[1].label, "1M d1");
  const RunRecord run = stopped_run(Settings{}, copied(16, 0, 8192), timed(kSecond), SIGINT);
  const std::string time = std::get<TimeChart>(run_panels(run, RateUnits::kIec)[0]).title;
  EXPECT_NE(time.find("interrupted by SIGINT"), std::string::npos) << time;
}

// B20.
TEST(ProfilePanels, WithoutAWhiskerTheTitleSaysTheIntervalNeedsSixRuns) {
  const BarChart chart = std::get<BarChart>(profile_panels(profile_of({1e9, 1e9, 1e8, 1e7}))[0]);
  EXPECT_NE(chart.title.find("median of 3 runs per test; the 95% interval needs 6 or more"), std::string::npos)
      << chart.title;
  EXPECT_EQ(chart.title.find("from 6 runs"), std::string::npos) << chart.title;
}

RowComparison compared(double baseline, double other, int runs) {
  std::vector<double> a, b;
  for (int k = 0; k < runs; ++k) {
    a.push_back(baseline * (1 + 0.01 * k));
    b.push_back(other * (1 + 0.01 * k));
  }
  return compare_rates(a, b);
}

ComparisonReport documents_of(const std::vector<double>& rates, int runs) {
  const RowKey key{{"pass", "copy", std::nullopt}, {"bs", "", 1048576}, {"iodepth", "", 1}};
  ComparisonReport report;
  report.names = {"a.json"};
  for (std::size_t i = 1; i < rates.size(); ++i) {
    const std::string name = std::string(1, static_cast<char>('a' + i)) + ".json";
    report.names.push_back(name);
    report.others.push_back({name, {{key, compared(rates[0], rates[i], runs)}}});
  }
  return report;
}

// B18.
TEST(ComparisonPanels, SeveralDocumentsShareOneScaleWithRoomBeyondTheFarthestPoint) {
  const std::string xml = svg_report({"ddtime --compare a.json b.json c.json d.json e.json --svg=x.svg", "box", ""},
                                     comparison_panels(documents_of({100, 101, 986, 50, 120}, 8)));
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
  // Each panel's axis: its first and last tick labels.
  const std::regex circle("<circle cx=\"([0-9.]+)\"");
  std::vector<double> points;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), circle); it != std::sregex_iterator(); ++it) {
    points.push_back(std::stod((*it)[1]));
  }
  ASSERT_EQ(points.size(), 4u);
  const std::regex unity("<line x1=\"([0-9.]+)\"[^>]*class=\"unity\"");
  std::vector<double> ones;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), unity); it != std::sregex_iterator(); ++it) {
    ones.push_back(std::stod((*it)[1]));
  }
  ASSERT_EQ(ones.size(), 4u);
  for (const double one : ones) EXPECT_DOUBLE_EQ(one, ones[0]) << "the line at 1 is where it is in every panel";
  EXPECT_LT(points[0] - ones[0], 5) << "x1.01 is near 1 on a shared scale";
  EXPECT_TRUE(has_text(xml, "bs=1M depth 1") || (has_text(xml, "bs=1M") && has_text(xml, "depth 1")))
      << "a label breaks between its phrases, never inside one";
  // A one-row panel is not a full panel's height.
  const std::regex height("<svg [^>]*height=\"([0-9.]+)\"");
  std::smatch found;
  ASSERT_TRUE(std::regex_search(xml, found, height));
  EXPECT_LT(std::stod(found[1]), 4 * kSvgPanelHeight);
}

// B9.
TEST(ComparisonPanels, AVerdictSaysTheRatioOnceAndIsNeverCut) {
  const std::vector<SvgPanel> panels = comparison_panels(documents_of({100, 121}, 8));
  const std::string xml = svg_report({"ddtime --compare a.json b.json --svg=x.svg", "box", ""}, panels);
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
  EXPECT_EQ(xml.find("\xc3\x97"), std::string::npos) << "no \"x1.21\" before \"1.21x faster\"";
  const std::string few = svg_report({"ddtime --compare a.json b.json --svg=x.svg", "box", ""},
                                     comparison_panels(documents_of({100, 67}, 3)));
  EXPECT_EQ(svg_layout::said(svg_layout::problems(few)), "");
  EXPECT_NE(few.find("0.67x"), std::string::npos);
  EXPECT_NE(few.find("too few runs"), std::string::npos) << "the reason, wrapped but whole";
  EXPECT_NE(few.find("rank test can give is"), std::string::npos);
}

}  // namespace
}  // namespace ddtime
