// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/options.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "measure/pattern.h"
#include "model/symbols.h"
#include "report/output_formats.h"
#include "system/ring_registry.h"

namespace ddtime {
namespace {

// ---------------------------------------------------------------------------
// Value checks the rows' notifiers share. Each throws BadArgument with the
// line that tells the user what the option takes.

// A count of runs: --repeat from 1, --warmup from 0.
unsigned runs(const DdNumber& number, unsigned least) {
  if (number.parsed.verdict != NumberVerdict::kOk || number.parsed.value < least ||
      number.parsed.value > Plan::kMaxRuns) {
    throw BadArgument{fmt::format("The count must be a whole number from {} to {}.", least, Plan::kMaxRuns)};
  }
  return static_cast<unsigned>(number.parsed.value);
}

unsigned depth(const DdNumber& number) {
  const ParsedNumber& n = number.parsed;
  if (n.verdict == NumberVerdict::kOverflow || (n.verdict == NumberVerdict::kOk && n.value > Plan::kMaxIodepth)) {
    // 4k is a whole number, dd's way: only too large.
    throw BadArgument{n.verdict == NumberVerdict::kOk ? fmt::format("{} is more than 1024, the deepest queue.", n.value)
                                                      : std::string("The depth is more than 1024, the deepest queue.")};
  }
  if (n.verdict != NumberVerdict::kOk || n.value < 1) {
    throw BadArgument{"The depth must be a whole number from 1 to 1024."};
  }
  return static_cast<unsigned>(n.value);
}

// --jobs=N: 1 to kMaxJobs submitters.
unsigned job_count(const DdNumber& number) {
  const ParsedNumber& n = number.parsed;
  if (n.verdict != NumberVerdict::kOk || n.value < 1 || n.value > Plan::kMaxJobs) {
    throw BadArgument{fmt::format("The jobs are a whole number from 1 to {}.", Plan::kMaxJobs)};
  }
  return static_cast<unsigned>(n.value);
}

std::size_t alignment(const DdNumber& number) {
  const ParsedNumber& n = number.parsed;
  // posix_memalign takes nothing below the size of a pointer.
  if (n.verdict != NumberVerdict::kOk || n.value < 8 || (n.value & (n.value - 1)) != 0 ||
      n.value > (std::int64_t{1} << 30)) {
    throw BadArgument{"The alignment must be a power of two from 8 to 1G."};
  }
  return static_cast<std::size_t>(n.value);
}

// --random=SEED: a decimal number below 2^63, which JSON carries exactly
// as an integer.
std::uint64_t random_seed(const std::string& text) {
  std::int64_t seed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || seed < 0) {
    throw BadArgument{"Valid arguments are: a decimal number from 0 to 9223372036854775807"};
  }
  return static_cast<std::uint64_t>(seed);
}

// --time, --ramp and --timeline: a duration (number.h), from a
// millisecond to a week.
std::int64_t duration(const std::string& text) {
  const std::optional<std::int64_t> ns = parse_duration_ns(text);
  if (ns && *ns >= 1'000'000 && *ns <= std::int64_t{7} * 24 * 3'600'000'000'000) return *ns;
  throw BadArgument{"A duration is a number and a unit, ms, s, m or h (30s, 500ms, 2m), from 1ms to a week."};
}

// --steady=LIMIT: a percentage, 10 or 10%.
double steady_limit(const std::string& text) {
  const std::optional<double> value = parse_percentage(text);
  if (!value || !(*value > 0 && *value <= 100)) {
    throw BadArgument{"The limit is a percentage above 0 and at most 100, such as 10 or 10%."};
  }
  return *value;
}

// --engine='s words: auto, the rings of ring_registry in their order, then
// sync, each separated by a comma but the last, by last_separator; after
// prefix. Writes into out unless it is null; returns the length. At
// compile time, so that the help stays a constant.
constexpr std::size_t join_engine_words(char* out, std::string_view prefix, std::string_view last_separator) {
  std::size_t size = 0;
  const auto put = [&](std::string_view text) {
    for (const char c : text) {
      if (out != nullptr) out[size] = c;
      ++size;
    }
  };
  std::string_view words[std::size(kEngineSymbols) + std::size(kRingEngines)] = {};
  std::size_t count = 0;
  words[count++] = kEngineSymbols[0].name.view();
  for (const RingEngine& ring : kRingEngines) words[count++] = ring.word.view();
  for (std::size_t i = 1; i < std::size(kEngineSymbols); ++i) words[count++] = kEngineSymbols[i].name.view();
  put(prefix);
  for (std::size_t i = 0; i < count; ++i) {
    if (i != 0) put(i + 1 == count ? last_separator : ", ");
    put(words[i]);
  }
  return size;
}

// "auto, io_uring, threads, libaio, sync", null-terminated.
constexpr auto kEngineWords = [] {
  std::array<char, join_engine_words(nullptr, "", ", ") + 1> text{};
  join_engine_words(text.data(), "", ", ");
  return text;
}();

constexpr auto kEngineHelp = [] {
  constexpr std::string_view kPrefix = "what moves the bytes: ";
  std::array<char, join_engine_words(nullptr, kPrefix, " or ") + 1> text{};
  join_engine_words(text.data(), kPrefix, " or ");
  return text;
}();

template <typename Table>
auto symbol(const Table& table, std::string_view word, std::string_view valid) {
  const auto* match = find_symbol(table, word);
  if (match == nullptr) throw BadArgument{fmt::format("Valid arguments are: {}", valid)};
  return match;
}

// A sweep's LIST: values with dd's number syntax, separated by commas,
// where "A..B" stands for A, 2A, 4A ... up to B, each in [least, most],
// each once (4k and 4096 are one setting). A value out of range, a
// repeat or a range that runs backwards throws with what is wrong; any
// other mistake in the list's form throws form_hint.
class SweepList {
 public:
  SweepList(std::int64_t least, std::int64_t most, std::string_view too_large, std::string_view form_hint)
      : least_(least), most_(most), too_large_(too_large), form_hint_(form_hint) {}

  std::vector<std::int64_t> parse(std::string_view list) {
    while (true) {
      const std::size_t comma = list.find(',');
      const std::string_view item = list.substr(0, comma);
      if (const std::size_t dots = item.find(".."); dots != std::string_view::npos) {
        const std::int64_t from = value_of(item.substr(0, dots));
        const std::int64_t to = value_of(item.substr(dots + 2));
        if (to < from) throw BadArgument{fmt::format("{} runs backwards: the first size is the smaller.", item)};
        for (std::int64_t v = from; v <= to; v *= 2) {
          add(v, item);
          if (v > most_ / 2) break;
        }
      } else {
        add(value_of(item), item);
      }
      if (comma == std::string_view::npos) return values_;
      list.remove_prefix(comma + 1);
    }
  }

 private:
  std::int64_t value_of(std::string_view text) const {
    const ParsedNumber number = parse_number(text);
    if (number.verdict == NumberVerdict::kOverflow || (number.verdict == NumberVerdict::kOk && number.value > most_)) {
      throw BadArgument{fmt::format("{} is more than {}.", text, too_large_)};
    }
    if (number.verdict != NumberVerdict::kOk || number.value < least_) throw BadArgument{std::string(form_hint_)};
    return number.value;
  }

  void add(std::int64_t value, std::string_view text) {
    const auto seen = std::find(values_.begin(), values_.end(), value);
    if (seen != values_.end()) {
      throw BadArgument{fmt::format("{} is in the list twice ({} and {}): each setting runs once.", value,
                                    texts_[static_cast<std::size_t>(seen - values_.begin())], text)};
    }
    values_.push_back(value);
    texts_.push_back(text);
  }

  std::int64_t least_;
  std::int64_t most_;
  std::string_view too_large_;
  std::string_view form_hint_;
  std::vector<std::int64_t> values_;
  std::vector<std::string_view> texts_;  // what named each value
};

void sweep(std::string_view argument, Plan& plan) {
  constexpr std::string_view kBs = "bs=";
  constexpr std::string_view kDepth = "iodepth=";
  if (argument == "bs=auto" || argument == "bs=memory") {
    plan.sweep_bs_auto = argument == "bs=auto";
    plan.sweep_bs_memory = !plan.sweep_bs_auto;
    plan.sweep_bs.clear();
  } else if (argument.starts_with(kBs)) {
    plan.sweep_bs_auto = plan.sweep_bs_memory = false;
    plan.sweep_bs = SweepList(1, std::int64_t{1} << 40, "1T, the largest block size a sweep takes",
                              "A block size list is like 4k,64k,1M or 4k..64M, or auto, or memory.")
                        .parse(argument.substr(kBs.size()));
  } else if (argument.starts_with(kDepth)) {
    const std::vector<std::int64_t> depths = SweepList(1, Plan::kMaxIodepth, "1024, the deepest queue",
                                                       "A depth list is like 1,4,32 or 1..32, each from 1 to 1024.")
                                                 .parse(argument.substr(kDepth.size()));
    plan.sweep_iodepth.assign(depths.begin(), depths.end());
  } else {
    throw BadArgument{"Valid arguments are: bs=LIST, iodepth=LIST"};
  }
}

template <typename T, typename Store>
po::typed_value<T>* row(Store store, const char* value_name = "") {
  po::typed_value<T>* value = po::value<T>()->notifier(std::move(store));
  if constexpr (std::is_same_v<T, Switch>) {
    value->zero_tokens();
  } else if constexpr (std::is_same_v<T, OptionalText>) {
    value->implicit_value(OptionalText{}, "");
  }
  return *value_name != '\0' ? value->value_name(value_name) : value;
}

}  // namespace

DdtimeOptions::DdtimeOptions(Extensions& ext, Plan& plan, const RowsWanted& wanted) : ext_(ext), plan_(plan) {
  if (!wanted.names_options()) return;
  describe_reports(wanted);
  describe_io(wanted);
  describe_sessions(wanted);
  describe_time(wanted);
  describe_profile(wanted);
}

void DdtimeOptions::describe_reports(const RowsWanted& wanted) {
  auto add = [&](const char* name, po::value_semantic* value, const char* words) {
    add_row(rows_, wanted, name, value, words);
  };
  add("gnu", row<Switch>([this](Switch) { ext_.gnu = true; }), "print only what GNU dd would print (no timing report)");
  // One row per report format, from the formats' table. An empty PATH is
  // a script's unset variable, which would otherwise send the report to
  // stderr in place of all its text.
  for (const OutputFormat& format : output_formats()) {
    auto ask = [this, &format](const std::optional<std::string>& path) {
      if (path && path->empty()) throw BadArgument{format.empty_path};
      plan_.ask_output(format.name, path);
    };
    using Row = po::value_semantic*;
    add(format.name,
        format.path_required ? Row{row<Text>([ask](const Text& v) { ask(v.text); }, "PATH")}
                             : Row{row<OptionalText>([ask](const OptionalText& v) { ask(v.text); }, "PATH")},
        format.help);
  }
  add("units",
      row<Text>(
          [this](const Text& v) { ext_.units = symbol(kUnitSymbols, v.text, "si, iec, both, bytes, all")->units; },
          "UNITS"),
      "rates in the timing report: si, iec, both, bytes or all");
  add("split-times", row<Switch>([this](Switch) { ext_.split_times = true; }),
      "measure the time spent in read and in write calls separately");
}

void DdtimeOptions::describe_io(const RowsWanted& wanted) {
  auto add = [&](const char* name, po::value_semantic* value, const char* words) {
    add_row(rows_, wanted, name, value, words);
  };
  add("align", row<DdNumber>([this](const DdNumber& v) { ext_.align = alignment(v); }, "N"),
      "align buffers to N bytes (a power of two) instead of what the files need");
  add("direct", row<Switch>([this](Switch) { ext_.direct = true; }),
      "iflag=direct and oflag=direct on each side that is not a character device");
  add("progress", row<Switch>([this](Switch) { ext_.progress = true; }),
      "show percentage, rate and time left when the total is known");
  add("iodepth",
      row<DdNumber>(
          [this](const DdNumber& v) {
            plan_.iodepth = depth(v);
            plan_.iodepth_given = true;
          },
          "N"),
      "keep up to N reads and writes in flight (1 to 1024; 1: one at a time, as dd)");
  add("jobs", row<DdNumber>([this](const DdNumber& v) { plan_.jobs = job_count(v); }, "N"),
      "N submitting threads, each with its own ring and --iodepth, sharing the range (1 to 64)");
  add("engine",
      row<Text>(
          [this](const Text& v) {
            const RingEngine* ring = find_ring_engine(std::string_view(v.text));
            plan_.engine = ring != nullptr ? ring->choice : symbol(kEngineSymbols, v.text, kEngineWords.data())->engine;
            plan_.engine_given = true;
          },
          "ENGINE"),
      kEngineHelp.data());
}

namespace {

// --mix's PERCENT: a whole number from 0 to 100.
unsigned mix_percent(std::string_view text) {
  unsigned percent = 0;
  const char* end = text.data() + text.size();
  const auto [at, err] = std::from_chars(text.data(), end, percent);
  if (err != std::errc{} || at != end || text.empty() || percent > 100) {
    throw BadArgument{"Valid arguments are: 0 to 100, the percentage of the I/Os that are reads"};
  }
  return percent;
}

}  // namespace

void DdtimeOptions::describe_sessions(const RowsWanted& wanted) {
  auto add = [&](const char* name, po::value_semantic* value, const char* words) {
    add_row(rows_, wanted, name, value, words);
  };
  add("repeat",
      row<DdNumber>(
          [this](const DdNumber& v) {
            plan_.repeat = runs(v, 1);
            plan_.repeat_given = true;
          },
          "N"),
      "run the copy N times, reopening the files, and give the statistics of the runs");
  add("warmup",
      row<DdNumber>(
          [this](const DdNumber& v) {
            plan_.warmup = runs(v, 0);
            plan_.warmup_given = true;
          },
          "M"),
      "run the copy M times first, unmeasured");
  add("sweep", row<Text>([this](const Text& v) { sweep(v.text, plan_); }, "KEY=LIST"),
      "one row per setting: bs= or iodepth= a list (4k,64k,1M) or powers of two (4k..64M); bs=auto; bs=memory");
  add("readback", row<Switch>([this](Switch) { plan_.readback = true; }),
      "write, flush and drop the output's cached pages, then read it back: each timed apart");
  add("verify", row<Switch>([this](Switch) { plan_.verify = plan_.readback = true; }),
      "compare the bytes read back with those written (implies --readback)");
  add("preallocate", row<Switch>([this](Switch) { plan_.preallocate = true; }),
      "reserve the whole output and write its last block before the timed copy");
  add("pattern",
      row<Text>(
          [this](const Text& v) {
            PatternSpec spec;
            if (!parse_pattern(v.text, spec)) throw BadArgument{"Valid arguments are: zero, ones, 0xHH, random, stamp"};
            plan_.pattern = spec;
          },
          "WHAT"),
      "copy generated bytes instead of if=: zero, ones, 0xHH, random or stamp");
  add("mix",
      row<Text>(
          [this](const Text& v) {
            plan_.mix = mix_percent(v.text);
            // The writes' data: --pattern's, random unless it says.
            if (!plan_.pattern) plan_.pattern = PatternSpec{PatternKind::kRandom, 0};
          },
          "PERCENT"),
      "read and write of= at once: PERCENT of the I/Os reads, the rest writes of --pattern's data (random)");
  add("latency", row<Switch>([this](Switch) { plan_.latency = true; }),
      "time every read and write: percentiles and a histogram per side");
  add("random",
      row<OptionalText>(
          [this](const OptionalText& v) {
            plan_.random = true;
            if (v.text) plan_.random_seed = random_seed(*v.text);
          },
          "SEED"),
      "copy the range's bs= blocks in a random order, each once (SEED repeats an order)");
}

void DdtimeOptions::describe_time(const RowsWanted& wanted) {
  auto add = [&](const char* name, po::value_semantic* value, const char* words) {
    add_row(rows_, wanted, name, value, words);
  };
  add("time", row<Text>([this](const Text& v) { plan_.time_ns = duration(v.text); }, "DURATION"),
      "run each copy that long (30s, 2m), going over its range again; count= or --size sets the range");
  add("ramp", row<Text>([this](const Text& v) { plan_.ramp_ns = duration(v.text); }, "DURATION"),
      "with --time: copy that long first, unmeasured");
  add("timeline",
      row<OptionalText>(
          [this](const OptionalText& v) {
            plan_.timeline = true;
            if (v.text) plan_.timeline_interval_ns = duration(*v.text);
          },
          "INTERVAL"),
      "sample the rate every INTERVAL (1s, or finer for a short run): chart, cliff, steady state");
  add("steady",
      row<OptionalText>(
          [this](const OptionalText& v) {
            plan_.steady_percent = v.text ? steady_limit(*v.text) : 10.0;
            plan_.timeline = true;
          },
          "LIMIT"),
      "with --time: end once the rate is steady within LIMIT percent (10), as fio's steadystate");
  add("force", row<Switch>([this](Switch) { plan_.force = true; }),
      "let a session write to a block device that is mounted or in use, and --profile or --pattern write over "
      "an existing non-empty file or a device holding a partition table or a file system; with --compare, "
      "compare documents "
      "whose rows or operands differ, or that are incomplete");
  add("capacity",
      row<OptionalText>(
          [this](const OptionalText& v) {
            if (v.text && *v.text != "quick" && *v.text != "full")
              throw BadArgument{"Valid arguments are: quick, full"};
            plan_.capacity = true;
            plan_.capacity_full = v.text && *v.text == "full";
          },
          "MODE"),
      "find what of= really holds, as f3probe does: stamp the ends, every power of two and random blocks, read "
      "them back (quick); or write, read back and compare every block, as f3write and f3read (full)");
  add("keep", row<Switch>([this](Switch) { plan_.keep = true; }),
      "with --capacity: save the blocks it overwrites and write them back at the end, and on SIGINT");
  add("compare", row<Switch>([this](Switch) { plan_.compare = true; }),
      "compare the JSON documents named in place of operands (runs, sessions, profiles) with the first: "
      "medians, their ratio and its 95% interval, a rank test's verdict");
  add("cache",
      row<Text>(
          [this](const Text& v) {
            plan_.cache = symbol(kCacheSymbols, v.text, "as-is, cold, cold-system, warm")->mode;
            plan_.cache_given = true;
          },
          "STATE"),
      "before each run: cold, cold-system, warm or as-is; shows what was cached");
  add("size",
      row<DdNumber>(
          [this](const DdNumber& v) {
            if (v.parsed.verdict != NumberVerdict::kOk || v.parsed.value < 1) {
              throw BadArgument{"The size is a number of bytes, as for count= with count_bytes."};
            }
            plan_.size = v.parsed.value;
          },
          "BYTES"),
      "what each run copies, whatever its block size (in place of count=)");
}

po::options_description gnu_options(const RowsWanted& wanted) {
  po::options_description rows("Options");
  // What they do is the parse's to decide: each ends it.
  add_row(rows, wanted, "help", row<Switch>([](Switch) {}), "show this help, then exit");
  add_row(rows, wanted, "version", row<Switch>([](Switch) {}), "show the version, then exit");
  return rows;
}

}  // namespace ddtime
