// SPDX-License-Identifier: GPL-3.0-or-later
// compare_documents — ddtime's JSON documents as --compare reads them: a
// run, a session or a profile turned into rows, each with the key that
// names its measurement, the rates of its counted runs and the operands it
// ran with; the environment flattened into leaves; and the matching of a
// document's rows against the baseline's. Text in, values out (problems
// included): the file is read by the caller, the words are report_compare's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ddtime {

// One part of a row's key: ("pass", "copy"), ("bs", 1048576),
// ("iodepth", 4); a profile's ("test", "SEQ1M Q8T1"), ("side", "read").
struct KeyPart {
  std::string name;
  std::string text;                    // a word
  std::optional<std::int64_t> number;  // or a number
  bool operator==(const KeyPart&) const = default;
};
using RowKey = std::vector<KeyPart>;

// A value at a path in a JSON object, as text: "files.output.device.model"
// = "Samsung SSD 990 PRO 2TB". Arrays of plain values are one leaf, their
// items joined by spaces (command_line).
struct Leaf {
  std::string path;
  std::string value;
};

struct DocumentRow {
  RowKey key;
  std::vector<double> rates;   // bytes per second of its counted runs, 0 or more
  std::vector<Leaf> operands;  // what it ran with (a profile: its "profile")
};

enum class DocumentKind { kRun, kSession, kProfile };

struct Document {
  DocumentKind kind = DocumentKind::kRun;
  bool complete = true;  // "complete": false: a signal cut it short
  std::vector<DocumentRow> rows;
  std::optional<std::vector<Leaf>> environment;  // absent: not recorded
};

// Why a text is no document --compare can use.
struct DocumentProblem {
  enum class Kind {
    kSyntax,       // not JSON (or cut short): at line and column, detail says what was expected
    kNotDdtime,    // no "tool": "ddtime"
    kRefusal,      // the document of a refused command: nothing was measured
    kUnknownKind,  // ddtime's, but neither a run, a session nor a profile
    kMalformed,    // detail: the member that is missing or of the wrong type ("runs[2].bs")
    kTooDeep,      // containers nested 64 deep: no document ddtime writes
    kBadRate,      // detail: a rate's member; value: what it holds (negative, or too large for a double);
                   // detail empty: value is a number too large for a double, wherever it is
  };
  Kind kind = Kind::kSyntax;
  std::size_t line = 0;    // kSyntax, 1-based
  std::size_t column = 0;  // kSyntax, 1-based, in bytes
  std::string detail;
  std::string value;  // kBadRate
};

std::variant<Document, DocumentProblem> read_document(std::string_view text);

// Row matching: the other document's rows paired with the baseline's by
// key, in the baseline's order. Two documents of one row each are paired
// whatever their keys, so that what differs is said as operands
// ("bs=1M" against "bs=4k") rather than as rows.
struct RowPair {
  const DocumentRow* baseline = nullptr;
  const DocumentRow* other = nullptr;
};
struct OperandDifference {
  RowKey row;  // the baseline row's key
  std::string path;
  std::optional<std::string> baseline_value;  // absent: not there
  std::optional<std::string> other_value;
};
struct Matching {
  std::vector<RowPair> pairs;
  std::vector<RowKey> only_baseline;  // keys no row of the other has
  std::vector<RowKey> only_other;
  std::optional<OperandDifference> difference;  // the first, in the pairs' order
  // Whether the documents measured the same things: the same rows, run
  // with the same operands.
  bool same() const { return only_baseline.empty() && only_other.empty() && !difference; }
};
Matching match_rows(const Document& baseline, const Document& other);

// The environment's leaves that are not the same in every document that
// recorded one: each document's value, in the documents' order (absent:
// the document lacks the leaf or recorded no environment).
struct EnvironmentDifference {
  std::string path;
  std::vector<std::optional<std::string>> values;
};
std::vector<EnvironmentDifference> environment_differences(std::span<const Document> documents);

}  // namespace ddtime
