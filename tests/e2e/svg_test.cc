// SPDX-License-Identifier: GPL-3.0-or-later
// --svg=PATH: the file holds one SVG document of the run, whatever kind of
// run it was, sized as the man page says; its path is refused as
// --json's is, before anything is written; as dd the option
// works and adds no text. (That the file renders is tests/svg/svg_render_test.py's.)

#include <csignal>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

class SvgOutput : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }

  // The svg element's height, or -1.
  static int declared_height(const std::string& svg) {
    std::smatch match;
    if (!std::regex_search(svg, match, std::regex("<svg [^>]*width=\"800\" height=\"([0-9]+)\""))) return -1;
    return std::stoi(match[1]);
  }

  static void expect_no_broken_numbers(const std::string& svg) {
    for (const char* word : {"nan", "inf\"", "NaN", "Inf"}) EXPECT_EQ(svg.find(word), std::string::npos) << word;
  }
};

TEST_F(SvgOutput, APlainRunGetsOnePanelOfWhereItsTimeWentUnderTheCommand) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=64k", "count=100", "--svg=run.svg"});
  ASSERT_STATUS(r, "exit 0");
  const std::string svg = read_file("run.svg");
  EXPECT_EQ(declared_height(svg), 64 + 360) << svg;
  EXPECT_NE(svg.find(">ddtime if=/dev/zero of=/dev/null bs=64k count=100 --svg=run.svg</text>"), std::string::npos);
  EXPECT_NE(svg.find("where the time went"), std::string::npos);
  EXPECT_NE(svg.find("</svg>\n"), std::string::npos);
  expect_no_broken_numbers(svg);
  // The text on standard error is unchanged by it.
  EXPECT_NE(r.err.find("records out"), std::string::npos);
}

TEST_F(SvgOutput, ASweepWithLatencyStacksItsBarsAndTheHistogram) {
  const Result r =
      ddtime({"if=/dev/zero", "of=/dev/null", "count=64", "--sweep=bs=4k,64k", "--latency", "--svg=sweep.svg"});
  ASSERT_STATUS(r, "exit 0");
  const std::string svg = read_file("sweep.svg");
  EXPECT_EQ(declared_height(svg), 64 + 2 * 360);
  EXPECT_NE(svg.find(">4k d1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">64k d1</text>"), std::string::npos);
  EXPECT_NE(svg.find(">best</text>"), std::string::npos);
  EXPECT_NE(svg.find("latency (log scale)"), std::string::npos);
  expect_no_broken_numbers(svg);
}

TEST_F(SvgOutput, ATimedRunWithATimelineAndLatencyGetsBothPanels) {
  const Result r =
      ddtime({"if=/dev/zero", "of=/dev/null", "bs=64k", "--time=200ms", "--timeline", "--latency", "--svg=time.svg"});
  ASSERT_STATUS(r, "exit 0");
  const std::string svg = read_file("time.svg");
  EXPECT_EQ(declared_height(svg), 64 + 2 * 360);
  EXPECT_NE(svg.find("rate over the bytes moved"), std::string::npos);
  EXPECT_NE(svg.find("class=\"step\""), std::string::npos);
  expect_no_broken_numbers(svg);
}

TEST_F(SvgOutput, ARunThatFailsBeforeMeasuringStillLeavesADocument) {
  const Result r = ddtime({"if=missing", "of=/dev/null", "--svg=failed.svg"});
  ASSERT_STATUS(r, "exit 1");
  const std::string svg = read_file("failed.svg");
  EXPECT_EQ(declared_height(svg), 64 + 360);
  expect_no_broken_numbers(svg);
}

// SIGINT: the chart of what completed is written before ddtime dies by
// the signal, as the man page says.
TEST_F(SvgOutput, AfterSigintTheChartOfTheRunSoFarIsWritten) {
  Options o = opts({"if=/dev/zero", "of=/dev/null", "bs=64k", "--time=20s", "--timeline=50ms", "--svg=int.svg"});
  o.as_ddtime = true;
  DdProcess p(o);
  std::this_thread::sleep_for(400ms);
  p.send_signal(SIGINT);
  const Result r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  const std::string svg = read_file("int.svg");
  EXPECT_EQ(declared_height(svg), 64 + 360) << svg;
  EXPECT_NE(svg.find("class=\"step\""), std::string::npos) << svg;
  expect_no_broken_numbers(svg);
}

TEST_F(SvgOutput, APathIsRefusedAsJsonsIsBeforeAnythingIsWritten) {
  // The paths that name the copy's files or another report are refused in
  // JsonOutput.APathThatIsADataFileIsRefusedAndNothingChanges's table.
  write_file("in1", "input bytes");
  std::filesystem::create_directory(path("adir"));
  for (const auto& [svg, err] :
       {std::pair{"--svg=adir", "ddtime: --svg: 'adir' is a directory, not a file the report can go to\n"},
        std::pair{"--svg=nodir/x.svg", "ddtime: --svg: cannot open 'nodir/x.svg': No such file or directory\n"}}) {
    Options o = opts({"if=in1", "bs=4k", "of=out2", svg});
    o.as_ddtime = true;
    o.locale = Locale::kC;
    const Result r = dd(o);
    EXPECT_STATUS(r, "exit 1");
    EXPECT_EQ(r.err, err);
    EXPECT_FALSE(exists("out2"));
  }
}

TEST_F(SvgOutput, AnEmptyOrMissingPathIsAnError) {
  for (const char* option : {"--svg=", "--svg"}) {
    Options o = opts({"if=/dev/zero", "of=/dev/null", "count=1", option});
    o.as_ddtime = true;
    o.locale = Locale::kC;
    const Result r = dd(o);
    EXPECT_STATUS(r, "exit 1");
    EXPECT_NE(r.err.find("--svg"), std::string::npos) << r.err;
  }
}

// As dd, ddtime's options still work (as --json= does there) and add no
// text: standard error is GNU's summary alone.
TEST_F(SvgOutput, AsDdTheChartIsWrittenAndStderrIsGnus) {
  const Result r = dd({"if=/dev/zero", "of=/dev/null", "bs=1000", "count=3", "--svg=x.svg"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "3+0 records in\n3+0 records out\n3000 bytes (3.0 kB, 2.9 KiB) copied, <T> s, <R>\n");
  const std::string svg = read_file("x.svg");
  EXPECT_EQ(declared_height(svg), 64 + 360);
  EXPECT_NE(svg.find(">dd if=/dev/zero of=/dev/null bs=1000 count=3 --svg=x.svg</text>"), std::string::npos) << svg;
}

}  // namespace
}  // namespace ddtime::e2e
