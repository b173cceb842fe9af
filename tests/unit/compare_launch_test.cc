// SPDX-License-Identifier: GPL-3.0-or-later
// compare_launch: ddtime --compare executes ddtime-compare with its own
// arguments, found beside the running binary or in the libexec directory
// relative to it, and says which could not be started, and why, when
// none could.
#include "bench/compare_launch.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "fakes/fake_os.h"

namespace ddtime {
namespace {

using testing::FakeOs;

struct Launch {
  FakeOs os;
  std::string err;
  Diag diag{"ddtime", true, [this](std::string_view text) { err.append(text); }};
  Settings settings;
  int run(std::vector<std::string> words) {
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    return start_compare_program(os, Messages(diag, settings), argv.data());
  }
};

TEST(CompareLaunch, TheProgramIsLookedForBesideTheBinaryThenInItsLibexecDirectory) {
  const std::vector<std::string> places = compare_program_places("/opt/dd/bin/ddtime");
  ASSERT_EQ(places.size(), 2u);
  EXPECT_EQ(places[0], "/opt/dd/bin/ddtime-compare");
  EXPECT_EQ(places[1], "/opt/dd/bin/../libexec/ddtime/ddtime-compare");
}

TEST(CompareLaunch, EachPlaceIsTriedWithTheArgumentsAsGivenAndNoneThereIsSaid) {
  Launch launch;
  launch.os.links["/proc/self/exe"] = "/opt/dd/bin/ddtime";
  EXPECT_EQ(launch.run({"./dt", "--compare", "a.json", "b.json"}), 1);
  const std::vector<std::string> argv = {"./dt", "--compare", "a.json", "b.json"};
  ASSERT_EQ(launch.os.executed.size(), 2u);
  EXPECT_EQ(launch.os.executed[0][0], "/opt/dd/bin/ddtime-compare");
  EXPECT_EQ(launch.os.executed[1][0], "/opt/dd/bin/../libexec/ddtime/ddtime-compare");
  for (const std::vector<std::string>& call : launch.os.executed) {
    EXPECT_EQ(std::vector<std::string>(call.begin() + 1, call.end()), argv);
  }
  EXPECT_EQ(launch.err,
            "ddtime: --compare runs '/opt/dd/bin/../libexec/ddtime/ddtime-compare', which could not be started: "
            "No such file or directory\n");
}

TEST(CompareLaunch, AProgramThereThatCannotStartIsNamedAndNoOtherIsTried) {
  Launch launch;
  launch.os.links["/proc/self/exe"] = "/usr/bin/ddtime";
  launch.os.exec_error = EACCES;
  EXPECT_EQ(launch.run({"ddtime", "--compare", "a.json"}), 1);
  EXPECT_EQ(launch.os.executed.size(), 1u);
  EXPECT_EQ(launch.err,
            "ddtime: --compare runs '/usr/bin/ddtime-compare', which could not be started: Permission denied\n");
}

}  // namespace
}  // namespace ddtime
