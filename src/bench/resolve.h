// SPDX-License-Identifier: GPL-3.0-or-later
// resolve — the step between the command line and the first run, where
// everything is checked and nothing is written (issue 19's first rule). It
// expands --sweep=bs=memory, applies --size, resolves --direct per side,
// classifies both files, works out the range every pass moves, and refuses
// what cannot run, each in its own words (messages): report paths that are
// directories or alias a data file, a session that cannot open a side
// again, a sweep with no end, a read-back with nothing to read back, a
// preallocation with no size or no file, a device in use, an operand the
// device's direct I/O would refuse. Afterwards nothing rewrites the
// settings or the plan. Through os only, opening nothing for writing.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "measure/measured.h"
#include "model/plan.h"
#include "model/settings.h"
#include "report/messages.h"
#include "system/file_kind.h"
#include "system/os.h"

namespace ddtime {

struct ResolvedRun {
  Settings settings;
  Plan plan;
  FileKind input = FileKind::kUnknown;   // if= (or standard input)
  FileKind output = FileKind::kUnknown;  // of= (or standard output); kAbsent: the run creates it
  // Both, as a run of these settings takes them.
  FileKinds kinds() const noexcept { return {input, output}; }
  // What every row of a sweep moves (--size, count=, or the input's rest).
  std::optional<std::int64_t> sweep_bytes;
  // What one run moves, where the operands or the input's size tell.
  std::optional<std::int64_t> bytes;
  // --time: the range the passes go round (bytes, capped by the input's
  // rest); a bs=auto sweep stops doubling before a block outgrows it.
  std::optional<std::int64_t> timed_range;
  std::vector<CpuCache> caches;  // --sweep=bs=memory: the CPU's data caches
  // A block-device output claimed (O_EXCL) for every run of a session or
  // read-back: held from here to the end, so that nothing can mount or
  // claim the device between the runs. -1: none.
  int device_claim = -1;
};

// The ResolvedRun, or nullopt once a refusal has been worded through messages.
// as_session: --repeat and the like run more than once; as_readback: the
// write-then-read modes. The text a refusal needs comes from messages.
std::optional<ResolvedRun> resolve(Os& os, const Settings& settings, const Plan& plan, const Messages& messages);

// --mix: of= is the input too (read as oflag= says, never cut), skipped
// as far as seek= goes, over whole blocks inside it (count=, --size, else
// the rest past seek=). False, said, where there is nothing to mix.
bool resolve_mix(Os& os, ResolvedRun& resolved, const Messages& messages);
// --mix's settings apart from the range: of= as the input too, at the same
// offsets, read as oflag= says, never cut (a profile's mix tests too).
void mix_both_sides(Settings& settings) noexcept;

// The block size --sweep=bs=auto's first row copies with: bs= when given,
// else 4096; the rows double from there.
std::int64_t first_auto_bs(const Settings& settings) noexcept;

// The option that makes this a session, for messages: "--repeat=5".
std::string session_words(const Plan& plan);

}  // namespace ddtime
