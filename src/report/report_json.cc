// SPDX-License-Identifier: GPL-3.0-or-later
// The --json schema (docs/ddtime.schema.json) on the json writer: this file chooses
// the keys, their order and the rounding; json.cc places every quote,
// colon, comma and bracket.
#include "report/report_json.h"

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "measure/pattern.h"
#include "model/symbols.h"
#include "model/units.h"
#include "model/utf8.h"
#include "report/json.h"
#include "report/report_environment_json.h"
#include "report/report_internal.h"
#include "report/report_mix.h"
#include "report/report_run.h"
#include "report/report_time_json.h"
#include "system/ring_registry.h"

namespace ddtime {
namespace {

using report_internal::non_negative;
using report_internal::records_in;
using report_internal::Wide;

using json::seconds;

// count/real_ns per second, in the shortest form of the double; null when
// no time has passed.
void put_per_second(json::Object& rates, std::string_view key, Wide count, std::int64_t real_ns) {
  if (real_ns <= 0) {
    rates.null(key);
  } else {
    rates.decimal(key, json::real(per_second(static_cast<double>(count), static_cast<double>(real_ns))));
  }
}

void put_integer_or_null(json::Object& object, std::string_view key, std::optional<std::int64_t> value) {
  if (value) {
    object.integer(key, *value);
  } else {
    object.null(key);
  }
}

void put_string_or_null(json::Object& object, std::string_view key, const std::optional<std::string>& value) {
  if (value) {
    object.string(key, *value);
  } else {
    object.null(key);
  }
}

std::string_view status_name(StatusLevel level) {
  switch (level) {
    case StatusLevel::kNone:
      return "none";
    case StatusLevel::kNoxfer:
      return "noxfer";
    case StatusLevel::kProgress:
      return "progress";
    case StatusLevel::kDefault:
      break;
  }
  return "default";
}

// The words in effect, in symbols.h's order (settings.h's declaration
// order), from the same table the parser reads.
void put_conv(json::Array list, const Conversions& conv) {
  for (const ConversionSymbol& symbol : kConversionSymbols) {
    if (conv.*symbol.flag) list.string(symbol.name.view());
  }
}

void put_flags(json::Array list, const IoFlags& flags) {
  for (const FlagSymbol& symbol : kFlagSymbols) {
    if (flags.*symbol.flag) list.string(symbol.name.view());
  }
}

// A file name that is not valid UTF-8 cannot travel in a JSON string as
// it is: its bytes, in hex, follow the name (which has U+FFFD for them).
void put_name(json::Object& operands, std::string_view key, std::string_view hex_key,
              const std::optional<std::string>& name) {
  put_string_or_null(operands, key, name);
  if (!name || valid_utf8(*name)) return;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(name->size() * 2);
  for (const char c : *name) {
    const auto byte = static_cast<unsigned char>(c);
    hex.push_back(kHex[byte >> 4]);
    hex.push_back(kHex[byte & 15]);
  }
  operands.string(hex_key, hex);
}

void put_operands(json::Object operands, const Settings& settings) {
  put_name(operands, "if", "if_hex", settings.input_file);
  put_name(operands, "of", "of_hex", settings.output_file);
  operands.integer("ibs", settings.ibs).integer("obs", settings.obs).integer("cbs", settings.cbs);
  operands.object("skip").integer("records", settings.skip_records).integer("bytes", settings.skip_bytes);
  operands.object("seek").integer("records", settings.seek_records).integer("bytes", settings.seek_bytes);
  {
    json::Object count = operands.object("count");
    put_integer_or_null(
        count, "records",
        settings.max_records == kNoLimit ? std::nullopt : std::optional<std::int64_t>(settings.max_records));
    count.integer("bytes", settings.max_bytes);
  }
  put_conv(operands.array("conv"), settings.conv);
  put_flags(operands.array("iflag"), settings.iflag);
  put_flags(operands.array("oflag"), settings.oflag);
  operands.string("status", status_name(settings.status));
}

void put_times(json::Object object, const RunTimes& times) {
  // What was not measured is null, never 0: the whole window when it never
  // opened, the flush when none followed the copy, read and write unless
  // --split-times timed them.
  if (!times.measured) {
    for (const char* key : {"real", "copy", "flush", "read", "write", "user", "sys"}) object.null(key);
    return;
  }
  object.decimal("real", seconds(times.real_ns)).decimal("copy", seconds(times.copy_ns));
  if (times.flushed) {
    object.decimal("flush", seconds(times.flush_ns));
  } else {
    object.null("flush");
  }
  if (times.split) {
    object.decimal("read", seconds(times.read_ns)).decimal("write", seconds(times.write_ns));
  } else {
    object.null("read").null("write");
  }
  object.decimal("user", seconds(times.user_ns)).decimal("sys", seconds(times.sys_ns));
}

using json::rounded;

void put_figure(json::Object figure, const Figure& source, int decimals) {
  figure.decimal("min", rounded(source.min, decimals)).decimal("median", rounded(source.median, decimals));
  if (source.median_low) {
    json::Array interval = figure.array("median_ci95");
    interval.decimal(rounded(*source.median_low, decimals)).decimal(rounded(*source.median_high, decimals));
  } else {
    figure.null("median_ci95");
  }
  figure.decimal("mean", rounded(source.mean, decimals))
      .decimal("sd", rounded(source.sd, decimals))
      .decimal("max", rounded(source.max, decimals));
  json::Array outliers = figure.array("outliers");
  for (const std::size_t index : source.outliers) outliers.integer(static_cast<std::int64_t>(index) + 1);
}

void put_residency(json::Object& object, std::string_view key, const std::optional<Residency>& residency) {
  if (!residency) {
    object.null(key);
    return;
  }
  json::Object side = object.object(key);
  put_integer_or_null(side, "resident_pages", residency->resident);
  side.integer("pages", residency->pages);
}

// The same facts as the report's engine line: mean_in_flight and
// system_calls_per_io are null for the sync engine, which does not count.
void put_engine(json::Object object, const EngineUse& engine, const RunTimes& times, const Stats& stats) {
  object.string("name", engine_word(engine.kind)).integer("depth", engine.depth);
  // The threads whose CPU the times hold: null where io_uring's kernel
  // workers may have added theirs.
  put_integer_or_null(object, "threads",
                      times.threads == 0 ? std::nullopt : std::optional<std::int64_t>(times.threads));
  if (const std::string setup = engine_setup(engine); setup.empty()) {
    object.null("setup");
  } else {
    object.string("setup", setup);
  }
  if (engine.system_calls_per_io > 0) {
    object.decimal("mean_in_flight", json::real(engine.mean_in_flight))
        .decimal("system_calls_per_io", json::real(engine.system_calls_per_io));
  } else {
    object.null("mean_in_flight").null("system_calls_per_io");
  }
  if (const std::string why = engine_fallback(engine); why.empty()) {
    object.null("fallback");
  } else {
    object.string("fallback", why);
  }
  if (engine.jobs_asked > 1) {
    json::Object jobs = object.object("jobs");
    jobs.integer("asked", engine.jobs_asked).integer("ran", engine.jobs.ran);
    // One job (the range had one record, or none) measured no spread and
    // no submitters' share; a run without I/O no CPU per I/O: null, never 0.
    if (engine.jobs.ran > 1) {
      jobs.decimal("spread_s", json::real(engine.jobs.spread_s()))
          .decimal("submitters_busy", json::real(engine.jobs.busy));
    } else {
      jobs.null("spread_s").null("submitters_busy");
    }
    jobs.boolean("cpu_limited", engine.cpu_limited());
    if (const double cpu = cpu_per_io(times, stats); cpu > 0) {
      jobs.decimal("cpu_per_io_s", json::real(cpu));
    } else {
      jobs.null("cpu_per_io_s");
    }
  }
}

void put_latency_side(json::Object side, const LatencySummary& summary) {
  side.integer("count", summary.count)
      .integer("min_ns", summary.min_ns)
      .decimal("mean_ns", rounded(summary.mean_ns, 1))
      .decimal("sd_ns", rounded(summary.sd_ns, 1))
      .integer("max_ns", summary.max_ns);
  {
    json::Object percentiles = side.object("percentiles_ns");
    for (std::size_t i = 0; i < summary.percentiles.size(); ++i) {
      put_integer_or_null(percentiles, kLatencyPercentiles[i].key, summary.percentiles[i]);
    }
  }
  json::Array histogram = side.array("histogram");
  for (const LatencyBucket& bucket : summary.histogram) {
    histogram.object().integer("le_ns", bucket.le_ns).integer("count", bucket.count);
  }
}

void put_latency(json::Object object, const LatencyReport& latency) {
  object.decimal("clock_cost_ns", rounded(latency.clock_cost_ns, 1))
      .string("definition", latency_definition_words(latency.definition))
      .boolean("exact", latency.read.exact && latency.write.exact);
  // Chained durations hold the work between calls: how long it took.
  if (latency.definition == LatencyDefinition::kChained) {
    if (latency.between_calls_ns) {
      object.decimal("between_calls_ns", rounded(*latency.between_calls_ns, 1));
    } else {
      object.null("between_calls_ns");
    }
  }
  put_latency_side(object.object("read"), latency.read);
  put_latency_side(object.object("write"), latency.write);
}

// The environment with the seeds a document's runs used, where one shows
// them: the order's and the generator's.
Environment with_seeds_of(Environment environment, const RunRecord& run) {
  if (run.result.random) environment.random_seed = run.result.random->seed;
  if (run.seed) environment.pattern_seed = run.seed;
  return environment;
}

// environment: the document's, for a run that is one; null inside a session.
void put_run(json::Object& run, const RunRecord& source, std::string_view version, const Environment* environment) {
  const Stats& stats = source.result.stats;
  const RunTimes& times = source.result.times;
  run.string("tool", "ddtime").string("version", version_or_build(version));
  if (environment != nullptr) put_environment(run.object("environment"), with_seeds_of(*environment, source));
  run.boolean("complete", source.complete());
  if (!source.phase.empty()) run.string("phase", source.phase);
  put_operands(run.object("operands"), source.settings);
  run.object("records_in").integer("full", stats.full_records_in).integer("partial", stats.partial_records_in);
  run.object("records_out").integer("full", stats.full_records_out).integer("partial", stats.partial_records_out);
  run.integer("truncated_records", stats.truncated_records)
      .integer("bytes_in", stats.bytes_in)
      .integer("bytes_out", stats.bytes_out);
  put_times(run.object("times"), times);
  {
    json::Object rates = run.object("rates");
    const std::int64_t real_ns = times.measured ? times.real_ns : 0;
    put_per_second(rates, "bytes_per_second", non_negative(stats.bytes_out), real_ns);
    put_per_second(rates, "records_per_second", records_in(stats), real_ns);
  }
  put_integer_or_null(run, "exit_status", source.exit_status());
  put_signal(run, source.complete() ? 0 : source.signal);
  {
    json::Array errors = run.array("errors");
    for (const std::string& error : source.errors) errors.string(error);
  }
  if (source.shows_engine) put_engine(run.object("engine"), source.result.engine, times, source.result.stats);
  if (source.result.latency) put_latency(run.object("latency"), *source.result.latency);
  if (const std::optional<RandomAccess>& random = source.result.random) {
    run.string("access", "random").integer("order_seed", static_cast<std::int64_t>(random->seed));
    run.object("range")
        .integer("input_offset", random->input_offset)
        .integer("output_offset", random->output_offset)
        .integer("bytes", random->bytes)
        .integer("blocks", random->blocks);
  }
  if (source.result.mix) put_mix(run.object("mix"), *source.result.mix, times.real_ns);
  if (source.result.timed) put_timed(run.object("time"), *source.result.timed);
  if (source.result.timeline) put_timeline(run.object("timeline"), *source.result.timeline, source.result.steady_rule);
}

}  // namespace

std::string_view version_or_build(std::string_view version) {
  return version.empty() ? std::string_view(DDTIME_VERSION) : version;
}

std::string json_report(const RunRecord& run, const Environment& environment, std::string_view version) {
  json::Writer out;
  {
    json::Object object = out.object();
    put_run(object, run, version, &environment);
  }
  std::string text = out.text();
  text.push_back('\n');
  return text;
}

namespace {

void put_sweep(json::Object& object, const Plan& plan) {
  json::Object sweep = object.object("sweep");
  if (plan.sweep_bs_auto) {
    sweep.string("bs", "auto");
  } else if (plan.sweep_bs.empty()) {
    sweep.null("bs");
  } else {
    json::Array list = sweep.array("bs");
    for (const std::int64_t bs : plan.sweep_bs) list.integer(bs);
  }
  if (plan.sweep_iodepth.empty()) {
    sweep.null("iodepth");
  } else {
    json::Array list = sweep.array("iodepth");
    for (const unsigned depth : plan.sweep_iodepth) list.integer(depth);
  }
}

void put_plan(json::Object& document, const SessionRecord& session) {
  const Plan& plan = session.plan;
  json::Object object = document.object("plan");
  object.integer("repeat", plan.repeat).integer("warmup", plan.warmup);
  put_sweep(object, plan);
  put_integer_or_null(object, "size", plan.size);
  if (!plan.pattern) {
    object.null("pattern");
    return;
  }
  json::Object pattern = object.object("pattern");
  pattern.string("name", pattern_name(*plan.pattern));
  if (session.generator_rate) {
    pattern.decimal("generator_bytes_per_second", rounded(*session.generator_rate, 3));
  } else {
    pattern.null("generator_bytes_per_second");
  }
}

void put_summary_row(json::Object& row, const RowRecord& source) {
  const RowSummary& summary = *source.summary;
  row.integer("bs", source.bs)
      .integer("iodepth", source.depth)
      .string("pass", pass_name(source.pass))
      .integer("runs", static_cast<std::int64_t>(summary.real.count))
      .boolean("knee", source.knee);
  put_figure(row.object("real"), summary.real, 9);
  put_figure(row.object("user"), summary.user, 9);
  put_figure(row.object("sys"), summary.sys, 9);
  put_figure(row.object("bytes_per_second"), summary.bytes_per_second, 3);
  if (source.latency) put_latency(row.object("latency"), *source.latency);
}

// The session's environment with the first seeds its runs show.
Environment session_environment(Environment environment, const SessionRecord& session) {
  const auto random = std::find_if(session.runs.begin(), session.runs.end(),
                                   [](const RunRecord& run) { return run.result.random.has_value(); });
  if (random != session.runs.end()) environment.random_seed = random->result.random->seed;
  const auto pattern =
      std::find_if(session.runs.begin(), session.runs.end(), [](const RunRecord& run) { return run.seed.has_value(); });
  if (pattern != session.runs.end()) environment.pattern_seed = pattern->seed;
  return environment;
}

}  // namespace

void put_session_run(json::Object& run, const RunRecord& source, std::string_view version) {
  put_run(run, source, version, nullptr);
  const RunTimes& times = source.result.times;
  run.integer("bs", source.settings.ibs)
      .integer("iodepth", source.depth)
      .string("pass", pass_name(source.pass))
      .integer("repeat", source.index)
      .boolean("warmup", source.warmup)
      // A warm-up is listed, never counted: the man page's "not counted",
      // and what --compare skips.
      .boolean("counted", source.counted() && !source.warmup)
      .string("cache", cache_mode_name(source.cache));
  if (!source.residency) {
    run.null("residency");
  } else {
    json::Object residency = run.object("residency");
    put_residency(residency, "input", source.residency->input);
    put_residency(residency, "output", source.residency->output);
  }
  if (source.pass == Pass::kWrite && times.flushed) {
    run.decimal("flush_user_seconds", seconds(times.flush_user_ns))
        .decimal("flush_sys_seconds", seconds(times.flush_sys_ns));
  } else if (source.pass == Pass::kWrite) {
    run.null("flush_user_seconds").null("flush_sys_seconds");
  }
  if (source.drop_cache_ns) run.decimal("drop_cache_seconds", seconds(*source.drop_cache_ns));
  if (source.seed) run.integer("seed", static_cast<std::int64_t>(*source.seed));
  if (source.verify) {
    run.string("verify", source.verify->first_bad ? "mismatch" : "ok");
    put_integer_or_null(run, "first_bad_offset", source.verify->first_bad);
    run.decimal("verify_seconds", seconds(source.verify_ns));
  }
}

std::string json_session_report(const SessionRecord& session, const Environment& environment,
                                std::string_view version) {
  json::Writer out;
  {
    json::Object document = out.object();
    document.integer("schema", 1).string("tool", "ddtime").string("version", version_or_build(version));
    put_environment(document.object("environment"), session_environment(environment, session));
    document.boolean("complete", session.complete);
    if (!session.phase.empty()) document.string("phase", session.phase);
    put_plan(document, session);
    {
      json::Array runs = document.array("runs");
      for (const RunRecord& source : session.runs) {
        json::Object run = runs.object();
        put_session_run(run, source, version);
      }
    }
    {
      // A snapshot lists the runs so far and no summary.
      json::Array rows = document.array("summary");
      for (const RowRecord& source : session.rows) {
        if (!session.complete || !source.summary) continue;
        json::Object row = rows.object();
        put_summary_row(row, source);
      }
    }
    put_integer_or_null(document, "exit_status", session.exit_status);
    put_signal(document, session.signal);
  }
  std::string text = out.text();
  text.push_back('\n');
  return text;
}

}  // namespace ddtime
