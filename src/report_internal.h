// SPDX-License-Identifier: GPL-3.0-or-later
// report_internal — the exact-arithmetic primitive report.cc and
// report_timing.cc share, so both round the same way. Private to the report
// module: other modules use report.h.
#pragma once

namespace ddtime::report_internal {

// Exact rational arithmetic: a byte count times 1e9 (or 1e12), divided by
// nanoseconds or powers of 1024, stays well inside 128 bits.
__extension__ using Wide = unsigned __int128;

// num/den rounded to the nearest integer, an exact half to the even
// neighbour, as GNU's human_readable rounds (10500 B -> "10 kB",
// 11500 B -> "12 kB").
// Requires: den > 0.
Wide round_half_even(Wide num, Wide den);

}  // namespace ddtime::report_internal
