// SPDX-License-Identifier: GPL-3.0-or-later
// resolve over a scripted OS whose paths are whatever a test says they
// are: the checks that refuse before anything is written, what a ResolvedRun
// carries to the runs, and the one claim on a block-device output.
#include "bench/resolve.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "fakes/fake_os.h"
#include "model/profile.h"
#include "report/diag.h"

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
    std::string head;   // what reads of it give
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
    if ((flags & O_ACCMODE) != O_RDONLY) opened_for_writing.push_back(path);
    reading_[next_fd_] = {found->second.head, 0};
    return {next_fd_++, 0};
  }
  IoResult read(int fd, void* buffer, std::size_t length) noexcept override {
    auto& [text, at] = reading_[fd];
    const std::size_t n = std::min(length, text.size() - at);
    std::memcpy(buffer, text.data() + at, n);
    at += n;
    return {static_cast<ssize_t>(n), 0};
  }
  std::vector<std::string> opened_for_writing;
  IoResult close(int fd) noexcept override {
    closed.push_back(fd);
    return {0, 0};
  }
  IoResult block_device_size(int) noexcept override { return {8 << 20, 0}; }

 private:
  FakeOs fake_;
  int next_fd_ = 10;
  std::map<int, std::pair<std::string, std::size_t>> reading_;
};

struct Resolved {
  std::optional<ResolvedRun> job;
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
  settings.ext.invocation = Invocation::kDdtime;
  return settings;
}

Plan repeated(unsigned times) {
  Plan plan;
  plan.repeat = times;
  return plan;
}

// P1: at depth 1 the default engine is the synchronous one, as dd and
// fio's psync are, for --random and a profile's Q1T1 rows too: a queued
// engine (io_uring hands each read of a bio-based device to a kernel
// worker) only at depth, with jobs, or by name.
TEST(Plan, AtDepthOneTheDefaultEngineIsTheSyncEngineForRandomAccessToo) {
  Plan plan;
  EXPECT_FALSE(plan.queued());
  plan.random = true;
  EXPECT_FALSE(plan.queued()) << "--random at depth 1";
  plan.iodepth_given = true;  // a profile's RND4K Q1T1 row
  EXPECT_FALSE(plan.queued()) << "--random --iodepth=1";
  plan.iodepth = 2;
  EXPECT_TRUE(plan.queued()) << "--iodepth=2";
  plan.iodepth = 1;
  plan.jobs = 2;
  EXPECT_TRUE(plan.queued()) << "--jobs=2";
  plan.jobs = 1;
  for (const EngineChoice engine : {EngineChoice::kIoUring, EngineChoice::kThreads}) {
    plan.engine = engine;
    EXPECT_TRUE(plan.queued()) << "a queued engine by name";
  }
  plan.engine = EngineChoice::kSync;
  EXPECT_FALSE(plan.queued());
  // The report and the JSON still say which engine ran.
  plan.engine = EngineChoice::kAuto;
  EXPECT_TRUE(plan.shows_engine());
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

Plan pattern_plan() {
  Plan plan;
  plan.pattern = PatternSpec{PatternKind::kRandom, 0};
  return plan;
}

// An ext4 superblock labelled "x" as mkfs.ext4 -L x writes it.
std::string ext4_head() {
  std::string head(4096, '\0');
  head[1080] = '\x53';
  head[1081] = '\xEF';
  head[1024 + 0x60] = '\x40';
  head[1144] = 'x';
  return head;
}

TEST(Resolve, APatternOverAnExistingNonEmptyFileIsRefusedNamingWhatItHolds) {
  PathsOs os;
  os.paths["userdata.bin"] = {S_IFREG | 0644, 10 << 20};
  const Resolved r = resolve_with(os, copy_of("/dev/zero", "userdata.bin"), pattern_plan());
  EXPECT_FALSE(r.job);
  EXPECT_EQ(r.said,
            "ddtime: 'userdata.bin' holds 10485760 bytes (10 MB); --pattern would overwrite them with data of its own; "
            "--force overwrites it\n");
  EXPECT_TRUE(os.opened_for_writing.empty());
}

TEST(Resolve, APatternOverAnEmptyOrNewFileIsAllowed) {
  PathsOs os;
  os.paths["empty"] = {S_IFREG | 0644, 0};
  EXPECT_TRUE(resolve_with(os, copy_of("/dev/zero", "empty"), pattern_plan()).job);
  EXPECT_TRUE(resolve_with(os, copy_of("/dev/zero", "new"), pattern_plan()).job);
}

TEST(Resolve, APlainCopyOverANonEmptyFileKeepsDdsMeaning) {
  PathsOs os;
  os.paths["in"] = {S_IFREG | 0644, 1 << 20};
  os.paths["b"] = {S_IFREG | 0644, 10 << 20};
  EXPECT_TRUE(resolve_with(os, copy_of("in", "b"), Plan{}).job);
  EXPECT_TRUE(resolve_with(os, copy_of("in", "b"), repeated(3)).job);
}

TEST(Resolve, APatternOverADeviceHoldingAFileSystemIsRefusedNamingItAndItsLabel) {
  PathsOs os;
  os.paths["/dev/loop3"] = {S_IFBLK | 0660, 0, false, 0, ext4_head()};
  const Resolved r = resolve_with(os, copy_of("/dev/zero", "/dev/loop3"), pattern_plan());
  EXPECT_FALSE(r.job);
  EXPECT_EQ(r.said,
            "ddtime: '/dev/loop3' holds an ext4 file system (label 'x'); --pattern would overwrite it; "
            "--force overwrites it\n");
  EXPECT_TRUE(os.opened_for_writing.empty());
}

TEST(Resolve, AProfileOverADeviceHoldingAPartitionTableIsRefused) {
  PathsOs os;
  std::string head(4096, '\0');
  head[510] = '\x55';
  head[511] = '\xAA';
  head[446 + 4] = '\x83';
  os.paths["/dev/sdz"] = {S_IFBLK | 0660, 0, false, 0, head};
  Plan plan = pattern_plan();
  plan.profile = &kProfilePresets[0];
  plan.size = 1 << 20;
  const Resolved r = resolve_with(os, copy_of("/dev/zero", "/dev/sdz"), plan);
  EXPECT_FALSE(r.job);
  EXPECT_NE(r.said.find("holds a DOS (MBR) partition table"), std::string::npos) << r.said;
  EXPECT_NE(r.said.find("--profile="), std::string::npos) << r.said;
}

TEST(Resolve, APatternOverABlankDeviceIsAllowed) {
  PathsOs os;
  os.paths["/dev/sdz"] = {S_IFBLK | 0660, 0, false, 0, std::string(70000, '\0')};
  EXPECT_TRUE(resolve_with(os, copy_of("/dev/zero", "/dev/sdz"), pattern_plan()).job);
}

TEST(Resolve, ForceWritesAPatternOverAFileSystemAndAFile) {
  PathsOs os;
  os.paths["/dev/loop3"] = {S_IFBLK | 0660, 0, false, 0, ext4_head()};
  os.paths["userdata.bin"] = {S_IFREG | 0644, 10 << 20};
  Plan plan = pattern_plan();
  plan.force = true;
  EXPECT_TRUE(resolve_with(os, copy_of("/dev/zero", "/dev/loop3"), plan).job);
  EXPECT_TRUE(resolve_with(os, copy_of("/dev/zero", "userdata.bin"), plan).job);
}

TEST(Resolve, AForcedProfileNeverGrowsAnExistingFile) {
  PathsOs os;
  os.paths["userdata.bin"] = {S_IFREG | 0644, 10 << 20};
  Plan plan = pattern_plan();
  plan.profile = &kProfilePresets[0];
  plan.force = true;
  plan.size = std::int64_t{1} << 30;
  const Resolved r = resolve_with(os, copy_of("/dev/zero", "userdata.bin"), plan);
  EXPECT_FALSE(r.job);
  EXPECT_NE(r.said.find("a profile never grows a file"), std::string::npos) << r.said;
  plan.size = 10 << 20;
  EXPECT_TRUE(resolve_with(os, copy_of("/dev/zero", "userdata.bin"), plan).job);
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
