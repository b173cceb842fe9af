// runner — one dd invocation from valid Settings to an exit status, in GNU
// dd's order: open input, open output (truncating at seek=), catch signals,
// start the clock, copy, flush (fsync/fdatasync), drop caches, close, print
// the summary. It is also where the copy's Notices become GNU's words.
#pragma once

#include <cstdint>
#include <string>

#include "diag.h"
#include "engine.h"
#include "events.h"
#include "os.h"
#include "report.h"
#include "settings.h"
#include "timing.h"

namespace ddtime {

class Runner final : public Events {
 public:
  Runner(Os& os, Clock& clock, const Diag& diag, const Settings& settings);

  // The exit status; does not return when a SIGINT ends the copy.
  int run() noexcept;

  void notice(Notice what, Side side, int err, std::int64_t value) noexcept override;
  void show_stats(const Stats& stats) noexcept override;
  void handle_signals(const Stats& stats) noexcept override;
  void progress(const Stats& stats, std::int64_t now_ns) noexcept override;

 private:
  int open_files() noexcept;
  int synchronize_output(const Engine& engine) noexcept;
  int drop_caches(Engine& engine) noexcept;
  // GNU's cleanup(): close both sides; a failure ends the program at once.
  void close_files() noexcept;
  // Signals first, so the files are closed once; then close and summarise.
  void finish(const Stats& stats) noexcept;
  [[noreturn]] void die(int status) noexcept;

  const std::string& name_of(Side side) const noexcept {
    return side == Side::kInput ? input_name_ : output_name_;
  }

  Os& os_;
  Clock& clock_;
  const Diag& diag_;
  const Settings& settings_;
  Reporter reporter_;
  std::string input_name_;
  std::string output_name_;
  std::int64_t start_ns_ = 0;
  bool files_closed_ = false;
};

}  // namespace ddtime
