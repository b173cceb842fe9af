// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's scheduling over a scripted OS with named files: a session
// opens its files again for every run, keeps a record per run with the
// diagnostics said during it, ends at the first failed run, and reports
// once, through the console, from the records.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "bench/driver.h"
#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"
#include "support/json.h"

namespace ddtime {
namespace {

using support::Json;
using support::parse_json;
using testing::block_size;
using testing::Bytes;
using testing::Fail;
using testing::FakeOs;
using testing::FixedClock;
using testing::Step;

// A 4096-byte file "in" copied to "out" in bs=512 records.
FakeOs named_files() { return testing::named_files(testing::pattern(4096)); }

Settings copy_in_to_out() { return testing::in_to_out(512); }

struct Outcome {
  int status;
  std::string text;  // what diag said
};

Outcome invoke(FakeOs& os, const Settings& settings, const Plan& plan, const char* program = "ddtime") {
  std::string captured;
  Diag diag(program, false, [&](std::string_view text) { captured.append(text); });
  FixedClock clock;
  Driver driver(os, clock, diag, settings, plan);
  const int status = driver.run();
  return {status, captured};
}

// --json with no path: the one document on standard error.
Plan with_json(Plan plan) {
  plan.ask_output("json", std::nullopt);
  return plan;
}

std::size_t opens_of(const FakeOs& os, const std::string& name) { return os.count_calls("open " + name); }

TEST(Scheduler, ARepeatedRunOpensBothFilesAgainForEveryRunAndCountsTheMeasuredOnes) {
  FakeOs os = named_files();
  Plan plan;
  plan.repeat = 3;
  plan.warmup = 1;
  const Outcome outcome = invoke(os, copy_in_to_out(), with_json(plan));
  EXPECT_EQ(outcome.status, 0);
  EXPECT_EQ(opens_of(os, "in"), 4u);
  EXPECT_EQ(opens_of(os, "out"), 4u);
  EXPECT_EQ(os.output, os.input);
  const Json json = parse_json(os.stderr_written);
  ASSERT_EQ(json["runs"].size(), 4u);
  EXPECT_TRUE(json["runs"][0]["warmup"].boolean());
  EXPECT_EQ(json["runs"][3]["repeat"].integer(), 3);
  ASSERT_EQ(json["summary"].size(), 1u);
  EXPECT_EQ(json["summary"][0]["runs"].integer(), 3) << "warm-ups are not counted";
  EXPECT_EQ(json["exit_status"].integer(), 0);
}

TEST(Scheduler, AFailedRunEndsTheSessionListedNotCountedAndWithItsOwnErrors) {
  FakeOs os = named_files();
  // The first run's eight writes go through, the second run's first fails.
  os.on_write(std::vector<Step>(8, Bytes(512)));
  os.on_write({Fail(EIO)});
  Plan plan;
  plan.repeat = 3;
  const Outcome outcome = invoke(os, copy_in_to_out(), with_json(plan));
  EXPECT_EQ(outcome.status, 1);
  EXPECT_EQ(opens_of(os, "in"), 2u) << "no run after the failed one";
  const Json json = parse_json(os.stderr_written);
  ASSERT_EQ(json["runs"].size(), 2u);
  EXPECT_TRUE(json["runs"][0]["counted"].boolean());
  EXPECT_EQ(json["runs"][0]["errors"].size(), 0u) << "a run's errors are those said during it";
  EXPECT_FALSE(json["runs"][1]["counted"].boolean());
  EXPECT_EQ(json["runs"][1]["exit_status"].integer(), 1);
  EXPECT_EQ(json["runs"][1]["errors"].strings(), std::vector<std::string>{"error writing 'out': Input/output error"});
  ASSERT_EQ(json["summary"].size(), 1u);
  EXPECT_EQ(json["summary"][0]["runs"].integer(), 1);
  EXPECT_EQ(json["exit_status"].integer(), 1);
}

TEST(Scheduler, EachRunKeepsTheDiagnosticsSaidDuringItAndNoOthers) {
  FakeOs os = named_files();
  // The first run's first read comes up short: GNU's warning, no failure.
  os.on_read({Bytes(100)});
  Settings settings = copy_in_to_out();
  settings.max_records = 8;
  Plan plan;
  plan.repeat = 2;
  const Outcome outcome = invoke(os, settings, with_json(plan));
  EXPECT_EQ(outcome.status, 0);
  const Json json = parse_json(os.stderr_written);
  ASSERT_EQ(json["runs"].size(), 2u);
  EXPECT_EQ(json["runs"][0]["errors"].strings(),
            std::vector<std::string>{"warning: partial read (100 bytes); suggest iflag=fullblock"});
  EXPECT_EQ(json["runs"][1]["errors"].size(), 0u);
}

TEST(Scheduler, EverySweepRowMovesTheSameBytesInItsOwnBlockSize) {
  FakeOs os = named_files();
  Plan plan;
  plan.sweep_bs = {512, 2048};
  const Outcome outcome = invoke(os, copy_in_to_out(), with_json(plan));
  EXPECT_EQ(outcome.status, 0);
  const Json json = parse_json(os.stderr_written);
  ASSERT_EQ(json["runs"].size(), 2u);
  EXPECT_EQ(json["runs"][0]["bs"].integer(), 512);
  EXPECT_EQ(json["runs"][0]["records_in"]["full"].integer(), 8);
  EXPECT_EQ(json["runs"][1]["bs"].integer(), 2048);
  EXPECT_EQ(json["runs"][1]["records_in"]["full"].integer(), 2);
  EXPECT_EQ(json["runs"][1]["bytes_out"].integer(), 4096);
  ASSERT_EQ(json["summary"].size(), 2u);
  EXPECT_EQ(json["summary"][1]["bs"].integer(), 2048);
  EXPECT_EQ(os.output, os.input);
}

TEST(Scheduler, CsvOnStandardErrorHasOneHeaderAndOneLinePerRun) {
  FakeOs os = named_files();
  Plan plan;
  plan.repeat = 2;
  plan.ask_output("csv", std::nullopt);
  const Outcome outcome = invoke(os, copy_in_to_out(), plan);
  EXPECT_EQ(outcome.status, 0);
  EXPECT_EQ(outcome.text, "") << "CSV replaces the text";
  const std::string& csv = os.stderr_written;
  EXPECT_EQ(csv.rfind("bs,iodepth,pass,", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;
  EXPECT_NE(csv.find("\n512,1,copy,1,false,as-is,4096,8,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n512,1,copy,2,false,as-is,4096,8,"), std::string::npos) << csv;
}

TEST(Scheduler, AsDdEachRunOfASessionSaysWhatDdSays) {
  FakeOs os = named_files();
  Plan plan;
  plan.repeat = 2;
  const Outcome outcome = invoke(os, copy_in_to_out(), plan, "dd");
  EXPECT_EQ(outcome.status, 0);
  const std::string once = "8+0 records in\n8+0 records out\n";
  EXPECT_EQ(outcome.text.find(once), 0u) << outcome.text;
  EXPECT_NE(outcome.text.find(once, once.size()), std::string::npos) << outcome.text;
}

TEST(Scheduler, ASessionThatCannotOpenItsInputAgainIsRefusedBeforeAnyRun) {
  FakeOs os = named_files();
  Settings settings = copy_in_to_out();
  settings.input_file.reset();  // standard input
  os.input_seekable = false;    // a pipe
  Plan plan;
  plan.repeat = 2;
  const Outcome outcome = invoke(os, settings, plan);
  EXPECT_EQ(outcome.status, 1);
  EXPECT_EQ(os.count_calls("read"), 0u);
  EXPECT_EQ(opens_of(os, "out"), 0u) << "nothing opened for writing";
  EXPECT_NE(outcome.text.find("--repeat=2"), std::string::npos) << outcome.text;
}

Plan read_back(bool verify) {
  Plan plan;
  plan.readback = true;
  plan.verify = verify;
  return plan;
}

TEST(Readback, WritesDropsReadsBackAndVerifiesTheBytesWhereTheyWent) {
  FakeOs os = named_files();
  const Outcome outcome = invoke(os, copy_in_to_out(), with_json(read_back(true)));
  EXPECT_EQ(outcome.status, 0);
  EXPECT_EQ(os.output, os.input);
  EXPECT_GE(os.count_calls("fdatasync"), 2u) << "the write pass flushed, and the drop wrote back first";
  EXPECT_GE(os.count_calls("fadvise"), 2u) << "dropped before the read pass and again before verify";
  const Json json = parse_json(os.stderr_written);
  ASSERT_EQ(json["runs"].size(), 2u);
  EXPECT_EQ(json["runs"][0]["pass"].string(), "write");
  EXPECT_EQ(json["runs"][1]["pass"].string(), "read");
  EXPECT_EQ(json["runs"][1]["operands"]["if"].string(), "out");
  EXPECT_EQ(json["runs"][1]["bytes_in"].integer(), 4096);
  EXPECT_EQ(json["runs"][1]["verify"].string(), "ok");
  ASSERT_EQ(json["summary"].size(), 2u) << "each pass summarised on its own";
  EXPECT_EQ(json["summary"][1]["pass"].string(), "read");
}

TEST(Readback, ADiskThatLiesIsAMismatchAtTheFirstBadByte) {
  FakeOs os = named_files();
  os.output_reads_wrong_at = 1000;
  const Outcome outcome = invoke(os, copy_in_to_out(), with_json(read_back(true)));
  EXPECT_EQ(outcome.status, 1);
  const Json json = parse_json(os.stderr_written);
  ASSERT_EQ(json["runs"].size(), 2u);
  EXPECT_EQ(json["runs"][1]["verify"].string(), "mismatch");
  EXPECT_EQ(json["runs"][1]["first_bad_offset"].integer(), 1000);
  EXPECT_EQ(json["exit_status"].integer(), 1);
}

TEST(Readback, AReadErrorInTheReadPassNamesTheFileThatPassReads) {
  FakeOs os = named_files();
  // The write pass's eight reads and its end of file, then the read pass's first.
  os.on_read(std::vector<Step>(9, Bytes(512)));
  os.on_read({Fail(EIO)});
  const Outcome outcome = invoke(os, copy_in_to_out(), read_back(false));
  EXPECT_EQ(outcome.status, 1);
  EXPECT_NE(outcome.text.find("ddtime: error reading 'out': Input/output error\n"), std::string::npos) << outcome.text;
  EXPECT_EQ(outcome.text.find("'in'"), std::string::npos) << outcome.text;
}

}  // namespace
}  // namespace ddtime
