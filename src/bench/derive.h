// SPDX-License-Identifier: GPL-3.0-or-later
// derive — the one place a run's Settings and Plan are made from the
// resolved command line: a sweep's row (a block size and a depth), a
// read-back's write and read passes, a profile's test on either side,
// --capacity=full's write pass, and the profile's base job before resolve. Each mode asks here, so that a
// new mode cannot forget to clear what a read of written data must not
// carry (conv=, oflag=, a cut at seek=): --readback's read pass and a
// profile's read test are the same derivation. Plain values in, plain
// values out; only the profile's default range asks the Os (a stat).
#pragma once

#include <cstdint>
#include <string>

#include "bench/resolve.h"
#include "measure/profile_record.h"
#include "model/plan.h"
#include "model/profile.h"
#include "model/settings.h"
#include "system/file_kind.h"
#include "system/os.h"

namespace ddtime {

// A seed drawn from the clock (and a count, so that two drawn in one
// tick differ): --random's order without --random-seed, a profile test's
// order, each --pattern run's data.
constexpr std::uint64_t drawn_seed(std::int64_t now_ns, std::uint64_t count = 0) noexcept {
  return (static_cast<std::uint64_t>(now_ns) * 0x9e3779b97f4a7c15ULL + count) >> 1;
}

// count= as a number of bytes, whatever the block size.
void count_bytes(Settings& settings, std::int64_t bytes) noexcept;

// skip= or seek= counted again in blocks of a new size (unchanged when the
// offset would overflow: resolve refused such a command line already).
void reblock(std::int64_t& records, std::int64_t& bytes, std::int64_t old_size, std::int64_t new_size) noexcept;

// The same copy in blocks of bs: skip= and seek= keep their byte offsets.
Settings with_block_size(Settings settings, std::int64_t bs) noexcept;

// A sweep's or a session's row at bs: every row moves the same bytes
// (the job's sweep_bytes); --pattern reads a descriptor it never uses.
Settings row_settings(const ResolvedRun& resolved, std::int64_t bs);
// The job's plan at a row's depth.
Plan row_plan(const Plan& plan, unsigned depth);

// --readback's write pass: the copy as asked, flushed at its end.
Settings write_pass_settings(const Settings& settings, bool pattern);
// --capacity=full's write pass: the stamps over bytes of of= from seek=,
// in blocks of block, flushed at its end, O_DIRECT where direct (the
// target takes it), a regular file never cut.
Settings capacity_write_settings(const Settings& settings, std::int64_t block, std::int64_t bytes, bool direct);
// The bytes a write put at where (in written's output blocks) read back
// into /dev/null: the input is the written output, with no conversion,
// no output flag and O_DIRECT as the write had it.
Settings read_back_settings(const Settings& settings, const Settings& written, std::int64_t where, std::int64_t bytes);

// What the files of a read of written data are (--readback's read pass,
// a profile's read test of of=): the written output, a regular file once
// made if it was not there, read into /dev/null.
FileKinds read_back_kinds(const ResolvedRun& resolved) noexcept;

// --profile: the command line shaped into the profile's base job before
// resolve checks it (1 MiB blocks over the range, the time, the runs,
// O_DIRECT, the write tests' random data).
void shape_profile(Os& os, Settings& settings, Plan& plan);
// A profile's test on one side: the range read back, written from the
// generator, or (--mix) read and written at once, in the test's blocks.
Settings profile_test_settings(const ResolvedRun& resolved, const ProfileTest& test, ProfileSide side);
// Its files' kinds: the generator's /dev/zero into the target, the target
// (of= as written, or if=) read into /dev/null, or the target on both.
FileKinds profile_test_kinds(const ResolvedRun& resolved, ProfileSide side) noexcept;
// Its plan: the test's depth, jobs and order, every I/O timed; seed: the
// random order's, drawn by the caller.
Plan profile_test_plan(const Plan& plan, const ProfileTest& test, ProfileSide side, std::uint64_t seed);
// The parameters every test ran with, for the profile's record.
ProfileRecord profile_parameters(const ResolvedRun& resolved);

}  // namespace ddtime
