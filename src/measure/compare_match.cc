// SPDX-License-Identifier: GPL-3.0-or-later
// Part of compare_documents: pairing rows by key, the first operand that
// differs between a pair, and the environment's leaves that differ.
#include <algorithm>
#include <string>

#include "measure/compare_documents.h"

namespace ddtime {
namespace {

const DocumentRow* find_row(const Document& document, const RowKey& key) {
  for (const DocumentRow& row : document.rows) {
    if (row.key == key) return &row;
  }
  return nullptr;
}

std::optional<std::string> value_of(const std::vector<Leaf>& leaves, const std::string& path) {
  for (const Leaf& leaf : leaves) {
    if (leaf.path == path) return leaf.value;
  }
  return std::nullopt;
}

std::string part_text(const KeyPart& part) { return part.number ? std::to_string(*part.number) : part.text; }

// Two rows paired whatever their keys: the first part of the key that
// differs (--iodepth is no operand), else the first operand.
std::optional<OperandDifference> first_difference(const DocumentRow& baseline, const DocumentRow& other) {
  for (std::size_t i = 0; i < std::min(baseline.key.size(), other.key.size()); ++i) {
    if (baseline.key[i] != other.key[i]) {
      return OperandDifference{baseline.key, baseline.key[i].name, part_text(baseline.key[i]), part_text(other.key[i])};
    }
  }
  // A row without a counted run has no operands to hold against another.
  if (baseline.operands.empty() || other.operands.empty()) return std::nullopt;
  for (const Leaf& leaf : baseline.operands) {
    const std::optional<std::string> theirs = value_of(other.operands, leaf.path);
    if (theirs != leaf.value) return OperandDifference{baseline.key, leaf.path, leaf.value, theirs};
  }
  for (const Leaf& leaf : other.operands) {
    if (!value_of(baseline.operands, leaf.path)) {
      return OperandDifference{baseline.key, leaf.path, std::nullopt, leaf.value};
    }
  }
  return std::nullopt;
}

}  // namespace

Matching match_rows(const Document& baseline, const Document& other) {
  Matching matching;
  for (const DocumentRow& row : baseline.rows) {
    if (const DocumentRow* theirs = find_row(other, row.key)) {
      matching.pairs.push_back({&row, theirs});
    } else {
      matching.only_baseline.push_back(row.key);
    }
  }
  for (const DocumentRow& row : other.rows) {
    if (!find_row(baseline, row.key)) matching.only_other.push_back(row.key);
  }
  if (matching.pairs.empty() && baseline.rows.size() == 1 && other.rows.size() == 1) {
    matching.pairs.push_back({&baseline.rows.front(), &other.rows.front()});
    matching.only_baseline.clear();
    matching.only_other.clear();
  }
  for (const RowPair& pair : matching.pairs) {
    matching.difference = first_difference(*pair.baseline, *pair.other);
    if (matching.difference) break;
  }
  return matching;
}

std::vector<EnvironmentDifference> environment_differences(std::span<const Document> documents) {
  const auto recorded = std::count_if(documents.begin(), documents.end(),
                                      [](const Document& document) { return document.environment.has_value(); });
  if (recorded < 2) return {};
  std::vector<std::string> paths;
  for (const Document& document : documents) {
    if (!document.environment) continue;
    for (const Leaf& leaf : *document.environment) {
      if (std::find(paths.begin(), paths.end(), leaf.path) == paths.end()) paths.push_back(leaf.path);
    }
  }
  std::vector<EnvironmentDifference> differences;
  for (const std::string& path : paths) {
    EnvironmentDifference difference{path, {}};
    bool differs = false;
    std::optional<std::size_t> first;  // the first document that recorded one
    for (const Document& document : documents) {
      difference.values.push_back(document.environment ? value_of(*document.environment, path) : std::nullopt);
      if (!document.environment) continue;
      if (!first) {
        first = difference.values.size() - 1;
      } else if (difference.values[*first] != difference.values.back()) {
        differs = true;
      }
    }
    if (differs) differences.push_back(std::move(difference));
  }
  return differences;
}

}  // namespace ddtime
