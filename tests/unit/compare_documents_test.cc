// SPDX-License-Identifier: GPL-3.0-or-later
// ddtime's documents as --compare reads them, from hand-written JSON: the
// rows of a run, a session and a profile, the problems a file can have (the
// place of a syntax error among them), row matching and the environment's
// differences.
#include "measure/compare_documents.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

namespace ddtime {
namespace {

Document read_ok(std::string_view text) {
  std::variant<Document, DocumentProblem> read = read_document(text);
  if (const auto* problem = std::get_if<DocumentProblem>(&read)) {
    ADD_FAILURE() << "problem " << static_cast<int>(problem->kind) << ": " << problem->detail;
    return {};
  }
  return std::get<Document>(read);
}

DocumentProblem problem_of(std::string_view text) {
  std::variant<Document, DocumentProblem> read = read_document(text);
  if (std::holds_alternative<Document>(read)) {
    ADD_FAILURE() << "read as a document: " << text;
    return {};
  }
  return std::get<DocumentProblem>(read);
}

std::string operands(std::string_view input = "/dev/zero", int bs = 65536) {
  return fmt::format(R"({{"if":"{}","of":"/dev/null","ibs":{},"obs":{},"cbs":0,"count":{{"records":100,"bytes":0}},)"
                     R"("conv":[],"iflag":[],"oflag":[],"status":"default"}})",
                     input, bs, bs);
}

std::string session_run(int bs, double rate, bool warmup = false, bool counted = true,
                        std::string_view input = "/dev/zero") {
  return fmt::format(R"({{"tool":"ddtime","operands":{},"rates":{{"bytes_per_second":{}}},)"
                     R"("bs":{},"iodepth":1,"pass":"copy","warmup":{},"counted":{}}})",
                     operands(input, bs), rate, bs, warmup, counted);
}

std::string session(const std::vector<std::string>& runs, std::string_view extra = "") {
  std::string list;
  for (const std::string& run : runs) list += (list.empty() ? "" : ",") + run;
  return fmt::format(R"({{"schema":1,"tool":"ddtime","version":"0.1.0","complete":true,{}"runs":[{}],)"
                     R"("summary":[{{"bs":65536,"iodepth":1,"pass":"copy"}}]}})",
                     extra, list);
}

std::string single_run(int bs, double rate, std::string_view extra = "") {
  return fmt::format(R"({{"tool":"ddtime","version":"0.1.0","complete":true,{}"operands":{},)"
                     R"("rates":{{"bytes_per_second":{}}},"exit_status":0}})",
                     extra, operands("/dev/zero", bs), rate);
}

TEST(CompareDocuments, ASessionRowHoldsItsCountedRunsOnly) {
  const Document document = read_ok(session({session_run(65536, 1.5e9, true), session_run(65536, 2e9),
                                             session_run(65536, 3e9, false, false), session_run(65536, 2.5e9)}));
  EXPECT_EQ(document.kind, DocumentKind::kSession);
  ASSERT_EQ(document.rows.size(), 1u);
  const RowKey expected{{"pass", "copy", std::nullopt}, {"bs", "", 65536}, {"iodepth", "", 1}};
  EXPECT_EQ(document.rows[0].key, expected);
  EXPECT_EQ(document.rows[0].rates, (std::vector<double>{2e9, 2.5e9}));
  EXPECT_FALSE(document.environment.has_value());
}

TEST(CompareDocuments, ASweepHasARowPerSettingInTheSummarysOrder) {
  const Document document = read_ok(session({session_run(4096, 1e9), session_run(65536, 2e9)}));
  ASSERT_EQ(document.rows.size(), 2u);
  EXPECT_EQ(document.rows[0].key[1].number, 65536);  // the summary names it first
  EXPECT_EQ(document.rows[1].key[1].number, 4096);
}

TEST(CompareDocuments, ASingleRunIsOneRowWithOneValue) {
  const Document document = read_ok(single_run(1048576, 3e9));
  EXPECT_EQ(document.kind, DocumentKind::kRun);
  ASSERT_EQ(document.rows.size(), 1u);
  EXPECT_EQ(document.rows[0].key[1].number, 1048576);
  EXPECT_EQ(document.rows[0].rates, std::vector<double>{3e9});
  // ibs and obs the same: said as bs.
  EXPECT_EQ(document.rows[0].operands[2].path, "bs");
}

TEST(CompareDocuments, AProfileHasRowsByTestAndSide) {
  const Document document =
      read_ok(R"({"tool":"ddtime","version":"0.1.0","profile":{"name":"default","size":1073741824},
    "rows":[{"test":"SEQ1M Q8T1","side":"read","runs":[{"bytes_per_second":3.1e9},{"bytes_per_second":3.2e9}]},
            {"test":"SEQ1M Q8T1","side":"write","runs":[{"bytes_per_second":2.1e9}]}]})");
  EXPECT_EQ(document.kind, DocumentKind::kProfile);
  ASSERT_EQ(document.rows.size(), 2u);
  const RowKey expected{{"test", "SEQ1M Q8T1", std::nullopt}, {"side", "read", std::nullopt}};
  EXPECT_EQ(document.rows[0].key, expected);
  EXPECT_EQ(document.rows[0].rates, (std::vector<double>{3.1e9, 3.2e9}));
  EXPECT_EQ(document.rows[1].operands[1].path, "size");
}

std::string profile_with(std::string_view settings) {
  return fmt::format(R"({{"tool":"ddtime","version":"0.1.0","profile":{{"name":"peak",{}}},)"
                     R"("rows":[{{"test":"SEQ1M Q8T1","side":"read","runs":[{{"bytes_per_second":3.1e9}}]}}]}})",
                     settings);
}

// B3: repeat=4 against repeat=5 was refused as "did not measure the same thing".
TEST(CompareDocuments, ProfilesThatDifferOnlyInRunsWarmUpsOrPauseMeasuredTheSameThing) {
  const Document four =
      read_ok(profile_with(R"("size":67108864,"time_s":1,"warmup":0,"repeat":4,"pause_s":0,"direct":true)"));
  const Document five =
      read_ok(profile_with(R"("size":67108864,"time_s":1,"warmup":1,"repeat":5,"pause_s":1,"direct":true)"));
  EXPECT_TRUE(match_rows(four, five).same());
}

TEST(CompareDocuments, ProfilesOfAnotherSizeTimeOrDirectDidNot) {
  const Document base = read_ok(profile_with(R"("size":67108864,"time_s":1,"repeat":4,"direct":true)"));
  for (const std::string_view other : {R"("size":1048576,"time_s":1,"repeat":4,"direct":true)",
                                       R"("size":67108864,"time_s":2,"repeat":4,"direct":true)",
                                       R"("size":67108864,"time_s":1,"repeat":4,"direct":false)"}) {
    const Matching matching = match_rows(base, read_ok(profile_with(other)));
    ASSERT_TRUE(matching.difference.has_value()) << other;
  }
}

// B15: runs of 0 B/s were dropped before they could be counted.
TEST(CompareDocuments, RunsOfZeroBytesASecondAreKept) {
  const Document document = read_ok(session({session_run(65536, 0), session_run(65536, 0)}));
  ASSERT_EQ(document.rows.size(), 1u);
  EXPECT_EQ(document.rows[0].rates, (std::vector<double>{0, 0}));
}

// B5: a rate nothing can measure.
TEST(CompareDocuments, ANegativeOrInfiniteRateIsRefusedByName) {
  DocumentProblem problem = problem_of(session({session_run(65536, 1e9), session_run(65536, -5)}));
  EXPECT_EQ(problem.kind, DocumentProblem::Kind::kBadRate);
  EXPECT_EQ(problem.detail, "runs[1].rates.bytes_per_second");
  EXPECT_EQ(problem.value, "-5");
  problem = problem_of(session({R"({"tool":"ddtime","operands":{},"rates":{"bytes_per_second":1e999},)"
                                R"("bs":65536,"iodepth":1,"pass":"copy","warmup":false,"counted":true})"}));
  EXPECT_EQ(problem.kind, DocumentProblem::Kind::kBadRate);
  EXPECT_EQ(problem.detail, "");  // nlohmann refuses it while parsing, before any path
  EXPECT_EQ(problem.value, "1e999");
}

// B4: each run is reduced as it is parsed; what --compare reads of them
// is the same as before.
TEST(CompareDocuments, ManyRunsAreReadAsTheyAreParsed) {
  std::vector<std::string> runs;
  for (int i = 0; i < 2000; ++i) runs.push_back(session_run(65536, 1e9 + i, i % 7 == 0, i % 11 != 0));
  const Document document = read_ok(session(runs));
  ASSERT_EQ(document.rows.size(), 1u);
  std::size_t expected = 0;
  for (int i = 0; i < 2000; ++i) expected += i % 7 != 0 && i % 11 != 0 ? 1 : 0;
  EXPECT_EQ(document.rows[0].rates.size(), expected);
  EXPECT_EQ(document.rows[0].rates[0], 1e9 + 1);
  EXPECT_EQ(document.rows[0].operands[2].path, "bs");
}

// A tree 200,000 deep crashed --compare (the stack, flattening it).
TEST(CompareDocuments, ADocumentNestedDeeperThanDdtimeWritesIsRefused) {
  const std::string deep = R"({"tool":"ddtime","environment":{"a":)" + std::string(200000, '[') +
                           std::string(200000, ']') + R"(},"runs":[]})";
  EXPECT_EQ(problem_of(deep).kind, DocumentProblem::Kind::kTooDeep);
}

TEST(CompareDocuments, TheEnvironmentIsFlattenedInTheOrderWritten) {
  const Document document = read_ok(single_run(
      4096, 1e9,
      R"("environment":{"host":"alpha","cpu":{"model":"X","logical_cpus":8},"command_line":["ddtime","bs=4k"]},)"));
  ASSERT_TRUE(document.environment.has_value());
  ASSERT_EQ(document.environment->size(), 4u);
  EXPECT_EQ((*document.environment)[1].path, "cpu.model");
  EXPECT_EQ((*document.environment)[2].value, "8");
  EXPECT_EQ((*document.environment)[3].value, "ddtime bs=4k");
}

TEST(CompareDocuments, ATruncatedDocumentNamesTheLineAndColumnOfItsEnd) {
  // Line 3 is `  "runs": [` (11 bytes): the input ends after it, column 12.
  const DocumentProblem problem = problem_of("{\n  \"tool\": \"ddtime\",\n  \"runs\": [");
  EXPECT_EQ(problem.kind, DocumentProblem::Kind::kSyntax);
  EXPECT_EQ(problem.line, 3u);
  EXPECT_EQ(problem.column, 12u);
  EXPECT_NE(problem.detail.find("unexpected end of input"), std::string::npos) << problem.detail;
}

TEST(CompareDocuments, ABadTokenIsPlacedWhereItIs) {
  // "nul" at line 2: the error is found at its last byte read.
  const DocumentProblem problem = problem_of("{\"tool\": \"ddtime\",\n\"x\": nul }");
  EXPECT_EQ(problem.kind, DocumentProblem::Kind::kSyntax);
  EXPECT_EQ(problem.line, 2u);
  EXPECT_EQ(problem.column, 9u);
}

TEST(CompareDocuments, RefusesJsonThatIsNotDdtimes) {
  EXPECT_EQ(problem_of(R"({"tool":"fio","jobs":[]})").kind, DocumentProblem::Kind::kNotDdtime);
  EXPECT_EQ(problem_of("[1, 2]").kind, DocumentProblem::Kind::kNotDdtime);
}

TEST(CompareDocuments, RefusesARefusalsDocument) {
  EXPECT_EQ(problem_of(R"({"tool":"ddtime","complete":false,"refused":true,"errors":[]})").kind,
            DocumentProblem::Kind::kRefusal);
}

TEST(CompareDocuments, NamesTheMemberThatIsMissing) {
  const DocumentProblem problem =
      problem_of(R"({"tool":"ddtime","runs":[{"counted":true,"pass":"copy","iodepth":1}]})");
  EXPECT_EQ(problem.kind, DocumentProblem::Kind::kMalformed);
  EXPECT_EQ(problem.detail, "runs[0].bs");
}

TEST(CompareDocuments, AnIncompleteDocumentSaysSo) {
  const std::string text = single_run(4096, 1e9);
  const std::string cut = text.substr(0, text.find("\"complete\":true")) + "\"complete\":false" +
                          text.substr(text.find("\"complete\":true") + 15);
  const Document document = read_ok(cut);
  EXPECT_FALSE(document.complete);
  EXPECT_TRUE(document.rows[0].rates.empty());  // a cut run measured part of a copy
}

TEST(MatchRows, TheSameOperandsMatch) {
  const Document a = read_ok(session({session_run(65536, 1e9)}));
  const Document b = read_ok(session({session_run(65536, 2e9)}));
  const Matching matching = match_rows(a, b);
  EXPECT_TRUE(matching.same());
  ASSERT_EQ(matching.pairs.size(), 1u);
}

TEST(MatchRows, TwoSingleRunsOfOtherBlockSizesDifferInBs) {
  const Matching matching = match_rows(read_ok(single_run(1048576, 1e9)), read_ok(single_run(4096, 1e9)));
  EXPECT_FALSE(matching.same());
  ASSERT_TRUE(matching.difference.has_value());
  EXPECT_EQ(matching.difference->path, "bs");
  EXPECT_EQ(matching.difference->baseline_value, "1048576");
  EXPECT_EQ(matching.difference->other_value, "4096");
  EXPECT_EQ(matching.pairs.size(), 1u);  // --force compares them
}

TEST(MatchRows, AnotherInputIsADifference) {
  const Document a = read_ok(session({session_run(65536, 1e9)}));
  const Document b = read_ok(session({session_run(65536, 1e9, false, true, "/tmp/big")}));
  const Matching matching = match_rows(a, b);
  ASSERT_TRUE(matching.difference.has_value());
  EXPECT_EQ(matching.difference->path, "if");
  EXPECT_EQ(matching.difference->other_value, "/tmp/big");
}

TEST(MatchRows, NamesTheRowsOnlyOneDocumentHas) {
  const Document a = read_ok(session({session_run(4096, 1e9), session_run(65536, 1e9)}));
  const Document b = read_ok(session({session_run(65536, 1e9)}));
  const Matching matching = match_rows(a, b);
  EXPECT_FALSE(matching.same());
  ASSERT_EQ(matching.only_baseline.size(), 1u);
  EXPECT_EQ(matching.only_baseline[0][1].number, 4096);
  EXPECT_TRUE(matching.only_other.empty());
  EXPECT_EQ(matching.pairs.size(), 1u);
}

TEST(EnvironmentDifferences, ListsTheLeavesThatDifferWithEachDocumentsValue) {
  const std::vector<Document> documents{
      read_ok(single_run(4096, 1e9, R"("environment":{"host":"alpha","kernel":{"release":"6.1"}},)")),
      read_ok(single_run(4096, 1e9, R"("environment":{"host":"beta","kernel":{"release":"6.1"}},)")),
      read_ok(single_run(4096, 1e9)),
  };
  const std::vector<EnvironmentDifference> differences = environment_differences(documents);
  ASSERT_EQ(differences.size(), 1u);
  EXPECT_EQ(differences[0].path, "host");
  EXPECT_EQ(differences[0].values, (std::vector<std::optional<std::string>>{"alpha", "beta", std::nullopt}));
}

TEST(EnvironmentDifferences, NoneWhenFewerThanTwoRecordedOne) {
  const std::vector<Document> documents{read_ok(single_run(4096, 1e9, R"("environment":{"host":"a"},)")),
                                        read_ok(single_run(4096, 1e9))};
  EXPECT_TRUE(environment_differences(documents).empty());
}

}  // namespace
}  // namespace ddtime
