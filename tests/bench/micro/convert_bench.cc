// SPDX-License-Identifier: GPL-3.0-or-later
// The per-byte paths of the reblocking copy, in bytes per second: the
// translate table (ucase, ebcdic), the engine's translate-then-collect step,
// swab, block and unblock, and collecting reads into obs-sized blocks.
// Full blocks go to a sink that only counts them, so no system call is timed.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "dd/convert.h"
#include "model/settings.h"

namespace ddtime {
namespace {

constexpr std::int64_t kCbs = 80;
constexpr std::size_t kObs = 64 * 1024;

class CountingSink final : public BlockSink {
 public:
  bool write_full_block(std::span<const unsigned char> block) noexcept override {
    benchmark::DoNotOptimize(block.data());
    ++blocks_;
    return true;
  }
  std::int64_t blocks() const { return blocks_; }

 private:
  std::int64_t blocks_ = 0;
};

// Mixed-case text with newlines every 1..120 bytes, from a fixed-seed
// generator so every run converts the same bytes.
std::vector<unsigned char> text(std::size_t size) {
  std::vector<unsigned char> bytes(size);
  std::uint32_t state = 0x2545f491u;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
  std::size_t until_newline = 1 + next() % 120;
  for (unsigned char& c : bytes) {
    if (--until_newline == 0) {
      c = '\n';
      until_newline = 1 + next() % 120;
      continue;
    }
    const std::uint32_t r = next() % 64;
    c = r < 26   ? static_cast<unsigned char>('a' + r)
        : r < 52 ? static_cast<unsigned char>('A' + r - 26)
        : r < 58 ? ' '
                 : static_cast<unsigned char>('0' + r - 58);
  }
  return bytes;
}

// Fixed-length records of kCbs bytes with trailing spaces, as conv=unblock
// expects (what conv=block produces).
std::vector<unsigned char> records(std::size_t size) {
  std::vector<unsigned char> bytes(size, ' ');
  for (std::size_t i = 0; i < size; ++i) {
    const std::size_t column = i % kCbs;
    const std::size_t length = (i / kCbs) % kCbs;  // 0..79 used columns
    if (column < length) bytes[i] = static_cast<unsigned char>('a' + column % 26);
  }
  return bytes;
}

void set_throughput(benchmark::State& state, std::size_t bytes_per_iteration) {
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes_per_iteration));
}

// translate() alone: the table lookup over one read's worth of bytes.
void translate_only(benchmark::State& state, const Conversions& conv) {
  const auto size = static_cast<std::size_t>(state.range(0));
  std::vector<unsigned char> bytes = text(size);
  const Converter converter(conv, 0);
  for (auto _ : state) {
    converter.translate(bytes);
    benchmark::ClobberMemory();
  }
  set_throughput(state, size);
}

void BM_TranslateUcase(benchmark::State& state) {
  Conversions conv;
  conv.ucase = true;
  translate_only(state, conv);
}
BENCHMARK(BM_TranslateUcase)->Arg(4096)->Arg(64 * 1024)->Arg(1 << 20);

void BM_TranslateEbcdic(benchmark::State& state) {
  Conversions conv;
  conv.ebcdic = true;
  conv.block = true;  // as operands sets it; without cbs it is dropped
  translate_only(state, conv);
}
BENCHMARK(BM_TranslateEbcdic)->Arg(4096)->Arg(64 * 1024)->Arg(1 << 20);

// What the engine does with each read: translate in place when the
// conversion has a table, then swab, block or unblock and collect the result
// into obs-sized blocks.
void convert_each_read(benchmark::State& state, const Conversions& conv, std::int64_t cbs,
                       std::vector<unsigned char> bytes) {
  std::vector<unsigned char> output(kObs);
  CountingSink sink;
  OutputBlocker blocker(output, sink);
  Converter converter(conv, cbs);
  for (auto _ : state) {
    if (converter.translates()) converter.translate(bytes);
    if (!converter.convert(bytes, blocker)) state.SkipWithError("flush failed");
  }
  benchmark::DoNotOptimize(sink.blocks());
  set_throughput(state, bytes.size());
}

void BM_ConvertUcase(benchmark::State& state) {
  convert_each_read(state, Conversions{.ucase = true}, 0, text(static_cast<std::size_t>(state.range(0))));
}
BENCHMARK(BM_ConvertUcase)->Arg(4096)->Arg(64 * 1024)->Arg(1 << 20);

// Even sizes swap within the read; odd ones carry a byte into the next.
void BM_Swab(benchmark::State& state) {
  convert_each_read(state, Conversions{.swab = true}, 0, text(static_cast<std::size_t>(state.range(0))));
}
BENCHMARK(BM_Swab)->Arg(4096)->Arg(4095)->Arg(64 * 1024)->Arg(1 << 20);

// Newline-terminated lines of 0..119 bytes into cbs=80 records: padding,
// and truncation for the longer lines.
void BM_Block(benchmark::State& state) {
  convert_each_read(state, Conversions{.block = true}, kCbs, text(static_cast<std::size_t>(state.range(0))));
}
BENCHMARK(BM_Block)->Arg(64 * 1024)->Arg(1 << 20);

// cbs=80 records with trailing spaces back into lines.
void BM_Unblock(benchmark::State& state) {
  convert_each_read(state, Conversions{.unblock = true}, kCbs, records(static_cast<std::size_t>(state.range(0))));
}
BENCHMARK(BM_Unblock)->Arg(64 * 1024)->Arg(1 << 20);

// ibs-sized reads collected into obs-sized blocks (the conversion path's
// reblocking; the plain ibs/obs copy reads in place instead).
void BM_Reblock(benchmark::State& state) {
  const auto ibs = static_cast<std::size_t>(state.range(0));
  const auto obs = static_cast<std::size_t>(state.range(1));
  const std::vector<unsigned char> input(ibs, 'x');
  std::vector<unsigned char> output(obs);
  CountingSink sink;
  OutputBlocker blocker(output, sink);
  for (auto _ : state) {
    if (!blocker.put(input)) state.SkipWithError("flush failed");
  }
  benchmark::DoNotOptimize(sink.blocks());
  set_throughput(state, ibs);
}
BENCHMARK(BM_Reblock)
    ->ArgNames({"ibs", "obs"})
    ->Args({512, 64 * 1024})
    ->Args({4096, 64 * 1024})
    ->Args({64 * 1024, 64 * 1024})
    ->Args({1 << 20, 1 << 20})
    ->Args({64 * 1024, 512});

}  // namespace
}  // namespace ddtime
