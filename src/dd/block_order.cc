// SPDX-License-Identifier: GPL-3.0-or-later
#include "dd/block_order.h"

namespace ddtime {

namespace {

// SplitMix64's step: round keys that differ in every bit from one seed.
std::uint64_t next_key(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

BlockOrder::BlockOrder(std::int64_t blocks, std::uint64_t seed) noexcept
    : random_(true), blocks_(blocks > 0 ? blocks : 0), seed_(seed) {
  unsigned bits = 1;
  while (bits < 63 && (std::uint64_t{1} << bits) < static_cast<std::uint64_t>(blocks_)) ++bits;
  mask_ = (std::uint64_t{1} << bits) - 1;
  shift_ = bits / 2 > 0 ? bits / 2 : 1;
  std::uint64_t state = seed;
  for (std::uint64_t& key : keys_) key = next_key(state);
}

BlockOrder BlockOrder::passes(std::int64_t blocks, bool random, std::uint64_t seed) noexcept {
  BlockOrder order = random ? BlockOrder(blocks, seed) : BlockOrder();
  order.blocks_ = blocks > 0 ? blocks : 1;
  order.repeats_ = true;
  return order;
}

}  // namespace ddtime
