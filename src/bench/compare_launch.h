// SPDX-License-Identifier: GPL-3.0-or-later
// compare_launch — `ddtime --compare`: executes the program that compares
// (ddtime-compare) with the same arguments, found beside the running
// executable (a build tree) or in ddtime's libexec directory relative to it
// (an installed tree, wherever its prefix). Only that program links
// nlohmann's parser and Boost.Math, whose libm and static initialisers a
// plain dd run would otherwise pay for at every start.
#pragma once

#include <string>
#include <vector>

#include "report/messages.h"
#include "system/os.h"

namespace ddtime {

// Where the compare program may be, in the order tried, for an executable
// at executable (a resolved path).
std::vector<std::string> compare_program_places(const std::string& executable);

// Returns only when no place held a program that could be started: the
// exit status, 1, after saying why through messages.
int start_compare_program(Os& os, const Messages& messages, char** argv);

}  // namespace ddtime
