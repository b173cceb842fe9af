// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/file_kind.h"

#include <fcntl.h>
#include <sys/sysmacros.h>

#include <cerrno>

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

FileKind find_kind(Os& os, const std::optional<std::string>& path, int fd) noexcept {
  struct stat status {};
  if (!path) return os.fstat(fd, status).ok() ? classify(status) : FileKind::kUnknown;
  const IoResult found = os.stat_path(path->c_str(), status);
  if (!found.ok()) return found.err == ENOENT ? FileKind::kAbsent : FileKind::kUnknown;
  return classify(status);
}

namespace {

std::optional<std::int64_t> device_size(Os& os, int fd) noexcept {
  const IoResult size = os.block_device_size(fd);
  return size.ok() ? std::optional<std::int64_t>(size.n) : std::nullopt;
}

}  // namespace

std::optional<std::int64_t> file_size(Os& os, int fd, FileKind kind) noexcept {
  if (kind == FileKind::kBlock) return device_size(os, fd);
  struct stat status {};
  if (kind != FileKind::kRegular || !os.fstat(fd, status).ok()) return std::nullopt;
  return status.st_size;
}

std::optional<std::int64_t> file_size(Os& os, const std::string& path, FileKind kind) noexcept {
  if (kind == FileKind::kRegular) {
    struct stat status {};
    if (!os.stat_path(path.c_str(), status).ok()) return std::nullopt;
    return status.st_size;
  }
  if (kind != FileKind::kBlock) return std::nullopt;
  const IoResult opened = os.open(path.c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return std::nullopt;
  const std::optional<std::int64_t> size = device_size(os, static_cast<int>(opened.n));
  os.close(static_cast<int>(opened.n));
  return size;
}

}  // namespace ddtime
