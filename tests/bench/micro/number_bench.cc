// SPDX-License-Identifier: GPL-3.0-or-later
// The size grammar: one parse per operand value, so start-up cost only; the
// inputs cover each branch of the grammar (plain digits, suffixes, products,
// IEC/SI spellings, the largest value).
#include <benchmark/benchmark.h>

#include <array>
#include <string_view>

#include "model/number.h"

namespace ddtime {
namespace {

constexpr std::array<std::string_view, 9> kInputs = {
    "512", "4k", "1M", "64MiB", "2x512", "4KiB", "1GB", "2x3x4kB", "9223372036854775807",
};

void BM_ParseNumber(benchmark::State& state) {
  const std::string_view text = kInputs[static_cast<std::size_t>(state.range(0))];
  state.SetLabel(std::string(text));
  for (auto _ : state) {
    std::string_view input = text;
    benchmark::DoNotOptimize(input);
    ParsedNumber parsed = parse_number(input);
    benchmark::DoNotOptimize(parsed);
  }
}
BENCHMARK(BM_ParseNumber)->DenseRange(0, static_cast<int>(kInputs.size()) - 1);

void BM_ParseNumberInvalid(benchmark::State& state) {
  for (auto _ : state) {
    std::string_view input = "12q";
    benchmark::DoNotOptimize(input);
    ParsedNumber parsed = parse_number(input);
    benchmark::DoNotOptimize(parsed);
  }
}
BENCHMARK(BM_ParseNumberInvalid);

}  // namespace
}  // namespace ddtime
