// SPDX-License-Identifier: GPL-3.0-or-later
// Signals: SIGUSR1 reports progress and carries on (unless POSIXLY_CORRECT),
// SIGINT reports and then dies by SIGINT, an inherited SIG_IGN for SIGINT is
// respected, and a closed pipe on stdout kills by SIGPIPE or reports EPIPE.
//
// Synchronisation is by observation, never by sleeping: data is written to
// dd's stdin pipe, the test waits until it shows up on dd's stdout (so dd is
// running and blocked in its next read), then signals and waits for stderr.

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "e2e/harness.h"

namespace ddtime::e2e {
namespace {

class Signals : public DdTest {
 protected:
  // dd copying a pipe we control to its captured stdout, one byte per record.
  Options copier(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args{"bs=1"};
    args.insert(args.end(), extra.begin(), extra.end());
    Options o = opts(args);
    o.in = Stdin::manual();
    o.timeout = 10000ms;
    return o;
  }

  // A whole report has arrived: GNU writes it in several pieces, so wait
  // for the end of the bytes line rather than its start.
  static bool has_report(const std::string& text) {
    return text.find("copied") != std::string::npos && text.ends_with("\n");
  }

  // Feeds bytes and waits until dd's stdout is `out_so_far`.
  [[nodiscard]] static ::testing::AssertionResult feed(DdProcess& p, std::string_view bytes,
                                                       std::string_view out_so_far) {
    p.write_stdin(bytes);
    if (p.wait_for_stdout([&](const std::string& out) { return out == out_so_far; })) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "dd did not copy the input; stdout so far: \"" << p.stdout_so_far()
                                         << "\", stderr: \"" << p.stderr_so_far() << "\"";
  }
};

TEST_F(Signals, Usr1PrintsTheSummaryAndContinues) {
  DdProcess p(copier());
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGUSR1);
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& e) { return has_report(e); })) << p.stderr_so_far();
  EXPECT_EQ(mask_timing(p.stderr_so_far()), "3+0 records in\n3+0 records out\n3 bytes copied, <T> s, <R>\n");
  ASSERT_TRUE(feed(p, "de", "abcde"));
  p.close_stdin();
  auto r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcde");
  EXPECT_EQ(r.err_masked(),
            "3+0 records in\n3+0 records out\n3 bytes copied, <T> s, <R>\n"
            "5+0 records in\n5+0 records out\n5 bytes copied, <T> s, <R>\n");
}

TEST_F(Signals, Usr1TwiceReportsTwice) {
  DdProcess p(copier({"status=noxfer"}));
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGUSR1);
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& e) { return e == "3+0 records in\n3+0 records out\n"; }))
      << p.stderr_so_far();
  p.send_signal(SIGUSR1);
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& e) {
    return e == "3+0 records in\n3+0 records out\n3+0 records in\n3+0 records out\n";
  })) << p.stderr_so_far();
  ASSERT_TRUE(feed(p, "de", "abcde"));
  auto r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err,
            "3+0 records in\n3+0 records out\n3+0 records in\n3+0 records out\n"
            "5+0 records in\n5+0 records out\n");
}

TEST_F(Signals, Usr1WithStatusNoneIsSilentButHarmless) {
  DdProcess p(copier({"status=none"}));
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGUSR1);
  // The next read only returns after the interrupted one was handled.
  ASSERT_TRUE(feed(p, "de", "abcde"));
  auto r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcde");
  EXPECT_EQ(r.err, "");
}

TEST_F(Signals, Usr1IgnoredAtStartIsCaughtAnyway) {
  Options o = copier();
  o.ignored_signals = {SIGUSR1};
  DdProcess p(o);
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGUSR1);
  ASSERT_TRUE(p.wait_for_stderr([](const std::string& e) { return has_report(e); })) << p.stderr_so_far();
  ASSERT_TRUE(feed(p, "de", "abcde"));
  auto r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.err_masked(),
            "3+0 records in\n3+0 records out\n3 bytes copied, <T> s, <R>\n"
            "5+0 records in\n5+0 records out\n5 bytes copied, <T> s, <R>\n");
}

// GNU dd 9.1 installs its handlers before it opens a file (defect C2): a
// SIGUSR1 that comes while the input's open waits for a FIFO's writer is
// reported when the copy starts, and kills nothing.
TEST_F(Signals, Usr1WhileTheInputIsOpeningIsReportedNotFatal) {
  const std::string fifo = path("fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  write_file("out", "kept until the copy");
  Options o = opts({"if=fifo", "of=out"});
  o.timeout = 10000ms;
  DdProcess p(o);
  // The kernel names where a sleeping task waits: a FIFO's open waits for
  // its other end, which only this test holds.
  const std::string wchan = "/proc/" + std::to_string(p.pid()) + "/wchan";
  ASSERT_TRUE(wait_until(
      [&] {
        std::ifstream in(wchan);
        std::string where;
        std::getline(in, where);
        return where == "wait_for_partner";
      },
      5000ms));
  EXPECT_TRUE(wait_for_handler(p.pid(), SIGUSR1, 0ms));
  p.send_signal(SIGUSR1);
  const int writer = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::write(writer, "hello\n", 6), 6);
  ::close(writer);
  auto r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(read_file("out"), "hello\n");
  EXPECT_EQ(r.err_masked(),
            "0+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n"
            "0+1 records in\n0+1 records out\n6 bytes copied, <T> s, <R>\n");
}

// POSIX gives SIGUSR1 its default action: GNU dd does not catch it when
// POSIXLY_CORRECT is set, so the signal terminates it silently.
TEST_F(Signals, Usr1KillsWhenPosixlyCorrect) {
  Options o = copier();
  o.extra_env = {{"POSIXLY_CORRECT", "1"}};
  DdProcess p(o);
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGUSR1);
  auto r = p.finish();
  EXPECT_STATUS(r, "signal SIGUSR1");
  EXPECT_EQ(r.out, "abc");
  EXPECT_EQ(r.err, "");
}

TEST_F(Signals, IntPrintsTheSummaryThenDiesBySigint) {
  DdProcess p(copier());
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGINT);
  auto r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  EXPECT_EQ(r.out, "abc");
  EXPECT_EQ(r.err_masked(), "3+0 records in\n3+0 records out\n3 bytes copied, <T> s, <R>\n");
}

TEST_F(Signals, IntWithStatusNoneDiesSilently) {
  DdProcess p(copier({"status=none"}));
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGINT);
  auto r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  EXPECT_EQ(r.err, "");
}

TEST_F(Signals, IntWithSeparateObsDoesNotFlushThePartialBuffer) {
  Options o = copier();
  o.args = {"ibs=1", "obs=4"};
  DdProcess p(o);
  p.write_stdin("abcdef");
  ASSERT_TRUE(p.wait_for_stdout([](const std::string& out) { return out == "abcd"; }));
  ASSERT_TRUE(p.wait_stdin_drained());
  p.send_signal(SIGINT);
  auto r = p.finish();
  EXPECT_STATUS(r, "signal SIGINT");
  EXPECT_EQ(r.out, "abcd");
  EXPECT_EQ(r.err_masked(), "6+0 records in\n1+0 records out\n4 bytes copied, <T> s, <R>\n");
}

bool sigint_ignored_in(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.starts_with("SigIgn:")) {
      unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
      return (mask >> (SIGINT - 1)) & 1;
    }
  }
  return false;
}

TEST_F(Signals, IntIgnoredAtStartStaysIgnored) {
  Options o = copier();
  o.ignored_signals = {SIGINT};
  DdProcess p(o);
  ASSERT_TRUE(feed(p, "abc", "abc"));
  EXPECT_TRUE(sigint_ignored_in(p.pid())) << "dd installed a SIGINT handler";
  // An ignored signal is discarded when sent; dd must keep copying.
  p.send_signal(SIGINT);
  ASSERT_TRUE(feed(p, "de", "abcde"));
  auto r = p.finish();
  EXPECT_STATUS(r, "exit 0");
  EXPECT_EQ(r.out, "abcde");
  EXPECT_EQ(r.err_masked(), "5+0 records in\n5+0 records out\n5 bytes copied, <T> s, <R>\n");
}

TEST_F(Signals, TermKillsWithoutASummary) {
  DdProcess p(copier());
  ASSERT_TRUE(feed(p, "abc", "abc"));
  p.send_signal(SIGTERM);
  auto r = p.finish();
  EXPECT_STATUS(r, "signal SIGTERM");
  EXPECT_EQ(r.err, "");
}

TEST_F(Signals, PipeToAClosedReaderKillsBySigpipe) {
  Options o = opts({"if=/dev/zero", "bs=1", "count=100000"});
  o.out = Stdout::broken_pipe();
  auto r = dd(o);
  EXPECT_STATUS(r, "signal SIGPIPE");
  EXPECT_EQ(r.err, "");
}

TEST_F(Signals, PipeToAClosedReaderWithSigpipeIgnoredReportsEpipe) {
  Options o = opts({"if=/dev/zero", "bs=1", "count=100000"});
  o.out = Stdout::broken_pipe();
  o.ignored_signals = {SIGPIPE};
  auto r = dd(o);
  EXPECT_STATUS(r, "exit 1");
  EXPECT_EQ(r.err_masked(),
            "dd: error writing 'standard output': Broken pipe\n"
            "1+0 records in\n0+0 records out\n0 bytes copied, <T> s, <R>\n");
}

}  // namespace
}  // namespace ddtime::e2e
