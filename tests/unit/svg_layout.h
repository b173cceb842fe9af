// SPDX-License-Identifier: GPL-3.0-or-later
// Issue rule 8 for the unit tests: a chart's text boxes, each computed from
// its class's font size, its text-anchor and its rotation with an upper
// bound of every glyph's width (DejaVu Sans, what a viewer picks for
// sans-serif on Debian: its widest capitals 1 em, other capitals 0.8 em,
// digits and lower case 0.65 em, narrow marks 0.4 em, bold 12% more;
// monospace 0.6 em), must not overlap, leave the page or end in "…".
// Deliberately apart from svg's own width estimate: the test must not
// agree with the code by construction. tests/svg/svg_render_test.py does
// the same over real charts.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace ddtime::svg_layout {

struct Font {
  double size = 12;
  bool bold = false;
  bool monospace = false;
};

struct TextBox {
  std::string words;
  std::array<std::pair<double, double>, 4> corners;
};

inline std::map<std::string, Font> fonts_of(const std::string& xml) {
  std::map<std::string, Font> fonts;
  const std::regex rule("([a-z.][a-z0-9-]*)\\{([^}]*)\\}");
  const std::regex size("font-size:([0-9.]+)px");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), rule); it != std::sregex_iterator(); ++it) {
    const std::string body = (*it)[2];
    std::smatch found;
    Font font;
    if (std::regex_search(body, found, size)) font.size = std::stod(found[1]);
    font.bold = body.find("font-weight:bold") != std::string::npos;
    font.monospace = body.find("monospace") != std::string::npos;
    fonts[(*it)[1]] = font;
  }
  return fonts;
}

// The text's XML entities back to characters, counted as code points.
inline std::vector<char32_t> characters(const std::string& escaped) {
  std::string text = escaped;
  for (const auto& [entity, character] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}}) {
    for (std::size_t at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1)) {
      text.replace(at, entity.size(), character);
    }
  }
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = byte < 0x80 ? 1 : byte < 0xe0 ? 2 : byte < 0xf0 ? 3 : 4;
    char32_t code = byte < 0x80 ? byte : byte & (0xff >> (length + 1));
    for (std::size_t k = 1; k < length && i + k < text.size(); ++k) code = (code << 6) | (text[i + k] & 0x3f);
    out.push_back(code);
    i += length;
  }
  return out;
}

inline double glyph_em(char32_t c, bool monospace) {
  if (monospace) return 0.6;
  static const std::u32string kWidest = U"MWmw\u00d7\u2014@%";
  static const std::u32string kNarrow = U" .,:;'|!()[]il-/";
  if (kWidest.find(c) != std::u32string::npos || c > 0x2000) return 1.0;
  if (kNarrow.find(c) != std::u32string::npos) return 0.4;
  if (c >= 'A' && c <= 'Z') return 0.8;
  return 0.65;
}

inline std::vector<TextBox> text_boxes(const std::string& xml) {
  const std::map<std::string, Font> fonts = fonts_of(xml);
  const Font base = fonts.count("text") ? fonts.at("text") : Font{};
  std::vector<TextBox> boxes;
  const std::regex text("<text((?: [a-z-]+=\"[^\"]*\")*)>([^<]*)</text>");
  const std::regex attribute(" ([a-z-]+)=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), text); it != std::sregex_iterator(); ++it) {
    std::map<std::string, std::string> a;
    const std::string list = (*it)[1];
    for (auto m = std::sregex_iterator(list.begin(), list.end(), attribute); m != std::sregex_iterator(); ++m) {
      a[(*m)[1]] = (*m)[2];
    }
    const std::string words = (*it)[2];
    if (words.empty()) continue;
    Font font = base;
    if (fonts.count("." + a["class"])) {
      const Font& own = fonts.at("." + a["class"]);
      font.size = own.size;
      font.bold = own.bold;
      font.monospace = own.monospace || base.monospace;
    }
    double width = 0;
    for (const char32_t c : characters(words)) width += glyph_em(c, font.monospace);
    width *= font.size * (font.bold && !font.monospace ? 1.12 : 1.0);
    const double x = std::stod(a["x"]), y = std::stod(a["y"]);
    const double left = a["text-anchor"] == "end" ? x - width : a["text-anchor"] == "middle" ? x - width / 2 : x;
    const double up = y - 0.76 * font.size, down = y + 0.24 * font.size;
    TextBox box{words, {{{left, up}, {left + width, up}, {left + width, down}, {left, down}}}};
    std::smatch turn;
    if (std::regex_search(a["transform"], turn, std::regex("rotate\\(([-0-9.]+) ([-0-9.]+) ([-0-9.]+)\\)"))) {
      const double radians = std::stod(turn[1]) * 3.14159265358979 / 180;
      const double cx = std::stod(turn[2]), cy = std::stod(turn[3]);
      for (auto& [px, py] : box.corners) {
        const double dx = px - cx, dy = py - cy;
        px = cx + dx * std::cos(radians) - dy * std::sin(radians);
        py = cy + dx * std::sin(radians) + dy * std::cos(radians);
      }
    }
    boxes.push_back(box);
  }
  return boxes;
}

// Whether an edge's normal of either box separates the two (by 0.5 px).
inline bool separated(const TextBox& a, const TextBox& b) {
  for (const TextBox* box : {&a, &b}) {
    for (std::size_t i = 0; i < 4; ++i) {
      const auto [x1, y1] = box->corners[i];
      const auto [x2, y2] = box->corners[(i + 1) % 4];
      const double nx = y2 - y1, ny = x1 - x2, length = std::max(std::hypot(nx, ny), 1e-9);
      double a_low = 1e18, a_high = -1e18, b_low = 1e18, b_high = -1e18;
      for (const auto& [px, py] : a.corners) {
        a_low = std::min(a_low, (px * nx + py * ny) / length);
        a_high = std::max(a_high, (px * nx + py * ny) / length);
      }
      for (const auto& [px, py] : b.corners) {
        b_low = std::min(b_low, (px * nx + py * ny) / length);
        b_high = std::max(b_high, (px * nx + py * ny) / length);
      }
      if (a_high <= b_low + 0.5 || b_high <= a_low + 0.5) return true;
    }
  }
  return false;
}

// Every problem of rule 8 in the document, one sentence each; none: empty.
inline std::vector<std::string> problems(const std::string& xml) {
  std::smatch size;
  double width = 0, height = 0;
  if (std::regex_search(xml, size, std::regex("viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\""))) {
    width = std::stod(size[1]);
    height = std::stod(size[2]);
  }
  const std::vector<TextBox> boxes = text_boxes(xml);
  std::vector<std::string> found;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    for (const auto& [x, y] : boxes[i].corners) {
      if (x < -0.5 || y < -0.5 || x > width + 0.5 || y > height + 0.5) {
        found.push_back("'" + boxes[i].words + "' leaves the page");
        break;
      }
    }
    if (boxes[i].words.find("\xe2\x80\xa6") != std::string::npos) found.push_back("'" + boxes[i].words + "' is cut");
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      if (!separated(boxes[i], boxes[j])) found.push_back("'" + boxes[i].words + "' overlaps '" + boxes[j].words + "'");
    }
  }
  return found;
}

inline std::string said(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& one : list) out += one + "\n";
  return out;
}

}  // namespace ddtime::svg_layout
