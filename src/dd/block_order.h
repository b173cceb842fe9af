// SPDX-License-Identifier: GPL-3.0-or-later
// block_order — which block of the range each record goes to: in turn
// (dd's order), or, for --random, a full-period permutation of the range's
// whole blocks drawn from a seed, each block exactly once per pass, with
// no memory per block (a keyed bijection on the next power of two, cycle
// walked into the range, as fio's LFSR and elbencho do), so a range of
// any size costs the same. A partial last block keeps its place at the
// end: it is the copy's final, short record in either order.
#pragma once

#include <cstdint>

namespace ddtime {

class BlockOrder {
 public:
  // dd's order: record i goes to block i.
  BlockOrder() noexcept = default;
  // A permutation of the blocks [0, blocks) from seed; blocks >= 0.
  BlockOrder(std::int64_t blocks, std::uint64_t seed) noexcept;

  bool random() const noexcept { return random_; }
  std::int64_t blocks() const noexcept { return blocks_; }
  std::uint64_t seed() const noexcept { return seed_; }

  // The block record goes to: a permutation of [0, blocks) for the
  // records below blocks, record itself from there on (the partial block).
  std::int64_t block_of(std::int64_t record) const noexcept {
    if (!random_ || record >= blocks_) return record;
    std::uint64_t x = static_cast<std::uint64_t>(record);
    // Cycle walking: the bijection on [0, 2^bits) applied again until it
    // lands in the range; 2^bits < 2 * blocks, so twice on average.
    do {
      x = scramble(x);
    } while (x >= static_cast<std::uint64_t>(blocks_));
    return static_cast<std::int64_t>(x);
  }

 private:
  // A keyed bijection on [0, 2^bits): rounds of an odd multiplication,
  // an xor with a right shift of itself and an xor with a round key, each
  // invertible modulo 2^bits.
  std::uint64_t scramble(std::uint64_t x) const noexcept {
    for (const std::uint64_t key : keys_) {
      x = (x ^ key) & mask_;
      x = (x * 0x9e3779b97f4a7c15ULL) & mask_;
      x ^= x >> shift_;
      x = (x * 0xbf58476d1ce4e5b9ULL) & mask_;
      x ^= x >> shift_;
    }
    return x;
  }

  bool random_ = false;
  std::int64_t blocks_ = 0;
  std::uint64_t seed_ = 0;
  std::uint64_t mask_ = 0;   // 2^bits - 1
  unsigned shift_ = 1;       // about half the bits
  std::uint64_t keys_[4] = {};
};

}  // namespace ddtime
