// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/json.h"

#include <charconv>
#include <system_error>

#include <fmt/format.h>

namespace ddtime::support {

// Recursive descent over the grammar of RFC 8259, section 2 onwards.
class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  Json parse_document() {
    skip_whitespace();
    Json value = parse_value(0);
    skip_whitespace();
    if (pos_ != text_.size()) fail("text after the value");
    return value;
  }

 private:
  // Deeper than anything ddtime writes; keeps a runaway input off the stack.
  static constexpr int kMaxDepth = 64;

  [[noreturn]] void fail(std::string_view what) const {
    throw JsonError(fmt::format("JSON: {} at byte {}", what, pos_));
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  void expect(char c) {
    if (peek() != c || at_end()) fail(fmt::format("expected '{}'", c));
    ++pos_;
  }

  void skip_whitespace() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
  }

  void expect_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail("unknown literal");
    pos_ += word.size();
  }

  Json parse_value(int depth) {
    if (depth > kMaxDepth) fail("nesting too deep");
    Json value;
    switch (peek()) {
      case '{':
        parse_object(value, depth);
        break;
      case '[':
        parse_array(value, depth);
        break;
      case '"':
        value.kind_ = Json::Kind::kString;
        value.text_ = parse_string();
        break;
      case 't':
        expect_word("true");
        value.kind_ = Json::Kind::kBool;
        value.boolean_ = true;
        break;
      case 'f':
        expect_word("false");
        value.kind_ = Json::Kind::kBool;
        break;
      case 'n':
        expect_word("null");
        break;
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) {
          value.kind_ = Json::Kind::kNumber;
          value.text_ = parse_number();
        } else {
          fail("expected a value");
        }
    }
    return value;
  }

  void parse_object(Json& value, int depth) {
    value.kind_ = Json::Kind::kObject;
    expect('{');
    skip_whitespace();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    while (true) {
      skip_whitespace();
      if (peek() != '"') fail("expected a member name");
      std::string key = parse_string();
      for (const auto& member : value.members_) {
        if (member.first == key) fail(fmt::format("duplicate key \"{}\"", key));
      }
      skip_whitespace();
      expect(':');
      skip_whitespace();
      Json member = parse_value(depth + 1);
      value.members_.emplace_back(std::move(key), std::move(member));
      skip_whitespace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      return;
    }
  }

  void parse_array(Json& value, int depth) {
    value.kind_ = Json::Kind::kArray;
    expect('[');
    skip_whitespace();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    while (true) {
      skip_whitespace();
      value.items_.push_back(parse_value(depth + 1));
      skip_whitespace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(']');
      return;
    }
  }

  void digits() {
    if (!(peek() >= '0' && peek() <= '9') || at_end()) fail("expected a digit");
    while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  std::string parse_number() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0' && !at_end()) {
      ++pos_;
    } else {
      digits();
    }
    if (peek() == '.' && !at_end()) {
      ++pos_;
      digits();
    }
    if ((peek() == 'e' || peek() == 'E') && !at_end()) {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      digits();
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  unsigned hex4() {
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = peek();
      unsigned digit;
      if (c >= '0' && c <= '9') {
        digit = static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<unsigned>(c - 'A' + 10);
      } else {
        fail("bad \\u escape");
      }
      ++pos_;
      value = value * 16 + digit;
    }
    return value;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  // One raw UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
  // nothing above U+10FFFF), copied as is.
  void copy_utf8(std::string& out) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text_[pos_ + i]); };
    const unsigned char lead = byte(0);
    std::size_t length;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      fail("invalid UTF-8");
    }
    if (text_.size() - pos_ < length || byte(1) < low || byte(1) > high) fail("invalid UTF-8");
    for (std::size_t i = 2; i < length; ++i) {
      if (byte(i) < 0x80 || byte(i) > 0xBF) fail("invalid UTF-8");
    }
    out.append(text_.substr(pos_, length));
    pos_ += length;
  }

  std::string parse_string() {
    expect('"');
    std::string out;
    while (true) {
      if (at_end()) fail("unterminated string");
      const auto c = static_cast<unsigned char>(peek());
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20) fail("control character in a string");
      if (c >= 0x80) {
        copy_utf8(out);
        continue;
      }
      ++pos_;
      if (c != '\\') {
        out.push_back(static_cast<char>(c));
        continue;
      }
      const char escape = peek();
      ++pos_;
      switch (escape) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          unsigned code = hex4();
          if (code >= 0xDC00 && code <= 0xDFFF) fail("lone low surrogate");
          if (code >= 0xD800 && code <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u") fail("lone high surrogate");
            pos_ += 2;
            const unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("bad surrogate pair");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, code);
          break;
        }
        default:
          --pos_;
          fail("bad escape");
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

namespace {

const char* kind_name(Json::Kind kind) {
  switch (kind) {
    case Json::Kind::kNull: return "null";
    case Json::Kind::kBool: return "a boolean";
    case Json::Kind::kNumber: return "a number";
    case Json::Kind::kString: return "a string";
    case Json::Kind::kArray: return "an array";
    case Json::Kind::kObject: return "an object";
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

Json parse_json(std::string_view text) { return JsonParser(text).parse_document(); }

}  // namespace ddtime::support
