// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target for the operand parser (src/cli/operands.h): the input is an
// argv vector, its arguments separated by NUL bytes. parse_operands must turn
// every vector into settings, a --help/--version text or a complaint, never
// a crash, an escaped exception, undefined behaviour or a leak.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "cli/operands.h"
#include "report/diag.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Past a few KiB nothing new is reached, only time is spent.
  if (size > 4096) return 0;
  std::vector<std::string> args{"dd"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\0') {
      args.push_back(current);
      current.clear();
    } else {
      current.push_back(static_cast<char>(data[i]));
    }
  }
  if (size > 0) args.push_back(current);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(args.size());

  // One parse per input; the length picks the program name and the
  // quoting style, so both of each are explored.
  const auto invocation = (size & 2) != 0 ? ddtime::Invocation::kDdtime : ddtime::Invocation::kDd;
  std::size_t said = 0;
  const ddtime::Diag diag(invocation == ddtime::Invocation::kDd ? "dd" : "ddtime", (size & 1) != 0,
                          [&said](std::string_view text) { said += text.size(); });
  const ddtime::ParseOutcome outcome = ddtime::parse_operands(argc, argv.data(), diag, invocation);
  // A refusal always says why; --help and --version always print.
  if (outcome.action == ddtime::ParseOutcome::Action::kFail && said == 0) std::abort();
  if (outcome.action == ddtime::ParseOutcome::Action::kPrintAndExit && outcome.stdout_text.empty()) {
    std::abort();
  }
  return 0;
}
