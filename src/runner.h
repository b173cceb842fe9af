// SPDX-License-Identifier: GPL-3.0-or-later
// runner — one dd invocation from valid Settings to an exit status, in GNU
// dd's order: open input, open output (truncating at seek=), catch signals,
// start the clock, copy, flush (fsync/fdatasync), drop caches, close, print
// the summary. It is also where the copy's Notices become GNU's words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "diag.h"
#include "engine.h"
#include "events.h"
#include "io.h"
#include "os.h"
#include "report.h"
#include "settings.h"
#include "timing.h"

namespace ddtime {

class Runner final : public Events {
 public:
  // diag is muted here when --json sends JSON to stderr in place of text.
  Runner(Os& os, Clock& clock, Diag& diag, const Settings& settings, bool stderr_is_terminal = false);

  // The exit status; does not return when a SIGINT ends the copy.
  int run() noexcept;

  void notice(Notice what, Side side, int err, std::int64_t value) noexcept override;
  void show_stats(const Stats& stats) noexcept override;
  void handle_signals(const Stats& stats) noexcept override;
  void progress(const Stats& stats, std::int64_t now_ns) noexcept override;

 private:
  void resolve_direct_shorthand() noexcept;
  int open_files() noexcept;
  int check_direct_alignment(std::size_t& buffer_alignment) noexcept;
  std::optional<std::int64_t> expected_total_bytes() noexcept;
  // Times the flush; flush() makes GNU's fdatasync/fsync calls.
  int synchronize_output(const Engine& engine) noexcept;
  int flush(const Engine& engine) noexcept;
  int drop_caches(Engine& engine) noexcept;
  // GNU's cleanup(): close both sides; a failure ends the program at once.
  void close_files() noexcept;
  // Signals first, so the files are closed once; then close and summarise.
  // Returns nonzero when the JSON report could not be written.
  int finish(const Stats& stats, int exit_status) noexcept;
  // GNU's summary, then ddtime's report and JSON as the settings ask.
  // exit_status is absent for a snapshot (SIGUSR1) or a run killed by signal.
  int summarise(const Stats& stats, bool complete, std::optional<int> exit_status, int signal) noexcept;
  RunTimes measure(std::int64_t now_ns) const noexcept;
  // Whether the run ends with a timing report or JSON, which need CPU times.
  bool reports_times() const noexcept { return settings_.ext.timing_report || settings_.ext.json; }
  int write_json_file(const std::string& json) noexcept;
  // False when the text could not all be written.
  bool write_to_stderr(std::string_view text) noexcept;
  // A run that ends without GNU's statistics (it failed before the copy,
  // or its flush failed on the way out): --json still gets its object.
  int report_without_summary(int status, const Stats& stats = Stats{}) noexcept;
  [[noreturn]] void die(int status) noexcept;

  const std::string& name_of(Side side) const noexcept {
    return side == Side::kInput ? input_name_ : output_name_;
  }

  Os& os_;
  Clock& clock_;
  Diag& diag_;
  Settings settings_;
  bool stderr_is_terminal_;
  Reporter reporter_;
  std::string input_name_;
  std::string output_name_;
  std::optional<std::int64_t> total_bytes_;  // for --progress
  InputPosition input_position_;

  // The measured window.
  std::int64_t start_ns_ = 0;
  std::int64_t copy_end_ns_ = -1;
  std::int64_t flush_ns_ = 0;
  CpuTimes cpu_at_start_;
  std::uint64_t ticks_at_start_ = 0;
  const TimedOs* timed_os_ = nullptr;  // set under --split-times

  bool files_closed_ = false;
};

}  // namespace ddtime
