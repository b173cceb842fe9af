// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/disk_signature.h"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace ddtime {
namespace {

bool has(std::span<const unsigned char> head, std::size_t at, std::string_view magic) {
  return at + magic.size() <= head.size() && std::memcmp(head.data() + at, magic.data(), magic.size()) == 0;
}

std::uint32_t le32(std::span<const unsigned char> head, std::size_t at) {
  if (at + 4 > head.size()) return 0;
  return static_cast<std::uint32_t>(head[at]) | static_cast<std::uint32_t>(head[at + 1]) << 8 |
         static_cast<std::uint32_t>(head[at + 2]) << 16 | static_cast<std::uint32_t>(head[at + 3]) << 24;
}

// A label field: up to its first NUL, trailing blanks cut (FAT pads with
// spaces, and an unset FAT label reads "NO NAME").
std::string label_at(std::span<const unsigned char> head, std::size_t at, std::size_t length) {
  if (at + length > head.size()) return {};
  std::string label;
  for (std::size_t i = 0; i < length && head[at + i] != 0; ++i) label.push_back(static_cast<char>(head[at + i]));
  while (!label.empty() && label.back() == ' ') label.pop_back();
  if (label == "NO NAME") label.clear();
  return label;
}

bool boot_signature(std::span<const unsigned char> head) {
  return head.size() >= 512 && head[510] == 0x55 && head[511] == 0xAA;
}

// ext2, 3 or 4 by the superblock's features (at 1024): ext4's extents,
// 64-bit or flexible groups, else ext3's journal, else ext2.
DiskContent ext_version(std::span<const unsigned char> head) {
  constexpr std::uint32_t kIncompatExt4 = 0x0040 | 0x0080 | 0x0200;  // extents, 64bit, flex_bg
  constexpr std::uint32_t kCompatJournal = 0x0004;
  if (le32(head, 1024 + 0x60) & kIncompatExt4) return DiskContent::kExt4;
  if (le32(head, 1024 + 0x5C) & kCompatJournal) return DiskContent::kExt3;
  return DiskContent::kExt2;
}

std::optional<DiskSignature> file_system(std::span<const unsigned char> head) {
  if (has(head, 0, "LUKS\xba\xbe")) return DiskSignature{DiskContent::kLuks, {}};
  if (has(head, 0, "XFSB")) return DiskSignature{DiskContent::kXfs, label_at(head, 108, 12)};
  if (has(head, 0, "hsqs")) return DiskSignature{DiskContent::kSquashfs, {}};
  if (has(head, 3, "NTFS    ")) return DiskSignature{DiskContent::kNtfs, {}};
  if (boot_signature(head)) {
    if (has(head, 82, "FAT32")) return DiskSignature{DiskContent::kFat, label_at(head, 71, 11)};
    if (has(head, 54, "FAT12") || has(head, 54, "FAT16")) {
      return DiskSignature{DiskContent::kFat, label_at(head, 43, 11)};
    }
  }
  if (has(head, 1080, "\x53\xEF")) return DiskSignature{ext_version(head), label_at(head, 1144, 16)};
  if (le32(head, 1024) == 0xF2F52010u) return DiskSignature{DiskContent::kF2fs, {}};
  if (has(head, 65600, "_BHRfS_M")) return DiskSignature{DiskContent::kBtrfs, label_at(head, 65536 + 0x12B, 256)};
  if (has(head, 32769, "CD001")) return DiskSignature{DiskContent::kIso9660, label_at(head, 32768 + 40, 32)};
  for (std::size_t sector = 0; sector < 4; ++sector) {
    if (has(head, sector * 512, "LABELONE")) return DiskSignature{DiskContent::kLvm2, {}};
  }
  // The swap header ends its first page; pages of 4 to 64 KiB.
  for (const std::size_t page : {4096u, 8192u, 16384u, 65536u}) {
    if (has(head, page - 10, "SWAPSPACE2") || has(head, page - 10, "SWAP-SPACE")) {
      return DiskSignature{DiskContent::kSwap, label_at(head, 1024 + 28, 16)};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<DiskSignature> find_disk_signature(std::span<const unsigned char> head) {
  if (std::optional<DiskSignature> found = file_system(head)) return found;
  // GPT's header at LBA 1, for 512- and 4096-byte sectors.
  if (has(head, 512, "EFI PART") || has(head, 4096, "EFI PART")) return DiskSignature{DiskContent::kGpt, {}};
  if (boot_signature(head)) {
    // An MBR with an entry in use: a partition type other than 0.
    for (std::size_t entry = 0; entry < 4; ++entry) {
      if (head[446 + entry * 16 + 4] != 0) return DiskSignature{DiskContent::kMbr, {}};
    }
  }
  return std::nullopt;
}

}  // namespace ddtime
