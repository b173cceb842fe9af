// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/svg.h"

#include <fmt/format.h>

#include <cmath>

#include "model/utf8.h"

namespace ddtime {
namespace {

constexpr std::string_view kReplacement = "\xef\xbf\xbd";  // U+FFFD

// Generic font families only: the file names no font it does not carry.
constexpr std::string_view kSvgStyle =
    "text{font-family:sans-serif;font-size:12px;fill:#222}"
    ".title{font-size:15px;font-weight:bold}"
    ".command{font-family:monospace;font-size:12px}"
    ".subtitle{font-size:11px;fill:#555}"
    ".panel-title{font-size:13px;font-weight:bold}"
    ".small{font-size:10px;fill:#444}"
    ".note{font-size:11px;fill:#444}"
    ".axis{stroke:#333;stroke-width:1;fill:none}"
    ".grid{stroke:#ddd;stroke-width:1;fill:none}"
    ".bar{fill:#4878a8}"
    ".bar-mark{fill:#d0783c}"
    ".bar1{fill:#58a858}"
    ".bar2{fill:#8c64b4}"
    ".missing{font-size:10px;fill:#888;font-style:italic}"
    ".inside{font-size:10px;fill:#fff}"
    ".whisker{stroke:#222;stroke-width:1.5;fill:none}"
    ".step{stroke:#4878a8;stroke-width:1.5;fill:none}"
    ".cliff{stroke:#c03030;stroke-width:1.5;stroke-dasharray:5,3;fill:none}"
    ".cliff-label{font-size:11px;fill:#c03030}"
    ".steady{fill:#58a858;fill-opacity:0.18}"
    ".steady-label{font-size:11px;fill:#2e7d32}"
    ".series0{fill:#4878a8;fill-opacity:0.55}"
    ".series1{fill:#d0783c;fill-opacity:0.55}"
    ".mark0{stroke:#1f4e79;stroke-width:1;stroke-dasharray:3,2;fill:none}"
    ".mark1{stroke:#9a4a16;stroke-width:1;stroke-dasharray:3,2;fill:none}"
    ".unity{stroke:#888;stroke-width:1;stroke-dasharray:4,3;fill:none}"
    ".point{fill:#222}"
    ".time0{fill:#4878a8}.time1{fill:#d0783c}.time2{fill:#58a858}.time3{fill:#b0b0b0}"
    ".cpu0{fill:#7a5ca8}.cpu1{fill:#c05a8a}.cpu2{fill:#e0e0e0}";

std::string_view anchor_name(SvgAnchor anchor) {
  switch (anchor) {
    case SvgAnchor::kStart:
      return "start";
    case SvgAnchor::kMiddle:
      return "middle";
    case SvgAnchor::kEnd:
      return "end";
  }
  return "start";
}

// Whether XML 1.0's Char production excludes the code point.
bool forbidden_in_xml(char32_t code_point) {
  if (code_point < 0x20) return code_point != 0x09 && code_point != 0x0a && code_point != 0x0d;
  return code_point == 0xfffe || code_point == 0xffff;
}

}  // namespace

std::string svg_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      switch (byte) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += "&quot;";
          break;
        case '\'':
          out += "&apos;";
          break;
        default:
          if (forbidden_in_xml(byte)) {
            out += kReplacement;
          } else {
            out += static_cast<char>(byte);
          }
      }
      ++i;
      continue;
    }
    const Utf8Sequence sequence = decode_utf8(text.substr(i));
    if (sequence.length == 0) {
      // One replacement per byte that starts no valid sequence.
      out += kReplacement;
      ++i;
      continue;
    }
    if (forbidden_in_xml(sequence.code_point)) {
      out += kReplacement;
    } else {
      out.append(text.substr(i, sequence.length));
    }
    i += sequence.length;
  }
  return out;
}

std::string svg_number(double value, int decimals) {
  if (!std::isfinite(value)) value = 0;
  // fmt never reads the locale without 'L': always a '.'.
  std::string text = fmt::format("{:.{}f}", value, decimals < 0 ? 0 : decimals);
  // "-0.0" says nothing "0.0" does not.
  if (text.front() == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return text;
}

std::string svg_fit(std::string_view text, std::size_t max_characters) {
  std::vector<std::size_t> starts;  // where each character starts
  std::size_t i = 0;
  while (i < text.size()) {
    starts.push_back(i);
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = byte < 0x80 ? 1 : decode_utf8(text.substr(i)).length;
    i += length == 0 ? 1 : length;
  }
  if (starts.size() <= max_characters) return std::string(text);
  if (max_characters == 0) return {};
  return std::string(text.substr(0, starts[max_characters - 1])) + "\xe2\x80\xa6";  // …
}

namespace {

// Each character's bytes: a UTF-8 sequence whole, a byte that starts none alone.
std::vector<std::string_view> characters_of(std::string_view text) {
  std::vector<std::string_view> characters;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = byte < 0x80 ? 1 : decode_utf8(text.substr(i)).length;
    if (length == 0) length = 1;
    characters.push_back(text.substr(i, length));
    i += length;
  }
  return characters;
}

double glyph_em(std::string_view character, bool monospace) {
  if (monospace) return 0.6;
  if (character.size() > 1) return 1.0;  // ×, µ, …: counted as the widest
  const char c = character[0];
  if (std::string_view("MWmw@%").find(c) != std::string_view::npos) return 1.0;
  if (std::string_view(" .,:;'|!()[]il-/").find(c) != std::string_view::npos) return 0.4;
  if (c >= 'A' && c <= 'Z') return 0.8;
  return 0.65;
}

}  // namespace

double svg_text_width(std::string_view text, double font_size, bool bold, bool monospace) {
  double em = 0;
  for (const std::string_view character : characters_of(text)) em += glyph_em(character, monospace);
  return em * font_size * (bold && !monospace ? 1.12 : 1.0);
}

std::vector<std::string> svg_wrap(const std::vector<std::string>& phrases, double width, double font_size, bool bold,
                                  bool monospace) {
  const auto fits = [&](std::string_view line) { return svg_text_width(line, font_size, bold, monospace) <= width; };
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& phrase : phrases) {
    if (phrase.empty()) continue;
    if (!line.empty() && fits(line + " " + phrase)) {
      line += " " + phrase;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    // A phrase wider than a line: as many characters on each line as fit.
    for (const std::string_view character : characters_of(phrase)) {
      if (!line.empty() && !fits(line + std::string(character))) {
        lines.push_back(line);
        line.clear();
      }
      line += character;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

std::vector<std::string> svg_wrap(std::string_view text, double width, double font_size, bool bold, bool monospace) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t space = text.find(' ', start);
    const std::size_t end = space == std::string_view::npos ? text.size() : space;
    if (end > start) words.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return svg_wrap(words, width, font_size, bold, monospace);
}

SvgDocument::SvgDocument(double width, double height) : width_(width), height_(height) {}

void SvgDocument::open_tag(std::string_view name, const std::vector<SvgAttribute>& attributes) {
  body_ += '<';
  body_ += name;
  for (const SvgAttribute& attribute : attributes) {
    body_ += ' ';
    body_ += attribute.name;
    body_ += "=\"";
    body_ += svg_escape(attribute.value);
    body_ += '"';
  }
}

void SvgDocument::element(std::string_view name, const std::vector<SvgAttribute>& attributes) {
  open_tag(name, attributes);
  body_ += "/>\n";
}

void SvgDocument::open_group(const std::vector<SvgAttribute>& attributes) {
  open_tag("g", attributes);
  body_ += ">\n";
  ++open_groups_;
}

void SvgDocument::close_group() {
  if (open_groups_ == 0) return;
  body_ += "</g>\n";
  --open_groups_;
}

void SvgDocument::rect(double x, double y, double width, double height, std::string_view css_class) {
  // A negative size is an error in SVG: an empty bar is drawn as none.
  element("rect", {{"x", svg_number(x)},
                   {"y", svg_number(y)},
                   {"width", svg_number(width > 0 ? width : 0)},
                   {"height", svg_number(height > 0 ? height : 0)},
                   {"class", std::string(css_class)}});
}

void SvgDocument::line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  element("line", {{"x1", svg_number(x1)},
                   {"y1", svg_number(y1)},
                   {"x2", svg_number(x2)},
                   {"y2", svg_number(y2)},
                   {"class", std::string(css_class)}});
}

void SvgDocument::polyline(const std::vector<double>& xy, std::string_view css_class) {
  std::string points;
  for (std::size_t i = 0; i + 1 < xy.size(); i += 2) {
    if (!points.empty()) points += ' ';
    points += svg_number(xy[i]) + "," + svg_number(xy[i + 1]);
  }
  element("polyline", {{"points", points}, {"class", std::string(css_class)}});
}

void SvgDocument::text(double x, double y, std::string_view words, std::string_view css_class, SvgAnchor anchor) {
  open_tag("text", {{"x", svg_number(x)},
                    {"y", svg_number(y)},
                    {"text-anchor", std::string(anchor_name(anchor))},
                    {"class", std::string(css_class)}});
  body_ += '>';
  body_ += svg_escape(words);
  body_ += "</text>\n";
}

void SvgDocument::turned_text(double x, double y, double degrees, std::string_view words, std::string_view css_class,
                              SvgAnchor anchor) {
  open_tag("text", {{"x", svg_number(x)},
                    {"y", svg_number(y)},
                    {"transform", "rotate(" + svg_number(degrees) + " " + svg_number(x) + " " + svg_number(y) + ")"},
                    {"text-anchor", std::string(anchor_name(anchor))},
                    {"class", std::string(css_class)}});
  body_ += '>';
  body_ += svg_escape(words);
  body_ += "</text>\n";
}

void SvgDocument::tooltip(std::string_view words) {
  body_ += "<title>";
  body_ += svg_escape(words);
  body_ += "</title>\n";
}

std::string SvgDocument::finish() {
  while (open_groups_ > 0) close_group();
  const std::string width = svg_number(width_, 0);
  const std::string height = svg_number(height_, 0);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + width + "\" height=\"" + height + "\" viewBox=\"0 0 " +
         width + " " + height + "\">\n";
  out += "<style>";
  out += kSvgStyle;
  out += "</style>\n";
  out += "<rect x=\"0\" y=\"0\" width=\"" + width + "\" height=\"" + height + "\" fill=\"#ffffff\"/>\n";
  out += body_;
  out += "</svg>\n";
  return out;
}

}  // namespace ddtime
