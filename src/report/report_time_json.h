// SPDX-License-Identifier: GPL-3.0-or-later
// report_time_json — the JSON of a run's time: --time's object (the limit,
// the ramp and what it moved, the passes, what ended the run) and
// --timeline's (the interval, each sample with its cumulative bytes and
// its interval's rate, so that "rate against bytes" and "rate against
// time" are one array, and the analysis with its definitions).
#pragma once

#include "measure/record.h"
#include "measure/timeline.h"
#include "report/json.h"

namespace ddtime {

//   "time": {"limit_s": 2.000000000, "ramp": {"seconds": .., "records": .., "bytes": ..} | null,
//            "range": {"bytes": N, "blocks": N} | null (endless), "passes": 14.2 | null,
//            "ended_by": "time" | "steady" | "range"}
void put_timed(json::Object object, const TimedRun& timed);

//   "timeline": {"interval_s": 1.0, "samples": [{"end_s", "bytes", "records", "interval_bytes",
//                "interval_s", "bytes_per_second", "iops", "read_latency": {"p50_ns", "p99_ns",
//                "max_ns"} | null, "write_latency": ...}, ...], "analysis": {...}}
void put_timeline(json::Object object, const Timeline& timeline, const SteadyRule& rule);

}  // namespace ddtime
