// SPDX-License-Identifier: GPL-3.0-or-later
// --latency's one owner: what it taps, what it calls a duration, and the
// report it hands the run.
#include "measure/latency_probe.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"
#include "fakes/recording_events.h"

namespace ddtime {
namespace {

using testing::block_size;
using testing::FakeOs;
using testing::FixedClock;
using testing::RecordingEvents;

TEST(LatencyProbe, TimesEveryReadAndWriteTheCopyMakesThroughIt) {
  FakeOs os;
  os.input = testing::pattern(2048);
  RecordingEvents events;
  FixedClock clock;
  LatencyProbe probe(os, events, clock, block_size(512), 2048);
  std::vector<unsigned char> buffer(512);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(probe.os().read(0, buffer.data(), buffer.size()).n, 512);
  ASSERT_EQ(probe.os().write(1, buffer.data(), buffer.size()).n, 512);
  probe.copy_ended(false);
  RunResult result;
  probe.report(result);
  ASSERT_TRUE(result.latency);
  EXPECT_EQ(result.latency->read.count, 3);
  EXPECT_EQ(result.latency->write.count, 1);
  ASSERT_TRUE(result.latency_samples) << "a session merges a row's runs from the samples";
  EXPECT_EQ(result.latency_samples->reads.kept(), 3u);
  EXPECT_EQ(result.latency->definition, LatencyDefinition::kChained) << "a straight copy chains its calls";
}

TEST(LatencyProbe, AQueuedCopysDurationsAreFromSubmitToReap) {
  FakeOs os;
  RecordingEvents events;
  FixedClock clock;
  LatencyProbe probe(os, events, clock, block_size(4096), std::nullopt);
  probe.recorders().reads.record(100);
  probe.copy_ended(true);
  RunResult result;
  probe.report(result);
  ASSERT_TRUE(result.latency);
  EXPECT_EQ(result.latency->definition, LatencyDefinition::kQueued);
  EXPECT_EQ(result.latency->read.count, 1);
}

TEST(LatencyProbe, ChainsOnlyWhereNothingButRecordKeepingComesBetweenCalls) {
  EXPECT_TRUE(latency_chains(block_size(4096)));
  Settings reblocked = block_size(4096);
  reblocked.obs = 512;
  reblocked.bs_given = false;
  EXPECT_FALSE(latency_chains(reblocked));
  Settings padded = block_size(4096);
  padded.conv.sync = true;
  EXPECT_FALSE(latency_chains(padded));
  Settings progress = block_size(4096);
  progress.status = StatusLevel::kProgress;
  EXPECT_FALSE(latency_chains(progress));
  Settings sparse = block_size(4096);
  sparse.conv.sparse = true;
  EXPECT_FALSE(latency_chains(sparse));
}

TEST(LatencyProbe, ACopyWithConversionsTimesEachCallOnItsOwn) {
  FakeOs os;
  RecordingEvents events;
  FixedClock clock;
  Settings padded = block_size(512);
  padded.conv.sync = true;
  LatencyProbe probe(os, events, clock, padded, 0);
  probe.copy_ended(false);
  RunResult result;
  probe.report(result);
  EXPECT_EQ(result.latency->definition, LatencyDefinition::kPerCall);
}

}  // namespace
}  // namespace ddtime
