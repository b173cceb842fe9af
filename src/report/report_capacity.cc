// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_capacity.h"

#include <fmt/format.h>

#include <cerrno>

#include "measure/record.h"
#include "report/diag.h"
#include "report/json.h"
#include "report/report.h"
#include "report/report_environment_json.h"
#include "report/report_json.h"

namespace ddtime {
namespace {

// "8.6 GB (8589934592 B)": both, as GNU's summary gives a size.
std::string size_words(std::int64_t bytes) { return fmt::format("{} ({} B)", human_size(bytes, true), bytes); }

// Each outcome's words, in the order the full mode counts them: its JSON
// name, what a block with it does when read back, and what a count of
// such blocks is called.
struct OutcomeWords {
  ProbeOutcome outcome;
  std::string_view name;
  std::string_view read_back;
  std::string_view counted;
};
constexpr OutcomeWords kOutcomeWords[] = {
    {ProbeOutcome::kGood, "good", "reads back as written", "good"},
    {ProbeOutcome::kWrapped, "wrapped", "reads back another block's stamp", "holding another block's stamp"},
    {ProbeOutcome::kZeros, "zeros", "reads back zeros", "zeros"},
    {ProbeOutcome::kOld, "old", "reads back the bytes it held before", "old bytes"},
    {ProbeOutcome::kOther, "other", "reads back bytes it was never given", "other bytes"},
    {ProbeOutcome::kReadError, "read_error", "cannot be read", "unreadable"},
    {ProbeOutcome::kWriteError, "write_error", "cannot be written", "unwritable"},
};

const OutcomeWords& words_of(ProbeOutcome outcome) noexcept {
  for (const OutcomeWords& words : kOutcomeWords) {
    if (words.outcome == outcome) return words;
  }
  return kOutcomeWords[0];
}

std::string verdict_line(std::string_view program, const CapacityResult& result, std::string_view target) {
  const CapacityFinding& finding = result.finding;
  // The quick probe's blocks were probed; the full mode's, every one, written.
  const std::string_view seen = result.full ? "written" : "probed";
  if (finding.verdict == CapacityVerdict::kHoldsAll) {
    return fmt::format("{}: capacity: {} holds what it reports, {}: the {} blocks {} read back as written\n", program,
                       target, human_size(result.reported_bytes, true), result.blocks_seen(), seen);
  }
  const std::int64_t bad = result.start + finding.real_bytes.value_or(0);
  if (finding.good_past_first_bad > 0) {
    return fmt::format(
        "{}: capacity: the block of {} at offset {} {}, yet {} {} block{} past it read back as written: a bad "
        "block, not a smaller capacity\n",
        program, target, bad, words_of(finding.first_bad_outcome).read_back, finding.good_past_first_bad, seen,
        finding.good_past_first_bad == 1 ? "" : "s");
  }
  std::string what;
  switch (finding.verdict) {
    case CapacityVerdict::kWraps:
      what = fmt::format("wrap to offset {}", result.start + finding.wraps_to.value_or(0));
      break;
    case CapacityVerdict::kFails:
      what = fmt::format("fail ({})", error_text(finding.first_bad_error != 0 ? finding.first_bad_error : EIO));
      break;
    case CapacityVerdict::kLoses:
    case CapacityVerdict::kHoldsAll:
      what = fmt::format("are lost (the block there {})", words_of(finding.first_bad_outcome).read_back);
      break;
  }
  return fmt::format("{}: capacity: real capacity {} of the {} {} reports: writes from {} on {}\n", program,
                     human_size(bad, true), human_size(result.reported_bytes, true), target, size_words(bad), what);
}

void put_error(json::Object& object, int err) {
  if (err != 0) {
    object.string("error", error_text(err));
  } else {
    object.null("error");
  }
}

// An offset inside the probed range, as the device counts it, or null.
void put_offset(json::Object& object, std::string_view key, const CapacityResult& result,
                const std::optional<std::int64_t>& offset) {
  if (offset) {
    object.integer(key, result.start + *offset);
  } else {
    object.null(key);
  }
}

void put_first_bad(json::Object& capacity, const CapacityResult& result) {
  const CapacityFinding& finding = result.finding;
  if (finding.verdict == CapacityVerdict::kHoldsAll || !finding.real_bytes) {
    capacity.null("first_bad");
    return;
  }
  json::Object first = capacity.object("first_bad");
  first.integer("offset", result.start + *finding.real_bytes)
      .string("outcome", probe_outcome_name(finding.first_bad_outcome));
  put_error(first, finding.first_bad_error);
}

void put_finding(json::Object& capacity, const CapacityResult& result, bool complete) {
  const CapacityFinding& finding = result.finding;
  if (!complete) {
    capacity.null("verdict").null("real_bytes").null("wraps_to").null("first_bad");
    return;
  }
  capacity.string("verdict", capacity_verdict_name(finding.verdict));
  put_offset(capacity, "real_bytes", result, finding.real_bytes);
  put_offset(capacity, "wraps_to", result, finding.wraps_to);
  put_first_bad(capacity, result);
}

// "1024 good, 15360 wrapped": how many blocks gave each outcome, in the
// outcomes' order, those none gave left out.
std::string outcome_counts(const CapacityResult& result) {
  std::string text;
  for (const OutcomeWords& words : kOutcomeWords) {
    std::int64_t blocks = 0;
    for (const ScannedExtent& extent : result.extents) {
      if (extent.outcome == words.outcome) blocks += extent.blocks;
    }
    if (blocks == 0) continue;
    if (!text.empty()) text += ", ";
    text += fmt::format("{} {}", blocks, words.counted);
  }
  return text;
}

void put_extents(json::Array extents, const CapacityResult& result) {
  for (const ScannedExtent& extent : result.extents) {
    json::Object run = extents.object();
    run.integer("offset", result.start + extent.offset)
        .integer("blocks", extent.blocks)
        .string("outcome", probe_outcome_name(extent.outcome));
    put_offset(run, "holds", result, extent.holds);
    put_error(run, extent.error);
  }
}

void put_probes(json::Array probes, const CapacityResult& result) {
  for (const ProbedBlock& probe : result.probes) {
    json::Object block = probes.object();
    block.integer("offset", result.start + probe.offset).string("outcome", probe_outcome_name(probe.outcome));
    put_offset(block, "holds", result, probe.holds);
    put_error(block, probe.error);
  }
}

}  // namespace

std::string_view probe_outcome_name(ProbeOutcome outcome) noexcept { return words_of(outcome).name; }

std::string_view capacity_verdict_name(CapacityVerdict verdict) noexcept {
  switch (verdict) {
    case CapacityVerdict::kWraps:
      return "wraps";
    case CapacityVerdict::kLoses:
      return "loses";
    case CapacityVerdict::kFails:
      return "fails";
    case CapacityVerdict::kHoldsAll:
      break;
  }
  return "holds";
}

std::string capacity_text(std::string_view program, const CapacityResult& result, std::string_view quoted) {
  std::string text = verdict_line(program, result, quoted);
  if (result.full) {
    // The passes' lines gave their rates; the scan's is what comparing
    // every block took, a third read.
    text += fmt::format(
        "{}: capacity: {} blocks of {} B from offset {} written, read back and compared ({} compared in "
        "{}{}): {}\n",
        program, result.blocks_seen(), result.block, result.start, human_size(result.scanned_bytes, false),
        duration_text(result.scan_ns), result.direct ? ", read with O_DIRECT" : "", outcome_counts(result));
    return text;
  }
  text += fmt::format("{}: capacity: {} blocks of {} B probed from offset {} in {}, {}{}\n", program,
                      result.probes.size(), result.block, result.start, duration_text(result.elapsed_ns),
                      result.direct ? "read with O_DIRECT" : "read after dropping the cache",
                      result.kept ? (result.restored ? "; --keep: every probed block written back as it was"
                                                     : "; --keep: NOT every probed block could be written back")
                                  : "");
  return text;
}

CapacityProblemWords capacity_problem_words(const CapacityProblem& problem, const CapacityResult& result,
                                            std::string_view path) {
  using What = CapacityProblem::What;
  switch (problem.what) {
    case What::kKind:
      return {fmt::format("--capacity probes a block device or a file, which {} is not", path), 0};
    case What::kOpen:
      return {fmt::format("--capacity: cannot open {}", path), problem.err};
    case What::kSize:
      return {fmt::format("--capacity: cannot tell the size of {}", path), problem.err};
    case What::kTooSmall:
      return {fmt::format("--capacity: the range of {} holds {} B, less than one block of {} B", path, problem.offset,
                          result.block),
              0};
    case What::kMemory:
      return {fmt::format("--capacity: no memory for a block of {} B", result.block), problem.err};
    case What::kSave:
      return {fmt::format(
                  "--capacity --keep: cannot save the block of {} at offset {}, so the probe stopped before writing it",
                  path, result.start + problem.offset),
              problem.err};
    case What::kRestore:
      return {problem.offset < 0
                  ? fmt::format("--capacity --keep: the blocks written back to {} did not reach it", path)
                  : fmt::format("--capacity --keep: cannot write back the block of {} at offset {}", path,
                                result.start + problem.offset),
              problem.err};
    case What::kPass:  // the pass said why, as dd would
    case What::kInterrupted:
    case What::kNone:
      break;
  }
  return {};
}

std::string capacity_json(const CapacityResult& result, const SessionRecord* passes, bool complete,
                          const Environment& environment, std::string_view version, std::optional<int> exit_status,
                          int signal) {
  json::Writer out;
  {
    json::Object document = out.object();
    document.integer("schema", 1).string("tool", "ddtime").string("version", version);
    put_environment(document.object("environment"), environment);
    document.boolean("complete", complete);
    {
      json::Object capacity = document.object("capacity");
      capacity.string("mode", result.full ? "full" : "quick")
          .string("target", result.target)
          .integer("reported_bytes", result.reported_bytes)
          .integer("start", result.start)
          .integer("range_bytes", result.range_bytes)
          .integer("block", result.block)
          .integer("seed", static_cast<std::int64_t>(result.seed))
          .boolean("direct", result.direct)
          .boolean("keep", result.kept);
      if (result.kept) {
        capacity.boolean("restored", result.restored);
      } else {
        capacity.null("restored");
      }
      capacity.decimal("seconds", json::seconds(result.elapsed_ns));
      put_finding(capacity, result, complete);
      capacity.integer("good_past_first_bad", result.finding.good_past_first_bad);
      if (result.full) {
        capacity.null("probes");
        put_extents(capacity.array("extents"), result);
        capacity.integer("scanned_bytes", result.scanned_bytes).decimal("scan_seconds", json::seconds(result.scan_ns));
        json::Array runs = capacity.array("passes");
        // None until a pass ran (a target it could not measure).
        if (passes != nullptr) {
          for (const RunRecord& pass : passes->runs) {
            json::Object run = runs.object();
            put_session_run(run, pass, version);
          }
        }
      } else {
        put_probes(capacity.array("probes"), result);
        capacity.null("extents").null("scanned_bytes").null("scan_seconds").null("passes");
      }
    }
    if (exit_status) {
      document.integer("exit_status", *exit_status);
    } else {
      document.null("exit_status");
    }
    put_signal(document, signal);
  }
  std::string text = out.text();
  text.push_back('\n');
  return text;
}

}  // namespace ddtime
