// SPDX-License-Identifier: GPL-3.0-or-later
#include "operands.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "number.h"

namespace ddtime {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
// GNU keeps block sizes one below the largest offset so that conv=swab's
// extra byte still fits; the allocation itself fails later, at run time.
constexpr std::int64_t kMaxBlockSize = kInt64Max - 1;

// ---------------------------------------------------------------------------
// The one description of the command line: dd's operands, the GNU options,
// and ddtime's own --long extensions. The tokenizer and --help both read it,
// so a new entry is parsed and listed under its group's caption at once.
//
// Read here rather than by Boost.ProgramOptions: linking any part of that
// library (options_description needs value_semantic.o, which needs
// convert.o) brings a static std::ios_base::Init, which builds the standard
// streams and the classic locale before main on every run. Without it
// `dd bs=1 count=1` takes 86 page faults and 194k instructions instead of 99
// and 465k (libstdc++ static, glibc shared, LC_ALL=C).

// Text kept inside a constant table. A pointer there (a string_view) costs a
// position-independent program one relocation at every start, written into
// the table's page, and the copy-on-write fault that goes with it; with the
// characters themselves the tables stay in read-only data. Too long a text
// is a compile-time error.
template <std::size_t Capacity>
class InlineText {
 public:
  // Implicit, so that a table is written with plain string literals.
  template <std::size_t Size>
  consteval InlineText(const char (&text)[Size]) : size_(Size - 1) {
    static_assert(Size <= Capacity, "text longer than its table's column");
    for (std::size_t i = 0; i < Size; ++i) text_[i] = text[i];
  }
  constexpr std::string_view view() const { return {text_, size_}; }

 private:
  char text_[Capacity] = {};
  std::size_t size_;
};

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
  InlineText<8> value_name;  // what --help calls the argument
  InlineText<120> description;
};

// clang-format off
constexpr OptionSpec kCommandLine[] = {
    {Group::kOperand, "if", Argument::kRequired, "FILE",
     "take input from FILE rather than standard input"},
    {Group::kOperand, "of", Argument::kRequired, "FILE",
     "send output to FILE rather than standard output"},
    {Group::kOperand, "ibs", Argument::kRequired, "BYTES",
     "read input blocks of BYTES bytes (512 unless given)"},
    {Group::kOperand, "obs", Argument::kRequired, "BYTES",
     "write output blocks of BYTES bytes (512 unless given)"},
    {Group::kOperand, "bs", Argument::kRequired, "BYTES",
     "use BYTES for both block sizes, whatever ibs and obs say"},
    {Group::kOperand, "cbs", Argument::kRequired, "BYTES",
     "record length in bytes for the block and unblock conversions"},
    {Group::kOperand, "skip", Argument::kRequired, "N",
     "pass over N input blocks (of ibs bytes) before copying"},
    {Group::kOperand, "iseek", Argument::kRequired, "N", "another name for skip=N"},
    {Group::kOperand, "seek", Argument::kRequired, "N",
     "move past N output blocks (of obs bytes) before writing"},
    {Group::kOperand, "oseek", Argument::kRequired, "N", "another name for seek=N"},
    {Group::kOperand, "count", Argument::kRequired, "N", "stop after N input blocks"},
    {Group::kOperand, "conv", Argument::kRequired, "CONVS",
     "apply every conversion named in the comma-separated list CONVS"},
    {Group::kOperand, "iflag", Argument::kRequired, "FLAGS",
     "read the input as the comma-separated list FLAGS says"},
    {Group::kOperand, "oflag", Argument::kRequired, "FLAGS",
     "write the output as the comma-separated list FLAGS says"},
    {Group::kOperand, "status", Argument::kRequired, "LEVEL",
     "how much to report on standard error: none, noxfer or progress"},

    {Group::kOption, "help", Argument::kNone, "", "show this help, then exit"},
    {Group::kOption, "version", Argument::kNone, "", "show the version, then exit"},

    // ddtime's own --long options; apply_extension() below acts on them.
    {Group::kExtension, "gnu", Argument::kNone, "",
     "print only what GNU dd would print (no timing report)"},
    {Group::kExtension, "json", Argument::kOptional, "PATH",
     "write one JSON object describing the run to PATH, or to standard error "
     "in place of all other text when no PATH is given"},
    {Group::kExtension, "units", Argument::kRequired, "UNITS",
     "rates in the timing report: si, iec, both, bytes or all"},
    {Group::kExtension, "split-times", Argument::kNone, "",
     "measure the time spent in read and in write calls separately"},
    {Group::kExtension, "align", Argument::kRequired, "N",
     "align buffers to N bytes (a power of two) instead of what the files need"},
    {Group::kExtension, "direct", Argument::kNone, "",
     "iflag=direct and oflag=direct on each side that is not a character device"},
    {Group::kExtension, "progress", Argument::kNone, "",
     "show percentage, rate and time left when the total is known"},
};
// clang-format on

// ddtime's own options are matched in full only, so no abbreviation GNU
// accepts can change meaning.
const OptionSpec* find_extension(std::string_view name) {
  for (const OptionSpec& option : kCommandLine) {
    if (option.group == Group::kExtension && option.name.view() == name) return &option;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Tokens: each argument classified in GNU getopt_long's terms, in order.

struct Token {
  enum class Kind { kOperand, kOption, kOptionError };
  Kind kind = Kind::kOperand;
  const OptionSpec* option = nullptr;        // kOption only
  std::optional<std::string_view> argument;  // --name=ARGUMENT
  std::string_view operand;                  // kOperand: the argument as given
  std::string message;                       // kOptionError: getopt's complaint
};

Token option_error(std::string message) {
  Token token;
  token.kind = Token::Kind::kOptionError;
  token.message = std::move(message);
  return token;
}

// GNU getopt_long on one "--..." argument: exact names win, otherwise a
// unique prefix of a GNU option does.
Token long_option(std::string_view argument) {
  const std::string_view body = argument.substr(2);
  const std::size_t equals = body.find('=');
  const std::string_view name = body.substr(0, equals);

  const OptionSpec* found = find_extension(name);
  std::vector<const OptionSpec*> candidates;
  for (const OptionSpec& option : kCommandLine) {
    if (found != nullptr) break;
    if (option.group != Group::kOption) continue;
    if (option.name.view() == name) {
      found = &option;
    } else if (option.name.view().starts_with(name)) {
      candidates.push_back(&option);
    }
  }
  if (found == nullptr && candidates.size() == 1) found = candidates.front();

  if (found == nullptr && candidates.empty()) {
    return option_error(fmt::format("unrecognized option '{}'", argument));
  }
  if (found == nullptr) {
    std::string message = fmt::format("option '{}' is ambiguous; possibilities:", argument);
    for (const OptionSpec* option : candidates) message += fmt::format(" '--{}'", option->name.view());
    return option_error(std::move(message));
  }

  Token token;
  token.kind = Token::Kind::kOption;
  token.option = found;
  if (found->argument == Argument::kNone) {
    if (equals != std::string_view::npos) {
      return option_error(fmt::format("option '--{}' doesn't allow an argument", found->name.view()));
    }
  } else if (equals != std::string_view::npos) {
    token.argument = body.substr(equals + 1);
  } else if (found->argument == Argument::kOptional) {
    token.argument = std::string_view();  // --json alone
  } else {
    return option_error(fmt::format("option '--{}' requires an argument", found->name.view()));
  }
  return token;
}

// getopt_long permutes: options anywhere on the line are read first, an
// argument "--" ends them, and under POSIXLY_CORRECT so does the first
// operand. dd has no short options, so "-x" is refused by its first letter;
// a lone "-" is an operand.
std::vector<Token> tokenize(int argc, const char* const* argv) {
  const bool stop_at_first_operand = std::getenv("POSIXLY_CORRECT") != nullptr;
  bool operands_only = false;
  std::vector<Token> tokens;
  tokens.reserve(argc > 1 ? static_cast<std::size_t>(argc - 1) : 0);
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const bool looks_like_option = argument.size() > 1 && argument[0] == '-';
    if (looks_like_option && !operands_only) {
      if (argument == "--") {
        operands_only = true;
      } else if (argument.starts_with("--")) {
        tokens.push_back(long_option(argument));
      } else {
        tokens.push_back(option_error(fmt::format("invalid option -- '{}'", argument[1])));
      }
      continue;
    }
    if (stop_at_first_operand) operands_only = true;
    Token token;
    token.operand = argument;
    tokens.push_back(std::move(token));
  }
  return tokens;
}

// ---------------------------------------------------------------------------
// Symbol lists.

struct ConversionSymbol {
  InlineText<10> name;
  bool Conversions::*flag;
  bool Conversions::*implied;  // GNU's table ties block/unblock to these
};

constexpr ConversionSymbol kConversionSymbols[] = {
    {"ascii", &Conversions::ascii, &Conversions::unblock},
    {"ebcdic", &Conversions::ebcdic, &Conversions::block},
    {"ibm", &Conversions::ibm, &Conversions::block},
    {"block", &Conversions::block, nullptr},
    {"unblock", &Conversions::unblock, nullptr},
    {"lcase", &Conversions::lcase, nullptr},
    {"ucase", &Conversions::ucase, nullptr},
    {"sparse", &Conversions::sparse, nullptr},
    {"swab", &Conversions::swab, nullptr},
    {"sync", &Conversions::sync, nullptr},
    {"excl", &Conversions::excl, nullptr},
    {"nocreat", &Conversions::nocreat, nullptr},
    {"notrunc", &Conversions::notrunc, nullptr},
    {"noerror", &Conversions::noerror, nullptr},
    {"fdatasync", &Conversions::fdatasync, nullptr},
    {"fsync", &Conversions::fsync, nullptr},
};

struct FlagSymbol {
  InlineText<12> name;
  bool IoFlags::*flag;
};

// Every flag is accepted on either side, as GNU 9.1 does; only
// oflag=fullblock is refused, after all operands are read.
constexpr FlagSymbol kFlagSymbols[] = {
    {"append", &IoFlags::append},
    {"direct", &IoFlags::direct},
    {"directory", &IoFlags::directory},
    {"dsync", &IoFlags::dsync},
    {"sync", &IoFlags::sync},
    {"fullblock", &IoFlags::fullblock},
    {"nonblock", &IoFlags::nonblock},
    {"noatime", &IoFlags::noatime},
    {"nocache", &IoFlags::nocache},
    {"noctty", &IoFlags::noctty},
    {"nofollow", &IoFlags::nofollow},
    {"count_bytes", &IoFlags::count_bytes},
    {"skip_bytes", &IoFlags::skip_bytes},
    {"seek_bytes", &IoFlags::seek_bytes},
};

struct StatusSymbol {
  InlineText<9> name;
  StatusLevel level;
};

constexpr StatusSymbol kStatusSymbols[] = {
    {"none", StatusLevel::kNone},
    {"noxfer", StatusLevel::kNoxfer},
    {"progress", StatusLevel::kProgress},
};

struct UnitSymbol {
  InlineText<6> name;
  RateUnits units;
};

constexpr UnitSymbol kUnitSymbols[] = {
    {"si", RateUnits::kSi},
    {"iec", RateUnits::kIec},
    {"both", RateUnits::kBoth},
    {"bytes", RateUnits::kBytes},
    {"all", RateUnits::kAll},
};

// Calls apply(item) for each comma-separated item; stops at the first item
// apply() refuses and returns it. An empty item is refused like any other.
template <typename Apply>
std::optional<std::string_view> for_each_symbol(std::string_view list, Apply apply) {
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    if (!apply(item)) return item;
    if (comma == std::string_view::npos) return std::nullopt;
    list.remove_prefix(comma + 1);
  }
}

template <typename Table>
auto find_symbol(const Table& table, std::string_view name) -> decltype(&table[0]) {
  for (const auto& symbol : table) {
    if (symbol.name.view() == name) return &symbol;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Operands, read in order; each complaint stops the parse as GNU's does.

struct SizeOperands {
  std::int64_t ibs = 0;  // 0: not given
  std::int64_t obs = 0;
  std::int64_t bs = 0;
  std::int64_t skip = 0;
  bool skip_in_bytes = false;  // a 'B' anywhere in the value
  std::int64_t seek = 0;
  bool seek_in_bytes = false;
  std::int64_t count = kNoLimit;
  bool count_in_bytes = false;
};

class OperandReader {
 public:
  OperandReader(const Diag& diag, Settings& settings) : diag_(diag), settings_(settings) {}

  const SizeOperands& sizes() const { return sizes_; }

  bool read(std::string_view text) {
    const std::size_t equals = text.find('=');
    if (equals == std::string_view::npos) return unrecognized(text);
    const std::string_view name = text.substr(0, equals);
    const std::string_view value = text.substr(equals + 1);

    if (name == "if") {
      settings_.input_file = std::string(value);
    } else if (name == "of") {
      settings_.output_file = std::string(value);
    } else if (name == "conv") {
      return read_conversions(value);
    } else if (name == "iflag") {
      return read_flags(value, settings_.iflag, "invalid input flag");
    } else if (name == "oflag") {
      return read_flags(value, settings_.oflag, "invalid output flag");
    } else if (name == "status") {
      return read_status(value);
    } else {
      return read_number(text, name, value);
    }
    return true;
  }

 private:
  bool unrecognized(std::string_view text) {
    diag_.error(0, fmt::format("unrecognized operand {}", diag_.quote(text)));
    diag_.try_help();
    return false;
  }

  bool refuse_symbol(std::string_view what, std::string_view item) {
    diag_.error(0, fmt::format("{}: {}", what, diag_.quote(item)));
    diag_.try_help();
    return false;
  }

  bool read_conversions(std::string_view list) {
    Conversions& conv = settings_.conv;
    const auto bad = for_each_symbol(list, [&conv](std::string_view item) {
      const ConversionSymbol* symbol = find_symbol(kConversionSymbols, item);
      if (symbol == nullptr) return false;
      conv.*(symbol->flag) = true;
      if (symbol->implied != nullptr) conv.*(symbol->implied) = true;
      return true;
    });
    return !bad || refuse_symbol("invalid conversion", *bad);
  }

  bool read_flags(std::string_view list, IoFlags& flags, std::string_view what) {
    const auto bad = for_each_symbol(list, [&flags](std::string_view item) {
      const FlagSymbol* symbol = find_symbol(kFlagSymbols, item);
      if (symbol == nullptr) return false;
      flags.*(symbol->flag) = true;
      return true;
    });
    return !bad || refuse_symbol(what, *bad);
  }

  bool read_status(std::string_view list) {
    StatusLevel& status = settings_.status;
    const auto bad = for_each_symbol(list, [&status](std::string_view item) {
      const StatusSymbol* symbol = find_symbol(kStatusSymbols, item);
      if (symbol == nullptr) return false;
      status = symbol->level;  // the last level named wins
      return true;
    });
    return !bad || refuse_symbol("invalid status level", *bad);
  }

  // GNU parses the value before it looks at the name, so "foo=0x5" warns
  // about the zero multiplier and only then calls the operand unrecognized.
  bool read_number(std::string_view text, std::string_view name, std::string_view value) {
    const ParsedNumber number = parse_number(value);
    if (number.zero_multiplier) {
      diag_.error(0, fmt::format("warning: {} is a zero multiplier; use {} if that is intended",
                                 diag_.quote("0x"), diag_.quote("00x")));
    }
    struct Range {
      std::int64_t minimum;
      std::int64_t maximum;
      std::int64_t* target;
      bool* in_bytes;  // where a 'B' suffix is remembered, if it counts
    };
    std::optional<Range> range;
    if (name == "ibs") {
      range = Range{1, kMaxBlockSize, &sizes_.ibs, nullptr};
    } else if (name == "obs") {
      range = Range{1, kMaxBlockSize, &sizes_.obs, nullptr};
    } else if (name == "bs") {
      range = Range{1, kMaxBlockSize, &sizes_.bs, nullptr};
    } else if (name == "cbs") {
      range = Range{1, kInt64Max, &settings_.cbs, nullptr};
    } else if (name == "skip" || name == "iseek") {
      range = Range{0, kInt64Max, &sizes_.skip, &sizes_.skip_in_bytes};
    } else if (name == "seek" || name == "oseek") {
      range = Range{0, kInt64Max, &sizes_.seek, &sizes_.seek_in_bytes};
    } else if (name == "count") {
      range = Range{0, kInt64Max, &sizes_.count, &sizes_.count_in_bytes};
    } else {
      return unrecognized(text);
    }

    NumberVerdict verdict = number.verdict;
    if (number.value < range->minimum) {
      verdict = NumberVerdict::kInvalid;
    } else if (number.value > range->maximum) {
      verdict = NumberVerdict::kOverflow;
    }
    if (verdict != NumberVerdict::kOk) {
      diag_.error(verdict == NumberVerdict::kOverflow ? EOVERFLOW : 0,
                  fmt::format("invalid number: {}", diag_.quote(value)));
      return false;
    }
    *range->target = number.value;
    if (range->in_bytes != nullptr) *range->in_bytes = value.find('B') != std::string_view::npos;
    return true;
  }

  const Diag& diag_;
  Settings& settings_;
  SizeOperands sizes_;
};

// ---------------------------------------------------------------------------
// After the last operand: defaults, GNU's consistency checks in GNU's order,
// and skip/seek/count turned into records and bytes.

struct RecordsAndBytes {
  std::int64_t records = 0;
  std::int64_t bytes = 0;
};

RecordsAndBytes split(std::int64_t amount, bool in_bytes, std::int64_t block_size) {
  if (!in_bytes) return {amount, 0};
  return {amount / block_size, amount % block_size};
}

bool finish(const SizeOperands& sizes, Settings& settings, const Diag& diag) {
  settings.bs_given = sizes.bs != 0;
  settings.ibs = sizes.bs != 0 ? sizes.bs : sizes.ibs != 0 ? sizes.ibs : 512;
  settings.obs = sizes.bs != 0 ? sizes.bs : sizes.obs != 0 ? sizes.obs : 512;

  Conversions& conv = settings.conv;
  settings.block_or_unblock_requested = conv.block || conv.unblock;
  if (settings.cbs == 0) conv.block = conv.unblock = false;

  if (settings.oflag.fullblock) {
    diag.error(0, fmt::format("invalid output flag: {}", diag.quote("fullblock")));
    diag.try_help();
    return false;
  }
  const char* conflict = nullptr;
  if (int{conv.ascii} + int{conv.ebcdic} + int{conv.ibm} > 1) {
    conflict = "cannot combine any two of {ascii,ebcdic,ibm}";
  } else if (conv.block && conv.unblock) {
    conflict = "cannot combine block and unblock";
  } else if (conv.lcase && conv.ucase) {
    conflict = "cannot combine lcase and ucase";
  } else if (conv.excl && conv.nocreat) {
    conflict = "cannot combine excl and nocreat";
  } else if ((settings.iflag.direct && settings.iflag.nocache) ||
             (settings.oflag.direct && settings.oflag.nocache)) {
    conflict = "cannot combine direct and nocache";
  }
  if (conflict != nullptr) {
    diag.error(0, conflict);
    return false;
  }

  // A 'B' in the value means bytes, as the matching *_bytes flag would.
  settings.iflag.skip_bytes = settings.iflag.skip_bytes || sizes.skip_in_bytes;
  settings.iflag.count_bytes = settings.iflag.count_bytes || sizes.count_in_bytes;
  settings.oflag.seek_bytes = settings.oflag.seek_bytes || sizes.seek_in_bytes;

  const RecordsAndBytes skip = split(sizes.skip, settings.iflag.skip_bytes, settings.ibs);
  settings.skip_records = skip.records;
  settings.skip_bytes = skip.bytes;
  const RecordsAndBytes seek = split(sizes.seek, settings.oflag.seek_bytes, settings.obs);
  settings.seek_records = seek.records;
  settings.seek_bytes = seek.bytes;
  // count=9223372036854775807 is no limit at all, as in GNU.
  const RecordsAndBytes count = sizes.count == kNoLimit
                                    ? RecordsAndBytes{kNoLimit, 0}
                                    : split(sizes.count, settings.iflag.count_bytes, settings.ibs);
  settings.max_records = count.records;
  settings.max_bytes = count.bytes;

  settings.warn_partial_read =
      !settings.two_buffers() && !settings.iflag.fullblock &&
      (settings.skip_records != 0 || (settings.max_records > 0 && settings.max_records != kNoLimit) ||
       settings.iflag.direct || settings.oflag.direct);

  // Debian's patch: printed once the operands are known good, before any
  // file is opened, whatever status= says.
  if (settings.oflag.append && !conv.notrunc) {
    diag.error(0, "you probably want conv=notrunc with oflag=append");
  }
  return true;
}

// ---------------------------------------------------------------------------
// --help and --version. The wording is ddtime's own.

void append_entries(std::string& out, Group group) {
  constexpr std::size_t kColumn = 17;
  constexpr std::size_t kWidth = 79;
  for (const OptionSpec& option : kCommandLine) {
    if (option.group != group) continue;
    std::string left;
    if (group == Group::kOperand) {
      left = fmt::format("  {}={}", option.name.view(), option.value_name.view());
    } else {
      left = fmt::format("      --{}", option.name.view());
      if (option.argument == Argument::kOptional) {
        left += fmt::format("[={}]", option.value_name.view());
      } else if (option.argument == Argument::kRequired) {
        left += fmt::format("={}", option.value_name.view());
      }
    }
    if (left.size() >= kColumn) left += "\n" + std::string(kColumn, ' ');
    // Wrap the description at word boundaries under its own column.
    std::string line = fmt::format("{:<{}}", left, kColumn);
    std::size_t line_start = line.rfind('\n') == std::string::npos ? 0 : line.rfind('\n') + 1;
    std::string_view words = option.description.view();
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
    out += line + "\n";
  }
}

std::string help_text(std::string_view program) {
  std::string out = fmt::format(
      "Usage: {0} [OPERAND]...\n"
      "  or:  {0} OPTION\n"
      "Copy a file in blocks, converting it on the way as the operands ask.\n"
      "\n"
      "Operands:\n",
      program);
  append_entries(out, Group::kOperand);
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
  append_entries(out, Group::kOption);
  out += "\nExtensions:\n";
  append_entries(out, Group::kExtension);
  return out;
}

bool invalid_extension_argument(const Token& token, const Diag& diag, std::string_view valid) {
  diag.error(0, fmt::format("invalid argument {} for {}", diag.quote(token.argument.value_or("")),
                            diag.quote(fmt::format("--{}", token.option->name.view()))));
  if (!valid.empty()) diag.raw(fmt::format("{}\n", valid));
  diag.try_help();
  return false;
}

bool apply_extension(const Token& token, Extensions& ext, const Diag& diag) {
  const std::string_view argument = token.argument.value_or(std::string_view());
  const std::string_view name = token.option->name.view();
  if (name == "gnu") {
    ext.gnu = true;
  } else if (name == "json") {
    ext.json = true;
    ext.json_path.reset();
    if (!argument.empty()) ext.json_path = std::string(argument);
  } else if (name == "units") {
    const UnitSymbol* match = find_symbol(kUnitSymbols, argument);
    if (match == nullptr) {
      return invalid_extension_argument(token, diag, "Valid arguments are: si, iec, both, bytes, all");
    }
    ext.units = match->units;
  } else if (name == "split-times") {
    ext.split_times = true;
  } else if (name == "align") {
    const ParsedNumber number = parse_number(argument);
    if (number.verdict != NumberVerdict::kOk || number.value <= 0 || (number.value & (number.value - 1)) != 0 ||
        number.value > (std::int64_t{1} << 30)) {
      return invalid_extension_argument(token, diag, "The alignment must be a power of two, at most 1G.");
    }
    ext.align = static_cast<std::size_t>(number.value);
  } else if (name == "direct") {
    ext.direct = true;
  } else if (name == "progress") {
    ext.progress = true;
  }
  return true;
}

// Invoked as dd, ddtime adds nothing unless an extension asks for it;
// invoked under any other name the timing report is on unless --gnu.
void resolve_extensions(Invocation invocation, Extensions& ext) {
  const bool as_dd = invocation == Invocation::kDd;
  ext.timing_report = !ext.gnu && (!as_dd || ext.units.has_value() || ext.split_times);
  ext.actionable_errors = !ext.gnu && !as_dd;
}

std::string version_text() {
  return "ddtime " DDTIME_VERSION
         "\n"
         "Written by the ddtime authors; free software with no warranty.\n";
}

}  // namespace

ParseOutcome parse_operands(int argc, const char* const* argv, const Diag& diag, Invocation invocation) {
  ParseOutcome outcome;
  const std::vector<Token> tokens = tokenize(argc, argv);

  // getopt reads every option before dd looks at a single operand, and the
  // first option that means anything ends the run.
  for (const Token& token : tokens) {
    if (token.kind == Token::Kind::kOptionError) {
      diag.error(0, token.message);
      diag.try_help();
      outcome.action = ParseOutcome::Action::kFail;
      return outcome;
    }
    if (token.kind != Token::Kind::kOption) continue;
    if (token.option->name.view() == "help") {
      outcome.action = ParseOutcome::Action::kPrintAndExit;
      outcome.stdout_text = help_text(diag.program());
      return outcome;
    }
    if (token.option->name.view() == "version") {
      outcome.action = ParseOutcome::Action::kPrintAndExit;
      outcome.stdout_text = version_text();
      return outcome;
    }
  }
  for (const Token& token : tokens) {
    if (token.kind == Token::Kind::kOption && token.option->group == Group::kExtension &&
        !apply_extension(token, outcome.settings.ext, diag)) {
      outcome.action = ParseOutcome::Action::kFail;
      return outcome;
    }
  }

  OperandReader reader(diag, outcome.settings);
  for (const Token& token : tokens) {
    if (token.kind == Token::Kind::kOption) continue;
    if (!reader.read(token.operand)) {
      outcome.action = ParseOutcome::Action::kFail;
      return outcome;
    }
  }
  outcome.action = finish(reader.sizes(), outcome.settings, diag) ? ParseOutcome::Action::kRun
                                                                  : ParseOutcome::Action::kFail;
  resolve_extensions(invocation, outcome.settings.ext);
  return outcome;
}

}  // namespace ddtime
