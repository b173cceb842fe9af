// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_mix.h"

#include <fmt/format.h>

#include <vector>

#include "measure/timeline.h"
#include "model/units.h"
#include "report/report.h"
#include "report/report_session.h"

namespace ddtime {
namespace {

double rate(std::int64_t count, std::int64_t real_ns) {
  return real_ns > 0 ? per_second(static_cast<double>(count), static_cast<double>(real_ns)) : 0;
}

// The share of the I/Os done that were reads, in percent (0 with none).
double read_share(const MixCounts& counts) {
  const std::int64_t ios = counts.reads + counts.writes;
  return ios > 0 ? 100.0 * static_cast<double>(counts.reads) / static_cast<double>(ios) : 0;
}

std::string side(std::string_view name, std::int64_t ios, std::int64_t bytes, std::int64_t real_ns, RateUnits units) {
  return fmt::format("{} {}, {:.0f} IOPS", name, rate_text(rate(bytes, real_ns), units), rate(ios, real_ns));
}

void put_side(json::Object object, std::int64_t ios, std::int64_t bytes, std::int64_t real_ns) {
  object.integer("ios", ios)
      .integer("bytes", bytes)
      .decimal("bytes_per_second", json::real(rate(bytes, real_ns)))
      .decimal("iops", json::real(rate(ios, real_ns)));
}

std::string spread_words(const std::vector<double>& rates, RateUnits units) {
  const RateSpread spread = *rate_spread(rates);
  return fmt::format("min {}, median {}, max {}", rate_text(spread.min, units), rate_text(spread.median, units),
                     rate_text(spread.max, units));
}

}  // namespace

std::string mix_timeline_line(std::string_view program, const Timeline& timeline, RateUnits units) {
  std::vector<double> reads;
  std::vector<double> writes;
  TimelineSample previous;
  for (const TimelineSample& sample : timeline.samples) {
    if (!sample.read_bytes) return {};
    if (const std::optional<SideRates> rates = mix_side_rates(sample, previous)) {
      reads.push_back(rates->read);
      writes.push_back(rates->write);
    }
    previous = sample;
  }
  if (reads.empty()) return {};
  return fmt::format("{}: mix per interval: reads {}; writes {}\n", program, spread_words(reads, units),
                     spread_words(writes, units));
}

std::string mix_line(std::string_view program, const MixResult& mix, std::int64_t real_ns, RateUnits units) {
  const MixCounts& c = mix.counts;
  return fmt::format(
      "{}: mix: {}% reads asked, {:.1f}% done; {}; {}; {}; seed {}\n", program, mix.choice.read_percent, read_share(c),
      side("reads", c.reads, c.read_bytes, real_ns, units), side("writes", c.writes, c.write_bytes, real_ns, units),
      side("together", c.reads + c.writes, c.read_bytes + c.write_bytes, real_ns, units), mix.choice.seed);
}

void put_mix(json::Object object, const MixResult& mix, std::int64_t real_ns) {
  const MixCounts& c = mix.counts;
  object.integer("read_percent", mix.choice.read_percent)
      .integer("seed", static_cast<std::int64_t>(mix.choice.seed))
      .decimal("read_share_percent", json::real(read_share(c)));
  put_side(object.object("reads"), c.reads, c.read_bytes, real_ns);
  put_side(object.object("writes"), c.writes, c.write_bytes, real_ns);
  put_side(object.object("total"), c.reads + c.writes, c.read_bytes + c.write_bytes, real_ns);
}

}  // namespace ddtime
