// SPDX-License-Identifier: GPL-3.0-or-later
#include "e2e/harness.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "e2e/json_corpus.h"

namespace ddtime::e2e {
namespace {

// The writer threads must see EPIPE rather than die when a child stops
// reading; children get SIG_DFL back before exec. Also make sure fds 0-2
// exist, so that no pipe we create lands on them and is clobbered by dup2.
const bool kProcessPrepared = [] {
  ::signal(SIGPIPE, SIG_IGN);
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) == -1) ::open("/dev/null", O_RDWR);
  }
  return true;
}();

void set_cloexec_pipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(fmt::format("pipe2: {}", std::strerror(errno)));
  }
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;  // EPIPE: the child is gone or closed its stdin
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

int pipe_pending(int fd) {
  int n = 0;
  if (::ioctl(fd, FIONREAD, &n) != 0) return -1;
  return n;
}

std::string absolute_in(const std::filesystem::path& dir, const std::string& p) {
  std::filesystem::path path(p);
  if (path.is_absolute() || dir.empty()) return path.string();
  return (dir / path).string();
}

// What a child reports through the exec-error pipe before exec.
struct SpawnFailure {
  int stage;
  int err;
};
constexpr const char* kStageNames[] = {"chdir",       "dup2 stdin",        "dup2 stdout",
                                       "dup2 stderr", "drop capabilities", "execve"};

std::string escape_for_display(std::string_view s, size_t limit = 4000) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < limit; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') {
      out += "\\n\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > limit) out += fmt::format("... ({} bytes in all)", s.size());
  return out;
}

}  // namespace

std::string dd_binary() {
  if (const char* env = std::getenv("DDTIME_E2E_DD"); env != nullptr && *env != '\0') {
    return env;
  }
  return DDTIME_DD_LINK;
}

bool testing_another_dd() {
  const char* env = std::getenv("DDTIME_E2E_DD");
  return env != nullptr && *env != '\0';
}

std::string ddtime_binary() { return DDTIME_BINARY; }

Stdin Stdin::chunked(std::vector<std::string> parts, Millis pause) {
  std::vector<Chunk> chunks;
  for (auto& p : parts) chunks.push_back({std::move(p), pause});
  return timed_chunks(std::move(chunks));
}

std::string signal_name(int sig) {
  switch (sig) {
    case SIGHUP:
      return "SIGHUP";
    case SIGINT:
      return "SIGINT";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGSEGV:
      return "SIGSEGV";
    case SIGUSR2:
      return "SIGUSR2";
    case SIGPIPE:
      return "SIGPIPE";
    case SIGALRM:
      return "SIGALRM";
    case SIGTERM:
      return "SIGTERM";
    case SIGXFSZ:
      return "SIGXFSZ";
    default:
      return fmt::format("signal {}", sig);
  }
}

std::string mask_timing(std::string_view text) {
  static const std::regex kTiming("copied, [^ \r\n]+ s, [^\r\n]*");
  return std::regex_replace(std::string(text), kTiming, "copied, <T> s, <R>");
}

std::string Result::status() const {
  if (!spawn_error.empty()) return "spawn failed: " + spawn_error;
  if (timed_out) return "timeout (killed)";
  if (term_signal != 0) return "signal " + signal_name(term_signal);
  return fmt::format("exit {}", exit_code);
}

std::string Result::err_masked() const { return mask_timing(err); }

std::string Result::describe() const {
  return fmt::format("--- {} ---\n--- stdout ({} bytes) ---\n{}\n--- stderr ---\n{}\n---", status(), out.size(),
                     escape_for_display(out), escape_for_display(err));
}

std::ostream& operator<<(std::ostream& os, const Result& r) { return os << r.describe(); }

struct DdProcess::State {
  Options options;
  pid_t pid = -1;
  int stdin_fd = -1;  // our write end, for pipe kinds
  int stdout_fd = -1;
  int stderr_fd = -1;

  mutable std::mutex mu;
  std::condition_variable cv;
  std::string out;
  std::string err;
  bool out_done = false;
  bool err_done = false;

  std::thread out_reader;
  std::thread err_reader;
  std::thread writer;
  std::atomic<bool> stop_writer{false};

  bool reaped = false;
  int wait_status = 0;
  bool timed_out = false;
  std::string spawn_error;
  std::chrono::steady_clock::time_point started;

  void read_into(int fd, std::string& sink, bool& done) {
    char buf[65536];
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      std::lock_guard lock(mu);
      if (n <= 0) {
        done = true;
        cv.notify_all();
        return;
      }
      sink.append(buf, static_cast<size_t>(n));
      cv.notify_all();
    }
  }

  // Waits until the child has read everything in the pipe (or we are told
  // to stop, or the deadline passes).
  bool drain(Millis timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!stop_writer.load()) {
      int pending = pipe_pending(stdin_fd);
      if (pending <= 0) return pending == 0;
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(200us);
    }
    return false;
  }

  void feed_chunks() {
    for (const Chunk& c : options.in.chunks) {
      if (stop_writer.load()) break;
      if (!write_all(stdin_fd, c.bytes)) break;
      if (!drain(options.timeout)) break;
      if (c.pause_after.count() > 0) std::this_thread::sleep_for(c.pause_after);
    }
    close_fd(stdin_fd);
  }
};

DdProcess::DdProcess(Options options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = std::move(options);
  const Options& o = s.options;

  // Everything the child needs is prepared before fork: after fork only
  // async-signal-safe calls are made.
  const std::string dd_path = o.as_ddtime ? ddtime_binary() : dd_binary();
  const std::string binary = o.run_under.empty() ? dd_path : o.run_under.front();
  std::vector<std::string> argv_strings = o.run_under;
  if (o.run_under.empty()) {
    argv_strings.push_back(o.as_ddtime ? "ddtime" : "dd");
  } else {
    argv_strings.push_back(dd_path);
  }
  argv_strings.insert(argv_strings.end(), o.args.begin(), o.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_strings{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"};
  if (o.locale == Locale::kC) env_strings.push_back("LC_ALL=C");
  // A sanitizer build of the binary under test needs its runtime options
  // (allocator_may_return_null for the "memory exhausted" cases).
  for (const char* name : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"}) {
    const char* value = std::getenv(name);
    if (value == nullptr) continue;
    std::string entry = std::string(name) + "=" + value;
    // LeakSanitizer cannot run under ptrace (strace runs the dd under it),
    // and a wrapper such as bash is not the program under test.
    if (!o.run_under.empty() && entry.starts_with("ASAN_OPTIONS=")) entry += ":detect_leaks=0";
    env_strings.push_back(std::move(entry));
  }
  for (const auto& [k, v] : o.extra_env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);

  const std::string cwd = o.cwd.empty() ? std::string(".") : o.cwd.string();

  int child_in = -1;
  int child_out = -1;
  int err_pipe[2];
  int spawn_pipe[2];
  set_cloexec_pipe(err_pipe);
  set_cloexec_pipe(spawn_pipe);

  switch (o.in.kind) {
    case Stdin::Kind::kDevNull:
      child_in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      break;
    case Stdin::Kind::kFile:
      child_in = ::open(absolute_in(o.cwd, o.in.path).c_str(), O_RDONLY | O_CLOEXEC);
      if (child_in < 0) {
        s.spawn_error = fmt::format("open stdin {}: {}", o.in.path, std::strerror(errno));
      }
      break;
    case Stdin::Kind::kClosed:
      break;
    case Stdin::Kind::kBytes:
    case Stdin::Kind::kChunks:
    case Stdin::Kind::kManual: {
      int p[2];
      set_cloexec_pipe(p);
      child_in = p[0];
      s.stdin_fd = p[1];
      break;
    }
  }
  switch (o.out.kind) {
    case Stdout::Kind::kCapture: {
      int p[2];
      set_cloexec_pipe(p);
      s.stdout_fd = p[0];
      child_out = p[1];
      break;
    }
    case Stdout::Kind::kFile:
      child_out = ::open(absolute_in(o.cwd, o.out.path).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (child_out < 0) {
        s.spawn_error = fmt::format("open stdout {}: {}", o.out.path, std::strerror(errno));
      }
      break;
    case Stdout::Kind::kClosed:
      break;
    case Stdout::Kind::kBrokenPipe: {
      int p[2];
      set_cloexec_pipe(p);
      ::close(p[0]);
      child_out = p[1];
      break;
    }
  }

  int child_err = -1;
  if (o.err.kind == Stderr::Kind::kFile) {
    child_err = ::open(absolute_in(o.cwd, o.err.path).c_str(), O_WRONLY | O_CLOEXEC);
    if (child_err < 0) s.spawn_error = fmt::format("open stderr {}: {}", o.err.path, std::strerror(errno));
  }

  auto close_child_ends = [&] {
    close_fd(child_in);
    close_fd(child_out);
    close_fd(child_err);
    close_fd(err_pipe[1]);
    close_fd(spawn_pipe[1]);
  };
  if (!s.spawn_error.empty()) {
    close_child_ends();
    close_fd(err_pipe[0]);
    close_fd(spawn_pipe[0]);
    close_fd(s.stdin_fd);
    close_fd(s.stdout_fd);
    s.reaped = true;
    return;
  }

  const bool closed_in = o.in.kind == Stdin::Kind::kClosed;
  const bool closed_out = o.out.kind == Stdout::Kind::kClosed;
  const bool closed_err = o.err.kind == Stderr::Kind::kClosed;
  const bool drop_dac = o.obey_permissions && ::geteuid() == 0;
  const std::vector<int>& ignored = o.ignored_signals;

  s.started = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid < 0) {
    s.spawn_error = fmt::format("fork: {}", std::strerror(errno));
    close_child_ends();
    close_fd(err_pipe[0]);
    close_fd(spawn_pipe[0]);
    close_fd(s.stdin_fd);
    close_fd(s.stdout_fd);
    s.reaped = true;
    return;
  }
  if (pid == 0) {
    auto fail = [&](int stage) {
      SpawnFailure f{stage, errno};
      ssize_t ignored_result = ::write(spawn_pipe[1], &f, sizeof f);
      (void)ignored_result;
      ::_exit(127);
    };
    sigset_t none;
    ::sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig = 1; sig < NSIG; ++sig) {
      if (sig == SIGKILL || sig == SIGSTOP) continue;
      struct sigaction sa;
      std::memset(&sa, 0, sizeof sa);
      sa.sa_handler = SIG_DFL;
      for (int ign : ignored) {
        if (ign == sig) sa.sa_handler = SIG_IGN;
      }
      ::sigaction(sig, &sa, nullptr);
    }
    if (::chdir(cwd.c_str()) != 0) fail(0);
    if (closed_in) {
      ::close(0);
    } else if (::dup2(child_in, 0) < 0) {
      fail(1);
    }
    if (closed_out) {
      ::close(1);
    } else if (::dup2(child_out, 1) < 0) {
      fail(2);
    }
    if (closed_err) {
      ::close(2);
    } else if (::dup2(child_err >= 0 ? child_err : err_pipe[1], 2) < 0) {
      fail(3);
    }
    if (drop_dac) {
      if (::prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) != 0) fail(4);
      if (::prctl(PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0) != 0) fail(4);
      __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
      __user_cap_data_struct data[2];
      if (::syscall(SYS_capget, &header, data) != 0) fail(4);
      for (auto& d : data) {
        d.inheritable &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH));
      }
      if (::syscall(SYS_capset, &header, data) != 0) fail(4);
    }
    ::execve(binary.c_str(), argv.data(), envp.data());
    fail(5);
  }

  s.pid = pid;
  close_child_ends();
  close_fd(err_pipe[1]);
  SpawnFailure failure{};
  ssize_t got;
  do {
    got = ::read(spawn_pipe[0], &failure, sizeof failure);
  } while (got < 0 && errno == EINTR);
  close_fd(spawn_pipe[0]);
  if (got == static_cast<ssize_t>(sizeof failure)) {
    s.spawn_error = fmt::format("{} {}: {}", kStageNames[failure.stage], binary, std::strerror(failure.err));
  }
  s.stderr_fd = err_pipe[0];

  if (s.stdout_fd >= 0) {
    s.out_reader = std::thread([&s] { s.read_into(s.stdout_fd, s.out, s.out_done); });
  } else {
    s.out_done = true;
  }
  s.err_reader = std::thread([&s] { s.read_into(s.stderr_fd, s.err, s.err_done); });

  if (o.in.kind == Stdin::Kind::kBytes) {
    s.writer = std::thread([&s] {
      write_all(s.stdin_fd, s.options.in.bytes);
      close_fd(s.stdin_fd);
    });
  } else if (o.in.kind == Stdin::Kind::kChunks) {
    s.writer = std::thread([&s] { s.feed_chunks(); });
  }
}

DdProcess::~DdProcess() {
  if (!state_->reaped && state_->pid > 0) {
    ::kill(state_->pid, SIGKILL);
  }
  (void)finish();
}

pid_t DdProcess::pid() const { return state_->pid; }

void DdProcess::write_stdin(std::string_view bytes) {
  if (state_->options.in.kind != Stdin::Kind::kManual || state_->stdin_fd < 0) {
    throw std::logic_error("write_stdin needs an open Stdin::manual()");
  }
  write_all(state_->stdin_fd, bytes);
}

bool DdProcess::wait_stdin_drained(Millis timeout) {
  if (state_->stdin_fd < 0) return false;
  return state_->drain(timeout);
}

void DdProcess::close_stdin() {
  if (state_->options.in.kind == Stdin::Kind::kManual) close_fd(state_->stdin_fd);
}

void DdProcess::send_signal(int sig) {
  if (state_->pid > 0 && !state_->reaped) ::kill(state_->pid, sig);
}

std::string DdProcess::stdout_so_far() const {
  std::lock_guard lock(state_->mu);
  return state_->out;
}

std::string DdProcess::stderr_so_far() const {
  std::lock_guard lock(state_->mu);
  return state_->err;
}

bool DdProcess::wait_for_stdout(const std::function<bool(const std::string&)>& pred, Millis timeout) {
  std::unique_lock lock(state_->mu);
  return state_->cv.wait_for(lock, timeout, [&] { return pred(state_->out) || state_->out_done; }) && pred(state_->out);
}

bool DdProcess::wait_for_stderr(const std::function<bool(const std::string&)>& pred, Millis timeout) {
  std::unique_lock lock(state_->mu);
  return state_->cv.wait_for(lock, timeout, [&] { return pred(state_->err) || state_->err_done; }) && pred(state_->err);
}

Result DdProcess::finish() {
  State& s = *state_;
  if (s.options.in.kind == Stdin::Kind::kManual) close_fd(s.stdin_fd);

  if (!s.reaped && s.pid > 0) {
    const auto deadline = s.started + s.options.timeout;
    auto nap = 50us;
    for (;;) {
      pid_t r = ::waitpid(s.pid, &s.wait_status, WNOHANG);
      if (r == s.pid) break;
      if (r < 0 && errno != EINTR) break;
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(s.pid, SIGKILL);
        while (::waitpid(s.pid, &s.wait_status, 0) < 0 && errno == EINTR) {
        }
        s.timed_out = true;
        ADD_FAILURE() << "dd did not finish within " << s.options.timeout.count() << " ms and was killed";
        break;
      }
      std::this_thread::sleep_for(nap);
      if (nap < 2ms) nap *= 2;
    }
    s.reaped = true;
  }
  s.stop_writer = true;
  if (s.writer.joinable()) s.writer.join();
  close_fd(s.stdin_fd);
  if (s.out_reader.joinable()) s.out_reader.join();
  if (s.err_reader.joinable()) s.err_reader.join();
  close_fd(s.stdout_fd);
  close_fd(s.stderr_fd);

  Result r;
  r.out = s.out;
  r.err = without_sanitizer_allocation_warnings(s.err);
  r.timed_out = s.timed_out;
  r.spawn_error = s.spawn_error;
  if (s.pid > 0 && s.spawn_error.empty()) {
    if (WIFEXITED(s.wait_status)) r.exit_code = WEXITSTATUS(s.wait_status);
    if (WIFSIGNALED(s.wait_status)) r.term_signal = WTERMSIG(s.wait_status);
  }
  keep_json_documents(s.options, r);
  return r;
}

Result run(Options options) { return DdProcess(std::move(options)).finish(); }

std::string without_sanitizer_allocation_warnings(const std::string& err) {
  // Under ASan with allocator_may_return_null the "memory exhausted" cases
  // make the sanitizer runtime (not the program) warn first; the program's
  // own text is what the tests compare.
  static const std::regex warning("==[0-9]+==WARNING: AddressSanitizer failed to allocate [^\n]*\n");
  return std::regex_replace(err, warning, "");
}

struct SlowFifo::State {
  int fd = -1;
  std::size_t chunk = 0;
  Millis pace{0};
  std::thread reader;
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable cv;
  std::string bytes;
  bool done = false;

  void drain() {
    std::string buf(chunk, '\0');
    while (!stop.load()) {
      struct pollfd p {
        fd, POLLIN, 0
      };
      int ready = ::poll(&p, 1, 50);
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) continue;
      // Before any writer has come and gone there is no POLLHUP, and a
      // read would see end of file: read only when data is there.
      if ((p.revents & POLLIN) == 0) break;  // POLLHUP: the writer closed
      ssize_t n = ::read(fd, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      {
        std::lock_guard lock(mu);
        bytes.append(buf.data(), static_cast<size_t>(n));
      }
      std::this_thread::sleep_for(pace);
    }
    std::lock_guard lock(mu);
    done = true;
    cv.notify_all();
  }
};

SlowFifo::SlowFifo(std::filesystem::path path, std::size_t chunk, Millis pace) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.chunk = chunk;
  s.pace = pace;
  if (::mkfifo(path.c_str(), 0600) != 0) {
    throw std::runtime_error(fmt::format("mkfifo {}: {}", path.string(), std::strerror(errno)));
  }
  // Without O_NONBLOCK, opening the read end would wait for a writer.
  s.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (s.fd < 0) throw std::runtime_error(fmt::format("open {}: {}", path.string(), std::strerror(errno)));
  if (::fcntl(s.fd, F_SETPIPE_SZ, static_cast<int>(chunk)) < 0 || ::fcntl(s.fd, F_SETFL, O_RDONLY) < 0) {
    const int err = errno;
    ::close(s.fd);
    throw std::runtime_error(fmt::format("fcntl {}: {}", path.string(), std::strerror(err)));
  }
  s.reader = std::thread([&s] { s.drain(); });
}

SlowFifo::~SlowFifo() {
  state_->stop = true;
  if (state_->reader.joinable()) state_->reader.join();
  if (state_->fd >= 0) ::close(state_->fd);
}

std::string SlowFifo::finish(Millis timeout) {
  State& s = *state_;
  {
    std::unique_lock lock(s.mu);
    if (!s.cv.wait_for(lock, timeout, [&] { return s.done; })) {
      ADD_FAILURE() << "the FIFO's writer did not close within " << timeout.count() << " ms";
    }
  }
  s.stop = true;
  if (s.reader.joinable()) s.reader.join();
  std::lock_guard lock(s.mu);
  return s.bytes;
}

bool wait_until(const std::function<bool()>& pred, Millis timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

std::vector<std::string> report_lines(const std::string& text) {
  std::vector<std::string> lines = lines_of(text);
  std::erase_if(lines, [](const std::string& line) {
    const std::size_t colon = line.find(": measured: ");
    return colon != std::string::npos && line.find(':') == colon;
  });
  return lines;
}

bool wait_for_handler(pid_t pid, int sig, Millis timeout) {
  const std::string status_path = "/proc/" + std::to_string(pid) + "/status";
  return wait_until(
      [&] {
        std::ifstream status(status_path);
        std::string line;
        while (std::getline(status, line)) {
          if (!line.starts_with("SigCgt:")) continue;
          const unsigned long long mask = std::stoull(line.substr(7), nullptr, 16);
          return ((mask >> (sig - 1)) & 1) != 0;
        }
        return false;
      },
      timeout);
}

double duration_seconds(const std::string& text) {
  const std::size_t space = text.find(' ');
  const double value = std::stod(text.substr(0, space));
  const std::string unit = text.substr(space + 1);
  return unit == "ns" ? value * 1e-9 : unit == "us" ? value * 1e-6 : value;
}

double said_resident_percent(const std::string& err, const std::string& name) {
  const std::regex said("reading '" + name +
                        R"(', (\d+\.\d)% of the data read in the page cache before the run(: from memory, not from )"
                        R"(the disk|: partly from memory|)[;\n])");
  std::smatch match;
  if (!std::regex_search(err, match, said)) return -1;
  const double percent = std::stod(match[1].str());
  const std::string words = match[2].str();
  const std::string fits = percent >= 99.9 ? ": from memory, not from the disk"
                           : percent > 0.1 ? ": partly from memory"
                                           : "";
  return words == fits ? percent : -1;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string all_bytes() {
  std::string s(256, '\0');
  for (int i = 0; i < 256; ++i) s[static_cast<size_t>(i)] = static_cast<char>(i);
  return s;
}

std::string from_hex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::invalid_argument("bad hex digit");
  };
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  }
  return out;
}

std::string to_hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

// ---- DdTest ----

void DdTest::SetUp() {
  // A real filesystem (not tmpfs) where possible: O_DIRECT and sparse files
  // behave as on a disk.
  std::filesystem::path base;
  if (const char* env = std::getenv("DDTIME_E2E_TMPDIR"); env != nullptr && *env != '\0') {
    base = env;
  } else if (::access("/var/tmp", W_OK | X_OK) == 0) {
    base = "/var/tmp";
  } else {
    base = std::filesystem::temp_directory_path();
  }
  std::string templ = (base / "ddtime-e2e.XXXXXX").string();
  if (::mkdtemp(templ.data()) == nullptr) {
    FAIL() << "mkdtemp " << templ << ": " << std::strerror(errno);
  }
  dir_ = templ;
}

void DdTest::TearDown() {
  if (dir_.empty()) return;
  // Tests may leave read-only directories behind.
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(
           dir_, std::filesystem::directory_options::skip_permission_denied, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) {
      ::chmod(it->path().c_str(), 0700);
    }
  }
  ::chmod(dir_.c_str(), 0700);
  std::filesystem::remove_all(dir_, ec);
}

void DdTest::write_file(std::string_view name, std::string_view bytes) const {
  std::string p = path(name).string();
  int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << p << ": " << std::strerror(errno);
  bool ok = write_all(fd, bytes);
  ::close(fd);
  ASSERT_TRUE(ok) << "writing " << p;
}

std::string DdTest::read_file(std::string_view name) const {
  std::string p = path(name).string();
  int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    ADD_FAILURE() << "open " << p << ": " << std::strerror(errno);
    return {};
  }
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

bool DdTest::exists(std::string_view name) const {
  struct stat st;
  return ::lstat(path(name).c_str(), &st) == 0;
}

off_t DdTest::file_size(std::string_view name) const {
  struct stat st;
  if (::stat(path(name).c_str(), &st) != 0) return -1;
  return st.st_size;
}

Options DdTest::opts(std::vector<std::string> args) const {
  Options o;
  o.args = std::move(args);
  o.cwd = dir_;
  return o;
}

Result DdTest::dd(std::vector<std::string> args) const { return run(opts(std::move(args))); }

Result DdTest::dd_in(std::string input, std::vector<std::string> args) const {
  Options o = opts(std::move(args));
  o.in = Stdin::pipe(std::move(input));
  return run(std::move(o));
}

Result DdTest::dd_c(std::vector<std::string> args) const {
  Options o = opts(std::move(args));
  o.locale = Locale::kC;
  return run(std::move(o));
}

Result DdTest::dd(Options options) const {
  if (options.cwd.empty()) options.cwd = dir_;
  return run(std::move(options));
}

Result DdTest::ddtime(std::vector<std::string> args) const {
  Options o = opts(std::move(args));
  o.as_ddtime = true;
  return run(std::move(o));
}

}  // namespace ddtime::e2e
