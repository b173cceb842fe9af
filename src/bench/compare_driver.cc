// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/compare_driver.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "dd/io.h"
#include "measure/compare_documents.h"
#include "measure/compare_stats.h"
#include "report/exporter.h"
#include "report/messages.h"
#include "report/output_formats.h"
#include "report/report_compare.h"
#include "report/report_files.h"

namespace ddtime {
namespace {

// The whole file, or errno with whether opening (rather than reading)
// failed.
struct FileText {
  std::string text;
  int err = 0;
  bool opening = false;
};

FileText read_whole(Os& os, const std::string& path) {
  FileText file;
  const IoResult opened = os.open(path.c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return {{}, opened.err, true};
  const int fd = static_cast<int>(opened.n);
  // Room for the whole file at once: a 90 MB document grown by doubling
  // would hold 64 MB and 128 MB together for a moment.
  struct stat status {};
  if (os.fstat(fd, status).ok() && S_ISREG(status.st_mode) && status.st_size > 0) {
    file.text.reserve(static_cast<std::size_t>(status.st_size) + 1);
  }
  std::array<char, 65536> chunk;
  while (true) {
    const IoResult got = os.read(fd, chunk.data(), chunk.size());
    if (got.err == EINTR) continue;
    if (!got.ok()) {
      file.err = got.err;
      break;
    }
    if (got.n == 0) break;
    file.text.append(chunk.data(), static_cast<std::size_t>(got.n));
  }
  os.close(fd);
  return file;
}

// Every document read, or the first refusal said.
std::optional<std::vector<Document>> read_all(Os& os, const Diag& diag, const Plan& plan) {
  std::vector<Document> documents;
  for (const std::string& name : plan.documents) {
    const FileText file = read_whole(os, name);
    if (file.err != 0) {
      document_unreadable(diag, name, file.err, file.opening);
      return std::nullopt;
    }
    std::variant<Document, DocumentProblem> read = read_document(file.text);
    if (const DocumentProblem* problem = std::get_if<DocumentProblem>(&read)) {
      document_problem(diag, name, *problem);
      return std::nullopt;
    }
    // A cut-short session may lack rows or runs, and a cut-short run
    // measured part of a copy: not what the other document measured.
    if (!std::get<Document>(read).complete && !plan.force) {
      document_incomplete(diag, name);
      return std::nullopt;
    }
    documents.push_back(std::move(std::get<Document>(read)));
  }
  return documents;
}

// Each other document against the baseline, or the first refusal said.
std::optional<ComparisonReport> compare_all(const Diag& diag, const Plan& plan,
                                            const std::vector<Document>& documents) {
  ComparisonReport report;
  report.names = plan.documents;
  for (std::size_t i = 0; i < documents.size(); ++i) {
    if (!documents[i].environment) report.without_environment.push_back(plan.documents[i]);
  }
  report.environment = environment_differences(documents);
  report.profiles = !documents.empty() && documents.front().kind == DocumentKind::kProfile;
  for (std::size_t i = 1; i < documents.size(); ++i) {
    const Matching matching = match_rows(documents.front(), documents[i]);
    if (!matching.same() && !plan.force) {
      const bool one_row = documents.front().rows.size() == 1;
      documents_differ(diag, plan.documents.front(), plan.documents[i], matching, one_row);
      return std::nullopt;
    }
    if (matching.pairs.empty()) {
      no_common_rows(diag, plan.documents.front(), plan.documents[i]);
      return std::nullopt;
    }
    ComparedDocument other{plan.documents[i], {}, matching.only_baseline, matching.only_other};
    for (const RowPair& pair : matching.pairs) {
      other.rows.push_back({pair.baseline->key, compare_rates(pair.baseline->rates, pair.other->rates)});
    }
    report.others.push_back(std::move(other));
  }
  return report;
}

// A report path that names one of the documents would overwrite it.
bool report_overwrites_document(Os& os, const Diag& diag, const Plan& plan, const std::vector<ReportRequest>& reports) {
  for (const ReportRequest& report : reports) {
    struct stat target {};
    if (!report.path || !os.stat_path(report.path->c_str(), target).ok()) continue;
    for (const std::string& name : plan.documents) {
      struct stat document {};
      if (os.stat_path(name.c_str(), document).ok() && document.st_dev == target.st_dev &&
          document.st_ino == target.st_ino) {
        report_is_document(diag, "--" + report.format, name);
        return true;
      }
    }
  }
  return false;
}

// The table on standard output, unless a report without a PATH takes its
// place there; the reports with a PATH to their files. The exporters are
// the plan's outputs, built from the formats' table as the console's are.
int write_outputs(Os& os, const Diag& diag, const Settings& settings, const Plan& plan, const ComparisonReport& report,
                  const std::vector<std::string>& command_line) {
  const std::vector<ReportRequest> reports = requested_reports(plan);
  if (report_overwrites_document(os, diag, plan, reports)) return 1;
  const Messages messages(diag, settings);
  ReportFiles files(os);
  if (const std::optional<ReportPathProblem> problem = files.open(reports)) {
    messages.report_path_refused(*problem);
    return 1;
  }
  std::string shown = comparison_text(report, settings.ext.units);
  int status = 0;
  const ExportContext context{os, settings, plan, command_line};
  for (const FormatExporter& each : make_exporters(context)) {
    std::optional<std::string> text = each.exporter->comparison_ended(report);
    if (!text) continue;
    const std::optional<std::string>& path = each.exporter->path();
    if (!path) {
      shown = std::move(*text);
      continue;
    }
    if (const int err = files.write(each.format->name, *text); err != 0) {
      messages.report_failed(each.format->title, *path, err);
      status = 1;
    }
  }
  if (const int err = write_all(os, STDOUT_FILENO, shown); err != 0) {
    diag.error(err, "write error");
    status = 1;
  }
  return status;
}

}  // namespace

int run_compare(Os& os, const Diag& diag, const Settings& settings, const Plan& plan,
                const std::vector<std::string>& command_line) {
  const std::optional<std::vector<Document>> documents = read_all(os, diag, plan);
  if (!documents) return 1;
  const std::optional<ComparisonReport> report = compare_all(diag, plan, *documents);
  if (!report) return 1;
  return write_outputs(os, diag, settings, plan, *report, command_line);
}

}  // namespace ddtime
