// SPDX-License-Identifier: GPL-3.0-or-later
// report_profile's JSON and CSV: the figures as numbers, every run listed.
#include <fmt/format.h>

#include <array>
#include <utility>

#include "model/units.h"
#include "report/json.h"
#include "report/report_environment_json.h"
#include "report/report_json.h"
#include "report/report_profile.h"
#include "system/ring_registry.h"

namespace ddtime {
namespace {

constexpr int kRateDecimals = 3;
constexpr int kSecondsDecimals = 9;

json::Decimal seconds_of(double seconds) { return json::rounded(seconds, kSecondsDecimals); }

std::string_view side_name(const ProfileRow& row) { return profile_side_name(row.side); }

std::string_view cache_name(CacheMode mode) {
  constexpr std::array<std::string_view, 4> kNames = {"as-is", "cold", "cold-system", "warm"};
  return kNames[static_cast<std::size_t>(mode)];
}

void put_parameters(json::Object profile, const ProfileRecord& record) {
  profile.string("name", record.preset->name)
      .integer("size", record.range)
      .decimal("time_s", json::seconds(record.time_ns))
      .integer("warmup", record.warmup)
      .integer("repeat", record.repeat)
      .decimal("pause_s", json::seconds(record.pause_ns))
      .boolean("direct", record.direct);
  if (record.cache_given) {
    profile.string("cache", cache_name(record.cache));
  } else {
    profile.null("cache");
  }
  if (record.writes) {
    profile.string("pattern", "random");
  } else {
    profile.null("pattern");
  }
  if (record.mix_percent) {
    profile.integer("mix_percent", *record.mix_percent);
  } else {
    profile.null("mix_percent");
  }
}

// "mean_s" and "p99_s", each null where it was not measured.
void put_mean_and_p99(json::Object& object, const std::optional<double>& mean_s, const std::optional<double>& p99_s) {
  for (const auto& [key, seconds] : {std::pair{"mean_s", &mean_s}, std::pair{"p99_s", &p99_s}}) {
    if (*seconds) {
      object.decimal(key, seconds_of(**seconds));
    } else {
      object.null(key);
    }
  }
}

std::optional<double> seconds_from_ns(const std::optional<double>& ns) {
  return ns ? std::optional<double>(in_seconds(*ns)) : std::nullopt;
}

// A mixed row's sides: each one's median rate and latency.
void put_mix_sides(json::Object mix, const ProfileRow& row) {
  for (const auto& [name, side] : {std::pair{"reads", &row.mix_reads}, std::pair{"writes", &row.mix_writes}}) {
    if (!*side) {
      mix.null(name);
      continue;
    }
    json::Object figures = mix.object(name);
    figures.decimal("median_bytes_per_second", json::rounded((*side)->bytes_per_second, kRateDecimals));
    put_mean_and_p99(figures, (*side)->mean_latency_s, (*side)->p99_latency_s);
  }
}

void put_runs(json::Array runs, const ProfileRow& row) {
  for (const ProfileRun& run : row.runs) {
    json::Object item = runs.object();
    item.decimal("bytes_per_second", json::rounded(run.bytes_per_second(), kRateDecimals))
        .boolean("warmup", run.warmup())
        .boolean("counted", run.counted() && !run.warmup())  // a warm-up is listed, never counted
        .decimal("real_s", json::seconds(run.real_ns()))
        .integer("bytes", run.bytes());
    // The engine that ran it: io_uring, or threads where io_uring is refused.
    item.string("engine", engine_word(run.engine()));
    json::Object latency = item.object("latency");
    put_mean_and_p99(latency, seconds_from_ns(run.mean_latency_ns()), seconds_from_ns(run.p99_latency_ns()));
  }
}

void put_row(json::Object object, const ProfileRow& row) {
  object.string("test", row.test.label)
      .string("side", side_name(row))
      .integer("bs", row.test.bs)
      .integer("iodepth", row.test.iodepth)
      .integer("jobs", row.test.jobs)
      .boolean("random", row.test.random);
  if (row.rate) {
    object.decimal("median_bytes_per_second", json::rounded(row.rate->median, kRateDecimals));
    if (row.rate->median_low && row.rate->median_high) {
      object.array("ci95")
          .decimal(json::rounded(*row.rate->median_low, kRateDecimals))
          .decimal(json::rounded(*row.rate->median_high, kRateDecimals));
    } else {
      object.null("ci95");
    }
    object.decimal("best_bytes_per_second", json::rounded(row.rate->max, kRateDecimals))
        .decimal("iops", json::rounded(row.iops, kRateDecimals));
  } else {
    object.null("median_bytes_per_second").null("ci95").null("best_bytes_per_second").null("iops");
  }
  {
    json::Object latency = object.object("latency");
    put_mean_and_p99(latency, row.mean_latency_s, row.p99_latency_s);
  }
  if (row.side == ProfileSide::kMix) put_mix_sides(object.object("mix"), row);
  put_runs(object.array("runs"), row);
}

void put_target(json::Object target, const ProfileRecord& record) {
  target.string("path", record.target).integer("start", record.start);
  if (record.prepare_ns) {
    target.decimal("prepared_s", json::seconds(*record.prepare_ns));
  } else {
    target.null("prepared_s");
  }
}

// The shortest form that reads back, as in the JSON (decimals no longer
// cuts it: issue 28, B5).
std::string optional_number(const std::optional<double>& value, [[maybe_unused]] int decimals) {
  return value ? json::shortest(*value) : std::string();
}

}  // namespace

std::string profile_json(const ProfileRecord& record, const Environment& environment, std::string_view version) {
  json::Writer out;
  {
    json::Object document = out.object();
    document.integer("schema", 1).string("tool", "ddtime").string("version", version);
    put_environment(document.object("environment"), environment);
    document.boolean("complete", record.complete);
    put_target(document.object("target"), record);
    put_parameters(document.object("profile"), record);
    {
      json::Array rows = document.array("rows");
      for (const ProfileRow& row : record.rows) put_row(rows.object(), row);
    }
    if (record.exit_status) {
      document.integer("exit_status", *record.exit_status);
    } else {
      document.null("exit_status");
    }
    put_signal(document, record.signal);
  }
  std::string text = out.text();
  text.push_back('\n');
  return text;
}

std::string profile_csv(const ProfileRecord& record) {
  std::string text =
      "test,side,bs,iodepth,jobs,random,median_bytes_per_second,ci95_low,ci95_high,best_bytes_per_second,iops,"
      "mean_latency_s,p99_latency_s,runs,read_bytes_per_second,write_bytes_per_second\n";
  for (const ProfileRow& row : record.rows) {
    std::size_t counted = 0;
    for (const ProfileRun& run : row.runs) counted += (!run.warmup() && run.counted()) ? 1 : 0;
    const std::optional<Figure>& rate = row.rate;
    text += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", row.test.label, side_name(row), row.test.bs,
                        row.test.iodepth, row.test.jobs, row.test.random ? "true" : "false",
                        optional_number(rate ? std::optional<double>(rate->median) : std::nullopt, 3),
                        optional_number(rate ? rate->median_low : std::nullopt, 3),
                        optional_number(rate ? rate->median_high : std::nullopt, 3),
                        optional_number(rate ? std::optional<double>(rate->max) : std::nullopt, 3),
                        optional_number(rate ? std::optional<double>(row.iops) : std::nullopt, 3),
                        optional_number(row.mean_latency_s, 9), optional_number(row.p99_latency_s, 9), counted);
    // A mixed row's sides (empty on the others).
    text.pop_back();
    text += fmt::format(
        ",{},{}\n",
        optional_number(row.mix_reads ? std::optional<double>(row.mix_reads->bytes_per_second) : std::nullopt, 3),
        optional_number(row.mix_writes ? std::optional<double>(row.mix_writes->bytes_per_second) : std::nullopt, 3));
  }
  return text;
}

}  // namespace ddtime
