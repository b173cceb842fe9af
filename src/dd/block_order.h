// SPDX-License-Identifier: GPL-3.0-or-later
// block_order — which block of the range each record goes to: in turn
// (dd's order), or, for --random, a full-period permutation of the range's
// whole blocks drawn from a seed, each block exactly once per pass, with
// no memory per block (a keyed bijection on the next power of two, cycle
// walked into the range, as fio's LFSR and elbencho do), so a range of
// any size costs the same. A partial last block keeps its place at the
// end: it is the copy's final, short record in either order.
//
// A timed run (--time) goes over the range's whole blocks pass after
// pass: record i is in pass i / blocks, and each pass has a permutation of
// its own (the round keys changed by the pass number; pass 0 is the
// single-pass order of the same seed).
#pragma once

#include <cstdint>

namespace ddtime {

class BlockOrder {
 public:
  // dd's order: record i goes to block i.
  BlockOrder() noexcept = default;
  // A permutation of the blocks [0, blocks) from seed; blocks >= 0.
  BlockOrder(std::int64_t blocks, std::uint64_t seed) noexcept;
  // A timed run's order over blocks > 0: pass after pass, in turn or
  // (random) a new permutation each pass.
  static BlockOrder passes(std::int64_t blocks, bool random, std::uint64_t seed) noexcept;

  bool random() const noexcept { return random_; }
  bool repeats() const noexcept { return repeats_; }
  std::int64_t blocks() const noexcept { return blocks_; }
  std::uint64_t seed() const noexcept { return seed_; }

  // The block record goes to: a permutation of [0, blocks) for the
  // records below blocks, record itself from there on (the partial block).
  std::int64_t block_of(std::int64_t record) const noexcept {
    if (repeats_) [[unlikely]] {
      const std::int64_t pass = record / blocks_;
      const std::int64_t index = record - pass * blocks_;
      return random_ ? permuted(index, static_cast<std::uint64_t>(pass)) : index;
    }
    if (!random_ || record >= blocks_) return record;
    return permuted(record, 0);
  }
  // The pass record belongs to (0 outside a timed run).
  std::int64_t pass_of(std::int64_t record) const noexcept { return repeats_ ? record / blocks_ : 0; }

 private:
  // Cycle walking: the bijection on [0, 2^bits) applied again until it
  // lands in the range; 2^bits < 2 * blocks, so twice on average.
  std::int64_t permuted(std::int64_t index, std::uint64_t pass) const noexcept {
    // Any key makes a bijection; an odd multiple of the pass makes each
    // pass's keys, and so its order, its own.
    const std::uint64_t pass_key = pass * 0xd1b54a32d192ed03ULL;
    auto x = static_cast<std::uint64_t>(index);
    do {
      x = scramble(x, pass_key);
    } while (x >= static_cast<std::uint64_t>(blocks_));
    return static_cast<std::int64_t>(x);
  }

  // A keyed bijection on [0, 2^bits): rounds of an odd multiplication,
  // an xor with a right shift of itself and an xor with a round key, each
  // invertible modulo 2^bits.
  std::uint64_t scramble(std::uint64_t x, std::uint64_t pass_key) const noexcept {
    for (const std::uint64_t key : keys_) {
      x = (x ^ key ^ pass_key) & mask_;
      x = (x * 0x9e3779b97f4a7c15ULL) & mask_;
      x ^= x >> shift_;
      x = (x * 0xbf58476d1ce4e5b9ULL) & mask_;
      x ^= x >> shift_;
    }
    return x;
  }

  bool random_ = false;
  bool repeats_ = false;
  std::int64_t blocks_ = 0;
  std::uint64_t seed_ = 0;
  std::uint64_t mask_ = 0;  // 2^bits - 1
  unsigned shift_ = 1;      // about half the bits
  std::uint64_t keys_[4] = {};
};

}  // namespace ddtime
