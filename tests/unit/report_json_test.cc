// SPDX-License-Identifier: GPL-3.0-or-later
// The --json document and json_quote. The expected figures were worked out
// by hand or with exact fractions, not copied from the output; every
// document is also read back with the strict reader in tests/support.
#include "report/report_json.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/json.h"
#include "unit/report_fixtures.h"

namespace ddtime {
namespace {

using namespace report_fixtures;

// --- reading the JSON back ---

using support::Json;
using support::JsonError;
using support::parse_json;

// The value filling all of text (whitespace aside), or nullopt with error
// saying why.
std::optional<Json> read_json(std::string_view text, std::string* error = nullptr) {
  try {
    return parse_json(text);
  } catch (const JsonError& failure) {
    if (error) *error = failure.what();
    return std::nullopt;
  }
}

// Length of a valid UTF-8 sequence at text[0], 0 if invalid. Written from
// RFC 3629's table, independently of the encoder.
std::size_t utf8_length(std::string_view text) {
  auto at = [&](std::size_t i) -> unsigned { return i < text.size() ? static_cast<unsigned char>(text[i]) : 0x100; };
  const unsigned lead = at(0);
  if (lead < 0x80) return 1;
  std::size_t length = lead >= 0xF8 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0) return 0;
  std::uint32_t code = lead & (0x7Fu >> length);
  for (std::size_t i = 1; i < length; ++i) {
    if ((at(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (at(i) & 0x3F);
  }
  const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = utf8_length(text.substr(i));
    if (length == 0) return false;
    i += length;
  }
  return true;
}

void put_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

TEST(JsonReader, AcceptsAndRejectsWhatRfc8259Says) {
  // The checker itself, so that a pass below means something.
  for (std::string_view good :
       {R"({})", R"([1,-0.5,2e3,true,false,null])", R"({"a":{"b":["\u00e9\ud83d\ude00"]}})", " \"x\" "}) {
    EXPECT_TRUE(read_json(good)) << good;
  }
  for (std::string_view bad :
       {R"({"a":1,})", R"([01])", R"([1.])", R"("\x")", R"("\ud800")", R"({"a":1,"a":2})", "\"a\nb\"", "\"\xff\"",
        "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", R"([1] x)", R"({a:1})", R"([.5])", ""}) {
    EXPECT_FALSE(read_json(bad)) << bad;
  }
  EXPECT_EQ(read_json(R"("\u00e9\u000a")")->string(), "\xc3\xa9\n");
}

// --- json_quote ---

TEST(JsonQuote, QuotesAndEscapesQuotesAndBackslashes) {
  EXPECT_EQ(json_quote(""), R"("")");
  EXPECT_EQ(json_quote("in.img"), R"("in.img")");
  EXPECT_EQ(json_quote(R"(a"b\c/d)"), R"("a\"b\\c/d")");
}

TEST(JsonQuote, EscapesControlCharactersAndDelAsU00XX) {
  EXPECT_EQ(json_quote(std::string("a\nb\tc\rd\x01\x1f\x7f", 10)), R"("a\u000ab\u0009c\u000dd\u0001\u001f\u007f")");
  EXPECT_EQ(json_quote(std::string("\0x", 2)), R"("\u0000x")");
}

TEST(JsonQuote, PassesValidUtf8Through) {
  EXPECT_EQ(json_quote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");                            // U+00E9
  EXPECT_EQ(json_quote("\xe2\x82\xac"), "\"\xe2\x82\xac\"");                          // U+20AC
  EXPECT_EQ(json_quote("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");                  // U+1F600
  EXPECT_EQ(json_quote("\xed\x9f\xbf\xee\x80\x80"), "\"\xed\x9f\xbf\xee\x80\x80\"");  // around the surrogates
  EXPECT_EQ(json_quote("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\"");                  // U+10FFFF
  // U+2028 is valid JSON as it is, but a terminal breaks the line there:
  // escaped, it reads back the same (issue 28, rule 7).
  EXPECT_EQ(json_quote("\xe2\x80\xa8"), R"("\u2028")");
}

TEST(JsonQuote, ReplacesEachByteOfAnInvalidSequence) {
  EXPECT_EQ(json_quote("\xff"), R"("\ufffd")");
  EXPECT_EQ(json_quote("a\x80z"), R"("a\ufffdz")");        // stray continuation
  EXPECT_EQ(json_quote("\xc0\xaf"), R"("\ufffd\ufffd")");  // overlong '/'
  EXPECT_EQ(json_quote("\xc1\xbf"), R"("\ufffd\ufffd")");
  EXPECT_EQ(json_quote("\xe0\x80\xaf"), R"("\ufffd\ufffd\ufffd")");
  EXPECT_EQ(json_quote("\xf0\x80\x80\xaf"), R"("\ufffd\ufffd\ufffd\ufffd")");
  EXPECT_EQ(json_quote("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");            // U+D800
  EXPECT_EQ(json_quote("\xf4\x90\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");  // U+110000
  EXPECT_EQ(json_quote("\xf5\x80\x80\x80"), R"("\ufffd\ufffd\ufffd\ufffd")");
  // Truncated, then a valid character: only the broken bytes are replaced.
  EXPECT_EQ(json_quote("\xe2\x82\xc3\xa9"), "\"\\ufffd\\ufffd\xc3\xa9\"");
  EXPECT_EQ(json_quote("x\xe2\x82"), R"("x\ufffd\ufffd")");
}

// Expected reading of json_quote's output: valid UTF-8 kept, every other
// byte read as U+FFFD.
std::string replacement_fallback(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size();) {
    std::size_t length = utf8_length(raw.substr(i));
    if (length == 0) {
      put_utf8(out, 0xFFFD);
      ++i;
    } else {
      out += raw.substr(i, length);
      i += length;
    }
  }
  return out;
}

TEST(JsonQuote, AnyBytesGiveAValidStringThatReadsBack) {
  std::mt19937 random(42);
  // Bias towards the interesting bytes.
  const std::string interesting(
      "\"\\\n\r\t\x00\x1f\x7f\x80\xbf\xc0\xc2\xdf\xe0\xed\xef\xf0\xf4\xf5\xff"
      "a/",
      22);
  for (int i = 0; i < 5000; ++i) {
    std::string raw;
    const int length = static_cast<int>(random() % 24);
    for (int j = 0; j < length; ++j) {
      raw += random() % 2 ? interesting[random() % interesting.size()] : static_cast<char>(random() % 256);
    }
    const std::string quoted = json_quote(raw);
    std::string error;
    const auto parsed = read_json(quoted, &error);
    ASSERT_TRUE(parsed) << error << " in " << ::testing::PrintToString(quoted);
    ASSERT_EQ(parsed->kind(), Json::Kind::kString);
    EXPECT_EQ(parsed->string(), replacement_fallback(raw)) << ::testing::PrintToString(raw);
    if (valid_utf8(raw)) {
      EXPECT_EQ(parsed->string(), raw);
    }
    for (char c : quoted) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20) << ::testing::PrintToString(quoted);
  }
}

// --- json_report ---

TEST(JsonReport, PrintsTheWholeObjectForAPlainRun) {
  Settings settings;
  settings.input_file = "/dev/zero";
  settings.output_file = "/dev/null";
  settings.ibs = settings.obs = 1048576;
  settings.bs_given = true;
  settings.max_records = 4096;
  Stats stats = copied(4096, 0, 4 * kGiB);
  RunTimes times = timed(81'300'000, 0, 81'100'000);
  const RunRecord run = plain_run(settings, stats, times);
  EXPECT_EQ(json_report(run, Environment{}, "0.1.0"),
            R"({"tool":"ddtime","version":"0.1.0",)"
            R"("environment":{"host":null,"kernel":null,"cpu":{"model":null,"logical_cpus":null},"memory_bytes":null,)"
            R"("ddtime_version":"","command_line":[],"date":null,"files":{"input":null,"output":null},)"
            R"("seeds":{"random":null,"pattern":null}},"complete":true,)"
            R"("operands":{"if":"/dev/zero","of":"/dev/null","ibs":1048576,"obs":1048576,"cbs":0,)"
            R"("skip":{"records":0,"bytes":0},"seek":{"records":0,"bytes":0},"count":{"records":4096,"bytes":0},)"
            R"("conv":[],"iflag":[],"oflag":[],"status":"default"},)"
            R"("records_in":{"full":4096,"partial":0},"records_out":{"full":4096,"partial":0},)"
            R"("truncated_records":0,"bytes_in":4294967296,"bytes_out":4294967296,)"
            R"("times":{"real":0.0813,"copy":0.0813,"flush":null,"read":null,"write":null,)"
            R"("user":0,"sys":0.0811},)"
            R"("rates":{"bytes_per_second":52828626027.06027,"records_per_second":50381.30381303813},)"
            R"("exit_status":0,"signal":null,"errors":[]})"
            "\n");
}

TEST(JsonReport, PrintsAnInterruptedRunWithEverythingOptional) {
  Settings settings;
  settings.skip_records = 3;
  settings.skip_bytes = 7;
  settings.seek_records = 2;
  settings.seek_bytes = 1;
  settings.max_bytes = 100;
  settings.max_records = 0;
  settings.cbs = 80;
  settings.status = StatusLevel::kNoxfer;
  settings.conv.fsync = true;
  settings.conv.ascii = true;
  settings.conv.unblock = true;
  settings.iflag.count_bytes = true;
  settings.iflag.fullblock = true;
  settings.oflag.seek_bytes = true;
  settings.oflag.direct = true;
  Stats stats = copied(1, 2, 100);
  stats.full_records_out = 3;
  stats.partial_records_out = 4;
  stats.truncated_records = 5;
  stats.bytes_in = 99;
  RunTimes times;
  times.real_ns = 3;
  times.copy_ns = 2;
  times.flush_ns = 1;
  times.flushed = true;
  times.user_ns = 12'345'678'901;
  times.sys_ns = -1;
  times.split = true;
  times.read_ns = 1;
  times.write_ns = 0;
  const std::vector<std::string> errors = {"error reading 'in': Input/output error", "say \"hi\"\n"};
  RunRecord run = stopped_run(settings, stats, times, SIGINT);
  run.errors = errors;
  EXPECT_EQ(
      json_report(run, Environment{}, "9.9.9"),
      R"({"tool":"ddtime","version":"9.9.9",)"
      R"("environment":{"host":null,"kernel":null,"cpu":{"model":null,"logical_cpus":null},"memory_bytes":null,)"
      R"("ddtime_version":"","command_line":[],"date":null,"files":{"input":null,"output":null},)"
      R"("seeds":{"random":null,"pattern":null}},"complete":false,)"
      R"("operands":{"if":null,"of":null,"ibs":512,"obs":512,"cbs":80,)"
      R"("skip":{"records":3,"bytes":7},"seek":{"records":2,"bytes":1},"count":{"records":0,"bytes":100},)"
      R"("conv":["ascii","unblock","fsync"],"iflag":["fullblock","count_bytes"],"oflag":["direct","seek_bytes"],)"
      R"("status":"noxfer"},)"
      R"("records_in":{"full":1,"partial":2},"records_out":{"full":3,"partial":4},)"
      R"("truncated_records":5,"bytes_in":99,"bytes_out":100,)"
      R"("times":{"real":0.000000003,"copy":0.000000002,"flush":0.000000001,"read":0.000000001,"write":0,)"
      R"("user":12.345678901,"sys":-0.000000001},)"
      R"("rates":{"bytes_per_second":33333333333.333332,"records_per_second":1000000000},)"
      R"("exit_status":null,"signal":"SIGINT","errors":["error reading 'in': Input/output error","say \"hi\"\u000a"]})"
      "\n");
}

Json parsed_report(const RunRecord& run) {
  const std::string text = json_report(run, Environment{});
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line, newline-terminated";
  std::string error;
  auto json = read_json(text, &error);
  EXPECT_TRUE(json) << error << " in " << text;
  return json.value_or(Json{});
}

TEST(JsonReport, HasTheDocumentedKeysInOrder) {
  Settings settings;
  const Json json = parsed_report(plain_run(settings, Stats{}, RunTimes{}));
  EXPECT_EQ(json.keys(), (std::vector<std::string>{"tool", "version", "environment", "complete", "operands",
                                                   "records_in", "records_out", "truncated_records", "bytes_in",
                                                   "bytes_out", "times", "rates", "exit_status", "signal", "errors"}));
  EXPECT_EQ(json["operands"].keys(), (std::vector<std::string>{"if", "of", "ibs", "obs", "cbs", "skip", "seek", "count",
                                                               "conv", "iflag", "oflag", "status"}));
  EXPECT_EQ(json["times"].keys(), (std::vector<std::string>{"real", "copy", "flush", "read", "write", "user", "sys"}));
  EXPECT_EQ(json["rates"].keys(), (std::vector<std::string>{"bytes_per_second", "records_per_second"}));
  EXPECT_EQ(json["tool"].string(), "ddtime");
  EXPECT_EQ(json["version"].string(), DDTIME_VERSION);          // the build's when not given
  EXPECT_TRUE(json["operands"]["count"]["records"].is_null());  // no count=
  EXPECT_TRUE(json["rates"]["bytes_per_second"].is_null());     // real is 0
  EXPECT_TRUE(json["rates"]["records_per_second"].is_null());
  EXPECT_EQ(json["exit_status"].integer(), 0);  // a run that ended has its status
  EXPECT_TRUE(json["signal"].is_null());
  EXPECT_EQ(json["errors"].kind(), Json::Kind::kArray);
  EXPECT_EQ(json["errors"].size(), 0u);
}

TEST(JsonReport, ListsEverySymbolInCanonicalOrder) {
  Settings settings;
  settings.conv = {true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true};
  IoFlags all{true, true, true, true, true, true, true, true, true, true, true, true, true, true};
  settings.iflag = all;
  settings.oflag = all;
  const Json json = parsed_report(plain_run(settings, Stats{}, RunTimes{}));
  EXPECT_EQ(json["operands"]["conv"].strings(),
            (std::vector<std::string>{"ascii", "ebcdic", "ibm", "block", "unblock", "lcase", "ucase", "sparse", "swab",
                                      "sync", "excl", "nocreat", "notrunc", "noerror", "fdatasync", "fsync"}));
  const std::vector<std::string> flags = {"append",    "direct",      "directory",  "dsync",     "sync",
                                          "fullblock", "nonblock",    "noatime",    "nocache",   "noctty",
                                          "nofollow",  "count_bytes", "skip_bytes", "seek_bytes"};
  EXPECT_EQ(json["operands"]["iflag"].strings(), flags);
  EXPECT_EQ(json["operands"]["oflag"].strings(), flags);
}

TEST(JsonReport, NamesEveryStatusLevel) {
  Settings settings;
  const std::pair<StatusLevel, std::string> levels[] = {{StatusLevel::kDefault, "default"},
                                                        {StatusLevel::kNone, "none"},
                                                        {StatusLevel::kNoxfer, "noxfer"},
                                                        {StatusLevel::kProgress, "progress"}};
  for (const auto& [level, name] : levels) {
    settings.status = level;
    EXPECT_EQ(parsed_report(plain_run(settings, Stats{}, RunTimes{}))["operands"]["status"].string(), name);
  }
}

TEST(JsonReport, NamesSignalsOrGivesTheirNumber) {
  Settings settings;
  const Stats stats;
  const RunTimes times;
  auto signal_of = [&](int signal) {
    return parsed_report(stopped_run(settings, stats, times, signal))["signal"].string();
  };
  EXPECT_EQ(signal_of(SIGINT), "SIGINT");
  EXPECT_EQ(signal_of(SIGTERM), "SIGTERM");
  EXPECT_EQ(signal_of(SIGUSR1), "SIGUSR1");
  EXPECT_EQ(signal_of(SIGPIPE), "SIGPIPE");
  EXPECT_EQ(signal_of(SIGRTMIN + 1), std::to_string(SIGRTMIN + 1));
}

TEST(JsonReport, PrintsExitStatus) {
  const Settings settings;
  const Stats stats;
  const RunTimes times;
  RunRecord run = plain_run(settings, stats, times);
  run.result.exit_status = 1;
  EXPECT_EQ(parsed_report(run)["exit_status"].literal(), "1");
  run.result.exit_status = 0;
  EXPECT_EQ(parsed_report(run)["exit_status"].literal(), "0");
  EXPECT_TRUE(parsed_report(stopped_run(settings, stats, times, SIGINT))["exit_status"].is_null())
      << "a run a signal stopped has no exit status";
}

// Rule 5 of issue 19: what was not measured is null, never 0.
TEST(JsonReport, WhatWasNotMeasuredIsNull) {
  Settings settings;
  RunTimes times;
  times.measured = false;
  const Json json = parsed_report(plain_run(settings, Stats{}, times));
  for (const char* key : {"real", "copy", "flush", "read", "write", "user", "sys"}) {
    EXPECT_TRUE(json["times"][key].is_null()) << key;
  }
  EXPECT_TRUE(json["rates"]["bytes_per_second"].is_null());
  times.measured = true;
  times.real_ns = 1000;
  const Json ran = parsed_report(plain_run(settings, Stats{}, times));
  EXPECT_TRUE(ran["times"]["flush"].is_null()) << "no flush call followed the copy";
  EXPECT_FALSE(ran["times"]["real"].is_null());
}

TEST(JsonReport, SecondsAreExactNanoseconds) {
  Settings settings;
  RunTimes times;
  times.real_ns = kInt64Max;
  times.copy_ns = std::numeric_limits<std::int64_t>::min();
  times.flush_ns = 1'000'000'001;
  times.flushed = true;
  const std::string text = json_report(plain_run(settings, Stats{}, times), Environment{});
  EXPECT_NE(text.find(R"("real":9223372036.854775807,"copy":-9223372036.854775808,"flush":1.000000001,)"),
            std::string::npos)
      << text;
  EXPECT_TRUE(read_json(text));
}

TEST(JsonReport, RatesAgreeWithBytesRecordsAndTime) {
  Settings settings;
  std::mt19937_64 random(7);
  for (int i = 0; i < 300; ++i) {
    const std::int64_t real = 1 + static_cast<std::int64_t>(random() % (1000 * static_cast<std::uint64_t>(kSecond)));
    const std::int64_t full = static_cast<std::int64_t>(random() % 1'000'000);
    const std::int64_t partial = static_cast<std::int64_t>(random() % 3);
    const std::int64_t bytes = static_cast<std::int64_t>(random() % (std::uint64_t{1} << 40));
    const Stats stats = copied(full, partial, bytes);
    const RunTimes times = timed(real);
    const Json json = parsed_report(plain_run(settings, stats, times));
    const double seconds = json["times"]["real"].number();
    EXPECT_NEAR(seconds, static_cast<double>(real) / 1e9, 1e-9);
    EXPECT_NEAR(json["rates"]["bytes_per_second"].number() * seconds, static_cast<double>(bytes),
                static_cast<double>(bytes) * 1e-9 + seconds * 0.001);
    EXPECT_NEAR(json["rates"]["records_per_second"].number() * seconds, static_cast<double>(full + partial),
                static_cast<double>(full + partial) * 1e-9 + seconds * 0.001);
    EXPECT_EQ(json["bytes_out"].literal(), std::to_string(bytes));
  }
}

TEST(JsonReport, WeirdNamesAndMessagesStillGiveValidJson) {
  std::mt19937 random(1);
  for (int i = 0; i < 1000; ++i) {
    std::string name;
    const int length = 1 + static_cast<int>(random() % 40);
    for (int j = 0; j < length; ++j) name += static_cast<char>(random() % 256);
    Settings settings;
    settings.input_file = name;
    settings.output_file = "quote\" back\\slash\nnewline \xff\xfe" + name;
    const std::vector<std::string> errors = {"failed to open '" + name + "'", std::string(1, '\0'), ""};
    const Stats stats;
    const RunTimes times = timed(kSecond);
    RunRecord run = plain_run(settings, stats, times);
    run.errors = errors;
    const Json json = parsed_report(run);
    EXPECT_EQ(json["operands"]["if"].string(), replacement_fallback(name));
    EXPECT_EQ(json["operands"]["of"].string(), replacement_fallback(*settings.output_file));
    EXPECT_EQ(json["errors"].strings(),
              (std::vector<std::string>{replacement_fallback(errors[0]), std::string(1, '\0'), ""}));
  }
}

Json parsed_session(const SessionRecord& session) {
  std::string error;
  auto json = read_json(json_session_report(session, Environment{}, "0.1.0"), &error);
  EXPECT_TRUE(json) << error;
  return json.value_or(Json{});
}

TEST(JsonSessionReport, AFinishedSessionIsCompleteAndNamesNoPhase) {
  const Json json = parsed_session(SessionRecord{.exit_status = 0});
  EXPECT_EQ(json.keys(), (std::vector<std::string>{"schema", "tool", "version", "environment", "complete", "plan",
                                                   "runs", "summary", "exit_status", "signal"}));
  EXPECT_TRUE(json["complete"].boolean());
  EXPECT_EQ(json["exit_status"].integer(), 0);
}

TEST(JsonSessionReport, AWarmupRunIsListedAndNotCounted) {
  SessionRecord session{.exit_status = 0};
  session.runs.push_back(plain_run(Settings{}, Stats{}, timed(kSecond)));
  session.runs.back().warmup = true;
  session.runs.push_back(plain_run(Settings{}, Stats{}, timed(kSecond)));
  const Json json = parsed_session(session);
  EXPECT_TRUE(json["runs"][0]["warmup"].boolean());
  EXPECT_FALSE(json["runs"][0]["counted"].boolean()) << "the man page: warm-ups are marked 'not counted'";
  EXPECT_TRUE(json["runs"][1]["counted"].boolean());
}

TEST(JsonSessionReport, ASnapshotIsIncompleteAndNamesItsPhase) {
  SessionRecord session;
  session.complete = false;
  session.phase = "the generator's calibration";
  const Json json = parsed_session(session);
  EXPECT_EQ(json.keys(), (std::vector<std::string>{"schema", "tool", "version", "environment", "complete", "phase",
                                                   "plan", "runs", "summary", "exit_status", "signal"}));
  EXPECT_FALSE(json["complete"].boolean());
  EXPECT_EQ(json["phase"].string(), "the generator's calibration");
  EXPECT_TRUE(json["exit_status"].is_null());
}

TEST(JsonReport, ASnapshotOutsideTheCopyNamesItsPhaseAfterComplete) {
  Settings settings;
  RunTimes unmeasured;
  unmeasured.measured = false;
  RunRecord run = plain_run(settings, Stats{}, unmeasured);
  run.pass = Pass::kSnapshot;
  run.phase = "--cache=warm: setting the cache up";
  const Json json = parsed_report(run);
  EXPECT_EQ(json.keys()[4], "phase");
  EXPECT_EQ(json["phase"].string(), "--cache=warm: setting the cache up");
  EXPECT_TRUE(json["times"]["real"].is_null());
}

}  // namespace
}  // namespace ddtime
