// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_time_json.h"

#include "model/units.h"

namespace ddtime {

namespace {

const char* ended_by_word(TimedEnd end) {
  switch (end) {
    case TimedEnd::kTime:
      return "time";
    case TimedEnd::kSteady:
      return "steady";
    case TimedEnd::kRange:
      return "range";
    case TimedEnd::kRunning:
      return "running";
  }
  return "range";
}

void put_latency(json::Object& sample, std::string_view key, const std::optional<TimelineLatency>& latency) {
  if (!latency) {
    sample.null(key);
    return;
  }
  sample.object(key)
      .integer("p50_ns", latency->p50_ns)
      .integer("p99_ns", latency->p99_ns)
      .integer("max_ns", latency->max_ns);
}

// --mix: the reads among the records so far, and each side's rate over
// the interval (the writes are the rest).
void put_mix_sides(json::Object& entry, const TimelineSample& sample, const TimelineSample& previous) {
  entry.integer("read_records", *sample.read_records).integer("read_bytes", *sample.read_bytes);
  if (const std::optional<SideRates> rates = mix_side_rates(sample, previous)) {
    entry.decimal("read_bytes_per_second", json::rounded(rates->read, 3))
        .decimal("write_bytes_per_second", json::rounded(rates->write, 3));
  } else {
    entry.null("read_bytes_per_second").null("write_bytes_per_second");
  }
}

void put_sample(json::Object entry, const TimelineSample& sample, const TimelineSample& previous) {
  const std::int64_t ns = sample.end_ns - previous.end_ns;
  const std::int64_t bytes = sample.bytes - previous.bytes;
  const std::int64_t records = sample.records - previous.records;
  entry.decimal("end_s", json::seconds(sample.end_ns))
      .integer("bytes", sample.bytes)
      .integer("records", sample.records)
      .decimal("interval_s", json::seconds(ns))
      .integer("interval_bytes", bytes);
  if (ns > 0) {
    entry.decimal("bytes_per_second", json::rounded(per_second(static_cast<double>(bytes), static_cast<double>(ns)), 3))
        .decimal("iops", json::rounded(per_second(static_cast<double>(records), static_cast<double>(ns)), 3));
  } else {
    entry.null("bytes_per_second").null("iops");
  }
  put_latency(entry, "read_latency", sample.read_latency);
  put_latency(entry, "write_latency", sample.write_latency);
  if (sample.read_records && sample.read_bytes) put_mix_sides(entry, sample, previous);
}

}  // namespace

void put_timed(json::Object object, const TimedRun& timed) {
  object.decimal("limit_s", json::seconds(timed.limit_ns));
  if (timed.ramp_ns > 0) {
    object.object("ramp")
        .decimal("seconds", json::seconds(timed.ramp_elapsed_ns))
        .integer("records", timed.ramp_stats.full_records_out + timed.ramp_stats.partial_records_out)
        .integer("bytes", timed.ramp_stats.bytes_out);
  } else {
    object.null("ramp");
  }
  if (timed.range_blocks > 0) {
    object.object("range").integer("bytes", timed.range_bytes).integer("blocks", timed.range_blocks);
    object.decimal("passes", json::rounded(timed.passes, 3));
  } else {
    object.null("range").null("passes");
  }
  object.string("ended_by", ended_by_word(timed.ended_by));
}

namespace {

void put_steady(json::Object steady, const SteadyState& state) {
  steady.string("criterion", state.criterion == SteadyState::Criterion::kDeviation ? "deviation" : "slope")
      .string("definition", state.criterion == SteadyState::Criterion::kDeviation
                                ? "max |rate - window mean| as a percentage of the window mean"
                                : "|least-squares slope of the window's rates| per interval as a percentage of the "
                                  "window mean")
      .decimal("limit_percent", json::rounded(state.limit_percent, 3))
      .integer("window_intervals", static_cast<std::int64_t>(state.window))
      .boolean("enough_intervals", state.enough_intervals)
      .boolean("reached", state.reached);
  if (state.reached) {
    steady.decimal("at_s", json::seconds(state.at_ns)).integer("at_bytes", state.at_bytes);
  } else {
    steady.null("at_s").null("at_bytes");
  }
  if (state.mean_above_zero) {
    steady.decimal("value_percent", json::rounded(state.value_percent, 3))
        .decimal("window_mean_bytes_per_second", json::rounded(state.window_mean, 3));
  } else {
    steady.null("value_percent").null("window_mean_bytes_per_second");
  }
}

void put_analysis(json::Object analysis, const TimelineAnalysis& result) {
  if (const std::optional<RateSpread>& spread = result.spread) {
    analysis.object("interval_rates")
        .integer("intervals", static_cast<std::int64_t>(spread->intervals))
        .decimal("min", json::rounded(spread->min, 3))
        .decimal("median", json::rounded(spread->median, 3))
        .decimal("max", json::rounded(spread->max, 3))
        .decimal("mean", json::rounded(spread->mean, 3))
        .decimal("cv", json::rounded(spread->cv, 6));
  } else {
    analysis.null("interval_rates");
  }
  if (const std::optional<Cliff>& cliff = result.cliff) {
    analysis.object("cliff")
        .string("definition", "the rate and the median of every later interval below 80% of the first plateau")
        .decimal("before_bytes_per_second", json::rounded(cliff->before_rate, 3))
        .decimal("after_bytes_per_second", json::rounded(cliff->after_rate, 3))
        .integer("at_bytes", cliff->at_bytes)
        .decimal("at_s", json::seconds(cliff->at_ns));
  } else {
    analysis.null("cliff");
  }
  json::Object steady = analysis.object("steady_state");
  put_steady(steady.object("deviation"), result.deviation);
  put_steady(steady.object("slope"), result.slope);
}

}  // namespace

void put_timeline(json::Object object, const Timeline& timeline, const SteadyRule& rule) {
  object.decimal("interval_s", json::seconds(timeline.interval_ns));
  {
    json::Array samples = object.array("samples");
    TimelineSample previous;
    for (const TimelineSample& sample : timeline.samples) {
      put_sample(samples.object(), sample, previous);
      previous = sample;
    }
  }
  put_analysis(object.object("analysis"), analyse_timeline(timeline, rule));
}

}  // namespace ddtime
