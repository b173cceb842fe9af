// SPDX-License-Identifier: GPL-3.0-or-later
// The exporters, built from the formats' table as --compare builds them,
// answering a comparison: each with the text report_compare's writer
// gives, OpenMetrics with nothing.
#include "report/exporter.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fakes/fake_os.h"
#include "measure/compare_stats.h"
#include "model/plan.h"
#include "model/settings.h"
#include "report/output_formats.h"
#include "report/report_compare.h"
#include "report/svg_exporter.h"

namespace ddtime {
namespace {

// b.json against a.json: a row 1.29x faster, a row only a.json has, and a
// host that differs.
ComparisonReport compared() {
  ComparisonReport report;
  report.names = {"a.json", "b.json"};
  report.environment = {{"host", {"alpha", "beta"}}};
  const RowKey copy{{"pass", "copy", std::nullopt}, {"bs", "", 1048576}, {"iodepth", "", 1}};
  const RowKey read{{"pass", "read", std::nullopt}, {"bs", "", 1048576}, {"iodepth", "", 1}};
  const std::vector<double> a{100, 101, 102, 103, 104}, b{130, 131, 132, 133, 134};
  report.others.push_back({"b.json", {{copy, compare_rates(a, b)}}, {read}, {}});
  return report;
}

struct Comparison {
  testing::FakeOs os;
  Settings settings;
  Plan plan;
  std::vector<std::string> argv{"ddtime", "--compare", "a.json", "b.json"};
  ExportContext context{os, settings, plan, argv};
  ComparisonReport report = compared();

  // What each exporter the plan asks for answers, by its format's name.
  std::map<std::string, std::optional<std::string>> answers() {
    std::map<std::string, std::optional<std::string>> answered;
    for (const FormatExporter& each : make_exporters(context)) {
      answered[each.format->name] = each.exporter->comparison_ended(report);
    }
    return answered;
  }
};

TEST(Exporter, JsonAnswersAComparisonWithTheWritersDocument) {
  Comparison compare;
  compare.plan.ask_output("json", "c.json");
  EXPECT_EQ(compare.answers().at("json"), comparison_json(compare.report, DDTIME_VERSION));
}

TEST(Exporter, CsvAnswersAComparisonWithTheWritersLines) {
  Comparison compare;
  compare.plan.ask_output("csv", "c.csv");
  EXPECT_EQ(compare.answers().at("csv"), comparison_csv(compare.report));
}

TEST(Exporter, SvgAnswersAComparisonWithItsRatiosUnderTheCommandAndTheHost) {
  Comparison compare;
  compare.plan.ask_output("svg", "c.svg");
  EXPECT_EQ(compare.answers().at("svg"), svg_document(compare.os, compare.argv, comparison_panels(compare.report)));
}

TEST(Exporter, OpenMetricsAnswersAComparisonWithNothing) {
  Comparison compare;
  compare.plan.ask_output("openmetrics", "c.prom");
  EXPECT_EQ(compare.answers().at("openmetrics"), std::nullopt);
}

TEST(Exporter, WithoutAPathJsonAndCsvAnswerTheSameText) {
  // compare_driver puts it on standard output in place of the table.
  Comparison json;
  json.plan.ask_output("json", std::nullopt);
  EXPECT_EQ(json.answers().at("json"), comparison_json(json.report, DDTIME_VERSION));
  Comparison csv;
  csv.plan.ask_output("csv", std::nullopt);
  EXPECT_EQ(csv.answers().at("csv"), comparison_csv(csv.report));
}

TEST(Exporter, EveryFormatAskedForAnswersInTheTablesOrder) {
  Comparison compare;
  for (const std::string format : {"svg", "openmetrics", "csv", "json"}) {
    compare.plan.ask_output(format, "c." + format);
  }
  std::vector<std::string> names;
  for (const FormatExporter& each : make_exporters(compare.context)) names.push_back(each.format->name);
  EXPECT_EQ(names, (std::vector<std::string>{"json", "csv", "svg", "openmetrics"}));
  const auto answered = compare.answers();
  EXPECT_TRUE(answered.at("json") && answered.at("csv") && answered.at("svg"));
  EXPECT_FALSE(answered.at("openmetrics"));
}

}  // namespace
}  // namespace ddtime
