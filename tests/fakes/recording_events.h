// SPDX-License-Identifier: GPL-3.0-or-later
// A recording Events for tests of the copy path: it keeps every Notice,
// counts the statistics shown, and answers handle_signals as the test
// says (stop_on_signal), so that a stop can be exercised without a signal.
#pragma once

#include <cstdint>
#include <vector>

#include "model/events.h"
#include "system/signals.h"

namespace ddtime::testing {

struct Heard {
  Notice what;
  int err;
  std::int64_t value;
};

class RecordingEvents final : public Events {
 public:
  std::vector<Heard> notices;
  std::vector<AlignmentProblem> refused;
  std::vector<WrittenOutOfOrder> out_of_order;
  int stats_shown = 0;
  int signals_handled = 0;
  bool stop_on_signal = false;

  void notice(Notice what, Side, int err, std::int64_t value) override { notices.push_back({what, err, value}); }
  void alignment_refused(const AlignmentProblem& problem) override { refused.push_back(problem); }
  void written_out_of_order(const WrittenOutOfOrder& blocks) override { out_of_order.push_back(blocks); }
  void starting(const RunStart&) override {}
  void show_stats(const Stats&) override { ++stats_shown; }
  // Takes the pending signal, as the driver does.
  bool handle_signals(const Stats&) override {
    ++signals_handled;
    signals_internal::any_pending = 0;
    return stop_on_signal;
  }
  void progress(const Stats&, std::int64_t) override {}

  bool heard(Notice what) const {
    for (const Heard& h : notices) {
      if (h.what == what) return true;
    }
    return false;
  }
};

}  // namespace ddtime::testing
