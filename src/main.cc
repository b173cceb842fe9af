// SPDX-License-Identifier: GPL-3.0-or-later
// main — the program name, the wiring of real OS, clock and stderr, and
// turning the outcome into an exit status. Nothing else.
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

#include "diag.h"
#include "operands.h"
#include "os.h"
#include "runner.h"
#include "timing.h"

namespace {

void write_all(int fd, std::string_view text) noexcept {
  while (!text.empty()) {
    ssize_t wrote = ::write(fd, text.data(), text.size());
    if (wrote < 0) {
      if (errno == EINTR) continue;
      return;
    }
    text.remove_prefix(static_cast<std::size_t>(wrote));
  }
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

}  // namespace

int main(int argc, char** argv) {
  // Messages carry argv[0] exactly as given, as GNU's do.
  std::string program = argc > 0 && argv[0] != nullptr ? argv[0] : "ddtime";
  ddtime::Diag diag(program, locale_is_utf8(), [](std::string_view text) { write_all(STDERR_FILENO, text); });
  try {
    ddtime::ParseOutcome parsed = ddtime::parse_operands(argc, argv, diag, invocation_of(program));
    switch (parsed.action) {
      case ddtime::ParseOutcome::Action::kFail:
        return EXIT_FAILURE;
      case ddtime::ParseOutcome::Action::kPrintAndExit:
        write_all(STDOUT_FILENO, parsed.stdout_text);
        return EXIT_SUCCESS;
      case ddtime::ParseOutcome::Action::kRun:
        break;
    }
    ddtime::PosixOs os;
    ddtime::MonotonicClock clock;
    ddtime::Runner runner(os, clock, diag, parsed.settings, isatty(STDERR_FILENO) == 1);
    return runner.run();
  } catch (const std::bad_alloc&) {
    diag.error(0, "memory exhausted");
  } catch (const std::exception& error) {
    diag.error(0, error.what());
  }
  return EXIT_FAILURE;
}
