// SPDX-License-Identifier: GPL-3.0-or-later
// measured — the "ddtime: measured:" line: what the figures of a run are,
// in plain words, so that /dev/zero to /dev/null is not quoted as memory
// bandwidth and a read from the page cache is not taken for a read from
// the disk. Facts in (what the files are, the flags, the caches of the
// CPU, how much of the input was resident), words out; the facts are
// gathered through os before the run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/settings.h"
#include "system/file_kind.h"
#include "system/os.h"

namespace ddtime {

// One level of the CPU's data caches, from sysfs.
struct CpuCache {
  int level = 0;
  std::int64_t bytes = 0;
};

// The data and unified caches of cpu0 under root (normally
// "/sys/devices/system/cpu/cpu0/cache"), smallest level first; empty when
// sysfs does not say.
std::vector<CpuCache> read_cpu_caches(Os& os, const std::string& root);

// Where a buffer of bytes fits: "L1", "L2", "L3" or "memory"; "?" when
// the caches are not known (no sysfs cache directory, as in some VMs).
std::string cache_level_for(std::int64_t bytes, const std::vector<CpuCache>& caches);

// What a side is, as far as the words need.
enum class SideKind { kRegular, kBlock, kZero, kNull, kRandom, kOtherCharacter, kPipe, kStandard, kUnknown };
SideKind side_kind_of(FileKind kind);

struct MeasuredFacts {
  SideKind input = SideKind::kUnknown;
  SideKind output = SideKind::kUnknown;
  std::string input_name;
  std::string output_name;
  std::int64_t bs = 512;  // the buffer a record goes through (ibs)
  bool input_direct = false;
  bool output_flushed = false;           // conv=fsync/fdatasync, oflag=sync/dsync or direct
  std::optional<double> input_resident;  // fraction of a file input cached before the run
  bool input_residency_unknown = false;  // the kernel would not say (mincore, not ours to read)
  bool pattern = false;                  // --pattern in place of the input
  std::vector<CpuCache> caches;
};

// "ddtime: measured: ...\n"
std::string measured_line(std::string_view program, const MeasuredFacts& facts);

// A measured line of one row of a sweep, saying which:
// "ddtime: measured (bs=4k depth 1, the row of GNU's lines below): ...".
std::string row_labelled(std::string_view line, std::string_view row);

}  // namespace ddtime
