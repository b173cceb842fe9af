// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a document: nlohmann::json parses, this file knows ddtime's
// schema. One function per document kind turns it into rows, so that a new
// kind is one more function and one more branch in read_kind.
#include "measure/compare_documents.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

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

// A rate that is no rate: negative, or too large for a double (1e999
// reads as infinity), thrown like Malformed and said apart.
struct BadRate {
  std::string path;
  std::string value;  // as written
};

// A rate: a number of 0 or more, or null where nothing was measured.
std::optional<double> rate_at(const Json& object, std::string_view key, std::string_view path) {
  const Json& value = need(object, key, path);
  if (value.is_null()) return std::nullopt;
  if (!value.is_number()) throw Malformed{child(path, key)};
  const double rate = value.get<double>();
  if (!std::isfinite(rate) || rate < 0) throw BadRate{child(path, key), value.dump()};
  return rate;
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

// A run of 0 B/s is kept: compare_rates counts it apart and says so.
void add_rate(DocumentRow& row, std::optional<double> rate) {
  if (rate) row.rates.push_back(*rate);
}

// A session: its summary rows, keyed (pass, bs, iodepth), each holding the
// rates of its counted runs (never a warm-up or a failed run). An
// interrupted session has no summary: its runs name the rows.
RowKey session_key(const Json& row, std::string_view path) {
  return {{"pass", string_at(row, "pass", path), std::nullopt},
          {"bs", "", integer_at(row, "bs", path)},
          {"iodepth", "", integer_at(row, "iodepth", path)}};
}

// A session's runs as they are parsed: each run object, once complete, is
// reduced to what --compare reads (its key, its rate, and the operands of
// the first counted run of each key) and dropped from the tree, so that a
// document of 100,000 runs costs a few bytes a run, not its whole tree.
struct SessionRuns {
  struct Counted {
    std::size_t key = 0;  // in keys
    std::optional<double> rate;
  };
  std::vector<RowKey> keys;
  std::vector<std::vector<Leaf>> operands;  // per key
  std::vector<Counted> runs;
  std::size_t seen = 0;  // runs parsed, counted or not: the index in paths
  // The first problem, kept until the document is known to be ddtime's.
  std::optional<Malformed> malformed;
  std::optional<BadRate> bad_rate;

  void take(const Json& run) {
    const std::string path = item("runs", seen++);
    if (malformed || bad_rate) return;
    try {
      if (!flag_at(run, "counted", path, false) || flag_at(run, "warmup", path, false)) return;
      RowKey key = session_key(run, path);
      auto found = std::find(keys.begin(), keys.end(), key);
      if (found == keys.end()) {
        keys.push_back(std::move(key));
        operands.push_back(operand_leaves(run, path));
        found = keys.end() - 1;
      }
      runs.push_back({static_cast<std::size_t>(found - keys.begin()),
                      rate_at(need(run, "rates", path), "bytes_per_second", child(path, "rates"))});
    } catch (const Malformed& problem) {
      malformed = problem;
    } catch (const BadRate& problem) {
      bad_rate = problem;
    }
  }
};

void read_session(const Json& json, const SessionRuns& runs, Document& document) {
  document.kind = DocumentKind::kSession;
  if (json.contains("summary")) {
    const Json& summary = need_array(json, "summary", "");
    for (std::size_t i = 0; i < summary.size(); ++i) row_for(document, session_key(summary[i], item("summary", i)));
  }
  need_array(json, "runs", "");
  if (runs.malformed) throw *runs.malformed;
  if (runs.bad_rate) throw *runs.bad_rate;
  for (const SessionRuns::Counted& run : runs.runs) {
    DocumentRow& row = row_for(document, runs.keys[run.key]);
    if (row.operands.empty()) row.operands = runs.operands[run.key];
    add_rate(row, run.rate);
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

// What a profile's "profile" object holds about how often and how far
// apart it measured, not what: more runs to reach significance, warm-ups
// or pauses compare freely.
bool how_often(std::string_view path) { return path == "repeat" || path == "warmup" || path == "pause_s"; }

// A profile: rows keyed by test and side ("SEQ1M Q8T1", "read"), each with
// its runs' rates; what the profile measured (its size, time, direct,
// cache, pattern...) is every row's operands.
void read_profile(const Json& json, Document& document) {
  document.kind = DocumentKind::kProfile;
  std::vector<Leaf> settings;
  flatten(need(json, "profile", ""), "", settings);
  std::erase_if(settings, [](const Leaf& leaf) { return how_often(leaf.path); });
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

std::optional<DocumentProblem> read_kind(const Json& json, const SessionRuns& runs, Document& document) {
  document.complete = flag_at(json, "complete", "", true);
  if (const auto environment = json.find("environment"); environment != json.end()) {
    if (!environment->is_object()) throw Malformed{"environment"};
    flatten(*environment, "", document.environment.emplace());
  }
  if (json.contains("profile")) {
    read_profile(json, document);
  } else if (json.contains("runs")) {
    read_session(json, runs, document);
  } else if (json.contains("operands")) {
    read_run(json, document);
  } else {
    return DocumentProblem{DocumentProblem::Kind::kUnknownKind, 0, 0, {}};
  }
  return std::nullopt;
}

// nlohmann reports the bytes read up to the error (1-based); the line and
// column are counted here from the text, the column in bytes.
DocumentProblem syntax_problem(std::string_view text, std::size_t byte, std::string_view what) {
  const std::size_t at = std::min(byte > 0 ? byte - 1 : 0, text.size());
  const std::string_view before = text.substr(0, at);
  const std::size_t line_start = before.rfind('\n');
  DocumentProblem problem;
  problem.line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  problem.column = at - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
  // "[json.exception.parse_error.101] parse error at line 1, column 9:
  // syntax error while parsing object - unexpected end of input; expected
  // string literal": what follows the place.
  const std::size_t place = what.find("parse error");
  const std::size_t colon = place == std::string_view::npos ? place : what.find(": ", place);
  problem.detail = std::string(colon == std::string_view::npos ? what : what.substr(colon + 2));
  return problem;
}

// The document's tree built from nlohmann's SAX events, but for a
// session's runs: each run (an object in the top-level "runs" array) is
// built with only the members --compare reads, handed to SessionRuns once
// complete, and dropped. A document of 100,000 runs (90 MB) then costs its
// text and a few bytes a run, where its whole tree would take gigabytes.
class DocumentBuilder {
 public:
  static constexpr std::size_t kDeepest = 64;
  explicit DocumentBuilder(SessionRuns& runs) : runs_(runs) {}

  Json root;
  // The parse error, if any: the byte after which it was found, and
  // nlohmann's words; overflow: a number too large for a double (406).
  std::optional<std::pair<std::size_t, std::string>> error;
  bool overflow = false;
  std::string overflow_token;
  bool too_deep = false;

  // A value skipped is never built: most of a run's bytes cost only the
  // lexing.
  bool null() { return skipped() || put(Json(nullptr)); }
  bool boolean(bool value) { return skipped() || put(Json(value)); }
  bool number_integer(Json::number_integer_t value) { return skipped() || put(Json(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return skipped() || put(Json(value)); }
  bool number_float(Json::number_float_t value, const std::string&) { return skipped() || put(Json(value)); }
  bool string(std::string& value) { return skipped() || put(Json(std::move(value))); }
  bool binary(Json::binary_t&) { return skipped() || put(Json(nullptr)); }  // JSON text has none
  bool start_object(std::size_t) { return open(Json::object()); }
  bool start_array(std::size_t) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(std::string& name) {
    if (skipping_ > 0) return true;
    if (stack_.size() == 1) in_runs_ = name == "runs";
    // In a run: what --compare does not read is not built.
    if (in_run()) skip_next_ = !read_in_a_run(name);
    key_ = std::move(name);
    return true;
  }
  bool parse_error(std::size_t position, const std::string& token, const Json::exception& problem) {
    if (problem.id == 406) {
      overflow = true;
      overflow_token = token;
    } else {
      error.emplace(position, problem.what());
    }
    return false;
  }

 private:
  static bool read_in_a_run(std::string_view name) {
    return name == "counted" || name == "warmup" || name == "pass" || name == "bs" || name == "iodepth" ||
           name == "operands" || name == "rates";
  }
  // The innermost container open is a run of the top-level "runs" array.
  bool in_run() const { return in_runs_ && stack_.size() == 3 && stack_[1]->is_array() && stack_[2]->is_object(); }

  // Whether the next scalar is skipped (and, if it was the one a skipped
  // member named, that the skip is spent).
  bool skipped() {
    if (skipping_ > 0) return true;
    if (!skip_next_) return false;
    skip_next_ = false;
    return true;
  }
  // Where the next value goes, or null when it is skipped.
  Json* place(Json&& value) {
    if (skip_next_) {
      skip_next_ = false;
      return nullptr;
    }
    if (stack_.empty()) {
      root = std::move(value);
      return &root;
    }
    Json& container = *stack_.back();
    if (container.is_array()) {
      container.push_back(std::move(value));
      return &container.back();
    }
    Json& member = container[key_];
    member = std::move(value);
    return &member;
  }
  bool put(Json&& value) {
    if (skipping_ == 0) place(std::move(value));
    return true;
  }
  bool open(Json&& container) {
    // ddtime nests six levels at most; a tree thousands deep would take
    // the stack with it when flattened.
    if (stack_.size() + static_cast<std::size_t>(skipping_) >= kDeepest) {
      too_deep = true;
      return false;
    }
    if (skipping_ > 0) {
      ++skipping_;
      return true;
    }
    Json* placed = place(std::move(container));
    if (placed == nullptr) {
      skipping_ = 1;
    } else {
      stack_.push_back(placed);
    }
    return true;
  }
  bool close() {
    if (skipping_ > 0) {
      --skipping_;
      return true;
    }
    const bool run = in_run();
    stack_.pop_back();
    if (run) {
      runs_.take(stack_.back()->back());
      stack_.back()->erase(stack_.back()->size() - 1);
    }
    return true;
  }

  SessionRuns& runs_;
  std::vector<Json*> stack_;  // the containers open, outermost first
  std::string key_;           // the member the next value is
  bool in_runs_ = false;      // the top-level member open is "runs"
  bool skip_next_ = false;    // the next value is not built
  int skipping_ = 0;          // containers open inside a skipped value
};

}  // namespace

std::variant<Document, DocumentProblem> read_document(std::string_view text) {
  SessionRuns runs;
  DocumentBuilder builder(runs);
  Json::sax_parse(text.begin(), text.end(), &builder);
  if (builder.too_deep) return DocumentProblem{DocumentProblem::Kind::kTooDeep, 0, 0, {}};
  if (builder.error) return syntax_problem(text, builder.error->first, builder.error->second);
  if (builder.overflow) return DocumentProblem{DocumentProblem::Kind::kBadRate, 0, 0, {}, builder.overflow_token};
  const Json& json = builder.root;
  const bool ours = json.is_object() && json.contains("tool") && json["tool"] == "ddtime";
  if (!ours) return DocumentProblem{DocumentProblem::Kind::kNotDdtime, 0, 0, {}};
  if (const auto refused = json.find("refused"); refused != json.end() && *refused == true) {
    return DocumentProblem{DocumentProblem::Kind::kRefusal, 0, 0, {}};
  }
  Document document;
  try {
    if (auto problem = read_kind(json, runs, document)) return *problem;
  } catch (const Malformed& malformed) {
    return DocumentProblem{DocumentProblem::Kind::kMalformed, 0, 0, malformed.path};
  } catch (const BadRate& bad) {
    return DocumentProblem{DocumentProblem::Kind::kBadRate, 0, 0, bad.path, bad.value};
  }
  return document;
}

}  // namespace ddtime
