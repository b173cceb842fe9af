// SPDX-License-Identifier: GPL-3.0-or-later
// The console: whose names its messages use, and what a session's end says
// from the records alone.
#include "bench/console.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"

namespace ddtime {
namespace {

using testing::FakeOs;
using testing::FixedClock;

Settings reading(const char* input) {
  Settings settings;
  settings.input_file = input;
  settings.output_file = "out";
  return settings;
}

struct Seen {
  FakeOs os;
  FixedClock clock;
  RunWindow window{clock, false};
  std::string text;
  Diag diag{"ddtime", false, [this](std::string_view said) { text.append(said); }};
};

TEST(Console, MessagesNameTheFilesOfTheRunThatIsRunning) {
  Seen seen;
  Console console(seen.os, seen.diag, seen.window, reading("asked"), Plan{}, false);
  console.notice(Notice::kReadError, Side::kInput, EIO, 0);
  console.run_begins(reading("written"));  // a read-back's read pass reads of=
  console.notice(Notice::kReadError, Side::kInput, EIO, 0);
  EXPECT_EQ(seen.text,
            "ddtime: error reading 'asked': Input/output error\n"
            "ddtime: error reading 'written': Input/output error\n");
}

TEST(Console, TheStartEventsSettingsAreTheRunsFromThenOn) {
  Seen seen;
  Console console(seen.os, seen.diag, seen.window, reading("asked"), Plan{}, false);
  const Settings resolved = reading("resolved");
  console.starting(RunStart{.expected_bytes = std::nullopt, .settings = &resolved});
  console.notice(Notice::kReadError, Side::kInput, EIO, 0);
  EXPECT_EQ(seen.text, "ddtime: error reading 'resolved': Input/output error\n");
}

RunRecord finished_run(std::size_t row, std::int64_t records) {
  RunRecord run;
  run.settings.ibs = run.settings.obs = 512;
  run.row = row;
  run.result.stats.full_records_in = run.result.stats.full_records_out = records;
  run.result.stats.bytes_in = run.result.stats.bytes_out = records * 512;
  run.result.times.real_ns = 1'000'000;
  run.measured = "ddtime: measured: the page cache\n";
  return run;
}

TEST(Console, ASessionEndsWithTheTableThenGnusLinesOfItsLastRun) {
  Seen seen;
  Settings settings = reading("in");
  settings.ext.invocation = Invocation::kDdtime;
  Plan plan;
  plan.sweep_bs = {512, 1024};
  Console console(seen.os, seen.diag, seen.window, settings, plan, false);
  SessionRecord session{.plan = plan, .exit_status = 0};
  session.rows = {RowRecord{.bs = 512, .setting = "bs=512 depth 1"}, RowRecord{.bs = 1024, .setting = "bs=1k depth 1"}};
  session.runs = {finished_run(0, 8), finished_run(1, 3)};
  summarise_rows(session);
  EXPECT_EQ(console.session_ended(session), 0);
  const std::string gnu_last = "3+0 records in\n3+0 records out\n";
  EXPECT_NE(seen.text.find("ddtime:     bs depth"), std::string::npos) << seen.text;
  EXPECT_NE(
      seen.text.find("ddtime: measured (bs=1k depth 1, the row of GNU's lines below): the page cache\n" + gnu_last),
      std::string::npos)
      << seen.text;
  EXPECT_LT(seen.text.find("ddtime:     bs depth"), seen.text.find(gnu_last));
}

TEST(Console, ASessionsStatusIsOneWhenItWasStoppedAndHasNoneOfItsOwn) {
  Seen seen;
  Console console(seen.os, seen.diag, seen.window, reading("in"), Plan{}, false);
  SessionRecord session;
  session.signal = 2;
  EXPECT_EQ(console.session_ended(session), 1);
}

// --svg's heading: the command line main handed over, and the machine
// and the date as the Os tells them (the fake's fixed ones here).
TEST(Console, TheSvgNamesTheCommandTheHostAndTheDateAndIsWrittenOnceAtTheEnd) {
  Seen seen;
  seen.os.output_name = "chart.svg";
  Plan plan;
  plan.ask_output("svg", "chart.svg");
  Console console(seen.os, seen.diag, seen.window, reading("in"), plan, false,
                  {"ddtime", "if=in", "--svg=chart.svg", "it's"});
  ASSERT_FALSE(console.resolved(reading("in"), plan, {}));
  EXPECT_EQ(console.run_ended(finished_run(0, 3)), 0);
  const std::string svg(seen.os.output.begin(), seen.os.output.end());
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u) << svg;
  EXPECT_EQ(svg.find("<?xml", 1), std::string::npos) << "one document";
  EXPECT_NE(svg.find(">ddtime if=in --svg=chart.svg &apos;it&apos;\\&apos;&apos;s&apos;</text>"), std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">on fakehost, 2026-12-02 22:20 UTC (ddtime "), std::string::npos);
}

TEST(Console, AnSvgThatCannotBeWrittenSaysSoAndFailsTheRun) {
  Seen seen;
  seen.os.output_name = "chart.svg";
  Plan plan;
  plan.ask_output("svg", "chart.svg");
  Console console(seen.os, seen.diag, seen.window, reading("in"), plan, false);
  ASSERT_FALSE(console.resolved(reading("in"), plan, {}));
  seen.os.on_write({testing::Fail(ENOSPC)});
  EXPECT_EQ(console.run_ended(finished_run(0, 3)), 1);
  EXPECT_NE(seen.text.find("ddtime: failed to write the SVG report to 'chart.svg': No space left on device\n"),
            std::string::npos)
      << seen.text;
}

}  // namespace
}  // namespace ddtime
