// SPDX-License-Identifier: GPL-3.0-or-later
// What --random's permutation costs per record: block_of() over every
// record of ranges of 2^k and 2^k + 1 blocks (the best and the worst case
// for cycle walking, one and about two steps a record) at a small and a
// huge range, in nanoseconds, the fastest of several rounds. Prints one
// line per range; compare.py --random-access reads them.
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
  return 0;
}
