// SPDX-License-Identifier: GPL-3.0-or-later
// capacity_scan — --capacity=full's last pass, as f3read: every block the
// write pass stamped read once more (O_DIRECT where the target takes it,
// else after its cache was dropped) and compared with its stamp, the
// outcome of each kept as runs of blocks alike (capacity_probe's
// add_scanned). A block that cannot be read is one outcome among others:
// the scan goes on past it, as a device's bad blocks need. Through Os.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "measure/pattern.h"
#include "model/capacity.h"
#include "system/os.h"

namespace ddtime {

struct CapacityScanRequest {
  std::string path;
  std::int64_t start = 0;  // where the range starts on the target (seek=)
  std::int64_t bytes = 0;  // whole blocks from there
  std::int64_t block = 0;  // a multiple of the target's direct I/O alignment
  bool direct = false;     // read with O_DIRECT
};

struct CapacityScanned {
  std::vector<ScannedExtent> extents;  // offsets from the range's start
  std::int64_t bytes = 0;              // compared (the last block read or failed included)
  bool interrupted = false;            // stopped between blocks
  int err = 0;                         // the target could not be opened, or no memory: nothing scanned
};

// stamps: the write pass's (its seed, its base at the range's start).
// interrupted: asked between blocks; true ends the scan there.
CapacityScanned scan_capacity(Os& os, const CapacityScanRequest& request, const PatternSource& stamps,
                              const std::function<bool()>& interrupted);

// The write pass ended at offset (from the range's start) with an error:
// the block there written once more with its stamp, for the errno the
// device gives; its outcome is kWriteError (error 0 when the write now
// went through: the pass's failure stands, its errno unknown).
ProbedBlock rewrite_failed_block(Os& os, const CapacityScanRequest& request, const PatternSource& stamps,
                                 std::int64_t offset);

}  // namespace ddtime
