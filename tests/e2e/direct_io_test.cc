// SPDX-License-Identifier: GPL-3.0-or-later
// Direct I/O on real block devices (issue 3): loop devices with 4096- and
// 512-byte logical blocks, read to the end and written with a final partial
// block; misaligned sizes and offsets refused with the fix when invoked as
// ddtime and failing with the kernel's EINVAL, as in GNU dd 9.1, when
// invoked as dd; --direct on one side only; the size of a block device as
// the --progress total.
//
// Tests of the dd behaviour also run against DDTIME_E2E_DD (GNU's dd
// passes them); tests of ddtime's own messages and options skip there.
// Loop devices need root, losetup and /dev/loop-control: without them the
// tests skip and say which is missing.

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "support/json.h"

namespace ddtime::e2e {
namespace {

using support::Json;
using support::JsonError;
using support::parse_json;

// 258 blocks of 4096 bytes: 1 MiB and two blocks, so bs=1M ends short.
class Loop4096 : public LoopDevice {
 protected:
  static constexpr std::size_t kSize = 1048576 + 8192;
  Loop4096() : LoopDevice(4096, kSize) {}
};

// 129 sectors of 512 bytes.
class Loop512 : public LoopDevice {
 protected:
  static constexpr std::size_t kSize = 129 * 512;
  Loop512() : LoopDevice(512, kSize) {}
};

// The same devices for ddtime's own behaviour: skipped, before any device
// is attached, when DDTIME_E2E_DD names another dd.
template <typename Device>
class AsDdtime : public Device {
 protected:
  void SetUp() override {
    SKIP_IF_ANOTHER_DD();
    Device::SetUp();
  }
};
using Loop4096AsDdtime = AsDdtime<Loop4096>;
using Loop512AsDdtime = AsDdtime<Loop512>;

std::optional<Json> json_or_fail(const std::string& text) {
  try {
    return parse_json(text);
  } catch (const JsonError& error) {
    ADD_FAILURE() << error.what() << " in:\n" << text;
    return std::nullopt;
  }
}

// ---- reading ----

TEST_F(Loop4096, DirectReadAtTheBlockSizeReadsTheWholeDevice) {
  Result r = dd({"if=" + device_, "bs=4096", "iflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "258+0 records in\n258+0 records out\n"
            "1056768 bytes (1.1 MB, 1.0 MiB) copied, <T> s, <R>\n");
  EXPECT_TRUE(r.out == content_) << "stdout differs from the device (" << r.out.size() << " bytes)";
}

TEST_F(Loop4096, DirectReadWithOneMegabyteBlocksEndsWithAShortRecord) {
  Result r = dd({"if=" + device_, "bs=1M", "iflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "1+1 records in\n1+1 records out\n"
            "1056768 bytes (1.1 MB, 1.0 MiB) copied, <T> s, <R>\n");
  EXPECT_TRUE(r.out == content_) << "stdout differs from the device (" << r.out.size() << " bytes)";
}

TEST_F(Loop4096, DirectReadWithAlignedSkipStartsAtThatBlock) {
  Result r = dd({"if=" + device_, "bs=4096", "skip=1", "count=2", "iflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "2+0 records in\n2+0 records out\n8192 bytes (8.2 kB, 8.0 KiB) copied, <T> s, <R>\n");
  EXPECT_TRUE(r.out == content_.substr(4096, 8192));
}

TEST_F(Loop4096AsDdtime, MisalignedBlockSizeIsRefusedWithTheFix) {
  Result r = ddtime({"if=" + device_, "bs=512", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: bs=512 is not a multiple of " + device_ +
                       "'s logical block size 4096; use bs=4096 or a multiple\n");
  EXPECT_EQ(r.out, "");
}

TEST_F(Loop4096AsDdtime, MisalignedInputBlockSizeNamesIbs) {
  Result r = ddtime({"if=" + device_, "ibs=512", "obs=4096", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: ibs=512 is not a multiple of " + device_ +
                       "'s logical block size 4096; use ibs=4096 or a multiple\n");
  EXPECT_EQ(r.out, "");
}

// GNU dd 9.1 opens the device, and the first read fails with EINVAL.
TEST_F(Loop4096, MisalignedBlockSizeFailsWithEinvalAsDd) {
  Result r = dd({"if=" + device_, "bs=512", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(), "dd: error reading '" + device_ +
                                "': Invalid argument\n"
                                "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
  EXPECT_EQ(r.out, "");
}

TEST_F(Loop4096AsDdtime, GnuOptionGivesGnusEinval) {
  Result r = ddtime({"if=" + device_, "bs=512", "iflag=direct", "--gnu"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(), "ddtime: error reading '" + device_ +
                                "': Invalid argument\n"
                                "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Loop4096AsDdtime, MisalignedSkipIsRefused) {
  Result r = ddtime({"if=" + device_, "bs=4096", "skip=1B", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: skip would start at byte 1, which is not a multiple of " + device_ +
                       "'s logical block size 4096\n");
  EXPECT_EQ(r.out, "");
}

TEST_F(Loop4096AsDdtime, ByteCountLeavingAShortDirectReadIsRefused) {
  Result r = ddtime({"if=" + device_, "of=/dev/null", "bs=4096", "count=5000", "iflag=count_bytes,direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: count= leaves a last read of 904 bytes, which is not a multiple of " + device_ +
                       "'s logical block size 4096\n");
}

TEST_F(Loop4096, MisalignedSkipFailsWithEinvalAsDd) {
  Result r = dd({"if=" + device_, "bs=4096", "skip=1B", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(), "dd: error reading '" + device_ +
                                "': Invalid argument\n"
                                "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

TEST_F(Loop4096, SkipPastTheEndCannotSkipAsDd) {
  Result r = dd({"if=" + device_, "bs=4096", "skip=300", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(), "dd: " + device_ +
                                ": cannot skip: Invalid argument\n"
                                "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

// ---- writing ----

TEST_F(Loop4096, DirectWriteEndsWithAPartialBlock) {
  const std::string input = pattern(10000, 7);
  write_file("in.bin", input);
  Result r = dd({"if=in.bin", "of=" + device_, "bs=4096", "oflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "2+1 records in\n2+1 records out\n10000 bytes (10 kB, 9.8 KiB) copied, <T> s, <R>\n");
  const std::string device = device_bytes();
  ASSERT_EQ(device.size(), kSize);
  EXPECT_TRUE(device.substr(0, 10000) == input) << "the device does not hold the input";
  EXPECT_TRUE(device.substr(10000) == content_.substr(10000)) << "bytes past the input changed";
}

TEST_F(Loop4096AsDdtime, DirectWriteReportsTheFsyncAfterThePartialBlock) {
  const std::string input = pattern(10000, 7);
  write_file("in.bin", input);
  Result r = ddtime({"if=in.bin", "of=" + device_, "bs=4096", "oflag=direct"});
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(device_bytes().substr(0, 10000) == input);
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 6u) << r;
  EXPECT_EQ(lines[4], "2+1 records out");
  EXPECT_TRUE(std::regex_match(lines[0], std::regex("^ddtime: real " + kDuration + " \\(copy " + kDuration +
                                                    " \\+ fsync " + kDuration + R"(\)  user .*  cpu \d+\.\d%$)")))
      << lines[0];
  EXPECT_EQ(lines[2], "ddtime: durability: oflag=direct; page cache bypassed");
}

TEST_F(Loop4096AsDdtime, AlignedDirectWriteMakesNoFlush) {
  write_file("in.bin", pattern(8192, 3));
  Result r = ddtime({"if=in.bin", "of=" + device_, "bs=4096", "oflag=direct"});
  ASSERT_STATUS(r, "exit 0");
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 6u) << r;
  EXPECT_TRUE(std::regex_match(lines[0], std::regex("^ddtime: real " + kDuration + "  user .*"))) << lines[0];
  EXPECT_EQ(lines[2], "ddtime: durability: oflag=direct; page cache bypassed");
}

TEST_F(Loop4096AsDdtime, MisalignedObsIsRefused) {
  write_file("in.bin", pattern(10000, 7));
  Result r = ddtime({"if=in.bin", "of=" + device_, "obs=1000", "oflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: obs=1000 is not a multiple of " + device_ +
                       "'s logical block size 4096; use obs=4096 or a multiple\n");
  EXPECT_TRUE(device_bytes() == content_) << "the device was written";
}

TEST_F(Loop4096, MisalignedObsFailsWithEinvalAsDd) {
  write_file("in.bin", pattern(10000, 7));
  Result r = dd({"if=in.bin", "of=" + device_, "obs=1000", "oflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  // Two 512-byte reads fill the first 1000-byte block; its write fails.
  EXPECT_EQ(r.err_masked(), "dd: writing to '" + device_ +
                                "': Invalid argument\n"
                                "2+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
  EXPECT_TRUE(device_bytes() == content_) << "the device was written";
}

TEST_F(Loop4096AsDdtime, MisalignedSeekIsRefused) {
  write_file("in.bin", pattern(4096, 7));
  Result r = ddtime({"if=in.bin", "of=" + device_, "bs=4096", "seek=3B", "oflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: seek would start at byte 3, which is not a multiple of " + device_ +
                       "'s logical block size 4096\n");
  EXPECT_TRUE(device_bytes() == content_) << "the device was written";
}

// ---- --direct ----

TEST_F(Loop4096AsDdtime, DirectOptionLeavesTheCharacterDeviceInputAlone) {
  Result r = ddtime({"--direct", "--json", "if=/dev/zero", "of=" + device_, "bs=4096", "count=2"});
  ASSERT_STATUS(r, "exit 0");
  const auto json = json_or_fail(r.err);
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["operands"]["iflag"].strings(), std::vector<std::string>{});
  EXPECT_EQ((*json)["operands"]["oflag"].strings(), std::vector<std::string>{"direct"});
  EXPECT_EQ((*json)["bytes_out"].integer(), 8192);
  const std::string device = device_bytes();
  EXPECT_TRUE(device.substr(0, 8192) == std::string(8192, '\0'));
  EXPECT_TRUE(device.substr(8192) == content_.substr(8192));
}

TEST_F(Loop4096AsDdtime, DirectOptionLeavesTheCharacterDeviceOutputAlone) {
  Result r = ddtime({"--direct", "--json", "if=" + device_, "of=/dev/null", "bs=4096", "count=2"});
  ASSERT_STATUS(r, "exit 0");
  const auto json = json_or_fail(r.err);
  ASSERT_TRUE(json);
  EXPECT_EQ((*json)["operands"]["iflag"].strings(), std::vector<std::string>{"direct"});
  EXPECT_EQ((*json)["operands"]["oflag"].strings(), std::vector<std::string>{});
  EXPECT_EQ((*json)["bytes_in"].integer(), 8192);
}

TEST_F(Loop4096AsDdtime, DirectOptionStillExplainsMisalignment) {
  Result r = ddtime({"--direct", "if=" + device_, "of=/dev/null", "bs=512"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "ddtime: bs=512 is not a multiple of " + device_ +
                       "'s logical block size 4096; use bs=4096 or a multiple\n");
}

// ---- the device size as the --progress total ----

TEST_F(Loop4096AsDdtime, ProgressTotalIsTheDeviceSize) {
  // 17 writes of up to 64 KiB through a pipe emptied 64 KiB every 100 ms:
  // about 1.6 s, so at least one update.
  SlowFifo fifo(path("slow"), 65536, 100ms);
  Options o = opts({"if=" + device_, "of=slow", "bs=64K", "iflag=direct", "--progress"});
  o.as_ddtime = true;
  o.timeout = 10000ms;
  Result r = dd(o);
  const std::string copied = fifo.finish();
  ASSERT_STATUS(r, "exit 0");
  EXPECT_TRUE(copied == content_) << "the FIFO got " << copied.size() << " bytes";
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r;
  const std::vector<std::string> lines = report_lines(r.err);
  std::size_t progress = 0;
  int last_percent = -1;
  for (; progress < lines.size() && !lines[progress].starts_with("ddtime: real "); ++progress) {
    std::smatch m;
    static const std::regex kLine(R"(^ddtime: \d+(?:\.\d)? (?:KiB|MiB) of 1\.0 MiB \((\d+)%\), )"
                                  R"(\d+(?:\.\d)? (?:[KMGTPE]i)?B/s, ETA (?:\d+:\d\d:\d\d|-:--:--)$)");
    ASSERT_TRUE(std::regex_match(lines[progress], m, kLine)) << lines[progress];
    const int percent = std::stoi(m[1]);
    EXPECT_GE(percent, last_percent);
    EXPECT_LE(percent, 100);
    last_percent = percent;
  }
  EXPECT_GE(progress, 1u) << r;
  ASSERT_LT(progress + 4, lines.size()) << r;
  EXPECT_EQ(lines[progress + 2], "16+1 records in");
  // The final count is the device's size.
  EXPECT_EQ(mask_timing(lines[progress + 4]), "1056768 bytes (1.1 MB, 1.0 MiB) copied, <T> s, <R>");
}

// ---- 512-byte sectors ----

TEST_F(Loop512, DirectReadAt512Works) {
  Result r = dd({"if=" + device_, "bs=512", "iflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "129+0 records in\n129+0 records out\n66048 bytes (66 kB, 64 KiB) copied, <T> s, <R>\n");
  EXPECT_TRUE(r.out == content_);
}

TEST_F(Loop512AsDdtime, DirectReadAt512IsAccepted) {
  Result r = ddtime({"if=" + device_, "bs=512", "iflag=direct", "--units=bytes"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_TRUE(r.out == content_);
  const std::vector<std::string> lines = report_lines(r.err);
  ASSERT_EQ(lines.size(), 5u) << r;
  EXPECT_EQ(lines[2], "129+0 records in");
  EXPECT_TRUE(std::regex_match(lines[1], std::regex(R"(^ddtime: \d+ B/s; \d+ records?/s \(.* each\)$)"))) << lines[1];
}

TEST_F(Loop512, DirectWriteAt512Works) {
  const std::string input = pattern(1536, 9);
  write_file("in.bin", input);
  Result r = dd({"if=in.bin", "of=" + device_, "bs=512", "seek=2", "oflag=direct"});
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(), "3+0 records in\n3+0 records out\n1536 bytes (1.5 kB, 1.5 KiB) copied, <T> s, <R>\n");
  EXPECT_TRUE(device_bytes() == content_.substr(0, 1024) + input + content_.substr(2560));
}

TEST_F(Loop512AsDdtime, MisalignedBlockSizeIsRefused) {
  Result r = ddtime({"if=" + device_, "bs=100", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err,
            "ddtime: bs=100 is not a multiple of " + device_ + "'s logical block size 512; use bs=512 or a multiple\n");
}

// ---- character devices ----

class DirectIo : public DdTest {};

// O_DIRECT on /dev/zero fails at open, as in GNU dd 9.1.
TEST_F(DirectIo, DevZeroRefusesDirectAtOpen) {
  Result r = dd({"if=/dev/zero", "of=/dev/null", "count=1", "iflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open '/dev/zero': Invalid argument\n");
}

TEST_F(DirectIo, DevNullRefusesDirectAtOpen) {
  Result r = dd({"if=/dev/zero", "of=/dev/null", "count=1", "oflag=direct"});
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err, "dd: failed to open '/dev/null': Invalid argument\n");
}

}  // namespace
}  // namespace ddtime::e2e
