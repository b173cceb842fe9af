// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

#include "dd/io.h"
#include "report/output_formats.h"

namespace ddtime {
namespace {

// What names one file: its device and inode once it exists; before that,
// the directory it would be created in, resolved, and its name there.
struct Identity {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  std::string where;  // absent: resolved directory + "/" + name
};

Identity identity_of(Os& os, const std::string& path) {
  struct stat status {};
  if (os.stat_path(path.c_str(), status).ok()) return {true, status.st_dev, status.st_ino, {}};
  const std::size_t slash = path.rfind('/');
  const std::string directory = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  char resolved[PATH_MAX];
  if (!os.real_path(directory.c_str(), resolved).ok()) return {false, 0, 0, path};
  return {false, 0, 0, std::string(resolved) + "/" + name};
}

bool same_file(const Identity& a, const Identity& b) {
  if (a.exists != b.exists) return false;
  return a.exists ? a.device == b.device && a.inode == b.inode : a.where == b.where;
}

}  // namespace

std::vector<ReportRequest> requested_reports(const Plan& plan) {
  std::vector<ReportRequest> reports;
  for (const OutputFormat& format : output_formats()) {
    if (const OutputRequest* asked = plan.output(format.name)) reports.push_back(*asked);
  }
  return reports;
}

std::optional<ReportPathProblem> check_report_paths(Os& os, const Settings& settings,
                                                    const std::vector<ReportRequest>& reports) {
  using Kind = ReportPathProblem::Kind;
  std::vector<std::pair<Identity, std::string>> seen;
  for (const ReportRequest& report : reports) {
    if (!report.path) continue;
    const std::string& path = *report.path;
    struct stat status {};
    if (os.stat_path(path.c_str(), status).ok() && S_ISDIR(status.st_mode)) {
      return ReportPathProblem{Kind::kDirectory, report.format, report.format, path, 0};
    }
    const Identity identity = identity_of(os, path);
    if (settings.input_file && same_file(identity, identity_of(os, *settings.input_file))) {
      return ReportPathProblem{Kind::kSameAsInput, report.format, report.format, path, 0};
    }
    if (settings.output_file && same_file(identity, identity_of(os, *settings.output_file))) {
      return ReportPathProblem{Kind::kSameAsOutput, report.format, report.format, path, 0};
    }
    for (const auto& [other, other_format] : seen) {
      if (same_file(identity, other)) {
        return ReportPathProblem{Kind::kSameAsOther, report.format, other_format, path, 0};
      }
    }
    seen.emplace_back(identity, report.format);
  }
  return std::nullopt;
}

ReportFiles::~ReportFiles() {
  for (const Open& report : open_) {
    if (report.path) os_.close(report.fd);
  }
}

std::optional<ReportPathProblem> ReportFiles::open(const std::vector<ReportRequest>& reports) {
  std::vector<std::string> created;
  std::vector<bool> existed;
  for (const ReportRequest& report : reports) {
    if (!report.path) {
      open_.push_back({report.format, std::nullopt, STDERR_FILENO});
      existed.push_back(true);
      continue;
    }
    const char* path = report.path->c_str();
    IoResult opened = os_.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    const bool new_file = opened.ok();
    if (!opened.ok() && opened.err == EEXIST) opened = os_.open(path, O_WRONLY | O_CLOEXEC, 0);
    if (!opened.ok()) {
      // None is left behind: close what was opened, remove what was made.
      for (const Open& done : open_) {
        if (done.path) os_.close(done.fd);
      }
      open_.clear();
      for (const std::string& made : created) os_.remove_file(made.c_str());
      return ReportPathProblem{ReportPathProblem::Kind::kCannotOpen, report.format, report.format, *report.path,
                               opened.err};
    }
    if (new_file) created.push_back(*report.path);
    existed.push_back(!new_file);
    open_.push_back({report.format, report.path, static_cast<int>(opened.n)});
  }
  // Emptied as of= is at its open, now that every one could be had.
  for (std::size_t i = 0; i < open_.size(); ++i) {
    struct stat status {};
    if (open_[i].path && existed[i] && os_.fstat(open_[i].fd, status).ok() && S_ISREG(status.st_mode)) {
      os_.ftruncate(open_[i].fd, 0);
    }
  }
  return std::nullopt;
}

bool ReportFiles::wanted(std::string_view format) const noexcept {
  for (const Open& report : open_) {
    if (report.format == format) return true;
  }
  return false;
}

int ReportFiles::write(std::string_view format, std::string_view text) noexcept {
  for (const Open& report : open_) {
    if (report.format == format) return write_all(os_, report.fd, text);
  }
  return 0;
}

std::optional<std::string> ReportFiles::path(std::string_view format) const {
  for (const Open& report : open_) {
    if (report.format == format) return report.path;
  }
  return std::nullopt;
}

}  // namespace ddtime
