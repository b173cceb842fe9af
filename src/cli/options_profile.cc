// SPDX-License-Identifier: GPL-3.0-or-later
// options_profile — part of operands: what --profile and --pause refuse.
// A profile sets each test's block size, depth, jobs, order and data
// itself, so an operand that would set one of them is refused, naming it,
// rather than silently overridden.
#include <fmt/format.h>

#include <string>

#include "cli/options.h"

namespace ddtime {
namespace {

// The operand the profile sets that was given, or empty.
std::string operand_it_sets(const Settings& s, const Plan& p) {
  if (s.bs_given || s.ibs != 512 || s.obs != 512) return "bs=";
  if (s.max_records != kNoLimit) return "count=";
  if (s.converts() || s.conv.sync || s.conv.noerror || s.block_or_unblock_requested || s.conv.sparse) return "conv=";
  if (p.iodepth_given) return "--iodepth";
  if (p.jobs > 1) return "--jobs";
  if (p.random) return "--random";
  if (p.sweeps_bs() || !p.sweep_iodepth.empty()) return "--sweep";
  if (p.pattern) return "--pattern";
  if (p.latency) return "--latency";
  if (p.engine_given) return "--engine";
  return {};
}

// An option that has no meaning in a profile's tests, or empty.
std::string option_it_refuses(const Settings& s, const Plan& p) {
  if (p.readback) return p.verify ? "--verify" : "--readback";
  if (p.preallocate) return "--preallocate";
  if (p.timeline) return p.steady_percent ? "--steady" : "--timeline";
  if (p.ramp_ns > 0) return "--ramp";
  if (s.iflag.append || s.oflag.append) return "oflag=append";
  if (s.iflag.nocache || s.oflag.nocache) return "iflag=nocache or oflag=nocache";
  return {};
}

}  // namespace

bool check_profile(const Settings& settings, const Plan& plan, const Diag& diag) {
  if (!plan.profile) {
    if (!plan.pause_ns) return true;
    diag.error(0, "--pause waits between a profile's tests: give --profile too");
    return false;
  }
  const std::string name = fmt::format("--profile={}", plan.profile->name);
  if (const std::string sets = operand_it_sets(settings, plan); !sets.empty()) {
    diag.error(0, fmt::format("{} sets {} for each test; give --size for the range", name,
                              sets == "bs=" || sets == "count=" ? sets : sets + " itself"));
    return false;
  }
  if (const std::string refused = option_it_refuses(settings, plan); !refused.empty()) {
    diag.error(0, fmt::format("{} runs its own tests: it does not combine with {}", name, refused));
    return false;
  }
  if (!settings.input_file && !settings.output_file) {
    diag.error(0, fmt::format("{} measures a file or a device: name it with if= (read tests) or of= (read and write "
                              "tests)",
                              name));
    return false;
  }
  if (settings.input_file && settings.output_file) {
    diag.error(0, fmt::format("{} reads if=, or writes and reads of=: give one of them, not both", name));
    return false;
  }
  return true;
}

}  // namespace ddtime
