// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/json.h"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>
#include <system_error>

namespace ddtime::support {

// nlohmann's parser reads the text (RFC 8259, strictly: no comments, no
// trailing commas, valid UTF-8 only, one value); its SAX interface builds
// the Json here, which keeps what a test looks at that nlohmann's own
// value does not: members in the order written, a float's literal as
// written (number_float's string), and a duplicate key as an error.
// Integers come as values: their literal is written back in decimal, which
// is the text for every integer but "-0".
class JsonParser final : public nlohmann::json_sax<nlohmann::json> {
 public:
  Json parse(std::string_view text) {
    nlohmann::json::sax_parse(text.begin(), text.end(), this);
    return std::move(root_);
  }

  bool null() override { return put(Json{}); }
  bool boolean(bool value) override {
    Json json;
    json.kind_ = Json::Kind::kBool;
    json.boolean_ = value;
    return put(std::move(json));
  }
  bool number_integer(number_integer_t value) override { return put(number(std::to_string(value))); }
  bool number_unsigned(number_unsigned_t value) override { return put(number(std::to_string(value))); }
  bool number_float(number_float_t, const string_t& literal) override { return put(number(literal)); }
  bool string(string_t& value) override {
    Json json;
    json.kind_ = Json::Kind::kString;
    json.text_ = std::move(value);
    return put(std::move(json));
  }
  bool binary(binary_t&) override { return false; }  // JSON text has none
  bool start_object(std::size_t) override { return open(Json::Kind::kObject); }
  bool key(string_t& name) override {
    for (const auto& member : open_.back()->members_) {
      if (member.first == name) throw JsonError(fmt::format("JSON: duplicate key \"{}\"", name));
    }
    key_ = std::move(name);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(Json::Kind::kArray); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& error) override {
    throw JsonError(fmt::format("JSON: {} at byte {}", error.what(), position));
  }

 private:
  static Json number(std::string literal) {
    Json json;
    json.kind_ = Json::Kind::kNumber;
    json.text_ = std::move(literal);
    return json;
  }

  // Into the open array or object, or as the document's value; the
  // address of where it went. The containers above an open one grow only
  // once it is closed, so the addresses kept in open_ stay valid.
  Json* place(Json value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& parent = *open_.back();
    if (parent.kind_ == Json::Kind::kArray) {
      parent.items_.push_back(std::move(value));
      return &parent.items_.back();
    }
    parent.members_.emplace_back(std::move(key_), std::move(value));
    return &parent.members_.back().second;
  }
  bool put(Json value) {
    place(std::move(value));
    return true;
  }
  bool open(Json::Kind kind) {
    Json json;
    json.kind_ = kind;
    open_.push_back(place(std::move(json)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  Json root_;
  std::vector<Json*> open_;
  std::string key_;
};

namespace {

const char* kind_name(Json::Kind kind) {
  switch (kind) {
    case Json::Kind::kNull:
      return "null";
    case Json::Kind::kBool:
      return "a boolean";
    case Json::Kind::kNumber:
      return "a number";
    case Json::Kind::kString:
      return "a string";
    case Json::Kind::kArray:
      return "an array";
    case Json::Kind::kObject:
      return "an object";
  }
  return "?";
}

void require(const Json& value, Json::Kind kind) {
  if (value.kind() != kind) {
    throw JsonError(fmt::format("JSON: wanted {}, found {}", kind_name(kind), kind_name(value.kind())));
  }
}

}  // namespace

bool Json::boolean() const {
  require(*this, Kind::kBool);
  return boolean_;
}

double Json::number() const {
  require(*this, Kind::kNumber);
  double value = 0;
  const auto [end, err] = std::from_chars(text_.data(), text_.data() + text_.size(), value);
  if (err != std::errc() || end != text_.data() + text_.size()) {
    throw JsonError("JSON: number out of range: " + text_);
  }
  return value;
}

std::int64_t Json::integer() const {
  require(*this, Kind::kNumber);
  std::int64_t value = 0;
  const auto [end, err] = std::from_chars(text_.data(), text_.data() + text_.size(), value);
  if (err != std::errc() || end != text_.data() + text_.size()) {
    throw JsonError("JSON: not a 64-bit integer: " + text_);
  }
  return value;
}

const std::string& Json::literal() const {
  require(*this, Kind::kNumber);
  return text_;
}

const std::string& Json::string() const {
  require(*this, Kind::kString);
  return text_;
}

std::size_t Json::size() const {
  require(*this, Kind::kArray);
  return items_.size();
}

const Json& Json::operator[](std::size_t index) const {
  require(*this, Kind::kArray);
  if (index >= items_.size()) throw JsonError(fmt::format("JSON: no item {}", index));
  return items_[index];
}

std::vector<std::string> Json::strings() const {
  require(*this, Kind::kArray);
  std::vector<std::string> out;
  for (const Json& item : items_) out.push_back(item.string());
  return out;
}

const Json& Json::operator[](std::string_view key) const {
  require(*this, Kind::kObject);
  for (const auto& member : members_) {
    if (member.first == key) return member.second;
  }
  throw JsonError(fmt::format("JSON: no member \"{}\"", key));
}

bool Json::has(std::string_view key) const {
  require(*this, Kind::kObject);
  for (const auto& member : members_) {
    if (member.first == key) return true;
  }
  return false;
}

std::vector<std::string> Json::keys() const {
  require(*this, Kind::kObject);
  std::vector<std::string> out;
  for (const auto& member : members_) out.push_back(member.first);
  return out;
}

Json parse_json(std::string_view text) { return JsonParser().parse(text); }

}  // namespace ddtime::support
