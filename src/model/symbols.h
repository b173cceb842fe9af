// SPDX-License-Identifier: GPL-3.0-or-later
// symbols — the one table of every conv=, iflag=/oflag=, status=,
// --units= and --cache= word, and --engine='s two that are no ring:
// parsing (operands), --help and the JSON document (report_json) all read
// these, so a new flag is a new row here.
#pragma once

#include <cstddef>
#include <string_view>

#include "model/plan.h"
#include "model/settings.h"

namespace ddtime {

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
    {"si", RateUnits::kSi},       {"iec", RateUnits::kIec}, {"both", RateUnits::kBoth},
    {"bytes", RateUnits::kBytes}, {"all", RateUnits::kAll},
};

struct EngineSymbol {
  InlineText<9> name;
  EngineChoice engine;
};

// The --engine= words that name no ring: auto, listed before the rings,
// and sync, after them. Each queued engine's word is its row in
// system/ring_registry.h.
constexpr EngineSymbol kEngineSymbols[] = {
    {"auto", EngineChoice::kAuto},
    {"sync", EngineChoice::kSync},
};

struct CacheSymbol {
  InlineText<12> name;
  CacheMode mode;
};

constexpr CacheSymbol kCacheSymbols[] = {
    {"as-is", CacheMode::kAsIs},
    {"cold", CacheMode::kCold},
    {"cold-system", CacheMode::kColdSystem},
    {"warm", CacheMode::kWarm},
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

}  // namespace ddtime
