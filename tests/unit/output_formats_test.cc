// SPDX-License-Identifier: GPL-3.0-or-later
// The formats' table: one row per report option, the order every list of
// reports follows, and the exporters a plan's outputs build.
#include "report/output_formats.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fakes/fake_os.h"
#include "measure/record.h"
#include "model/settings.h"
#include "report/report_files.h"

namespace ddtime {
namespace {

TEST(OutputFormats, EachRowNamesItsOptionItsTitleAndItsHelp) {
  ASSERT_FALSE(output_formats().empty());
  for (const OutputFormat& format : output_formats()) {
    EXPECT_NE(std::string(format.name), "") << "the option";
    EXPECT_NE(std::string(format.title), "") << format.name;
    EXPECT_NE(std::string(format.help), "") << format.name;
    EXPECT_NE(std::string(format.empty_path).find("PATH"), std::string::npos) << format.name;
    EXPECT_EQ(output_format(format.name), &format);
  }
  EXPECT_EQ(output_format("xml"), nullptr);
}

TEST(OutputFormats, JsonAndCsvMayTakeTheTextsPlaceAndSvgNeedsAPath) {
  EXPECT_FALSE(output_format("json")->path_required);
  EXPECT_FALSE(output_format("csv")->path_required);
  EXPECT_TRUE(output_format("svg")->path_required);
}

TEST(OutputFormats, TheReportsFollowTheTablesOrderWhateverTheCommandLinesWas) {
  Plan plan;
  plan.ask_output("svg", "a.svg");
  plan.ask_output("json", std::nullopt);
  plan.ask_output("csv", "a.csv");
  const std::vector<ReportRequest> reports = requested_reports(plan);
  ASSERT_EQ(reports.size(), 3u);
  EXPECT_EQ(reports[0].format, "json");
  EXPECT_EQ(reports[1].format, "csv");
  EXPECT_EQ(reports[2].format, "svg");
}

TEST(OutputFormats, AFormatAskedForTwiceIsOneReportWithTheLastPath) {
  Plan plan;
  plan.ask_output("json", "first.json");
  plan.ask_output("json", std::nullopt);
  ASSERT_EQ(plan.outputs.size(), 1u);
  EXPECT_TRUE(plan.on_stderr("json"));
}

TEST(OutputFormats, OneExporterIsBuiltPerReportAsked) {
  testing::FakeOs os;
  const Settings settings;
  Plan plan;
  plan.ask_output("csv", std::nullopt);
  plan.ask_output("svg", "chart.svg");
  const std::vector<std::string> argv{"ddtime"};
  const ExportContext context{os, settings, plan, argv};
  const std::vector<FormatExporter> exporters = make_exporters(context);
  ASSERT_EQ(exporters.size(), 2u);
  EXPECT_EQ(std::string(exporters[0].format->name), "csv");
  EXPECT_FALSE(exporters[0].exporter->path());
  EXPECT_EQ(exporters[1].exporter->path(), "chart.svg");
}

// CSV on standard error: a line as each run ends, one header, and at the
// end only the lines not sent yet.
TEST(OutputFormats, CsvOnStandardErrorSendsEachLineOnceAndOneHeader) {
  testing::FakeOs os;
  const Settings settings;
  Plan plan;
  plan.ask_output("csv", std::nullopt);
  const std::vector<std::string> argv{"ddtime"};
  const ExportContext context{os, settings, plan, argv};
  const std::vector<FormatExporter> exporters = make_exporters(context);
  Exporter& csv = *exporters.front().exporter;
  SessionRecord session;
  session.runs.resize(2);
  const std::string first = csv.session_run_ended(session.runs[0]).value();
  EXPECT_EQ(std::count(first.begin(), first.end(), '\n'), 2) << first;
  const std::string rest = csv.session_ended(session).value();
  EXPECT_EQ(std::count(rest.begin(), rest.end(), '\n'), 1) << rest;
  EXPECT_EQ(rest.rfind("bs,", 0), std::string::npos) << "no second header";
}

}  // namespace
}  // namespace ddtime
