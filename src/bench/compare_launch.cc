// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/compare_launch.h"

#include <linux/limits.h>

#include <cerrno>

namespace ddtime {

namespace {

// The libexec directory from the binary directory, set by the build from
// the install rules (GNUInstallDirs): "../libexec/ddtime" by default.
#ifndef DDTIME_COMPARE_DIR_FROM_BIN
#define DDTIME_COMPARE_DIR_FROM_BIN "../libexec/ddtime"
#endif

constexpr const char* kCompareProgram = "ddtime-compare";

}  // namespace

std::vector<std::string> compare_program_places(const std::string& executable) {
  const std::size_t slash = executable.rfind('/');
  const std::string directory = slash == std::string::npos ? "." : executable.substr(0, slash);
  return {directory + "/" + kCompareProgram, directory + "/" + DDTIME_COMPARE_DIR_FROM_BIN + "/" + kCompareProgram};
}

int start_compare_program(Os& os, const Messages& messages, char** argv) {
  // /proc/self/exe names the running binary whatever argv[0] says (a
  // link, a relative name, PATH).
  char executable[PATH_MAX];
  if (const IoResult found = os.real_path("/proc/self/exe", executable); !found.ok()) {
    messages.compare_program_failed(kCompareProgram, found.err);
    return 1;
  }
  const std::vector<std::string> places = compare_program_places(executable);
  int err = ENOENT;
  for (const std::string& place : places) {
    // argv as given: the compare program's messages name the program as
    // this one's would.
    const IoResult started = os.execute(place.c_str(), argv);
    err = started.err;
    if (err != ENOENT) {
      messages.compare_program_failed(place, err);
      return 1;
    }
  }
  messages.compare_program_failed(places.back(), err);
  return 1;
}

}  // namespace ddtime
