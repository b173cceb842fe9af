// SPDX-License-Identifier: GPL-3.0-or-later
// options_profile — part of operands: --profile's and --pause's rows, and
// what they refuse.
// A profile sets each test's block size, depth, jobs, order and data
// itself, so an operand that would set one of them is refused, naming it,
// rather than silently overridden.
#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>

#include "cli/options.h"
#include "model/number.h"

namespace ddtime {
namespace {

template <typename T, typename Store>
po::typed_value<T>* row(Store store, const char* value_name) {
  return po::value<T>()->notifier(std::move(store))->value_name(value_name);
}

// --pause: a duration as --time's, or 0 for none.
std::int64_t pause(const std::string& text) {
  if (text == "0") return 0;
  const std::optional<std::int64_t> ns = parse_duration_ns(text);
  if (ns && *ns >= 0 && *ns <= std::int64_t{7} * 24 * 3'600'000'000'000) return *ns;
  throw BadArgument{"A pause is 0, or a number and a unit, ms, s, m or h (5s, 500ms), up to a week."};
}

// The operand the profile sets that was given, or empty.
std::string operand_it_sets(const Settings& s, const Plan& p) {
  if (s.bs_given || s.ibs != 512 || s.obs != 512) return "bs=";
  if (s.max_records != kNoLimit) return "count=";
  if (s.converts() || s.conv.sync || s.conv.noerror || s.block_or_unblock_requested || s.conv.sparse) return "conv=";
  if (p.iodepth_given) return "--iodepth";
  if (p.jobs > 1) return "--jobs";
  if (p.random) return "--random";
  if (p.sweeps_bs() || !p.sweep_iodepth.empty()) return "--sweep";
  // --mix's writes default to random data, which is the profile's own.
  if (p.pattern && !(p.mix && p.pattern->kind == PatternKind::kRandom)) return "--pattern";
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

// The presets' pauses: the first preset's, then each that differs ("5s;
// flash: 30s").
std::string pause_words() {
  auto seconds = [](std::int64_t ns) { return fmt::format("{}s", ns / kNanosecondsPerSecond); };
  const std::int64_t usual = kProfilePresets.front().pause_ns;
  std::string words = seconds(usual);
  for (const ProfilePreset& preset : kProfilePresets) {
    if (preset.pause_ns != usual) words += fmt::format("; {}: {}", preset.name, seconds(preset.pause_ns));
  }
  return words;
}

}  // namespace

void DdtimeOptions::describe_profile(const RowsWanted& wanted) {
  auto add = [&](const char* name, po::value_semantic* value, const char* words) {
    add_row(rows_, wanted, name, value, words);
  };
  add("profile",
      row<Text>(
          [this](const Text& v) {
            plan_.profile = find_profile(v.text);
            if (plan_.profile == nullptr)
              throw BadArgument{fmt::format("Valid arguments are: {}", profile_names(", "))};
          },
          "NAME"),
      fmt::format("run a preset's tests as CrystalDiskMark does ({}): reads of if=, or writes and reads of of=",
                  profile_names(", "))
          .c_str());
  add("pause", row<Text>([this](const Text& v) { plan_.pause_ns = pause(v.text); }, "DURATION"),
      fmt::format("with --profile: wait that long between tests ({}; 0 for none)", pause_words()).c_str());
}

bool check_profile(const Settings& settings, const Plan& plan, const Diag& diag) {
  if (!plan.profile) {
    if (!plan.pause_ns) return true;
    diag.error(0, "--pause waits between a profile's tests: give --profile too");
    return false;
  }
  const std::string name = fmt::format("--profile={}", plan.profile->name);
  if (const std::string sets = operand_it_sets(settings, plan); !sets.empty()) {
    // The --size hint only where it is the answer: the range that bs= and
    // count= would otherwise have given.
    if (sets == "bs=" || sets == "count=") {
      diag.error(0, fmt::format("{} sets {} for each test; give --size for the range", name, sets));
    } else if (sets == "--jobs" || sets == "--iodepth") {
      diag.error(0, fmt::format("{} sets each test's Q (--iodepth) and T (--jobs) itself; a plain run takes "
                                "--iodepth and --jobs",
                                name));
    } else {
      diag.error(0, fmt::format("{} sets {} itself for each test", name, sets));
    }
    return false;
  }
  if (const std::string refused = option_it_refuses(settings, plan); !refused.empty()) {
    diag.error(0, fmt::format("{} runs its own tests: it does not combine with {}", name, refused));
    return false;
  }
  // The table has one rate column a side: --units=both and all would be
  // shown as MB/s without a word (B11), so they are refused.
  if (settings.ext.units == RateUnits::kBoth || settings.ext.units == RateUnits::kAll) {
    diag.error(0, fmt::format("{} shows one rate unit: give --units=si (MB/s, its default), iec (MiB/s) or bytes "
                              "(B/s), not {}",
                              name, settings.ext.units == RateUnits::kBoth ? "both" : "all"));
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
