// SPDX-License-Identifier: GPL-3.0-or-later
#include "operands.h"

#include <algorithm>
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

#include "command_line.h"
#include "number.h"
#include "pattern.h"
#include "symbols.h"

namespace ddtime {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
// GNU keeps block sizes one below the largest offset so that conv=swab's
// extra byte still fits; the allocation itself fails later, at run time.
constexpr std::int64_t kMaxBlockSize = kInt64Max - 1;


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

// The pairs of conversions and flags GNU refuses together, in its order.
const char* conflict_in(const Settings& settings) {
  const Conversions& conv = settings.conv;
  if (int{conv.ascii} + int{conv.ebcdic} + int{conv.ibm} > 1) return "cannot combine any two of {ascii,ebcdic,ibm}";
  if (conv.block && conv.unblock) return "cannot combine block and unblock";
  if (conv.lcase && conv.ucase) return "cannot combine lcase and ucase";
  if (conv.excl && conv.nocreat) return "cannot combine excl and nocreat";
  if ((settings.iflag.direct && settings.iflag.nocache) || (settings.oflag.direct && settings.oflag.nocache)) {
    return "cannot combine direct and nocache";
  }
  return nullptr;
}

// csv_on_stderr: --csv without a PATH, whose lines take the place of all
// text there, so a warning has nowhere to go.
bool finish(const SizeOperands& sizes, Settings& settings, const Diag& diag, bool csv_on_stderr) {
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
  if (const char* conflict = conflict_in(settings); conflict != nullptr) {
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

  settings.warn_partial_read = settings.partial_read_matters();

  // Debian's patch: printed once the operands are known good, before any
  // file is opened, whatever status= says.
  if (settings.oflag.append && !conv.notrunc && !csv_on_stderr) {
    diag.error(0, "you probably want conv=notrunc with oflag=append");
  }
  return true;
}


bool invalid_extension_argument(const Token& token, const Diag& diag, std::string_view valid) {
  diag.error(0, fmt::format("invalid argument {} for {}", diag.quote(token.argument.value_or("")),
                            diag.quote(fmt::format("--{}", token.option->name.view()))));
  if (!valid.empty()) diag.raw(fmt::format("{}\n", valid));
  diag.try_help();
  return false;
}

// "--json=" with nothing after it: a script's unset variable, which would
// otherwise send the report to stderr in place of all its text.
bool empty_path(const Token& token, const Diag& diag) {
  return invalid_extension_argument(
      token, diag,
      fmt::format("A PATH names the file the report goes to; --{} alone puts it on standard error in place of the text.",
                  token.option->name.view()));
}

// A count of runs: --repeat from 1, --warmup from 0.
bool parse_runs(const Token& token, unsigned least, unsigned& runs, const Diag& diag) {
  const ParsedNumber number = parse_number(token.argument.value_or(std::string_view()));
  if (number.verdict != NumberVerdict::kOk || number.value < least || number.value > Plan::kMaxRuns) {
    return invalid_extension_argument(
        token, diag, fmt::format("The count must be a whole number from {} to {}.", least, Plan::kMaxRuns));
  }
  runs = static_cast<unsigned>(number.value);
  return true;
}

// A sweep's LIST: values with dd's number syntax, separated by commas,
// where "A..B" stands for A, 2A, 4A ... up to B, each in [least, most],
// each once (4k and 4096 are one setting). On error, the values are left
// as they were and the words say what is wrong ("" when it is the list's
// form, which the caller explains).
struct SweepList {
  std::vector<std::int64_t> values;
  std::string error;  // empty: values holds the list
};

SweepList parse_sweep_list(std::string_view list, std::int64_t least, std::int64_t most,
                           std::string_view too_large) {
  SweepList out;
  auto value_of = [&](std::string_view text) -> std::optional<std::int64_t> {
    const ParsedNumber number = parse_number(text);
    if (number.verdict == NumberVerdict::kOverflow || (number.verdict == NumberVerdict::kOk && number.value > most)) {
      out.error = fmt::format("{} is more than {}.", text, too_large);
      return std::nullopt;
    }
    if (number.verdict != NumberVerdict::kOk || number.value < least) return std::nullopt;
    return number.value;
  };
  std::vector<std::string_view> texts;  // what named each value
  auto add = [&](std::int64_t value, std::string_view text) {
    const auto seen = std::find(out.values.begin(), out.values.end(), value);
    if (seen != out.values.end()) {
      out.error = fmt::format("{} is in the list twice ({} and {}): each setting runs once.", value,
                              texts[static_cast<std::size_t>(seen - out.values.begin())], text);
      return false;
    }
    out.values.push_back(value);
    texts.push_back(text);
    return true;
  };
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    if (const std::size_t dots = item.find(".."); dots != std::string_view::npos) {
      const auto from = value_of(item.substr(0, dots));
      const auto to = from ? value_of(item.substr(dots + 2)) : std::nullopt;
      if (!from || !to) return {{}, out.error};
      if (*to < *from) return {{}, fmt::format("{} runs backwards: the first size is the smaller.", item)};
      for (std::int64_t v = *from; v <= *to; v *= 2) {
        if (!add(v, item)) return {{}, out.error};
        if (v > most / 2) break;
      }
    } else if (const auto v = value_of(item)) {
      if (!add(*v, item)) return {{}, out.error};
    } else {
      return {{}, out.error};
    }
    if (comma == std::string_view::npos) return out;
    list.remove_prefix(comma + 1);
  }
}

bool parse_sweep(const Token& token, Plan& plan, const Diag& diag) {
  const std::string_view argument = token.argument.value_or(std::string_view());
  constexpr std::string_view kBs = "bs=";
  constexpr std::string_view kDepth = "iodepth=";
  if (argument == "bs=auto") {
    plan.sweep_bs_auto = true;
    plan.sweep_bs_memory = false;
    plan.sweep_bs.clear();
    return true;
  }
  if (argument == "bs=memory") {
    plan.sweep_bs_memory = true;
    plan.sweep_bs_auto = false;
    plan.sweep_bs.clear();
    return true;
  }
  if (argument.starts_with(kBs)) {
    plan.sweep_bs_auto = plan.sweep_bs_memory = false;
    SweepList sizes = parse_sweep_list(argument.substr(kBs.size()), 1, std::int64_t{1} << 40,
                                       "1T, the largest block size a sweep takes");
    if (!sizes.values.empty()) {
      plan.sweep_bs = std::move(sizes.values);
      return true;
    }
    return invalid_extension_argument(
        token, diag,
        sizes.error.empty() ? "A block size list is like 4k,64k,1M or 4k..64M, or auto, or memory." : sizes.error);
  }
  if (argument.starts_with(kDepth)) {
    SweepList depths = parse_sweep_list(argument.substr(kDepth.size()), 1, Plan::kMaxIodepth,
                                        "1024, the deepest queue");
    if (!depths.values.empty()) {
      plan.sweep_iodepth.assign(depths.values.begin(), depths.values.end());
      return true;
    }
    return invalid_extension_argument(
        token, diag, depths.error.empty() ? "A depth list is like 1,4,32 or 1..32, each from 1 to 1024." : depths.error);
  }
  return invalid_extension_argument(token, diag, "Valid arguments are: bs=LIST, iodepth=LIST");
}

bool apply_extension(const Token& token, Extensions& ext, Plan& plan, const Diag& diag) {
  const std::string_view argument = token.argument.value_or(std::string_view());
  const std::string_view name = token.option->name.view();
  if (name == "gnu") {
    ext.gnu = true;
  } else if (name == "json") {
    if (token.argument && argument.empty()) return empty_path(token, diag);
    ext.json = true;
    ext.json_path.reset();
    if (token.argument) ext.json_path = std::string(argument);
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
    // posix_memalign takes nothing below the size of a pointer.
    if (number.verdict != NumberVerdict::kOk || number.value < 8 || (number.value & (number.value - 1)) != 0 ||
        number.value > (std::int64_t{1} << 30)) {
      return invalid_extension_argument(token, diag, "The alignment must be a power of two from 8 to 1G.");
    }
    ext.align = static_cast<std::size_t>(number.value);
  } else if (name == "direct") {
    ext.direct = true;
  } else if (name == "progress") {
    ext.progress = true;
  } else if (name == "iodepth") {
    const ParsedNumber number = parse_number(argument);
    if (number.verdict == NumberVerdict::kOverflow ||
        (number.verdict == NumberVerdict::kOk && number.value > Plan::kMaxIodepth)) {
      // 4k is a whole number, dd's way: only too large.
      return invalid_extension_argument(
          token, diag,
          number.verdict == NumberVerdict::kOk
              ? fmt::format("{} is more than 1024, the deepest queue.", number.value)
              : std::string("The depth is more than 1024, the deepest queue."));
    }
    if (number.verdict != NumberVerdict::kOk || number.value < 1) {
      return invalid_extension_argument(token, diag, "The depth must be a whole number from 1 to 1024.");
    }
    plan.iodepth = static_cast<unsigned>(number.value);
    plan.iodepth_given = true;
  } else if (name == "engine") {
    const EngineSymbol* match = find_symbol(kEngineSymbols, argument);
    if (match == nullptr) {
      return invalid_extension_argument(token, diag, "Valid arguments are: auto, io_uring, threads, sync");
    }
    plan.engine = match->engine;
    plan.engine_given = true;
  } else if (name == "repeat") {
    return parse_runs(token, 1, plan.repeat, diag);
  } else if (name == "warmup") {
    return parse_runs(token, 0, plan.warmup, diag);
  } else if (name == "sweep") {
    return parse_sweep(token, plan, diag);
  } else if (name == "pattern") {
    PatternSpec spec;
    if (!parse_pattern(argument, spec)) {
      return invalid_extension_argument(token, diag, "Valid arguments are: zero, ones, 0xHH, random, stamp");
    }
    plan.pattern = spec;
  } else if (name == "csv") {
    if (token.argument && argument.empty()) return empty_path(token, diag);
    plan.csv = true;
    plan.csv_path.reset();
    if (token.argument) plan.csv_path = std::string(argument);
  } else if (name == "latency") {
    plan.latency = true;
  } else if (name == "force") {
    plan.force = true;
  } else if (name == "readback") {
    plan.readback = true;
  } else if (name == "verify") {
    plan.verify = plan.readback = true;
  } else if (name == "preallocate") {
    plan.preallocate = true;
  } else if (name == "cache") {
    const CacheSymbol* match = find_symbol(kCacheSymbols, argument);
    if (match == nullptr) {
      return invalid_extension_argument(token, diag, "Valid arguments are: as-is, cold, cold-system, warm");
    }
    plan.cache = match->mode;
    plan.cache_given = true;
  } else if (name == "size") {
    const ParsedNumber number = parse_number(argument);
    if (number.verdict != NumberVerdict::kOk || number.value < 1) {
      return invalid_extension_argument(token, diag, "The size is a number of bytes, as for count= with count_bytes.");
    }
    plan.size = number.value;
  }
  return true;
}

// The queued engine copies bs= blocks straight, each record on its own:
// what depends on reading strictly one record after another, or on
// changing the bytes, is refused here, before any file is opened, naming
// the operand. (An input that cannot seek is found only once it is open:
// it runs at depth 1, and the report says so.)
bool check_plan(const Settings& settings, const Plan& given, const Diag& diag) {
  if (given.sweep_bs_memory && (settings.input_file || settings.output_file || given.pattern)) {
    diag.error(0, "--sweep=bs=memory copies /dev/zero to /dev/null; it takes no if=, of= or --pattern");
    return false;
  }
  if (given.sweep_bs_auto && !given.sweep_iodepth.empty()) {
    diag.error(0, "--sweep=bs=auto searches one block size at a time; it does not combine with --sweep=iodepth");
    return false;
  }
  if (given.readback && (given.repeat > 1 || given.warmup > 0 || given.sweeps_bs() ||
                         !given.sweep_iodepth.empty())) {
    diag.error(0, "--readback runs its passes once; it does not combine with --repeat, --warmup or --sweep");
    return false;
  }
  if (given.csv && !given.csv_path && settings.ext.json && !settings.ext.json_path) {
    diag.error(0, "--csv and --json cannot both take the place of the text on standard error: give one a PATH");
    return false;
  }
  if (given.pattern) {
    const char* clash = settings.input_file ? "if=" : settings.skip_records != 0 || settings.skip_bytes != 0 ? "skip="
                        : settings.iflag.direct || settings.iflag.nocache || settings.iflag.dsync || settings.iflag.sync
                            ? "iflag="
                            : nullptr;
    if (clash != nullptr) {
      diag.error(0, "--pattern takes the place of the input: it does not combine with {}", clash);
      return false;
    }
  }
  if (given.readback && !settings.output_file) {
    diag.error(0, "--readback reads the output back: name it with of=");
    return false;
  }
  if (given.verify && settings.converts()) {
    diag.error(0, "--verify compares the bytes written with the input's, which a conversion changes");
    return false;
  }
  if (given.size && settings.max_records != kNoLimit) {
    diag.error(0, "--size does not combine with count=: each says how much to copy");
    return false;
  }
  // A depth sweep is held to what its deepest row needs.
  Plan plan = given;
  const bool depth_sweep = !given.sweep_iodepth.empty();
  if (depth_sweep) {
    plan.iodepth = *std::max_element(given.sweep_iodepth.begin(), given.sweep_iodepth.end());
    plan.iodepth_given = true;
  }
  const std::string depth_name =
      depth_sweep ? std::string("--sweep=iodepth") : fmt::format("--iodepth={}", plan.iodepth);
  if (plan.engine == EngineChoice::kSync && plan.iodepth > 1) {
    diag.error(0, fmt::format("--engine=sync keeps one I/O in flight; it does not combine with {}", depth_name));
    return false;
  }
  if (!plan.queued()) return true;
  const std::string asked = plan.iodepth_given ? depth_name
                                               : fmt::format("--engine={}", plan.engine == EngineChoice::kIoUring
                                                                                 ? "io_uring"
                                                                                 : "threads");
  auto refuse = [&](std::string_view operand) {
    diag.error(0, fmt::format("{} does not combine with {}", asked, operand));
    return false;
  };
  for (const ConversionSymbol& symbol : kConversionSymbols) {
    const bool refused = symbol.flag != &Conversions::excl && symbol.flag != &Conversions::nocreat &&
                         symbol.flag != &Conversions::notrunc && symbol.flag != &Conversions::fdatasync &&
                         symbol.flag != &Conversions::fsync;
    if (refused && settings.conv.*symbol.flag) return refuse(fmt::format("conv={}", symbol.name.view()));
  }
  if (settings.iflag.nocache) return refuse("iflag=nocache");
  if (settings.oflag.nocache) return refuse("oflag=nocache");
  // conv=block or unblock without cbs= does nothing to the bytes, yet GNU
  // copies through two buffers then.
  if (settings.block_or_unblock_requested) return refuse("conv=block or conv=unblock");
  // ibs=obs without bs= reblocks, which on a file that can seek (the only
  // kind read at depth) changes nothing: only short reads could differ.
  if (settings.ibs != settings.obs) {
    diag.error(0, fmt::format("{} needs bs=, not ibs= and obs=", asked));
    return false;
  }
  return true;
}

// Invoked as dd, ddtime adds nothing unless an extension asks for it (a
// report option named outright: --units, --split-times, --latency);
// invoked under any other name the timing report is on unless --gnu.
void resolve_extensions(Invocation invocation, const Plan& plan, Extensions& ext) {
  const bool as_dd = invocation == Invocation::kDd;
  ext.timing_report = !ext.gnu && (!as_dd || ext.units.has_value() || ext.split_times || plan.latency);
  ext.actionable_errors = !ext.gnu && !as_dd;
}

std::string version_text() {
  return "ddtime " DDTIME_VERSION
         "\n"
         "Written by the ddtime authors; free software with no warranty.\n";
}

}  // namespace

bool json_replaces_text(int argc, const char* const* argv) {
  bool replaces = false;
  for (const Token& token : tokenize(argc, argv)) {
    if (token.kind == Token::Kind::kOption && token.option->name.view() == "json") replaces = !token.argument;
  }
  return replaces;
}

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
        !apply_extension(token, outcome.settings.ext, outcome.plan, diag)) {
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
  const bool csv_on_stderr = outcome.plan.csv && !outcome.plan.csv_path;
  outcome.action = finish(reader.sizes(), outcome.settings, diag, csv_on_stderr) &&
                           check_plan(outcome.settings, outcome.plan, diag)
                       ? ParseOutcome::Action::kRun
                       : ParseOutcome::Action::kFail;
  resolve_extensions(invocation, outcome.plan, outcome.settings.ext);
  return outcome;
}

}  // namespace ddtime
