// SPDX-License-Identifier: GPL-3.0-or-later
// --openmetrics's text: Prometheus's exposition format 0.0.4 of a run, a
// session's runs and a profile, from their records.
#include "report/openmetrics_exporter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fakes/fake_os.h"
#include "measure/profile_record.h"
#include "model/plan.h"
#include "model/settings.h"
#include "unit/report_fixtures.h"

namespace ddtime {
namespace {

using namespace report_fixtures;

struct Exported {
  testing::FakeOs os;
  Settings settings;
  Plan plan;
  std::vector<std::string> argv{"ddtime"};
  ExportContext context{os, settings, plan, argv};
  OpenMetricsExporter exporter{context, "run.prom"};
};

Settings blocks_of(std::int64_t bs) {
  Settings settings;
  settings.ibs = settings.obs = bs;
  return settings;
}

TEST(OpenMetricsExporter, ARunIsCountersAndGaugesInBytesAndSeconds) {
  Exported out;
  const RunRecord run = plain_run(blocks_of(512), copied(8, 0, 4096), timed(2'000'000'000, 500'000'000, 250'000'000));
  EXPECT_EQ(out.exporter.run_ended(run).value(),
            "# HELP ddtime_bytes_in_total Bytes read from the input.\n"
            "# TYPE ddtime_bytes_in_total counter\n"
            "ddtime_bytes_in_total 4096\n"
            "# HELP ddtime_bytes_out_total Bytes written to the output.\n"
            "# TYPE ddtime_bytes_out_total counter\n"
            "ddtime_bytes_out_total 4096\n"
            "# HELP ddtime_records_in_total Records read, whole (full) or short (partial).\n"
            "# TYPE ddtime_records_in_total counter\n"
            "ddtime_records_in_total{kind=\"full\"} 8\n"
            "ddtime_records_in_total{kind=\"partial\"} 0\n"
            "# HELP ddtime_records_out_total Records written, whole (full) or short (partial).\n"
            "# TYPE ddtime_records_out_total counter\n"
            "ddtime_records_out_total{kind=\"full\"} 8\n"
            "ddtime_records_out_total{kind=\"partial\"} 0\n"
            "# HELP ddtime_real_seconds Wall-clock time of the measured window, in seconds.\n"
            "# TYPE ddtime_real_seconds gauge\n"
            "ddtime_real_seconds 2\n"
            "# HELP ddtime_user_seconds CPU time in user mode over the window, in seconds.\n"
            "# TYPE ddtime_user_seconds gauge\n"
            "ddtime_user_seconds 0.5\n"
            "# HELP ddtime_sys_seconds CPU time in the kernel over the window, in seconds.\n"
            "# TYPE ddtime_sys_seconds gauge\n"
            "ddtime_sys_seconds 0.25\n"
            "# HELP ddtime_rate_bytes_per_second Bytes written over the real time.\n"
            "# TYPE ddtime_rate_bytes_per_second gauge\n"
            "ddtime_rate_bytes_per_second 2048\n"
            "# HELP ddtime_exit_status The run's exit status, as dd's: 0 or 1.\n"
            "# TYPE ddtime_exit_status gauge\n"
            "ddtime_exit_status 0\n");
}

TEST(OpenMetricsExporter, ARunNeverMeasuredHasItsCountersAndNoTimes) {
  Exported out;
  RunTimes unmeasured;
  unmeasured.measured = false;
  const std::string text = out.exporter.run_ended(plain_run(blocks_of(512), copied(0, 0, 0), unmeasured)).value();
  EXPECT_NE(text.find("ddtime_bytes_out_total 0\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("seconds"), std::string::npos) << text;
}

TEST(OpenMetricsExporter, LatencyIsASummaryOfTheQuantilesTheCountSupports) {
  Exported out;
  RunRecord run = plain_run(blocks_of(512), copied(8, 0, 4096), timed(1'000'000));
  LatencyReport latency;
  latency.read.count = 100;
  latency.read.mean_ns = 2000;
  latency.read.percentiles = {1000, 3000, 9000, std::nullopt, std::nullopt};
  run.result.latency = latency;
  const std::string text = out.exporter.run_ended(run).value();
  EXPECT_NE(text.find("# TYPE ddtime_latency_seconds summary\n"
                      "ddtime_latency_seconds{side=\"read\",quantile=\"0.5\"} 1e-06\n"
                      "ddtime_latency_seconds{side=\"read\",quantile=\"0.9\"} 3e-06\n"
                      "ddtime_latency_seconds{side=\"read\",quantile=\"0.99\"} 9e-06\n"
                      "ddtime_latency_seconds_sum{side=\"read\"} 0.0002\n"
                      "ddtime_latency_seconds_count{side=\"read\"} 100\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("side=\"write\""), std::string::npos) << "no writes were timed";
}

TEST(OpenMetricsExporter, ASessionsRunsAreLabelledAndEachFamilyIsTogether) {
  Exported out;
  SessionRecord session;
  session.runs = {plain_run(blocks_of(4096), copied(2, 0, 8192), timed(1'000'000)),
                  plain_run(blocks_of(65536), copied(2, 0, 131072), timed(1'000'000))};
  session.runs[1].index = 2;
  session.runs[1].depth = 4;
  const std::string text = out.exporter.session_ended(session).value();
  EXPECT_NE(text.find("ddtime_bytes_out_total{bs=\"4096\",iodepth=\"1\",pass=\"copy\",run=\"1\",warmup=\"false\"} "
                      "8192\n"
                      "ddtime_bytes_out_total{bs=\"65536\",iodepth=\"4\",pass=\"copy\",run=\"2\",warmup=\"false\"} "
                      "131072\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("# TYPE ddtime_bytes_out_total"), text.rfind("# TYPE ddtime_bytes_out_total"));
}

TEST(OpenMetricsExporter, AProfileHasItsFiguresPerTestAndSide) {
  Exported out;
  ProfileRecord profile;
  ProfileRow row;
  row.test.label = "SEQ1M Q8T1";
  row.side = ProfileSide::kWrite;
  row.rate = Figure{};
  row.rate->median = 1e9;
  row.iops = 953.67431640625;
  row.p99_latency_s = 0.004;
  profile.rows.push_back(row);
  const std::string text = out.exporter.profile_ended(profile).value();
  EXPECT_NE(text.find("ddtime_profile_rate_bytes_per_second{profile=\"\",test=\"SEQ1M Q8T1\",side=\"write\"} "
                      "1000000000\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ddtime_profile_iops{profile=\"\",test=\"SEQ1M Q8T1\",side=\"write\"} 953.67431640625\n"),
            std::string::npos);
  EXPECT_NE(text.find("ddtime_profile_latency_p99_seconds{profile=\"\",test=\"SEQ1M Q8T1\",side=\"write\"} 0.004\n"),
            std::string::npos);
  EXPECT_EQ(text.find("latency_mean"), std::string::npos) << "not measured, not said";
}

TEST(OpenMetricsExporter, ALabelValueEscapesBackslashQuoteAndNewline) {
  EXPECT_EQ(openmetrics_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(openmetrics_label_value("plain é"), "plain é");
}

}  // namespace
}  // namespace ddtime
