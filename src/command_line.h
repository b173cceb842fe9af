// SPDX-License-Identifier: GPL-3.0-or-later
// command_line — part of operands: the one description of the command line
// (dd's operands, the GNU options, ddtime's --long extensions), argv split
// into tokens the way GNU getopt_long splits it, and the --help text that
// lists the same description.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "symbols.h"

namespace ddtime {

enum class Group { kOperand, kOption, kExtension };

enum class Argument {
  kNone,      // --name only
  kRequired,  // --name=VALUE (every operand: name=VALUE)
  kOptional,  // --name or --name=VALUE
};

struct OptionSpec {
  Group group;
  InlineText<12> name;
  Argument argument;
  InlineText<12> value_name;  // what --help calls the argument
  InlineText<120> description;
};

// Each argument classified in GNU getopt_long's terms, in order.
struct Token {
  enum class Kind { kOperand, kOption, kOptionError };
  Kind kind = Kind::kOperand;
  const OptionSpec* option = nullptr;        // kOption only
  std::optional<std::string_view> argument;  // --name=ARGUMENT; absent for an optional one not given
  std::string_view operand;                  // kOperand: the argument as given
  std::string message;                       // kOptionError: getopt's complaint
};

// getopt_long permutes: options anywhere on the line are read first, an
// argument "--" ends them, and under POSIXLY_CORRECT so does the first
// operand.
std::vector<Token> tokenize(int argc, const char* const* argv);

std::string help_text(std::string_view program);

}  // namespace ddtime
