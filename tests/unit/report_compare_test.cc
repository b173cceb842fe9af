// SPDX-License-Identifier: GPL-3.0-or-later
// --compare's words: the verdicts, the row labels, the table, its JSON and
// CSV, and the refusals.
#include "report/report_compare.h"

#include <gtest/gtest.h>

#include <optional>
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
  EXPECT_EQ(verdict_text(compare_rates(a, b)), "~ too few runs (3 and 3: the smallest p a rank test can give is 0.10)");
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
  EXPECT_NE(text.find("row            a.json      b.json      ratio  95% interval"), std::string::npos) << text;
  EXPECT_NE(text.find("bs=1M depth 1  102.00 B/s  132.00 B/s  1.29   "), std::string::npos) << text;
}

TEST(ReportCompare, TheEnvironmentsDifferencesComeFirst) {
  ComparisonReport report = two_documents(faster());
  report.without_environment.clear();
  report.environment = {{"host", {"alpha", "beta"}}, {"date", {"2026-12-01", std::nullopt}}};
  const std::string text = comparison_text(report, RateUnits::kBytes);
  EXPECT_EQ(text.substr(0, text.find("b.json against")),
            "environment: host: alpha | beta\nenvironment: date: 2026-12-01 | -\n");
}

TEST(ReportCompare, TheJsonHasTheSchemasKeys) {
  const support::Json json = support::parse_json(comparison_json(two_documents(faster()), "9.9"));
  EXPECT_EQ(json["tool"].string(), "ddtime");
  const support::Json& comparison = json["comparison"];
  EXPECT_EQ(comparison["baseline"].string(), "a.json");
  EXPECT_EQ(comparison["documents"].strings(), (std::vector<std::string>{"a.json", "b.json"}));
  const support::Json& row = comparison["rows"][0];
  EXPECT_EQ(json["schema"].integer(), 1);
  EXPECT_EQ(row.keys(), (std::vector<std::string>{"document", "key", "baseline", "other", "ratio", "ci95", "u", "p",
                                                  "p_exact", "verdict", "reason"}));
  EXPECT_EQ(row["key"]["bs"].integer(), 1048576);
  EXPECT_EQ(row["baseline"]["runs"].integer(), 5);
  EXPECT_EQ(row["baseline"]["median_bytes_per_second"].literal(), "102");
  EXPECT_EQ(row["other"]["median_bytes_per_second"].literal(), "132");
  EXPECT_EQ(row["u"].literal(), "25");
  EXPECT_EQ(row["p"].literal(), "0.007936507936507936");  // 2/252, as the double reads back
  EXPECT_TRUE(row["p_exact"].boolean());
  EXPECT_EQ(row["verdict"].string(), "faster");
  EXPECT_TRUE(row["reason"].is_null());
  EXPECT_EQ(row["ci95"].size(), 2u);
}

TEST(ReportCompare, TheCsvHasAHeaderAndALinePerRow) {
  const std::vector<double> a{1, 2, 3}, b{4, 5, 6};
  const std::string csv = comparison_csv(two_documents(compare_rates(a, b)));
  EXPECT_EQ(csv,
            "document,baseline,row,baseline_median_bytes_per_second,baseline_runs,median_bytes_per_second,runs,ratio,"
            "ci95_low,ci95_high,u,p,p_exact,verdict,reason\n"
            "b.json,a.json,bs=1M depth 1,2,3,5,3,2.5,,,9,0.1,true,~,"
            "too few runs (3 and 3: the smallest p a rank test can give is 0.10)\n");
}

// B5: a p of 1e-36 was written 0.000000 in JSON and CSV, 0.000 in the table.
TEST(ReportCompare, ASmallPIsWrittenWhole) {
  RowComparison figures = faster();
  figures.test->p = 1.15e-36;
  const ComparisonReport report = two_documents(figures);
  EXPECT_NE(comparison_json(report, "9.9").find(R"("p":1.15e-36,)"), std::string::npos);
  EXPECT_NE(comparison_csv(report).find(",1.15e-36,"), std::string::npos);
  const std::string text = comparison_text(report, std::nullopt);
  EXPECT_NE(text.find("  <0.001  "), std::string::npos) << text;
  EXPECT_EQ(text.find("0.000 "), std::string::npos) << text;
}

TEST(ReportCompare, HugeMediansAreWrittenWholeNotOverflowed) {
  const std::vector<double> a{1e300, 1.1e300, 1.2e300, 1.3e300, 1.4e300},
      b{1.5e300, 1.6e300, 1.7e300, 1.8e300, 1.9e300};
  const ComparisonReport report = two_documents(compare_rates(a, b));
  const std::string json = comparison_json(report, "9.9");
  EXPECT_NE(json.find(R"("median_bytes_per_second":1.2e+300)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("median_bytes_per_second":1.7e+300)"), std::string::npos) << json;
  EXPECT_NE(comparison_csv(report).find(",1.2e+300,5,1.7e+300,"), std::string::npos) << comparison_csv(report);
}

// B6: "1000.26 B/s" beside "1.00 KiB/s" in one row.
TEST(ReportCompare, OneTableHasOneUnit) {
  const std::vector<double> a{990, 995, 1000, 1005, 1010}, b{1020, 1025, 1030, 1035, 1040};
  const std::string text = comparison_text(two_documents(compare_rates(a, b)), std::nullopt);
  EXPECT_NE(text.find("bs=1M depth 1  0.98 KiB/s  1.01 KiB/s  "), std::string::npos) << text;
  EXPECT_EQ(text.find(" B/s"), std::string::npos) << text;
}

TEST(ReportCompare, ProfilesAreComparedInTheProfileTablesMegabytesASecond) {
  const std::vector<double> a{1.590e9, 1.591e9, 1.592e9, 1.593e9, 1.594e9}, b{1.0e9, 1.01e9, 1.02e9, 1.03e9, 1.04e9};
  ComparisonReport report;
  report.names = {"d1.json", "d2.json"};
  report.profiles = true;
  const RowKey key{{"test", "SEQ1M Q8T1", std::nullopt}, {"side", "read", std::nullopt}};
  report.others.push_back({"d2.json", {{key, compare_rates(a, b)}}});
  const std::string text = comparison_text(report, std::nullopt);
  EXPECT_NE(text.find("SEQ1M Q8T1 read  1592 MB/s  1020 MB/s  "), std::string::npos) << text;
  EXPECT_NE(comparison_text(report, RateUnits::kIec).find("1518 MiB/s"), std::string::npos);
}

// B7: a document's text reached the terminal raw.
TEST(ReportCompare, TextFromADocumentIsEscapedBeforeItIsPrinted) {
  ComparisonReport report = two_documents(faster());
  report.without_environment.clear();
  const std::string evil = "h\xc3\xa9st" + std::string(1, '\0') +
                           "X\nY\x1b[31mRED\x1b[0m\t\xe2\x80\xae"
                           "evil\xff\xc2\x85";
  report.environment = {{"host", {"vm", evil}}, {std::string("k\x1b]0;t\x07"), {"1", "2"}}};
  report.others.front().rows.front().key.front().text = "copy\r\x9b";
  const std::string text = comparison_text(report, std::nullopt);
  EXPECT_NE(text.find("environment: host: vm | h\xc3\xa9st\\x00X\\nY\\x1b[31mRED\\x1b[0m\\t\\u202eevil\\xff\\u0085\n"),
            std::string::npos)
      << text;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_TRUE(byte == '\n' || (byte >= 0x20 && byte != 0x7f)) << "byte " << int(byte) << " in " << text;
  }
  EXPECT_EQ(text.find("\xe2\x80\xae"), std::string::npos);
  EXPECT_EQ(comparison_csv(report).find('\r'), std::string::npos);

  std::string said;
  const Diag diag("ddtime", false, [&](std::string_view line) { said += line; });
  document_problem(diag, "x.json",
                   {DocumentProblem::Kind::kSyntax, 1, 9, "invalid string; last read: '\"v\xff\x1b'", {}});
  EXPECT_NE(said.find("last read: '\"v\\xff\\x1b'"), std::string::npos) << said;
}

// B15: "no counted runs to compare (0 and 0)" for 3 and 3 runs of 0 B/s.
TEST(ReportCompare, RunsOfZeroBytesASecondAreSaidNotCalledAbsent) {
  const std::vector<double> zeros{0, 0, 0};
  const RowComparison row = compare_rates(zeros, zeros);
  EXPECT_EQ(verdict_text(row), "~ 3 and 3 runs, all of 0 B/s: nothing to compare");
  const std::string text = comparison_text(two_documents(row), std::nullopt);
  EXPECT_NE(text.find("  3, 3  "), std::string::npos) << text;
  EXPECT_NE(comparison_json(two_documents(row), "9").find(R"("runs":3,"zero_rate_runs":3)"), std::string::npos);
}

// B16: with --force, the baseline's rows the other lacks vanished.
TEST(ReportCompare, RowsInOneDocumentOnlyAreListedByName) {
  ComparisonReport report = two_documents(faster());
  const RowKey missing{{"test", "RND4K Q1T1", std::nullopt}, {"side", "read", std::nullopt}};
  const RowKey extra{{"test", "RND4K Q32T1", std::nullopt}, {"side", "write", std::nullopt}};
  report.others.front().only_baseline = {missing};
  report.others.front().only_other = {extra};
  const std::string text = comparison_text(report, std::nullopt);
  EXPECT_NE(text.find("RND4K Q1T1 read "), std::string::npos) << text;
  EXPECT_NE(text.find("only in a.json\n"), std::string::npos) << text;
  EXPECT_NE(text.find("only in b.json\n"), std::string::npos) << text;
  const support::Json json = support::parse_json(comparison_json(report, "9.9"));
  const support::Json& unmatched = json["comparison"]["unmatched_rows"];
  ASSERT_EQ(unmatched.size(), 2u);
  EXPECT_EQ(unmatched[0]["only_in"].string(), "a.json");
  EXPECT_EQ(unmatched[0]["key"]["test"].string(), "RND4K Q1T1");
  EXPECT_EQ(unmatched[1]["only_in"].string(), "b.json");
  const std::string csv = comparison_csv(report);
  EXPECT_NE(csv.find("b.json,a.json,RND4K Q1T1 read,,,,,,,,,,,-,only in a.json\n"), std::string::npos) << csv;
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
