// SPDX-License-Identifier: GPL-3.0-or-later
// report_mix — what a --mix run's report says of each side: the line of
// ddtime's report and the run document's "mix" object (the schema's), from
// the counts where the I/Os happened and the run's window.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/mix.h"
#include "model/settings.h"
#include "model/timeline_samples.h"
#include "report/json.h"

namespace ddtime {

// "ddtime: mix: 70% reads asked, 70.1% done; reads 667.59 MiB/s, 170903
// IOPS; writes ...; together ...; seed S\n", rates over the window's real
// time in the units --units names (as a session's run line).
std::string mix_line(std::string_view program, const MixResult& mix, std::int64_t real_ns, RateUnits units);

// --mix with --timeline (one job): "ddtime: mix per interval: reads min
// X, median Y, max Z; writes min ..., median ..., max ...\n"; empty when
// the samples do not say the sides.
std::string mix_timeline_line(std::string_view program, const Timeline& timeline, RateUnits units);

// The "mix" object: the percentage asked, the seed, each side's I/Os,
// bytes and rates, and the share of reads done.
void put_mix(json::Object object, const MixResult& mix, std::int64_t real_ns);

}  // namespace ddtime
