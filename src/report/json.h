// SPDX-License-Identifier: GPL-3.0-or-later
// json — a small writer for one JSON document (RFC 8259), compact, in a
// memory buffer. It owns the syntax: quotes, escaping, UTF-8 checking,
// colons, commas and brackets, and numbers: every one in the shortest text
// that reads back as the same value, in any locale. What goes in it belongs
// to report_json.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <iterator>
#include <new>
#include <optional>
#include <string>
#include <string_view>

namespace ddtime::json {

// A number: either an exact decimal, as an integer count of its last
// digit ({1234, 3} is 1.234, {5, 9, true} is -0.000000005, {7, 0} is 7),
// written without the trailing zeros of its fraction (1.234, 0.0813, 7);
// or a double measured or computed (real), written in the shortest form
// that reads back as the same double (0.1, 4.1135e-05, 1.7e+300; null when
// not finite). Never fixed-point: a p of 1e-40 stays 1e-40, a rate of
// 1e300 stays 1e+300.
__extension__ using DecimalUnits = unsigned __int128;
struct Decimal {
  // {units, decimals[, negative]}, as an aggregate was written.
  constexpr Decimal(DecimalUnits units_ = 0, int decimals_ = 0, bool negative_ = false) noexcept
      : units(units_), decimals(decimals_), negative(negative_) {}
  DecimalUnits units;
  int decimals;
  bool negative;
  std::optional<double> real;  // set: this, not units
};

// Code points that move or hide text on a terminal: the C1 controls, the
// bidirectional marks, embeddings, overrides and isolates (U+202E turns
// what follows around), and the line and paragraph separators. Strings
// write them as \uXXXX, which reads back the same; report_compare escapes
// them in what it prints.
constexpr bool moves_text(char32_t c) {
  return (c >= 0x80 && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f || (c >= 0x2028 && c <= 0x202e) ||
         (c >= 0x2066 && c <= 0x2069);
}

// The shortest decimal text that reads back as value (std::to_chars,
// which no locale changes): "0.1", "1e-40", "123456789.5"; "null" when
// value is not finite, as JSON has no infinity.
std::string shortest(double value);

// A double as it is: the shortest text that reads back as it.
inline Decimal real(double value) {
  Decimal number;
  number.real = value;
  return number;
}

class Object;
class Array;

// Exact seconds from nanoseconds: 0.081300000, -1.000000000.
inline Decimal seconds(std::int64_t ns) {
  if (ns < 0) return {static_cast<DecimalUnits>(-(ns + 1)) + 1, 9, true};  // INT64_MIN too
  return {static_cast<DecimalUnits>(ns), 9};
}

// A non-negative figure (a negative one is 0), written as real() writes
// it. places is how many decimals it was once cut to (seconds: 9, rates:
// 3) and no longer limits it: fixed-point turned small p-values into 0 and
// overflowed on large values (issue 28, B5).
inline Decimal rounded(double value, [[maybe_unused]] int places) { return real(value <= 0 ? 0.0 : value); }

// One document: call one of the value functions once, then text().
//
//   json::Writer out;
//   {
//     json::Object run = out.object();
//     run.string("tool", "ddtime").integer("ibs", 512);
//     json::Array errors = run.array("errors");  // closed when it goes
//   }                                             // out of scope
//   out.text();  // {"tool":"ddtime","ibs":512,"errors":[]}
//
// Object and Array close themselves when destroyed. A container written to
// must be the innermost one open, which using them as scoped values gives
// (debug builds assert it).
//
// Every string, key or value, is quoted: '"' and '\\' get a backslash,
// control characters and DEL become \u00XX, the code points of
// moves_text \uXXXX, other valid UTF-8 passes through,
// and each byte that is not part of a valid UTF-8 sequence (utf8.h) becomes
// \ufffd, the replacement character. So the document is valid JSON
// whatever the bytes, and a name that is not UTF-8 reads back as plainly
// not what was given, never as another valid name.
class Writer {
 public:
  Writer() = default;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // The document's value.
  Object object();
  Array array();
  void string(std::string_view text);

  // The text written so far; the document once every container is closed.
  // Throws std::bad_alloc if closing a container ran out of memory (a
  // destructor cannot throw it).
  std::string text() const;

 private:
  friend class Object;
  friend class Array;

  // What starts an array's item: a comma unless it is the first.
  void item(int depth, bool& first);
  // What starts an object's member: a comma unless it is the first, the
  // key, a colon.
  void member(int depth, bool& first, std::string_view key);
  void open(char bracket) {
    out_.push_back(bracket);
    ++depth_;
  }
  // For the destructors of Object and Array: a failure is kept for text().
  void close(int depth, char bracket) noexcept;

  void put_string(std::string_view text);
  void put_integer(std::int64_t value) { fmt::format_to(std::back_inserter(out_), "{}", value); }
  void put_decimal(const Decimal& value);
  void put_boolean(bool value) { put_raw(value ? "true" : "false"); }
  void put_raw(std::string_view text) { out_.append(text.data(), text.data() + text.size()); }

  // A whole report is a few hundred bytes: the buffer's inline storage
  // (500 bytes) holds most of it, with at most one allocation after.
  fmt::memory_buffer out_;
  int depth_ = 0;  // containers open
  bool out_of_memory_ = false;
};

// The members of an object, each a key and a value, in the order written.
class Object {
 public:
  Object(Object&& other) noexcept : writer_(other.writer_), depth_(other.depth_), first_(other.first_) {
    other.writer_ = nullptr;
  }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  Object& operator=(Object&&) = delete;
  ~Object() {
    if (writer_ != nullptr) writer_->close(depth_, '}');
  }

  Object& string(std::string_view key, std::string_view value) {
    writer_->member(depth_, first_, key);
    writer_->put_string(value);
    return *this;
  }
  Object& integer(std::string_view key, std::int64_t value) {
    writer_->member(depth_, first_, key);
    writer_->put_integer(value);
    return *this;
  }
  Object& decimal(std::string_view key, const Decimal& value) {
    writer_->member(depth_, first_, key);
    writer_->put_decimal(value);
    return *this;
  }
  Object& boolean(std::string_view key, bool value) {
    writer_->member(depth_, first_, key);
    writer_->put_boolean(value);
    return *this;
  }
  Object& null(std::string_view key) {
    writer_->member(depth_, first_, key);
    writer_->put_raw("null");
    return *this;
  }
  Object object(std::string_view key);
  Array array(std::string_view key);

 private:
  friend class Writer;
  friend class Array;
  explicit Object(Writer& writer) noexcept : writer_(&writer), depth_(writer.depth_) {}

  Writer* writer_;
  int depth_;  // the writer's depth with this object open
  bool first_ = true;
};

// The items of an array, in the order written.
class Array {
 public:
  Array(Array&& other) noexcept : writer_(other.writer_), depth_(other.depth_), first_(other.first_) {
    other.writer_ = nullptr;
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  Array& operator=(Array&&) = delete;
  ~Array() {
    if (writer_ != nullptr) writer_->close(depth_, ']');
  }

  Array& string(std::string_view value) {
    writer_->item(depth_, first_);
    writer_->put_string(value);
    return *this;
  }
  Array& integer(std::int64_t value) {
    writer_->item(depth_, first_);
    writer_->put_integer(value);
    return *this;
  }
  Array& decimal(const Decimal& value) {
    writer_->item(depth_, first_);
    writer_->put_decimal(value);
    return *this;
  }
  Array& boolean(bool value) {
    writer_->item(depth_, first_);
    writer_->put_boolean(value);
    return *this;
  }
  Array& null() {
    writer_->item(depth_, first_);
    writer_->put_raw("null");
    return *this;
  }
  Object object();
  Array array();

 private:
  friend class Writer;
  friend class Object;
  explicit Array(Writer& writer) noexcept : writer_(&writer), depth_(writer.depth_) {}

  Writer* writer_;
  int depth_;
  bool first_ = true;
};

}  // namespace ddtime::json
