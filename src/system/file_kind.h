// SPDX-License-Identifier: GPL-3.0-or-later
// file_kind — what a file is, decided once from its stat (as FreeBSD dd's
// getfdtype does), and what follows from it: whether it can be read again
// from where a run started, whether writes may go at offsets of their own,
// whether O_DIRECT can be had, and whether its reads are zeros; and what a
// regular file or block device holds. The kind travels with the run (a
// ResolvedRun, a Run, a CopyRequest), so nothing probes a file to learn it
// again; classify is pure, file_size asks the Os.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <string>

#include "system/os.h"

namespace ddtime {

enum class FileKind {
  kRegular,
  kBlock,
  kNull,            // /dev/null
  kZero,            // /dev/zero
  kFull,            // /dev/full: reads zeros, refuses writes
  kRandom,          // /dev/random, /dev/urandom
  kOtherCharacter,  // terminals, tapes, ...: each read or write may be a record
  kPipe,
  kSocket,
  kDirectory,
  kAbsent,  // no such file (yet): an output the run will create
  kUnknown,
};

FileKind classify(const struct stat& status) noexcept;

// A side's kind, found once: the named file's (kAbsent when there is no
// such file yet), or, with no name, the open descriptor's (a standard
// stream); kUnknown when the OS will not say.
FileKind find_kind(Os& os, const std::optional<std::string>& path, int fd) noexcept;

// A run's two sides, as resolve found them before anything was opened.
struct FileKinds {
  FileKind input = FileKind::kUnknown;
  FileKind output = FileKind::kUnknown;
};

// What a file is once a run has opened it: an output that was not there
// is the regular file the open created (O_CREAT makes nothing else).
constexpr FileKind once_opened(FileKind kind) noexcept { return kind == FileKind::kAbsent ? FileKind::kRegular : kind; }
constexpr FileKinds once_opened(FileKinds kinds) noexcept {
  return {once_opened(kinds.input), once_opened(kinds.output)};
}

// What a regular file (its stat's size) or a block device (BLKGETSIZE64)
// holds, in bytes, now; nullopt for any other kind, or when the OS will not
// say. The one place a file's size is worked out: by descriptor, or by name
// for a file no run has opened yet (a regular file is stat'ed, not opened,
// so that one the user may not read still has a size; a device is opened
// read-only for the question and closed).
std::optional<std::int64_t> file_size(Os& os, int fd, FileKind kind) noexcept;
std::optional<std::int64_t> file_size(Os& os, const std::string& path, FileKind kind) noexcept;

// A regular file or a block device: offsets of its own, read again alike.
constexpr bool is_positional(FileKind kind) noexcept { return kind == FileKind::kRegular || kind == FileKind::kBlock; }

// A memory device whose reads or writes are the same wherever and
// whenever they are made: any order will do.
constexpr bool is_order_free(FileKind kind) noexcept {
  return kind == FileKind::kNull || kind == FileKind::kZero || kind == FileKind::kFull || kind == FileKind::kRandom;
}

// Gives the same bytes when read again: a file or device, or zeros.
constexpr bool reads_again_alike(FileKind kind) noexcept {
  return is_positional(kind) || kind == FileKind::kZero || kind == FileKind::kFull;
}

// Can be opened again by name for another run, as a session does: not a
// pipe, a socket, or a character device whose reads are records.
constexpr bool can_reopen(FileKind kind) noexcept {
  return kind != FileKind::kPipe && kind != FileKind::kSocket && kind != FileKind::kOtherCharacter;
}

// O_DIRECT can be had (--direct): a regular file or block device, or a
// file the run will create.
constexpr bool can_take_direct(FileKind kind) noexcept { return is_positional(kind) || kind == FileKind::kAbsent; }

}  // namespace ddtime
