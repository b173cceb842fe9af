// SPDX-License-Identifier: GPL-3.0-or-later
// --svg's charts: geometry that follows the figures (bars in proportion,
// log ticks at decades, marks where they belong), and no input, however
// empty or broken, that writes "nan" or "inf" into the document.
#include "report/svg_charts.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "report/svg_charts_internal.h"
#include "unit/svg_layout.h"

namespace ddtime {
namespace {

using Attributes = std::map<std::string, std::string>;

// Every element named name whose class is css_class, with its attributes.
std::vector<Attributes> elements(const std::string& xml, const std::string& name, const std::string& css_class) {
  std::vector<Attributes> found;
  const std::regex element("<" + name + "((?: [a-z0-9-]+=\"[^\"]*\")*)/?>");
  const std::regex attribute(" ([a-z0-9-]+)=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), element); it != std::sregex_iterator(); ++it) {
    Attributes attributes;
    const std::string list = (*it)[1];
    for (auto a = std::sregex_iterator(list.begin(), list.end(), attribute); a != std::sregex_iterator(); ++a) {
      attributes[(*a)[1]] = (*a)[2];
    }
    if (attributes["class"] == css_class) found.push_back(attributes);
  }
  return found;
}

double number(const Attributes& attributes, const std::string& name) { return std::stod(attributes.at(name)); }

// The texts of the document, in order.
std::vector<std::string> texts(const std::string& xml) {
  std::vector<std::string> found;
  const std::regex text("<text[^>]*>([^<]*)</text>");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), text); it != std::sregex_iterator(); ++it) {
    found.push_back((*it)[1]);
  }
  return found;
}

bool has_text(const std::string& xml, const std::string& words) {
  for (const std::string& text : texts(xml)) {
    if (text == words) return true;
  }
  return false;
}

void expect_no_broken_numbers(const std::string& xml) {
  for (const char* word : {"nan", "NaN", "inf", "Inf"}) EXPECT_EQ(xml.find(word), std::string::npos) << word;
}

const SvgHeading kHeading{"ddtime if=/dev/zero of=/dev/null --svg=x.svg", "on testhost"};

std::string page_of(SvgPanel panel) { return svg_page(kHeading, {std::move(panel)}); }

// The static-runtime build links no libm, so the log scales have their own.
TEST(SvgScale, ItsLog10AndPowersOfTenAreExactEnoughForAnAxis) {
  for (const double x : {1e-9, 0.01, 0.5, 1.0, 2.0, 3.0, 45.0, 1000.0, 3500.0, 1e12, 1.7e300}) {
    EXPECT_NEAR(svg_charts_internal::log10_of(x), std::log10(x), 1e-12) << x;
  }
  EXPECT_EQ(svg_charts_internal::log10_of(0), 0);
  EXPECT_EQ(svg_charts_internal::log10_of(-5), 0);
  EXPECT_EQ(svg_charts_internal::log10_of(std::numeric_limits<double>::quiet_NaN()), 0);
  EXPECT_EQ(svg_charts_internal::power_of_ten(0), 1);
  EXPECT_EQ(svg_charts_internal::power_of_ten(6), 1e6);
  EXPECT_EQ(svg_charts_internal::power_of_ten(-2), 0.01);
  EXPECT_EQ(svg_charts_internal::power_of_ten(22), 1e22);
}

TEST(SvgBars, DrawsEachBarWithAHeightInProportionToItsValue) {
  BarChart chart{"rates", "MiB/s", false, {{"4k d1", 100, {}, {}, {}}, {"64k d1", 50, {}, {}, {}}}};
  const std::vector<Attributes> bars = elements(page_of(chart), "rect", "bar");
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_NEAR(number(bars[0], "height") / number(bars[1], "height"), 2.0, 0.01);
  // Both stand on the same axis.
  EXPECT_NEAR(number(bars[0], "y") + number(bars[0], "height"), number(bars[1], "y") + number(bars[1], "height"), 0.11);
}

TEST(SvgBars, DrawsAMarkedBarInTheMarkColourWithItsWordAndAWhiskerForItsInterval) {
  BarChart chart{"rates", "MiB/s", false, {{"4k d1", 80, {}, {}, {}}, {"64k d1", 100, 90.0, 110.0, "knee"}}};
  const std::string xml = page_of(chart);
  EXPECT_EQ(elements(xml, "rect", "bar").size(), 1u);
  ASSERT_EQ(elements(xml, "rect", "bar-mark").size(), 1u);
  EXPECT_TRUE(has_text(xml, "knee"));
  EXPECT_TRUE(has_text(xml, "64k d1"));
  const std::vector<Attributes> whiskers = elements(xml, "line", "whisker");
  ASSERT_EQ(whiskers.size(), 3u);  // the interval and its two caps
  // The interval spans 90 to 110 on the same scale as the bar's 100.
  const Attributes bar = elements(xml, "rect", "bar-mark")[0];
  const double base = number(bar, "y") + number(bar, "height");
  const double per_unit = number(bar, "height") / 100;
  EXPECT_NEAR(base - number(whiskers[0], "y1"), 90 * per_unit, 0.2);
  EXPECT_NEAR(base - number(whiskers[0], "y2"), 110 * per_unit, 0.2);
}

TEST(SvgBars, PutsALogScalesTicksAtSixDecadesAndSaysItIsLog) {
  BarChart chart{"profile", "MB/s", true, {{"SEQ1M Q8T1", 3500, {}, {}, {}}, {"RND4K Q1T1", 45, {}, {}, {}}}};
  const std::string xml = page_of(chart);
  for (const char* tick : {"0.01", "0.1", "1", "10", "100", "1000", "10000"}) {
    EXPECT_TRUE(has_text(xml, tick)) << tick;
  }
  EXPECT_FALSE(has_text(xml, "0.001"));
  EXPECT_FALSE(has_text(xml, "100000"));
  EXPECT_TRUE(has_text(xml, "MB/s (log scale)"));
  // On a log scale a bar's height goes with the log of its value: 3500
  // is log10(3500/0.01) decades up, 45 is log10(45/0.01).
  const std::vector<Attributes> bars = elements(xml, "rect", "bar");
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_NEAR(number(bars[0], "height") / number(bars[1], "height"), std::log10(3500 / 0.01) / std::log10(45 / 0.01),
              0.01);
}

// Rule 8: however many bars, their figures, marks and labels never overlap.
TEST(SvgBars, ManyBarsTurnTheirFiguresAndLabelsRatherThanOverlap) {
  for (const std::size_t count : {8u, 16u, 45u, 60u}) {
    BarChart chart{"sweep", "MiB/s", false, {}};
    for (std::size_t i = 0; i < count; ++i) {
      chart.bars.push_back({"64M d" + std::to_string(i),
                            1000.0 + 997.0 * static_cast<double>(i % 7),
                            {},
                            {},
                            i == 5 ? "knee, best" : ""});
    }
    const std::string xml = page_of(chart);
    EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "") << count << " bars";
  }
}

TEST(SvgBars, DrawsNoNanOrInfFromBrokenEmptyOrZeroValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const bool log : {false, true}) {
    expect_no_broken_numbers(page_of(BarChart{"t", "MiB/s", log, {}}));
    expect_no_broken_numbers(page_of(BarChart{"t", "MiB/s", log, {{"a", 0, {}, {}, {}}}}));
    expect_no_broken_numbers(page_of(BarChart{"t", "MiB/s", log, {{"a", nan, nan, inf, "x"}, {"b", inf, {}, {}, {}}}}));
  }
}

TEST(SvgTimeline, DrawsAStepPerIntervalTheCliffAsALineWithItsLabelAndTheSteadyWindowShaded) {
  TimelineChart chart;
  chart.bytes = {"GB", 1e9};
  chart.rate = {"MB/s", 1e6};
  chart.steps = {{0, 1e9, 400e6}, {1e9, 2e9, 400e6}, {2e9, 3e9, 125e6}, {3e9, 4e9, 125e6}};
  chart.cliff = SvgMarker{2e9, "cliff: 400 MB/s -> 125 MB/s at 2.0 GB"};
  chart.steady = SvgSpan{2e9, 4e9, "steady"};
  const std::string xml = page_of(chart);
  const std::vector<Attributes> steps = elements(xml, "polyline", "step");
  ASSERT_EQ(steps.size(), 1u);
  // Two points per interval.
  const std::string points = steps[0].at("points");
  EXPECT_EQ(std::count(points.begin(), points.end(), ','), 8);
  const std::vector<Attributes> cliff = elements(xml, "line", "cliff");
  ASSERT_EQ(cliff.size(), 1u);
  EXPECT_EQ(cliff[0].at("x1"), cliff[0].at("x2"));  // vertical
  EXPECT_TRUE(has_text(xml, "cliff: 400 MB/s -&gt; 125 MB/s at 2.0 GB"));
  const std::vector<Attributes> steady = elements(xml, "rect", "steady");
  ASSERT_EQ(steady.size(), 1u);
  // The window starts where the cliff is, and runs to the end: half the axis of 0 to 4 GB.
  EXPECT_NEAR(number(steady[0], "x"), number(cliff[0], "x1"), 0.11);
  EXPECT_NEAR(number(steady[0], "width"), (kSvgPlotRight - kSvgPlotLeft) / 2, 0.2);
  EXPECT_TRUE(has_text(xml, "bytes moved (GB)"));
}

TEST(SvgTimeline, DrawsNoNanOrInfWithoutIntervalsOrWithBrokenRates) {
  TimelineChart empty;
  expect_no_broken_numbers(page_of(empty));
  TimelineChart broken;
  broken.steps = {{0, 0, std::numeric_limits<double>::quiet_NaN()}, {0, 0, 0}};
  broken.bytes.size = 0;
  expect_no_broken_numbers(page_of(broken));
}

TEST(SvgLatency, DrawsEachSeriesAsSharesOnALogAxisWithDecadeTicksAndItsPercentiles) {
  LatencySeries read{"read", {{500, 1000, 25}, {1000, 2000, 75}}, {{1500, "read p50"}, {1900, "read p99"}}};
  LatencySeries write{"write", {{50000, 100000, 10}}, {{90000, "write p50"}}};
  const std::string xml = page_of(LatencyChart{"latency", {read, write}});
  const std::vector<Attributes> reads = elements(xml, "rect", "series0");
  // The legend's swatch, then two bins.
  ASSERT_EQ(reads.size(), 3u);
  EXPECT_NEAR(number(reads[2], "height") / number(reads[1], "height"), 3.0, 0.02);
  // Each bin is as wide as a doubling on the log axis.
  EXPECT_NEAR(number(reads[1], "width"), number(reads[2], "width"), 0.15);
  EXPECT_EQ(elements(xml, "rect", "series1").size(), 2u);
  for (const char* tick : {"100 ns", "1 µs", "10 µs", "100 µs"}) EXPECT_TRUE(has_text(xml, tick)) << tick;
  EXPECT_EQ(elements(xml, "line", "mark0").size(), 2u);
  EXPECT_EQ(elements(xml, "line", "mark1").size(), 1u);
  EXPECT_TRUE(has_text(xml, "read p99 1.9 µs"));
  EXPECT_TRUE(has_text(xml, "latency (log scale)"));
}

// B17.
TEST(SvgLatency, PercentileLabelsOfCloseMarksNeverCollide) {
  LatencySeries read{"read",
                     {{64000, 128000, 50}, {128000, 256000, 30}, {4e6, 8e6, 10}, {8e6, 16e6, 1}},
                     {{146800, "read p50"}, {5.8e6, "read p99"}, {13.4e6, "read p99.9"}}};
  LatencySeries write{"write", {{64000, 128000, 50}, {8e6, 16e6, 1}}, {{150000, "write p50"}, {12e6, "write p99"}}};
  const std::string xml = page_of(LatencyChart{
      "latency (system call, from the end of the one before; 2000000 reads, 2000000 writes)", {read, write}});
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
}

TEST(SvgLatency, DrawsNoNanOrInfWithoutSamples) {
  expect_no_broken_numbers(page_of(LatencyChart{"latency", {}}));
  expect_no_broken_numbers(page_of(LatencyChart{"latency", {{"read", {{0, 0, 0}}, {{0, "p50"}}}}}));
}

TEST(SvgIntervals, ALabelIsWholeAndALongOneBreaksBetweenItsPhrasesOnly) {
  IntervalChart chart{"compare",
                      {{"SEQ1M Q8T1 read", 2.0, 1.8, 2.2, "2.00x faster [1.80-2.20]"},
                       {"SEQ1M Q8T1 write", 1.0, 0.9, 1.1, "1.00x ~ no significant difference (p=0.41)"}}};
  chart.rows.push_back({"a long row label of many words", 1.0, {}, {}, "~", {"a long row label", "of many words"}});
  const std::string xml = page_of(chart);
  EXPECT_TRUE(has_text(xml, "SEQ1M Q8T1 read"));
  EXPECT_TRUE(has_text(xml, "SEQ1M Q8T1 write"));
  EXPECT_TRUE(has_text(xml, "2.00x faster [1.80-2.20]"));
  EXPECT_TRUE(has_text(xml, "a long row label"));
  EXPECT_TRUE(has_text(xml, "of many words"));
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
}

TEST(SvgIntervals, DrawsALineAtOneAndEachRatioAsAPointWithItsWhiskerOnALogAxis) {
  IntervalChart chart{"compare", {{"64k", 2.0, 1.8, 2.2, "faster"}, {"1M", 0.5, {}, {}, "slower"}}};
  const std::string xml = page_of(chart);
  const std::vector<Attributes> unity = elements(xml, "line", "unity");
  ASSERT_EQ(unity.size(), 1u);
  const std::vector<Attributes> points = elements(xml, "circle", "point");
  ASSERT_EQ(points.size(), 2u);
  // x2 and x0.5 lie as far to either side of 1 on a log axis.
  const double one = number(unity[0], "x1");
  EXPECT_NEAR(number(points[0], "cx") - one, one - number(points[1], "cx"), 0.15);
  EXPECT_EQ(elements(xml, "line", "whisker").size(), 3u);  // one row has an interval
  EXPECT_TRUE(has_text(xml, "ratio (log scale)"));
  EXPECT_TRUE(has_text(xml, "faster"));
  expect_no_broken_numbers(page_of(IntervalChart{"compare", {}}));
  expect_no_broken_numbers(
      page_of(IntervalChart{"compare", {{"x", std::numeric_limits<double>::quiet_NaN(), 0.0, -1.0, ""}}}));
}

TEST(SvgTime, StacksTheRealTimeAndTheCpuTimeInProportion) {
  TimeChart chart{"time",
                  {{"read", 0.3}, {"write", 0.6}, {"flush", 0}, {"other", 0.1}},
                  {{"user", 0.1}, {"sys", 0.4}, {"off the CPU", 0.5}}};
  const std::string xml = page_of(chart);
  const std::vector<Attributes> read = elements(xml, "rect", "time0");
  const std::vector<Attributes> write = elements(xml, "rect", "time1");
  ASSERT_EQ(read.size(), 2u);  // the segment and its legend's swatch
  ASSERT_EQ(write.size(), 2u);
  EXPECT_NEAR(number(write[0], "width") / number(read[0], "width"), 2.0, 0.01);
  EXPECT_NEAR(number(write[0], "x"), number(read[0], "x") + number(read[0], "width"), 0.11);
  EXPECT_TRUE(has_text(xml, "write 600 ms"));
  expect_no_broken_numbers(page_of(TimeChart{"time", {}, {}}));
  expect_no_broken_numbers(page_of(TimeChart{"time", {{"read", std::numeric_limits<double>::infinity()}}, {}}));
}

TEST(SvgPage, TheCommandWrapsBetweenWordsAndKeepsAQuotedWordWhole) {
  const std::string quoted = "'--svg=/home/someone/a chart with spaces.svg'";
  const std::string command = "ddtime --profile=diskmark of=/dev/disk/by-id/nvme-Samsung_SSD_990_PRO_2TB --size=1 " +
                              quoted + " --csv=/home/someone/p.csv";
  const std::string xml = svg_page({command, "on testhost"}, {TimeChart{}});
  bool whole = false;
  for (const std::string& text : texts(xml))
    whole = whole || text.find("&apos;--svg=/home/someone/a chart with spaces.svg&apos;") != std::string::npos;
  EXPECT_TRUE(whole) << xml;
  EXPECT_EQ(svg_layout::said(svg_layout::problems(xml)), "");
  EXPECT_NE(xml.find("height=\"440\""), std::string::npos) << "one line more than the heading's one";
}

TEST(SvgPage, StacksPanelsOfTheFixedSizeUnderTheHeading) {
  const std::string one = svg_page(kHeading, {TimeChart{}});
  EXPECT_NE(one.find("width=\"800\" height=\"424\""), std::string::npos);
  const std::string three = svg_page(kHeading, {BarChart{}, LatencyChart{}, TimelineChart{}});
  EXPECT_NE(three.find("width=\"800\" height=\"1144\""), std::string::npos);
  EXPECT_EQ(svg_page_height(kHeading, {BarChart{}, BarChart{}}), kSvgHeadingHeight + 2 * kSvgPanelHeight);
  EXPECT_TRUE(has_text(one, "ddtime if=/dev/zero of=/dev/null --svg=x.svg"));
  EXPECT_TRUE(has_text(one, "on testhost"));
}

}  // namespace
}  // namespace ddtime
