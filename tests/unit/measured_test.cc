// SPDX-License-Identifier: GPL-3.0-or-later
// The "measured:" line's words for each case the issue names, and the CPU
// caches read from a fake sysfs root.
#include "measure/measured.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace ddtime {
namespace {

class FakeSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/ddtime-sysfs-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { std::system(("rm -rf '" + root_ + "'").c_str()); }
  void cache(int index, const char* level, const char* type, const char* size) {
    const std::string dir = root_ + "/index" + std::to_string(index);
    ::mkdir(dir.c_str(), 0755);
    std::ofstream(dir + "/level") << level << "\n";
    std::ofstream(dir + "/type") << type << "\n";
    std::ofstream(dir + "/size") << size << "\n";
  }
  std::string root_;
  PosixOs os_;
};

TEST_F(FakeSysfs, ReadsTheDataCachesSmallestFirstAndSkipsInstructions) {
  cache(0, "1", "Data", "48K");
  cache(1, "1", "Instruction", "32K");
  cache(2, "2", "Unified", "1024K");
  cache(3, "3", "Unified", "32768K");
  const std::vector<CpuCache> caches = read_cpu_caches(os_, root_);
  ASSERT_EQ(caches.size(), 3u);
  EXPECT_EQ(caches[0].level, 1);
  EXPECT_EQ(caches[0].bytes, 48 << 10);
  EXPECT_EQ(caches[1].bytes, 1 << 20);
  EXPECT_EQ(caches[2].bytes, 32 << 20);
  EXPECT_EQ(cache_level_for(4096, caches), "L1");
  EXPECT_EQ(cache_level_for(48 << 10, caches), "L1");
  EXPECT_EQ(cache_level_for(64 << 10, caches), "L2");
  EXPECT_EQ(cache_level_for(2 << 20, caches), "L3");
  EXPECT_EQ(cache_level_for(64 << 20, caches), "memory");
  // No word from sysfs: unknown, never "memory".
  EXPECT_EQ(cache_level_for(4096, {}), "?");
}

TEST_F(FakeSysfs, NoSysfsNoCaches) { EXPECT_TRUE(read_cpu_caches(os_, root_ + "/absent").empty()); }

MeasuredFacts facts(SideKind input, SideKind output) {
  MeasuredFacts f;
  f.input = input;
  f.output = output;
  f.input_name = "in.img";
  f.output_name = "out.img";
  f.bs = 65536;
  f.caches = {{1, 48 << 10}, {2, 1 << 20}, {3, 32 << 20}};
  return f;
}

TEST(MeasuredLine, ZeroToNullIsTheKernelFillingABufferNotADevice) {
  EXPECT_EQ(measured_line("ddtime", facts(SideKind::kZero, SideKind::kNull)),
            "ddtime: measured: the kernel zero-filling a 64 KiB buffer in this process's memory, which fits in L2, "
            "plus two system calls per record; no device, and /dev/null keeps nothing\n");
}

TEST(MeasuredLine, AFileInputSaysHowMuchWasCached) {
  MeasuredFacts f = facts(SideKind::kRegular, SideKind::kNull);
  f.input_resident = 1.0;
  EXPECT_EQ(measured_line("ddtime", f),
            "ddtime: measured: reading 'in.img', 100.0% of the data read in the page cache before the run: from "
            "memory, not from "
            "the disk; writing to /dev/null, which discards\n");
  f.input_resident = 0.0;
  EXPECT_EQ(measured_line("ddtime", f),
            "ddtime: measured: reading 'in.img', 0.0% of the data read in the page cache before the run; writing to "
            "/dev/null, "
            "which discards\n");
}

// Defect 30: "a 3000 bytes buffer".
TEST(MeasuredLine, ABufferOfOddSizeIsAByteCount) {
  MeasuredFacts f = facts(SideKind::kZero, SideKind::kNull);
  f.bs = 3000;
  EXPECT_NE(measured_line("ddtime", f).find("zero-filling a 3000-byte buffer"), std::string::npos)
      << measured_line("ddtime", f);
}

TEST(MeasuredLine, AResidencyTheKernelWouldNotTellIsUnknown) {
  MeasuredFacts f = facts(SideKind::kRegular, SideKind::kNull);
  f.input_residency_unknown = true;
  EXPECT_EQ(measured_line("ddtime", f),
            "ddtime: measured: reading 'in.img', how much of it was in the page cache unknown (the kernel tells only "
            "the file's owner or a user who may write it): maybe from memory; writing to /dev/null, which discards\n");
}

TEST(MeasuredLine, ABlockDeviceWithAndWithoutDirect) {
  MeasuredFacts f = facts(SideKind::kBlock, SideKind::kNull);
  f.input_name = "/dev/nvme0n1";
  EXPECT_NE(
      measured_line("ddtime", f).find("through the page cache: reads may have come from memory (add iflag=direct)"),
      std::string::npos);
  f.input_direct = true;
  EXPECT_NE(measured_line("ddtime", f).find("reading the device '/dev/nvme0n1' with O_DIRECT: every read reached it"),
            std::string::npos);
}

TEST(MeasuredLine, URandomIsTheKernelsGenerator) {
  EXPECT_EQ(measured_line("ddtime", facts(SideKind::kRandom, SideKind::kNull)),
            "ddtime: measured: the kernel's random generator, not a device; writing to /dev/null, which discards\n");
}

TEST(MeasuredLine, AFileOutputWithoutAFlushIsThePageCache) {
  MeasuredFacts f = facts(SideKind::kZero, SideKind::kRegular);
  EXPECT_NE(
      measured_line("ddtime", f).find("writing 'out.img' into the page cache, not the device: add conv=fdatasync"),
      std::string::npos);
  f.output_flushed = true;
  EXPECT_NE(measured_line("ddtime", f).find("writing 'out.img' through to the device"), std::string::npos);
}

TEST(SideKind, TheMemoryDevicesByNumber) {
  struct stat status {};
  status.st_mode = S_IFCHR | 0666;
  status.st_rdev = makedev(1, 5);
  EXPECT_EQ(side_kind_of(classify(status)), SideKind::kZero);
  status.st_rdev = makedev(1, 9);
  EXPECT_EQ(side_kind_of(classify(status)), SideKind::kRandom);
  status.st_rdev = makedev(1, 3);
  EXPECT_EQ(side_kind_of(classify(status)), SideKind::kNull);
  status.st_rdev = makedev(4, 1);
  EXPECT_EQ(side_kind_of(classify(status)), SideKind::kOtherCharacter);
  status.st_mode = S_IFIFO | 0600;
  EXPECT_EQ(side_kind_of(classify(status)), SideKind::kPipe);
}

}  // namespace
}  // namespace ddtime
