// SPDX-License-Identifier: GPL-3.0-or-later
// --readback --verify against a disk that lies on reads (issue 13):
// faultfs hands back a corrupted sector (its bytes inverted) or another
// block's data in place of the block asked for, on every read of the
// output. The copy and the read pass cannot tell; --verify must, naming
// the first bad byte, and exit 1.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <regex>
#include <string>
#include <thread>

#include "e2e/harness.h"
#include "fault/fault_fs.h"

namespace ddtime::fault {
namespace {

class VerifyOnALyingDisk : public e2e::DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    if (HasFatalFailure()) return;
    SKIP_IF_ANOTHER_DD();
    std::string why = why_fault_fs_unavailable();
    if (why.empty()) why = fs_.mount(dir());
    if (!why.empty()) {
      if (fault_fs_required()) FAIL() << why << " (and DDTIME_FAULT_REQUIRED is set)";
      GTEST_SKIP() << "cannot mount the fault filesystem: " << why;
    }
    // Every 64 KiB block different, so a misplaced one shows.
    std::string input(1 << 20, '\0');
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<char>((i / 65536) * 37 + (i % 251));
    write_file("in", input);
    ASSERT_EQ(fs_.control("file out size=0\n"), "");
  }
  void TearDown() override {
    EXPECT_EQ(fs_.unmount(), "");
    DdTest::TearDown();
  }
  e2e::Result readback() {
    return ddtime({"if=in", "of=" + (fs_.mount_point() / "out").string(), "bs=64k", "--readback", "--verify"});
  }
  FaultFs fs_;
};

TEST_F(VerifyOnALyingDisk, ACorruptedSectorIsNamedByItsFirstBadByte) {
  ASSERT_EQ(fs_.control("fault out read flip at=300000-300512 times=always\n"), "");
  const e2e::Result r = readback();
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(
      r.err.find("ddtime: --verify: what was read back differs from what was written, first at offset 300000 of "),
      std::string::npos)
      << r.err;
  EXPECT_TRUE(
      std::regex_search(r.err, std::regex("ddtime: verify: mismatch at offset 300000, 300000 B equal before it")))
      << r.err;
}

TEST_F(VerifyOnALyingDisk, AMisplacedBlockIsCaught) {
  // The block at 128 KiB comes back with the data of the block after it.
  ASSERT_EQ(fs_.control("fault out read from=65536 at=131072-196608 times=always\n"), "");
  const e2e::Result r = readback();
  EXPECT_STATUS(r, "exit 1");
  EXPECT_NE(r.err.find("first at offset 131072 of "), std::string::npos) << r.err;
}

TEST_F(VerifyOnALyingDisk, AStaleStampedBlockIsCaught) {
  // The device hands back the block before the one asked for: with
  // --pattern=stamp every sector names where it belongs.
  ASSERT_EQ(fs_.control("fault out read from=-65536 at=262144-327680 times=always\n"), "");
  const e2e::Result r =
      ddtime({"of=" + (fs_.mount_point() / "out").string(), "bs=64k", "count=16", "--pattern=stamp", "--verify"});
  EXPECT_STATUS(r, "exit 1");
  // The sector's stamp says 0x30000 where 0x40000 belongs: the low two
  // bytes agree, the third is the first to differ.
  EXPECT_NE(r.err.find("first at offset 262146 of "), std::string::npos) << r.err;
}

TEST_F(VerifyOnALyingDisk, AnHonestDiskVerifies) {
  const e2e::Result r = readback();
  EXPECT_STATUS(r, "exit 0");
  EXPECT_NE(r.err.find("ddtime: verify: ok, 1.0 MiB (1048576 B) compared"), std::string::npos) << r.err;
}

// Found by the combination test (seed 424242, case 255): a SIGINT that came
// while the last block was being compared was caught and never heeded,
// and the process exited 0 saying "verify: ok". The verify's read of the
// last block is held up here, and the signal sent meanwhile.
TEST_F(VerifyOnALyingDisk, ASigintDuringTheLastBlockComparedEndsTheProcessByIt) {
  // The read pass reads the last block once; the verify's read of it waits.
  ASSERT_EQ(fs_.control("fault out read delay=600 at=983040-1048576 after=1\n"), "");
  e2e::Options o = opts({"if=in", "of=" + (fs_.mount_point() / "out").string(), "bs=64k", "--readback", "--verify"});
  o.as_ddtime = true;
  o.timeout = std::chrono::milliseconds(30000);
  e2e::DdProcess p(o);
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& e) { return e.find("ddtime: read: ") != std::string::npos; },
                                std::chrono::milliseconds(20000)))
      << p.stderr_so_far();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  p.send_signal(SIGINT);
  const e2e::Result r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  EXPECT_EQ(r.err.find("ddtime: verify: ok"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ddtime::fault
