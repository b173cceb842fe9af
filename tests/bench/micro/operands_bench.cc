// SPDX-License-Identifier: GPL-3.0-or-later
// argv to Settings: part of every run's start-up, so it is measured on the
// command lines the end-to-end start-up and throughput rows use, plus one
// that touches every list operand.
#include <benchmark/benchmark.h>

#include <array>
#include <string_view>
#include <vector>

#include "cli/operands.h"
#include "report/diag.h"

namespace ddtime {
namespace {

const std::array<std::vector<const char*>, 3> kCommandLines = {{
    {"dd", "if=/dev/zero", "of=/dev/null", "bs=1", "count=1"},
    {"dd", "if=/dev/zero", "of=/dev/null", "bs=1M", "count=4096"},
    {"dd", "if=in", "of=out", "ibs=512", "obs=64k", "cbs=80", "skip=2x512", "seek=1M", "count=1GB",
     "conv=ucase,swab,notrunc,sync", "iflag=fullblock,count_bytes,skip_bytes", "oflag=seek_bytes,dsync",
     "status=progress"},
}};

constexpr std::array<const char*, 3> kLabels = {"bs=1 count=1", "zero->null bs=1M", "every list"};

void BM_ParseOperands(benchmark::State& state) {
  const auto which = static_cast<std::size_t>(state.range(0));
  const std::vector<const char*>& argv = kCommandLines[which];
  state.SetLabel(kLabels[which]);
  // Messages are discarded: only the parse is measured.
  const Diag diag("dd", true, [](std::string_view) {});
  for (auto _ : state) {
    ParseOutcome outcome = parse_operands(static_cast<int>(argv.size()), argv.data(), diag);
    if (outcome.action != ParseOutcome::Action::kRun) {
      state.SkipWithError("the command line did not parse");
      break;
    }
    benchmark::DoNotOptimize(outcome);
  }
}
BENCHMARK(BM_ParseOperands)->DenseRange(0, static_cast<int>(kCommandLines.size()) - 1);

}  // namespace
}  // namespace ddtime
