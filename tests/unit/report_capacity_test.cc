// SPDX-License-Identifier: GPL-3.0-or-later
// report_capacity: the verdict a person can act on, for each thing a
// device can do past its real size, and the JSON the schema describes.
#include "report/report_capacity.h"

#include <gtest/gtest.h>

#include "measure/record.h"
#include "support/json.h"

namespace ddtime {
namespace {

CapacityResult probed(CapacityFinding finding) {
  CapacityResult result;
  result.target = "/dev/sdb";
  result.reported_bytes = 128'000'000'000;
  result.range_bytes = result.reported_bytes;
  result.block = 4096;
  result.seed = 42;
  result.direct = true;
  result.probes = {{0, ProbeOutcome::kWrapped, std::int64_t{8'589'934'592}}, {4096, ProbeOutcome::kGood}};
  result.finding = finding;
  result.elapsed_ns = 1'500'000'000;
  return result;
}

TEST(CapacityText, AWrapSaysTheRealCapacityWhereWritesGoAndWhatWasProbed) {
  const std::string text = capacity_text(
      "ddtime", probed({CapacityVerdict::kWraps, 8'589'934'592, 0, ProbeOutcome::kWrapped}), "'/dev/sdb'");
  EXPECT_EQ(
      text,
      "ddtime: capacity: real capacity 8.6 GB of the 128 GB '/dev/sdb' reports: writes from 8.6 GB (8589934592 B) "
      "on wrap to offset 0\n"
      "ddtime: capacity: 2 blocks of 4096 B probed from offset 0 in 1.5000 s, read with O_DIRECT\n");
}

TEST(CapacityText, LostWritesSayWhatTheBlockReadsBackAndFailedOnesWhy) {
  EXPECT_NE(capacity_text("ddtime", probed({CapacityVerdict::kLoses, 4096, std::nullopt, ProbeOutcome::kZeros}), "X")
                .find("writes from 4.1 kB (4096 B) on are lost (the block there reads back zeros)\n"),
            std::string::npos);
  EXPECT_NE(
      capacity_text("ddtime", probed({CapacityVerdict::kFails, 4096, std::nullopt, ProbeOutcome::kWriteError, 5}), "X")
          .find("on fail (Input/output error)\n"),
      std::string::npos);
  CapacityFinding bad_block{CapacityVerdict::kLoses, 4096, std::nullopt, ProbeOutcome::kOther};
  bad_block.good_past_first_bad = 3;
  EXPECT_NE(capacity_text("ddtime", probed(bad_block), "X")
                .find("the block of X at offset 4096 reads back bytes it was never given, yet 3 probed blocks past it "
                      "read back as written: a bad block, not a smaller capacity\n"),
            std::string::npos);
}

TEST(CapacityText, AnHonestDeviceHoldsWhatItReports) {
  EXPECT_EQ(capacity_text("ddtime", probed({}), "X").substr(0, 78),
            "ddtime: capacity: X holds what it reports, 128 GB: the 2 blocks probed read ba");
}

TEST(CapacityJson, EveryProbeIsListedAndAnUnfinishedProbeHasNoVerdict) {
  const CapacityResult result = probed({CapacityVerdict::kWraps, 8'589'934'592, 0, ProbeOutcome::kWrapped});
  const support::Json doc = support::parse_json(capacity_json(result, nullptr, true, Environment{}, "9", 1, 0));
  EXPECT_EQ(doc["capacity"]["verdict"].string(), "wraps");
  EXPECT_EQ(doc["capacity"]["real_bytes"].integer(), 8'589'934'592);
  EXPECT_EQ(doc["capacity"]["probes"][0]["holds"].integer(), 8'589'934'592);
  EXPECT_EQ(doc["capacity"]["probes"][1]["outcome"].string(), "good");
  EXPECT_TRUE(doc["capacity"]["restored"].is_null()) << "no --keep";
  const support::Json cut =
      support::parse_json(capacity_json(result, nullptr, false, Environment{}, "9", std::nullopt, 2));
  EXPECT_TRUE(cut["capacity"]["verdict"].is_null());
  EXPECT_EQ(cut["signal"].string(), "SIGINT");
  EXPECT_TRUE(cut["exit_status"].is_null());
}

CapacityResult scanned(CapacityFinding finding, std::vector<ScannedExtent> extents) {
  CapacityResult result = probed(finding);
  result.full = true;
  result.probes.clear();
  result.block = 1 << 20;
  result.extents = std::move(extents);
  result.scanned_bytes = 128LL << 20;
  result.scan_ns = 2'000'000'000;
  return result;
}

TEST(CapacityText, FullCountsEveryBlockByWhatItReadBack) {
  const CapacityResult result =
      scanned({CapacityVerdict::kWraps, 8 << 20, 0, ProbeOutcome::kWrapped},
              {{0, 120, ProbeOutcome::kWrapped, 120 << 20}, {120 << 20, 8, ProbeOutcome::kGood}});
  EXPECT_EQ(capacity_text("ddtime", result, "X"),
            "ddtime: capacity: real capacity 8.4 MB of the 128 GB X reports: writes from 8.4 MB (8388608 B) on wrap "
            "to offset 0\n"
            "ddtime: capacity: 128 blocks of 1048576 B from offset 0 written, read back and compared (128 MiB compared "
            "in 2.0000 s, read with O_DIRECT): 8 good, 120 holding another block's stamp\n");
  EXPECT_EQ(capacity_text("ddtime", scanned({}, {{0, 128, ProbeOutcome::kGood}}), "X").substr(0, 84),
            "ddtime: capacity: X holds what it reports, 128 GB: the 128 blocks written read back ");
}

TEST(CapacityJson, FullListsExtentsAndItsPassesInPlaceOfProbes) {
  const CapacityResult result =
      scanned({CapacityVerdict::kFails, 3 << 20, std::nullopt, ProbeOutcome::kReadError, 5},
              {{0, 3, ProbeOutcome::kGood}, {3 << 20, 2, ProbeOutcome::kReadError, std::nullopt, 5}});
  SessionRecord passes;
  passes.runs.resize(2);
  passes.runs[0].pass = Pass::kWrite;
  passes.runs[1].pass = Pass::kRead;
  const support::Json doc = support::parse_json(capacity_json(result, &passes, true, Environment{}, "9", 1, 0));
  const support::Json& capacity = doc["capacity"];
  EXPECT_EQ(capacity["mode"].string(), "full");
  EXPECT_TRUE(capacity["probes"].is_null());
  ASSERT_EQ(capacity["extents"].size(), 2u);
  EXPECT_EQ(capacity["extents"][1]["offset"].integer(), 3 << 20);
  EXPECT_EQ(capacity["extents"][1]["blocks"].integer(), 2);
  EXPECT_EQ(capacity["extents"][1]["error"].string(), "Input/output error");
  EXPECT_EQ(capacity["scanned_bytes"].integer(), 128LL << 20);
  ASSERT_EQ(capacity["passes"].size(), 2u);
  EXPECT_EQ(capacity["passes"][1]["pass"].string(), "read");
  const support::Json quick = support::parse_json(capacity_json(probed({}), nullptr, true, Environment{}, "9", 0, 0));
  EXPECT_TRUE(quick["capacity"]["extents"].is_null());
  EXPECT_TRUE(quick["capacity"]["passes"].is_null());
}

}  // namespace
}  // namespace ddtime
