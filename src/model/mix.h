// SPDX-License-Identifier: GPL-3.0-or-later
// mix — --mix=PERCENT's choice of each I/O: a read with probability
// PERCENT/100, else a write, drawn from a keyed stream of the run's seed,
// the job and the record, so that any job decides any of its records
// alone, in any order, with no state (the sync engine's Os, each job's
// ring and the engine's stamping all ask the same question and get the
// same answer), and the ratio holds over every window of records.
// What each side did is counted where the I/O happens: MixCounts.
#pragma once

#include <cstdint>

#include "model/splitmix.h"

namespace ddtime {

struct MixChoice {
  unsigned read_percent = 0;  // 0..100
  std::uint64_t seed = 0;

  // Whether record (of job's part) is a read.
  constexpr bool reads(unsigned job, std::int64_t record) const noexcept {
    const std::uint64_t key = seed ^ (static_cast<std::uint64_t>(job) << 56) ^ static_cast<std::uint64_t>(record);
    // SplitMix64's finaliser: every bit of the key reaches every bit of
    // the draw, so consecutive records are independent draws. The modulo's
    // bias is 2^64 mod 100 in 2^64: none a run could see.
    return splitmix_finalise(key + kSplitmixStep) % 100 < read_percent;
  }
};

// What a mixed run's I/Os did, side by side: the reads and writes that
// reached the target (completed, with the bytes they moved).
struct MixCounts {
  std::int64_t reads = 0;
  std::int64_t read_bytes = 0;
  std::int64_t writes = 0;
  std::int64_t write_bytes = 0;

  MixCounts& operator+=(const MixCounts& other) noexcept {
    reads += other.reads;
    read_bytes += other.read_bytes;
    writes += other.writes;
    write_bytes += other.write_bytes;
    return *this;
  }
};

// A mixed run's result: the choice it drew from and what each side did.
struct MixResult {
  MixChoice choice;
  MixCounts counts;
};

}  // namespace ddtime
