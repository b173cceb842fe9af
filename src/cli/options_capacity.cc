// SPDX-License-Identifier: GPL-3.0-or-later
// options_capacity — part of operands: what --capacity and --keep refuse.
// The probe writes its own stamps to of= in its own blocks, once, and
// reads them back: every option that shapes a copy or a benchmark's runs
// has no meaning there, and is named rather than ignored. --capacity=full
// writes and reads every block in two passes, which take a queue
// (--iodepth, --engine), their --timeline and its chart (--svg).
#include <fmt/format.h>

#include <string>

#include "cli/options.h"

namespace ddtime {
namespace {

// The operand or option --capacity does not take, or empty.
std::string capacity_refuses(const Settings& s, const Plan& p) {
  if (s.input_file) return "if=";
  if (s.skip_records != 0 || s.skip_bytes != 0) return "skip=";
  if (s.ibs != s.obs) return "ibs= and obs= (bs= sets the probe's block)";
  if (s.converts() || s.block_or_unblock_requested || s.conv.sync || s.conv.noerror || s.conv.sparse) return "conv=";
  if (s.iflag.direct || s.iflag.nocache || s.iflag.dsync || s.iflag.sync || s.iflag.fullblock) return "iflag=";
  if (s.oflag.append || s.oflag.nocache) return s.oflag.append ? "oflag=append" : "oflag=nocache";
  if (p.pattern) return "--pattern";
  if (p.mix) return "--mix";
  if (p.profile != nullptr) return "--profile";
  if (p.readback) return p.verify ? "--verify" : "--readback";
  if (p.repeat > 1 || p.warmup > 0) return p.repeat > 1 ? "--repeat" : "--warmup";
  if (p.sweeps_bs() || !p.sweep_iodepth.empty()) return "--sweep";
  if (p.time_ns || p.ramp_ns > 0) return p.time_ns ? "--time" : "--ramp";
  if (p.random) return "--random";
  if (p.jobs > 1) return "--jobs";
  if (!p.capacity_full && (p.iodepth_given || p.engine_given)) {
    return "--iodepth or --engine (--capacity=full's passes take them)";
  }
  if (p.latency) return "--latency";
  if (!p.capacity_full && p.timeline) return "--timeline (--capacity=full's passes take it)";
  if (p.steady_percent) return "--steady";
  if (p.cache_given) return "--cache";
  if (p.preallocate) return "--preallocate";
  for (const OutputRequest& asked : p.outputs) {
    if (asked.format != "json" && !(p.capacity_full && asked.format == "svg")) {
      return "--" + asked.format + (asked.format == "svg" ? " (--capacity=full's passes take it)" : "");
    }
  }
  return {};
}

}  // namespace

bool check_capacity(const Settings& settings, const Plan& plan, const Diag& diag) {
  if (plan.keep && !plan.capacity) {
    diag.error(0, "--keep saves the blocks --capacity overwrites and writes them back: give --capacity too");
    return false;
  }
  if (!plan.capacity) return true;
  if (plan.keep && plan.capacity_full) {
    diag.error(0,
               "--keep saves the blocks the quick probe overwrites; --capacity=full writes every block, which it "
               "cannot save: copy what the device holds first");
    return false;
  }
  if (const std::string refused = capacity_refuses(settings, plan); !refused.empty()) {
    diag.error(0, fmt::format("--capacity probes of= with stamps of its own: it does not combine with {}", refused));
    return false;
  }
  if (!settings.output_file) {
    diag.error(0, "--capacity probes the device or file named by of=: name it");
    return false;
  }
  return true;
}

}  // namespace ddtime
