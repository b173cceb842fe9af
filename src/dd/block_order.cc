// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/block_order.h"

#include "model/splitmix.h"

namespace ddtime {

namespace {

constexpr std::uint64_t factorial(std::int64_t n) noexcept {
  std::uint64_t f = 1;
  for (std::int64_t i = 2; i <= n; ++i) f *= static_cast<std::uint64_t>(i);
  return f;
}

}  // namespace

BlockOrder::BlockOrder(std::int64_t blocks, std::uint64_t seed) noexcept
    : random_(true), blocks_(blocks > 0 ? blocks : 0), seed_(seed) {
  std::uint64_t state = seed;
  stream_key_ = splitmix_next(state);
  for (std::uint64_t& key : keys_) key = splitmix_next(state);
  for (std::uint64_t& multiplier : multipliers_) multiplier = splitmix_next(state) | 1;
  first_pass_key_ = pass_key(0);
  unsigned bits = 1;
  while (bits < 63 && (std::uint64_t{1} << bits) < static_cast<std::uint64_t>(blocks_)) ++bits;
  low_bits_ = bits / 2;
  low_mask_ = (std::uint64_t{1} << low_bits_) - 1;
  // The Feistel network only runs above kMaxRanked blocks: both halves
  // are then at least 2 bits wide, so the shifts stay under 64.
  if (blocks_ > kMaxRanked) {
    low_shift_ = 64 - low_bits_;
    high_shift_ = 64 - (bits - low_bits_);
  } else {
    rank_order(0, first_pass_, blocks_);
  }
}

BlockOrder BlockOrder::passes(std::int64_t blocks, bool random, std::uint64_t seed) noexcept {
  BlockOrder order = random ? BlockOrder(blocks, seed) : BlockOrder();
  order.blocks_ = blocks > 0 ? blocks : 1;
  order.repeats_ = true;
  return order;
}

std::uint64_t BlockOrder::pass_key(std::uint64_t pass) const noexcept {
  std::uint64_t state = stream_key_ ^ (pass * kSplitmixStep);
  return splitmix_next(state);
}

// The rank is drawn from a SplitMix64 stream that starts at the pass's
// key; a draw below 2^64 mod n! is thrown away, so that the n! ranks
// share the 2^64 - (2^64 mod n!) values kept equally. Its digits in the
// factorial number system pick, position by position, one of the blocks
// not yet placed: the rank's permutation (a bijection of [0, n!) onto the
// orders).
void BlockOrder::rank_order(std::uint64_t pass, std::uint8_t* order, std::int64_t positions) const noexcept {
  const auto n = static_cast<std::uint64_t>(blocks_);
  const std::uint64_t orders = factorial(blocks_);
  const std::uint64_t thrown = (0 - orders) % orders;
  std::uint64_t state = pass_key(pass);
  std::uint64_t rank = splitmix_next(state);
  while (rank < thrown) rank = splitmix_next(state);
  rank %= orders;
  std::uint8_t left[kMaxRanked];
  for (std::uint64_t i = 0; i < n; ++i) left[i] = static_cast<std::uint8_t>(i);
  for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(positions); ++i) {
    const std::uint64_t choices = n - i;
    const std::uint64_t pick = rank % choices;
    rank /= choices;
    order[i] = left[pick];
    for (std::uint64_t j = pick; j + 1 < choices; ++j) left[j] = left[j + 1];
  }
}

std::int64_t BlockOrder::ranked(std::int64_t index, std::uint64_t pass) const noexcept {
  std::uint8_t order[kMaxRanked];
  rank_order(pass, order, index + 1);
  return order[index];
}

}  // namespace ddtime
