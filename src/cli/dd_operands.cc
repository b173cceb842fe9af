// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/dd_operands.h"

#include <fmt/format.h>

#include <cerrno>
#include <limits>
#include <string>

#include "model/symbols.h"

namespace ddtime {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
// GNU keeps block sizes one below the largest offset so that conv=swab's
// extra byte still fits; the allocation itself fails later, at run time.
constexpr std::int64_t kMaxBlockSize = kInt64Max - 1;

// The pairs of conversions and flags GNU refuses together, in its order.
struct GnuConflict {
  bool (*applies)(const Settings&);
  const char* message;
};

constexpr GnuConflict kGnuConflicts[] = {
    {[](const Settings& s) { return int{s.conv.ascii} + int{s.conv.ebcdic} + int{s.conv.ibm} > 1; },
     "cannot combine any two of {ascii,ebcdic,ibm}"},
    {[](const Settings& s) { return s.conv.block && s.conv.unblock; }, "cannot combine block and unblock"},
    {[](const Settings& s) { return s.conv.lcase && s.conv.ucase; }, "cannot combine lcase and ucase"},
    {[](const Settings& s) { return s.conv.excl && s.conv.nocreat; }, "cannot combine excl and nocreat"},
    {[](const Settings& s) { return (s.iflag.direct && s.iflag.nocache) || (s.oflag.direct && s.oflag.nocache); },
     "cannot combine direct and nocache"},
};

struct RecordsAndBytes {
  std::int64_t records = 0;
  std::int64_t bytes = 0;
};

RecordsAndBytes split(std::int64_t amount, bool in_bytes, std::int64_t block_size) {
  if (!in_bytes) return {amount, 0};
  return {amount / block_size, amount % block_size};
}

}  // namespace

DdOperands::DdOperands(const Diag& diag, Settings& settings, const RowsWanted& wanted)
    : diag_(diag), settings_(settings) {
  describe(wanted);
}

void DdOperands::describe(const RowsWanted& wanted) {
  auto text = [](auto store) { return po::value<Text>()->notifier([store](const Text& v) { store(v.text); }); };
  auto sized = [this](Range range) {
    return po::value<DdNumber>()->notifier([this, range](const DdNumber& v) { number(v, range); });
  };
  const Range ibs{1, kMaxBlockSize, &sizes_.ibs, nullptr};
  const Range obs{1, kMaxBlockSize, &sizes_.obs, nullptr};
  const Range bs{1, kMaxBlockSize, &sizes_.bs, nullptr};
  const Range cbs{1, kInt64Max, &settings_.cbs, nullptr};
  const Range skip{0, kInt64Max, &sizes_.skip, &sizes_.skip_in_bytes};
  const Range seek{0, kInt64Max, &sizes_.seek, &sizes_.seek_in_bytes};
  const Range count{0, kInt64Max, &sizes_.count, &sizes_.count_in_bytes};

  auto add = [&](const char* name, po::value_semantic* value, const char* words) {
    add_row(rows_, wanted, name, value, words);
  };
  // clang-format off
  add("if", text([this](std::string_view v) { settings_.input_file = std::string(v); })->value_name("FILE"),
      "take input from FILE rather than standard input");
  add("of", text([this](std::string_view v) { settings_.output_file = std::string(v); })->value_name("FILE"),
      "send output to FILE rather than standard output");
  add("ibs", sized(ibs)->value_name("BYTES"), "read input blocks of BYTES bytes (512 unless given)");
  add("obs", sized(obs)->value_name("BYTES"), "write output blocks of BYTES bytes (512 unless given)");
  add("bs", sized(bs)->value_name("BYTES"), "use BYTES for both block sizes, whatever ibs and obs say");
  add("cbs", sized(cbs)->value_name("BYTES"), "record length in bytes for the block and unblock conversions");
  add("skip", sized(skip)->value_name("N"), "pass over N input blocks (of ibs bytes) before copying");
  add("iseek", sized(skip)->value_name("N"), "another name for skip=N");
  add("seek", sized(seek)->value_name("N"), "move past N output blocks (of obs bytes) before writing");
  add("oseek", sized(seek)->value_name("N"), "another name for seek=N");
  add("count", sized(count)->value_name("N"), "stop after N input blocks");
  add("conv", text([this](std::string_view v) { conversions(v); })->value_name("CONVS"),
      "apply every conversion named in the comma-separated list CONVS");
  add("iflag", text([this](std::string_view v) { flags(v, settings_.iflag, "invalid input flag"); })
                   ->value_name("FLAGS"),
      "read the input as the comma-separated list FLAGS says");
  add("oflag", text([this](std::string_view v) { flags(v, settings_.oflag, "invalid output flag"); })
                   ->value_name("FLAGS"),
      "write the output as the comma-separated list FLAGS says");
  add("status", text([this](std::string_view v) { status(v); })->value_name("LEVEL"),
      "how much to report on standard error: none, noxfer or progress");
  // clang-format on
}

void DdOperands::unrecognized(std::string_view token) const {
  if (const std::size_t equals = token.find('='); equals != std::string_view::npos) {
    warn_if_zero_multiplier(parse_number(token.substr(equals + 1)));
  }
  diag_.error(0, fmt::format("unrecognized operand {}", diag_.quote(token)));
  diag_.try_help();
  throw Refused{};
}

void DdOperands::warn_if_zero_multiplier(const ParsedNumber& number) const {
  if (!number.zero_multiplier) return;
  diag_.error(0, fmt::format("warning: {} is a zero multiplier; use {} if that is intended", diag_.quote("0x"),
                             diag_.quote("00x")));
}

void DdOperands::number(const DdNumber& number, const Range& range) const {
  warn_if_zero_multiplier(number.parsed);
  NumberVerdict verdict = number.parsed.verdict;
  if (number.parsed.value < range.minimum) {
    verdict = NumberVerdict::kInvalid;
  } else if (number.parsed.value > range.maximum) {
    verdict = NumberVerdict::kOverflow;
  }
  if (verdict != NumberVerdict::kOk) {
    diag_.error(verdict == NumberVerdict::kOverflow ? EOVERFLOW : 0,
                fmt::format("invalid number: {}", diag_.quote(number.text)));
    throw Refused{};
  }
  *range.target = number.parsed.value;
  if (range.in_bytes != nullptr) *range.in_bytes = number.text.find('B') != std::string::npos;
}

void DdOperands::refuse_symbol(std::string_view what, std::string_view item) const {
  diag_.error(0, fmt::format("{}: {}", what, diag_.quote(item)));
  diag_.try_help();
  throw Refused{};
}

void DdOperands::conversions(std::string_view list) {
  Conversions& conv = settings_.conv;
  const auto bad = for_each_symbol(list, [&conv](std::string_view item) {
    const ConversionSymbol* symbol = find_symbol(kConversionSymbols, item);
    if (symbol == nullptr) return false;
    conv.*(symbol->flag) = true;
    if (symbol->implied != nullptr) conv.*(symbol->implied) = true;
    return true;
  });
  if (bad) refuse_symbol("invalid conversion", *bad);
}

void DdOperands::flags(std::string_view list, IoFlags& flags, std::string_view what) {
  const auto bad = for_each_symbol(list, [&flags](std::string_view item) {
    const FlagSymbol* symbol = find_symbol(kFlagSymbols, item);
    if (symbol == nullptr) return false;
    flags.*(symbol->flag) = true;
    return true;
  });
  if (bad) refuse_symbol(what, *bad);
}

void DdOperands::status(std::string_view list) {
  StatusLevel& status = settings_.status;
  const auto bad = for_each_symbol(list, [&status](std::string_view item) {
    const StatusSymbol* symbol = find_symbol(kStatusSymbols, item);
    if (symbol == nullptr) return false;
    status = symbol->level;  // the last level named wins
    return true;
  });
  if (bad) refuse_symbol("invalid status level", *bad);
}

bool DdOperands::finish(bool csv_on_stderr) {
  Settings& settings = settings_;
  settings.bs_given = sizes_.bs != 0;
  settings.ibs = sizes_.bs != 0 ? sizes_.bs : sizes_.ibs != 0 ? sizes_.ibs : 512;
  settings.obs = sizes_.bs != 0 ? sizes_.bs : sizes_.obs != 0 ? sizes_.obs : 512;

  Conversions& conv = settings.conv;
  settings.block_or_unblock_requested = conv.block || conv.unblock;
  if (settings.cbs == 0) conv.block = conv.unblock = false;

  if (settings.oflag.fullblock) {
    diag_.error(0, fmt::format("invalid output flag: {}", diag_.quote("fullblock")));
    diag_.try_help();
    return false;
  }
  for (const GnuConflict& conflict : kGnuConflicts) {
    if (conflict.applies(settings)) {
      diag_.error(0, conflict.message);
      return false;
    }
  }

  // A 'B' in the value means bytes, as the matching *_bytes flag would.
  settings.iflag.skip_bytes = settings.iflag.skip_bytes || sizes_.skip_in_bytes;
  settings.iflag.count_bytes = settings.iflag.count_bytes || sizes_.count_in_bytes;
  settings.oflag.seek_bytes = settings.oflag.seek_bytes || sizes_.seek_in_bytes;

  const RecordsAndBytes skip = split(sizes_.skip, settings.iflag.skip_bytes, settings.ibs);
  settings.skip_records = skip.records;
  settings.skip_bytes = skip.bytes;
  const RecordsAndBytes seek = split(sizes_.seek, settings.oflag.seek_bytes, settings.obs);
  settings.seek_records = seek.records;
  settings.seek_bytes = seek.bytes;
  // count=9223372036854775807 is no limit at all, as in GNU.
  const RecordsAndBytes count = sizes_.count == kNoLimit
                                    ? RecordsAndBytes{kNoLimit, 0}
                                    : split(sizes_.count, settings.iflag.count_bytes, settings.ibs);
  settings.max_records = count.records;
  settings.max_bytes = count.bytes;

  // Debian's patch: printed once the operands are known good, before any
  // file is opened, whatever status= says.
  if (settings.oflag.append && !conv.notrunc && !csv_on_stderr) {
    diag_.error(0, "you probably want conv=notrunc with oflag=append");
  }
  return true;
}

}  // namespace ddtime
