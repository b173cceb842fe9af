// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/openmetrics_exporter.h"

#include <fmt/format.h>

#include <cmath>
#include <string_view>
#include <vector>

#include "measure/latency.h"
#include "measure/profile_record.h"
#include "measure/record.h"
#include "model/units.h"

namespace ddtime {
namespace {

// One line of a family: its name (a summary's has _sum or _count), its
// labels as written between the braces, its value.
struct Sample {
  std::string name;
  std::string labels;
  std::string value;
};

struct Family {
  std::string name;
  std::string_view type;
  std::string_view help;
  std::vector<Sample> samples;
};

// Families in the order first used, each with every sample of its own:
// the format wants a family's samples together, after its HELP and TYPE.
class Exposition {
 public:
  Family& family(std::string_view name, std::string_view type, std::string_view help) {
    for (Family& known : families_) {
      if (known.name == name) return known;
    }
    return families_.emplace_back(Family{std::string(name), type, help, {}});
  }

  std::string text() const {
    std::string text;
    for (const Family& family : families_) {
      if (family.samples.empty()) continue;
      text += fmt::format("# HELP {} {}\n# TYPE {} {}\n", family.name, family.help, family.name, family.type);
      for (const Sample& sample : family.samples) {
        text += sample.name;
        if (!sample.labels.empty()) text += "{" + sample.labels + "}";
        text += " " + sample.value + "\n";
      }
    }
    return text;
  }

 private:
  std::vector<Family> families_;
};

std::string number(std::int64_t value) { return fmt::format("{}", value); }
// Go's ParseFloat, which Prometheus uses, reads the shortest form back.
std::string number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : "NaN"; }

std::string label(std::string_view name, std::string_view value) {
  return fmt::format("{}=\"{}\"", name, openmetrics_label_value(value));
}

// labels, then one more.
std::string with(const std::string& labels, std::string_view name, std::string_view value) {
  return labels.empty() ? label(name, value) : labels + "," + label(name, value);
}

void gauge(Exposition& out, std::string_view name, std::string_view help, const std::string& labels,
           std::string value) {
  out.family(name, "gauge", help).samples.push_back({std::string(name), labels, std::move(value)});
}

void counter(Exposition& out, std::string_view name, std::string_view help, const std::string& labels,
             std::int64_t value) {
  out.family(name, "counter", help).samples.push_back({std::string(name), labels, number(value)});
}

// --latency's side as a summary: the percentiles the count supports, the
// sum and the count.
void latency_summary(Exposition& out, const std::string& labels, std::string_view side, const LatencySummary& timed) {
  constexpr std::string_view kName = "ddtime_latency_seconds";
  Family& family = out.family(kName, "summary", "How long each read or write took (--latency), in seconds.");
  const std::string own = with(labels, "side", side);
  for (std::size_t i = 0; i < kLatencyPercentiles.size(); ++i) {
    if (!timed.percentiles[i]) continue;
    family.samples.push_back({std::string(kName), with(own, "quantile", kLatencyPercentiles[i].quantile),
                              number(in_seconds(static_cast<double>(*timed.percentiles[i])))});
  }
  family.samples.push_back(
      {std::string(kName) + "_sum", own, number(in_seconds(timed.mean_ns * static_cast<double>(timed.count)))});
  family.samples.push_back({std::string(kName) + "_count", own, number(timed.count)});
}

void counters(Exposition& out, const std::string& labels, const Stats& stats) {
  counter(out, "ddtime_bytes_in_total", "Bytes read from the input.", labels, stats.bytes_in);
  counter(out, "ddtime_bytes_out_total", "Bytes written to the output.", labels, stats.bytes_out);
  constexpr std::string_view kIn = "Records read, whole (full) or short (partial).";
  constexpr std::string_view kOut = "Records written, whole (full) or short (partial).";
  counter(out, "ddtime_records_in_total", kIn, with(labels, "kind", "full"), stats.full_records_in);
  counter(out, "ddtime_records_in_total", kIn, with(labels, "kind", "partial"), stats.partial_records_in);
  counter(out, "ddtime_records_out_total", kOut, with(labels, "kind", "full"), stats.full_records_out);
  counter(out, "ddtime_records_out_total", kOut, with(labels, "kind", "partial"), stats.partial_records_out);
}

// One run's samples, each with labels (none for a plain run).
void run_samples(Exposition& out, const RunRecord& run, const std::string& labels) {
  counters(out, labels, run.result.stats);
  if (run.result.times.measured) {
    const RunFigures figures = run.figures();
    gauge(out, "ddtime_real_seconds", "Wall-clock time of the measured window, in seconds.", labels,
          number(figures.real));
    gauge(out, "ddtime_user_seconds", "CPU time in user mode over the window, in seconds.", labels,
          number(figures.user));
    gauge(out, "ddtime_sys_seconds", "CPU time in the kernel over the window, in seconds.", labels,
          number(figures.sys));
    if (figures.real > 0) {
      gauge(out, "ddtime_rate_bytes_per_second", "Bytes written over the real time.", labels,
            number(figures.bytes_per_second));
    }
  }
  if (const std::optional<int> status = run.exit_status()) {
    gauge(out, "ddtime_exit_status", "The run's exit status, as dd's: 0 or 1.", labels, number(std::int64_t{*status}));
  }
  if (const std::optional<LatencyReport>& latency = run.result.latency) {
    if (latency->read.count > 0) latency_summary(out, labels, "read", latency->read);
    if (latency->write.count > 0) latency_summary(out, labels, "write", latency->write);
  }
}

// A session's run: its row's settings, its pass and its number.
std::string run_labels(const RunRecord& run) {
  std::string labels = label("bs", number(run.settings.ibs));
  labels = with(labels, "iodepth", number(std::int64_t{run.depth}));
  labels = with(labels, "pass", pass_name(run.pass));
  labels = with(labels, "run", number(std::int64_t{run.index}));
  return with(labels, "warmup", run.warmup ? "true" : "false");
}

void profile_samples(Exposition& out, const ProfileRecord& profile) {
  const std::string preset = profile.preset != nullptr ? std::string(profile.preset->name) : std::string();
  for (const ProfileRow& row : profile.rows) {
    const std::string labels =
        with(with(label("profile", preset), "test", row.test.label), "side", profile_side_name(row.side));
    if (row.rate) {
      gauge(out, "ddtime_profile_rate_bytes_per_second", "The median rate of a test's measured runs.", labels,
            number(row.rate->median));
      gauge(out, "ddtime_profile_iops", "The median rate over the block size: I/Os per second.", labels,
            number(row.iops));
    }
    if (row.mean_latency_s) {
      gauge(out, "ddtime_profile_latency_mean_seconds", "The mean of the runs' mean latency (--latency).", labels,
            number(*row.mean_latency_s));
    }
    if (row.p99_latency_s) {
      gauge(out, "ddtime_profile_latency_p99_seconds", "The median of the runs' 99th percentile latency.", labels,
            number(*row.p99_latency_s));
    }
  }
}

}  // namespace

std::string openmetrics_label_value(std::string_view value) {
  std::string quoted;
  for (const char c : value) {
    if (c == '\\') {
      quoted += "\\\\";
    } else if (c == '"') {
      quoted += "\\\"";
    } else if (c == '\n') {
      quoted += "\\n";
    } else {
      quoted += c;
    }
  }
  return quoted;
}

std::optional<std::string> OpenMetricsExporter::run_ended(const RunRecord& run) {
  Exposition out;
  run_samples(out, run, {});
  return out.text();
}

std::optional<std::string> OpenMetricsExporter::session_ended(const SessionRecord& session) {
  Exposition out;
  for (const RunRecord& run : session.runs) run_samples(out, run, run_labels(run));
  return out.text();
}

std::optional<std::string> OpenMetricsExporter::profile_ended(const ProfileRecord& profile) {
  Exposition out;
  profile_samples(out, profile);
  return out.text();
}

}  // namespace ddtime
