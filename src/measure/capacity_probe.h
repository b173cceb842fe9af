// SPDX-License-Identifier: GPL-3.0-or-later
// capacity_probe — --capacity's reasoning, apart from its I/O: which
// blocks the quick probe stamps, what a block that was read back says,
// and what the device really holds, as f3probe finds it. A counterfeit
// that ignores the high address lines wraps at a power of two, so the
// probe stamps every power of two blocks: a block that reads back another
// one's stamp shares its place, and the distance between the two is a
// multiple of the real size. A device that loses or refuses writes past
// its real size reads back zeros, old bytes or errors there, and the
// boundary is found by halving the gap between the last good block and
// the first bad one.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "measure/pattern.h"
#include "model/capacity.h"

namespace ddtime {

// The quick probe's offsets (bytes from the range's start), ascending and
// each once: the first and the last block, every power of two blocks,
// and `random` blocks drawn from seed; every one a multiple of block.
// Requires: block > 0, bytes >= block.
std::vector<std::int64_t> probe_offsets(std::int64_t bytes, std::int64_t block, std::uint64_t seed, std::size_t random);

// What the block at offset read back (got), against the stamp stamps
// writes there; old: what it held before, when --keep saved it (else
// empty). Requires: got is one block, a multiple of the stamp's sector.
ProbedBlock classify_probe(std::int64_t offset, std::span<const unsigned char> got, const PatternSource& stamps,
                           std::span<const unsigned char> old);

// The verdict from the probed blocks (in any order).
CapacityFinding conclude(std::span<const ProbedBlock> probes);

// --capacity=full: block (of size bytes) added to the extents, the last
// one made longer when block continues it (same outcome and error, the
// next offset, wrapped onto the next block's stamp).
void add_scanned(std::vector<ScannedExtent>& extents, const ProbedBlock& block, std::int64_t size);

// The verdict from every block, as conclude draws it from the probed
// ones (a wrap from the distances between blocks and the stamps they
// hold); good_past_first_bad counts blocks.
CapacityFinding conclude_scan(std::span<const ScannedExtent> extents);

// The gap between the last good block below the first bad one and the
// first bad one: where to probe next, halving it, or none when they are
// adjacent (the boundary is found). good: -block when no block below the
// bad one is good.
std::optional<std::int64_t> next_bisection(std::int64_t good, std::int64_t bad, std::int64_t block) noexcept;

// Whether the probes' verdict is one bisection refines: blocks were lost
// or failed (a wrap is found by the powers of two alone), and where.
struct Bisection {
  std::int64_t good = 0;  // the last good offset below bad, or -block
  std::int64_t bad = 0;   // the first bad offset
};
std::optional<Bisection> bisection_of(std::span<const ProbedBlock> probes, std::int64_t block);

}  // namespace ddtime
