// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/json.h"

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

#include "model/utf8.h"

namespace ddtime::json {

Object Writer::object() {
  assert(depth_ == 0 && out_.size() == 0 && "a document holds one value");
  open('{');
  return Object(*this);
}

Array Writer::array() {
  assert(depth_ == 0 && out_.size() == 0 && "a document holds one value");
  open('[');
  return Array(*this);
}

void Writer::string(std::string_view text) {
  assert(depth_ == 0 && out_.size() == 0 && "a document holds one value");
  put_string(text);
}

void Writer::item(int depth, bool& first) {
  assert(depth == depth_ && "writing to a container with another open inside it");
  (void)depth;
  if (!first) out_.push_back(',');
  first = false;
}

void Writer::member(int depth, bool& first, std::string_view key) {
  item(depth, first);
  put_string(key);
  out_.push_back(':');
}

void Writer::close(int depth, char bracket) noexcept {
  assert(depth == depth_ && "closing a container with another open inside it");
  (void)depth;
  --depth_;
  try {
    out_.push_back(bracket);
  } catch (const std::bad_alloc&) {
    out_of_memory_ = true;
  }
}

std::string Writer::text() const {
  if (out_of_memory_) throw std::bad_alloc();
  return std::string(out_.data(), out_.size());
}

void Writer::put_string(std::string_view text) {
  const auto escape_byte = [&](unsigned char byte) { fmt::format_to(std::back_inserter(out_), "\\u{:04x}", byte); };
  out_.push_back('"');
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '"' || byte == '\\') {
      out_.push_back('\\');
      out_.push_back(static_cast<char>(byte));
      ++i;
    } else if (byte < 0x20 || byte == 0x7f) {
      escape_byte(byte);
      ++i;
    } else if (byte < 0x80) {
      out_.push_back(static_cast<char>(byte));
      ++i;
    } else if (const Utf8Sequence sequence = decode_utf8(text.substr(i)); sequence.length > 0) {
      if (moves_text(sequence.code_point)) {
        fmt::format_to(std::back_inserter(out_), "\\u{:04x}", static_cast<std::uint32_t>(sequence.code_point));
      } else {
        put_raw(text.substr(i, sequence.length));
      }
      i += sequence.length;
    } else {
      // A byte that is no part of valid UTF-8 has no character to stand
      // for: U+FFFD says so, where its Latin-1 reading would name another
      // file. report_json gives such a file name's bytes in hex too.
      put_raw("\\ufffd");
      ++i;
    }
  }
  out_.push_back('"');
}

// fmt's shortest form (Dragonbox), not std::to_chars: libstdc++'s
// floating_to_chars.o names fegetround and fesetround, which would make
// ddtime load libm.so.6 at every start for a function it never calls.
std::string shortest(double value) {
  if (!std::isfinite(value)) return "null";
  return fmt::format("{}", value);
}

void Writer::put_decimal(const Decimal& value) {
  if (value.real) {
    put_raw(shortest(*value.real));
    return;
  }
  DecimalUnits scale = 1;
  int decimals = value.decimals;
  DecimalUnits units = value.units;
  // The fraction's trailing zeros say nothing: 0.081300000 is 0.0813.
  while (decimals > 0 && units % 10 == 0) {
    units /= 10;
    --decimals;
  }
  for (int i = 0; i < decimals; ++i) scale *= 10;
  if (value.negative && units != 0) out_.push_back('-');
  fmt::format_to(std::back_inserter(out_), "{}", units / scale);
  if (decimals > 0) fmt::format_to(std::back_inserter(out_), ".{:0>{}}", units % scale, decimals);
}

Object Object::object(std::string_view key) {
  writer_->member(depth_, first_, key);
  writer_->open('{');
  return Object(*writer_);
}

Array Object::array(std::string_view key) {
  writer_->member(depth_, first_, key);
  writer_->open('[');
  return Array(*writer_);
}

Object Array::object() {
  writer_->item(depth_, first_);
  writer_->open('{');
  return Object(*writer_);
}

Array Array::array() {
  writer_->item(depth_, first_);
  writer_->open('[');
  return Array(*writer_);
}

}  // namespace ddtime::json
