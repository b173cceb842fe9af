// SPDX-License-Identifier: GPL-3.0-or-later
#include "command_line.h"

#include <cstdlib>
#include <utility>

#include <fmt/format.h>

namespace ddtime {
namespace {

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
    {Group::kExtension, "iodepth", Argument::kRequired, "N",
     "keep up to N reads and writes in flight (1 to 1024; 1: one at a time, as dd)"},
    {Group::kExtension, "engine", Argument::kRequired, "ENGINE",
     "what moves the bytes: auto, io_uring, threads or sync"},
    {Group::kExtension, "repeat", Argument::kRequired, "N",
     "run the copy N times, reopening the files, and give the statistics of the runs"},
    {Group::kExtension, "warmup", Argument::kRequired, "M",
     "run the copy M times first, unmeasured"},
    {Group::kExtension, "sweep", Argument::kRequired, "KEY=LIST",
     "one row per setting: bs= or iodepth= a list (4k,64k,1M) or powers of two (4k..64M); bs=auto; bs=memory"},
    {Group::kExtension, "readback", Argument::kNone, "",
     "write, flush and drop the output's cached pages, then read it back: each timed apart"},
    {Group::kExtension, "verify", Argument::kNone, "",
     "compare the bytes read back with those written (implies --readback)"},
    {Group::kExtension, "preallocate", Argument::kNone, "",
     "reserve the whole output and write its last block before the timed copy"},
    {Group::kExtension, "pattern", Argument::kRequired, "WHAT",
     "copy generated bytes instead of if=: zero, ones, 0xHH, random or stamp"},
    {Group::kExtension, "latency", Argument::kNone, "",
     "time every read and write: percentiles and a histogram per side"},
    {Group::kExtension, "force", Argument::kNone, "",
     "let a session write to a block device that is mounted or in use"},
    {Group::kExtension, "csv", Argument::kOptional, "PATH",
     "one CSV line per run, to PATH, or to standard error in place of all other text"},
    {Group::kExtension, "cache", Argument::kRequired, "STATE",
     "before each run: cold, cold-system, warm or as-is; shows what was cached"},
    {Group::kExtension, "size", Argument::kRequired, "BYTES",
     "what each run copies, whatever its block size (in place of count=)"},
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
// Tokens.

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
    // --json alone: no argument at all, which "--json=" is not.
  } else {
    return option_error(fmt::format("option '--{}' requires an argument", found->name.view()));
  }
  return token;
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


}  // namespace

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

}  // namespace ddtime
