// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/capacity_scan.h"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "measure/capacity_probe.h"
#include "system/buffer.h"

namespace ddtime {
namespace {

// The target opened with flags, O_DIRECT added where asked and taken.
int open_target(Os& os, const CapacityScanRequest& request, int flags, int& err) {
  IoResult opened = os.open(request.path.c_str(), flags | (request.direct ? O_DIRECT : 0) | O_CLOEXEC, 0);
  if (!opened.ok() && request.direct && opened.err == EINVAL) {
    opened = os.open(request.path.c_str(), flags | O_CLOEXEC, 0);
  }
  err = opened.ok() ? 0 : opened.err;
  return opened.ok() ? static_cast<int>(opened.n) : -1;
}

// One whole block at offset, a short read (the end came early) an error.
int read_block(Os& os, int fd, unsigned char* into, std::int64_t block, std::int64_t offset) {
  std::int64_t got = 0;
  while (got < block) {
    const IoResult read =
        os.pread(fd, into + got, static_cast<std::size_t>(block - got), static_cast<off_t>(offset + got));
    if (read.err == EINTR) continue;
    if (!read.ok()) return read.err;
    if (read.n == 0) return EIO;
    got += read.n;
  }
  return 0;
}

}  // namespace

CapacityScanned scan_capacity(Os& os, const CapacityScanRequest& request, const PatternSource& stamps,
                              const std::function<bool()>& interrupted) {
  CapacityScanned scanned;
  const int fd = open_target(os, request, O_RDONLY, scanned.err);
  if (fd < 0) return scanned;
  const std::size_t alignment = std::max(page_size(), os.direct_io_needs(fd).memory_alignment);
  AlignedBuffer got;
  AlignedBuffer expected;
  const auto size = static_cast<std::size_t>(request.block);
  if (!got.allocate(size, alignment) || !expected.allocate(size, alignment)) {
    os.close(fd);
    scanned.err = ENOMEM;
    return scanned;
  }
  for (std::int64_t offset = 0; offset < request.bytes; offset += request.block) {
    if (interrupted()) {
      scanned.interrupted = true;
      break;
    }
    scanned.bytes = offset + request.block;
    if (const int err = read_block(os, fd, got.data(), request.block, request.start + offset); err != 0) {
      add_scanned(scanned.extents, {offset, ProbeOutcome::kReadError, std::nullopt, err}, request.block);
      continue;
    }
    // The stamp made and compared in place: a good block, by far the
    // most, costs what --verify's comparison costs.
    stamps.fill(expected.data(), size, offset);
    if (std::memcmp(got.data(), expected.data(), size) == 0) {
      add_scanned(scanned.extents, {offset, ProbeOutcome::kGood}, request.block);
      continue;
    }
    add_scanned(scanned.extents, classify_probe(offset, got.span(), stamps, {}), request.block);
  }
  os.close(fd);
  return scanned;
}

ProbedBlock rewrite_failed_block(Os& os, const CapacityScanRequest& request, const PatternSource& stamps,
                                 std::int64_t offset) {
  ProbedBlock failed{offset, ProbeOutcome::kWriteError};
  int err = 0;
  const int fd = open_target(os, request, O_WRONLY, err);
  if (fd < 0) {
    failed.error = err;
    return failed;
  }
  AlignedBuffer block;
  const std::size_t alignment = std::max(page_size(), os.direct_io_needs(fd).memory_alignment);
  if (block.allocate(static_cast<std::size_t>(request.block), alignment)) {
    stamps.fill(block.data(), block.size(), offset);
    const IoResult wrote = os.pwrite(fd, block.data(), block.size(), static_cast<off_t>(request.start + offset));
    if (!wrote.ok()) failed.error = wrote.err;
    // A short write is an error the device did not name.
    if (wrote.ok() && wrote.n != static_cast<ssize_t>(block.size())) failed.error = EIO;
  }
  os.close(fd);
  return failed;
}

}  // namespace ddtime
