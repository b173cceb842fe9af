// SPDX-License-Identifier: GPL-3.0-or-later
// json — a strict JSON reader (RFC 8259) for checking ddtime's --json
// output in the unit and end-to-end tests, on nlohmann's parser. It parses
// one value and keeps what a test needs to look at: object members in the
// order written, numbers as their literal text. Anything RFC 8259 rejects
// is an error, and so are duplicate keys and invalid UTF-8, so a test
// passing means the output is clean JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddtime::support {

// Thrown for malformed text (with the byte offset in the message) and for
// asking a value for something it is not.
class JsonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Json {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }

  bool boolean() const;
  // The number as a double.
  double number() const;
  // The number, which must be written as an integer (no fraction or exponent).
  std::int64_t integer() const;
  // A number's literal exactly as written ("0.081300000").
  const std::string& literal() const;
  // A string's value, decoded to UTF-8.
  const std::string& string() const;

  // Arrays.
  std::size_t size() const;
  const Json& operator[](std::size_t index) const;
  // An array of strings as strings.
  std::vector<std::string> strings() const;

  // Objects: the member named `key`, which must exist.
  const Json& operator[](std::string_view key) const;
  bool has(std::string_view key) const;
  // Member names in the order written.
  std::vector<std::string> keys() const;

 private:
  friend class JsonParser;
  Kind kind_ = Kind::kNull;
  bool boolean_ = false;
  std::string text_;  // kString: the value; kNumber: the literal
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

// Exactly one JSON value, optionally surrounded by whitespace.
Json parse_json(std::string_view text);

}  // namespace ddtime::support
