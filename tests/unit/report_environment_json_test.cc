// SPDX-License-Identifier: GPL-3.0-or-later
// The "environment" object of every JSON document: its keys and types are
// a contract with `ddtime --compare`, so the whole text is pinned here,
// written out by hand from the schema in the header.
#include "report/report_environment_json.h"

#include <gtest/gtest.h>

#include <string>

#include "report/report_json.h"

namespace ddtime {
namespace {

std::string environment_text(const Environment& environment) {
  json::Writer out;
  {
    json::Object document = out.object();
    put_environment(document.object("environment"), environment);
  }
  return out.text();
}

Environment a_full_environment() {
  Environment environment;
  environment.host = "bench1";
  environment.kernel = KernelFacts{"Linux", "6.1.0-28-amd64", "#1 SMP PREEMPT_DYNAMIC", "x86_64"};
  environment.cpu_model = "AMD EPYC 7302";
  environment.logical_cpus = 32;
  environment.memory_bytes = 25200000000;
  environment.ddtime_version = "0.1.0";
  environment.command_line = {"ddtime", "if=in", "of=out", "bs=1M"};
  environment.date = 1796250000;
  environment.input = FileFacts{.path = "in",
                                .filesystem = "ext4",
                                .device = DeviceFacts{.name = "loop0",
                                                      .model = std::nullopt,
                                                      .firmware = std::nullopt,
                                                      .rotational = false,
                                                      .logical_block_size = 512,
                                                      .scheduler = "none",
                                                      .size_bytes = 1073741824,
                                                      .write_cache = "write back",
                                                      .backing_file = "/var/tmp/disk1.img"}};
  environment.output = FileFacts{.path = "/dev/null"};
  environment.random_seed = 1234;
  environment.pattern_seed = 5678;
  return environment;
}

TEST(EnvironmentJson, WritesEveryKeyOfTheSchemaInOrder) {
  EXPECT_EQ(environment_text(a_full_environment()),
            R"({"environment":{"host":"bench1",)"
            R"("kernel":{"name":"Linux","release":"6.1.0-28-amd64","version":"#1 SMP PREEMPT_DYNAMIC",)"
            R"("machine":"x86_64"},"cpu":{"model":"AMD EPYC 7302","logical_cpus":32},)"
            R"("memory_bytes":25200000000,"ddtime_version":"0.1.0",)"
            R"("command_line":["ddtime","if=in","of=out","bs=1M"],"date":"2026-12-02T22:20:00Z",)"
            R"("files":{"input":{"path":"in","filesystem":"ext4","device":{"name":"loop0","model":null,)"
            R"("firmware":null,"rotational":false,"logical_block_size":512,"scheduler":"none",)"
            R"("size_bytes":1073741824,"write_cache":"write back","backing_file":"/var/tmp/disk1.img"}},)"
            R"("output":{"path":"/dev/null","filesystem":null,"device":null}},)"
            R"("seeds":{"random":1234,"pattern":5678}}})");
}

TEST(EnvironmentJson, WhatWasNotToldIsNull) {
  EXPECT_EQ(environment_text(Environment{}),
            R"({"environment":{"host":null,"kernel":null,"cpu":{"model":null,"logical_cpus":null},)"
            R"("memory_bytes":null,"ddtime_version":"","command_line":[],"date":null,)"
            R"("files":{"input":null,"output":null},"seeds":{"random":null,"pattern":null}}})");
}

TEST(EnvironmentJson, DatesAreIso8601InUtc) {
  EXPECT_EQ(utc_date(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(utc_date(951782400), "2000-02-29T00:00:00Z");
  EXPECT_EQ(utc_date(1796250000), "2026-12-02T22:20:00Z");
}

TEST(EnvironmentJson, ARunsDocumentCarriesItAfterTheVersionWithTheRunsSeeds) {
  RunRecord run;
  run.seed = 99;
  run.result.random = RandomAccess{.seed = 42};
  const std::string text = json_report(run, a_full_environment(), "0.1.0");
  EXPECT_TRUE(text.starts_with(R"({"tool":"ddtime","version":"0.1.0","environment":{"host":"bench1",)")) << text;
  EXPECT_NE(text.find(R"("seeds":{"random":42,"pattern":99}},"complete":)"), std::string::npos) << text;
}

TEST(EnvironmentJson, ASessionsSeedsAreItsFirstRunsAndItsRunsHaveNoEnvironment) {
  SessionRecord session{.exit_status = 0};
  session.runs.resize(2);
  session.runs[0].seed = 7;
  session.runs[1].seed = 8;
  const std::string text = json_session_report(session, Environment{}, "0.1.0");
  EXPECT_TRUE(text.starts_with(R"({"schema":1,"tool":"ddtime","version":"0.1.0","environment":{)")) << text;
  EXPECT_NE(text.find(R"("seeds":{"random":null,"pattern":7}},"complete":)"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"environment\""), text.rfind("\"environment\"")) << "once, at the top";
}

TEST(EnvironmentJson, ARefusalCarriesItToo) {
  const std::string errors[] = {"unrecognized option '--bogus'"};
  const std::string text = json_refusal(errors, a_full_environment(), "0.1.0");
  EXPECT_TRUE(text.starts_with(R"({"tool":"ddtime","version":"0.1.0","environment":{"host":"bench1",)")) << text;
  EXPECT_NE(text.find(R"(}},"complete":false,"refused":true,)"), std::string::npos) << text;
}

}  // namespace
}  // namespace ddtime
