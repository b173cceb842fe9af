// SPDX-License-Identifier: GPL-3.0-or-later
// operands — argv to Settings and Plan. dd's key=value operands and the --long
// options share one description, which --help prints. Words every complaint
// about a bad operand the way GNU dd 9.1 does, through Diag.
#pragma once

#include <memory>
#include <string>

#include "model/plan.h"
#include "model/settings.h"
#include "report/diag.h"

namespace ddtime {

struct ParseOutcome {
  enum class Action {
    kRun,           // settings are valid: copy
    kPrintAndExit,  // --help or --version: write stdout_text, exit 0
    kFail,          // a message went to diag already: exit 1
  };
  Action action = Action::kFail;
  Settings settings;
  Plan plan;
  std::string stdout_text;
};

class DdOperands;
class DdtimeOptions;
struct CommandLine;

// One command line, read once: its rows (dd's operands, ddtime's options)
// are built and argv is split in the constructor, which says nothing; the
// values are judged, and complaints said, by parse().
class OperandParser {
 public:
  // argv[0] is not looked at: Diag already carries the program name.
  OperandParser(int argc, const char* const* argv, const Diag& diag, Invocation invocation);
  ~OperandParser();
  OperandParser(const OperandParser&) = delete;
  OperandParser& operator=(const OperandParser&) = delete;

  // Whether --json without a PATH is on the command line (the last --json
  // decides): then JSON replaces every line of text on standard error, the
  // complaints about the command line included, and main mutes diag before
  // parse() and gives a refusal a JSON document of its own.
  bool json_replaces_text() const;

  // Once.
  ParseOutcome parse();

 private:
  const Diag& diag_;
  Invocation invocation_;
  ParseOutcome outcome_;
  std::unique_ptr<DdOperands> operands_;
  std::unique_ptr<DdtimeOptions> extensions_;
  std::unique_ptr<CommandLine> line_;
};

ParseOutcome parse_operands(int argc, const char* const* argv, const Diag& diag,
                            Invocation invocation = Invocation::kDd);

}  // namespace ddtime
