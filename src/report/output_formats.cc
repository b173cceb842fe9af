// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/output_formats.h"

#include "report/csv_exporter.h"
#include "report/json_exporter.h"
#include "report/openmetrics_exporter.h"
#include "report/svg_exporter.h"

namespace ddtime {
namespace {

template <typename Format>
std::unique_ptr<Exporter> make(const ExportContext& context, std::optional<std::string> path) {
  return std::make_unique<Format>(context, std::move(path));
}

// clang-format off
constexpr OutputFormat kFormats[] = {
    {"json", "JSON", false,
     "A PATH names the file the report goes to; --json alone puts it on standard error in place of the text.",
     "write one JSON object describing the run to PATH, or to standard error in place of all other text when no "
     "PATH is given",
     make<JsonExporter>},
    {"csv", "CSV", false,
     "A PATH names the file the report goes to; --csv alone puts it on standard error in place of the text.",
     "one CSV line per run, to PATH, or to standard error in place of all other text",
     make<CsvExporter>},
    {"svg", "SVG", true,
     "A PATH names the file the chart goes to.",
     "draw what was measured as an SVG chart in PATH: a run's time, a session's or a profile's bars, the "
     "timeline, the latency histogram, or with --compare the ratios",
     make<SvgExporter>},
    {"openmetrics", "OpenMetrics", true,
     "A PATH names the file the metrics go to.",
     "write what was measured to PATH in Prometheus's text format (node_exporter's textfile collector): "
     "bytes, records, seconds, the rate and --latency's percentiles, labelled per run or per test",
     make<OpenMetricsExporter>},
};
// clang-format on

}  // namespace

std::span<const OutputFormat> output_formats() noexcept { return kFormats; }

const OutputFormat* output_format(std::string_view name) noexcept {
  for (const OutputFormat& format : kFormats) {
    if (name == format.name) return &format;
  }
  return nullptr;
}

std::vector<FormatExporter> make_exporters(const ExportContext& context) {
  std::vector<FormatExporter> exporters;
  for (const OutputFormat& row : kFormats) {
    const OutputRequest* asked = context.plan.output(row.name);
    if (asked != nullptr) exporters.push_back({&row, row.make(context, asked->path)});
  }
  return exporters;
}

}  // namespace ddtime
