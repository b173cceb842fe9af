// SPDX-License-Identifier: GPL-3.0-or-later
// One invocation end to end over a scripted OS, through the driver and its
// session: the order of flush, close and summary, the wording of runtime
// errors, and the exit status.
#include "bench/driver.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "fakes/copy_fixtures.h"
#include "fakes/fake_os.h"

namespace ddtime {
namespace {

using testing::block_size;
using testing::Bytes;
using testing::Fail;
using testing::FakeOs;
using StoppedClock = testing::FixedClock;

struct Outcome {
  int status;
  std::string stderr_text;
};

Outcome invoke(FakeOs& os, const Settings& settings, const Plan& plan = {}) {
  std::string captured;
  Diag diag("dd", false, [&](std::string_view text) { captured.append(text); });
  StoppedClock clock;
  Driver driver(os, clock, diag, settings, plan);
  int status = driver.run();
  return {status, captured};
}

// The clock does not move, so the bytes line always says this.
std::string records(const std::string& in, const std::string& out) {
  return in + " records in\n" + out + " records out\n";
}

TEST(Driver, FsyncFailureIsReportedBeforeTheSummaryAndFails) {
  FakeOs os;
  os.input.assign(100, 'x');
  os.fsync_error = EIO;
  Settings settings = block_size(512);
  settings.conv.fsync = true;
  settings.status = StatusLevel::kNoxfer;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.stderr_text, "dd: fsync failed for 'standard output': Input/output error\n" + records("0+1", "0+1"));
}

TEST(Driver, FdatasyncNotSupportedFallsBackToFsync) {
  FakeOs os;
  os.input.assign(100, 'x');
  os.fdatasync_error = EINVAL;
  Settings settings = block_size(512);
  settings.conv.fdatasync = true;
  settings.status = StatusLevel::kNoxfer;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 0);
  EXPECT_EQ(os.count_calls("fdatasync 1"), 1u);
  EXPECT_EQ(os.count_calls("fsync 1"), 1u);
  EXPECT_EQ(result.stderr_text, records("0+1", "0+1"));
}

TEST(Driver, FdatasyncIoErrorFailsButStillTriesFsync) {
  FakeOs os;
  os.input.assign(100, 'x');
  os.fdatasync_error = EIO;
  Settings settings = block_size(512);
  settings.conv.fdatasync = true;
  settings.status = StatusLevel::kNoxfer;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(os.count_calls("fsync 1"), 1u);
  EXPECT_EQ(result.stderr_text,
            "dd: fdatasync failed for 'standard output': Input/output error\n" + records("0+1", "0+1"));
}

TEST(Driver, ReadErrorNamesStandardInputAndFails) {
  FakeOs os;
  os.input.assign(1024, 'x');
  os.on_read({Bytes(512), Fail(EIO)});
  Settings settings = block_size(512);
  settings.status = StatusLevel::kNoxfer;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.stderr_text, "dd: error reading 'standard input': Input/output error\n" + records("1+0", "1+0"));
}

TEST(Driver, NoerrorPrintsStatisticsAfterEachReadErrorAndSucceeds) {
  FakeOs os;
  os.input.assign(1536, 'x');
  os.on_read({Bytes(512), Fail(EIO), Bytes(512), Fail(EIO)});
  Settings settings = block_size(512);
  settings.conv.noerror = true;
  settings.status = StatusLevel::kNoxfer;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 0);
  std::string error = "dd: error reading 'standard input': Input/output error\n";
  EXPECT_EQ(result.stderr_text, error + records("1+0", "1+0") + error + records("2+0", "2+0") + records("2+0", "2+0"));
}

TEST(Driver, StatusNoneSilencesEverythingButErrors) {
  FakeOs os;
  os.input.assign(100, 'x');
  os.on_write({Fail(ENOSPC)});
  Settings settings = block_size(512);
  settings.status = StatusLevel::kNone;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.stderr_text, "dd: error writing 'standard output': No space left on device\n");
}

TEST(Driver, ReblockedWriteFailureSaysWritingTo) {
  FakeOs os;
  os.input.assign(2048, 'x');
  os.on_write({Fail(ENOSPC)});
  Settings settings;
  settings.ibs = 1024;
  settings.obs = 512;
  settings.status = StatusLevel::kNoxfer;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.stderr_text, "dd: writing to 'standard output': No space left on device\n" + records("1+0", "0+0"));
}

TEST(Driver, ClosesBothSidesBeforeTheSummary) {
  FakeOs os;
  os.input.assign(10, 'x');
  Settings settings = block_size(512);
  settings.status = StatusLevel::kNone;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 0);
  ASSERT_GE(os.calls.size(), 2u);
  EXPECT_EQ(os.calls[os.calls.size() - 2], "close 0");
  EXPECT_EQ(os.calls.back(), "close 1");
}

TEST(Driver, FailedFtruncateAfterASparseEndIsAnError) {
  FakeOs os;
  os.input.assign(1024, '\0');
  os.ftruncate_error = EPERM;
  Settings settings = block_size(512);
  settings.conv.sparse = true;
  settings.status = StatusLevel::kNoxfer;
  Outcome result = invoke(os, settings);
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.stderr_text,
            "dd: failed to truncate to 1024 bytes in output file 'standard output': Operation not permitted\n" +
                records("2+0", "2+0"));
}

TEST(Driver, CpuTimeNeverExceedsRealTime) {
  // The clock stands still, so the window is 0 s long; the process's own
  // CPU clock has certainly moved meanwhile, by the cost of reading it.
  FakeOs os;
  os.input.assign(100, 'x');
  Settings settings = block_size(512);
  Plan plan;
  plan.ask_output("json", std::nullopt);
  Outcome result = invoke(os, settings, plan);
  EXPECT_EQ(result.status, 0);
  EXPECT_NE(os.stderr_written.find("\"real\":0,"), std::string::npos) << os.stderr_written;
  EXPECT_NE(os.stderr_written.find("\"user\":0,\"sys\":0}"), std::string::npos) << os.stderr_written;
}

}  // namespace
}  // namespace ddtime
