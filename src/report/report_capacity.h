// SPDX-License-Identifier: GPL-3.0-or-later
// report_capacity — every word of --capacity: the verdict a person can act
// on ("real capacity 8.6 GB of the 137 GB '/dev/sdb' reports: writes from
// 8.6 GB (8589934592 B) on wrap to offset 0"), the line of what was
// probed (=full: what every block gave), why a probe could not run, and
// the JSON document with every probed block, or =full's runs of blocks
// alike and its passes (the schema's "capacity").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/capacity.h"
#include "model/environment_facts.h"

namespace ddtime {

struct SessionRecord;

// The verdict and the probe's line, each ending in a newline; quoted: the
// target's name as messages quote it.
std::string capacity_text(std::string_view program, const CapacityResult& result, std::string_view quoted);

// Why the probe did not run to its end (not an interruption, and empty
// for kPass, whose pass said why), without the program's name; path quoted as messages quote it: "--capacity: cannot
// open '/dev/sdb'" (the caller adds the errno text).
struct CapacityProblemWords {
  std::string text;
  int err = 0;
};
CapacityProblemWords capacity_problem_words(const CapacityProblem& problem, const CapacityResult& result,
                                            std::string_view path);

// The probe's outcome and verdict names, as the JSON has them.
std::string_view probe_outcome_name(ProbeOutcome outcome) noexcept;
std::string_view capacity_verdict_name(CapacityVerdict verdict) noexcept;

// {"schema":1,"tool":"ddtime","version":..,"environment":{..},"complete":..,
//  "capacity":{..., "probes":[..]},"exit_status":..|null,"signal":..}
// --capacity=full: "probes" null, and "extents", the scan's figures and
// passes' runs (the session's; null before they ran) in their place.
std::string capacity_json(const CapacityResult& result, const SessionRecord* passes, bool complete,
                          const Environment& environment, std::string_view version, std::optional<int> exit_status,
                          int signal);

}  // namespace ddtime
