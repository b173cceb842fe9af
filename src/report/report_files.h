// SPDX-License-Identifier: GPL-3.0-or-later
// report_files — the reports' PATHs (--json=PATH, --csv=PATH, --svg=PATH ...) are outputs like of=. Before
// anything is opened for writing, each path is checked: not a directory,
// not the same file as if=, of= or the other report (the same device and
// inode, or for a name that is not there yet the same resolved directory
// and name). Then all of them are opened together (created when absent),
// or none is left behind, before the first run; the finished report is
// written at the end. Through os only; the words are messages'.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "model/settings.h"
#include "system/os.h"

namespace ddtime {

// Why a report path cannot be had.
struct ReportPathProblem {
  enum class Kind {
    kDirectory,     // the path is a directory
    kSameAsInput,   // the same file as if=
    kSameAsOutput,  // the same file as of=
    kSameAsOther,   // two reports name one file: format and other
    kCannotOpen,    // open(2) refused it: err says why
  };
  Kind kind = Kind::kCannotOpen;
  std::string format;  // its option's word (output_formats.h)
  std::string other;   // kSameAsOther: the report asked for before it
  std::string path;
  int err = 0;
};

// A report asked for, with its path, or none (the report replaces the text
// on standard error).
using ReportRequest = OutputRequest;
// The reports plan asks for, in the order of the formats' table.
std::vector<ReportRequest> requested_reports(const Plan& plan);

// The first problem with the paths, without opening anything for writing.
std::optional<ReportPathProblem> check_report_paths(Os& os, const Settings& settings,
                                                    const std::vector<ReportRequest>& reports);

// The reports' destinations, open from before the first run to the end.
class ReportFiles {
 public:
  explicit ReportFiles(Os& os) noexcept : os_(os) {}
  ~ReportFiles();
  ReportFiles(const ReportFiles&) = delete;
  ReportFiles& operator=(const ReportFiles&) = delete;

  // Opens every path (O_CREAT without O_TRUNC, then emptied as of= is),
  // or, when one cannot be opened, none: what it created it removes
  // again, and the problem is returned.
  std::optional<ReportPathProblem> open(const std::vector<ReportRequest>& reports);

  // Where format goes: nullopt when it was not asked for.
  bool wanted(std::string_view format) const noexcept;
  // To its file, or (no path) to standard error; nothing when format is
  // not open. Returns errno, or 0.
  int write(std::string_view format, std::string_view text) noexcept;
  // The path of format's file; nullopt for standard error.
  std::optional<std::string> path(std::string_view format) const;

 private:
  struct Open {
    std::string format;
    std::optional<std::string> path;
    int fd = -1;
  };
  Os& os_;
  std::vector<Open> open_;
};

}  // namespace ddtime
