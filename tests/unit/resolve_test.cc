// SPDX-License-Identifier: GPL-3.0-or-later
// resolve over a scripted OS whose paths are whatever a test says they
// are: the checks that refuse before anything is written, what a Job
// carries to the runs, and the one claim on a block-device output.
#include "bench/resolve.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <map>
#include <string>
#include <vector>

#include "report/diag.h"
#include "fakes/fake_os.h"

namespace ddtime {
namespace {

using testing::FakeOs;

// A FakeOs whose named paths have a mode and a size, and whose opens of
// them hand out descriptors from 10 up; busy paths refuse O_EXCL.
class PathsOs final : public OsWrapper {
 public:
  struct Entry {
    mode_t mode;
    off_t size = 0;
    bool busy = false;  // claimed by someone else: O_EXCL gives EBUSY
    dev_t rdev = 0;     // a character device's numbers
  };
  PathsOs() : OsWrapper(fake_) {}

  std::map<std::string, Entry> paths;
  std::vector<std::string> opened;  // "PATH flags", in order
  std::vector<int> closed;

  IoResult stat_path(const char* path, struct stat& status) noexcept override {
    status = {};
    const auto found = paths.find(path);
    if (found == paths.end()) return {-1, ENOENT};
    status.st_mode = found->second.mode;
    status.st_size = found->second.size;
    status.st_rdev = found->second.rdev;
    return {0, 0};
  }
  IoResult open(const char* path, int flags, mode_t) noexcept override {
    opened.push_back(std::string(path) + ((flags & O_EXCL) != 0 ? " excl" : ""));
    const auto found = paths.find(path);
    if (found == paths.end()) return {-1, ENOENT};
    if ((flags & O_EXCL) != 0 && found->second.busy) return {-1, EBUSY};
    return {next_fd_++, 0};
  }
  IoResult close(int fd) noexcept override {
    closed.push_back(fd);
    return {0, 0};
  }
  IoResult block_device_size(int) noexcept override { return {8 << 20, 0}; }

 private:
  FakeOs fake_;
  int next_fd_ = 10;
};

struct Resolved {
  std::optional<Job> job;
  std::string said;
};

Resolved resolve_with(PathsOs& os, const Settings& settings, const Plan& plan) {
  Resolved out;
  Diag diag("ddtime", false, [&](std::string_view text) { out.said.append(text); });
  const Messages messages(diag, settings);
  out.job = resolve(os, settings, plan, messages);
  return out;
}

Settings copy_of(const std::string& in, const std::string& out) {
  Settings settings;
  settings.input_file = in;
  settings.output_file = out;
  settings.ibs = settings.obs = 65536;
  settings.bs_given = true;
  settings.ext.actionable_errors = true;
  return settings;
}

Plan repeated(unsigned times) {
  Plan plan;
  plan.repeat = times;
  return plan;
}

TEST(Resolve, ASessionClaimsABlockDeviceOutputOnceAndHoldsTheClaim) {
  PathsOs os;
  os.paths["in"] = {S_IFREG | 0644, 1 << 20};
  os.paths["/dev/sdz"] = {S_IFBLK | 0660};
  const Resolved r = resolve_with(os, copy_of("in", "/dev/sdz"), repeated(3));
  ASSERT_TRUE(r.job) << r.said;
  EXPECT_GE(r.job->device_claim, 10) << "the O_EXCL descriptor is kept for the runs";
  EXPECT_EQ(std::count(os.opened.begin(), os.opened.end(), "/dev/sdz excl"), 1);
  EXPECT_EQ(std::count(os.closed.begin(), os.closed.end(), r.job->device_claim), 0) << "not closed by resolve";
}

TEST(Resolve, ADeviceSomeoneElseClaimedIsRefusedBeforeAnythingIsWritten) {
  PathsOs os;
  os.paths["in"] = {S_IFREG | 0644, 1 << 20};
  os.paths["/dev/sdz"] = {S_IFBLK | 0660, 0, true};
  const Resolved r = resolve_with(os, copy_of("in", "/dev/sdz"), repeated(3));
  EXPECT_FALSE(r.job);
  EXPECT_NE(r.said.find("/dev/sdz"), std::string::npos) << r.said;
  EXPECT_NE(r.said.find("--repeat=3"), std::string::npos) << r.said;
}

TEST(Resolve, ASingleRunClaimsNothing) {
  PathsOs os;
  os.paths["in"] = {S_IFREG | 0644, 1 << 20};
  os.paths["/dev/sdz"] = {S_IFBLK | 0660, 0, true};
  const Resolved r = resolve_with(os, copy_of("in", "/dev/sdz"), Plan{});
  ASSERT_TRUE(r.job) << r.said;
  EXPECT_EQ(r.job->device_claim, -1);
  EXPECT_TRUE(os.opened.empty() || std::count(os.opened.begin(), os.opened.end(), "/dev/sdz excl") == 0);
}

TEST(Resolve, ForceClaimsNothing) {
  PathsOs os;
  os.paths["in"] = {S_IFREG | 0644, 1 << 20};
  os.paths["/dev/sdz"] = {S_IFBLK | 0660, 0, true};
  Plan plan = repeated(2);
  plan.force = true;
  const Resolved r = resolve_with(os, copy_of("in", "/dev/sdz"), plan);
  ASSERT_TRUE(r.job) << r.said;
  EXPECT_EQ(r.job->device_claim, -1);
}

TEST(Resolve, SizeBecomesCountInBytesForEveryPass) {
  PathsOs os;
  os.paths["in"] = {S_IFREG | 0644, 1 << 20};
  Plan plan;
  plan.size = 100000;
  const Resolved r = resolve_with(os, copy_of("in", "out"), plan);
  ASSERT_TRUE(r.job) << r.said;
  EXPECT_EQ(r.job->settings.max_records, 1);
  EXPECT_EQ(r.job->settings.max_bytes, 100000 - 65536);
  EXPECT_TRUE(r.job->settings.ext.count_from_size);
  EXPECT_EQ(r.job->bytes, 100000);
}

TEST(Resolve, TheRangeIsWhatTheInputHoldsPastSkip) {
  PathsOs os;
  os.paths["in"] = {S_IFREG | 0644, 1 << 20};
  Settings settings = copy_of("in", "out");
  settings.skip_records = 4;
  const Resolved r = resolve_with(os, settings, Plan{});
  ASSERT_TRUE(r.job) << r.said;
  EXPECT_EQ(r.job->input, FileKind::kRegular);
  EXPECT_EQ(r.job->output, FileKind::kAbsent);
  EXPECT_EQ(r.job->bytes, (1 << 20) - 4 * 65536);
}

TEST(Resolve, ASessionOfAPipeIsRefused) {
  PathsOs os;
  os.paths["fifo"] = {S_IFIFO | 0644};
  const Resolved r = resolve_with(os, copy_of("fifo", "out"), repeated(2));
  EXPECT_FALSE(r.job);
  EXPECT_NE(r.said.find("a pipe"), std::string::npos) << r.said;
}

TEST(Resolve, ASweepOfAnEndlessInputWithNoSizeIsRefused) {
  PathsOs os;
  os.paths["/dev/urandom"] = {S_IFCHR | 0666, 0, false, makedev(1, 9)};
  Plan plan;
  plan.sweep_bs = {4096, 65536};
  const Resolved r = resolve_with(os, copy_of("/dev/urandom", "out"), plan);
  EXPECT_FALSE(r.job);
  EXPECT_NE(r.said.find("the input has no end: give --size=BYTES or count="), std::string::npos) << r.said;
  plan.size = 1 << 20;
  const Resolved sized = resolve_with(os, copy_of("/dev/urandom", "out"), plan);
  ASSERT_TRUE(sized.job) << sized.said;
  EXPECT_EQ(sized.job->sweep_bytes, 1 << 20);
}

TEST(Resolve, DirectBecomesTheFlagsOfTheSidesThatCanTakeIt) {
  PathsOs os;
  os.paths["in"] = {S_IFREG | 0644, 1 << 20};
  os.paths["/dev/null"] = {S_IFCHR | 0666};
  Settings settings = copy_of("in", "/dev/null");
  settings.ext.direct = true;
  const Resolved r = resolve_with(os, settings, Plan{});
  ASSERT_TRUE(r.job) << r.said;
  EXPECT_TRUE(r.job->settings.iflag.direct);
  EXPECT_FALSE(r.job->settings.oflag.direct);
  EXPECT_FALSE(r.job->settings.ext.direct) << "resolved: the flags say it from here on";
}

}  // namespace
}  // namespace ddtime
