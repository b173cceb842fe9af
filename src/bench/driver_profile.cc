// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's --profile, apart from the row loop every session shares
// (driver_session.cc: a profile's rows are its tests on each side): with
// of=, the range written once, unmeasured, before the first test; and the
// pause between tests. The command line is shaped into the profile's base
// job before resolve (derive's shape_profile); the console says and writes
// the table at the end, from the profile's view of the session.
#include <algorithm>

#include "bench/driver.h"
#include "bench/driver_internal.h"
#include "system/file_kind.h"

namespace ddtime {
using namespace driver_internal;

namespace {

// The preparation: the range written once in 1 MiB blocks, in turn.
constexpr ProfileTest kPrepare{"prepare", kProfileLargestBlock, false, 1, 1};
// The pause is slept in slices this long, so that a SIGINT is heard.
constexpr std::int64_t kPauseSliceNs = 50'000'000;

}  // namespace

std::optional<int> Driver::prepare_profile_range(SessionRecord& session) {
  if (!profile_->writes) return std::nullopt;
  // Nothing has written the target since resolve found its kind.
  const FileKind target = resolved_->output;
  const bool exists = target != FileKind::kAbsent && target != FileKind::kUnknown;
  if (!exists || (target == FileKind::kRegular && file_size(os_, profile_->target, target) == 0)) {
    console_.messages().profile_creates(session_words(plan()), profile_->target, profile_->start + profile_->range);
  }
  const Settings settings = profile_test_settings(*resolved_, kPrepare, ProfileSide::kWrite);
  Plan plan = profile_test_plan(this->plan(), kPrepare, ProfileSide::kWrite, 0);
  plan.time_ns.reset();  // once over the range, not for a time
  plan.latency = false;
  if (console_.interrupted_in("a profile: preparing the range", nullptr)) stop(session);
  const PatternSource pattern = next_pattern(settings);
  console_.profile_step("preparing the range");
  const RunRecord run =
      run_with(settings, profile_test_kinds(*resolved_, ProfileSide::kWrite), plan, &pattern, "preparing the range");
  profile_->prepare_ns = run.result.times.real_ns;
  return after_run(session, run);
}

void Driver::profile_pause(SessionRecord& session) {
  for (std::int64_t left = profile_->pause_ns; left > 0; left -= kPauseSliceNs) {
    if (console_.interrupted_in("a profile: the pause between tests", nullptr)) stop(session);
    os_.sleep_ns(std::min(left, kPauseSliceNs));
  }
}

}  // namespace ddtime
