// SPDX-License-Identifier: GPL-3.0-or-later
// The "environment" object of every JSON document (issue 22): a run's, a
// session's, a read-back's and a refusal's, each with the machine's name
// as uname gives it, the command line word for word and the date in ISO
// 8601 UTC, which `ddtime --compare` relies on.
#include <sys/utsname.h>

#include <chrono>
#include <ctime>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::JsonError;
using support::parse_json;

class Environment : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
    write_file("in", std::string(64 * 1024, 'e'));
  }

  // The last line of text as JSON (a snapshot may come before it).
  static std::optional<Json> last_document(const std::string& text) {
    const std::vector<std::string> lines = lines_of(text);
    if (lines.empty()) return std::nullopt;
    try {
      return parse_json(lines.back());
    } catch (const JsonError& error) {
      ADD_FAILURE() << error.what() << " in:\n" << text;
      return std::nullopt;
    }
  }

  // What every document's environment holds, whatever the document.
  static void expect_environment(const Json& document, const std::vector<std::string>& args) {
    ASSERT_GE(document.keys().size(), 3u);
    EXPECT_EQ(document.keys()[document.keys()[0] == "schema" ? 3 : 2], "environment") << "right after version";
    const Json& environment = document["environment"];
    struct utsname names {};
    ASSERT_EQ(::uname(&names), 0);
    EXPECT_EQ(environment["host"].string(), names.nodename);
    EXPECT_EQ(environment["kernel"]["name"].string(), names.sysname);
    EXPECT_EQ(environment["kernel"]["release"].string(), names.release);
    EXPECT_EQ(environment["kernel"]["machine"].string(), names.machine);
    EXPECT_GE(environment["cpu"]["logical_cpus"].integer(), 1);
    EXPECT_GT(environment["memory_bytes"].integer(), 0);
    EXPECT_EQ(environment["ddtime_version"].string(), document["version"].string());
    std::vector<std::string> command_line = {"ddtime"};
    command_line.insert(command_line.end(), args.begin(), args.end());
    EXPECT_EQ(environment["command_line"].strings(), command_line);
    expect_recent_utc_date(environment["date"].string());
    EXPECT_EQ(environment["seeds"].keys(), (std::vector<std::string>{"random", "pattern"}));
  }

  static void expect_recent_utc_date(const std::string& date) {
    ASSERT_TRUE(std::regex_match(date, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << date;
    std::tm parts{};
    ASSERT_NE(strptime(date.c_str(), "%Y-%m-%dT%H:%M:%SZ", &parts), nullptr) << date;
    const std::time_t when = timegm(&parts);
    const std::time_t now = std::time(nullptr);
    EXPECT_LE(when, now) << date;
    EXPECT_GE(when, now - 60) << date << ": not when the run started";
  }
};

TEST_F(Environment, ARunsDocumentDescribesTheMachineTheCommandAndTheFiles) {
  const std::vector<std::string> args = {"if=in", "of=out", "bs=4k", "--json"};
  const Result r = ddtime(args);
  ASSERT_STATUS(r, "exit 0");
  const std::optional<Json> document = last_document(r.err);
  ASSERT_TRUE(document);
  expect_environment(*document, args);
  const Json& files = (*document)["environment"]["files"];
  EXPECT_EQ(files["input"]["path"].string(), "in");
  EXPECT_FALSE(files["input"]["filesystem"].string().empty());
  EXPECT_EQ(files["output"]["path"].string(), "out");
  EXPECT_EQ(files["output"]["filesystem"].string(), files["input"]["filesystem"].string());
  EXPECT_TRUE((*document)["environment"]["seeds"]["random"].is_null());
  EXPECT_TRUE((*document)["environment"]["seeds"]["pattern"].is_null());
}

TEST_F(Environment, StandardStreamsAndCharacterDevicesLiveOnNoDisk) {
  const std::vector<std::string> args = {"of=/dev/null", "--json"};
  const Result r = ddtime(args);
  ASSERT_STATUS(r, "exit 0");
  const std::optional<Json> document = last_document(r.err);
  ASSERT_TRUE(document);
  const Json& files = (*document)["environment"]["files"];
  EXPECT_TRUE(files["input"].is_null()) << "standard input";
  EXPECT_EQ(files["output"]["path"].string(), "/dev/null");
  EXPECT_TRUE(files["output"]["filesystem"].is_null());
  EXPECT_TRUE(files["output"]["device"].is_null());
}

TEST_F(Environment, ASessionHasOneAtTheTopWithItsFirstRunsSeeds) {
  const std::vector<std::string> args = {"of=/dev/null",     "bs=4k",      "count=4",
                                         "--pattern=random", "--repeat=2", "--json=session.json"};
  const Result r = ddtime(args);
  ASSERT_STATUS(r, "exit 0");
  const std::optional<Json> document = last_document(read_file("session.json"));
  ASSERT_TRUE(document);
  expect_environment(*document, args);
  const Json& runs = (*document)["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ((*document)["environment"]["seeds"]["pattern"].integer(), runs[0]["seed"].integer());
  EXPECT_NE(runs[0]["seed"].integer(), runs[1]["seed"].integer()) << "each run keeps its own";
  EXPECT_FALSE(runs[0].has("environment"));
}

TEST_F(Environment, ARandomRunsSeedIsTheOrders) {
  const std::vector<std::string> args = {"if=in", "of=out", "bs=4k", "--random=4242", "--json"};
  const Result r = ddtime(args);
  ASSERT_STATUS(r, "exit 0");
  const std::optional<Json> document = last_document(r.err);
  ASSERT_TRUE(document);
  EXPECT_EQ((*document)["environment"]["seeds"]["random"].integer(), 4242);
  EXPECT_EQ((*document)["order_seed"].integer(), 4242);
}

TEST_F(Environment, AReadBackHasOne) {
  const std::vector<std::string> args = {"if=in", "of=out", "bs=16k", "--readback", "--json"};
  const Result r = ddtime(args);
  ASSERT_STATUS(r, "exit 0");
  const std::optional<Json> document = last_document(r.err);
  ASSERT_TRUE(document);
  expect_environment(*document, args);
  EXPECT_EQ((*document)["environment"]["files"]["output"]["path"].string(), "out");
}

TEST_F(Environment, RefusalsHaveOneWhetherTheParserOrTheCheckBeforeTheRunRefused) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"if=in", "of=out", "--bogus", "--json"},  // the parser
                                             {"if=in", "--readback", "--json"}}) {      // resolve: no of= to read back
    const Result r = ddtime(args);
    ASSERT_STATUS(r, "exit 1");
    const std::optional<Json> document = last_document(r.err);
    ASSERT_TRUE(document);
    EXPECT_TRUE((*document)["refused"].boolean()) << r;
    expect_environment(*document, args);
  }
}

// A real block device, through the real sysfs: its own disk, named after
// it, with the logical block size it was given and no file system mounted.
class EnvironmentOnLoop : public LoopDevice {
 protected:
  EnvironmentOnLoop() : LoopDevice(4096, 64 * 1024) {}
};

TEST_F(EnvironmentOnLoop, ABlockDeviceIsDescribedFromSysfs) {
  SKIP_IF_ANOTHER_DD();
  const Result r = ddtime({"if=" + device_, "of=/dev/null", "bs=4k", "--json"});
  ASSERT_STATUS(r, "exit 0");
  const Json document = parse_json(lines_of(r.err).back());
  const Json& input = document["environment"]["files"]["input"];
  EXPECT_EQ(input["path"].string(), device_);
  EXPECT_TRUE(input["filesystem"].is_null()) << "nothing is mounted from it";
  const Json& device = input["device"];
  EXPECT_EQ(device["name"].string(), device_.substr(std::string("/dev/").size()));
  EXPECT_EQ(device["logical_block_size"].integer(), 4096);
  EXPECT_TRUE(device["rotational"].kind() == Json::Kind::kBool) << r.err;
  EXPECT_TRUE(device["model"].is_null()) << "a loop device has no device/model";
}

}  // namespace
}  // namespace ddtime::e2e
