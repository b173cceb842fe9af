// SPDX-License-Identifier: GPL-3.0-or-later
// report_compare — every word of --compare: the environment's differences
// above the table, the table of rows (medians, ratio, its interval, p,
// runs, verdict), the same as JSON and CSV, and the refusals (a file that
// is no ddtime document, rows or operands that differ). Values in, text
// out; what is read and compared is compare_documents' and compare_stats'.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "measure/compare_documents.h"
#include "measure/compare_stats.h"
#include "model/settings.h"
#include "report/diag.h"
#include "report/svg_charts.h"

namespace ddtime {

struct ComparedRow {
  RowKey key;  // the baseline's
  RowComparison figures;
};

// One document against the baseline.
struct ComparedDocument {
  std::string name;
  std::vector<ComparedRow> rows;
  // Rows one of the two lacks (an interrupted profile compared with
  // --force): listed as "only in" the document that has them.
  std::vector<RowKey> only_baseline;
  std::vector<RowKey> only_other;
};

struct ComparisonReport {
  std::vector<std::string> names;  // every document as named, the baseline first
  std::vector<std::string> without_environment;
  std::vector<EnvironmentDifference> environment;
  std::vector<ComparedDocument> others;
  bool profiles = false;  // the baseline is a profile: rates in the profile table's unit
};

// Text from a document (or a name) as a terminal may show it: control
// characters, DEL, C1 controls, bidirectional overrides and line
// separators, and bytes that are not UTF-8, escaped C-style ("\n",
// "\x1b", "\u202e"), backslash doubled. A document from elsewhere is data,
// never terminal commands.
std::string printable(std::string_view text);

// "bs=1M depth 1", "bs=64k depth 4 read"; a profile's "SEQ1M Q8T1 read".
std::string row_label(const RowKey& key);

// "1.31x faster [1.22-1.40]", "1.31x slower [1.22-1.40]" (the inverted
// ratio: how many times the baseline's rate is the other's), or "~" and
// the reason: "~ too few runs (3 and 3: the smallest p a rank test can
// give is 0.10)", "~ no significant difference (p=0.41)".
std::string verdict_text(const RowComparison& row);

// --svg's panels of a comparison: for each document against the baseline,
// its rows' ratios of medians with their 95% intervals about 1, on a log
// scale, each with its verdict.
std::vector<SvgPanel> comparison_panels(const ComparisonReport& report);

//   environment: host: alpha | beta
//   environment: not recorded in old.json
//   b.json against a.json:
//   row            a.json      b.json      ratio  95% interval  p      runs   verdict
//   bs=1M depth 1  1.95 GiB/s  2.55 GiB/s  1.31   1.22-1.40     0.008  5, 5   1.31x faster [1.22-1.40]
// Rates in one unit per table: a profile's in MB/s as its own table (MiB/s
// or B/s with --units=iec or bytes), a session's in the IEC prefix of its
// largest median (SI with --units=si); p below 0.001 as "<0.001".
std::string comparison_text(const ComparisonReport& report, std::optional<RateUnits> units);
std::string comparison_json(const ComparisonReport& report, std::string_view version);
// A header line, then a line per row of each other document.
std::string comparison_csv(const ComparisonReport& report);

// The refusals, through diag.
void document_unreadable(const Diag& diag, std::string_view name, int err, bool opening);
void document_problem(const Diag& diag, std::string_view name, const DocumentProblem& problem);
void document_incomplete(const Diag& diag, std::string_view name);
void documents_differ(const Diag& diag, std::string_view baseline, std::string_view other, const Matching& matching,
                      bool one_row);
void no_common_rows(const Diag& diag, std::string_view baseline, std::string_view other);
// --json=PATH or --csv=PATH (option) names one of the documents.
void report_is_document(const Diag& diag, std::string_view option, std::string_view name);

}  // namespace ddtime
