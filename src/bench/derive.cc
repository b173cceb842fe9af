// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/derive.h"

#include <algorithm>
#include <optional>

#include "system/file_kind.h"

namespace ddtime {
namespace {

// A profile's range, when --size does not give it: what the target holds
// past skip= or seek=, in whole blocks of the largest test, at most the
// default (1 GiB). A file read has only what it holds; one written (with
// --force: it holds data) is never grown past its end; an empty one is
// made at the range.
std::int64_t profile_default_range(Os& os, const Settings& settings, bool writes) {
  const std::string& target = writes ? *settings.output_file : *settings.input_file;
  // Before resolve: the kind is not known yet.
  const FileKind kind = find_kind(os, target, -1);
  if (kind == FileKind::kAbsent || kind == FileKind::kUnknown) return kProfileDefaultRange;
  std::optional<std::int64_t> size = file_size(os, target, kind);
  if (writes && kind == FileKind::kRegular && size == 0) size.reset();
  if (!size) return kProfileDefaultRange;
  const std::int64_t start = (writes ? settings.seek_offset() : settings.skip_offset()).value_or(0);
  std::int64_t rest = *size > start ? *size - start : 0;
  if (rest >= kProfileLargestBlock) rest -= rest % kProfileLargestBlock;
  return std::max<std::int64_t>(1, std::min(kProfileDefaultRange, rest));
}

}  // namespace

void count_bytes(Settings& settings, std::int64_t bytes) noexcept {
  settings.max_records = bytes / settings.ibs;
  settings.max_bytes = bytes % settings.ibs;
}

void reblock(std::int64_t& records, std::int64_t& bytes, std::int64_t old_size, std::int64_t new_size) noexcept {
  std::int64_t total = 0;
  if (!multiply_add_fits(records, old_size, bytes, total)) return;
  records = total / new_size;
  bytes = total % new_size;
}

Settings with_block_size(Settings settings, std::int64_t bs) noexcept {
  reblock(settings.skip_records, settings.skip_bytes, settings.ibs, bs);
  reblock(settings.seek_records, settings.seek_bytes, settings.obs, bs);
  settings.ibs = settings.obs = bs;
  settings.bs_given = true;
  return settings;
}

Settings row_settings(const ResolvedRun& resolved, std::int64_t bs) {
  Settings row = resolved.settings;
  if (resolved.plan.sweeps_bs()) {
    row = with_block_size(std::move(row), bs);
    row.cut = resolved.settings.empties_output() ? Settings::OutputCut::kWhole : Settings::OutputCut::kAtSeek;
  }
  if (resolved.sweep_bytes) {
    // --mix moves whole blocks of the row's size, every I/O one block (a
    // partial last one is left out, as resolve_mix leaves it out of a
    // single run's range).
    const std::int64_t bytes = *resolved.sweep_bytes;
    count_bytes(row, resolved.plan.mix ? bytes - bytes % row.ibs : bytes);
  }
  // --mix reads the target itself (resolve named it if=).
  if (resolved.plan.pattern && !resolved.plan.mix) row.input_file = std::string("/dev/zero");
  return row;
}

Plan row_plan(const Plan& plan, unsigned depth) {
  Plan row = plan;
  row.iodepth = depth;
  row.iodepth_given = plan.iodepth_given || !plan.sweep_iodepth.empty();
  return row;
}

Settings write_pass_settings(const Settings& settings, bool pattern) {
  Settings write = settings;
  if (!write.conv.fsync && !write.conv.fdatasync) write.conv.fdatasync = true;
  if (pattern) write.input_file = std::string("/dev/zero");
  return write;
}

Settings capacity_write_settings(const Settings& settings, std::int64_t block, std::int64_t bytes, bool direct) {
  Settings write = write_pass_settings(with_block_size(settings, block), true);
  count_bytes(write, bytes);
  write.ext.count_from_size = false;
  write.conv.notrunc = true;
  write.oflag.direct = write.oflag.direct || direct;
  return write;
}

Settings read_back_settings(const Settings& settings, const Settings& written, std::int64_t where, std::int64_t bytes) {
  Settings read = settings;
  read.input_file = written.output_file;
  read.output_file = std::string("/dev/null");
  read.ibs = read.obs = written.obs;
  read.bs_given = true;
  read.skip_records = where / read.ibs;
  read.skip_bytes = where % read.ibs;
  read.iflag = {};
  read.iflag.direct = written.oflag.direct;
  read.seek_records = read.seek_bytes = 0;
  read.conv = {};
  read.block_or_unblock_requested = false;
  read.oflag = {};
  count_bytes(read, bytes);
  read.ext.count_from_size = false;
  return read;
}

FileKinds read_back_kinds(const ResolvedRun& resolved) noexcept {
  return {once_opened(resolved.output), FileKind::kNull};
}

void shape_profile(Os& os, Settings& settings, Plan& plan) {
  const ProfilePreset& preset = *plan.profile;
  // skip= and seek= (bs= is refused, so in 512-byte blocks) counted again
  // in the base job's 1 MiB blocks; each test counts them in its own.
  settings = with_block_size(std::move(settings), kProfileLargestBlock);
  if (settings.output_file) {
    // The write tests' data, as CrystalDiskMark's test file: random bytes.
    plan.pattern = PatternSpec{PatternKind::kRandom, 0};
    settings.conv.notrunc = true;  // the prepared range is read back, never cut
  } else {
    settings.output_file = std::string("/dev/null");
  }
  if (!plan.time_ns) plan.time_ns = preset.time_ns;
  if (!plan.pause_ns) plan.pause_ns = preset.pause_ns;
  if (!plan.repeat_given) plan.repeat = kProfileRepeat;
  if (!plan.warmup_given) plan.warmup = kProfileWarmup;
  // Uncached, as CrystalDiskMark and KDiskMark measure, unless --cache
  // asks for the page cache in a state of its own.
  if (!plan.cache_given) settings.ext.direct = true;
  if (!plan.size) plan.size = profile_default_range(os, settings, plan.pattern.has_value());
}

Settings profile_test_settings(const ResolvedRun& resolved, const ProfileTest& test, ProfileSide side) {
  Settings s = resolved.settings;
  // A read test of of=: the range just written, read into /dev/null.
  if (resolved.plan.pattern && side == ProfileSide::kRead) {
    s = read_back_settings(s, s, s.seek_offset().value_or(0), *resolved.plan.size);
    s.ext.count_from_size = resolved.settings.ext.count_from_size;  // the range is still --size's
  }
  if (side == ProfileSide::kWrite)
    s.input_file = std::string("/dev/zero");  // a descriptor to have: the generator reads
  s = with_block_size(std::move(s), test.bs);
  // The target on both sides at the same offsets, as a plain --mix run.
  if (side == ProfileSide::kMix) mix_both_sides(s);
  count_bytes(s, *resolved.plan.size);
  if (side == ProfileSide::kMix) s.max_bytes = 0;  // whole blocks: each I/O one block, read or written
  return s;
}

FileKinds profile_test_kinds(const ResolvedRun& resolved, ProfileSide side) noexcept {
  // As profile_test_settings: the read test of of= is a read-back; a
  // profile of if= reads it into the /dev/null shape_profile gave it.
  switch (side) {
    case ProfileSide::kWrite:
      return {FileKind::kZero, resolved.output};
    case ProfileSide::kMix:
      return {once_opened(resolved.output), once_opened(resolved.output)};
    case ProfileSide::kRead:
      break;
  }
  return resolved.plan.pattern ? read_back_kinds(resolved) : resolved.kinds();
}

Plan profile_test_plan(const Plan& plan, const ProfileTest& test, ProfileSide side, std::uint64_t seed) {
  Plan p = plan;
  p.iodepth = test.iodepth;
  p.iodepth_given = true;
  p.jobs = test.jobs;
  p.random = test.random;
  if (test.random) p.random_seed = seed;
  // Every job's I/Os timed, submit to reap, for the mean and p99 columns.
  p.latency = true;
  if (side == ProfileSide::kRead) p.pattern.reset();
  if (side != ProfileSide::kMix) p.mix.reset();
  return p;
}

ProfileRecord profile_parameters(const ResolvedRun& resolved) {
  const Settings& s = resolved.settings;
  const Plan& p = resolved.plan;
  ProfileRecord record{.preset = p.profile};
  record.writes = p.pattern.has_value();
  record.mix_percent = p.mix;
  record.target = *(record.writes ? s.output_file : s.input_file);
  record.start = (record.writes ? s.seek_offset() : s.skip_offset()).value_or(0);
  record.range = *p.size;
  record.time_ns = *p.time_ns;
  record.warmup = p.warmup;
  record.repeat = p.repeat;
  record.pause_ns = *p.pause_ns;
  record.direct = record.writes ? s.oflag.direct : s.iflag.direct;
  record.cache = p.cache;
  record.cache_given = p.cache_given;
  return record;
}

}  // namespace ddtime
