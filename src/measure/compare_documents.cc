// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a document: nlohmann::json parses, this file knows ddtime's
// schema. One function per document kind turns it into rows, so that a new
// kind is one more function and one more branch in read_kind.
#include "measure/compare_documents.h"

#include <algorithm>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace ddtime {
namespace {

// Ordered: the environment's leaves are listed in the order written.
using Json = nlohmann::ordered_json;

// A member missing or of the wrong type, thrown inside this file only and
// caught by read_document: its path becomes a kMalformed problem.
struct Malformed {
  std::string path;
};

std::string child(std::string_view path, std::string_view key) {
  std::string joined(path);
  if (!joined.empty()) joined += '.';
  joined += key;
  return joined;
}

std::string item(std::string_view path, std::size_t index) {
  return std::string(path) + "[" + std::to_string(index) + "]";
}

const Json& need(const Json& object, std::string_view key, std::string_view path) {
  if (!object.is_object()) throw Malformed{std::string(path.empty() ? "the document" : path)};
  const auto found = object.find(key);
  if (found == object.end()) throw Malformed{child(path, key)};
  return *found;
}

const Json& need_array(const Json& object, std::string_view key, std::string_view path) {
  const Json& value = need(object, key, path);
  if (!value.is_array()) throw Malformed{child(path, key)};
  return value;
}

std::int64_t integer_at(const Json& object, std::string_view key, std::string_view path) {
  const Json& value = need(object, key, path);
  if (!value.is_number_integer()) throw Malformed{child(path, key)};
  return value.get<std::int64_t>();
}

std::string string_at(const Json& object, std::string_view key, std::string_view path) {
  const Json& value = need(object, key, path);
  if (!value.is_string()) throw Malformed{child(path, key)};
  return value.get<std::string>();
}

// A boolean member that may be left out.
bool flag_at(const Json& object, std::string_view key, std::string_view path, bool absent) {
  const auto found = object.find(key);
  if (found == object.end()) return absent;
  if (!found->is_boolean()) throw Malformed{child(path, key)};
  return found->get<bool>();
}

// A rate: a number, or null where nothing was measured.
std::optional<double> rate_at(const Json& object, std::string_view key, std::string_view path) {
  const Json& value = need(object, key, path);
  if (value.is_null()) return std::nullopt;
  if (!value.is_number()) throw Malformed{child(path, key)};
  return value.get<double>();
}

std::string scalar_text(const Json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

void flatten(const Json& value, const std::string& path, std::vector<Leaf>& leaves) {
  if (value.is_object()) {
    for (const auto& [key, inner] : value.items()) flatten(inner, child(path, key), leaves);
    return;
  }
  const bool plain_array =
      value.is_array() && std::none_of(value.begin(), value.end(), [](const Json& x) { return x.is_structured(); });
  if (plain_array) {
    std::string joined;
    for (const Json& x : value) joined += (joined.empty() ? "" : " ") + scalar_text(x);
    leaves.push_back({path, joined});
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) flatten(value[i], item(path, i), leaves);
  } else {
    leaves.push_back({path, scalar_text(value)});
  }
}

// A run's dd operands as leaves; ibs and obs as one "bs" when equal, as
// the command line most likely said it.
std::vector<Leaf> operand_leaves(const Json& run, std::string_view path) {
  std::vector<Leaf> leaves;
  flatten(need(run, "operands", path), "", leaves);
  const auto named = [&](std::string_view name) {
    return std::find_if(leaves.begin(), leaves.end(), [&](const Leaf& leaf) { return leaf.path == name; });
  };
  const auto ibs = named("ibs");
  const auto obs = named("obs");
  if (ibs != leaves.end() && obs != leaves.end() && ibs->value == obs->value) {
    ibs->path = "bs";
    leaves.erase(named("obs"));
  }
  return leaves;
}

DocumentRow& row_for(Document& document, RowKey key) {
  for (DocumentRow& row : document.rows) {
    if (row.key == key) return row;
  }
  document.rows.push_back({std::move(key), {}, {}});
  return document.rows.back();
}

void add_rate(DocumentRow& row, std::optional<double> rate) {
  if (rate && *rate > 0) row.rates.push_back(*rate);
}

// A session: its summary rows, keyed (pass, bs, iodepth), each holding the
// rates of its counted runs (never a warm-up or a failed run). An
// interrupted session has no summary: its runs name the rows.
RowKey session_key(const Json& row, std::string_view path) {
  return {{"pass", string_at(row, "pass", path), std::nullopt},
          {"bs", "", integer_at(row, "bs", path)},
          {"iodepth", "", integer_at(row, "iodepth", path)}};
}

void read_session(const Json& json, Document& document) {
  document.kind = DocumentKind::kSession;
  if (json.contains("summary")) {
    const Json& summary = need_array(json, "summary", "");
    for (std::size_t i = 0; i < summary.size(); ++i) row_for(document, session_key(summary[i], item("summary", i)));
  }
  const Json& runs = need_array(json, "runs", "");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string path = item("runs", i);
    if (!flag_at(runs[i], "counted", path, false) || flag_at(runs[i], "warmup", path, false)) continue;
    DocumentRow& row = row_for(document, session_key(runs[i], path));
    if (row.operands.empty()) row.operands = operand_leaves(runs[i], path);
    add_rate(row, rate_at(need(runs[i], "rates", path), "bytes_per_second", child(path, "rates")));
  }
}

// A single run: one row, keyed as a session's would be, with its one rate
// when it ran to its end without an error.
void read_run(const Json& json, Document& document) {
  document.kind = DocumentKind::kRun;
  const std::int64_t bs = integer_at(need(json, "operands", ""), "ibs", "operands");
  const std::int64_t depth = json.contains("engine") ? integer_at(json["engine"], "depth", "engine") : 1;
  DocumentRow& row = row_for(document, {{"pass", "copy", std::nullopt}, {"bs", "", bs}, {"iodepth", "", depth}});
  row.operands = operand_leaves(json, "");
  const Json& status = need(json, "exit_status", "");
  if (!status.is_null() && !status.is_number_integer()) throw Malformed{"exit_status"};
  const std::optional<double> rate = rate_at(need(json, "rates", ""), "bytes_per_second", "rates");
  if (document.complete && status == 0) add_rate(row, rate);
}

// A profile: rows keyed by test and side ("SEQ1M Q8T1", "read"), each with
// its runs' rates; what the profile ran with is every row's operands.
void read_profile(const Json& json, Document& document) {
  document.kind = DocumentKind::kProfile;
  std::vector<Leaf> settings;
  flatten(need(json, "profile", ""), "", settings);
  const Json& rows = need_array(json, "rows", "");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string path = item("rows", i);
    DocumentRow& row = row_for(document, {{"test", string_at(rows[i], "test", path), std::nullopt},
                                          {"side", string_at(rows[i], "side", path), std::nullopt}});
    row.operands = settings;
    const Json& runs = need_array(rows[i], "runs", path);
    for (std::size_t j = 0; j < runs.size(); ++j) {
      const std::string run_path = item(child(path, "runs"), j);
      if (!flag_at(runs[j], "counted", run_path, true) || flag_at(runs[j], "warmup", run_path, false)) continue;
      add_rate(row, rate_at(runs[j], "bytes_per_second", run_path));
    }
  }
}

std::optional<DocumentProblem> read_kind(const Json& json, Document& document) {
  document.complete = flag_at(json, "complete", "", true);
  if (const auto environment = json.find("environment"); environment != json.end()) {
    if (!environment->is_object()) throw Malformed{"environment"};
    flatten(*environment, "", document.environment.emplace());
  }
  if (json.contains("profile")) {
    read_profile(json, document);
  } else if (json.contains("runs")) {
    read_session(json, document);
  } else if (json.contains("operands")) {
    read_run(json, document);
  } else {
    return DocumentProblem{DocumentProblem::Kind::kUnknownKind, 0, 0, {}};
  }
  return std::nullopt;
}

// nlohmann reports the bytes read up to the error (1-based); the line and
// column are counted here from the text, the column in bytes.
DocumentProblem syntax_problem(std::string_view text, const Json::parse_error& error) {
  const std::size_t at = std::min(error.byte > 0 ? error.byte - 1 : 0, text.size());
  const std::string_view before = text.substr(0, at);
  const std::size_t line_start = before.rfind('\n');
  DocumentProblem problem;
  problem.line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  problem.column = at - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
  // "[json.exception.parse_error.101] parse error at line 1, column 9:
  // syntax error while parsing object - unexpected end of input; expected
  // string literal": what follows the place.
  const std::string_view what = error.what();
  const std::size_t place = what.find("parse error");
  const std::size_t colon = place == std::string_view::npos ? place : what.find(": ", place);
  problem.detail = std::string(colon == std::string_view::npos ? what : what.substr(colon + 2));
  return problem;
}

}  // namespace

std::variant<Document, DocumentProblem> read_document(std::string_view text) {
  Json json;
  try {
    json = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& error) {
    return syntax_problem(text, error);
  }
  const bool ours = json.is_object() && json.contains("tool") && json["tool"] == "ddtime";
  if (!ours) return DocumentProblem{DocumentProblem::Kind::kNotDdtime, 0, 0, {}};
  if (const auto refused = json.find("refused"); refused != json.end() && *refused == true) {
    return DocumentProblem{DocumentProblem::Kind::kRefusal, 0, 0, {}};
  }
  Document document;
  try {
    if (auto problem = read_kind(json, document)) return *problem;
  } catch (const Malformed& malformed) {
    return DocumentProblem{DocumentProblem::Kind::kMalformed, 0, 0, malformed.path};
  }
  return document;
}

}  // namespace ddtime
