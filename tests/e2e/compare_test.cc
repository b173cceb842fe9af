// SPDX-License-Identifier: GPL-3.0-or-later
// --compare on documents ddtime itself wrote: the table, its JSON and CSV,
// and the refusals (operands that differ, a document that is not ddtime's
// or is cut short, a missing file, options and operands that make no sense
// with it).
#include <algorithm>
#include <string>
#include <utility>
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
    const Result made =
        ddtime_c({"if=/dev/zero", "of=/dev/null", "bs=" + bs, "count=20", "--repeat=5", "--json=" + name});
    ASSERT_STATUS(made, "exit 0");
  }
  // A session document of counted runs at the rates given, as ddtime
  // writes one (only what --compare reads, and an environment).
  void crafted(const std::string& name, const std::vector<std::string>& rates,
               const std::string& host = "\"vm\"") const {
    std::string runs;
    for (const std::string& rate : rates) {
      runs += std::string(runs.empty() ? "" : ",") +
              R"({"tool":"ddtime","operands":{"if":"/dev/zero","of":"/dev/null","ibs":1048576,"obs":1048576},)" +
              R"("rates":{"bytes_per_second":)" + rate + R"(},"bs":1048576,"iodepth":1,"pass":"copy",)" +
              R"("warmup":false,"counted":true})";
    }
    write_file(name, R"({"schema":1,"tool":"ddtime","version":"0.1.0","environment":{"host":)" + host +
                         R"(},"complete":true,"runs":[)" + runs +
                         R"(],"summary":[{"bs":1048576,"iodepth":1,"pass":"copy"}]})");
  }
  // A profile document of the rows given (test, side, rates), with the
  // settings given.
  void profile(const std::string& name, const std::string& settings,
               const std::vector<std::pair<std::string, std::string>>& rows) const {
    std::string list;
    for (const auto& [test_side, rates] : rows) {
      const std::size_t space = test_side.rfind(' ');
      list += std::string(list.empty() ? "" : ",") + R"({"test":")" + test_side.substr(0, space) + R"(","side":")" +
              test_side.substr(space + 1) + R"(","runs":[)" + rates + "]}";
    }
    write_file(name, R"({"schema":1,"tool":"ddtime","version":"0.1.0","complete":true,"profile":{"name":"peak",)" +
                         settings + R"(},"rows":[)" + list + "]}");
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
  EXPECT_TRUE(csv[0].starts_with("document,baseline,row,baseline_median_bytes_per_second,")) << csv[0];
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
  EXPECT_NE(forced.out.find("~ too few runs (1 and 1: the smallest p a rank test can give is 1.00)"), std::string::npos)
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
  // two-sided p = 1.4e-9 (a run or two out of place under load: a few
  // times that), written whole: six fixed decimals made it 0.
  EXPECT_GT(row["p"].number(), 1e-9) << result.out;
  EXPECT_LT(row["p"].number(), 1e-6) << result.out;
  EXPECT_GT(row["u"].number(), 600) << result.out;
  EXPECT_FALSE(row["p_exact"].boolean());
  // The interval's ranks come from the normal's quantile too: the 211th
  // smallest and largest of the 625 ratios, so it lies above 1 unless 211
  // pairs are out of order. The ratio of the medians need not lie inside
  // it: under a sanitizer on a loaded machine the 256k runs fell in two
  // clusters, the ratio of medians was 33.0 and the interval's top 21.8.
  ASSERT_TRUE(row["ci95"].is_array()) << result.out;
  EXPECT_GT(row["ci95"][0].number(), 1) << result.out;
  EXPECT_LT(row["ci95"][0].number(), row["ci95"][1].number()) << result.out;
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
  EXPECT_TRUE(
      result.err.starts_with("ddtime: cut.json:1:" + std::to_string(cut + 1) + ": not a complete JSON document: "))
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

// B3: more runs to reach significance were refused as another measurement.
TEST_F(Compare, ProfilesThatDifferOnlyInRepeatWarmupOrPauseAreCompared) {
  const std::string runs4 = R"({"bytes_per_second":1e9},{"bytes_per_second":1.1e9},{"bytes_per_second":1.2e9},)"
                            R"({"bytes_per_second":1.3e9})";
  const std::string runs5 = runs4 + R"(,{"bytes_per_second":1.4e9})";
  profile("pk4.json", R"("size":67108864,"time_s":1,"warmup":0,"repeat":4,"pause_s":0,"direct":true)",
          {{"SEQ1M Q8T1 read", runs4}});
  profile("pk5.json", R"("size":67108864,"time_s":1,"warmup":1,"repeat":5,"pause_s":1,"direct":true)",
          {{"SEQ1M Q8T1 read", runs5}});
  const Result result = ddtime_c({"--compare", "pk4.json", "pk5.json"});
  EXPECT_STATUS(result, "exit 0");
  EXPECT_EQ(result.err, "");
  profile("big.json", R"("size":1073741824,"time_s":1,"warmup":0,"repeat":4,"pause_s":0,"direct":true)",
          {{"SEQ1M Q8T1 read", runs4}});
  const Result refused = ddtime_c({"--compare", "pk4.json", "big.json"});
  EXPECT_STATUS(refused, "exit 1");
  EXPECT_NE(refused.err.find("size=67108864 in pk4.json, size=1073741824 in big.json"), std::string::npos)
      << refused.err;
}

// B5: fixed-point numbers: p 0.000000, medians of 1e300 as 0.000.
TEST_F(Compare, SmallPValuesAndHugeRatesAreWrittenWhole) {
  std::vector<std::string> low, high;
  for (int i = 0; i < 30; ++i) {
    low.push_back(std::to_string(100 + i));
    high.push_back(std::to_string(200 + i));
  }
  crafted("low.json", low);
  crafted("high.json", high);
  const Result result = ddtime_c({"--compare", "low.json", "high.json", "--json"});
  ASSERT_STATUS(result, "exit 0");
  const support::Json row = support::parse_json(result.out)["comparison"]["rows"][0];
  EXPECT_GT(row["p"].number(), 0) << result.out;
  EXPECT_LT(row["p"].number(), 1e-9) << result.out;
  const Result table = ddtime_c({"--compare", "low.json", "high.json"});
  EXPECT_NE(table.out.find("  <0.001  "), std::string::npos) << table.out;

  crafted("big_a.json", {"1e300", "1.1e300", "1.2e300", "1.3e300", "1.4e300"});
  crafted("big_b.json", {"1.5e300", "1.6e300", "1.7e300", "1.8e300", "1.9e300"});
  const Result big = ddtime_c({"--compare", "big_a.json", "big_b.json", "--json"});
  ASSERT_STATUS(big, "exit 0");
  const support::Json big_row = support::parse_json(big.out)["comparison"]["rows"][0];
  EXPECT_EQ(big_row["baseline"]["median_bytes_per_second"].number(), 1.2e300) << big.out;
  EXPECT_EQ(big_row["other"]["median_bytes_per_second"].number(), 1.7e300) << big.out;
  const Result csv = ddtime_c({"--compare", "big_a.json", "big_b.json", "--csv"});
  EXPECT_NE(csv.out.find(",1.2e+300,5,1.7e+300,5,"), std::string::npos) << csv.out;
}

TEST_F(Compare, ARateThatIsNoRateIsRefusedByName) {
  crafted("a.json", {"1e9", "2e9"});
  crafted("neg.json", {"1e9", "-5"});
  const Result negative = ddtime_c({"--compare", "a.json", "neg.json"});
  EXPECT_STATUS(negative, "exit 1");
  EXPECT_EQ(negative.err,
            "ddtime: neg.json: runs[1].rates.bytes_per_second is -5, not a rate (a finite number of bytes a second, "
            "0 or more)\n");
  crafted("huge.json", {"1e9", "1e999"});
  const Result huge = ddtime_c({"--compare", "a.json", "huge.json"});
  EXPECT_STATUS(huge, "exit 1");
  EXPECT_EQ(huge.err, "ddtime: huge.json: the number 1e999 is too large for a double\n");
}

// B6: "1000.26 B/s" beside "1.00 KiB/s" in one row; profiles in GiB/s where
// their own tables say MB/s.
TEST_F(Compare, ATableHasOneUnitAndProfilesKeepTheirMegabytes) {
  crafted("na.json", {"990", "995", "1000", "1005", "1010"});
  crafted("nb.json", {"1020", "1025", "1030", "1035", "1040"});
  const Result sessions = ddtime_c({"--compare", "na.json", "nb.json"});
  ASSERT_STATUS(sessions, "exit 0");
  EXPECT_NE(sessions.out.find("bs=1M depth 1  0.98 KiB/s  1.01 KiB/s  "), std::string::npos) << sessions.out;
  const std::string runs = R"({"bytes_per_second":1.591e9},{"bytes_per_second":1.592e9})";
  profile("d1.json", R"("size":268435456,"time_s":1)", {{"SEQ1M Q8T1 read", runs}});
  profile("d2.json", R"("size":268435456,"time_s":1)", {{"SEQ1M Q8T1 read", runs}});
  const Result profiles = ddtime_c({"--compare", "d1.json", "d2.json"});
  ASSERT_STATUS(profiles, "exit 0");
  EXPECT_NE(profiles.out.find("SEQ1M Q8T1 read  1592 MB/s  1592 MB/s  "), std::string::npos) << profiles.out;
}

// B7: a document's text reached the terminal as it was: a colour escape,
// a NUL, a newline that fakes a line, a bidi override.
TEST_F(Compare, TextFromADocumentNeverReachesTheTerminalRaw) {
  crafted("a.json", {"1e9", "2e9", "3e9"});
  crafted("evil.json", {"1e9", "2e9", "3e9"}, R"("h\u00e9st\u0000X\nY\u001b[31mRED\u001b[0m\t\u202eevil\u0085")");
  const Result result = ddtime_c({"--compare", "a.json", "evil.json"});
  ASSERT_STATUS(result, "exit 0");
  EXPECT_TRUE(result.out.starts_with(
      "environment: host: vm | h\xc3\xa9st\\x00X\\nY\\x1b[31mRED\\x1b[0m\\t\\u202eevil\\u0085\n"))
      << result.out;
  for (const char c : result.out) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_TRUE(byte == '\n' || (byte >= 0x20 && byte != 0x7f)) << "byte " << int(byte);
  }
  EXPECT_EQ(result.out.find("\xe2\x80\xae"), std::string::npos);
  // The parse error's "last read" holds the document's raw bytes.
  write_file("bad.json", "{\"tool\":\"ddtime\",\"v\xff\x1b[31m");
  const Result bad = ddtime_c({"--compare", "a.json", "bad.json"});
  EXPECT_STATUS(bad, "exit 1");
  EXPECT_EQ(bad.err.find('\x1b'), std::string::npos) << bad.err;
  EXPECT_EQ(bad.err.find('\xff'), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("\\xff"), std::string::npos) << bad.err;
}

// B15: "no counted runs to compare (0 and 0)" for 3 and 3 counted runs.
TEST_F(Compare, RunsOfZeroBytesASecondAreCountedAndSaid) {
  for (const char* name : {"z1.json", "z2.json"}) {
    ASSERT_STATUS(ddtime_c({"if=/dev/zero", "of=/dev/null", "count=0", "--repeat=3", std::string("--json=") + name}),
                  "exit 0");
  }
  const Result result = ddtime_c({"--compare", "z1.json", "z2.json"});
  ASSERT_STATUS(result, "exit 0");
  EXPECT_NE(result.out.find("3, 3  ~ 3 and 3 runs, all of 0 B/s: nothing to compare"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("no counted runs"), std::string::npos) << result.out;
}

// B16: with --force, the baseline's rows that the other lacks vanished.
TEST_F(Compare, RowsInOneDocumentOnlyAreListedWhenForced) {
  const std::string runs = R"({"bytes_per_second":1e9},{"bytes_per_second":2e9})";
  profile("full.json", R"("size":67108864)", {{"SEQ1M Q8T1 read", runs}, {"RND4K Q1T1 read", runs}});
  profile("cut.json", R"("size":67108864)", {{"SEQ1M Q8T1 read", runs}});
  const Result result = ddtime_c({"--compare", "full.json", "cut.json", "--force"});
  ASSERT_STATUS(result, "exit 0");
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(lines.back().starts_with("RND4K Q1T1 read ")) << result.out;
  EXPECT_TRUE(lines.back().ends_with("only in full.json")) << result.out;
  const Result json = ddtime_c({"--compare", "full.json", "cut.json", "--force", "--json"});
  const support::Json unmatched = support::parse_json(json.out)["comparison"]["unmatched_rows"];
  ASSERT_EQ(unmatched.size(), 1u) << json.out;
  EXPECT_EQ(unmatched[0]["only_in"].string(), "full.json");
  const Result csv = ddtime_c({"--compare", "full.json", "cut.json", "--force", "--csv"});
  EXPECT_NE(csv.out.find("cut.json,full.json,RND4K Q1T1 read,,,,,,,,,,,-,only in full.json\n"), std::string::npos)
      << csv.out;
}

// A tree 200,000 deep crashed --compare (SIGSEGV, flattening it).
TEST_F(Compare, ADocumentNestedTooDeepIsRefusedNotACrash) {
  session("a.json");
  write_file("deep.json", R"({"tool":"ddtime","environment":{"a":)" + std::string(200000, '[') +
                              std::string(200000, ']') + R"(},"runs":[]})");
  const Result result = ddtime_c({"--compare", "a.json", "deep.json"});
  EXPECT_STATUS(result, "exit 1");
  EXPECT_EQ(result.err, "ddtime: deep.json: objects and arrays nested 64 deep: not a document ddtime writes\n");
}

}  // namespace
}  // namespace ddtime::e2e
