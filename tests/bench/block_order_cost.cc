// SPDX-License-Identifier: GPL-3.0-or-later
// What --random's permutation costs per record: block_of() over every
// record of ranges of 2^k and 2^k + 1 blocks (the best and the worst case
// for cycle walking, one and about two steps a record) at a small and a
// huge range, in nanoseconds, the fastest of several rounds; then a timed
// run's passes over 20 blocks, the largest range whose every pass draws
// its order by rank. Prints one line per range; compare.py
// --random-access reads them.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#include "dd/block_order.h"

int main() {
  constexpr std::int64_t kRecords = 4'000'000;
  for (const std::int64_t blocks :
       {std::int64_t{1} << 16, (std::int64_t{1} << 16) + 1, std::int64_t{1} << 40, (std::int64_t{1} << 40) + 1}) {
    const ddtime::BlockOrder order(blocks, 7);
    double best = 1e300;
    std::int64_t sink = 0;
    for (int round = 0; round < 5; ++round) {
      const auto start = std::chrono::steady_clock::now();
      for (std::int64_t record = 0; record < kRecords; ++record) sink += order.block_of(record % blocks);
      const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
      if (took.count() / kRecords < best) best = took.count() / kRecords;
    }
    std::printf("blocks %lld: %.1f ns per record (%lld)\n", static_cast<long long>(blocks), best,
                static_cast<long long>(sink & 1));
  }
  {
    // A timed run over 20 blocks: a new order drawn every 20 records.
    const ddtime::BlockOrder order = ddtime::BlockOrder::passes(20, true, 7);
    double best = 1e300;
    std::int64_t sink = 0;
    for (int round = 0; round < 5; ++round) {
      const auto start = std::chrono::steady_clock::now();
      for (std::int64_t record = 0; record < kRecords; ++record) sink += order.block_of(record);
      const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
      if (took.count() / kRecords < best) best = took.count() / kRecords;
    }
    std::printf("passes of 20 blocks: %.1f ns per record (%lld)\n", best, static_cast<long long>(sink & 1));
  }
  return 0;
}
