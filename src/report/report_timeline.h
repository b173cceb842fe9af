// SPDX-License-Identifier: GPL-3.0-or-later
// report_timeline — --timeline's words on a terminal: a chart of the rate
// against the bytes copied, with the time at the same places under it,
// then the statistics lines (the interval rates' spread, the cliff, steady
// state by both definitions). A timeline and its analysis in, text out;
// sampling is the run's, the figures are timeline's.
#pragma once

#include <string>

#include "measure/timeline.h"
#include "report/report.h"

namespace ddtime {

// The chart and the statistics under it, lines ending in '\n'. width: the
// terminal's columns (80 when not a terminal); no line is wider, the
// statistics lines fold at spaces. utf8: the chart's cells are eighth
// blocks (U+2581..U+2588) and its axes box-drawing lines; otherwise a full
// cell is '#', one at least half full '.', less than half ' ', and the
// axes are '|', '+' and '-'.
//
// The chart: the x axis is the bytes copied, one column per equal span of
// them; a column's rate is its bytes over the time they took, time being
// interpolated linearly in bytes between samples, so that a column never
// depends on where the samples fell. 8 rows of height, from 0 to a round
// rate at or above the highest column, labelled at the top, the middle and
// 0 in the summary's SI units; labels under the baseline give the bytes
// and, on a second row, the time the run had reached them. A stall in
// which no byte moved is in the column of the byte that ended it, or, at
// the very end of a run, in none.
// units: --units; the rates are in one unit, IEC (iec, the default),
// plain B/s (bytes) or SI (si, both, all).
std::string timeline_text(const Timeline& timeline, const TimelineAnalysis& analysis, unsigned width, bool utf8,
                          RateUnits units = RateUnits::kSi);

}  // namespace ddtime
