// SPDX-License-Identifier: GPL-3.0-or-later
#include "e2e/json_corpus.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace ddtime::e2e {
namespace {

bool has_arg(const Options& options, std::string_view arg) {
  for (const std::string& given : options.args) {
    if (given == arg) return true;
  }
  return false;
}

// The test's name as a file name: suite.test, '/' of a parameterised one
// made '_'.
std::string test_name() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info == nullptr ? "outside-a-test" : std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  return name;
}

class Corpus {
 public:
  explicit Corpus(std::filesystem::path directory) : directory_(std::move(directory)) {}

  // Each line of text that is one of ddtime's documents: an object naming
  // the tool (a line of dd's own text never starts with '{').
  void keep_lines(std::string_view text, std::string_view from) {
    std::istringstream lines{std::string(text)};
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("{\"") && line.find("\"tool\":\"ddtime\"") != std::string::npos) keep(line, from);
    }
  }

 private:
  void keep(const std::string& document, std::string_view from) {
    static std::atomic<int> serial{0};
    const std::string name = fmt::format("{}.{}.{}.{}.json", test_name(), ::getpid(), serial++, from);
    std::ofstream(directory_ / name, std::ios::binary) << document << '\n';
  }

  std::filesystem::path directory_;
};

}  // namespace

void keep_json_documents(const Options& options, const Result& result) {
  const char* directory = std::getenv("DDTIME_JSON_CORPUS");
  if (directory == nullptr || *directory == '\0' || testing_another_dd()) return;
  std::error_code ignored;
  std::filesystem::create_directories(directory, ignored);
  Corpus corpus{directory};
  if (has_arg(options, "--json")) corpus.keep_lines(result.err, "stderr");
  if (has_arg(options, "--compare")) corpus.keep_lines(result.out, "stdout");
  for (const std::string& arg : options.args) {
    if (!arg.starts_with("--json=")) continue;
    std::filesystem::path path = arg.substr(7);
    if (path.is_relative()) path = options.cwd / path;
    if (!std::filesystem::is_regular_file(path, ignored)) continue;
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    corpus.keep_lines(text.str(), "file");
  }
}

}  // namespace ddtime::e2e
