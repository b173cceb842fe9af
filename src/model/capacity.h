// SPDX-License-Identifier: GPL-3.0-or-later
// capacity — --capacity's findings as plain values: each probed block's
// outcome (its own stamp back, another block's, zeros, its old bytes,
// other bytes, an error), or with =full every block's, kept as runs of
// blocks alike, and the verdict drawn from them: the device holds what it
// reports, or the capacity it really has and what happens past it (writes
// wrap onto earlier blocks, are lost, or fail).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddtime {

struct SessionRecord;

enum class ProbeOutcome {
  kGood,        // its own stamp came back
  kWrapped,     // another probed block's stamp came back: the two share a place
  kZeros,       // zeros: the write was lost
  kOld,         // the bytes it held before (--keep saved them): the write was lost
  kOther,       // neither: lost, or corrupted
  kReadError,   // the read failed
  kWriteError,  // the write failed
};

struct ProbedBlock {
  std::int64_t offset = 0;
  ProbeOutcome outcome = ProbeOutcome::kGood;
  std::optional<std::int64_t> holds = std::nullopt;  // kWrapped: whose stamp it read back
  int error = 0;                                     // kReadError, kWriteError: errno
};

// --capacity=full: consecutive blocks that read back alike: the same
// outcome and error and, wrapped, each holding the stamp of the block the
// same distance on. A counterfeit of real size R filled whole reads back
// a few such runs (each earlier round of R holds the last round's
// stamps), where a list of every block would hold millions.
struct ScannedExtent {
  std::int64_t offset = 0;  // its first block's
  std::int64_t blocks = 0;
  ProbeOutcome outcome = ProbeOutcome::kGood;
  std::optional<std::int64_t> holds = std::nullopt;  // kWrapped: whose stamp its first block read back
  int error = 0;                                     // kReadError, kWriteError: errno
};

enum class CapacityVerdict {
  kHoldsAll,  // every probed block read back as written
  kWraps,     // writes from the real capacity on land on earlier blocks
  kLoses,     // writes from the real capacity on are lost (zeros, old or other bytes)
  kFails,     // I/O from the real capacity on fails
};

struct CapacityFinding {
  CapacityVerdict verdict = CapacityVerdict::kHoldsAll;
  // Not kHoldsAll: the bytes that hold what is written, counted from the
  // probed range's start; the first bad block is there.
  std::optional<std::int64_t> real_bytes = std::nullopt;
  // kWraps: the offset the first bad block's writes land on.
  std::optional<std::int64_t> wraps_to = std::nullopt;
  // kLoses, kFails: what the first bad block gave.
  ProbeOutcome first_bad_outcome = ProbeOutcome::kGood;
  int first_bad_error = 0;
  // kLoses, kFails: probed blocks (=full: blocks) past the first bad one
  // that read back as written (a bad block rather than a smaller device,
  // when any).
  std::int64_t good_past_first_bad = 0;
};

// Why a probe could not begin, or was cut short.
struct CapacityProblem {
  // kPass: =full's write or read pass could not run (its words were said).
  enum class What { kNone, kKind, kOpen, kSize, kTooSmall, kMemory, kSave, kInterrupted, kRestore, kPass };
  What what = What::kNone;
  int err = 0;
  std::int64_t offset = 0;  // kSave, kRestore: the block (-1: the flush after); kTooSmall: the range's bytes
};

struct CapacityResult {
  std::string target;
  std::int64_t reported_bytes = 0;  // what the device (or file) says it holds
  std::int64_t start = 0;           // the probed range: from seek=,
  std::int64_t range_bytes = 0;     // this long (whole blocks)
  std::int64_t block = 0;           // each probe's size
  std::uint64_t seed = 0;           // the stamps'
  bool direct = false;              // O_DIRECT: every read reached the device
  bool kept = false;                // --keep: the probed blocks were saved, and restored
  bool restored = false;            // --keep: every saved block written back
  std::vector<ProbedBlock> probes;  // by offset (quick)
  CapacityFinding finding;
  std::int64_t elapsed_ns = 0;
  // --capacity=full: every block written by a write pass, read back by a
  // read pass, then read once more and compared with its stamp (the
  // scan); the passes are the session's runs.
  bool full = false;
  std::vector<ScannedExtent> extents;  // by offset
  std::int64_t scanned_bytes = 0;      // compared by the scan
  std::int64_t scan_ns = 0;
  // The blocks the scan compared, and the one the write pass failed on.
  std::int64_t blocks_seen() const noexcept {
    std::int64_t blocks = 0;
    for (const ScannedExtent& extent : extents) blocks += extent.blocks;
    return full ? blocks : static_cast<std::int64_t>(probes.size());
  }
};

// --capacity's end, as the reports are told it: the findings, the problem
// that cut the probe short (none when it ran to its end), and how the
// process ends (a status, or the signal that stopped it).
struct CapacityReport {
  const CapacityResult& result;
  const CapacityProblem& problem;
  std::optional<int> exit_status;  // none: a signal ended it
  int signal = 0;
  // --capacity=full: its write and read passes, as a session's runs
  // (measure/record.h); null for the quick probe.
  const SessionRecord* passes = nullptr;

  // The verdict stands: the probe ran to its end (a block --keep could not
  // write back does not change what the device holds).
  bool complete() const noexcept {
    return problem.what == CapacityProblem::What::kNone || problem.what == CapacityProblem::What::kRestore;
  }
};

}  // namespace ddtime
