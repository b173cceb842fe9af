// SPDX-License-Identifier: GPL-3.0-or-later
// capacity_run — --capacity's passes over of=, through Os: the probed blocks
// saved (--keep), stamped in offset order, flushed and dropped from the
// cache (or read with O_DIRECT), read back; the gap between the last good
// block and the first bad one halved until they meet; the saved blocks
// written back, the highest first, so that where two blocks share a place
// the lower one's bytes are the ones left. What the blocks say is
// capacity_probe's; the words are report_capacity's.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "measure/pattern.h"
#include "model/capacity.h"
#include "system/buffer.h"
#include "system/file_kind.h"
#include "system/os.h"

namespace ddtime {

struct CapacityTarget {
  std::string path;
  FileKind kind = FileKind::kUnknown;  // a block device or a regular file
  std::int64_t start = 0;              // seek=, in bytes
  std::int64_t bytes = -1;             // the range (--size or count=); -1: to the end
};

struct CapacityOptions {
  std::int64_t block = 4096;  // at least the target's direct I/O alignment
  std::uint64_t seed = 0;     // the stamps'
  bool keep = false;          // --keep
  std::size_t random = 64;    // random blocks beside the powers of two
};

// of= opened for reading and writing (O_DIRECT where it takes it), its
// size, and the range and block a probe or =full's passes use: result's
// target, reported_bytes, start, range_bytes, block (at least block, a
// multiple of the direct I/O alignment) and direct. The descriptor, or -1
// with problem said (kOpen, kSize, kTooSmall).
int open_capacity_target(Os& os, const CapacityTarget& target, std::int64_t block, CapacityResult& result,
                         CapacityProblem& problem);

class CapacityProbeRun {
 public:
  // interrupted: asked between blocks; true stops the probe (the blocks it
  // overwrote are written back first when --keep saved them).
  CapacityProbeRun(Os& os, CapacityTarget target, CapacityOptions options, std::function<bool()> interrupted);
  CapacityProbeRun(const CapacityProbeRun&) = delete;
  CapacityProbeRun& operator=(const CapacityProbeRun&) = delete;
  ~CapacityProbeRun();

  // The probe, start to end; result holds what it found so far whatever
  // the problem.
  CapacityProblem run(CapacityResult& result);

 private:
  bool open(CapacityResult& result, CapacityProblem& problem);
  bool save(std::int64_t offset, CapacityProblem& problem);
  ProbedBlock stamp(std::int64_t offset);
  void settle();
  ProbedBlock read_back(std::int64_t offset, const ProbedBlock& written);
  bool bisect(CapacityResult& result, CapacityProblem& problem);
  // Writes the saved blocks back (--keep); what stopped one, or none.
  CapacityProblem restore(CapacityResult& result);

  Os& os_;
  CapacityTarget target_;
  CapacityOptions options_;
  std::function<bool()> interrupted_;
  int fd_ = -1;
  bool direct_ = false;
  PatternSource stamps_;
  AlignedBuffer buffer_;
  std::vector<std::pair<std::int64_t, std::vector<unsigned char>>> saved_;  // --keep: offset, bytes
  std::vector<std::int64_t> written_;                                       // offsets stamped so far
};

}  // namespace ddtime
