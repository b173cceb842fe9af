// SPDX-License-Identifier: GPL-3.0-or-later
// options_refusals — part of operands: what ddtime's options refuse
// together, checked once the whole command line is read (check_plan).
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "cli/options.h"
#include "model/symbols.h"
#include "system/ring_registry.h"

namespace ddtime {

namespace {

// ---------------------------------------------------------------------------
// What the options refuse, in the order they are checked: {what was asked,
// what it refuses, why}. The first that applies is the one said.

struct Conflict {
  bool (*asked)(const Settings&, const Plan&);
  bool (*refused)(const Settings&, const Plan&);
  const char* why;
};

bool reads_input_flags(const Settings& s) { return s.iflag.direct || s.iflag.nocache || s.iflag.dsync || s.iflag.sync; }

// clang-format off
constexpr Conflict kConflicts[] = {
    {[](const Settings&, const Plan& p) { return p.sweep_bs_memory; },
     [](const Settings& s, const Plan& p) { return s.input_file || s.output_file || p.pattern; },
     "--sweep=bs=memory copies /dev/zero to /dev/null; it takes no if=, of= or --pattern"},
    {[](const Settings&, const Plan& p) { return p.sweep_bs_auto; },
     [](const Settings&, const Plan& p) { return !p.sweep_iodepth.empty(); },
     "--sweep=bs=auto searches one block size at a time; it does not combine with --sweep=iodepth"},
    {[](const Settings&, const Plan& p) { return p.readback; },
     [](const Settings&, const Plan& p) {
       return p.repeat > 1 || p.warmup > 0 || p.sweeps_bs() || !p.sweep_iodepth.empty();
     },
     "--readback runs its passes once; it does not combine with --repeat, --warmup or --sweep"},
    {[](const Settings&, const Plan& p) { return p.on_stderr("csv"); },
     [](const Settings&, const Plan& p) { return p.on_stderr("json"); },
     "--csv and --json cannot both take the place of the text on standard error: give one a PATH"},
    {[](const Settings&, const Plan& p) { return p.mix.has_value(); },
     [](const Settings& s, const Plan&) { return s.input_file.has_value(); },
     "--mix reads and writes of= itself: it does not combine with if="},
    {[](const Settings&, const Plan& p) { return p.mix.has_value(); },
     [](const Settings& s, const Plan&) { return !s.output_file; },
     "--mix reads and writes the file or device named by of=: name it"},
    {[](const Settings&, const Plan& p) { return p.mix.has_value(); },
     [](const Settings& s, const Plan&) { return s.skip_records != 0 || s.skip_bytes != 0; },
     "--mix reads and writes the same blocks of of=: it does not combine with skip= (seek= moves both)"},
    {[](const Settings&, const Plan& p) { return p.mix.has_value(); },
     [](const Settings& s, const Plan&) { return reads_input_flags(s); },
     "--mix reads of= as oflag= says: it does not combine with iflag="},
    {[](const Settings&, const Plan& p) { return p.mix.has_value(); },
     [](const Settings& s, const Plan&) { return s.ibs != s.obs || s.converts() || s.block_or_unblock_requested; },
     "--mix reads and writes whole blocks of bs=: it does not combine with ibs=, obs= or a conversion"},
    {[](const Settings&, const Plan& p) { return p.mix.has_value(); },
     [](const Settings& s, const Plan&) { return s.oflag.append; },
     "--mix reads and writes the same blocks of of=: it does not combine with oflag=append"},
    {[](const Settings&, const Plan& p) { return p.mix.has_value() && p.ramp_ns > 0; },
     [](const Settings&, const Plan& p) { return p.jobs > 1; },
     "--mix leaves the ramp's reads and writes out in one job: with --ramp it does not combine with --jobs"},
    {[](const Settings&, const Plan& p) { return p.mix.has_value(); },
     [](const Settings&, const Plan& p) { return p.readback || p.sweep_bs_memory; },
     "--mix reads and writes at once: it does not combine with --readback, --verify or --sweep=bs=memory"},
    {[](const Settings&, const Plan& p) { return p.pattern.has_value(); },
     [](const Settings& s, const Plan&) { return s.input_file.has_value(); },
     "--pattern takes the place of the input: it does not combine with if="},
    {[](const Settings&, const Plan& p) { return p.pattern.has_value(); },
     [](const Settings& s, const Plan&) { return s.skip_records != 0 || s.skip_bytes != 0; },
     "--pattern takes the place of the input: it does not combine with skip="},
    {[](const Settings&, const Plan& p) { return p.pattern.has_value(); },
     [](const Settings& s, const Plan&) { return reads_input_flags(s); },
     "--pattern takes the place of the input: it does not combine with iflag="},
    {[](const Settings&, const Plan& p) { return p.readback; },
     [](const Settings& s, const Plan&) { return !s.output_file; },
     "--readback reads the output back: name it with of="},
    {[](const Settings&, const Plan& p) { return p.verify; },
     [](const Settings& s, const Plan&) { return s.converts(); },
     "--verify compares the bytes written with the input's, which a conversion changes"},
    {[](const Settings&, const Plan& p) { return p.size.has_value(); },
     [](const Settings& s, const Plan&) { return s.max_records != kNoLimit; },
     "--size does not combine with count=: each says how much to copy"},
    {[](const Settings&, const Plan& p) { return p.random; },
     [](const Settings& s, const Plan&) { return s.oflag.append; },
     "--random writes each block in its place: it does not combine with oflag=append"},
    {[](const Settings&, const Plan& p) { return p.jobs > 1; },
     [](const Settings& s, const Plan&) { return s.oflag.append; },
     "--jobs writes each job's part at its own offsets: it does not combine with oflag=append"},
    {[](const Settings&, const Plan& p) { return p.ramp_ns > 0; },
     [](const Settings&, const Plan& p) { return !p.time_ns; },
     "--ramp precedes a timed run: give --time too"},
    {[](const Settings&, const Plan& p) { return p.steady_percent.has_value(); },
     [](const Settings&, const Plan& p) { return !p.time_ns; },
     "--steady ends a timed run early: give --time too"},
    {[](const Settings&, const Plan& p) { return p.time_ns.has_value(); },
     [](const Settings&, const Plan& p) { return p.readback; },
     "--time goes over the range again and again, which --readback and --verify read once: they do not combine"},
    {[](const Settings&, const Plan& p) { return p.time_ns.has_value(); },
     [](const Settings& s, const Plan&) { return s.oflag.append; },
     "--time writes its range again on each pass: it does not combine with oflag=append"},
    {[](const Settings&, const Plan& p) { return p.time_ns.has_value(); },
     [](const Settings& s, const Plan&) { return s.ibs != s.obs || s.converts() || s.conv.sync || s.conv.noerror; },
     "--time goes over the range in bs= blocks: it needs bs= (not ibs= and obs=) and no conv= that changes or pads the records"},
};
// clang-format on

// A queued engine named outright: its word. (Auto is a queue only with
// --iodepth, --jobs or --random, which are named first.)
std::string_view engine_named(EngineChoice engine) {
  const RingEngine* ring = find_ring_engine(engine);
  return ring != nullptr ? ring->word.view() : std::string_view("auto");
}

// The queued engine copies bs= blocks straight, each record on its own:
// what depends on reading strictly one record after another, or on
// changing the bytes, is refused here, before any file is opened, naming
// the operand. (An input that cannot seek is found only once it is open:
// it runs at depth 1, and the report says so.) A depth sweep is held to
// what its deepest row needs.
bool check_queue(const Settings& settings, const Plan& given, const Diag& diag) {
  Plan plan = given;
  const bool depth_sweep = !given.sweep_iodepth.empty();
  if (depth_sweep) {
    plan.iodepth = *std::max_element(given.sweep_iodepth.begin(), given.sweep_iodepth.end());
    plan.iodepth_given = true;
  }
  const std::string depth_name =
      depth_sweep ? std::string("--sweep=iodepth") : fmt::format("--iodepth={}", plan.iodepth);
  if (plan.engine == EngineChoice::kSync && plan.iodepth > 1) {
    diag.error(0, fmt::format("--engine=sync keeps one I/O in flight; it does not combine with {}", depth_name));
    return false;
  }
  if (plan.engine == EngineChoice::kSync && plan.jobs > 1) {
    diag.error(0,
               fmt::format("--engine=sync is one loop in one thread; it does not combine with --jobs={}", plan.jobs));
    return false;
  }
  // --random copies blocks as they are, with either engine.
  if (!plan.queued() && !plan.random) return true;
  const std::string asked = plan.random          ? std::string("--random")
                            : plan.jobs > 1      ? fmt::format("--jobs={}", plan.jobs)
                            : plan.iodepth_given ? depth_name
                                                 : fmt::format("--engine={}", engine_named(plan.engine));
  auto refuse = [&](std::string_view operand) {
    diag.error(0, fmt::format("{} does not combine with {}", asked, operand));
    return false;
  };
  for (const ConversionSymbol& symbol : kConversionSymbols) {
    const bool refused = symbol.flag != &Conversions::excl && symbol.flag != &Conversions::nocreat &&
                         symbol.flag != &Conversions::notrunc && symbol.flag != &Conversions::fdatasync &&
                         symbol.flag != &Conversions::fsync;
    if (refused && settings.conv.*symbol.flag) return refuse(fmt::format("conv={}", symbol.name.view()));
  }
  if (settings.iflag.nocache) return refuse("iflag=nocache");
  if (settings.oflag.nocache) return refuse("oflag=nocache");
  // conv=block or unblock without cbs= does nothing to the bytes, yet GNU
  // copies through two buffers then.
  if (settings.block_or_unblock_requested) return refuse("conv=block or conv=unblock");
  // ibs=obs without bs= reblocks, which on a file that can seek (the only
  // kind read at depth) changes nothing: only short reads could differ.
  if (settings.ibs != settings.obs) {
    diag.error(0, fmt::format("{} needs bs=, not ibs= and obs=", asked));
    return false;
  }
  return true;
}

}  // namespace

bool check_plan(const Settings& settings, const Plan& plan, const Diag& diag) {
  if (!check_capacity(settings, plan, diag)) return false;
  if (!check_profile(settings, plan, diag)) return false;
  for (const Conflict& conflict : kConflicts) {
    if (conflict.asked(settings, plan) && conflict.refused(settings, plan)) {
      diag.error(0, conflict.why);
      return false;
    }
  }
  return check_queue(settings, plan, diag);
}

}  // namespace ddtime
