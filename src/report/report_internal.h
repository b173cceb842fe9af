// SPDX-License-Identifier: GPL-3.0-or-later
// report_internal — what report.cc, report_run.cc and report_json.cc
// share: the exact arithmetic, so that all of them round and count the same
// way, and the output buffer the text reports are built in. Private to the
// report modules: other modules use their headers.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include "model/stats.h"

namespace ddtime::report_internal {

// Exact rational arithmetic: a byte count times 1e9 (or 1e12), divided by
// nanoseconds or powers of 1024, stays well inside 128 bits.
__extension__ using Wide = unsigned __int128;

// num/den rounded to the nearest integer, an exact half to the even
// neighbour, as GNU's human_readable rounds (10500 B -> "10 kB",
// 11500 B -> "12 kB").
// Requires: den > 0.
Wide round_half_even(Wide num, Wide den);

// A count or duration as Wide; a negative one (a clock that went backwards)
// is 0.
inline Wide non_negative(std::int64_t value) { return value > 0 ? static_cast<Wide>(value) : 0; }

// Input records, full and partial alike: the reads that returned data.
inline Wide records_in(const Stats& stats) {
  return non_negative(stats.full_records_in) + non_negative(stats.partial_records_in);
}

// Whole reports are a few hundred bytes; the inline storage of
// fmt::memory_buffer (500 bytes) holds them without touching the heap.
using Buffer = fmt::memory_buffer;

inline void append(Buffer& out, std::string_view text) { out.append(text.data(), text.data() + text.size()); }

template <typename... Args>
void append_format(Buffer& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

inline std::string to_string(const Buffer& buffer) { return std::string(buffer.data(), buffer.size()); }

}  // namespace ddtime::report_internal
