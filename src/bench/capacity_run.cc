// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/capacity_run.h"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "measure/capacity_probe.h"

namespace ddtime {

CapacityProbeRun::CapacityProbeRun(Os& os, CapacityTarget target, CapacityOptions options,
                                   std::function<bool()> interrupted)
    : os_(os),
      target_(std::move(target)),
      options_(options),
      interrupted_(std::move(interrupted)),
      stamps_(PatternSpec{PatternKind::kStamp, 0}, options.seed, target_.start) {}

CapacityProbeRun::~CapacityProbeRun() {
  if (fd_ >= 0) os_.close(fd_);
}

int open_capacity_target(Os& os, const CapacityTarget& target, std::int64_t block, CapacityResult& result,
                         CapacityProblem& problem) {
  // O_DIRECT where the target takes it: every read then reaches the
  // device, whatever its cache holds.
  IoResult opened = os.open(target.path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC, 0);
  result.direct = opened.ok();
  if (opened.err == EINVAL) opened = os.open(target.path.c_str(), O_RDWR | O_CLOEXEC, 0);
  if (!opened.ok()) {
    problem = {CapacityProblem::What::kOpen, opened.err, 0};
    return -1;
  }
  const int fd = static_cast<int>(opened.n);
  const std::optional<std::int64_t> size = file_size(os, fd, target.kind);
  if (!size) {
    os.close(fd);
    problem = {CapacityProblem::What::kSize, EINVAL, 0};
    return -1;
  }
  const auto alignment = static_cast<std::int64_t>(os.direct_io_needs(fd).offset_alignment);
  block = (std::max(block, alignment) + alignment - 1) / alignment * alignment;
  std::int64_t range = std::max<std::int64_t>(0, *size - target.start);
  if (target.bytes >= 0) range = std::min(range, target.bytes);
  range -= range % block;
  result.target = target.path;
  result.reported_bytes = *size;
  result.start = target.start;
  result.range_bytes = range;
  result.block = block;
  if (range < block) {
    os.close(fd);
    problem = {CapacityProblem::What::kTooSmall, 0, range};
    return -1;
  }
  return fd;
}

bool CapacityProbeRun::open(CapacityResult& result, CapacityProblem& problem) {
  result.seed = options_.seed;
  result.kept = options_.keep;
  fd_ = open_capacity_target(os_, target_, options_.block, result, problem);
  if (fd_ < 0) return false;
  direct_ = result.direct;
  options_.block = result.block;
  const DirectIoNeeds needs = os_.direct_io_needs(fd_);
  if (!buffer_.allocate(static_cast<std::size_t>(options_.block), std::max(page_size(), needs.memory_alignment))) {
    problem = {CapacityProblem::What::kMemory, ENOMEM, 0};
    return false;
  }
  return true;
}

bool CapacityProbeRun::save(std::int64_t offset, CapacityProblem& problem) {
  const IoResult got = os_.pread(fd_, buffer_.data(), buffer_.size(), target_.start + offset);
  if (!got.ok() || got.n != static_cast<ssize_t>(buffer_.size())) {
    problem = {CapacityProblem::What::kSave, got.ok() ? EIO : got.err, offset};
    return false;
  }
  saved_.emplace_back(offset, std::vector<unsigned char>(buffer_.data(), buffer_.data() + buffer_.size()));
  return true;
}

ProbedBlock CapacityProbeRun::stamp(std::int64_t offset) {
  stamps_.fill(buffer_.data(), buffer_.size(), offset);
  written_.push_back(offset);
  const IoResult wrote = os_.pwrite(fd_, buffer_.data(), buffer_.size(), target_.start + offset);
  if (wrote.ok() && wrote.n == static_cast<ssize_t>(buffer_.size())) return {offset, ProbeOutcome::kGood};
  // A short write is an error the device did not name.
  return {offset, ProbeOutcome::kWriteError, std::nullopt, wrote.ok() ? EIO : wrote.err};
}

void CapacityProbeRun::settle() {
  // Written through to the device, and (without O_DIRECT) out of the
  // cache, so that the reads see what the device kept. A failed flush
  // shows in the reads.
  os_.fdatasync(fd_);
  if (direct_) return;
  if (target_.kind == FileKind::kBlock) {
    os_.flush_device_cache(fd_);
  } else {
    os_.drop_cache(fd_, 0, 0);
  }
}

ProbedBlock CapacityProbeRun::read_back(std::int64_t offset, const ProbedBlock& written) {
  if (written.outcome == ProbeOutcome::kWriteError) return written;
  const IoResult got = os_.pread(fd_, buffer_.data(), buffer_.size(), target_.start + offset);
  if (!got.ok() || got.n != static_cast<ssize_t>(buffer_.size())) {
    return {offset, ProbeOutcome::kReadError, std::nullopt, got.ok() ? EIO : got.err};
  }
  std::span<const unsigned char> old;
  for (const auto& [at, bytes] : saved_) {
    if (at == offset) old = bytes;
  }
  return classify_probe(offset, buffer_.span(), stamps_, old);
}

bool CapacityProbeRun::bisect(CapacityResult& result, CapacityProblem& problem) {
  for (;;) {
    const std::optional<Bisection> gap = bisection_of(result.probes, options_.block);
    if (!gap) return true;
    const std::optional<std::int64_t> next = next_bisection(gap->good, gap->bad, options_.block);
    if (!next) return true;
    if (interrupted_()) {
      problem.what = CapacityProblem::What::kInterrupted;
      return false;
    }
    if (options_.keep && !save(*next, problem)) return false;
    const ProbedBlock written = stamp(*next);
    settle();
    result.probes.push_back(read_back(*next, written));
  }
}

CapacityProblem CapacityProbeRun::restore(CapacityResult& result) {
  CapacityProblem problem;
  if (!options_.keep) return problem;
  // The highest first: where a counterfeit folds two blocks onto one
  // place, the lower block's own bytes are written last and stay.
  std::sort(saved_.begin(), saved_.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [offset, bytes] : saved_) {
    if (std::find(written_.begin(), written_.end(), offset) == written_.end()) continue;
    std::copy(bytes.begin(), bytes.end(), buffer_.data());
    const IoResult wrote = os_.pwrite(fd_, buffer_.data(), buffer_.size(), target_.start + offset);
    const bool whole = wrote.ok() && wrote.n == static_cast<ssize_t>(buffer_.size());
    if (!whole && problem.what == CapacityProblem::What::kNone) {
      problem = {CapacityProblem::What::kRestore, wrote.ok() ? EIO : wrote.err, offset};
    }
  }
  const IoResult synced = os_.fdatasync(fd_);
  if (!synced.ok() && problem.what == CapacityProblem::What::kNone) {
    problem = {CapacityProblem::What::kRestore, synced.err, -1};
  }
  result.restored = problem.what == CapacityProblem::What::kNone;
  return problem;
}

CapacityProblem CapacityProbeRun::run(CapacityResult& result) {
  CapacityProblem problem;
  if (!open(result, problem)) return problem;
  const std::vector<std::int64_t> offsets =
      probe_offsets(result.range_bytes, options_.block, options_.seed, options_.random);
  // A SIGINT between blocks: the blocks stamped so far written back
  // (result.restored says whether that held), then the signal's end.
  auto interrupted = [&] {
    if (!interrupted_()) return false;
    problem.what = CapacityProblem::What::kInterrupted;
    restore(result);
    return true;
  };
  for (const std::int64_t offset : offsets) {
    if (interrupted()) return problem;
    if (options_.keep && !save(offset, problem)) return problem;  // nothing stamped yet
  }
  std::vector<ProbedBlock> written;
  for (const std::int64_t offset : offsets) {
    if (interrupted()) return problem;
    written.push_back(stamp(offset));
  }
  settle();
  for (const ProbedBlock& block : written) {
    if (interrupted()) return problem;
    result.probes.push_back(read_back(block.offset, block));
  }
  if (!bisect(result, problem)) {
    restore(result);  // the reason (a SIGINT, a block not saved) stays the problem
    return problem;
  }
  std::sort(result.probes.begin(), result.probes.end(),
            [](const ProbedBlock& a, const ProbedBlock& b) { return a.offset < b.offset; });
  result.finding = conclude(result.probes);
  return restore(result);
}

}  // namespace ddtime
