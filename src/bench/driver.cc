// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/driver.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <utility>
#include <vector>

#include "bench/driver_internal.h"
#include "bench/resolve.h"
#include "dd/io.h"
#include "system/signals.h"

namespace ddtime {

namespace driver_internal {

// Dies by sig with its default action, after the statistics, as GNU does.
void die_by(int sig) noexcept {
  std::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  std::raise(sig);
  // Only reached if the signal could not kill us.
  _exit(128 + sig);
}

}  // namespace driver_internal

using namespace driver_internal;

Driver::Driver(Os& os, Clock& clock, Diag& diag, const Settings& settings, const Plan& plan, bool stderr_is_terminal,
               std::vector<std::string> command_line)
    : os_(os),
      diag_(diag),
      asked_(settings),
      asked_plan_(plan),
      // The CPU is read at the window's ends when a report will show it.
      window_(clock, settings.ext.timing_report(plan.latency) || !plan.outputs.empty()),
      console_(os, diag, window_, settings, plan, stderr_is_terminal, std::move(command_line)) {}

Driver::~Driver() {
  if (resolved_ && resolved_->device_claim >= 0) os_.close(resolved_->device_claim);
}

int Driver::run() {
  console_.begin();
  // The handlers go in before the first file is opened, as GNU dd 9.1
  // installs them: a SIGUSR1 from a monitoring loop right after the start
  // must not kill the process once of= is emptied, and a SIGINT is heard in
  // every phase (calibration, warm-up, cache drop, preallocation, passes).
  signals::install_as_gnu();
  if (asked_plan_.profile) shape_profile(os_, asked_, asked_plan_);
  // --capacity writes stamps of its own: the rules of every generator
  // that writes (a target holding data needs --force) are the probe's.
  if (asked_plan_.capacity) asked_plan_.pattern = PatternSpec{PatternKind::kStamp, 0};
  // --random without a seed: one drawn now, so that resolve's ResolvedRun holds
  // the order every run of it repeats.
  if (asked_plan_.random && !asked_plan_.random_seed) {
    asked_plan_.random_seed = drawn_seed(window_.now_ns());
  }
  std::optional<ResolvedRun> resolved = resolve(os_, asked_, asked_plan_, console_.messages());
  if (!resolved) return console_.refused();
  resolved_ = std::make_unique<const ResolvedRun>(std::move(*resolved));
  if (const std::optional<ReportPathProblem> problem = console_.resolved(settings(), plan(), resolved_->caches)) {
    console_.messages().report_path_refused(*problem);
    return console_.refused();
  }
  if (plan().capacity) return run_capacity();
  return plan().readback ? run_readback() : plan().profile || plan().session() ? run_session() : run_single();
}

int Driver::run_single() {
  RunRecord record = run_with(settings(), resolved_->kinds(), plan());
  // As dd's die(): the whole history, what the JSON's errors list.
  record.errors = diag_.history();
  switch (record.result.report) {
    case RunResult::Report::kNothing:
      return record.result.exit_status;
    case RunResult::Report::kJsonOnly:
      record.result.times.measured = false;  // the window never opened
      console_.run_ended(record);
      return record.result.exit_status;
    case RunResult::Report::kSummary:
      break;
  }
  if (record.result.ending == Ending::kInterrupted) {
    console_.run_ended(record);
    die_by(record.signal);
  }
  // The JSON carries the status as it stood; failing to write it fails too.
  const int status = record.result.exit_status;
  return console_.run_ended(record) != 0 ? 1 : status;
}

RunRecord Driver::run_with(const Settings& settings, FileKinds kinds, const Plan& plan, const PatternSource* pattern,
                           std::string label) {
  const std::size_t said_before = diag_.history().size();
  RunRecord record;
  // What the run measures, in words, now that --cache has acted.
  record.measured = console_.measured_words(settings, kinds);
  std::optional<PatternOs> generated;
  // --mix's run builds its own, above the Os that time.
  if (pattern != nullptr && !plan.mix) generated.emplace(os_, *pattern);
  console_.run_begins(settings, std::move(label));
  Run run(generated ? static_cast<Os&>(*generated) : os_, console_, window_, settings, kinds, plan, pattern);
  record.result = run.perform();
  console_.run_ends();
  record.settings = run.settings();
  const std::vector<std::string>& said = diag_.history();
  record.errors.assign(said.begin() + static_cast<std::ptrdiff_t>(std::min(said_before, said.size())), said.end());
  if (record.result.ending == Ending::kInterrupted) record.signal = console_.interrupt();
  record.shows_engine = plan.shows_engine();
  record.depth = plan.iodepth;
  record.cache = plan.cache;
  if (pattern != nullptr) record.seed = pattern->seed();
  return record;
}

}  // namespace ddtime
