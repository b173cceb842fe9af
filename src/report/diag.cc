// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/diag.h"

#include <locale.h>
#include <string.h>
#include <wctype.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "model/utf8.h"

namespace ddtime {
namespace {

// One character of a value: a single byte, or a whole UTF-8 sequence when
// the text is read as UTF-8. Bytes that do not form a valid sequence come
// one at a time and are never printable.
struct Unit {
  std::string_view bytes;
  bool printable = false;
};

// Printability of code points follows the C library's UTF-8 tables, as GNU's
// quoting does; the C.UTF-8 locale is built into glibc.
bool code_point_printable(char32_t code_point) {
  static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
  if (utf8 != static_cast<locale_t>(nullptr)) {
    return iswprint_l(static_cast<wint_t>(code_point), utf8) != 0;
  }
  return code_point >= 0xa0 && code_point != 0x2028 && code_point != 0x2029;
}

Unit next_unit(std::string_view text, std::size_t at, bool utf8) {
  const auto byte = static_cast<unsigned char>(text[at]);
  if (byte < 0x80) return Unit{text.substr(at, 1), byte >= 0x20 && byte < 0x7f};
  if (utf8) {
    const auto [length, code_point] = decode_utf8(text.substr(at));
    if (length != 0) return Unit{text.substr(at, length), code_point_printable(code_point)};
  }
  return Unit{text.substr(at, 1), false};
}

// C-style escapes for the bytes of a non-printable unit: the named control
// characters, otherwise three octal digits per byte. NUL is "\0" unless a
// digit follows, where "\000" keeps it unambiguous.
void append_escaped(std::string& out, std::string_view bytes, std::string_view rest) {
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto byte = static_cast<unsigned char>(bytes[i]);
    out += '\\';
    switch (byte) {
      case '\a':
        out += 'a';
        continue;
      case '\b':
        out += 'b';
        continue;
      case '\f':
        out += 'f';
        continue;
      case '\n':
        out += 'n';
        continue;
      case '\r':
        out += 'r';
        continue;
      case '\t':
        out += 't';
        continue;
      case '\v':
        out += 'v';
        continue;
      case '\0': {
        const bool digit_follows = !rest.empty() && rest[0] >= '0' && rest[0] <= '9';
        out += digit_follows ? "000" : "0";
        continue;
      }
      default:
        out += static_cast<char>('0' + ((byte >> 6) & 7));
        out += static_cast<char>('0' + ((byte >> 3) & 7));
        out += static_cast<char>('0' + (byte & 7));
    }
  }
}

// Characters that make a shell word need quotes wherever they appear.
bool shell_special(char c) { return std::string_view(" !\"$&'()*;<=>?[\\^`|").find(c) != std::string_view::npos; }

// Characters that read the same in C and in shell double quotes; a name
// made only of these (plus its single quotes) is shown as "it's".
bool double_quote_safe(char c, std::size_t at) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  if (std::string_view(" '%+,-./:@]_").find(c) != std::string_view::npos) return true;
  return at == 0 && (c == '#' || c == '~');
}

bool needs_shell_quotes(std::string_view name, bool utf8, bool colon_too) {
  // A lone brace would be taken as a shell grouping word.
  if (name.empty() || name == "{" || name == "}") return true;
  for (std::size_t i = 0; i < name.size();) {
    const Unit unit = next_unit(name, i, utf8);
    if (!unit.printable) return true;
    const char c = unit.bytes[0];
    if (unit.bytes.size() == 1 && (shell_special(c) || (colon_too && c == ':') || (i == 0 && (c == '#' || c == '~')))) {
      return true;
    }
    i += unit.bytes.size();
  }
  return false;
}

struct ShellQuoted {
  std::string text;
  bool in_dollar_quote = false;  // the text ends inside a $'...' section
};

// Single quotes throughout; each run of non-printable characters becomes a
// $'...' section and a single quote becomes '\''.
ShellQuoted single_quote(std::string_view name, bool utf8, bool in_dollar_quote) {
  ShellQuoted result;
  std::string& out = result.text;
  out += '\'';
  for (std::size_t i = 0; i < name.size();) {
    const Unit unit = next_unit(name, i, utf8);
    i += unit.bytes.size();
    if (unit.bytes == "'") {
      out += "'\\''";
      in_dollar_quote = false;
    } else if (unit.printable) {
      if (in_dollar_quote) out += "''";
      in_dollar_quote = false;
      out += unit.bytes;
    } else {
      if (!in_dollar_quote) out += "'$'";
      in_dollar_quote = true;
      append_escaped(out, unit.bytes, name.substr(i));
    }
  }
  out += '\'';
  result.in_dollar_quote = in_dollar_quote;
  return result;
}

std::string shell_quote(std::string_view name, bool utf8) {
  if (name.find('\'') == std::string_view::npos) return single_quote(name, utf8, false).text;

  bool all_safe = true;
  for (std::size_t i = 0; i < name.size() && all_safe;) {
    const Unit unit = next_unit(name, i, utf8);
    all_safe = unit.printable && (unit.bytes.size() > 1 || double_quote_safe(unit.bytes[0], i));
    i += unit.bytes.size();
  }
  if (all_safe) {
    std::string quoted(1, '"');
    quoted.append(name);
    quoted += '"';
    return quoted;
  }

  // GNU writes a name holding a single quote twice, and its second pass
  // starts in whatever $'...' state the first one ended in: when the name
  // ends with a non-printable character, the output gains a leading "''"
  // (or, if it also starts with one, loses its first "'$'"). The result is
  // what GNU prints, so it is matched byte for byte.
  const bool carried = single_quote(name, utf8, false).in_dollar_quote;
  return single_quote(name, utf8, carried).text;
}

}  // namespace

Diag::Diag(std::string program, bool utf8_quotes, Sink sink)
    : program_(std::move(program)), utf8_quotes_(utf8_quotes), sink_(std::move(sink)) {}

void Diag::error(int err, std::string_view message) const {
  std::string line = program_;
  line += ": ";
  line += message;
  if (err != 0) {
    line += ": ";
    line += error_text(err);
  }
  if (history_.size() < kHistoryLimit) {
    history_.push_back(line.substr(program_.size() + 2));
  } else {
    ++not_kept_;
    std::string summary = fmt::format("({} more messages not kept)", not_kept_);
    if (history_.size() == kHistoryLimit) {
      history_.push_back(std::move(summary));
    } else {
      history_.back() = std::move(summary);
    }
  }
  line += '\n';
  if (!muted_) sink_(line);
}

void Diag::try_help() const {
  if (!muted_) sink_("Try '" + program_ + " --help' for more information.\n");
}

std::string Diag::quote(std::string_view value) const {
  const std::string_view open = utf8_quotes_ ? "\u2018" : "'";
  const std::string_view close = utf8_quotes_ ? "\u2019" : "'";
  std::string out(open);
  for (std::size_t i = 0; i < value.size();) {
    // The closing quote inside the value is escaped so the end stays clear.
    if (value.substr(i).starts_with(close)) out += '\\';
    const Unit unit = next_unit(value, i, utf8_quotes_);
    i += unit.bytes.size();
    if (unit.bytes == "\\") {
      out += "\\\\";
    } else if (unit.printable) {
      out += unit.bytes;
    } else {
      append_escaped(out, unit.bytes, value.substr(i));
    }
  }
  out += close;
  return out;
}

std::string Diag::quote_always(std::string_view file_name) const { return shell_quote(file_name, utf8_quotes_); }

std::string Diag::quote_if_needed(std::string_view file_name) const {
  if (!needs_shell_quotes(file_name, utf8_quotes_, true)) return std::string(file_name);
  return shell_quote(file_name, utf8_quotes_);
}

std::string error_text(int err) {
  if (const char* text = strerrordesc_np(err); text != nullptr) return text;
  return "Unknown error " + std::to_string(err);
}

}  // namespace ddtime
