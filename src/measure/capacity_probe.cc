// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/capacity_probe.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "model/splitmix.h"

namespace ddtime {
namespace {

std::uint64_t le64(const unsigned char* bytes) noexcept {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | bytes[i];
  return value;
}

bool is_bad(const ProbedBlock& probe) noexcept { return probe.outcome != ProbeOutcome::kGood; }

}  // namespace

std::vector<std::int64_t> probe_offsets(std::int64_t bytes, std::int64_t block, std::uint64_t seed,
                                        std::size_t random) {
  const std::int64_t blocks = bytes / block;
  std::vector<std::int64_t> offsets{0, (blocks - 1) * block};
  for (std::int64_t n = 1; n < blocks; n *= 2) offsets.push_back(n * block);
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < random && blocks > 1; ++i) {
    offsets.push_back(static_cast<std::int64_t>(splitmix_next(state) % static_cast<std::uint64_t>(blocks)) * block);
  }
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  return offsets;
}

ProbedBlock classify_probe(std::int64_t offset, std::span<const unsigned char> got, const PatternSource& stamps,
                           std::span<const unsigned char> old) {
  std::vector<unsigned char> expected(got.size());
  stamps.fill(expected.data(), expected.size(), offset);
  if (std::equal(got.begin(), got.end(), expected.begin())) return {offset, ProbeOutcome::kGood};
  // Another block's stamp, whole: this run's seed in its first sector,
  // and every byte as that block's stamp has it.
  if (got.size() >= PatternSource::kSector && le64(got.data() + 8) == stamps.seed()) {
    const auto holds = static_cast<std::int64_t>(le64(got.data())) - stamps.base();
    if (holds != offset && holds >= 0) {
      stamps.fill(expected.data(), expected.size(), holds);
      if (std::equal(got.begin(), got.end(), expected.begin())) return {offset, ProbeOutcome::kWrapped, holds};
    }
  }
  if (std::all_of(got.begin(), got.end(), [](unsigned char byte) { return byte == 0; })) {
    return {offset, ProbeOutcome::kZeros};
  }
  if (old.size() == got.size() && std::equal(got.begin(), got.end(), old.begin())) return {offset, ProbeOutcome::kOld};
  return {offset, ProbeOutcome::kOther};
}

CapacityFinding conclude(std::span<const ProbedBlock> probes) {
  CapacityFinding finding;
  // A wrap: every pair that shares a place is a multiple of the real size
  // apart, and the powers of two make the smallest such multiple the size.
  std::int64_t module = 0;
  for (const ProbedBlock& probe : probes) {
    if (probe.outcome == ProbeOutcome::kWrapped && probe.holds) {
      module =
          std::gcd(module, probe.offset > *probe.holds ? probe.offset - *probe.holds : *probe.holds - probe.offset);
    }
  }
  if (module > 0) {
    finding.verdict = CapacityVerdict::kWraps;
    finding.real_bytes = module;
    finding.wraps_to = 0;
    finding.first_bad_outcome = ProbeOutcome::kWrapped;
    return finding;
  }
  const auto first_bad = std::min_element(probes.begin(), probes.end(), [](const ProbedBlock& a, const ProbedBlock& b) {
    // Bad blocks first, by offset.
    return is_bad(a) != is_bad(b) ? is_bad(a) : a.offset < b.offset;
  });
  if (first_bad == probes.end() || !is_bad(*first_bad)) return finding;
  finding.real_bytes = first_bad->offset;
  finding.first_bad_outcome = first_bad->outcome;
  finding.first_bad_error = first_bad->error;
  finding.verdict = first_bad->outcome == ProbeOutcome::kReadError || first_bad->outcome == ProbeOutcome::kWriteError
                        ? CapacityVerdict::kFails
                        : CapacityVerdict::kLoses;
  for (const ProbedBlock& probe : probes) {
    if (probe.offset > first_bad->offset && !is_bad(probe)) ++finding.good_past_first_bad;
  }
  return finding;
}

void add_scanned(std::vector<ScannedExtent>& extents, const ProbedBlock& block, std::int64_t size) {
  if (!extents.empty()) {
    ScannedExtent& last = extents.back();
    const std::int64_t past = last.offset + last.blocks * size;
    const bool continues = block.offset == past && block.outcome == last.outcome && block.error == last.error &&
                           (!block.holds || (last.holds && *block.holds == *last.holds + last.blocks * size));
    if (continues) {
      ++last.blocks;
      return;
    }
  }
  extents.push_back({block.offset, 1, block.outcome, block.holds, block.error});
}

CapacityFinding conclude_scan(std::span<const ScannedExtent> extents) {
  // Within an extent every block is as its first: the first blocks say
  // what every block would.
  std::vector<ProbedBlock> firsts;
  firsts.reserve(extents.size());
  for (const ScannedExtent& extent : extents)
    firsts.push_back({extent.offset, extent.outcome, extent.holds, extent.error});
  CapacityFinding finding = conclude(firsts);
  finding.good_past_first_bad = 0;
  if (finding.verdict != CapacityVerdict::kLoses && finding.verdict != CapacityVerdict::kFails) return finding;
  for (const ScannedExtent& extent : extents) {
    if (extent.outcome == ProbeOutcome::kGood && extent.offset > *finding.real_bytes) {
      finding.good_past_first_bad += extent.blocks;
    }
  }
  return finding;
}

std::optional<std::int64_t> next_bisection(std::int64_t good, std::int64_t bad, std::int64_t block) noexcept {
  if (bad - good <= block) return std::nullopt;
  const std::int64_t blocks = (bad - good) / block;
  return good + blocks / 2 * block;
}

std::optional<Bisection> bisection_of(std::span<const ProbedBlock> probes, std::int64_t block) {
  const CapacityFinding finding = conclude(probes);
  if (finding.verdict != CapacityVerdict::kLoses && finding.verdict != CapacityVerdict::kFails) return std::nullopt;
  Bisection gap{-block, *finding.real_bytes};
  for (const ProbedBlock& probe : probes) {
    if (!is_bad(probe) && probe.offset < gap.bad) gap.good = std::max(gap.good, probe.offset);
  }
  return gap;
}

}  // namespace ddtime
