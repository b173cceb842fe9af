// SPDX-License-Identifier: GPL-3.0-or-later
// --compare's words: the verdicts, the row labels, the table, its JSON and
// CSV, and the refusals.
#include "report/report_compare.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/json.h"

namespace ddtime {
namespace {

const RowKey kCopyKey{{"pass", "copy", std::nullopt}, {"bs", "", 1048576}, {"iodepth", "", 1}};

RowComparison faster() {
  const std::vector<double> a{100, 101, 102, 103, 104}, b{130, 131, 132, 133, 134};
  return compare_rates(a, b);
}

ComparisonReport two_documents(RowComparison figures) {
  ComparisonReport report;
  report.names = {"a.json", "b.json"};
  report.without_environment = {"a.json", "b.json"};
  report.others.push_back({"b.json", {{kCopyKey, figures}}});
  return report;
}

TEST(ReportCompare, FasterSaysTheRatioAndItsInterval) {
  // Ratio 132/102 = 1.294; interval: the 3rd smallest and largest of the
  // 25 ratios, 128/104... as compare_stats computes them.
  const RowComparison row = faster();
  EXPECT_EQ(verdict_text(row), fmt::format("1.29x faster [{:.2f}-{:.2f}]", row.interval->low, row.interval->high));
}

TEST(ReportCompare, SlowerInvertsTheRatioAndTheInterval) {
  const std::vector<double> a{130, 131, 132, 133, 134}, b{100, 101, 102, 103, 104};
  const RowComparison row = compare_rates(a, b);
  EXPECT_EQ(verdict_text(row),
            fmt::format("1.29x slower [{:.2f}-{:.2f}]", 1 / row.interval->high, 1 / row.interval->low));
}

TEST(ReportCompare, TooFewRunsSaysTheSmallestPossibleP) {
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  EXPECT_EQ(verdict_text(compare_rates(a, b)),
            "~ too few runs (3 and 3: the smallest p a rank test can give is 0.10)");
}

TEST(ReportCompare, OverlapSaysNoSignificantDifference) {
  const std::vector<double> a{1, 3, 5, 7, 9}, b{2, 4, 6, 8, 10};
  EXPECT_EQ(verdict_text(compare_rates(a, b)), "~ no significant difference (p=0.69)");
}

TEST(ReportCompare, RowLabelsLeaveOutThePlainCopy) {
  EXPECT_EQ(row_label(kCopyKey), "bs=1M depth 1");
  const RowKey read{{"pass", "read", std::nullopt}, {"bs", "", 65536}, {"iodepth", "", 4}};
  EXPECT_EQ(row_label(read), "read bs=64k depth 4");
  const RowKey profile{{"test", "SEQ1M Q8T1", std::nullopt}, {"side", "write", std::nullopt}};
  EXPECT_EQ(row_label(profile), "SEQ1M Q8T1 write");
}

TEST(ReportCompare, TheTableHasAHeaderAndARowUnderTheEnvironment) {
  const std::string text = comparison_text(two_documents(faster()), RateUnits::kBytes);
  EXPECT_EQ(text.substr(0, text.find('\n')), "environment: not recorded in a.json, b.json");
  EXPECT_NE(text.find("b.json against a.json:\n"), std::string::npos);
  EXPECT_NE(text.find("row            a.json   b.json   ratio  95% interval"), std::string::npos) << text;
  EXPECT_NE(text.find("bs=1M depth 1  102 B/s  132 B/s  1.29   "), std::string::npos) << text;
}

TEST(ReportCompare, TheEnvironmentsDifferencesComeFirst) {
  ComparisonReport report = two_documents(faster());
  report.without_environment.clear();
  report.environment = {{"host", {"alpha", "beta"}}, {"date", {"2026-12-01", std::nullopt}}};
  const std::string text = comparison_text(report, RateUnits::kBytes);
  EXPECT_EQ(text.substr(0, text.find("b.json against")), "environment: host: alpha | beta\nenvironment: date: 2026-12-01 | -\n");
}

TEST(ReportCompare, TheJsonHasTheSchemasKeys) {
  const support::Json json = support::parse_json(comparison_json(two_documents(faster()), "9.9"));
  EXPECT_EQ(json["tool"].string(), "ddtime");
  const support::Json& comparison = json["comparison"];
  EXPECT_EQ(comparison["baseline"].string(), "a.json");
  EXPECT_EQ(comparison["documents"].strings(), (std::vector<std::string>{"a.json", "b.json"}));
  const support::Json& row = comparison["rows"][0];
  EXPECT_EQ(row.keys(), (std::vector<std::string>{"document", "key", "baseline", "other", "ratio", "ci95", "p",
                                                  "verdict", "reason"}));
  EXPECT_EQ(row["key"]["bs"].integer(), 1048576);
  EXPECT_EQ(row["baseline"]["runs"].integer(), 5);
  EXPECT_EQ(row["p"].literal(), "0.007937");  // 2/252
  EXPECT_EQ(row["verdict"].string(), "faster");
  EXPECT_TRUE(row["reason"].is_null());
  EXPECT_EQ(row["ci95"].size(), 2u);
}

TEST(ReportCompare, TheCsvHasAHeaderAndALinePerRow) {
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  const std::string csv = comparison_csv(two_documents(compare_rates(a, b)));
  EXPECT_EQ(csv,
            "document,baseline,row,baseline_median,baseline_runs,median,runs,ratio,ci95_low,ci95_high,p,verdict,"
            "reason\n"
            "b.json,a.json,bs=1M depth 1,2.000,3,5.000,3,2.500000,,,0.100000,~,"
            "too few runs (3 and 3: the smallest p a rank test can give is 0.10)\n");
}

TEST(ReportCompare, DifferentOperandsAreNamedWithBothDocuments) {
  std::string said;
  const Diag diag("ddtime", false, [&](std::string_view text) { said += text; });
  Matching matching;
  matching.difference = OperandDifference{kCopyKey, "bs", "1048576", "4096"};
  documents_differ(diag, "a.json", "b.json", matching, true);
  EXPECT_EQ(said,
            "ddtime: 'a.json' and 'b.json' did not measure the same thing: bs=1M in a.json, bs=4k in b.json; "
            "--force compares them anyway\n");
}

TEST(ReportCompare, ASyntaxErrorNamesFileLineAndColumn) {
  std::string said;
  const Diag diag("ddtime", false, [&](std::string_view text) { said += text; });
  document_problem(diag, "b.json", {DocumentProblem::Kind::kSyntax, 3, 14, "unexpected end of input"});
  EXPECT_EQ(said, "ddtime: b.json:3:14: not a complete JSON document: unexpected end of input\n");
}

}  // namespace
}  // namespace ddtime
