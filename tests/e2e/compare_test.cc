// SPDX-License-Identifier: GPL-3.0-or-later
// --compare on documents ddtime itself wrote: the table, its JSON and CSV,
// and the refusals (operands that differ, a document that is not ddtime's
// or is cut short, a missing file, options and operands that make no sense
// with it).
#include <algorithm>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

class Compare : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }
  // ddtime by its own name, 'quotes' as in the C locale; run_under: a
  // shell command (sh -c) that runs it, its path in $0.
  Options options_c(std::vector<std::string> args, const char* run_under = nullptr) const {
    Options options = opts(std::move(args));
    options.as_ddtime = true;
    options.locale = Locale::kC;
    if (run_under != nullptr) options.run_under = {"/bin/sh", "-c", run_under};
    return options;
  }
  Result ddtime_c(std::vector<std::string> args) const { return dd(options_c(std::move(args))); }
  // A session of five runs of /dev/zero to /dev/null, its JSON in name.
  void session(const std::string& name, const std::string& bs = "64k") const {
    const Result made = ddtime_c({"if=/dev/zero", "of=/dev/null", "bs=" + bs, "count=20", "--repeat=5",
                                  "--json=" + name});
    ASSERT_STATUS(made, "exit 0");
  }
  void single(const std::string& name, const std::string& bs, const std::string& count) const {
    const Result made = ddtime_c({"if=/dev/zero", "of=/dev/null", "bs=" + bs, "count=" + count, "--json=" + name});
    ASSERT_STATUS(made, "exit 0");
  }
};

TEST_F(Compare, ADocumentAgainstItselfIsNoDifference) {
  session("a.json");
  const Result result = ddtime_c({"--compare", "a.json", "a.json"});
  ASSERT_STATUS(result, "exit 0");
  EXPECT_EQ(result.err, "");
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 4u) << result.out;
  EXPECT_EQ(lines[0], "environment: the same in every document");
  EXPECT_EQ(lines[1], "a.json against a.json:");
  EXPECT_TRUE(lines[2].starts_with("row             a.json")) << lines[2];
  EXPECT_TRUE(lines[3].starts_with("bs=64k depth 1 ")) << lines[3];
  // Every run tied with its twin: U = mn/2, p = 1; the ratio of medians 1.
  EXPECT_NE(lines[3].find("  1.00   "), std::string::npos) << lines[3];
  EXPECT_TRUE(lines[3].ends_with("1.000  5, 5  ~ no significant difference (p=1.00)")) << lines[3];
}

TEST_F(Compare, TwoSessionsGetAVerdictAndTheReports) {
  session("a.json");
  session("b.json");
  const Result result = ddtime_c({"--compare", "a.json", "b.json", "--json=c.json", "--csv=c.csv"});
  ASSERT_STATUS(result, "exit 0");
  EXPECT_NE(result.out.find("b.json against a.json:\n"), std::string::npos) << result.out;
  const support::Json json = support::parse_json(read_file("c.json"));
  const support::Json& row = json["comparison"]["rows"][0];
  EXPECT_EQ(row["document"].string(), "b.json");
  EXPECT_EQ(row["key"]["bs"].integer(), 65536);
  EXPECT_EQ(row["baseline"]["runs"].integer(), 5);
  EXPECT_EQ(row["ci95"].size(), 2u);  // 5 and 5 runs: C = 3
  const std::string verdict = row["verdict"].string();
  EXPECT_TRUE(verdict == "faster" || verdict == "slower" || verdict == "~") << verdict;
  const std::vector<std::string> csv = lines_of(read_file("c.csv"));
  ASSERT_EQ(csv.size(), 2u);
  EXPECT_TRUE(csv[0].starts_with("document,baseline,row,baseline_median,")) << csv[0];
  EXPECT_TRUE(csv[1].starts_with("b.json,a.json,bs=64k depth 1,")) << csv[1];
}

TEST_F(Compare, JsonWithoutAPathTakesTheTablesPlace) {
  session("a.json");
  const Result result = ddtime_c({"--compare", "a.json", "a.json", "--json"});
  ASSERT_STATUS(result, "exit 0");
  EXPECT_EQ(support::parse_json(result.out)["comparison"]["baseline"].string(), "a.json");
  EXPECT_EQ(result.err, "");
}

TEST_F(Compare, DifferentOperandsAreRefusedUnlessForced) {
  single("a.json", "1M", "10");
  single("b.json", "4k", "100");
  const Result refused = ddtime_c({"--compare", "a.json", "b.json"});
  EXPECT_STATUS(refused, "exit 1");
  EXPECT_EQ(refused.err,
            "ddtime: 'a.json' and 'b.json' did not measure the same thing: bs=1M in a.json, bs=4k in b.json; "
            "--force compares them anyway\n");
  EXPECT_EQ(refused.out, "");
  const Result forced = ddtime_c({"--compare", "a.json", "b.json", "--force"});
  ASSERT_STATUS(forced, "exit 0");
  EXPECT_NE(forced.out.find("~ too few runs (1 and 1: the smallest p a rank test can give is 1.00)"),
            std::string::npos)
      << forced.out;
}

TEST_F(Compare, ADocumentThatIsNotDdtimesIsNamed) {
  session("a.json");
  write_file("fio.json", R"({"fio version": "fio-3.33", "jobs": []})");
  const Result result = ddtime_c({"--compare", "a.json", "fio.json"});
  EXPECT_STATUS(result, "exit 1");
  EXPECT_EQ(result.err, "ddtime: 'fio.json' is not a ddtime JSON document (no \"tool\": \"ddtime\")\n");
}

TEST_F(Compare, ManyRunsTakeTheNormalApproximation) {
  // 25 runs a side are 625 pairs, past the exact distribution's 400: the
  // normal's erfc (Boost.Math, in ddtime-compare, on glibc's libm) decides.
  for (const auto& [name, bs] : {std::pair{"small.json", "1k"}, std::pair{"large.json", "256k"}}) {
    const Result made = ddtime_c({"if=/dev/zero", "of=/dev/null", std::string("bs=") + bs, "--size=16M", "--repeat=25",
                                  std::string("--json=") + name});
    ASSERT_STATUS(made, "exit 0");
  }
  const Result result = ddtime_c({"--compare", "small.json", "large.json", "--force", "--json"});
  ASSERT_STATUS(result, "exit 0");
  const support::Json row = support::parse_json(result.out)["comparison"]["rows"][0];
  EXPECT_EQ(row["verdict"].string(), "faster") << result.out;
  // Complete separation of 25 and 25 by the normal approximation with
  // continuity correction: z = (312.5 - 0.5) / sqrt(25*25*51/12) = 6.05,
  // two-sided p = 1.4e-9, which the JSON's six decimals write as 0.
  EXPECT_EQ(row["p"].literal(), "0.000000") << result.out;
  // The interval's ranks come from the normal's quantile too.
  ASSERT_TRUE(row["ci95"].is_array()) << result.out;
  EXPECT_LT(row["ci95"][0].number(), row["ratio"].number());
  EXPECT_GT(row["ci95"][1].number(), row["ratio"].number());
}

// ddtime --compare executes ddtime-compare: found from the binary itself
// (/proc/self/exe), so a link to ddtime anywhere, under any name, still
// compares; a copy of ddtime without the program beside it or in its
// libexec directory says where it looked last, and why it failed.
TEST_F(Compare, ALinkAnywhereFindsTheCompareProgramAndACopyAloneSaysItIsMissing) {
  session("a.json");
  const std::vector<std::string> args = {"--compare", "a.json", "a.json"};
  const Result through_link = dd(options_c(args, "ln -sf \"$0\" dt && exec ./dt \"$@\""));
  ASSERT_STATUS(through_link, "exit 0");
  EXPECT_NE(through_link.out.find("a.json against a.json:"), std::string::npos) << through_link.out;

  const Result alone = dd(options_c(args, "mkdir -p alone && cp \"$0\" alone/dt && exec alone/dt \"$@\""));
  EXPECT_STATUS(alone, "exit 1");
  EXPECT_EQ(alone.err, "alone/dt: --compare runs '" + (dir() / "alone/../libexec/ddtime/ddtime-compare").string() +
                           "', which could not be started: No such file or directory\n");
  EXPECT_EQ(alone.out, "");
}

// The compare program alone does nothing but compare.
TEST_F(Compare, TheCompareProgramRefusesACommandLineThatDoesNotCompare) {
  const Result result =
      dd(options_c({"if=/dev/zero", "of=/dev/null", "count=1"}, "exec \"${0%/*}/ddtime-compare\" \"$@\""));
  EXPECT_STATUS(result, "exit 1");
  EXPECT_TRUE(result.err.ends_with(
      "ddtime-compare: this program compares ddtime's JSON documents: run it as ddtime --compare A.json B.json\n"))
      << result.err;
}

TEST_F(Compare, ATruncatedDocumentNamesFileLineAndColumn) {
  session("a.json");
  const std::string whole = read_file("a.json");
  // Cut after a comma, outside any string: one line of JSON that ends
  // after byte `cut`, so the parser stops at column cut + 1.
  const std::size_t cut = whole.rfind(',', 100) + 1;
  write_file("cut.json", whole.substr(0, cut));
  const Result result = ddtime_c({"--compare", "a.json", "cut.json"});
  EXPECT_STATUS(result, "exit 1");
  EXPECT_TRUE(result.err.starts_with("ddtime: cut.json:1:" + std::to_string(cut + 1) + ": not a complete JSON document: "))
      << result.err;
  EXPECT_NE(result.err.find("unexpected end of input"), std::string::npos) << result.err;
}

TEST_F(Compare, AMissingFileIsNamedWithTheReason) {
  session("a.json");
  const Result result = ddtime_c({"--compare", "a.json", "nope.json"});
  EXPECT_STATUS(result, "exit 1");
  EXPECT_EQ(result.err, "ddtime: cannot open 'nope.json': No such file or directory\n");
}

TEST_F(Compare, AnIncompleteDocumentIsRefusedUnlessForced) {
  session("a.json");
  std::string text = read_file("a.json");
  const std::size_t at = text.find("\"complete\":true");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 15, "\"complete\":false");
  write_file("cut.json", text);
  const Result refused = ddtime_c({"--compare", "a.json", "cut.json"});
  EXPECT_STATUS(refused, "exit 1");
  EXPECT_TRUE(refused.err.starts_with("ddtime: 'cut.json' is incomplete")) << refused.err;
  EXPECT_STATUS(ddtime_c({"--compare", "a.json", "cut.json", "--force"}), "exit 0");
}

TEST_F(Compare, UnitsChangeTheRates) {
  session("a.json");
  const Result result = ddtime_c({"--compare", "a.json", "a.json", "--units=bytes"});
  ASSERT_STATUS(result, "exit 0");
  EXPECT_NE(result.out.find(" B/s  "), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("iB/s"), std::string::npos) << result.out;
}

TEST_F(Compare, RefusesOneDocument) {
  session("a.json");
  const Result result = ddtime_c({"--compare", "a.json"});
  EXPECT_STATUS(result, "exit 1");
  EXPECT_TRUE(result.err.starts_with(
      "ddtime: --compare needs two documents or more: the baseline first, then those compared with it\n"))
      << result.err;
}

TEST_F(Compare, RefusesDdOperands) {
  const Result result = ddtime_c({"--compare", "a.json", "b.json", "bs=1M"});
  EXPECT_STATUS(result, "exit 1");
  EXPECT_EQ(result.err, "ddtime: --compare takes JSON documents, not dd operands: 'bs=1M'\n");
}

TEST_F(Compare, RefusesSessionOptions) {
  const Result result = ddtime_c({"--compare", "a.json", "b.json", "--repeat=3"});
  EXPECT_STATUS(result, "exit 1");
  EXPECT_EQ(result.err, "ddtime: --compare reads documents; it does not combine with --repeat\n");
}

TEST_F(Compare, RefusesAReportOverADocument) {
  session("a.json");
  session("b.json");
  const Result result = ddtime_c({"--compare", "a.json", "b.json", "--json=b.json"});
  EXPECT_STATUS(result, "exit 1");
  EXPECT_EQ(result.err,
            "ddtime: --json names 'b.json', one of the documents compared: the report would overwrite it\n");
}

}  // namespace
}  // namespace ddtime::e2e
