// SPDX-License-Identifier: GPL-3.0-or-later
// Gathering the JSON's environment (issue 22): the parsers on the kernel's
// own text, then the whole gathering against a fake machine (FakeOs) whose
// /proc and /sys hold what a real one does, partitions and all.
#include "measure/environment.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <string>

#include "fakes/fake_os.h"

namespace ddtime {
namespace {

using testing::FakeOs;

// --- the parsers ---

TEST(CpuModel, IsTheFirstProcessorsModelName) {
  const std::string cpuinfo =
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel\t\t: 85\n"
      "model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz\nflags\t\t: fpu vme\n\n"
      "processor\t: 1\nmodel name\t: Another CPU\n";
  EXPECT_EQ(cpu_model_in(cpuinfo), "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz");
}

TEST(CpuModel, IsAbsentWhereTheKernelNamesNone) {
  // An arm64 kernel's cpuinfo has no "model name".
  EXPECT_EQ(cpu_model_in("processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n"), std::nullopt);
  EXPECT_EQ(cpu_model_in(""), std::nullopt);
  EXPECT_EQ(cpu_model_in("model name\t:\n"), std::nullopt);
}

TEST(MemoryTotal, IsMemTotalInBytes) {
  EXPECT_EQ(memory_total_in("MemTotal:       24683584 kB\nMemFree:         1000 kB\n"), 24683584LL * 1024);
  EXPECT_EQ(memory_total_in("MemFree:         1000 kB\n"), std::nullopt);
  EXPECT_EQ(memory_total_in("MemTotal:       lots kB\n"), std::nullopt);
}

constexpr const char* kMountinfo =
    "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
    "27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard\n"
    "40 27 8:10 / /srv rw,relatime shared:7 master:2 - btrfs /dev/sda10 rw\n"
    "41 27 8:1 / /data rw,noatime - xfs /dev/sda1 rw,attr2\n"
    "42 27 0:52 / /mnt/remote rw - fuse.sshfs host:/ rw\n";

TEST(MountType, IsTheTypeOfTheMountOfThatDevice) {
  EXPECT_EQ(mount_type_in(kMountinfo, 254, 0), "ext4");
  EXPECT_EQ(mount_type_in(kMountinfo, 8, 1), "xfs");  // not 8:10's
  EXPECT_EQ(mount_type_in(kMountinfo, 8, 10), "btrfs");
  EXPECT_EQ(mount_type_in(kMountinfo, 0, 52), "fuse.sshfs");
  EXPECT_EQ(mount_type_in(kMountinfo, 8, 2), std::nullopt);
  EXPECT_EQ(mount_type_in("", 8, 1), std::nullopt);
}

TEST(FilesystemOfMagic, NamesTheCommonOnesAndSaysWhenItCannotTellExt4) {
  EXPECT_EQ(filesystem_of_magic(0xEF53), "ext2/3/4");
  EXPECT_EQ(filesystem_of_magic(0x58465342), "xfs");
  EXPECT_EQ(filesystem_of_magic(0x9123683E), "btrfs");
  EXPECT_EQ(filesystem_of_magic(0x01021994), "tmpfs");
  EXPECT_EQ(filesystem_of_magic(0x794c7630), "overlay");
  EXPECT_EQ(filesystem_of_magic(0x12345678), "0x12345678");
}

TEST(Scheduler, IsTheBracketedOneOrTheOnlyOne) {
  EXPECT_EQ(scheduler_in("none [mq-deadline] kyber bfq"), "mq-deadline");
  EXPECT_EQ(scheduler_in("[none] mq-deadline"), "none");
  EXPECT_EQ(scheduler_in("none"), "none");
  EXPECT_EQ(scheduler_in("none mq-deadline"), std::nullopt);
}

// --- gathering, on a fake machine ---

constexpr const char* kSda = "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda";

struct stat status_of(mode_t mode, dev_t device, dev_t rdev = 0) {
  struct stat status {};
  status.st_mode = mode;
  status.st_dev = device;
  status.st_rdev = rdev;
  return status;
}

// A SATA disk sda with a partition sda1 (8:1, xfs, at /data), /dev/sda
// itself, /dev/zero, and a directory /data/new on the partition.
FakeOs a_machine() {
  FakeOs os;
  os.files["/proc/cpuinfo"] = "processor\t: 0\nmodel name\t: Fake CPU 9000\n";
  os.files["/proc/meminfo"] = "MemTotal:        2048 kB\n";
  os.files["/proc/self/mountinfo"] = kMountinfo;
  os.links["/sys/dev/block/8:1"] = std::string(kSda) + "/sda1";
  os.links["/sys/dev/block/8:0"] = kSda;
  os.files[std::string(kSda) + "/sda1/partition"] = "1\n";
  os.files[std::string(kSda) + "/device/model"] = "Samsung SSD 870   \n";
  os.files[std::string(kSda) + "/device/rev"] = "2B6Q\n";
  os.files[std::string(kSda) + "/queue/rotational"] = "0\n";
  os.files[std::string(kSda) + "/queue/logical_block_size"] = "512\n";
  os.files[std::string(kSda) + "/queue/scheduler"] = "none [mq-deadline] kyber\n";
  os.stats["/data/in.img"] = status_of(S_IFREG | 0644, makedev(8, 1));
  os.stats["/data"] = status_of(S_IFDIR | 0755, makedev(8, 1));
  os.stats["/dev/sda"] = status_of(S_IFBLK | 0660, makedev(0, 6), makedev(8, 0));
  os.stats["/dev/zero"] = status_of(S_IFCHR | 0666, makedev(0, 6), makedev(1, 5));
  return os;
}

TEST(Environment, APartitionIsDescribedByItsDisk) {
  FakeOs os = a_machine();
  const FileFacts facts = file_facts(os, "/data/in.img", kMountinfo);
  EXPECT_EQ(facts.path, "/data/in.img");
  EXPECT_EQ(facts.filesystem, "xfs");
  ASSERT_TRUE(facts.device);
  EXPECT_EQ(facts.device->name, "sda");
  EXPECT_EQ(facts.device->model, "Samsung SSD 870");
  EXPECT_EQ(facts.device->firmware, "2B6Q");
  EXPECT_EQ(facts.device->rotational, false);
  EXPECT_EQ(facts.device->logical_block_size, 512);
  EXPECT_EQ(facts.device->scheduler, "mq-deadline");
}

TEST(Environment, NvmeFirmwareComesFromFirmwareRev) {
  FakeOs os = a_machine();
  os.files[std::string(kSda) + "/device/firmware_rev"] = "3B2QGXA7\n";
  const std::optional<DeviceFacts> device = device_facts(os, makedev(8, 0));
  ASSERT_TRUE(device);
  EXPECT_EQ(device->firmware, "3B2QGXA7");
}

TEST(Environment, MissingSysfsFilesAreNullNeverAnError) {
  FakeOs os = a_machine();
  // A loop device: no device/ directory, no queue files either here.
  os.links["/sys/dev/block/7:0"] = "/sys/devices/virtual/block/loop0";
  const std::optional<DeviceFacts> device = device_facts(os, makedev(7, 0));
  ASSERT_TRUE(device);
  EXPECT_EQ(device->name, "loop0");
  EXPECT_EQ(device->model, std::nullopt);
  EXPECT_EQ(device->firmware, std::nullopt);
  EXPECT_EQ(device->rotational, std::nullopt);
  EXPECT_EQ(device->logical_block_size, std::nullopt);
  EXPECT_EQ(device->scheduler, std::nullopt);
}

// B19: what a comparison between machines needs of a block device.
TEST(Environment, ADiskGivesItsSizeAndWriteCacheAndALoopDeviceItsBackingFile) {
  FakeOs os = a_machine();
  os.files[std::string(kSda) + "/size"] = "1953525168\n";
  os.files[std::string(kSda) + "/queue/write_cache"] = "write back\n";
  const std::optional<DeviceFacts> disk = device_facts(os, makedev(8, 0));
  ASSERT_TRUE(disk);
  EXPECT_EQ(disk->size_bytes, std::int64_t{1953525168} * 512) << "sysfs counts 512-byte sectors";
  EXPECT_EQ(disk->write_cache, "write back");
  EXPECT_EQ(disk->backing_file, std::nullopt);
  os.links["/sys/dev/block/7:0"] = "/sys/devices/virtual/block/loop0";
  os.files["/sys/devices/virtual/block/loop0/loop/backing_file"] = "/var/tmp/disk1.img\n";
  os.files["/sys/devices/virtual/block/loop0/queue/write_cache"] = "write through\n";
  const std::optional<DeviceFacts> loop = device_facts(os, makedev(7, 0));
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop->backing_file, "/var/tmp/disk1.img");
  EXPECT_EQ(loop->write_cache, "write through");
  EXPECT_EQ(loop->size_bytes, std::nullopt);
}

TEST(Environment, ABlockDeviceIsItsOwnDiskWithNothingMounted) {
  FakeOs os = a_machine();
  const FileFacts facts = file_facts(os, "/dev/sda", kMountinfo);
  EXPECT_EQ(facts.filesystem, std::nullopt);  // devtmpfs's is not interesting
  ASSERT_TRUE(facts.device);
  EXPECT_EQ(facts.device->name, "sda");
  EXPECT_EQ(facts.device->model, "Samsung SSD 870");
}

TEST(Environment, ACharacterDeviceHasNoFilesystemAndNoDevice) {
  FakeOs os = a_machine();
  const FileFacts facts = file_facts(os, "/dev/zero", kMountinfo);
  EXPECT_EQ(facts.path, "/dev/zero");
  EXPECT_EQ(facts.filesystem, std::nullopt);
  EXPECT_EQ(facts.device, std::nullopt);
}

TEST(Environment, AFileNotThereYetIsDescribedByItsDirectory) {
  FakeOs os = a_machine();
  const FileFacts facts = file_facts(os, "/data/out.img", kMountinfo);
  EXPECT_EQ(facts.path, "/data/out.img");
  EXPECT_EQ(facts.filesystem, "xfs");
  ASSERT_TRUE(facts.device);
  EXPECT_EQ(facts.device->name, "sda");
}

TEST(Environment, StatfsNamesTheFilesystemWhenMountinfoDoesNot) {
  FakeOs os = a_machine();
  os.stats["/data/in.img"] = status_of(S_IFREG | 0644, makedev(0, 99));  // an anonymous device
  os.magics["/data/in.img"] = 0xEF53;
  const FileFacts facts = file_facts(os, "/data/in.img", kMountinfo);
  EXPECT_EQ(facts.filesystem, "ext2/3/4");
  EXPECT_EQ(facts.device, std::nullopt);  // sysfs does not know 0:99
}

TEST(Environment, GathersTheMachineTheCommandLineAndTheFiles) {
  FakeOs os = a_machine();
  const Environment environment =
      gather_environment(os, {"ddtime", "if=/data/in.img", "--json"}, std::string("/data/in.img"), std::nullopt);
  EXPECT_EQ(environment.host, "fakehost");
  ASSERT_TRUE(environment.kernel);
  EXPECT_EQ(environment.kernel->name, "Linux");
  EXPECT_EQ(environment.kernel->release, "6.1.0-fake");
  EXPECT_EQ(environment.kernel->version, "#1 SMP fake");
  EXPECT_EQ(environment.kernel->machine, "x86_64");
  EXPECT_EQ(environment.cpu_model, "Fake CPU 9000");
  EXPECT_EQ(environment.logical_cpus, 2);
  EXPECT_EQ(environment.memory_bytes, 2048 * 1024);
  EXPECT_EQ(environment.ddtime_version, DDTIME_VERSION);
  EXPECT_EQ(environment.command_line, (std::vector<std::string>{"ddtime", "if=/data/in.img", "--json"}));
  EXPECT_EQ(environment.date, os.wall_seconds);
  ASSERT_TRUE(environment.input);
  EXPECT_EQ(environment.input->filesystem, "xfs");
  EXPECT_EQ(environment.output, std::nullopt);  // standard output
  EXPECT_EQ(environment.random_seed, std::nullopt);
  EXPECT_EQ(environment.pattern_seed, std::nullopt);
}

TEST(Environment, WhatTheSystemWillNotTellIsAbsent) {
  FakeOs os;  // no /proc, no /sys
  os.names_error = EPERM;
  os.cpus_online = 0;
  const Environment environment = gather_environment(os, {"ddtime"}, std::string("nowhere/in"), std::nullopt);
  EXPECT_EQ(environment.host, std::nullopt);
  EXPECT_EQ(environment.kernel, std::nullopt);
  EXPECT_EQ(environment.cpu_model, std::nullopt);
  EXPECT_EQ(environment.logical_cpus, std::nullopt);
  EXPECT_EQ(environment.memory_bytes, std::nullopt);
  ASSERT_TRUE(environment.input);
  EXPECT_EQ(environment.input->path, "nowhere/in");
  EXPECT_EQ(environment.input->filesystem, std::nullopt);
  EXPECT_EQ(environment.input->device, std::nullopt);
}

TEST(Environment, ReadsOneDisksSysfsOnceForTwoFilesOnIt) {
  FakeOs os = a_machine();
  os.stats["/data/out.img"] = status_of(S_IFREG | 0644, makedev(8, 1));
  const Environment environment =
      gather_environment(os, {"ddtime"}, std::string("/data/in.img"), std::string("/data/out.img"));
  ASSERT_TRUE(environment.output && environment.output->device);
  EXPECT_EQ(environment.output->device->model, "Samsung SSD 870");
  EXPECT_EQ(os.count_calls("open " + std::string(kSda) + "/device/model"), 1u);
}

}  // namespace
}  // namespace ddtime
