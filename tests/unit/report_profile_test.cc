// SPDX-License-Identifier: GPL-3.0-or-later
// report_profile: the table's columns and bars (six decades of log scale),
// the footer that states every parameter, and the JSON keys --compare
// reads.
#include "report/report_profile.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "support/json.h"
#include "unit/profile_runs.h"

namespace ddtime {
namespace {

ProfileRecord record_with(std::vector<double> read_rates) {
  ProfileRecord record{.preset = find_profile("diskmark"),
                       .target = "/dev/sdz",
                       .range = 1 << 30,
                       .time_ns = 5 * kNanosecondsPerSecond,
                       .warmup = 1,
                       .repeat = 3,
                       .pause_ns = 5 * kNanosecondsPerSecond,
                       .direct = true};
  for (std::size_t i = 0; i < read_rates.size(); ++i) {
    ProfileRow row{.test = kDiskmarkTests[i]};
    row.runs = {profile_run_at(read_rates[i])};
    summarise_profile_row(row);
    record.rows.push_back(row);
  }
  record.complete = read_rates.size() == kDiskmarkTests.size();
  record.exit_status = 0;
  return record;
}

TEST(ReportProfile, TheBarsAreALogScaleOfSixDecades) {
  // 1 GB/s is three decades of six: half of the twelve marks.
  const std::string table = profile_table(record_with({1e9, 1e6, 1e12, 1e3}));
  EXPECT_NE(table.find("(bars: log scale, 1 MB/s to 1 TB/s)"), std::string::npos) << table;
  EXPECT_NE(table.find("  ######\n"), std::string::npos) << table;
  EXPECT_NE(table.find("  ############\n"), std::string::npos) << table;
  EXPECT_NE(table.find("  #\n"), std::string::npos) << "anything measured shows: " << table;
}

TEST(ReportProfile, UnitsAskedForChangeTheRateColumnsTheFooterAndTheBarsLabel) {
  const std::string iec = profile_table(record_with({1048576e3, 1e6, 1e12, 1e3}), {RateUnits::kIec, false});
  EXPECT_NE(iec.find("read MiB/s"), std::string::npos) << iec;
  EXPECT_NE(iec.find("1000 (1000)"), std::string::npos) << "1,048,576,000 B/s is 1000 MiB/s: " << iec;
  EXPECT_NE(iec.find("MiB/s = 1,048,576 B/s: median of 3 runs"), std::string::npos) << iec;
  EXPECT_NE(iec.find("(bars: log scale, 1 MiB/s to 10^6 MiB/s)"), std::string::npos) << iec;
  EXPECT_EQ(iec.find("MB/s"), std::string::npos) << "B11: no MB/s scale under --units=iec: " << iec;
  EXPECT_NE(iec.find("  ######\n"), std::string::npos) << "1000 MiB/s is three decades of six: " << iec;
  const std::string bytes = profile_table(record_with({1e9}), {RateUnits::kBytes, false});
  EXPECT_NE(bytes.find("read B/s"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("1000000000 (1000000000)"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("(bars: log scale, 10^6 B/s to 10^12 B/s)"), std::string::npos) << bytes;
  const std::string si = profile_table(record_with({1e9}), {RateUnits::kSi, false});
  EXPECT_NE(si.find("read MB/s"), std::string::npos) << si;
}

TEST(ReportProfile, InUtf8TheBarsAreBlocksAndTheColumnsStillLineUp) {
  const std::string table = profile_table(record_with({1e9, 1e6, 1e12, 1e3}), {std::nullopt, true});
  EXPECT_NE(table.find("  \u2588\u2588\u2588\u2588\u2588\u2588\n"), std::string::npos) << table;
  EXPECT_EQ(table.find('#'), std::string::npos) << table;
  // Every row of the table as wide on screen as the header: a block is
  // one column, whatever its three bytes.
  std::vector<std::size_t> widths;
  std::size_t at = table.find('\n') + 1;
  for (int row = 0; row < 5; ++row) {
    const std::size_t end = table.find('\n', at);
    const std::string line = table.substr(at, end - at);
    widths.push_back(static_cast<std::size_t>(std::count_if(
        line.begin(), line.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; })));
    at = end + 1;
  }
  // The header's last column is the bar's: "1M..1T (log)", 12 wide, as a full bar.
  EXPECT_EQ(widths[0], widths[3]) << table;
}

TEST(ReportProfile, TheFooterStatesEveryParameter) {
  const std::string table = profile_table(record_with({1e9, 1e9, 1e8, 1e7}));
  EXPECT_NE(table.find("profile: diskmark; range: 1 GiB of /dev/sdz from offset 0\n"), std::string::npos) << table;
  EXPECT_NE(table.find("each test: 1 warm-up run (unmeasured), then 3 runs of 5 s; pause between tests: 5 s\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("MB/s = 1,000,000 B/s: median of 3 runs; the 95% interval needs 6 or more runs"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("bytes"), std::string::npos) << table;
}

TEST(ReportProfile, WithSixRunsTheFooterNamesTheIntervalInBrackets) {
  ProfileRecord record = record_with({1e9});
  record.repeat = 6;
  const std::string table = profile_table(record);
  EXPECT_NE(table.find("median of 6 runs [its 95% interval]"), std::string::npos) << table;
  record.repeat = 1;
  EXPECT_NE(profile_table(record).find("median of 1 run; the 95% interval needs 6 or more runs"), std::string::npos);
}

TEST(ReportProfile, AnIncompleteProfileSaysSo) {
  const std::string table = profile_table(record_with({1e9}));
  EXPECT_NE(table.find("(incomplete: the tests marked - did not run)"), std::string::npos) << table;
  EXPECT_TRUE(table.find("\nSEQ1M Q1T1              -     -     -    -\n") != std::string::npos) << table;
}

TEST(ReportProfile, TheJsonHasARowPerTestAndSideWithItsRuns) {
  const support::Json doc = support::parse_json(profile_json(record_with({1e9, 1e9, 1e8, 1e7}), Environment{}, "9"));
  EXPECT_EQ(doc["schema"].integer(), 1);
  EXPECT_EQ(doc["profile"]["name"].string(), "diskmark");
  EXPECT_EQ(doc["profile"]["repeat"].integer(), 3);
  EXPECT_EQ(doc["rows"].size(), 4u);
  EXPECT_EQ(doc["rows"][3]["test"].string(), "RND4K Q1T1");
  EXPECT_EQ(doc["rows"][3]["runs"][0]["bytes_per_second"].number(), 1e7);
  EXPECT_NEAR(doc["rows"][3]["iops"].number(), 1e7 / 4096, 1e-3);
  EXPECT_TRUE(doc["rows"][3]["ci95"].is_null());
}

TEST(ReportProfile, TheJsonNamesTheSignalThatStoppedItAsRunsAndSessionsDo) {
  ProfileRecord record = record_with({1e9});
  record.exit_status.reset();
  record.signal = 2;
  const support::Json doc = support::parse_json(profile_json(record, Environment{}, "9"));
  EXPECT_EQ(doc["signal"].string(), "SIGINT");
  EXPECT_TRUE(support::parse_json(profile_json(record_with({1e9}), Environment{}, "9"))["signal"].is_null());
}

TEST(ReportProfile, EachRunInTheJsonHasItsEngineTimeBytesAndLatency) {
  ProfileRecord record = record_with({1e9});
  ProfileRun& run = record.rows[0].runs[0];
  run = profile_run_at(1e9, false, 2e6, 5e6);
  run.record.result.engine.kind = EngineChoice::kIoUring;
  run.record.result.stats.bytes_out = 500'000'000;
  run.record.result.times.real_ns = 500'000'000;
  const support::Json doc = support::parse_json(profile_json(record, Environment{}, "9"));
  const support::Json& json_run = doc["rows"][0]["runs"][0];
  EXPECT_EQ(json_run["engine"].string(), "io_uring");
  EXPECT_EQ(json_run["bytes"].integer(), 500'000'000);
  EXPECT_DOUBLE_EQ(json_run["real_s"].number(), 0.5);
  EXPECT_DOUBLE_EQ(json_run["latency"]["mean_s"].number(), 2e-3);
  EXPECT_DOUBLE_EQ(json_run["latency"]["p99_s"].number(), 5e-3);
}

TEST(ReportProfile, AWarmupRunIsNotCountedInTheJson) {
  ProfileRecord record = record_with({1e9});
  ProfileRow& row = record.rows[0];
  row.runs.insert(row.runs.begin(), profile_run_at(5e8, true));
  const support::Json doc = support::parse_json(profile_json(record, Environment{}, "9"));
  EXPECT_TRUE(doc["rows"][0]["runs"][0]["warmup"].boolean());
  EXPECT_FALSE(doc["rows"][0]["runs"][0]["counted"].boolean());
  EXPECT_TRUE(doc["rows"][0]["runs"][1]["counted"].boolean());
}

// --mix: CrystalDiskMark's Mix column beside read and write, the footer
// saying the ratio; the JSON's mix rows give each side, the CSV's too.
ProfileRecord mixed_record() {
  ProfileRecord record = record_with({1e9, 1e9, 1e8, 1e7});
  record.writes = true;
  record.mix_percent = 70;
  for (const ProfileSide side : {ProfileSide::kWrite, ProfileSide::kMix}) {
    for (const ProfileTest& test : kDiskmarkTests) {
      ProfileRow row{.test = test, .side = side};
      row.runs = {profile_run_at(2e8)};
      row.runs[0].side = side;
      if (side == ProfileSide::kMix)
        row.runs[0].record.result.mix = MixResult{{70, 5}, {700, 140'000'000, 300, 60'000'000}};
      summarise_profile_row(row);
      record.rows.push_back(row);
    }
  }
  return record;
}

TEST(ReportProfile, AMixAddsAColumnToEveryRowAndTheFooterSaysTheRatio) {
  const std::string table = profile_table(mixed_record());
  const std::string header = table.substr(table.find('\n') + 1, table.find('\n', table.find('\n') + 1));
  EXPECT_NE(header.find("read MB/s"), std::string::npos) << table;
  EXPECT_LT(header.find("write MB/s"), header.find("mix MB/s")) << table;
  EXPECT_NE(table.find("then the write tests, then the mixes"), std::string::npos) << table;
  EXPECT_NE(table.find("mix: each I/O a read with probability 70%, else a write (--mix=70)"), std::string::npos)
      << table;
  // RND4K Q1T1's line has three sides' bars: read 10 MB/s (2 marks),
  // write and mix 200 MB/s (5 marks each).
  const std::size_t line = table.find("\nRND4K Q1T1");
  const std::string last = table.substr(line + 1, table.find('\n', line + 1) - line - 1);
  EXPECT_EQ(std::count(last.begin(), last.end(), '#'), 2 + 5 + 5) << last;
}

TEST(ReportProfile, TheJsonAndCsvGiveAMixRowsSides) {
  const ProfileRecord record = mixed_record();
  const support::Json doc = support::parse_json(profile_json(record, Environment{}, "9"));
  EXPECT_EQ(doc["profile"]["mix_percent"].integer(), 70);
  ASSERT_EQ(doc["rows"].size(), 12u);
  const support::Json& mix = doc["rows"][8];
  EXPECT_EQ(mix["side"].string(), "mix");
  EXPECT_DOUBLE_EQ(mix["mix"]["reads"]["median_bytes_per_second"].number(), 1.4e8);
  EXPECT_DOUBLE_EQ(mix["mix"]["writes"]["median_bytes_per_second"].number(), 0.6e8);
  EXPECT_TRUE(mix["mix"]["reads"]["p99_s"].is_null()) << "no --latency figures here";
  EXPECT_FALSE(doc["rows"][4].has("mix")) << "a write row has no sides";
  EXPECT_TRUE(
      support::parse_json(profile_json(record_with({1e9}), Environment{}, "9"))["profile"]["mix_percent"].is_null());
  const std::string csv = profile_csv(record);
  EXPECT_NE(csv.find(",runs,read_bytes_per_second,write_bytes_per_second\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nSEQ1M Q8T1,mix,1048576,8,1,false,200000000,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",1,140000000,60000000\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nSEQ1M Q8T1,write,1048576,8,1,false,200000000,,,200000000,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace ddtime
