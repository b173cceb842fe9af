// SPDX-License-Identifier: GPL-3.0-or-later
// --openmetrics=PATH: the file is Prometheus's text format (what
// node_exporter's textfile collector reads) of a run, a session or a
// profile, checked here with a parser of the format's rules (promtool is
// not needed): every family's HELP and TYPE before its samples, a
// family's samples together, names and label values well formed; the
// figures agree with GNU's summary; the PATH is refused as --svg's is.

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

struct Sample {
  std::string name;
  std::map<std::string, std::string> labels;
  std::string value;
};

// The samples of text, or a failure that says which rule a line broke.
std::vector<Sample> parse_text_format(const std::string& text) {
  static const std::regex kName("[a-zA-Z_:][a-zA-Z0-9_:]*");
  static const std::regex kLine("([^{ ]+)(?:\\{(.*)\\})? (\\S+)");
  static const std::regex kLabel("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");
  std::vector<Sample> samples;
  std::map<std::string, std::string> types;
  std::map<std::string, bool> helped;
  std::vector<std::string> families_done;
  std::string current;
  EXPECT_TRUE(text.empty() || text.back() == '\n');
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) {
      std::istringstream words(line.substr(7));
      std::string name, rest;
      words >> name;
      std::getline(words, rest);
      EXPECT_TRUE(std::regex_match(name, kName)) << line;
      if (line[2] == 'H') helped[name] = true;
      if (line[2] == 'T') types[name] = rest.substr(1);
      continue;
    }
    std::smatch match;
    if (!std::regex_match(line, match, kLine)) {
      ADD_FAILURE() << "not a sample: " << line;
      continue;
    }
    Sample sample{match[1], {}, match[3]};
    EXPECT_TRUE(std::regex_match(sample.name, kName)) << line;
    std::string family = sample.name;
    for (const std::string suffix : {"_sum", "_count"}) {
      const std::string base = family.substr(0, family.size() - std::min(family.size(), suffix.size()));
      if (family.ends_with(suffix) && types[base] == "summary") family = base;
    }
    EXPECT_TRUE(helped[family] && !types[family].empty()) << "no HELP or TYPE before " << line;
    if (family != current) {
      EXPECT_EQ(std::count(families_done.begin(), families_done.end(), family), 0) << family << " not together";
      families_done.push_back(current);
      current = family;
    }
    std::string labels = match[2];
    for (std::smatch label; !labels.empty() && std::regex_search(labels, label, kLabel);) {
      EXPECT_EQ(label.position(0), 0) << line;
      sample.labels[label[1]] = label[2];
      labels = label.suffix();
    }
    EXPECT_TRUE(labels.empty()) << "bad labels: " << line;
    std::size_t used = 0;
    EXPECT_NO_THROW((void)std::stod(sample.value, &used)) << line;
    EXPECT_EQ(used, sample.value.size()) << line;
    samples.push_back(std::move(sample));
  }
  return samples;
}

const Sample* find(const std::vector<Sample>& samples, const std::string& name,
                   const std::map<std::string, std::string>& labels = {}) {
  for (const Sample& sample : samples) {
    if (sample.name != name) continue;
    bool all = true;
    for (const auto& [key, value] : labels) {
      const auto found = sample.labels.find(key);
      all = all && found != sample.labels.end() && found->second == value;
    }
    if (all) return &sample;
  }
  return nullptr;
}

class OpenMetricsOutput : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }
};

TEST_F(OpenMetricsOutput, ARunsCountersAndTimesAreInBaseUnits) {
  const Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=4k", "count=100", "--openmetrics=run.prom"});
  ASSERT_STATUS(r, "exit 0");
  const std::string text = read_file("run.prom");
  const std::vector<Sample> samples = parse_text_format(text);
  ASSERT_NE(find(samples, "ddtime_bytes_out_total"), nullptr) << text;
  EXPECT_EQ(find(samples, "ddtime_bytes_out_total")->value, "409600");
  EXPECT_EQ(find(samples, "ddtime_bytes_in_total")->value, "409600");
  EXPECT_EQ(find(samples, "ddtime_records_in_total", {{"kind", "full"}})->value, "100");
  EXPECT_EQ(find(samples, "ddtime_records_out_total", {{"kind", "partial"}})->value, "0");
  EXPECT_NE(find(samples, "ddtime_real_seconds"), nullptr);
  EXPECT_NE(find(samples, "ddtime_user_seconds"), nullptr);
  EXPECT_NE(find(samples, "ddtime_sys_seconds"), nullptr);
  EXPECT_EQ(find(samples, "ddtime_exit_status")->value, "0");
  EXPECT_NE(text.find("# TYPE ddtime_bytes_out_total counter\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE ddtime_real_seconds gauge\n"), std::string::npos);
  // The text on standard error is unchanged by it.
  EXPECT_NE(r.err.find("409600 bytes"), std::string::npos);
}

TEST_F(OpenMetricsOutput, LatencyIsASummaryWithQuantiles) {
  const Result r =
      ddtime({"if=/dev/zero", "of=/dev/null", "bs=4k", "count=2000", "--latency", "--openmetrics=lat.prom"});
  ASSERT_STATUS(r, "exit 0");
  const std::string text = read_file("lat.prom");
  const std::vector<Sample> samples = parse_text_format(text);
  EXPECT_NE(text.find("# TYPE ddtime_latency_seconds summary\n"), std::string::npos) << text;
  EXPECT_NE(find(samples, "ddtime_latency_seconds", {{"side", "read"}, {"quantile", "0.5"}}), nullptr) << text;
  EXPECT_NE(find(samples, "ddtime_latency_seconds", {{"side", "write"}, {"quantile", "0.99"}}), nullptr) << text;
  ASSERT_NE(find(samples, "ddtime_latency_seconds_count", {{"side", "read"}}), nullptr) << text;
  EXPECT_EQ(find(samples, "ddtime_latency_seconds_count", {{"side", "read"}})->value, "2000");
  EXPECT_NE(find(samples, "ddtime_latency_seconds_sum", {{"side", "write"}}), nullptr);
}

TEST_F(OpenMetricsOutput, ASweepsRunsAreLabelledByRowAndRun) {
  const Result r = ddtime(
      {"if=/dev/zero", "of=/dev/null", "--size=1M", "--sweep=bs=4k,64k", "--repeat=2", "--openmetrics=sweep.prom"});
  ASSERT_STATUS(r, "exit 0");
  const std::vector<Sample> samples = parse_text_format(read_file("sweep.prom"));
  ASSERT_NE(find(samples, "ddtime_bytes_out_total", {{"bs", "65536"}, {"run", "2"}}), nullptr);
  EXPECT_EQ(find(samples, "ddtime_bytes_out_total", {{"bs", "65536"}, {"run", "2"}})->value, "1048576");
  EXPECT_EQ(find(samples, "ddtime_bytes_out_total", {{"bs", "4096"}, {"run", "1"}})->value, "1048576");
  EXPECT_EQ(find(samples, "ddtime_bytes_out_total", {{"bs", "4096"}})->labels.at("pass"), "copy");
}

TEST_F(OpenMetricsOutput, AProfileHasAFigurePerTestAndSide) {
  const Result r = ddtime({"of=target", "--profile=diskmark", "--size=1M", "--time=30ms", "--repeat=1", "--warmup=0",
                           "--pause=0", "--openmetrics=profile.prom"});
  ASSERT_STATUS(r, "exit 0");
  const std::vector<Sample> samples = parse_text_format(read_file("profile.prom"));
  EXPECT_NE(find(samples, "ddtime_profile_rate_bytes_per_second", {{"side", "read"}}), nullptr);
  EXPECT_NE(find(samples, "ddtime_profile_iops", {{"side", "write"}}), nullptr);
}

TEST_F(OpenMetricsOutput, APathIsRequiredAndRefusedAsTheOtherReportsAre) {
  std::filesystem::create_directory(path("adir"));
  for (const auto& [option, err] :
       {std::pair{"--openmetrics=adir",
                  "ddtime: --openmetrics: 'adir' is a directory, not a file the report can go to\n"},
        std::pair{"--openmetrics=", "--openmetrics"}, std::pair{"--openmetrics", "--openmetrics"}}) {
    Options o = opts({"if=/dev/zero", "of=out2", "count=1", option});
    o.as_ddtime = true;
    o.locale = Locale::kC;
    const Result r = dd(o);
    EXPECT_STATUS(r, "exit 1");
    EXPECT_NE(r.err.find(err), std::string::npos) << r.err;
    EXPECT_FALSE(exists("out2"));
  }
}

}  // namespace
}  // namespace ddtime::e2e
