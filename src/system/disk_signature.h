// SPDX-License-Identifier: GPL-3.0-or-later
// disk_signature — what the first bytes of a block device say it holds: a
// partition table or a file system's superblock, found by its magic at its
// fixed offset (no libblkid). Pure: the bytes are read by the caller,
// through os; the words for people are report's (messages).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace ddtime {

enum class DiskContent {
  kMbr,  // a DOS partition table with at least one entry
  kGpt,
  kExt2,
  kExt3,
  kExt4,
  kXfs,
  kBtrfs,
  kSwap,
  kFat,
  kNtfs,
  kIso9660,
  kLuks,
  kLvm2,
  kSquashfs,
  kF2fs,
};

struct DiskSignature {
  DiskContent content;
  std::string label;  // the volume label when the format has one and it is set
};

// How many bytes from offset 0 find_disk_signature looks at: btrfs's
// superblock at 64 KiB and a swap header ending at a 64 KiB page.
inline constexpr std::size_t kDiskSignatureSpan = 69632;

// The signature in head (the device's first bytes, fewer when the device
// is smaller), or nullopt when none is known. File systems are looked for
// before partition tables: a FAT boot sector ends in 0x55AA as an MBR does.
std::optional<DiskSignature> find_disk_signature(std::span<const unsigned char> head);

}  // namespace ddtime
