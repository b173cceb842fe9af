// SPDX-License-Identifier: GPL-3.0-or-later
// fault_case — one row of a fault matrix: how to set the fault up, the dd
// operands, and what GNU dd 9.1 did (stderr with timings masked, exit
// status, the output bytes as a layout, and what reached the faulty layer).
// The rows' expectations were learned by running each row against /bin/dd:
//
//   DDTIME_E2E_DD=/bin/dd DDTIME_FAULT_LEARN=/tmp/rows.txt ddtime_fault_tests
//
// writes every row, with the expectations filled in from what actually
// happened, to /tmp/rows.txt in the form below (nothing is asserted then).
// To add a case, add its row with empty expectations, learn it from /bin/dd
// (--gtest_filter narrows the run) and paste the row back.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "e2e/harness.h"
#include "fault/fault_fs.h"

namespace ddtime::fault {

// Plain pointers and a fixed array, so that the tables are constant data
// rather than a large initialiser to compile and run.
struct Case {
  const char* name;
  const char* setup;       // faultfs control lines, or DDTIME_SHIM rules
  const char* args[8];     // dd operands, relative to the test directory
  const char* input;       // layout of a local file "in" made first ("": none)
  const char* stdin_pipe;  // layout fed through a pipe ("": /dev/null)
  const char* out;         // output file to check ("": captured stdout)
  // What GNU dd 9.1 did.
  const char* err;     // stderr, timing figures masked
  const char* status;  // "exit 0", "exit 1", ...
  const char* output;  // layout of the output (see fault_fs.h)
  const char* io;      // the faultfs request log or the shim's injections (log_digest)

  std::vector<std::string> operands() const {
    std::vector<std::string> list;
    for (const char* a : args) {
      if (a != nullptr) list.emplace_back(a);
    }
    return list;
  }
  friend std::ostream& operator<<(std::ostream& os, const Case& c) { return os << c.name; }
};

// Test names: the row's name.
struct RowName {
  std::string operator()(const ::testing::TestParamInfo<Case>& p) const { return p.param.name; }
};

inline std::string cpp_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A row as C++ source, with the expectations taken from what happened.
inline std::string row_source(const Case& c, const std::string& err, const std::string& status,
                              const std::string& output, const std::string& io) {
  std::string args;
  for (const auto& a : c.operands()) args += (args.empty() ? "" : ", ") + cpp_string(a);
  return fmt::format("    {{{}, {}, {{{}}}, {}, {}, {},\n     {},\n     {}, {},\n     {}}},\n", cpp_string(c.name),
                     cpp_string(c.setup), args, cpp_string(c.input), cpp_string(c.stdin_pipe), cpp_string(c.out),
                     cpp_string(err), cpp_string(status), cpp_string(output), cpp_string(io));
}

// In learning mode, appends the row and returns true: the caller then
// asserts nothing.
inline bool learn(const Case& c, const std::string& err, const std::string& status, const std::string& output,
                  const std::string& io) {
  const char* path = std::getenv("DDTIME_FAULT_LEARN");
  if (path == nullptr || *path == '\0') return false;
  if (FILE* f = std::fopen(path, "a")) {
    std::fputs(row_source(c, err, status, output, io).c_str(), f);
    std::fclose(f);
  }
  return true;
}

// The checks every row makes, with the whole actual row printed on any
// mismatch so a deliberate change is easy to review.
#define EXPECT_ROW(c, r, actual_output, actual_io)                                             \
  do {                                                                                         \
    const std::string row_err = (r).err_masked();                                              \
    const std::string row_status = (r).status();                                               \
    if (!::ddtime::fault::learn((c), row_err, row_status, (actual_output), (actual_io))) {     \
      const std::string row_actual =                                                           \
          ::ddtime::fault::row_source((c), row_err, row_status, (actual_output), (actual_io)); \
      EXPECT_EQ(row_err, (c).err) << "actual row:\n" << row_actual;                            \
      EXPECT_EQ(row_status, (c).status) << "actual row:\n" << row_actual;                      \
      EXPECT_EQ((actual_output), (c).output) << "actual row:\n" << row_actual;                 \
      EXPECT_EQ((actual_io), (c).io) << "actual row:\n" << row_actual;                         \
    }                                                                                          \
  } while (0)

}  // namespace ddtime::fault
