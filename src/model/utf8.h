// SPDX-License-Identifier: GPL-3.0-or-later
// utf8 — what counts as a valid UTF-8 sequence (RFC 3629), decided in one
// place for JSON's escaping and diag's quoting. It only reads bytes: what to
// do with an invalid one is the caller's choice.
#pragma once

#include <cstddef>
#include <string_view>

namespace ddtime {

struct Utf8Sequence {
  std::size_t length = 0;  // 2 to 4, or 0: no valid multi-byte sequence
  char32_t code_point = 0;
};

// The multi-byte UTF-8 sequence at the start of text: its length and code
// point, or {0, 0} when text does not start with one: empty text, an ASCII
// byte (callers handle those first), a stray continuation byte, a lead byte
// that is never valid (C0, C1, F5-FF), an overlong form, a UTF-16 surrogate
// (U+D800-U+DFFF), a code point above U+10FFFF, or a sequence cut short by
// the end of text or by a byte that is not a continuation byte.
constexpr Utf8Sequence decode_utf8(std::string_view text) noexcept {
  if (text.empty()) return {};
  const auto lead = static_cast<unsigned char>(text[0]);
  std::size_t length = 0;
  char32_t code_point = 0;
  char32_t smallest = 0;  // below it, the form is overlong
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    code_point = lead & 0x1fu;
    smallest = 0x80;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    code_point = lead & 0x0fu;
    smallest = 0x800;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    code_point = lead & 0x07u;
    smallest = 0x10000;
  } else {
    return {};
  }
  if (text.size() < length) return {};
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte & 0xc0u) != 0x80u) return {};
    code_point = (code_point << 6) | (byte & 0x3fu);
  }
  if (code_point < smallest || code_point > 0x10ffff || (code_point >= 0xd800 && code_point <= 0xdfff)) return {};
  return {length, code_point};
}

// Whether all of text is valid UTF-8 (ASCII included).
constexpr bool valid_utf8(std::string_view text) noexcept {
  std::size_t i = 0;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = decode_utf8(text.substr(i)).length;
    if (length == 0) return false;
    i += length;
  }
  return true;
}

}  // namespace ddtime
