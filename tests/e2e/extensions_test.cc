// SPDX-License-Identifier: GPL-3.0-or-later
// ddtime's extensions end to end (issue 3): the timing report after GNU's
// lines when invoked as ddtime, --gnu, --units, --split-times, the
// copy/flush split under conv=fsync/fdatasync, --json to stderr and to a
// file, --progress lines when stderr is not a terminal, and the report on
// SIGUSR1 and SIGINT.
//
// GNU dd has none of this, so every test here skips when DDTIME_E2E_DD
// names another dd. Timing figures are checked for shape and for agreement
// with each other and with the wall clock the test measures, never for
// speed.

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::JsonError;
using support::parse_json;

// ---- reading the text ----

double seconds_of(const std::string& text) { return std::strtod(text.c_str(), nullptr); }

// GNU's bytes line: "N bytes (SI, IEC) copied, S s, RATE" (the sizes are
// left out below 1000 bytes, and S may be written like 7.4111e-05).
struct BytesLine {
  std::int64_t bytes = 0;
  double seconds = 0;
  std::string rate;
};

std::optional<BytesLine> parse_bytes_line(const std::string& line) {
  static const std::regex kLine(R"(^(\d+) bytes (?:\([^)]*\) )?copied, ([0-9.e+-]+) s, (.+)$)");
  std::smatch m;
  if (!std::regex_match(line, m, kLine)) return std::nullopt;
  return BytesLine{std::stoll(m[1]), seconds_of(m[2]), m[3]};
}

// "PROG: real R s[ (copy C s + CALL F s)]  user U s  sys S s  cpu P%".
struct RealLine {
  double real = 0;
  std::optional<double> copy;
  std::string flush_call;
  double flush = 0;
  double user = 0;
  double sys = 0;
  double cpu = 0;
};

std::optional<RealLine> parse_real_line(const std::string& program, const std::string& line) {
  const std::string d = "(" + kDuration + ")";
  const std::regex shape("^" + program + ": real " + d + "(?: \\(copy " + d +
                         R"( \+ (fdatasync|fsync|fdatasync\+fsync) )" + d + R"(\))?  user )" + d + "  sys " + d +
                         R"(  cpu (\d+\.\d)%$)");
  std::smatch m;
  if (!std::regex_match(line, m, shape)) return std::nullopt;
  RealLine r;
  r.real = duration_seconds(m[1]);
  if (m[2].matched) {
    r.copy = duration_seconds(m[2]);
    r.flush_call = m[3];
    r.flush = duration_seconds(m[4]);
  }
  r.user = duration_seconds(m[5]);
  r.sys = duration_seconds(m[6]);
  r.cpu = seconds_of(m[7]);
  return r;
}

// GNU's SI and IEC rates: "6.8 GB/s", "969 MB/s", "0.0 kB/s", "999 B/s".
const std::string kSiRate = R"((?:\d+(?:\.\d)? [kMGTPEZYRQ]B/s|\d+ B/s))";
const std::string kIecRate = R"((?:\d+(?:\.\d)? [KMGTPEZYRQ]iB/s|\d+ B/s))";

// "; N records/s (T each)".
struct RecordsPart {
  std::int64_t per_second = 0;
  double each_seconds = 0;
};

std::optional<RecordsPart> parse_records_part(const std::string& text) {
  static const std::regex kPart(R"(^; (\d+) records?/s \((\d+(?:\.\d+)?) (ns|us|ms|s) each\)$)");
  std::smatch m;
  if (!std::regex_match(text, m, kPart)) return std::nullopt;
  const std::string unit = m[3];
  const double scale = unit == "ns" ? 1e-9 : unit == "us" ? 1e-6 : unit == "ms" ? 1e-3 : 1.0;
  return RecordsPart{std::stoll(m[1]), seconds_of(m[2]) * scale};
}

// |a - b| within `absolute` or `relative` of b, whichever is larger.
::testing::AssertionResult near(double a, double b, double absolute, double relative) {
  const double allowed = std::max(absolute, std::abs(b) * relative);
  if (std::abs(a - b) <= allowed) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " and " << b << " differ by more than " << allowed;
}

// Parses text that must hold exactly one JSON value, failing the test
// otherwise.
std::optional<Json> json_or_fail(const std::string& text) {
  try {
    return parse_json(text);
  } catch (const JsonError& error) {
    ADD_FAILURE() << error.what() << " in:\n" << text;
    return std::nullopt;
  }
}

const std::vector<std::string> kTopLevelKeys = {
    "tool",     "version",   "environment", "complete", "operands",    "records_in", "records_out", "truncated_records",
    "bytes_in", "bytes_out", "times",       "rates",    "exit_status", "signal",     "errors"};

// ---- the strict JSON reader the tests rely on ----

TEST(JsonReader, AcceptsEveryKindOfValue) {
  Json v =
      parse_json(" {\"a\":[1,-0.5e+2,true,false,null],\"b\":\"x\\\"\\\\\\/\\n\\u00ff\\ud83d\\ude00\",\"c\":{}} \n");
  EXPECT_EQ(v.keys(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(v["a"][0].integer(), 1);
  EXPECT_EQ(v["a"][1].number(), -50.0);
  EXPECT_EQ(v["a"][1].literal(), "-0.5e+2");
  EXPECT_TRUE(v["a"][2].boolean());
  EXPECT_TRUE(v["a"][4].is_null());
  EXPECT_EQ(v["b"].string(), "x\"\\/\n\xc3\xbf\xf0\x9f\x98\x80");
  EXPECT_TRUE(v["c"].keys().empty());
}

TEST(JsonReader, RejectsWhatRfc8259Rejects) {
  for (const char* bad :
       {"",    "{} {}", "{\"a\":1,}",    "[1,]",      "{'a':1}",     "01",       "1.",           ".5",
        "+1",  "-",     "\"tab\there\"", "\"\\x41\"", "\"\\ud800\"", "\"\xff\"", "\"\xc0\xaf\"", "{\"a\":1,\"a\":2}",
        "nul", "[1 2]", "{\"a\" 1}",     "NaN",       "\"open"}) {
    EXPECT_THROW(parse_json(bad), JsonError) << bad;
  }
}

// ---- the timing report ----

class TimingReport : public DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    SKIP_IF_ANOTHER_DD();
  }

  // A copy long enough (tens of ms) for the figures to mean something.
  static std::vector<std::string> busy_copy() { return {"if=/dev/zero", "of=/dev/null", "bs=64K", "count=2000"}; }
  static constexpr std::int64_t kBusyBytes = 2000 * 65536;
  static constexpr const char* kBusyGnuLines =
      "2000+0 records in\n2000+0 records out\n"
      "131072000 bytes (131 MB, 125 MiB) copied, <T> s, <R>\n";
};

TEST_F(TimingReport, ComesBeforeGnuLinesWhenInvokedAsDdtime) {
  const auto before = std::chrono::steady_clock::now();
  Result r = ddtime(busy_copy());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "");
  ASSERT_TRUE(r.err.ends_with("\n")) << r;
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 5u) << r;
  EXPECT_EQ(mask_timing(lines[2] + "\n" + lines[3] + "\n" + lines[4] + "\n"), kBusyGnuLines);

  const auto gnu = parse_bytes_line(lines[4]);
  ASSERT_TRUE(gnu) << lines[4];
  const auto real = parse_real_line("ddtime", lines[0]);
  ASSERT_TRUE(real) << lines[0];
  EXPECT_FALSE(real->copy) << "no flush was asked for: " << lines[0];

  // One clock, one window: the report's real is GNU's seconds.
  EXPECT_TRUE(near(real->real, gnu->seconds, 0.001, 0.02)) << lines[4] << "\n" << lines[0];
  EXPECT_GT(real->real, 0);
  EXPECT_LE(real->real, wall + 0.0001) << "the test measured " << wall << " s around the child";
  EXPECT_LE(real->user + real->sys, wall + 0.02);
  if (real->real >= 0.005) {
    // cpu comes from exact figures; the printed ones are rounded to 0.1 ms.
    const double cpu = (real->user + real->sys) / real->real * 100;
    const double slack = 0.0001 / real->real * 100 + cpu * 0.00005 / real->real + 0.1;
    EXPECT_TRUE(near(real->cpu, cpu, slack, 0)) << lines[0];
  }

  // GNU's SI rate is not repeated: a script's grep for one finds one.
  const std::regex rate_shape("^ddtime: (" + kIecRate + R"() = (\d+) B/s(.*)$)");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(lines[1], m, rate_shape)) << lines[1];
  const double bytes_per_second = seconds_of(m[2]);
  EXPECT_TRUE(near(bytes_per_second * gnu->seconds, static_cast<double>(kBusyBytes), 0, 0.02));
  const auto records = parse_records_part(m[3]);
  ASSERT_TRUE(records) << lines[1];
  EXPECT_TRUE(near(static_cast<double>(records->per_second) * gnu->seconds, 2000, 1, 0.02)) << lines[1];
  EXPECT_TRUE(near(records->each_seconds * 2000, gnu->seconds, 0, 0.02)) << lines[1];
}

TEST_F(TimingReport, GnuOptionPrintsExactlyGnuLines) {
  std::vector<std::string> args = busy_copy();
  args.push_back("--gnu");
  Result r = ddtime(args);
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), kBusyGnuLines);
}

TEST_F(TimingReport, InvokedAsDdPrintsNoReport) {
  Result r = dd(busy_copy());
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), kBusyGnuLines);
}

TEST_F(TimingReport, UnitsOptionTurnsTheReportOnWhenInvokedAsDd) {
  Result r = dd({"if=/dev/zero", "of=/dev/null", "bs=64K", "count=16", "--units=iec"});
  ASSERT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 5u) << r;
  EXPECT_EQ(mask_timing(lines[4]), "1048576 bytes (1.0 MB, 1.0 MiB) copied, <T> s, <R>");
  EXPECT_TRUE(parse_real_line("dd", lines[0])) << lines[0];
  EXPECT_TRUE(std::regex_match(lines[1], std::regex("^dd: " + kIecRate + R"(; \d+ records?/s \(.* each\)$)")))
      << lines[1];
}

TEST_F(TimingReport, StatusNoneSilencesTheReport) {
  Result r = ddtime({"if=/dev/zero", "of=/dev/null", "count=4", "status=none"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err, "");
}

TEST_F(TimingReport, UnknownUnitsAreRejectedWithTheValidOnes) {
  Result r = ddtime({"--units=kb", "if=/dev/zero", "of=/dev/null", "count=1"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: invalid argument \xe2\x80\x98kb\xe2\x80\x99 for \xe2\x80\x98--units\xe2\x80\x99\n"
            "Valid arguments are: si, iec, both, bytes, all\n"
            "Try 'ddtime --help' for more information.\n");
}

struct UnitsCase {
  std::string name;
  std::vector<std::string> flag;  // empty: the default
  std::string rate_shape;         // before "; N records/s (T each)"
  bool si_first;                  // starts with GNU's own (SI) rate
};

class RateUnits : public TimingReport, public ::testing::WithParamInterface<UnitsCase> {};

TEST_P(RateUnits, ShapeTheRateLine) {
  std::vector<std::string> args{"if=/dev/zero", "of=/dev/null", "bs=64K", "count=64"};
  args.insert(args.end(), GetParam().flag.begin(), GetParam().flag.end());
  Result r = ddtime(args);
  ASSERT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 5u) << r;
  const std::regex shape("^ddtime: " + GetParam().rate_shape +
                         R"((; \d+ records?/s \(\d+(\.\d+)? (ns|us|ms|s) each\))$)");
  EXPECT_TRUE(std::regex_match(lines[1], shape)) << lines[1];
  if (GetParam().si_first) {
    // The SI figure, where shown, is GNU's own rate.
    const auto gnu = parse_bytes_line(lines[4]);
    ASSERT_TRUE(gnu);
    EXPECT_TRUE(lines[1].starts_with("ddtime: " + gnu->rate)) << lines[4] << "\n" << lines[1];
  }
}

INSTANTIATE_TEST_SUITE_P(
    TimingReport, RateUnits,
    ::testing::Values(UnitsCase{"DefaultShowsIecAndBytes", {}, kIecRate + R"( = \d+ B/s)", false},
                      UnitsCase{
                          "AllShowsSiIecAndBytes", {"--units=all"}, kSiRate + " = " + kIecRate + R"( = \d+ B/s)", true},
                      UnitsCase{"SiShowsOnlySi", {"--units=si"}, kSiRate, true},
                      UnitsCase{"IecShowsOnlyIec", {"--units=iec"}, kIecRate, false},
                      UnitsCase{"BothShowsSiAndIec", {"--units=both"}, kSiRate + " = " + kIecRate, true},
                      UnitsCase{"BytesShowsOnlyBytes", {"--units=bytes"}, R"(\d+ B/s)", false}),
    ParamName());

TEST_F(TimingReport, SplitTimesAddsReadAndWriteWithinReal) {
  std::vector<std::string> args = busy_copy();
  args.push_back("--split-times");
  Result r = ddtime(args);
  ASSERT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 6u) << r;
  const auto real = parse_real_line("ddtime", lines[0]);
  ASSERT_TRUE(real) << lines[0];
  std::smatch m;
  ASSERT_TRUE(std::regex_match(lines[1], m,
                               std::regex("^ddtime: read (" + kDuration + R"() \((\d+\.\d)%\)  write ()" + kDuration +
                                          R"() \((\d+\.\d)%\)  other ()" + kDuration + ")$")))
      << lines[1];
  const double read = duration_seconds(m[1]);
  const double write = duration_seconds(m[3]);
  const double other = duration_seconds(m[5]);
  EXPECT_LE(read + write, real->real + 0.0002) << lines[1];
  EXPECT_TRUE(near(read + write + other, real->real, 0.0003, 0)) << lines[0] << "\n" << lines[1];
  // Reading /dev/zero (the kernel clears 64 KiB) is the busy side.
  EXPECT_GT(read, 0) << lines[1];
  if (real->real >= 0.005) {
    const double percent = read / real->real * 100;
    const double slack = 0.00005 / real->real * 100 + percent * 0.00005 / real->real + 0.1;
    EXPECT_TRUE(near(seconds_of(m[2]), percent, slack, 0)) << lines[1];
  }
  EXPECT_TRUE(lines[2].starts_with("ddtime: ") && lines[2].find(" B/s") != std::string::npos) << lines[2];
}

struct FlushCase {
  std::string name;
  std::string conv;
  std::string call;
  std::string durability;
};

class FlushSplit : public TimingReport, public ::testing::WithParamInterface<FlushCase> {};

TEST_P(FlushSplit, SplitsRealIntoCopyAndFlush) {
  const auto before = std::chrono::steady_clock::now();
  Result r = ddtime({"if=/dev/zero", "of=out.bin", "bs=64K", "count=16", "conv=" + GetParam().conv});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out.bin"), std::string(1048576, '\0'));
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 6u) << r;
  EXPECT_EQ(mask_timing(lines[5]), "1048576 bytes (1.0 MB, 1.0 MiB) copied, <T> s, <R>");
  const auto real = parse_real_line("ddtime", lines[0]);
  ASSERT_TRUE(real) << lines[0];
  ASSERT_TRUE(real->copy) << "no copy/flush split: " << lines[0];
  EXPECT_EQ(real->flush_call, GetParam().call);
  EXPECT_TRUE(near(*real->copy + real->flush, real->real, 0.001, 0.05)) << lines[0];
  EXPECT_LE(real->real, wall + 0.0001);
  const auto gnu = parse_bytes_line(lines[5]);
  ASSERT_TRUE(gnu);
  EXPECT_TRUE(near(real->real, gnu->seconds, 0.001, 0.02)) << "GNU's seconds include the flush";
  EXPECT_EQ(lines[2], "ddtime: durability: " + GetParam().durability);
}

INSTANTIATE_TEST_SUITE_P(
    TimingReport, FlushSplit,
    ::testing::Values(FlushCase{"Fdatasync", "fdatasync", "fdatasync",
                                "conv=fdatasync; data flushed to the device once, at the end; "
                                "rates shown before the flush overstate sustained speed"},
                      FlushCase{"Fsync", "fsync", "fsync",
                                "conv=fsync; data and metadata flushed to the device once, at the end; "
                                "rates shown before the flush overstate sustained speed"},
                      FlushCase{"Both", "fsync,fdatasync", "fdatasync+fsync",
                                "conv=fdatasync,fsync; data and metadata flushed to the device once, at the "
                                "end; rates shown before the flush overstate sustained speed"}),
    ParamName());

// Per-write sync leaves nothing to flush at the end: no split, but the mode
// is still named.
TEST_F(TimingReport, OflagDsyncNamesTheModeWithoutASplit) {
  Result r = ddtime({"if=/dev/zero", "of=out.bin", "bs=64K", "count=4", "oflag=dsync"});
  ASSERT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 6u) << r;
  const auto real = parse_real_line("ddtime", lines[0]);
  ASSERT_TRUE(real) << lines[0];
  EXPECT_FALSE(real->copy) << lines[0];
  EXPECT_EQ(lines[2], "ddtime: durability: oflag=dsync; every write waited for the device");
}

// ---- --json ----

class JsonOutput : public TimingReport {};

TEST_F(JsonOutput, ReplacesStderrWithOneObjectHoldingTheRun) {
  std::string input(10000, '\0');
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<char>('a' + i % 26);
  write_file("in.bin", input);
  const auto before = std::chrono::steady_clock::now();
  Result r = ddtime({"--json", "if=in.bin", "of=out.bin", "ibs=4096", "obs=1000", "count=3", "conv=fsync,notrunc"});
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_file("out.bin"), input);
  ASSERT_TRUE(r.err.ends_with("}\n")) << r;
  ASSERT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r;
  const auto json = json_or_fail(r.err);
  ASSERT_TRUE(json);
  const Json& j = *json;
  EXPECT_EQ(j.keys(), kTopLevelKeys);
  EXPECT_EQ(j["tool"].string(), "ddtime");
  EXPECT_FALSE(j["version"].string().empty());
  EXPECT_TRUE(j["complete"].boolean());

  const Json& operands = j["operands"];
  EXPECT_EQ(operands.keys(), (std::vector<std::string>{"if", "of", "ibs", "obs", "cbs", "skip", "seek", "count", "conv",
                                                       "iflag", "oflag", "status"}));
  EXPECT_EQ(operands["if"].string(), "in.bin");
  EXPECT_EQ(operands["of"].string(), "out.bin");
  EXPECT_EQ(operands["ibs"].integer(), 4096);
  EXPECT_EQ(operands["obs"].integer(), 1000);
  EXPECT_EQ(operands["cbs"].integer(), 0);
  EXPECT_EQ(operands["skip"]["records"].integer(), 0);
  EXPECT_EQ(operands["seek"]["bytes"].integer(), 0);
  EXPECT_EQ(operands["count"]["records"].integer(), 3);
  EXPECT_EQ(operands["count"]["bytes"].integer(), 0);
  // Declaration order, not command-line order.
  EXPECT_EQ(operands["conv"].strings(), (std::vector<std::string>{"notrunc", "fsync"}));
  EXPECT_EQ(operands["iflag"].size(), 0u);
  EXPECT_EQ(operands["oflag"].size(), 0u);
  EXPECT_EQ(operands["status"].string(), "default");

  // 4096 + 4096 + 1808 read; 1000-byte blocks written.
  EXPECT_EQ(j["records_in"]["full"].integer(), 2);
  EXPECT_EQ(j["records_in"]["partial"].integer(), 1);
  EXPECT_EQ(j["records_out"]["full"].integer(), 10);
  EXPECT_EQ(j["records_out"]["partial"].integer(), 0);
  EXPECT_EQ(j["truncated_records"].integer(), 0);
  EXPECT_EQ(j["bytes_in"].integer(), 10000);
  EXPECT_EQ(j["bytes_out"].integer(), 10000);

  const Json& times = j["times"];
  EXPECT_EQ(times.keys(), (std::vector<std::string>{"real", "copy", "flush", "read", "write", "user", "sys"}));
  for (const char* key : {"real", "copy", "flush", "user", "sys"}) {
    // Exact seconds from nanoseconds, without the fraction's trailing
    // zeros (issue 28, B5): at most nine decimals, never an exponent.
    EXPECT_TRUE(std::regex_match(times[key].literal(), std::regex(R"(\d+(\.\d{0,8}[1-9])?)"))) << key << ": " << r.err;
  }
  const double real = times["real"].number();
  EXPECT_GT(real, 0);
  EXPECT_LE(real, wall);
  EXPECT_GT(times["flush"].number(), 0) << "conv=fsync was timed";
  // Copy and flush lie inside the window; closing the files and printing
  // take the rest, which a loaded machine can stretch.
  EXPECT_GT(times["copy"].number(), 0);
  EXPECT_LE(times["copy"].number() + times["flush"].number(), real);
  EXPECT_TRUE(times["read"].is_null());
  EXPECT_TRUE(times["write"].is_null());

  EXPECT_TRUE(near(j["rates"]["bytes_per_second"].number(), 10000 / real, 0.001, 0.001));
  EXPECT_TRUE(near(j["rates"]["records_per_second"].number(), 3 / real, 0.001, 0.001));
  EXPECT_EQ(j["exit_status"].integer(), 0);
  EXPECT_TRUE(j["signal"].is_null());
  EXPECT_EQ(j["errors"].size(), 0u);
}

TEST_F(JsonOutput, StandardStreamsAreNull) {
  Options o = opts({"bs=2", "--json"});
  o.as_ddtime = true;
  o.in = Stdin::pipe("hello");
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "hello");
  const auto json = json_or_fail(r.err);
  ASSERT_TRUE(json);
  EXPECT_TRUE((*json)["operands"]["if"].is_null());
  EXPECT_TRUE((*json)["operands"]["of"].is_null());
  EXPECT_TRUE((*json)["operands"]["count"]["records"].is_null());
  EXPECT_EQ((*json)["records_in"]["full"].integer(), 2);
  EXPECT_EQ((*json)["records_in"]["partial"].integer(), 1);
}

TEST_F(JsonOutput, ReadErrorGoesToErrorsWithExitStatus1) {
  std::filesystem::create_directory(path("sub"));
  Result r = ddtime({"if=sub", "of=out.bin", "--json"});
  EXPECT_STATUS(r, "exit 1");
  ASSERT_EQ(r.err.find('\n'), r.err.size() - 1) << "not exactly one line: " << r;
  const auto json = json_or_fail(r.err);
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["errors"].strings(), (std::vector<std::string>{"error reading 'sub': Is a directory"}));
  EXPECT_EQ((*json)["exit_status"].integer(), 1);
  EXPECT_TRUE((*json)["complete"].boolean());
  EXPECT_EQ((*json)["records_in"]["full"].integer(), 0);
  EXPECT_EQ((*json)["records_in"]["partial"].integer(), 0);
  EXPECT_EQ((*json)["bytes_out"].integer(), 0);
  EXPECT_GT((*json)["times"]["real"].number(), 0);
}

TEST_F(JsonOutput, FailureToOpenStillGivesOneObject) {
  Result r = ddtime({"if=missing.bin", "of=out.bin", "--json"});
  EXPECT_STATUS(r, "exit 1");
  ASSERT_EQ(r.err.find('\n'), r.err.size() - 1) << "not exactly one line: " << r;
  const auto json = json_or_fail(r.err);
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["errors"].strings(),
            (std::vector<std::string>{"failed to open 'missing.bin': No such file or directory"}));
  EXPECT_EQ((*json)["exit_status"].integer(), 1);
  EXPECT_EQ((*json)["bytes_out"].integer(), 0);
}

TEST_F(JsonOutput, FailureToOpenWithAPathWritesTheFileAndTheMessage) {
  Result r = ddtime({"if=/dev/zero", "of=/dev/null", "iflag=direct", "--json=run.json"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: failed to open '/dev/zero': Invalid argument\n");
  const auto json = json_or_fail(read_file("run.json"));
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["errors"].strings(), (std::vector<std::string>{"failed to open '/dev/zero': Invalid argument"}));
  EXPECT_EQ((*json)["exit_status"].integer(), 1);
}

TEST_F(JsonOutput, FileNamesAreEscaped) {
  write_file("in.bin", "xyz");
  Result r = ddtime({"if=in.bin", "of=a\"b\\c\xff", "--json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find(R"("of":"a\"b\\c\ufffd","of_hex":"6122625c63ff")"), std::string::npos) << r;
  const auto json = json_or_fail(r.err);
  ASSERT_TRUE(json);
  // Defect 32: a byte that is not UTF-8 reads back as U+FFFD, not as a
  // Latin-1 character naming another file; the name's bytes are in hex.
  EXPECT_EQ((*json)["operands"]["of"].string(), "a\"b\\c\xef\xbf\xbd");
  EXPECT_EQ((*json)["operands"]["of_hex"].string(), "6122625c63ff");
  EXPECT_FALSE((*json)["operands"].has("if_hex")) << "only a name that is not UTF-8 has one";
}

TEST_F(JsonOutput, SplitTimesFillsReadAndWrite) {
  Result r = ddtime({"if=/dev/zero", "of=/dev/null", "bs=64K", "count=200", "--json", "--split-times"});
  ASSERT_STATUS(r, "exit 0");
  const auto json = json_or_fail(r.err);
  ASSERT_TRUE(json);
  const Json& times = (*json)["times"];
  ASSERT_TRUE(times["read"].is_number()) << r.err;
  ASSERT_TRUE(times["write"].is_number()) << r.err;
  EXPECT_LE(times["read"].number() + times["write"].number(), times["real"].number());
}

TEST_F(JsonOutput, PathGetsTheObjectWhileStderrKeepsTheText) {
  write_file("in.bin", std::string(3000, 'x'));
  Result r = ddtime({"if=in.bin", "of=out.bin", "bs=1000", "--json=run.json"});
  ASSERT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 5u) << r;
  EXPECT_EQ(mask_timing(lines[2] + "\n" + lines[3] + "\n" + lines[4] + "\n"),
            "3+0 records in\n3+0 records out\n3000 bytes (3.0 kB, 2.9 KiB) copied, <T> s, <R>\n");
  EXPECT_TRUE(parse_real_line("ddtime", lines[0])) << lines[0];
  const std::string text = read_file("run.json");
  ASSERT_TRUE(text.ends_with("}\n")) << text;
  EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
  const auto json = json_or_fail(text);
  ASSERT_TRUE(json);
  EXPECT_EQ(json->keys(), kTopLevelKeys);
  EXPECT_EQ((*json)["records_out"]["full"].integer(), 3);
  EXPECT_EQ((*json)["bytes_out"].integer(), 3000);
  EXPECT_EQ((*json)["exit_status"].integer(), 0);
}

TEST_F(JsonOutput, PathAsDdLeavesStderrAsGnus) {
  write_file("in.bin", std::string(3000, 'x'));
  Result r = dd({"if=in.bin", "of=out.bin", "bs=1000", "--json=run.json"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "3+0 records in\n3+0 records out\n3000 bytes (3.0 kB, 2.9 KiB) copied, <T> s, <R>\n");
  const auto json = json_or_fail(read_file("run.json"));
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["bytes_in"].integer(), 3000);
}

// Defect 17: a report path that cannot be opened is found before any I/O,
// not after an hour-long copy, and the message does not follow GNU's
// summary.
TEST_F(JsonOutput, AnUnusablePathIsRefusedBeforeTheCopy) {
  write_file("in", "abc");
  std::filesystem::create_directory(path("adir"));
  const struct {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"--json=nodir/run.json"}, "ddtime: --json: cannot open 'nodir/run.json': No such file or directory\n"},
      {{"--csv=adir"}, "ddtime: --csv: 'adir' is a directory, not a file the report can go to\n"},
      {{"--json=adir"}, "ddtime: --json: 'adir' is a directory, not a file the report can go to\n"},
      {{"--json=/dev/full/x"}, "ddtime: --json: cannot open '/dev/full/x': Not a directory\n"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"if=in", "of=out"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Options o = opts(args);
    o.as_ddtime = true;
    o.locale = Locale::kC;
    const Result r = dd(o);
    EXPECT_STATUS(r, "exit 1");
    EXPECT_EQ(r.err, c.err);
    EXPECT_FALSE(exists("out")) << "nothing was opened for writing";
    EXPECT_FALSE(exists("nodir"));
  }
}

// Defect 3: a report naming a data file would overwrite it after the copy.
TEST_F(JsonOutput, APathThatIsADataFileIsRefusedAndNothingChanges) {
  write_file("in1", "input bytes");
  write_file("out1", "old output");
  const struct {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"of=out1", "--json=out1"},
       "ddtime: --json and of= name the same file 'out1': the report would overwrite the copy\n"},
      {{"of=out2", "--json=in1"},
       "ddtime: --json and if= name the same file 'in1': the report would overwrite the input\n"},
      {{"of=out2", "--csv=./in1", "--repeat=2"},
       "ddtime: --csv and if= name the same file './in1': the report would overwrite the input\n"},
      {{"of=new", "--json=./new"},
       "ddtime: --json and of= name the same file './new': the report would overwrite the copy\n"},
      {{"of=/dev/null", "--json=same", "--csv=same"},
       "ddtime: --json and --csv name the same file 'same': one report would overwrite the other\n"},
      {{"of=out1", "--svg=out1"},
       "ddtime: --svg and of= name the same file 'out1': the report would overwrite the copy\n"},
      {{"of=out2", "--svg=./in1"},
       "ddtime: --svg and if= name the same file './in1': the report would overwrite the input\n"},
      {{"of=out2", "--json=same", "--svg=same"},
       "ddtime: --json and --svg name the same file 'same': one report would overwrite the other\n"},
      {{"of=out2", "--csv=same", "--svg=same"},
       "ddtime: --csv and --svg name the same file 'same': one report would overwrite the other\n"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"if=in1", "bs=4k"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Options o = opts(args);
    o.as_ddtime = true;
    o.locale = Locale::kC;
    const Result r = dd(o);
    EXPECT_STATUS(r, "exit 1");
    EXPECT_EQ(r.err, c.err);
    EXPECT_EQ(read_file("in1"), "input bytes");
    EXPECT_EQ(read_file("out1"), "old output");
    EXPECT_FALSE(exists("out2"));
    EXPECT_FALSE(exists("new"));
    EXPECT_FALSE(exists("same"));
  }
}

// Rule 2: the report files are opened (created) before the copy, so a
// reader sees them from the start, and are emptied as of= is.
TEST_F(JsonOutput, AReportFileIsCreatedBeforeTheCopyAndEmptiedLikeOf) {
  write_file("report.json", std::string(10000, 'x'));
  Result r = ddtime({"if=/dev/zero", "of=/dev/null", "count=2", "--json=report.json"});
  ASSERT_STATUS(r, "exit 0");
  const std::string json = read_file("report.json");
  EXPECT_LT(json.size(), 5000u) << "emptied, then the document alone";
  EXPECT_EQ(json.find("xxx"), std::string::npos) << json;
  EXPECT_TRUE(json_or_fail(json));
}

// ---- --progress ----

class Progress : public TimingReport {
 protected:
  // The --progress lines at the start of stderr, before the report and
  // GNU's summary.
  static std::vector<std::string> progress_lines(const std::string& err) {
    std::vector<std::string> out;
    for (const std::string& line : lines_of(err)) {
      if (line.starts_with("ddtime: real ")) break;
      out.push_back(line);
    }
    return out;
  }
};

TEST_F(Progress, UnknownTotalPrintsSoFarLines) {
  Options o = opts({"bs=1000", "of=/dev/null", "--progress"});
  o.as_ddtime = true;
  // Three reads over 1.1 s: the check before the fourth read is past the
  // first second.
  o.in = Stdin::timed_chunks(
      {{std::string(1000, 'a'), 550ms}, {std::string(1000, 'b'), 550ms}, {std::string(1000, 'c'), 0ms}});
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "stderr is not a terminal: " << r;
  const std::vector<std::string> progress = progress_lines(r.err);
  ASSERT_GE(progress.size(), 1u) << r;
  for (const std::string& line : progress) {
    EXPECT_TRUE(std::regex_match(line, std::regex(R"(^ddtime: (\d+ B|\d+(\.\d)? KiB) so far, )" + kIecRate + "$")))
        << line;
  }
  EXPECT_EQ(progress.back().substr(0, 24), "ddtime: 2.9 KiB so far, ");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), progress.size() + 5) << r;
  EXPECT_EQ(lines[progress.size() + 2], "3+0 records in");
}

TEST_F(Progress, CountGivesAPercentageThatReaches100) {
  Options o = opts({"bs=1000", "count=3", "of=/dev/null", "--progress"});
  o.as_ddtime = true;
  // After the third record the loop checks the clock once more before
  // stopping at count=3: 3000 of 3000 bytes.
  o.in = Stdin::timed_chunks(
      {{std::string(1000, 'a'), 550ms}, {std::string(1000, 'b'), 550ms}, {std::string(1000, 'c'), 0ms}});
  Result r = dd(o);
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r;
  const std::vector<std::string> progress = progress_lines(r.err);
  ASSERT_GE(progress.size(), 1u) << r;
  EXPECT_TRUE(std::regex_match(progress.back(),
                               std::regex("^ddtime: 2.9 KiB of 2.9 KiB \\(100%\\), " + kIecRate + ", ETA 0:00:00$")))
      << progress.back();
}

TEST_F(Progress, FileSizeGivesAPercentage) {
  std::string input(16 * 4096, '\0');
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<char>(i * 7 % 251);
  write_file("in.bin", input);
  // 16 blocks through a one-block pipe emptied every 100 ms: about 1.5 s.
  SlowFifo fifo(path("slow"), 4096, 100ms);
  Options o = opts({"if=in.bin", "of=slow", "bs=4096", "--progress"});
  o.as_ddtime = true;
  o.timeout = 10000ms;
  Result r = dd(o);
  const std::string copied = fifo.finish();
  ASSERT_STATUS(r, "exit 0");
  EXPECT_EQ(copied, input);
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r;
  const std::vector<std::string> progress = progress_lines(r.err);
  ASSERT_GE(progress.size(), 1u) << r;
  int last_percent = -1;
  for (const std::string& line : progress) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m,
                                 std::regex(R"(^ddtime: \d+(?:\.\d)? KiB of 64 KiB \((\d+)%\), )" + kIecRate +
                                            R"(, ETA (\d+:\d\d:\d\d|-:--:--)$)")))
        << line;
    const int percent = std::stoi(m[1]);
    EXPECT_GE(percent, last_percent);
    EXPECT_LE(percent, 100);
    last_percent = percent;
  }
  EXPECT_EQ(report_lines(r.err)[progress.size() + 2], "16+0 records in");
}

// ---- signals ----

class ReportOnSignal : public TimingReport {
 protected:
  Options copier(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args{"bs=1"};
    args.insert(args.end(), extra.begin(), extra.end());
    Options o = opts(args);
    o.as_ddtime = true;
    o.in = Stdin::manual();
    o.timeout = 10000ms;
    return o;
  }

  [[nodiscard]] static ::testing::AssertionResult feed(DdProcess& p, std::string_view bytes,
                                                       std::string_view out_so_far) {
    p.write_stdin(bytes);
    if (p.wait_for_stdout([&](const std::string& out) { return out == out_so_far; })) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no copy; stdout \"" << p.stdout_so_far() << "\", stderr \""
                                         << p.stderr_so_far() << "\"";
  }

  // The report's two lines, then GNU's three for `n` one-byte records.
  static void expect_report(const std::vector<std::string>& lines, std::size_t at, int n) {
    ASSERT_GE(lines.size(), at + 5);
    EXPECT_TRUE(parse_real_line("ddtime", lines[at])) << lines[at];
    EXPECT_TRUE(std::regex_match(lines[at + 1], std::regex(R"(^ddtime: .* B/s; \d+ records?/s \(.* each\)$)")))
        << lines[at + 1];
    EXPECT_EQ(lines[at + 2], std::to_string(n) + "+0 records in");
    EXPECT_EQ(lines[at + 3], std::to_string(n) + "+0 records out");
    EXPECT_EQ(mask_timing(lines[at + 4]), std::to_string(n) + " bytes copied, <T> s, <R>");
  }

  // GNU's bytes line, which now ends the report, ends with its rate.
  static bool ends_with_summary(const std::string& text) { return text.ends_with("B/s\n"); }
};

TEST_F(ReportOnSignal, Usr1PrintsTheReportThenGnuLinesAndContinues) {
  DdProcess p(copier());
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGUSR1);
  ASSERT_TRUE(p.wait_for_stderr(ends_with_summary)) << p.stderr_so_far();
  ASSERT_TRUE(feed(p, "de", "abcde"));
  p.close_stdin();
  Result r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 10u) << r;
  expect_report(lines, 0, 3);
  expect_report(lines, 5, 5);
}

TEST_F(ReportOnSignal, Usr1UnderJsonPrintsAnIncompleteObject) {
  DdProcess p(copier({"--json"}));
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGUSR1);
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& e) { return e.ends_with("}\n"); })) << p.stderr_so_far();
  ASSERT_TRUE(feed(p, "de", "abcde"));
  p.close_stdin();
  Result r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 2u) << r;
  const auto snapshot = json_or_fail(lines[0]);
  const auto last = json_or_fail(lines[1]);
  ASSERT_TRUE(snapshot && last);
  EXPECT_FALSE((*snapshot)["complete"].boolean());
  EXPECT_TRUE((*snapshot)["exit_status"].is_null());
  EXPECT_TRUE((*snapshot)["signal"].is_null());
  EXPECT_EQ((*snapshot)["bytes_out"].integer(), 3);
  EXPECT_TRUE((*last)["complete"].boolean());
  EXPECT_EQ((*last)["exit_status"].integer(), 0);
  EXPECT_EQ((*last)["bytes_out"].integer(), 5);
  EXPECT_GE((*last)["times"]["real"].number(), (*snapshot)["times"]["real"].number());
}

TEST_F(ReportOnSignal, IntPrintsTheReportThenDiesBySigint) {
  DdProcess p(copier());
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGINT);
  Result r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 5u) << r;
  expect_report(lines, 0, 3);
}

TEST_F(ReportOnSignal, IntUnderJsonPathRecordsTheSignal) {
  DdProcess p(copier({"--json=run.json"}));
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGINT);
  Result r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 5u) << r;
  expect_report(lines, 0, 3);
  const auto json = json_or_fail(read_file("run.json"));
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["signal"].string(), "SIGINT");
  EXPECT_TRUE((*json)["exit_status"].is_null());
  EXPECT_EQ((*json)["bytes_out"].integer(), 3);
}

}  // namespace
}  // namespace ddtime::e2e
