// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's --capacity: the probe of of= (capacity.h), then its verdict
// and JSON through the console; a SIGINT ends the process by the signal
// once the saved blocks are written back.
#include "bench/capacity_run.h"
#include "bench/driver.h"
#include "bench/driver_internal.h"

namespace ddtime {
using namespace driver_internal;

int Driver::run_capacity() {
  const std::string& path = *settings().output_file;
  const FileKind kind = resolved_->output;
  CapacityResult result;
  CapacityProblem problem;
  if (kind != FileKind::kBlock && kind != FileKind::kRegular) {
    // Absent, or a kind that holds no blocks to probe.
    problem.what = CapacityProblem::What::kKind;
    console_.session_step(CapacityReport{result, problem, 1, 0});
    return 1;
  }
  const CapacityTarget target{path, kind, settings().seek_offset().value_or(0),
                              settings().count_in_bytes().value_or(-1)};
  // The probe's block: bs= when given, else 4 KiB (at least the device's
  // direct I/O alignment either way).
  const CapacityOptions options{.block = settings().bs_given ? settings().obs : std::int64_t{4096},
                                .seed = drawn_seed(window_.now_ns(), ++pattern_seeds_),
                                .keep = plan().keep};
  const std::int64_t started = window_.now_ns();
  CapacityProbeRun probe(os_, target, options,
                         [&] { return console_.interrupted_in("--capacity: the probe", nullptr); });
  problem = probe.run(result);
  result.elapsed_ns = window_.now_ns() - started;
  if (problem.what == CapacityProblem::What::kInterrupted) {
    console_.session_step(CapacityReport{result, problem, std::nullopt, console_.interrupt()});
    die_by(console_.interrupt());
  }
  // A device that does not hold what it reports fails, as --verify's
  // mismatch does: a script tests the status. So does any problem.
  const int status =
      problem.what == CapacityProblem::What::kNone && result.finding.verdict == CapacityVerdict::kHoldsAll ? 0 : 1;
  return console_.session_step(CapacityReport{result, problem, status, 0}) != 0 ? 1 : status;
}

}  // namespace ddtime
