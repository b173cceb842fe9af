// SPDX-License-Identifier: GPL-3.0-or-later
// harness — runs the dd under test as a child process with an explicit argv
// and environment, feeds its stdin, captures its stdout and stderr, and
// reports how it ended. Expectations live in the tests; this file only runs.
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddtime::e2e {

using namespace std::chrono_literals;
using Millis = std::chrono::milliseconds;

// The binary under test: $DDTIME_E2E_DD when set (e.g. /bin/dd, to check the
// expectations against GNU), else the `dd` link next to the build. It is
// executed with argv[0] = "dd", so messages start "dd: " (Options::as_ddtime
// runs ddtime_binary() as "ddtime" instead).
std::string dd_binary();

// True when $DDTIME_E2E_DD names another dd (e.g. GNU's): tests of ddtime's
// own extensions then skip, since there is nothing of ours to test.
bool testing_another_dd();

// The ddtime binary itself ($<TARGET_FILE:ddtime>), for Options::as_ddtime.
std::string ddtime_binary();

// One piece of a chunked stdin feed. The writer puts `bytes` into the pipe
// (atomically: keep chunks <= 4096 bytes), waits until the child has drained
// the pipe, and then sleeps `pause_after`. Because at most one chunk is ever
// in the pipe, each read() of the child returns at most one chunk.
struct Chunk {
  std::string bytes;
  Millis pause_after{0};
};

struct Stdin {
  enum class Kind { kDevNull, kFile, kClosed, kBytes, kChunks, kManual };
  Kind kind = Kind::kDevNull;
  std::string path;           // kFile, relative to the test directory
  std::string bytes;          // kBytes
  std::vector<Chunk> chunks;  // kChunks

  static Stdin dev_null() { return {}; }
  static Stdin file(std::string path) { return {Kind::kFile, std::move(path), {}, {}}; }
  static Stdin closed() { return {Kind::kClosed, {}, {}, {}}; }
  // A pipe that receives `bytes` and is then closed.
  static Stdin pipe(std::string bytes) { return {Kind::kBytes, {}, std::move(bytes), {}}; }
  // A pipe fed chunk by chunk (see Chunk), then closed.
  static Stdin chunked(std::vector<std::string> parts, Millis pause = 0ms);
  static Stdin timed_chunks(std::vector<Chunk> chunks) { return {Kind::kChunks, {}, {}, std::move(chunks)}; }
  // A pipe the test writes with DdProcess::write_stdin and closes itself.
  static Stdin manual() { return {Kind::kManual, {}, {}, {}}; }
};

struct Stdout {
  enum class Kind { kCapture, kFile, kClosed, kBrokenPipe };
  Kind kind = Kind::kCapture;
  std::string path;  // kFile: opened O_WRONLY|O_CREAT|O_TRUNC (devices as is)

  static Stdout capture() { return {}; }
  static Stdout file(std::string path) { return {Kind::kFile, std::move(path)}; }
  static Stdout closed() { return {Kind::kClosed, {}}; }
  // A pipe whose read end is closed before the child starts.
  static Stdout broken_pipe() { return {Kind::kBrokenPipe, {}}; }
};

// Standard error is captured unless a test asks for it closed or sent to a
// file (a device such as /dev/full), to see how dd copes with a stderr it
// cannot write.
struct Stderr {
  enum class Kind { kCapture, kFile, kClosed };
  Kind kind = Kind::kCapture;
  std::string path;  // kFile: opened O_WRONLY (devices as is)

  static Stderr capture() { return {}; }
  static Stderr file(std::string path) { return {Kind::kFile, std::move(path)}; }
  static Stderr closed() { return {Kind::kClosed, {}}; }
};

enum class Locale {
  kUtf8,  // LANG=C.UTF-8, LC_ALL unset: values quoted ‘like this’
  kC,     // LC_ALL=C: values quoted 'like this'
};

struct Options {
  std::vector<std::string> args;  // after argv[0]
  Stdin in = Stdin::dev_null();
  Stdout out = Stdout::capture();
  Stderr err = Stderr::capture();
  Locale locale = Locale::kUtf8;
  std::vector<std::pair<std::string, std::string>> extra_env;
  // Set to SIG_IGN in the child before exec (everything else is SIG_DFL).
  std::vector<int> ignored_signals;
  // As root, drop CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH from the child's
  // bounding set, so permission bits apply as they would to a normal user.
  bool obey_permissions = false;
  std::filesystem::path cwd;  // the test directory
  Millis timeout = 5000ms;
  // A program that runs the dd, such as {"/usr/bin/strace", "-o", "trace",
  // "--"}: it is executed with the dd's path and args appended, so the dd's
  // argv[0] is then its path.
  std::vector<std::string> run_under;
  // Exec ddtime_binary() with argv[0] = "ddtime" (messages start
  // "ddtime: ", the timing report is on) instead of dd_binary() as "dd".
  bool as_ddtime = false;
};

struct Result {
  std::string out;
  std::string err;
  int exit_code = -1;   // when exited normally
  int term_signal = 0;  // when killed by a signal
  bool timed_out = false;
  std::string spawn_error;  // set when the child could not be started

  // "exit 0", "signal SIGINT", "timeout (killed)", "spawn failed: ...".
  std::string status() const;
  // stderr with the timing figures of every "... copied, S s, R" line
  // replaced: "... copied, <T> s, <R>".
  std::string err_masked() const;
  std::string describe() const;
};

std::ostream& operator<<(std::ostream& os, const Result& r);

// Replaces the seconds and rate in "copied, <seconds> s, <rate>" (summary
// and progress lines) by "<T>" and "<R>"; everything else is kept.
std::string mask_timing(std::string_view text);

// A running child. Construct to start it; finish() waits for it (killing it
// after the timeout) and returns the outcome. The destructor kills a child
// that is still running.
class DdProcess {
 public:
  explicit DdProcess(Options options);
  ~DdProcess();
  DdProcess(const DdProcess&) = delete;
  DdProcess& operator=(const DdProcess&) = delete;

  pid_t pid() const;
  // Stdin::manual only. Writes all bytes (blocking).
  void write_stdin(std::string_view bytes);
  // Stdin::manual only. True once the child has read everything written.
  bool wait_stdin_drained(Millis timeout = 5000ms);
  void close_stdin();
  void send_signal(int sig);

  std::string stdout_so_far() const;
  std::string stderr_so_far() const;
  // Poll until pred(captured text) holds, or the timeout passes, or the
  // child's stream ends. Returns whether pred held.
  bool wait_for_stdout(const std::function<bool(const std::string&)>& pred, Millis timeout = 5000ms);
  bool wait_for_stderr(const std::function<bool(const std::string&)>& pred, Millis timeout = 5000ms);

  Result finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Runs to completion.
Result run(Options options);

// Drops AddressSanitizer's "failed to allocate" warnings from stderr.
std::string without_sanitizer_allocation_warnings(const std::string& err);

// A FIFO whose reader is a thread that drains it slowly, for a copy that
// must last a while (progress updates come once a second). The pipe holds
// `chunk` bytes (rounded up to a page) and the thread reads at most `chunk`
// bytes every `pace`, so a writer of N bytes takes about N / chunk * pace.
// The read end is open before the writer starts, so opening the FIFO for
// writing never blocks.
class SlowFifo {
 public:
  SlowFifo(std::filesystem::path path, std::size_t chunk, Millis pace);
  ~SlowFifo();
  SlowFifo(const SlowFifo&) = delete;
  SlowFifo& operator=(const SlowFifo&) = delete;

  // Waits until the writer has closed and the pipe is drained (or the
  // timeout passes) and returns every byte read.
  std::string finish(Millis timeout = 10000ms);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Waits until process pid catches sig (its handler is installed, as
// /proc/PID/status's SigCgt says), so that a signal sent then meets the
// program's handling rather than the default action. False on timeout.
bool wait_for_handler(pid_t pid, int sig, Millis timeout = 5000ms);

// Polls pred every millisecond until it holds or the timeout passes.
bool wait_until(const std::function<bool()>& pred, Millis timeout = 5000ms);

// The name of a signal as "SIGINT", "SIGUSR1", ...; "signal N" otherwise.
std::string signal_name(int sig);

// A duration as ddtime's own lines write it (report's duration_text):
// "0.0813 s" from a millisecond up, else "43.2 us", "950 ns", or "0 s".
inline const std::string kDuration = R"((?:\d+\.\d{4} s|\d+(?:\.\d{1,2})? us|\d+ ns|0 s))";
// Its value in seconds. Requires: text matches kDuration.
double duration_seconds(const std::string& text);

// The share of the input the measured line says was cached, in percent
// ("reading 'NAME', 97.3% of the data read in the page cache before the
// run: partly from memory"), when its words are the ones that share takes
// (from memory at 99.9% and up, partly above 0.1%, nothing below); -1 when
// the line is not there or its words do not fit. Tests of a range just read
// bound it from below: this machine's kernel lets a page or two of a file
// go from the cache now and then, with no memory pressure at all.
double said_resident_percent(const std::string& err, const std::string& name);

// The lines of text, without their newlines.
std::vector<std::string> lines_of(const std::string& text);
// lines_of without ddtime's "PROG: measured: ..." line, for tests about the
// rest of the report (the measured line has tests of its own).
std::vector<std::string> report_lines(const std::string& text);

// All 256 byte values in order.
std::string all_bytes();
// Hex (no separators) to bytes; for golden tables.
std::string from_hex(std::string_view hex);
std::string to_hex(std::string_view bytes);

// Names parameterised instances after the `name` member of their parameter.
struct ParamName {
  template <typename T>
  std::string operator()(const ::testing::TestParamInfo<T>& p) const {
    return p.param.name;
  }
};

// A fresh directory per test, used as the child's cwd and removed after.
// Suites derive from it: `class Conv : public DdTest {};` then
// `TEST_F(Conv, SwabCarriesOddByteAcrossReads)`.
class DdTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path path(std::string_view name) const { return dir_ / name; }
  void write_file(std::string_view name, std::string_view bytes) const;
  std::string read_file(std::string_view name) const;
  bool exists(std::string_view name) const;
  off_t file_size(std::string_view name) const;

  // Options with cwd set to the test directory.
  Options opts(std::vector<std::string> args) const;
  // dd with stdin from /dev/null and stdout captured.
  Result dd(std::vector<std::string> args) const;
  // dd with stdin a pipe carrying `input`.
  Result dd_in(std::string input, std::vector<std::string> args) const;
  // dd under LC_ALL=C.
  Result dd_c(std::vector<std::string> args) const;
  Result dd(Options options) const;
  // ddtime invoked by its own name (Options::as_ddtime), stdin /dev/null.
  Result ddtime(std::vector<std::string> args) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace ddtime::e2e

// For tests of ddtime's own behaviour, which GNU dd does not have.
#define SKIP_IF_ANOTHER_DD()                                                      \
  do {                                                                            \
    if (::ddtime::e2e::testing_another_dd()) {                                    \
      GTEST_SKIP() << "tests a ddtime extension; DDTIME_E2E_DD names another dd"; \
    }                                                                             \
  } while (false)

// Exit status (or signal) with the whole result printed on mismatch.
#define EXPECT_STATUS(result, expected) EXPECT_EQ((result).status(), (expected)) << (result).describe()
#define ASSERT_STATUS(result, expected) ASSERT_EQ((result).status(), (expected)) << (result).describe()
