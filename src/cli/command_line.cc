// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/command_line.h"

#include <fmt/format.h>

#include <boost/make_shared.hpp>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>

namespace ddtime {

// ---------------------------------------------------------------------------
// Value types.

namespace {

std::string first_of(const std::vector<std::string>& values) { return values.empty() ? std::string() : values.front(); }

}  // namespace

void validate(boost::any& store, const std::vector<std::string>& values, Text*, int) { store = Text{first_of(values)}; }

void validate(boost::any& store, const std::vector<std::string>&, Switch*, int) { store = Switch{}; }

void validate(boost::any& store, const std::vector<std::string>& values, OptionalText*, int) {
  OptionalText value;
  if (!values.empty()) value.text = values.front();
  store = std::move(value);
}

void validate(boost::any& store, const std::vector<std::string>& values, DdNumber*, int) {
  DdNumber number;
  number.text = first_of(values);
  number.parsed = parse_number(number.text);
  store = std::move(number);
}

// ---------------------------------------------------------------------------
// Rows.

RowsWanted RowsWanted::all() {
  RowsWanted wanted;
  wanted.all_ = true;
  return wanted;
}

RowsWanted::RowsWanted(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    const bool option = argument.starts_with("--");
    if (option) argument.remove_prefix(2);
    argument = argument.substr(0, argument.find('='));
    names_.push_back(argument);
    if (option) prefixes_.push_back(argument);
  }
}

bool RowsWanted::operator()(std::string_view name) const {
  if (all_) return true;
  for (std::string_view given : names_) {
    if (given == name) return true;
  }
  for (std::string_view prefix : prefixes_) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

// A row named without Boost's option_description::set_names, which splits
// the name through an std::istringstream: the first stream a program makes
// builds the classic locale, every facet of it (some 41,000 instructions
// and a dozen pages at each start, a seventh of a short dd's start-up).
// The row is made as Boost's constructor makes it, its members set through
// pointers to them that an explicit instantiation may name (access is not
// checked there); a Boost whose members changed fails to compile here.
namespace {

template <typename Tag, typename Tag::Member member>
struct RowMember {
  friend typename Tag::Member member_of(Tag) { return member; }
};
struct ShortName {
  using Member = std::string po::option_description::*;
  friend Member member_of(ShortName);
};
struct LongNames {
  using Member = std::vector<std::string> po::option_description::*;
  friend Member member_of(LongNames);
};
struct Description {
  using Member = std::string po::option_description::*;
  friend Member member_of(Description);
};
struct Semantic {
  using Member = boost::shared_ptr<const po::value_semantic> po::option_description::*;
  friend Member member_of(Semantic);
};
template struct RowMember<ShortName, &po::option_description::m_short_name>;
template struct RowMember<LongNames, &po::option_description::m_long_names>;
template struct RowMember<Description, &po::option_description::m_description>;
template struct RowMember<Semantic, &po::option_description::m_value_semantic>;

// As set_names reads "NAME[,NAME...][,C]": the long names, and a last name
// of one letter as the short one.
boost::shared_ptr<po::option_description> make_row(std::string_view names, po::value_semantic* value,
                                                   const char* words) {
  // Owned from here, as Boost's constructor owns it.
  boost::shared_ptr<const po::value_semantic> semantic(value);
  auto row = boost::make_shared<po::option_description>();
  std::vector<std::string>& long_names = (*row).*member_of(LongNames{});
  while (true) {
    const std::size_t comma = names.find(',');
    long_names.emplace_back(names.substr(0, comma));
    if (comma == std::string_view::npos) break;
    names.remove_prefix(comma + 1);
  }
  if (long_names.size() > 1 && long_names.back().size() == 1) {
    (*row).*member_of(ShortName{}) = "-" + long_names.back();
    long_names.pop_back();
    if (long_names.size() == 1 && long_names.front().empty()) long_names.clear();
  }
  (*row).*member_of(Description{}) = words;
  (*row).*member_of(Semantic{}) = std::move(semantic);
  return row;
}

}  // namespace

void add_row(po::options_description& rows, const RowsWanted& wanted, const char* name, po::value_semantic* value,
             const char* words) {
  if (!wanted(name)) {
    delete value;
    return;
  }
  rows.add(make_row(name, value, words));
}

// ---------------------------------------------------------------------------
// The getopt_long style splitter. It reads argv itself and hands each token
// to Boost as the po::option Boost's own command_line_parser would have
// made of it: Boost's long, short and positional rules never applied (dd's
// are not theirs), and its parser links Boost's cmdline.o and convert.o,
// whose static initialisers build the eight standard streams and the
// classic locale at every start.

namespace {

const po::option_description* row_named(const po::options_description& rows, std::string_view name) {
  for (const auto& row : rows.options()) {
    if (row->long_name() == name) return row.get();
  }
  return nullptr;
}

po::option make_option(std::string_view key, std::vector<std::string> values, std::string token) {
  po::option option(std::string(key), std::move(values));
  option.original_tokens.push_back(std::move(token));
  return option;
}

// Boost marks an option no description names as unregistered; getopt's
// complaints and the operands no row names are those.
po::option unregistered(std::string_view key, std::string value, std::string token) {
  po::option option = make_option(key, {std::move(value)}, std::move(token));
  option.unregistered = true;
  return option;
}

po::option option_error(std::string message, std::string token) {
  return unregistered(kOptionError, std::move(message), std::move(token));
}

class GetoptStyle {
 public:
  GetoptStyle(const po::options_description& operands, const po::options_description& gnu_options,
              const po::options_description& extensions)
      : operands_(operands),
        gnu_options_(gnu_options),
        extensions_(extensions),
        stop_at_first_operand_(std::getenv("POSIXLY_CORRECT") != nullptr) {}

  // Nothing for the "--" that ends the options.
  std::optional<po::option> operator()(std::string token) {
    const bool looks_like_option = token.size() > 1 && token[0] == '-';
    if (!looks_like_option || operands_only_) {
      if (stop_at_first_operand_) operands_only_ = true;
      return operand(std::move(token));
    }
    if (token == "--") {
      operands_only_ = true;
      return std::nullopt;
    }
    if (token.starts_with("--")) return long_option(std::move(token));
    std::string message = fmt::format("invalid option -- '{}'", token[1]);
    return option_error(std::move(message), std::move(token));
  }

 private:
  po::option operand(std::string token) const {
    const std::size_t equals = token.find('=');
    if (equals != std::string::npos) {
      const std::string name = token.substr(0, equals);
      if (row_named(operands_, name) != nullptr) return make_option(name, {token.substr(equals + 1)}, token);
    }
    std::string value = token;
    return unregistered(kUnknownOperand, std::move(value), std::move(token));
  }
  // Exact names win; otherwise a unique prefix of --help or --version.
  po::option long_option(std::string token) const {
    const std::string_view body = std::string_view(token).substr(2);
    const std::size_t equals = body.find('=');
    const std::string_view name = body.substr(0, equals);

    const po::option_description* found = row_named(extensions_, name);
    std::vector<const po::option_description*> candidates;
    for (const auto& row : gnu_options_.options()) {
      if (found != nullptr) break;
      if (row->long_name() == name) {
        found = row.get();
      } else if (std::string_view(row->long_name()).starts_with(name)) {
        candidates.push_back(row.get());
      }
    }
    if (found == nullptr && candidates.size() == 1) found = candidates.front();
    if (found == nullptr && candidates.empty()) {
      return option_error(fmt::format("unrecognized option '{}'", token), token);
    }
    if (found == nullptr) {
      std::string message = fmt::format("option '{}' is ambiguous; possibilities:", token);
      for (const po::option_description* row : candidates) message += fmt::format(" '--{}'", row->long_name());
      return option_error(std::move(message), token);
    }

    const po::value_semantic& value = *found->semantic();
    std::vector<std::string> values;
    if (equals != std::string_view::npos) {
      if (value.max_tokens() == 0) {
        return option_error(fmt::format("option '--{}' doesn't allow an argument", found->long_name()), token);
      }
      values.emplace_back(body.substr(equals + 1));
    } else if (value.min_tokens() > 0) {
      return option_error(fmt::format("option '--{}' requires an argument", found->long_name()), token);
    }
    return make_option(found->long_name(), std::move(values), token);
  }

  const po::options_description& operands_;
  const po::options_description& gnu_options_;
  const po::options_description& extensions_;
  const bool stop_at_first_operand_;
  bool operands_only_ = false;
};

}  // namespace

CommandLine split_command_line(int argc, const char* const* argv, const po::options_description& operands,
                               const po::options_description& gnu_options, const po::options_description& extensions) {
  GetoptStyle style(operands, gnu_options, extensions);
  CommandLine line;
  for (int i = 1; i < argc; ++i) {
    std::optional<po::option> option = style(argv[i]);
    if (!option) continue;
    const bool is_operand = option->string_key == kUnknownOperand || row_named(operands, option->string_key) != nullptr;
    (is_operand ? line.operands : line.options).push_back(std::move(*option));
  }
  return line;
}

void apply(const po::options_description& rows, const po::option& option) {
  const po::option_description& row = rows.find(option.string_key, false);
  boost::any value;
  row.semantic()->parse(value, option.value, false);
  row.semantic()->notify(value);
}

// ---------------------------------------------------------------------------
// --help. The wording is ddtime's own.

namespace {

std::string wrapped_entry(std::string left, std::string_view words) {
  constexpr std::size_t kColumn = 17;
  constexpr std::size_t kWidth = 79;
  if (left.size() >= kColumn) left += "\n" + std::string(kColumn, ' ');
  std::string line = fmt::format("{:<{}}", left, kColumn);
  std::size_t line_start = line.rfind('\n') == std::string::npos ? 0 : line.rfind('\n') + 1;
  bool first_word = true;
  while (!words.empty()) {
    const std::size_t space = words.find(' ');
    const std::string_view word = words.substr(0, space);
    words = space == std::string_view::npos ? std::string_view() : words.substr(space + 1);
    if (!first_word && line.size() - line_start + 1 + word.size() > kWidth) {
      line += "\n" + std::string(kColumn, ' ');
      line_start = line.size() - kColumn;
    } else if (!first_word) {
      line += ' ';
    }
    line += word;
    first_word = false;
  }
  return line + "\n";
}

void append_operands(std::string& out, const po::options_description& rows) {
  for (const auto& row : rows.options()) {
    out += wrapped_entry(fmt::format("  {}={}", row->long_name(), row->semantic()->name()), row->description());
  }
}

void append_options(std::string& out, const po::options_description& rows) {
  for (const auto& row : rows.options()) {
    const po::value_semantic& value = *row->semantic();
    std::string left = fmt::format("      --{}", row->long_name());
    if (value.max_tokens() > 0) {
      left += value.min_tokens() == 0 ? fmt::format("[={}]", value.name()) : fmt::format("={}", value.name());
    }
    out += wrapped_entry(std::move(left), row->description());
  }
}

}  // namespace

std::string help_text(std::string_view program, const po::options_description& operands,
                      const po::options_description& gnu_options, const po::options_description& extensions) {
  std::string out = fmt::format(
      "Usage: {0} [OPERAND]...\n"
      "  or:  {0} OPTION\n"
      "Copy a file in blocks, converting it on the way as the operands ask.\n"
      "\n"
      "Operands:\n",
      program);
  append_operands(out, operands);
  out +=
      "\n"
      "N and BYTES are decimal numbers, optionally followed by a unit:\n"
      "  c 1, w 2, b 512, kB 1000, K or KiB 1024, MB 1000^2, M or MiB 1024^2,\n"
      "  and in the same way GB/G/GiB, TB/T/TiB, PB/P/PiB, EB/E/EiB, ZB/Z/ZiB and\n"
      "  YB/Y/YiB (Z and Y are too large for any operand).\n"
      "  Two numbers joined by 'x' are multiplied (2x512, 1Mx4).\n"
      "  A 'B' in skip=, seek= or count= counts bytes instead of blocks (count=100B).\n"
      "\n"
      "Conversions for conv=:\n"
      "  ascii      translate EBCDIC to ASCII, then unblock\n"
      "  ebcdic     translate ASCII to EBCDIC, then block\n"
      "  ibm        translate ASCII to IBM's variant of EBCDIC, then block\n"
      "  block      turn newline-ended lines into cbs-byte records, padded with spaces\n"
      "  unblock    turn cbs-byte records into lines, dropping trailing spaces\n"
      "  lcase      make upper-case letters lower case\n"
      "  ucase      make lower-case letters upper case\n"
      "  sparse     seek over all-zero output blocks instead of writing them\n"
      "  swab       exchange the bytes of every pair of input bytes\n"
      "  sync       fill each short input block up to ibs bytes with zero bytes\n"
      "             (with spaces when block or unblock is in effect)\n"
      "  excl       fail if the output file exists already\n"
      "  nocreat    fail if the output file does not exist\n"
      "  notrunc    keep the output file's existing length\n"
      "  noerror    go on copying after read errors\n"
      "  fdatasync  flush the output data to the device before exiting\n"
      "  fsync      flush the output data and metadata before exiting\n"
      "\n"
      "Flags for iflag= and oflag=:\n"
      "  append       open the output for appending (conv=notrunc goes with it)\n"
      "  direct       bypass the page cache\n"
      "  directory    fail unless the file is a directory\n"
      "  dsync        synchronized I/O for the data\n"
      "  sync         synchronized I/O for the data and the metadata\n"
      "  fullblock    read until each input block is full (iflag only)\n"
      "  nonblock     open without blocking\n"
      "  noatime      leave the file's access time alone\n"
      "  nocache      ask the kernel to drop the file's cached pages\n"
      "  noctty       never take the file as controlling terminal\n"
      "  nofollow     refuse to follow a symbolic link\n"
      "  count_bytes  read count= as a number of bytes (iflag)\n"
      "  skip_bytes   read skip= as a number of bytes (iflag)\n"
      "  seek_bytes   read seek= as a number of bytes (oflag)\n"
      "\n"
      "Levels for status=:\n"
      "  none      report errors only\n"
      "  noxfer    leave out the final line of transfer statistics\n"
      "  progress  also show the amount copied and the rate while copying\n"
      "\n";
  out += fmt::format(
      "A running {} that receives SIGUSR1 writes its statistics so far to\n"
      "standard error and carries on copying.\n"
      "\n"
      "Options:\n",
      program);
  append_options(out, gnu_options);
  out += "\nExtensions:\n";
  append_options(out, extensions);
  return out;
}

}  // namespace ddtime
