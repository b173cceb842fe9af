// SPDX-License-Identifier: GPL-3.0-or-later
// diag — the `prog: message[: reason]` lines, GNU-style quoting of values and
// file names, and the "Try 'prog --help'" hint. It formats and hands finished
// lines to a sink; it never touches a file descriptor itself.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ddtime {

class Diag {
 public:
  // Receives each finished message, newline included. main wires it to
  // stderr; tests capture it.
  using Sink = std::function<void(std::string_view)>;

  // utf8_quotes: the locale's charset is UTF-8, so values are quoted
  // ‘like this’ as GNU does there; otherwise 'like this'.
  Diag(std::string program, bool utf8_quotes, Sink sink);

  const std::string& program() const { return program_; }
  bool utf8_quotes() const { return utf8_quotes_; }

  // "prog: <message>\n", or "prog: <message>: <strerror(err)>\n" when err != 0.
  void error(int err, std::string_view message) const;

  template <typename... Args>
  void error(int err, fmt::format_string<Args...> format, Args&&... args) const {
    error(err, std::string_view(fmt::format(format, std::forward<Args>(args)...)));
  }

  // "Try 'prog --help' for more information.\n"
  void try_help() const;

  // Raw text to the sink (summary lines, progress): no prefix, no newline added.
  void raw(std::string_view text) const {
    if (!muted_) sink_(text);
  }

  // --json without a path: JSON replaces every human line on stderr, and
  // the messages travel inside it instead.
  void set_muted(bool muted) { muted_ = muted; }
  // The error() lines, without the program prefix, in order: the first
  // kHistoryLimit of them, then one line saying how many more there were,
  // so that a conv=noerror run over a million bad blocks stays small.
  const std::vector<std::string>& history() const { return history_; }
  static constexpr std::size_t kHistoryLimit = 1000;

  // GNU quote(): locale quotes around the value, control characters and
  // non-printable bytes escaped C-style.
  std::string quote(std::string_view value) const;
  // GNU quoteaf(): shell-escaped and always quoted ('name'); used for file
  // names in most messages ("failed to open 'x'").
  std::string quote_always(std::string_view file_name) const;
  // GNU quotef(): shell-escaped, quoted only when the name needs it (spaces,
  // shell metacharacters, ':' ...); used where the name starts the message.
  std::string quote_if_needed(std::string_view file_name) const;

 private:
  std::string program_;
  bool utf8_quotes_;
  Sink sink_;
  bool muted_ = false;
  // Recording what was said is part of saying it, even through a const Diag.
  mutable std::vector<std::string> history_;
  mutable std::size_t not_kept_ = 0;
};

// Message text for errno values, as strerror gives it in the C locale.
std::string error_text(int err);

}  // namespace ddtime
