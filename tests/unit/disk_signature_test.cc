// SPDX-License-Identifier: GPL-3.0-or-later
// find_disk_signature over bytes laid out as each format lays them out:
// a magic at its offset gives its kind and label, and a zeroed or random
// head gives none.
#include "system/disk_signature.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string_view>
#include <vector>

namespace ddtime {
namespace {

class Head {
 public:
  explicit Head(std::size_t size = kDiskSignatureSpan) : bytes_(size, 0) {}
  Head& put(std::size_t at, std::string_view text) {
    std::memcpy(bytes_.data() + at, text.data(), text.size());
    return *this;
  }
  Head& boot_signature() { return put(510, "\x55\xAA"); }
  std::optional<DiskSignature> found() const { return find_disk_signature(bytes_); }

 private:
  std::vector<unsigned char> bytes_;
};

void expect(const Head& head, DiskContent content, std::string_view label = {}) {
  const std::optional<DiskSignature> found = head.found();
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->content, content);
  EXPECT_EQ(found->label, label);
}

TEST(DiskSignature, ZerosHoldNothing) { EXPECT_FALSE(Head().found().has_value()); }

TEST(DiskSignature, ABootSignatureWithNoPartitionEntryIsNoTable) {
  EXPECT_FALSE(Head().boot_signature().found().has_value());
}

TEST(DiskSignature, AnMbrWithAnEntryInUseIsATable) {
  expect(Head().boot_signature().put(446 + 16 + 4, "\x83"), DiskContent::kMbr);
}

TEST(DiskSignature, GptIsFoundAtLbaOneOf512ByteSectors) { expect(Head().put(512, "EFI PART"), DiskContent::kGpt); }

TEST(DiskSignature, GptIsFoundAtLbaOneOf4096ByteSectors) { expect(Head().put(4096, "EFI PART"), DiskContent::kGpt); }

TEST(DiskSignature, GptIsSaidRatherThanItsProtectiveMbr) {
  expect(Head().boot_signature().put(446 + 4, "\xEE").put(512, "EFI PART"), DiskContent::kGpt);
}

TEST(DiskSignature, Ext2HasTheMagicAndNoJournal) {
  expect(Head().put(1080, "\x53\xEF").put(1144, "data"), DiskContent::kExt2, "data");
}

TEST(DiskSignature, Ext3HasAJournal) {
  expect(Head().put(1080, "\x53\xEF").put(1024 + 0x5C, "\x04"), DiskContent::kExt3);
}

TEST(DiskSignature, Ext4HasExtentsAndItsLabel) {
  expect(Head().put(1080, "\x53\xEF").put(1024 + 0x60, "\x40").put(1144, "home"), DiskContent::kExt4, "home");
}

TEST(DiskSignature, XfsAndItsLabel) { expect(Head().put(0, "XFSB").put(108, "scratch"), DiskContent::kXfs, "scratch"); }

TEST(DiskSignature, BtrfsAndItsLabel) {
  expect(Head().put(65600, "_BHRfS_M").put(65536 + 0x12B, "pool"), DiskContent::kBtrfs, "pool");
}

TEST(DiskSignature, SwapVersionTwoOnA4KiBPage) {
  expect(Head().put(4096 - 10, "SWAPSPACE2").put(1052, "swap0"), DiskContent::kSwap, "swap0");
}

TEST(DiskSignature, OldSwapOnA64KiBPage) { expect(Head().put(65536 - 10, "SWAP-SPACE"), DiskContent::kSwap); }

TEST(DiskSignature, Fat16AndItsLabelWithTheBootSignature) {
  expect(Head().boot_signature().put(54, "FAT16   ").put(43, "USBSTICK   "), DiskContent::kFat, "USBSTICK");
}

TEST(DiskSignature, Fat32IsAFatNotAnMbr) {
  expect(Head().boot_signature().put(82, "FAT32   ").put(71, "NO NAME    ").put(446 + 4, "\x0c"), DiskContent::kFat);
}

TEST(DiskSignature, AFatMarkerWithoutTheBootSignatureIsNothing) {
  EXPECT_FALSE(Head().put(54, "FAT12   ").found().has_value());
}

TEST(DiskSignature, Ntfs) { expect(Head().boot_signature().put(3, "NTFS    "), DiskContent::kNtfs); }

TEST(DiskSignature, Iso9660AndItsVolumeName) {
  expect(Head().put(32769, "CD001").put(32768 + 40, "DISC"), DiskContent::kIso9660, "DISC");
}

TEST(DiskSignature, Luks) { expect(Head().put(0, "LUKS\xba\xbe"), DiskContent::kLuks); }

TEST(DiskSignature, Lvm2InAnyOfTheFirstFourSectors) {
  expect(Head().put(0, "LABELONE"), DiskContent::kLvm2);
  expect(Head().put(3 * 512, "LABELONE"), DiskContent::kLvm2);
}

TEST(DiskSignature, Squashfs) { expect(Head().put(0, "hsqs"), DiskContent::kSquashfs); }

TEST(DiskSignature, F2fs) { expect(Head().put(1024, "\x10\x20\xF5\xF2"), DiskContent::kF2fs); }

TEST(DiskSignature, AHeadShorterThanAnOffsetIsReadOnlyAsFarAsItGoes) {
  expect(Head(2048).put(1080, "\x53\xEF").put(1024 + 0x60, "\x40"), DiskContent::kExt4);
  EXPECT_FALSE(Head(100).found().has_value());
}

}  // namespace
}  // namespace ddtime
