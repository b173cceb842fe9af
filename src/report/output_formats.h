// SPDX-License-Identifier: GPL-3.0-or-later
// output_formats — the one table of report formats: each row the option
// that asks for it (--NAME, also its key in Plan::outputs), what messages
// call it, whether it needs a PATH, its --help words and how its exporter
// is built. The options, the report files' order, the refusals' option
// names and the console's exporters all read it; a new format is a row
// here and its exporter's files.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/plan.h"
#include "report/exporter.h"

namespace ddtime {

struct OutputFormat {
  const char* name;        // --NAME[=PATH]
  const char* title;       // "JSON": "failed to write the JSON report to ..."
  bool path_required;      // no PATH: no report on standard error in its place
  const char* empty_path;  // why --NAME= (an unset variable's PATH) is refused
  const char* help;        // --help's words
  std::unique_ptr<Exporter> (*make)(const ExportContext& context, std::optional<std::string> path);
};

// In the order the reports are opened, checked and written.
std::span<const OutputFormat> output_formats() noexcept;
// format's row, or null.
const OutputFormat* output_format(std::string_view name) noexcept;

// An exporter, with the row of its format.
struct FormatExporter {
  const OutputFormat* format;
  std::unique_ptr<Exporter> exporter;
};

// One exporter per report context's plan asks for, in the table's order.
// Requires: context outlives them.
std::vector<FormatExporter> make_exporters(const ExportContext& context);

}  // namespace ddtime
