// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/file_kind.h"

#include <sys/sysmacros.h>

namespace ddtime {

FileKind classify(const struct stat& status) noexcept {
  if (S_ISREG(status.st_mode)) return FileKind::kRegular;
  if (S_ISBLK(status.st_mode)) return FileKind::kBlock;
  if (S_ISFIFO(status.st_mode)) return FileKind::kPipe;
  if (S_ISSOCK(status.st_mode)) return FileKind::kSocket;
  if (S_ISDIR(status.st_mode)) return FileKind::kDirectory;
  if (!S_ISCHR(status.st_mode)) return FileKind::kUnknown;
  // The memory devices, major 1: null 3, zero 5, full 7, random 8, urandom 9.
  if (major(status.st_rdev) == 1) {
    switch (minor(status.st_rdev)) {
      case 3:
        return FileKind::kNull;
      case 5:
        return FileKind::kZero;
      case 7:
        return FileKind::kFull;
      case 8:
      case 9:
        return FileKind::kRandom;
      default:
        break;
    }
  }
  return FileKind::kOtherCharacter;
}

}  // namespace ddtime
