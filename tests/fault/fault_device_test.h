// SPDX-License-Identifier: GPL-3.0-or-later
// fault_device_test — the fixture of the tests that put a loop device over
// a faultfs file: root, losetup and FUSE checked (a skip with the reason,
// a failure where DDTIME_FAULT_REQUIRED says FUSE must work), faultfs
// mounted in the test's directory, and the device detached and the file
// system unmounted however the test ends.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "e2e/harness.h"
#include "e2e/loop_device.h"
#include "fault/fault_fs.h"

namespace ddtime::fault {

class FaultDeviceTest : public e2e::DdTest {
 protected:
  void SetUp() override {
    DdTest::SetUp();
    if (HasFatalFailure()) return;
    SKIP_IF_ANOTHER_DD();
    if (::geteuid() != 0) GTEST_SKIP() << "attaching a loop device needs root";
    if (!e2e::shell("command -v losetup").ok) GTEST_SKIP() << "losetup (util-linux) is missing";
    std::string why = why_fault_fs_unavailable();
    if (why.empty()) why = fs_.mount(dir());
    if (!why.empty()) {
      if (fault_fs_required()) FAIL() << why << " (and DDTIME_FAULT_REQUIRED is set)";
      GTEST_SKIP() << "cannot mount the fault filesystem: " << why;
    }
  }
  void TearDown() override {
    if (!device_.empty()) EXPECT_TRUE(e2e::shell("losetup -d " + device_).ok) << device_;
    if (fs_.mounted()) EXPECT_EQ(fs_.unmount(), "");
    DdTest::TearDown();
  }
  // The faultfs file name, made by the control lines, attached as device_
  // (a skip where losetup cannot attach it here).
  void attach(const std::string& name, const std::string& control) {
    ASSERT_EQ(fs_.control(control), "");
    const e2e::Command attached = e2e::shell("losetup --find --show " + (fs_.mount_point() / name).string());
    if (!attached.ok) GTEST_SKIP() << "losetup could not attach a loop device here: " << attached.output;
    device_ = attached.output.substr(0, attached.output.find('\n'));
  }

  FaultFs fs_;
  std::string device_;
};

}  // namespace ddtime::fault
