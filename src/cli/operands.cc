// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/operands.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cli/command_line.h"
#include "cli/dd_operands.h"
#include "cli/options.h"

namespace ddtime {
namespace {

// Through the dd link the first line keeps GNU's shape, which scripts
// test: the word "coreutils", and the version of the dd it stands in for
// last (`dd --version | head -1 | awk '{print $NF}'` before relying on
// status=progress), while saying that it is ddtime.
std::string version_text(Invocation invocation) {
  if (invocation == Invocation::kDd) {
    return "dd (ddtime " DDTIME_VERSION
           "; GNU coreutils compatible) 9.1\n"
           "ddtime stands in for GNU dd 9.1: the same operands, messages and exit status.\n"
           "Free software under the GNU GPL, version 3 or later; it comes with no warranty.\n";
  }
  return "ddtime " DDTIME_VERSION
         "\n"
         "Written by the ddtime authors; free software with no warranty.\n";
}

// "invalid argument 'X' for '--name'", the line that says what the option
// takes, and GNU's pointer to --help.
void invalid_argument(const po::option& option, const BadArgument& bad, const Diag& diag) {
  const std::string argument = option.value.empty() ? std::string() : option.value.front();
  diag.error(0, fmt::format("invalid argument {} for {}", diag.quote(argument),
                            diag.quote(fmt::format("--{}", option.string_key))));
  if (!bad.hint.empty()) diag.raw(fmt::format("{}\n", bad.hint));
  diag.try_help();
}

// getopt reads every option before dd looks at a single operand, and the
// first option that means anything ends the run.
std::optional<ParseOutcome::Action> ending_option(const CommandLine& line, const Diag& diag, Invocation invocation,
                                                  std::string& stdout_text) {
  for (const po::option& option : line.options) {
    if (option.string_key == kOptionError) {
      diag.error(0, option.value.front());
      diag.try_help();
      return ParseOutcome::Action::kFail;
    }
    if (option.string_key == "help") {
      // Every row, described for the text alone.
      Settings settings;
      Plan plan;
      const RowsWanted all = RowsWanted::all();
      const DdOperands operands(diag, settings, all);
      const DdtimeOptions extensions(settings.ext, plan, all);
      stdout_text = help_text(diag.program(), operands.rows(), gnu_options(all), extensions.rows());
      return ParseOutcome::Action::kPrintAndExit;
    }
    if (option.string_key == "version") {
      stdout_text = version_text(invocation);
      return ParseOutcome::Action::kPrintAndExit;
    }
  }
  return std::nullopt;
}

bool apply_options(const CommandLine& line, const DdtimeOptions& extensions, const Diag& diag) {
  for (const po::option& option : line.options) {
    try {
      apply(extensions.rows(), option);
    } catch (const BadArgument& bad) {
      invalid_argument(option, bad, diag);
      return false;
    }
  }
  return true;
}

// Every option in order, then every operand in order; the first complaint
// ends the parse. False when one was said.
bool apply_all(const CommandLine& line, DdOperands& operands, const DdtimeOptions& extensions, const Diag& diag) {
  if (!apply_options(line, extensions, diag)) return false;
  try {
    for (const po::option& operand : line.operands) {
      if (operand.string_key == kUnknownOperand) operands.unrecognized(operand.value.front());
      apply(operands.rows(), operand);
    }
  } catch (const Refused&) {
    return false;
  }
  return true;
}

bool asks_to_compare(const CommandLine& line) {
  return std::any_of(line.options.begin(), line.options.end(),
                     [](const po::option& option) { return option.string_key == "compare"; });
}

// --compare reads documents and copies nothing: of ddtime's options only
// those about its output mean anything with it, and every word that is not
// an option names a document; a dd operand is refused, not taken for a file.
constexpr std::string_view kCompareOptions[] = {"compare", "json", "csv", "svg", "units", "force"};

bool take_documents(const CommandLine& line, Plan& plan, const Diag& diag) {
  for (const po::option& option : line.options) {
    if (std::find(std::begin(kCompareOptions), std::end(kCompareOptions), option.string_key) ==
        std::end(kCompareOptions)) {
      diag.error(0, fmt::format("--compare reads documents; it does not combine with --{}", option.string_key));
      return false;
    }
  }
  for (const po::option& operand : line.operands) {
    if (operand.string_key != kUnknownOperand) {
      diag.error(0, fmt::format("--compare takes JSON documents, not dd operands: {}",
                                diag.quote(operand.original_tokens.front())));
      return false;
    }
    plan.documents.push_back(operand.value.front());
  }
  if (plan.documents.size() < 2) {
    diag.error(0, "--compare needs two documents or more: the baseline first, then those compared with it");
    diag.try_help();
    return false;
  }
  if (plan.on_stderr("csv") && plan.on_stderr("json")) {
    diag.error(0, "--csv and --json cannot both take the place of the table: give one a PATH");
    return false;
  }
  return true;
}

}  // namespace

OperandParser::OperandParser(int argc, const char* const* argv, const Diag& diag, Invocation invocation)
    : diag_(diag), invocation_(invocation) {
  const RowsWanted wanted(argc, argv);
  operands_ = std::make_unique<DdOperands>(diag, outcome_.settings, wanted);
  extensions_ = std::make_unique<DdtimeOptions>(outcome_.settings.ext, outcome_.plan, wanted);
  line_ = std::make_unique<CommandLine>(
      split_command_line(argc, argv, operands_->rows(), gnu_options(wanted), extensions_->rows()));
}

OperandParser::~OperandParser() = default;

bool OperandParser::json_replaces_text() const {
  // --compare's JSON takes the table's place on standard output; its
  // refusals stay words on standard error.
  if (asks_to_compare(*line_)) return false;
  bool replaces = false;
  for (const po::option& option : line_->options) {
    if (option.string_key == "json") replaces = option.value.empty();
  }
  return replaces;
}

ParseOutcome OperandParser::parse() {
  if (const auto ended = ending_option(*line_, diag_, invocation_, outcome_.stdout_text)) {
    outcome_.action = *ended;
    return std::move(outcome_);
  }
  if (asks_to_compare(*line_)) {
    const bool taken = apply_options(*line_, *extensions_, diag_) && take_documents(*line_, outcome_.plan, diag_);
    outcome_.action = taken ? ParseOutcome::Action::kRun : ParseOutcome::Action::kFail;
    return std::move(outcome_);
  }
  if (!apply_all(*line_, *operands_, *extensions_, diag_)) {
    outcome_.action = ParseOutcome::Action::kFail;
    return std::move(outcome_);
  }
  const bool csv_on_stderr = outcome_.plan.on_stderr("csv");
  outcome_.action = operands_->finish(csv_on_stderr) && check_plan(outcome_.settings, outcome_.plan, diag_)
                        ? ParseOutcome::Action::kRun
                        : ParseOutcome::Action::kFail;
  outcome_.settings.ext.invocation = invocation_;
  return std::move(outcome_);
}

ParseOutcome parse_operands(int argc, const char* const* argv, const Diag& diag, Invocation invocation) {
  return OperandParser(argc, argv, diag, invocation).parse();
}

}  // namespace ddtime
