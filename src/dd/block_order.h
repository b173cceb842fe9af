// SPDX-License-Identifier: GPL-3.0-or-later
// block_order — which block of the range each record goes to: in turn
// (dd's order), or, for --random, a permutation of the range's whole
// blocks drawn uniformly from a seed, each block exactly once per pass,
// with no memory per block. A partial last block keeps its place at the
// end: it is the copy's final, short record in either order.
//
// Two ways to draw, so that every range size gets a uniform order:
// - up to kMaxRanked blocks (n! fits in 64 bits), the pass's order is the
//   permutation of rank r, r drawn uniformly from [0, n!) by rejection on
//   a keyed 64-bit stream (no modulo bias): every one of the n! orders is
//   equally likely, which no keyed bijection on 2 or 3 bits can give.
// - above, a keyed Feistel network on the next power of two (halves of
//   about equal size, six rounds of a keyed multiply-shift hash of the
//   half, the round's keys and the pass's key), cycle walked into the
//   range: a bijection for every key, with no pattern a test of positions
//   or runs can see.
//
// A timed run (--time) goes over the range's whole blocks pass after
// pass: record i is in pass i / blocks, and each pass draws an order of
// its own from the seed and the pass number (pass 0 is the single-pass
// order of the same seed), so the seed reproduces every pass.
//
// block_of() is pure, const and allocation-free: --jobs' jobs call it
// together.
#pragma once

#include <cstdint>

namespace ddtime {

class BlockOrder {
 public:
  // The largest range whose order is drawn by rank: 20! < 2^64 < 21!.
  static constexpr std::int64_t kMaxRanked = 20;
  static constexpr int kRounds = 6;

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
      if (!random_) return index;
      if (pass == 0) return permuted_first_pass(index);
      return permuted(index, static_cast<std::uint64_t>(pass));
    }
    if (!random_ || record >= blocks_) return record;
    return permuted_first_pass(record);
  }
  // The pass record belongs to (0 outside a timed run).
  std::int64_t pass_of(std::int64_t record) const noexcept { return repeats_ ? record / blocks_ : 0; }

 private:
  // Pass 0, the order every run with this seed starts with: its small
  // permutation is kept whole, its keys are at hand.
  std::int64_t permuted_first_pass(std::int64_t index) const noexcept {
    if (blocks_ <= kMaxRanked) return first_pass_[index];
    return walk(static_cast<std::uint64_t>(index), first_pass_key_);
  }
  // Any later pass: its order drawn afresh from the seed and the pass.
  std::int64_t permuted(std::int64_t index, std::uint64_t pass) const noexcept {
    if (blocks_ <= kMaxRanked) return ranked(index, pass);
    return walk(static_cast<std::uint64_t>(index), pass_key(pass));
  }

  // The key that makes pass `pass`'s order its own.
  std::uint64_t pass_key(std::uint64_t pass) const noexcept;
  // The block at position index of the pass's permutation by rank.
  std::int64_t ranked(std::int64_t index, std::uint64_t pass) const noexcept;
  // The first `positions` blocks of the permutation whose rank the pass
  // draws, into order.
  void rank_order(std::uint64_t pass, std::uint8_t* order, std::int64_t positions) const noexcept;

  // Cycle walking: the Feistel bijection on [0, 2^bits) applied again
  // until it lands in the range; 2^bits < 2 * blocks, so under twice on
  // average.
  std::int64_t walk(std::uint64_t x, std::uint64_t pass_key) const noexcept {
    do {
      x = feistel(x, pass_key);
    } while (x >= static_cast<std::uint64_t>(blocks_));
    return static_cast<std::int64_t>(x);
  }

  // An alternating Feistel network on [0, 2^bits): the high half xored
  // with a keyed hash of the low half, then the low half with one of the
  // high half, kRounds times; each round is its own inverse, so the
  // whole is a bijection for any keys. Halves of unequal width (an odd
  // bit count) keep the domain under twice the range. The hash is a
  // multiply-shift (the top bits of the half, keyed, times an odd key:
  // a universal family) rather than a full finaliser, one multiplication
  // a round, because it runs for every record.
  std::uint64_t feistel(std::uint64_t x, std::uint64_t pass_key) const noexcept {
    std::uint64_t low = x & low_mask_;
    std::uint64_t high = x >> low_bits_;
    for (int round = 0; round < kRounds; round += 2) {
      high ^= ((low ^ keys_[round] ^ pass_key) * multipliers_[round]) >> high_shift_;
      low ^= ((high ^ keys_[round + 1] ^ pass_key) * multipliers_[round + 1]) >> low_shift_;
    }
    return (high << low_bits_) | low;
  }

  bool random_ = false;
  bool repeats_ = false;
  std::int64_t blocks_ = 0;
  std::uint64_t seed_ = 0;
  std::uint64_t stream_key_ = 0;  // the rank draws' stream, from the seed
  unsigned low_bits_ = 0;
  std::uint64_t low_mask_ = 0;
  unsigned low_shift_ = 63;   // 64 - the low half's width
  unsigned high_shift_ = 63;  // 64 - the high half's width
  std::uint64_t first_pass_key_ = 0;
  std::uint64_t keys_[kRounds] = {};
  std::uint64_t multipliers_[kRounds] = {};  // odd
  std::uint8_t first_pass_[kMaxRanked] = {};
};

}  // namespace ddtime
