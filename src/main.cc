// SPDX-License-Identifier: GPL-3.0-or-later
// main — the program name, the wiring of real OS, clock and stderr, and
// turning the outcome into an exit status. Nothing else. Built twice:
// ddtime, which executes the compare program for --compare
// (compare_launch), and with DDTIME_COMPARE_PROGRAM that program,
// ddtime-compare, which does nothing but compare: only it links nlohmann's
// parser and Boost.Math, so a dd run maps no libm and runs none of their
// static initialisers.
#include <langinfo.h>
#include <unistd.h>

#include <cerrno>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cli/operands.h"
#include "measure/environment.h"
#include "report/diag.h"
#include "system/os.h"
#if DDTIME_COMPARE_PROGRAM
#include "bench/compare_driver.h"
#else
#include "bench/compare_launch.h"
#include "bench/driver.h"
#endif
#include "measure/timing.h"
#include "report/messages.h"
#include "report/report_json.h"

namespace {

// Returns errno when the text could not all be written, else 0.
int write_all(int fd, std::string_view text) noexcept {
  while (!text.empty()) {
    ssize_t wrote = ::write(fd, text.data(), text.size());
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (wrote == 0) return ENOSPC;
    text.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return 0;
}

// GNU quotes values with ‘’ when the locale's charset is UTF-8. Only the
// character type category is loaded: messages stay in English and numbers
// keep '.' whatever the locale, as they must for scripts.
bool locale_is_utf8() noexcept {
  if (std::setlocale(LC_CTYPE, "") == nullptr) return false;
  const char* codeset = nl_langinfo(CODESET);
  return codeset != nullptr && std::strcmp(codeset, "UTF-8") == 0;
}

// Through a link named dd, ddtime is dd and nothing more.
ddtime::Invocation invocation_of(std::string_view program) noexcept {
  const std::size_t slash = program.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? program : program.substr(slash + 1);
  return name == "dd" ? ddtime::Invocation::kDd : ddtime::Invocation::kDdtime;
}

// Under --json with no path, standard error carries one JSON document
// whatever happens (defect C3): a failure that unwound to main says what
// it was in one too. Memory may be what failed; a document made without
// the heap stands in when the whole one cannot be made.
void say_failure_in_json(const ddtime::Diag& diag, int argc, char** argv) noexcept {
  try {
    ddtime::PosixOs os;
    const std::vector<std::string> command_line(argv, argv + argc);
    const ddtime::Environment environment = ddtime::gather_environment(os, command_line, {}, {});
    (void)write_all(STDERR_FILENO, ddtime::json_failure(diag.history(), environment, DDTIME_VERSION));
  } catch (...) {
    (void)write_all(STDERR_FILENO, ddtime::json_memory_exhausted());
  }
}

// Parses, then runs or prints; the exit status before stderr is checked.
int parse_and_run(int argc, char** argv, const std::string& program, ddtime::Diag& diag) noexcept {
  bool json_only = false;
  try {
    // JSON in place of the text: a refused command line says so in JSON.
    ddtime::OperandParser parser(argc, argv, diag, invocation_of(program));
    json_only = parser.json_replaces_text();
    if (json_only) diag.set_muted(true);
    ddtime::ParseOutcome parsed = parser.parse();
    ddtime::PosixOs os;
    // The JSON's environment and the SVG's heading repeat the command line
    // word for word; a run without reports spares the copy.
    std::vector<std::string> command_line;
    if (json_only || !parsed.plan.outputs.empty()) command_line.assign(argv, argv + argc);
    switch (parsed.action) {
      case ddtime::ParseOutcome::Action::kFail:
        if (json_only) {
          // The operands were refused: no file of theirs is described.
          const ddtime::Environment environment = ddtime::gather_environment(os, command_line, {}, {});
          (void)write_all(STDERR_FILENO, ddtime::json_refusal(diag.history(), environment, DDTIME_VERSION));
        }
        return EXIT_FAILURE;
      case ddtime::ParseOutcome::Action::kPrintAndExit:
        // GNU closes standard output at exit and fails if --help or
        // --version could not be written there.
        if (int err = write_all(STDOUT_FILENO, parsed.stdout_text); err != 0) {
          diag.error(err, "write error");
          return EXIT_FAILURE;
        }
        return EXIT_SUCCESS;
      case ddtime::ParseOutcome::Action::kRun:
        break;
    }
#if DDTIME_COMPARE_PROGRAM
    if (!parsed.plan.compare) {
      ddtime::Messages(diag, parsed.settings).only_compares();
      return EXIT_FAILURE;
    }
    return ddtime::run_compare(os, diag, parsed.settings, parsed.plan, std::vector<std::string>(argv, argv + argc));
#else
    if (parsed.plan.compare) return ddtime::start_compare_program(os, ddtime::Messages(diag, parsed.settings), argv);
    ddtime::MonotonicClock clock;
    // Only --progress and a profile (its line of where it stands) draw
    // differently on a terminal; GNU dd asks nothing of stderr, and neither
    // does a plain run here (one ioctl less).
    const bool stderr_is_terminal =
        (parsed.settings.ext.progress || parsed.plan.profile != nullptr) && isatty(STDERR_FILENO) == 1;
    ddtime::Driver driver(os, clock, diag, parsed.settings, parsed.plan, stderr_is_terminal, std::move(command_line));
    return driver.run();
#endif
  } catch (const std::bad_alloc&) {
    diag.error(0, "memory exhausted");
  } catch (const std::exception& error) {
    diag.error(0, error.what());
  }
  if (json_only) say_failure_in_json(diag, argc, argv);
  return EXIT_FAILURE;
}

}  // namespace

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
// libstdc++'s default terminate handler names the escaping exception by
// demangling its type, and so links the demangler: 40 KiB of code and 3 KiB
// of pointer tables that the loader relocates, one more page written at
// every start. Defined here, this one is linked in its place. Nothing
// escapes main (parse_and_run catches every exception), so reaching it
// means a bug, and abort() is all it needs to do; a core dump names the
// exception better than a message could.
namespace __gnu_cxx {
void __verbose_terminate_handler() {
  static constexpr std::string_view kWhy = "ddtime: terminate called: an exception escaped\n";
  [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, kWhy.data(), kWhy.size());
  std::abort();
}
}  // namespace __gnu_cxx
#endif

int main(int argc, char** argv) {
  // Messages carry argv[0] exactly as given, as GNU's do.
  std::string program = argc > 0 && argv[0] != nullptr ? argv[0] : "ddtime";
  // GNU dd checks standard error when it exits: statistics or a message it
  // could not write (stderr closed or full) make the exit status 1, even
  // after a copy that succeeded. Nothing written, nothing to check.
  bool stderr_lost = false;
  ddtime::Diag diag(program, locale_is_utf8(), [&stderr_lost](std::string_view text) {
    if (write_all(STDERR_FILENO, text) != 0) stderr_lost = true;
  });
  const int status = parse_and_run(argc, argv, program, diag);
  const int exit_status = stderr_lost ? EXIT_FAILURE : status;
  // Everything ddtime says has gone out through write(2) by now: nothing
  // waits in stdio, and no destructor or exit handler has work that
  // matters. Ending with _exit spares a short run the pages of the static
  // destructors and .fini at the far end of the text: 3 page faults, the
  // difference to GNU dd's start-up under LC_ALL=C (67 against 64).
  // Sanitizer builds return, so that LeakSanitizer's check at exit runs.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return exit_status;
#else
  _exit(exit_status);
#endif
}
