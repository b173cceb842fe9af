// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's --capacity: the probe of of= (capacity.h), then its verdict
// and JSON through the console; a SIGINT ends the process by the signal
// once the saved blocks are written back. --capacity=full: a write pass
// of stamps over every block and a read pass, each a run of a session (so
// that each has its lines, its timeline and its chart), then the scan
// that compares every block with its stamp; the passes are measured as
// any run is, and the scan is not part of either.
#include "bench/capacity_run.h"
#include "bench/capacity_scan.h"
#include "bench/driver.h"
#include "bench/driver_internal.h"
#include "measure/capacity_probe.h"

namespace ddtime {
using namespace driver_internal;

namespace {

// =full's block when bs= is not given: f3write's and H2testw's unit, and
// large enough that the passes measure the device, not the calls.
constexpr std::int64_t kFullBlock = 1 << 20;

// How either mode ends: by a signal, after what was measured is said (the
// process then dies by it), or with a status, 1 where the report could not
// be written. passes: =full's session, null for the quick probe.
int capacity_ended(Console& console, const CapacityResult& result, CapacityProblem& problem,
                   const SessionRecord* passes, std::optional<int> status) {
  if (status) return console.session_step(CapacityReport{result, problem, status, 0, passes}) != 0 ? 1 : *status;
  problem.what = CapacityProblem::What::kInterrupted;
  console.session_step(CapacityReport{result, problem, std::nullopt, console.interrupt(), passes});
  die_by(console.interrupt());
}

// A pass as the session's next run and row, said as it ends.
const RunRecord& add_pass(Console& console, SessionRecord& session, RunRecord run, Pass pass, unsigned depth) {
  run.pass = pass;
  run.row = session.rows.size();
  session.rows.push_back({.bs = run.settings.obs, .depth = depth, .pass = pass});
  session.runs.push_back(std::move(run));
  console.session_run_ended(session, session.runs.back());
  return session.runs.back();
}

bool interrupted(Console& console, std::string_view phase) {
  return console.interrupt() != 0 || console.interrupted_in(phase, nullptr);
}

// The scan: every stamped block compared with its stamp, and the block
// the write pass failed on (failed_at) written once more for its errno;
// then the verdict. False with problem said (interrupted, or nothing
// could be scanned).
bool scan_every_block(Os& os, Console& console, const CapacityScanRequest& scan, const PatternSource& stamps,
                      std::optional<std::int64_t> failed_at, RunWindow& window, CapacityResult& result,
                      CapacityProblem& problem) {
  const std::int64_t start = window.now_ns();
  CapacityScanned scanned =
      scan_capacity(os, scan, stamps, [&] { return interrupted(console, "--capacity=full: the scan"); });
  result.scan_ns = window.now_ns() - start;
  result.scanned_bytes = scanned.bytes;
  result.extents = std::move(scanned.extents);
  if (scanned.interrupted) {
    problem.what = CapacityProblem::What::kInterrupted;
    return false;
  }
  if (scanned.err != 0) {
    problem = {scanned.err == ENOMEM ? CapacityProblem::What::kMemory : CapacityProblem::What::kOpen, scanned.err, 0};
    return false;
  }
  if (failed_at && *failed_at < result.range_bytes) {
    add_scanned(result.extents, rewrite_failed_block(os, scan, stamps, *failed_at), result.block);
  }
  result.finding = conclude_scan(result.extents);
  return true;
}

}  // namespace

int Driver::run_capacity() {
  const std::string& path = *settings().output_file;
  const FileKind kind = resolved_->output;
  CapacityResult result;
  CapacityProblem problem;
  if (kind != FileKind::kBlock && kind != FileKind::kRegular) {
    // Absent, or a kind that holds no blocks to probe.
    result.full = plan().capacity_full;
    problem.what = CapacityProblem::What::kKind;
    return capacity_ended(console_, result, problem, nullptr, 1);
  }
  const CapacityTarget target{path, kind, settings().seek_offset().value_or(0),
                              settings().count_in_bytes().value_or(-1)};
  if (plan().capacity_full) return run_capacity_full(target);
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
    return capacity_ended(console_, result, problem, nullptr, std::nullopt);
  }
  // A device that does not hold what it reports fails, as --verify's
  // mismatch does: a script tests the status. So does any problem.
  const bool holds =
      problem.what == CapacityProblem::What::kNone && result.finding.verdict == CapacityVerdict::kHoldsAll;
  return capacity_ended(console_, result, problem, nullptr, holds ? 0 : 1);
}

int Driver::run_capacity_full(const CapacityTarget& target) {
  CapacityResult result;
  result.full = true;
  CapacityProblem problem;
  SessionRecord session{.plan = plan(), .readback = true};
  session.runs.reserve(2);  // the passes: references to them stay good
  auto ended = [&](std::optional<int> status) { return capacity_ended(console_, result, problem, &session, status); };
  const std::int64_t started = window_.now_ns();
  const int fd = open_capacity_target(os_, target, settings().bs_given ? settings().obs : kFullBlock, result, problem);
  if (fd < 0) return ended(1);
  os_.close(fd);

  // Both passes record their timeline: where a counterfeit's or worn
  // flash's rate falls is what the full mode is run for.
  Plan passes = row_plan(plan(), plan().iodepth);
  passes.timeline = true;
  const Settings write = capacity_write_settings(settings(), result.block, result.range_bytes, result.direct);
  const PatternSource stamps = next_pattern(write);
  result.seed = stamps.seed();
  if (interrupted(console_, "--capacity=full: the write pass's setup")) return ended(std::nullopt);
  const RunResult& written =
      add_pass(console_, session,
               run_with(write, resolved_->kinds(), passes, &stamps, "--capacity=full: the write pass"), Pass::kWrite,
               passes.iodepth)
          .result;
  if (written.ending == Ending::kInterrupted) return ended(std::nullopt);
  // A pass GNU's dd would end with die() (of= could not be opened): its
  // message is all there is.
  if (written.report != RunResult::Report::kSummary) {
    problem.what = CapacityProblem::What::kPass;
    return ended(written.exit_status != 0 ? written.exit_status : 1);
  }
  const std::int64_t stamped = written.stats.bytes_out / result.block * result.block;
  const bool write_failed = written.exit_status != 0;

  // Without O_DIRECT the pages the write pass left are dropped, so that
  // the reads reach the device.
  if (interrupted(console_, "--capacity=full: the read pass's setup")) return ended(std::nullopt);
  std::optional<std::int64_t> drop_ns;
  if (!result.direct) {
    if (!(drop_ns = drop_output_cache(write))) return ended(1);
    console_.session_step(CacheDropped{*drop_ns});
  }
  const Settings read = read_back_settings(settings(), write, result.start, stamped);
  RunRecord read_pass = run_with(read, read_back_kinds(*resolved_), passes, nullptr, "--capacity=full: the read pass");
  read_pass.drop_cache_ns = drop_ns;
  const RunRecord& reread = add_pass(console_, session, std::move(read_pass), Pass::kRead, passes.iodepth);
  if (reread.result.ending == Ending::kInterrupted) return ended(std::nullopt);

  const CapacityScanRequest scan{target.path, result.start, stamped, result.block, result.direct};
  if (!scan_every_block(os_, console_, scan, stamps, write_failed ? std::optional(stamped) : std::nullopt, window_,
                        result, problem)) {
    return ended(problem.what == CapacityProblem::What::kInterrupted ? std::nullopt : std::optional(1));
  }
  result.elapsed_ns = window_.now_ns() - started;
  // A device that does not hold what it reports fails; so does a pass
  // that failed, whatever the scan found.
  const bool passes_ok = !write_failed && reread.result.exit_status == 0;
  return ended(result.finding.verdict == CapacityVerdict::kHoldsAll && passes_ok ? 0 : 1);
}

}  // namespace ddtime
