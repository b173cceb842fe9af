// SPDX-License-Identifier: GPL-3.0-or-later
// report_compare's refusals: a document that cannot be read or is not
// one ddtime wrote, documents that did not measure the same thing, a
// report that would overwrite one; every text from a document escaped.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "report/report_compare.h"
#include "report/report_session.h"

namespace ddtime {
namespace {

// An operand's value as the command line would say it: bs=1M.
std::string operand_words(std::string_view path, const std::optional<std::string>& value) {
  if (!value) return fmt::format("no {}", printable(path));
  const bool block = path == "bs" || path == "ibs" || path == "obs";
  const bool digits =
      !value->empty() && std::all_of(value->begin(), value->end(), [](char c) { return c >= '0' && c <= '9'; });
  if (block && digits && value->size() < 19) return fmt::format("{}={}", path, bs_text(std::stoll(*value)));
  return fmt::format("{}={}", printable(path), printable(*value));
}

std::string row_list(const std::vector<RowKey>& keys) {
  std::string list;
  for (const RowKey& key : keys) list += (list.empty() ? "" : ", ") + row_label(key);
  return list;
}

}  // namespace

void document_unreadable(const Diag& diag, std::string_view name, int err, bool opening) {
  diag.error(err, "{} {}", opening ? "cannot open" : "error reading", diag.quote_always(name));
}

void document_problem(const Diag& diag, std::string_view name, const DocumentProblem& problem) {
  switch (problem.kind) {
    case DocumentProblem::Kind::kSyntax:
      diag.error(0, "{}:{}:{}: not a complete JSON document: {}", diag.quote_if_needed(name), problem.line,
                 problem.column, printable(problem.detail));
      return;
    case DocumentProblem::Kind::kNotDdtime:
      diag.error(0, "{} is not a ddtime JSON document (no \"tool\": \"ddtime\")", diag.quote_always(name));
      return;
    case DocumentProblem::Kind::kRefusal:
      diag.error(0, "{} is the document of a refused command: it holds no measurements", diag.quote_always(name));
      return;
    case DocumentProblem::Kind::kUnknownKind:
      diag.error(0, "{} is a ddtime document, but not of a run, a session or a profile", diag.quote_always(name));
      return;
    case DocumentProblem::Kind::kMalformed:
      diag.error(0, "{}: {} is missing or not what ddtime writes there", diag.quote_if_needed(name),
                 printable(problem.detail));
      return;
    case DocumentProblem::Kind::kTooDeep:
      diag.error(0, "{}: objects and arrays nested 64 deep: not a document ddtime writes", diag.quote_if_needed(name));
      return;
    case DocumentProblem::Kind::kBadRate:
      if (problem.detail.empty()) {
        diag.error(0, "{}: the number {} is too large for a double", diag.quote_if_needed(name),
                   printable(problem.value));
        return;
      }
      diag.error(0, "{}: {} is {}, not a rate (a finite number of bytes a second, 0 or more)",
                 diag.quote_if_needed(name), printable(problem.detail), printable(problem.value));
      return;
  }
}

void document_incomplete(const Diag& diag, std::string_view name) {
  diag.error(0,
             "{} is incomplete (\"complete\": false): a signal cut its runs short; "
             "--force compares what it holds",
             diag.quote_always(name));
}

void documents_differ(const Diag& diag, std::string_view baseline, std::string_view other, const Matching& matching,
                      bool one_row) {
  std::string what;
  if (const std::optional<OperandDifference>& d = matching.difference) {
    what = fmt::format("{} in {}, {} in {}", operand_words(d->path, d->baseline_value), baseline,
                       operand_words(d->path, d->other_value), other);
    if (!one_row) what += fmt::format(" (row {})", row_label(d->row));
  } else {
    std::vector<std::string> parts;
    if (!matching.only_baseline.empty())
      parts.push_back(fmt::format("{} only in {}", row_list(matching.only_baseline), baseline));
    if (!matching.only_other.empty())
      parts.push_back(fmt::format("{} only in {}", row_list(matching.only_other), other));
    what = parts.size() == 2 ? parts[0] + "; " + parts[1] : parts.front();
  }
  diag.error(0, "{} and {} did not measure the same thing: {}; --force compares them anyway",
             diag.quote_always(baseline), diag.quote_always(other), what);
}

void no_common_rows(const Diag& diag, std::string_view baseline, std::string_view other) {
  diag.error(0, "{} and {} have no row in common to compare", diag.quote_always(baseline), diag.quote_always(other));
}

void report_is_document(const Diag& diag, std::string_view option, std::string_view name) {
  diag.error(0, "{} names {}, one of the documents compared: the report would overwrite it", option,
             diag.quote_always(name));
}

}  // namespace ddtime
