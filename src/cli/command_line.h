// SPDX-License-Identifier: GPL-3.0-or-later
// command_line — part of operands: the command line as Boost.ProgramOptions
// tables. dd's key=value operands (dd_operands) and ddtime's --long options
// (options) are rows of options_descriptions, each with its value type and
// its notifier; argv is split the way GNU getopt_long splits it by one style
// parser handed to Boost's command_line_parser; --help is generated from the
// same rows.
#pragma once

#include <boost/program_options/option.hpp>
#include <boost/program_options/options_description.hpp>
#include <boost/program_options/value_semantic.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/number.h"

namespace ddtime {

namespace po = boost::program_options;

// ---------------------------------------------------------------------------
// Value types. validate() below is what Boost calls to turn the text into
// one; the row's notifier then judges it, so every complaint keeps GNU's or
// ddtime's own words.

// A value as typed: a file name, a list of words.
struct Text {
  std::string text;
};

// An option that takes no value.
struct Switch {};

// --json[=PATH]: nothing when given alone; "--json=" is an empty text.
struct OptionalText {
  std::optional<std::string> text;
};

// A number in dd's grammar (1M, 2x512, 4KiB, 100B), parsed once.
struct DdNumber {
  std::string text;
  ParsedNumber parsed;
};

void validate(boost::any& store, const std::vector<std::string>& values, Text*, int);
void validate(boost::any& store, const std::vector<std::string>& values, Switch*, int);
void validate(boost::any& store, const std::vector<std::string>& values, OptionalText*, int);
void validate(boost::any& store, const std::vector<std::string>& values, DdNumber*, int);

// What a notifier throws to stop the parse.
struct Refused {};  // the message is said already: exit 1
struct BadArgument {
  std::string hint;  // the line after "invalid argument 'X' for '--name'"; may be empty
};

// ---------------------------------------------------------------------------
// Rows.

// Which rows a command line needs: those its arguments could name. Boost
// reads each row's name through an istringstream, some 3,000 instructions,
// and dd is started thousands of times by some scripts: `dd bs=1 count=1`
// builds two rows, not 38. A superset is harmless (an argument "--s" wants
// every row that starts with "s"); --help wants them all.
class RowsWanted {
 public:
  static RowsWanted all();
  RowsWanted(int argc, const char* const* argv);
  bool operator()(std::string_view name) const;
  // Whether any argument is a --long option: ddtime's own rows are wanted
  // only then, whatever an operand's name is.
  bool names_options() const { return all_ || !prefixes_.empty(); }

 private:
  RowsWanted() = default;
  bool all_ = false;
  std::vector<std::string_view> names_;     // each argument up to its '='
  std::vector<std::string_view> prefixes_;  // each "--name": an option it may abbreviate
};

// Adds the row when it is wanted; otherwise frees its value.
void add_row(po::options_description& rows, const RowsWanted& wanted, const char* name, po::value_semantic* value,
             const char* words);

// ---------------------------------------------------------------------------
// Parsing.

// Keys the splitter gives what getopt would complain about, so that the
// complaint keeps its place among the options: unregistered, as Boost
// leaves an option no description names, with the words (or the operand as
// typed) as their value.
inline constexpr std::string_view kOptionError = "?option-error";
inline constexpr std::string_view kUnknownOperand = "?operand";

// argv split as GNU getopt_long splits it. operands: the rows of dd's
// operands (matched in full, "name=value"); gnu_options: --help and
// --version (a unique prefix will do); extensions: ddtime's own (matched in
// full, so no abbreviation GNU accepts can change meaning). Options
// anywhere on the line come before every operand; "--" ends them, and under
// POSIXLY_CORRECT so does the first operand.
struct CommandLine {
  std::vector<po::option> options;   // in order
  std::vector<po::option> operands;  // in order
};
CommandLine split_command_line(int argc, const char* const* argv, const po::options_description& operands,
                               const po::options_description& gnu_options, const po::options_description& extensions);

// Boost's own step for one parsed option: the row's value type validates the
// text, then its notifier acts. Throws what the notifier throws.
void apply(const po::options_description& rows, const po::option& option);

// ---------------------------------------------------------------------------
// --help: every row of each description under its caption, its value name
// and its words.
std::string help_text(std::string_view program, const po::options_description& operands,
                      const po::options_description& gnu_options, const po::options_description& extensions);

}  // namespace ddtime
