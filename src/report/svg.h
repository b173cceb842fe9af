// SPDX-License-Identifier: GPL-3.0-or-later
// svg — a small writer for one self-contained SVG document: elements,
// attributes and text with XML 1.0's escaping, characters XML forbids
// replaced, and every number in fixed notation with a '.' whatever the
// locale. What is drawn where is svg_charts'; no external font, image or
// style sheet is ever referenced.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ddtime {

// Text or an attribute value made safe for XML 1.0: & < > " ' as
// entities; a control character other than tab, newline and carriage
// return, U+FFFE, U+FFFF and every byte that is not valid UTF-8 become
// U+FFFD, since XML 1.0 has no way to carry them.
std::string svg_escape(std::string_view text);

// A number with decimals places in fixed notation ("12.50", "-3.0"), never
// in the locale's format, never "nan" or "inf": a value that is not finite
// is written as 0, and -0 as 0.
std::string svg_number(double value, int decimals = 1);

// At most max_characters characters of text (code points, not bytes), the
// last of them "…" when it was cut; never cuts a UTF-8 sequence in two.
std::string svg_fit(std::string_view text, std::size_t max_characters);

// An upper bound of the text's width in pixels at font_size in the fonts a
// viewer picks for the style's generic families (DejaVu Sans and Sans Mono
// on Debian, among the widest): what is laid out by it never overlaps. The
// widest capitals count 1 em, other capitals 0.8, digits and lower case
// 0.65, spaces and narrow marks 0.4, bold 12% more; monospace 0.6 em.
double svg_text_width(std::string_view text, double font_size, bool bold = false, bool monospace = false);

// Phrases packed into lines no wider than width (svg_text_width's bound),
// a space between two on a line; a line breaks only between phrases,
// except a phrase wider than a line alone, which is broken in it.
std::vector<std::string> svg_wrap(const std::vector<std::string>& phrases, double width, double font_size,
                                  bool bold = false, bool monospace = false);
// The words of text (split at spaces) packed the same way.
std::vector<std::string> svg_wrap(std::string_view text, double width, double font_size, bool bold = false,
                                  bool monospace = false);

// One attribute: the name is the writer's own (an ASCII constant), the
// value is escaped when written.
struct SvgAttribute {
  std::string_view name;
  std::string value;
};

enum class SvgAnchor { kStart, kMiddle, kEnd };

// One document of width x height pixels, its style sheet embedded:
//
//   SvgDocument svg(800, 420);
//   svg.rect(10, 10, 100, 20, "bar");
//   svg.text(60, 50, "64k d1", "label", SvgAnchor::kMiddle);
//   std::string xml = svg.finish();
//
// Classes name the styles of kSvgStyle (svg.cc): "axis", "grid", "bar",
// "label", "title" and the rest.
class SvgDocument {
 public:
  SvgDocument(double width, double height);

  double width() const noexcept { return width_; }
  double height() const noexcept { return height_; }

  // An element with no content: <name a="v" .../>.
  void element(std::string_view name, const std::vector<SvgAttribute>& attributes);
  // <g> ... </g> around what is drawn between them.
  void open_group(const std::vector<SvgAttribute>& attributes);
  void close_group();

  void rect(double x, double y, double width, double height, std::string_view css_class);
  void line(double x1, double y1, double x2, double y2, std::string_view css_class);
  // The points x0,y0 x1,y1 ... joined by straight lines.
  void polyline(const std::vector<double>& xy, std::string_view css_class);
  void text(double x, double y, std::string_view words, std::string_view css_class,
            SvgAnchor anchor = SvgAnchor::kStart);
  // Text turned by degrees about (x, y): a crowded axis's labels.
  void turned_text(double x, double y, double degrees, std::string_view words, std::string_view css_class,
                   SvgAnchor anchor = SvgAnchor::kEnd);
  // A tooltip for the element opened last: <title>words</title> inside a
  // group, which viewers show on hover.
  void tooltip(std::string_view words);

  // The document, closed: the XML declaration, <svg> with its size and
  // viewBox, the style, what was drawn.
  std::string finish();

 private:
  void open_tag(std::string_view name, const std::vector<SvgAttribute>& attributes);

  double width_;
  double height_;
  std::string body_;
  int open_groups_ = 0;
};

}  // namespace ddtime
