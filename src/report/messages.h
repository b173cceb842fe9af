// SPDX-License-Identifier: GPL-3.0-or-later
// messages — the words for everything a run reports: each Notice in GNU dd
// 9.1's wording, with its quoting rules and the status=none rules for what
// is a warning, and ddtime's own wording for the checks it adds (direct-I/O
// alignment, the JSON report file). Formats through diag; never touches a
// file itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/events.h"
#include "model/settings.h"
#include "report/diag.h"
#include "report/report_files.h"
#include "system/disk_signature.h"
#include "system/limits.h"

namespace ddtime {

class Messages {
 public:
  Messages(const Diag& diag, const Settings& settings);

  // The settings' own names, read when a message is worded: the driver's
  // settings may be resolved (--sweep=bs=memory names its files) after
  // this is made.
  std::string name_of(Side side) const {
    const std::optional<std::string>& file = side == Side::kInput ? settings_.input_file : settings_.output_file;
    return file ? *file : side == Side::kInput ? "standard input" : "standard output";
  }

  void notice(Notice what, Side side, int err, std::int64_t value) const;
  void alignment(const AlignmentProblem& problem) const;
  void written_out_of_order(const WrittenOutOfOrder& blocks) const;
  // title: the format as output_formats.h calls it ("JSON").
  void report_failed(std::string_view title, const std::string& path, int err) const;
  // ddtime --compare: its program (compare_launch) could not be started.
  void compare_program_failed(const std::string& path, int err) const;
  // That program started with a command line that does not compare.
  void only_compares() const;
  // A session (--repeat, --warmup, --sweep) opens each file again for every
  // run: asked names the option, kind what the side is when it has a name
  // ("a pipe"); a side without a name is standard input or output.
  void cannot_repeat(std::string_view asked, Side side, std::string_view kind) const;
  // --cache= could not set the page cache up: what it was doing, on what.
  void cache_failed(std::string_view mode, int err, std::string_view doing, const std::string& path) const;
  // --readback and --verify.
  void readback_needs_file(const std::string& path) const;
  void verify_needs_replay() const;
  void verify_read_failed(const std::string& path, int err) const;
  void verify_mismatch(const std::string& path, std::int64_t offset) const;
  // A session's writes to a block device that is mounted or claimed.
  void device_in_use(std::string_view asked, const std::string& path) const;
  // --json=PATH or --csv=PATH that cannot be had.
  void report_path_refused(const ReportPathProblem& problem) const;
  // --preallocate.
  void preallocate_needs_size() const;
  void preallocate_needs_file(const std::string& path) const;
  void preallocate_failed(const std::string& path, int err) const;
  // A sweep's rows must move the same bytes, and the input has no end.
  void sweep_needs_size() const;
  // --random: a side whose blocks cannot be reached at offsets of their
  // own (kind: "a pipe"), or a range with no end to draw the order over.
  void random_cannot_place(Side side, std::string_view kind) const;
  // --jobs=N: a side that takes its transfers only in turn.
  void jobs_cannot_place(unsigned jobs, Side side, std::string_view kind) const;
  // Rule 3 of issue 28: what --jobs and --iodepth would start, refused
  // before anything is opened when the machine cannot take it.
  void too_many_threads(unsigned jobs, unsigned depth, std::int64_t threads, const ThreadLimit& limit) const;
  void too_many_aio_events(unsigned jobs, unsigned depth, std::int64_t events, std::int64_t max,
                           std::int64_t used) const;
  void queue_buffers_beyond_memory(unsigned jobs, unsigned depth, std::int64_t bytes, std::int64_t available) const;
  void random_needs_range() const;
  void random_past_device_end(const std::string& path, std::int64_t end, std::int64_t size) const;
  // --time: a write to a file with no end to the range; a range with no
  // whole block; an input that cannot go back to the range's start.
  void time_needs_size() const;
  void time_range_under_a_block(std::int64_t bytes, std::int64_t bs) const;
  void time_cannot_go_round(std::string_view kind) const;
  // --profile's target is not a file or a block device (kind: "a pipe").
  void profile_needs_file(std::string_view asked, const std::string& path, std::string_view kind) const;
  // Generator data (a profile's, a --pattern's) would overwrite what the
  // user did not offer as scratch: a non-empty file, a device's content.
  void would_overwrite_file(std::string_view asked, const std::string& path, std::int64_t bytes) const;
  void would_overwrite_device(std::string_view asked, const std::string& path, const DiskSignature& found) const;
  // A profile never grows an existing file: its range ends past the file's end.
  void profile_would_grow(std::string_view asked, const std::string& path, std::int64_t size, std::int64_t end) const;
  // --mix reads what is there: nothing there, or a range past the end.
  void mix_needs_data(const std::string& path) const;
  void mix_would_grow(const std::string& path, std::int64_t size, std::int64_t end) const;
  void mix_needs_a_block(std::int64_t range, std::int64_t bs) const;
  // A profile's new file, created at the range's size.
  void profile_creates(std::string_view asked, const std::string& path, std::int64_t bytes) const;

 private:
  // False when `what` is not one of its notices.
  bool transfer_notice(Notice what, Side side, int err, std::int64_t value) const;
  void position_or_setup_notice(Notice what, Side side, int err, std::int64_t value) const;
  bool engine_notice(Notice what, int err, std::int64_t value) const;
  // ", aligned to N bytes (...) as --align asks" when --align was given.
  std::string aligned_words() const;

  const Diag& diag_;
  const Settings& settings_;
};

}  // namespace ddtime
