// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/report_compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <optional>

#include "model/utf8.h"
#include "report/json.h"
#include "report/report_session.h"

namespace ddtime {

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      const Utf8Sequence sequence = decode_utf8(text.substr(i));
      if (sequence.length == 0) {
        out += fmt::format("\\x{:02x}", byte);  // no valid UTF-8: the byte
        ++i;
      } else if (json::moves_text(sequence.code_point)) {
        out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(sequence.code_point));
        i += sequence.length;
      } else {
        out.append(text.substr(i, sequence.length));
        i += sequence.length;
      }
      continue;
    }
    switch (byte) {
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          out += fmt::format("\\x{:02x}", byte);
        } else {
          out += static_cast<char>(byte);
        }
    }
    ++i;
  }
  return out;
}

namespace {

// A ratio with two decimals, or three where two would read 1.00 for a
// ratio that is not 1.
std::string ratio_text(double ratio) {
  const std::string two = fmt::format("{:.2f}", ratio);
  return two == "1.00" && ratio != 1 ? fmt::format("{:.3f}", ratio) : two;
}

std::string interval_text(const RatioInterval& interval) {
  return fmt::format("{}-{}", ratio_text(interval.low), ratio_text(interval.high));
}

std::string part_words(const KeyPart& part) {
  if (part.name == "bs" && part.number) return "bs=" + bs_text(*part.number);
  if (part.name == "iodepth" && part.number) return fmt::format("depth {}", *part.number);
  if (part.number) return fmt::format("{}={}", printable(part.name), *part.number);
  return printable(part.text);
}

// The reason after "~", or empty for a verdict of faster or slower.
std::string reason(const RowComparison& row) {
  switch (row.verdict) {
    case Verdict::kTooFew:
      return fmt::format("too few runs ({} and {}: the smallest p a rank test can give is {:.2f})", row.baseline_runs,
                         row.other_runs, row.smallest_p);
    case Verdict::kNoChange:
      return fmt::format("no significant difference (p={:.2f})", row.test->p);
    case Verdict::kNoRuns:
      if (row.baseline_zero_runs + row.other_zero_runs == 0) {
        return fmt::format("no counted runs to compare ({} and {})", row.baseline_runs, row.other_runs);
      }
      if (row.baseline_runs + row.other_runs == 0) {
        return fmt::format("{} and {} runs, all of 0 B/s: nothing to compare", row.baseline_zero_runs,
                           row.other_zero_runs);
      }
      return fmt::format("{} and {} runs, {} and {} of them of 0 B/s: nothing to compare",
                         row.baseline_runs + row.baseline_zero_runs, row.other_runs + row.other_zero_runs,
                         row.baseline_zero_runs, row.other_zero_runs);
    case Verdict::kFaster:
    case Verdict::kSlower:
      break;
  }
  return {};
}

std::string_view verdict_word(Verdict verdict) {
  return verdict == Verdict::kFaster ? "faster" : verdict == Verdict::kSlower ? "slower" : "~";
}

using Cells = std::vector<std::string>;

std::string table(const std::vector<Cells>& lines) {
  std::vector<std::size_t> widths;
  for (const Cells& cells : lines) {
    widths.resize(std::max(widths.size(), cells.size()), 0);
    for (std::size_t i = 0; i < cells.size(); ++i) widths[i] = std::max(widths[i], cells[i].size());
  }
  std::string out;
  for (const Cells& cells : lines) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      line += i + 1 == cells.size() ? cells[i] : fmt::format("{:<{}}  ", cells[i], widths[i]);
    }
    out += line + "\n";
  }
  return out;
}

// One unit for a whole table, so that its figures line up: a profile's in
// the unit of the profile's own table (MB/s, or MiB/s or B/s as --units
// says), a session's in the prefix of its largest median (IEC, or SI as
// --units says).
struct TableUnit {
  std::string_view name = "B/s";
  double bytes = 1;
  bool profile = false;  // digits as the profile table prints them
  std::string text(double rate) const {
    const double value = rate / bytes;
    if (!profile) return fmt::format("{:.2f} {}", value, name);
    const int decimals = value >= 100 ? 0 : value >= 1 ? 1 : 3;
    return fmt::format("{:.{}f} {}", value, decimals, name);
  }
};

TableUnit table_unit(const ComparedDocument& other, bool profiles, std::optional<RateUnits> units) {
  if (units == RateUnits::kBytes) return {"B/s", 1, profiles};
  if (profiles) {
    if (units == RateUnits::kIec || units == RateUnits::kIecAndBytes) return {"MiB/s", 1048576.0, true};
    return {"MB/s", 1e6, true};
  }
  const bool si = units == RateUnits::kSi || units == RateUnits::kBoth || units == RateUnits::kAll;
  constexpr std::array<std::string_view, 5> kIec = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s"};
  constexpr std::array<std::string_view, 5> kSi = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
  const double base = si ? 1000.0 : 1024.0;
  double largest = 0;
  for (const ComparedRow& row : other.rows) {
    largest = std::max({largest, row.figures.baseline_median.value_or(0), row.figures.other_median.value_or(0)});
  }
  std::size_t prefix = 0;
  double bytes = 1;
  while (prefix + 1 < kIec.size() && largest >= bytes * base) {
    bytes *= base;
    ++prefix;
  }
  return {si ? kSi[prefix] : kIec[prefix], bytes, false};
}

// p as the table shows it: three decimals, or "<0.001" below, where three
// decimals would read 0.
std::string p_text(double p) { return p < 0.001 ? "<0.001" : fmt::format("{:.3f}", p); }

Cells row_cells(const ComparedRow& row, const TableUnit& unit) {
  const RowComparison& f = row.figures;
  const auto rate = [&](const std::optional<double>& median) { return median ? unit.text(*median) : "-"; };
  return {row_label(row.key),
          rate(f.baseline_median),
          rate(f.other_median),
          f.ratio ? ratio_text(*f.ratio) : "-",
          f.interval ? interval_text(*f.interval) : "n/a",
          f.test ? p_text(f.test->p) : "-",
          fmt::format("{}, {}", f.baseline_runs + f.baseline_zero_runs, f.other_runs + f.other_zero_runs),
          verdict_text(f)};
}

// A row that one document has and the other lacks (compared with --force).
Cells only_cells(const RowKey& key, std::string_view in) {
  return {row_label(key), "-", "-", "-", "-", "-", "-", fmt::format("only in {}", printable(in))};
}

std::string environment_lines(const ComparisonReport& report) {
  std::string out;
  for (const EnvironmentDifference& difference : report.environment) {
    std::string values;
    for (const std::optional<std::string>& value : difference.values) {
      values += (values.empty() ? "" : " | ") + (value ? printable(*value) : std::string("-"));
    }
    out += fmt::format("environment: {}: {}\n", printable(difference.path), values);
  }
  if (!report.without_environment.empty()) {
    std::string names;
    for (const std::string& name : report.without_environment) names += (names.empty() ? "" : ", ") + printable(name);
    out += fmt::format("environment: not recorded in {}\n", names);
  }
  if (out.empty()) out = "environment: the same in every document\n";
  return out;
}

}  // namespace

std::string row_label(const RowKey& key) {
  std::string label;
  for (const KeyPart& part : key) {
    if (part.name == "pass" && part.text == "copy") continue;  // a plain copy says nothing more
    if (!label.empty()) label += ' ';
    label += part_words(part);
  }
  return label;
}

std::string verdict_text(const RowComparison& row) {
  if (row.verdict == Verdict::kFaster || row.verdict == Verdict::kSlower) {
    const bool faster = row.verdict == Verdict::kFaster;
    const double ratio = faster ? *row.ratio : 1 / *row.ratio;
    std::string text = fmt::format("{}x {}", ratio_text(ratio), verdict_word(row.verdict));
    if (row.interval) {
      const RatioInterval shown = faster ? *row.interval : RatioInterval{1 / row.interval->high, 1 / row.interval->low};
      text += fmt::format(" [{}]", interval_text(shown));
    }
    return text;
  }
  return "~ " + reason(row);
}

std::string comparison_text(const ComparisonReport& report, std::optional<RateUnits> units) {
  std::string out = environment_lines(report);
  const std::string baseline = printable(report.names.front());
  for (const ComparedDocument& other : report.others) {
    const std::string name = printable(other.name);
    out += fmt::format("{} against {}:\n", name, baseline);
    const TableUnit unit = table_unit(other, report.profiles, units);
    std::vector<Cells> lines{{"row", baseline, name, "ratio", "95% interval", "p", "runs", "verdict"}};
    for (const ComparedRow& row : other.rows) lines.push_back(row_cells(row, unit));
    for (const RowKey& key : other.only_baseline) lines.push_back(only_cells(key, report.names.front()));
    for (const RowKey& key : other.only_other) lines.push_back(only_cells(key, other.name));
    out += table(lines);
  }
  return out;
}

namespace {

void put_side(json::Object side, const std::optional<double>& median, std::size_t runs, std::size_t zero_runs) {
  if (median) {
    side.decimal("median_bytes_per_second", json::rounded(*median, 3));
  } else {
    side.null("median_bytes_per_second");
  }
  side.integer("runs", static_cast<std::int64_t>(runs + zero_runs));
  side.integer("zero_rate_runs", static_cast<std::int64_t>(zero_runs));
}

void put_key(json::Object key, const RowKey& parts) {
  for (const KeyPart& part : parts) {
    if (part.number) {
      key.integer(part.name, *part.number);
    } else {
      key.string(part.name, part.text);
    }
  }
}

void put_row(json::Object row, const std::string& document, const ComparedRow& source) {
  const RowComparison& f = source.figures;
  row.string("document", document);
  put_key(row.object("key"), source.key);
  put_side(row.object("baseline"), f.baseline_median, f.baseline_runs, f.baseline_zero_runs);
  put_side(row.object("other"), f.other_median, f.other_runs, f.other_zero_runs);
  if (f.ratio) {
    row.decimal("ratio", json::rounded(*f.ratio, 6));
  } else {
    row.null("ratio");
  }
  if (f.interval) {
    row.array("ci95").decimal(json::rounded(f.interval->low, 6)).decimal(json::rounded(f.interval->high, 6));
  } else {
    row.null("ci95");
  }
  if (f.test) {
    row.decimal("u", json::rounded(f.test->u, 1))
        .decimal("p", json::rounded(f.test->p, 6))
        .boolean("p_exact", f.test->exact);
  } else {
    row.null("u").null("p").null("p_exact");
  }
  row.string("verdict", verdict_word(f.verdict));
  if (const std::string why = reason(f); why.empty()) {
    row.null("reason");
  } else {
    row.string("reason", why);
  }
}

void put_only(json::Array& rows, const std::string& document, const std::vector<RowKey>& keys, const std::string& in) {
  for (const RowKey& key : keys) {
    json::Object row = rows.object();
    row.string("document", document);
    put_key(row.object("key"), key);
    row.string("only_in", in);
  }
}

void put_environment(json::Object& comparison, const ComparisonReport& report) {
  {
    json::Array names = comparison.array("environment_not_recorded");
    for (const std::string& name : report.without_environment) names.string(name);
  }
  json::Array differences = comparison.array("environment_differences");
  for (const EnvironmentDifference& source : report.environment) {
    json::Object difference = differences.object();
    difference.string("key", source.path);
    json::Array values = difference.array("values");
    for (const std::optional<std::string>& value : source.values) {
      if (value) {
        values.string(*value);
      } else {
        values.null();
      }
    }
  }
}

// RFC 4180: a field with a comma, a quote or a line break is quoted, its
// quotes doubled.
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The shortest text that reads back as the same double, as in the JSON;
// an empty field where there is none (or it is not finite).
std::string csv_number(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? json::shortest(*value) : std::string();
}

}  // namespace

std::string comparison_json(const ComparisonReport& report, std::string_view version) {
  json::Writer out;
  {
    json::Object document = out.object();
    document.integer("schema", 1).string("tool", "ddtime").string("version", version);
    json::Object comparison = document.object("comparison");
    comparison.string("baseline", report.names.front());
    {
      json::Array names = comparison.array("documents");
      for (const std::string& name : report.names) names.string(name);
    }
    put_environment(comparison, report);
    {
      json::Array rows = comparison.array("rows");
      for (const ComparedDocument& other : report.others) {
        for (const ComparedRow& row : other.rows) put_row(rows.object(), other.name, row);
      }
    }
    json::Array unmatched = comparison.array("unmatched_rows");
    for (const ComparedDocument& other : report.others) {
      put_only(unmatched, other.name, other.only_baseline, report.names.front());
      put_only(unmatched, other.name, other.only_other, other.name);
    }
  }
  return out.text() + "\n";
}

std::string comparison_csv(const ComparisonReport& report) {
  std::string out =
      "document,baseline,row,baseline_median_bytes_per_second,baseline_runs,median_bytes_per_second,runs,ratio,"
      "ci95_low,ci95_high,u,p,p_exact,verdict,reason\n";
  const std::string baseline = csv_field(printable(report.names.front()));
  for (const ComparedDocument& other : report.others) {
    const std::string name = csv_field(printable(other.name));
    for (const ComparedRow& row : other.rows) {
      const RowComparison& f = row.figures;
      const std::optional<double> low = f.interval ? std::optional<double>(f.interval->low) : std::nullopt;
      const std::optional<double> high = f.interval ? std::optional<double>(f.interval->high) : std::nullopt;
      const std::optional<double> u = f.test ? std::optional<double>(f.test->u) : std::nullopt;
      const std::optional<double> p = f.test ? std::optional<double>(f.test->p) : std::nullopt;
      const std::string exact = f.test ? (f.test->exact ? "true" : "false") : "";
      out +=
          fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", name, baseline, csv_field(row_label(row.key)),
                      csv_number(f.baseline_median), f.baseline_runs + f.baseline_zero_runs, csv_number(f.other_median),
                      f.other_runs + f.other_zero_runs, csv_number(f.ratio), csv_number(low), csv_number(high),
                      csv_number(u), csv_number(p), exact, verdict_word(f.verdict), csv_field(reason(f)));
    }
    const auto only = [&](const std::vector<RowKey>& keys, const std::string& in) {
      for (const RowKey& key : keys) {
        out += fmt::format("{},{},{},,,,,,,,,,,-,{}\n", name, baseline, csv_field(row_label(key)),
                           csv_field(fmt::format("only in {}", printable(in))));
      }
    };
    only(other.only_baseline, report.names.front());
    only(other.only_other, other.name);
  }
  return out;
}

std::vector<SvgPanel> comparison_panels(const ComparisonReport& report) {
  std::vector<SvgPanel> panels;
  const std::string& baseline = report.names.empty() ? std::string() : report.names.front();
  // One scale for every panel: each reaches the smallest and the largest
  // ratio of all, so that panels compare by eye.
  double low = 1, high = 1;
  for (const ComparedDocument& other : report.others) {
    for (const ComparedRow& row : other.rows) {
      for (const std::optional<double>& v :
           {row.figures.ratio, row.figures.interval ? std::optional<double>(row.figures.interval->low) : std::nullopt,
            row.figures.interval ? std::optional<double>(row.figures.interval->high) : std::nullopt}) {
        if (v && std::isfinite(*v) && *v > 0) {
          low = std::min(low, *v);
          high = std::max(high, *v);
        }
      }
    }
  }
  for (const ComparedDocument& other : report.others) {
    IntervalChart chart;
    chart.title = fmt::format("{} against {}: ratio of the median rates, 95% interval", other.name, baseline);
    chart.low = low;
    chart.high = high;
    for (const ComparedRow& row : other.rows) {
      if (!row.figures.ratio) continue;
      // The verdict says the ratio once: "1.21x faster [...]" has it; "~"
      // and its reason get it in front.
      const bool decided = row.figures.verdict == Verdict::kFaster || row.figures.verdict == Verdict::kSlower;
      const std::string verdict =
          decided ? verdict_text(row.figures)
                  : fmt::format("{}x {}", ratio_text(*row.figures.ratio), verdict_text(row.figures));
      RatioRow drawn{row_label(row.key), *row.figures.ratio, std::nullopt, std::nullopt, verdict};
      // The label breaks between its parts ("bs=1M" / "depth 1"), never in one.
      for (const KeyPart& part : row.key) {
        if (part.name == "pass" && part.text == "copy") continue;
        drawn.phrases.push_back(part_words(part));
      }
      if (row.figures.interval) {
        drawn.low = row.figures.interval->low;
        drawn.high = row.figures.interval->high;
      }
      chart.rows.push_back(std::move(drawn));
    }
    panels.push_back(std::move(chart));
  }
  return panels;
}

}  // namespace ddtime
