// SPDX-License-Identifier: GPL-3.0-or-later
#include "fault/fault_fs.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "fault/pattern.h"

namespace ddtime::fault {
namespace {

using namespace std::chrono_literals;

std::string read_whole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Waits for pid until the deadline, then kills it. Returns the wait status,
// or -1 when it had to be killed.
int wait_with_limit(pid_t pid, std::chrono::steady_clock::time_point deadline) {
  int status = 0;
  for (;;) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return status;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return -1;
    }
    std::this_thread::sleep_for(1ms);
  }
}

bool on_path(const char* name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  std::istringstream in(dirs);
  for (std::string dir; std::getline(in, dir, ':');) {
    if (!dir.empty() && ::access((dir + "/" + name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace

ChildResult run_with_limit(const std::vector<std::string>& argv, Millis timeout) {
  ChildResult result;
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    result.output = fmt::format("pipe2: {}", std::strerror(errno));
    return result;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  pid_t pid = ::fork();
  if (pid == 0) {
    int null_fd = ::open("/dev/null", O_RDONLY);
    ::dup2(null_fd, 0);
    ::dup2(out[1], 1);
    ::dup2(out[1], 2);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(out[1]);
  if (pid < 0) {
    ::close(out[0]);
    result.output = fmt::format("fork: {}", std::strerror(errno));
    return result;
  }
  // The helpers we run print little; read without blocking past the limit.
  ::fcntl(out[0], F_SETFL, O_NONBLOCK);
  int status = 0;
  for (;;) {
    char buf[4096];
    ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n > 0) {
      result.output.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      result.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(1ms);
  }
  for (;;) {
    char buf[4096];
    ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    result.output.append(buf, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

bool fault_fs_required() {
  const char* env = std::getenv("DDTIME_FAULT_REQUIRED");
  return env != nullptr && *env != '\0' && std::strcmp(env, "0") != 0;
}

std::string why_fault_fs_unavailable() {
  const std::string server = DDTIME_FAULTFS;
  if (server.empty()) {
    return "ddtime was configured without libfuse3 (install fuse3 and libfuse3-dev, e.g. "
           "with packaging/install-build-deps.sh, and reconfigure)";
  }
  if (::access(server.c_str(), X_OK) != 0) return "the faultfs server " + server + " is missing";
  if (::access("/dev/fuse", R_OK | W_OK) != 0) {
    return fmt::format("/dev/fuse is not usable here: {}", std::strerror(errno));
  }
  if (!on_path("fusermount3")) return "fusermount3 is not installed (Debian package fuse3)";
  return {};
}

std::string why_loop_unavailable() {
  if (::access("/dev/loop-control", R_OK | W_OK) != 0) {
    return fmt::format("/dev/loop-control is not usable here: {}", std::strerror(errno));
  }
  if (!on_path("losetup")) return "losetup is not installed (Debian package mount)";
  return {};
}

LoopDevice::~LoopDevice() { (void)detach(); }

std::string LoopDevice::attach(const std::filesystem::path& file) {
  ChildResult r = run_with_limit({"losetup", "--find", "--show", file.string()}, 10000ms);
  std::string out = r.output;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (r.exit_code != 0 || out.rfind("/dev/loop", 0) != 0) {
    return fmt::format("losetup --find --show {}: {}", file.string(), r.timed_out ? "timed out" : out);
  }
  device_ = out;
  return {};
}

std::string LoopDevice::detach() {
  if (device_.empty()) return {};
  ChildResult r = run_with_limit({"losetup", "-d", device_}, 10000ms);
  std::string problems;
  if (r.exit_code != 0) problems = fmt::format("losetup -d {}: {}", device_, r.output);
  // The kernel lets go of the backing file after losetup returns; until it
  // has, the filesystem holding that file cannot be unmounted.
  const std::filesystem::path backing =
      std::filesystem::path("/sys/block") / std::filesystem::path(device_).filename() / "loop" / "backing_file";
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  std::error_code ec;
  while (std::filesystem::exists(backing, ec) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  device_.clear();
  return problems;
}

bool is_mount_point(const std::filesystem::path& path) {
  std::ifstream in("/proc/self/mountinfo");
  const std::string wanted = path.string();
  for (std::string line; std::getline(in, line);) {
    // Fields: id parent major:minor root mount-point ...
    std::istringstream fields(line);
    std::string id, parent, device, root, mount_point;
    fields >> id >> parent >> device >> root >> mount_point;
    if (mount_point == wanted) return true;
  }
  return false;
}

FaultFs::~FaultFs() {
  if (mounted()) (void)unmount();
}

std::string FaultFs::mount(const std::filesystem::path& dir) {
  std::error_code ec;
  mount_point_ = std::filesystem::canonical(dir, ec) / "mnt";
  log_path_ = dir / "faultfs.log";
  err_path_ = dir / "faultfs.err";
  std::filesystem::create_directory(mount_point_, ec);
  if (ec) return fmt::format("mkdir {}: {}", mount_point_.string(), ec.message());
  const std::string server = DDTIME_FAULTFS;
  const std::string mount_arg = mount_point_.string();
  const std::string log_arg = log_path_.string();
  int err_fd = ::open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (err_fd < 0) return fmt::format("open {}: {}", err_path_.string(), std::strerror(errno));
  pid_t pid = ::fork();
  if (pid == 0) {
    int null_fd = ::open("/dev/null", O_RDWR);
    ::dup2(null_fd, 0);
    ::dup2(null_fd, 1);
    ::dup2(err_fd, 2);
    ::execl(server.c_str(), server.c_str(), mount_arg.c_str(), log_arg.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(err_fd);
  if (pid < 0) return fmt::format("fork: {}", std::strerror(errno));
  pid_ = pid;
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!is_mount_point(mount_point_)) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return fmt::format("faultfs exited with status {} before mounting: {}",
                         WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_whole(err_path_));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      std::string why = "faultfs did not mount within 5 s: " + read_whole(err_path_);
      (void)unmount();
      return why;
    }
    std::this_thread::sleep_for(1ms);
  }
  return {};
}

std::string FaultFs::unmount() {
  if (pid_ <= 0) return {};
  std::string problems;
  if (is_mount_point(mount_point_)) {
    ChildResult r = run_with_limit({"fusermount3", "-u", mount_point_.string()}, 5000ms);
    // Busy for a moment after a loop device over a file in it is detached.
    for (int retry = 0; r.exit_code != 0 && r.output.find("busy") != std::string::npos && retry < 40; ++retry) {
      std::this_thread::sleep_for(50ms);
      r = run_with_limit({"fusermount3", "-u", mount_point_.string()}, 5000ms);
    }
    if (r.exit_code != 0) {
      problems += "fusermount3 -u: " + r.output;
      ChildResult lazy = run_with_limit({"umount", "-l", mount_point_.string()}, 5000ms);
      if (lazy.exit_code != 0) problems += "; umount -l: " + lazy.output;
    }
  }
  // Unmounting ends the server's loop; one that hangs anyway is killed, and
  // auto_unmount then takes the mount away.
  int status = wait_with_limit(pid_, std::chrono::steady_clock::now() + 5s);
  if (status == -1) problems += "; faultfs did not exit within 5 s and was killed";
  pid_ = -1;
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (is_mount_point(mount_point_) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
  }
  if (is_mount_point(mount_point_)) {
    (void)run_with_limit({"umount", "-l", mount_point_.string()}, 5000ms);
    problems += "; still mounted after the server exited (lazily unmounted)";
  }
  std::error_code ec;
  std::filesystem::remove(mount_point_, ec);
  return problems;
}

std::string FaultFs::control(std::string_view lines) const {
  std::string text(lines);
  if (!text.empty() && text.back() != '\n') text += '\n';
  const std::string path = (mount_point_ / ".control").string();
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return fmt::format("open {}: {}", path, std::strerror(errno));
  ssize_t n = ::write(fd, text.data(), text.size());
  int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) {
    return fmt::format("control {:?}: {} ({})", text, n < 0 ? std::strerror(err) : "short write", server_errors());
  }
  return {};
}

std::vector<std::string> FaultFs::log() const {
  std::vector<std::string> lines;
  std::ifstream in(log_path_);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void FaultFs::clear_log() const { ::truncate(log_path_.c_str(), 0); }

std::string FaultFs::server_errors() const { return read_whole(err_path_); }

std::string pattern(std::uint64_t offset, std::size_t length) {
  std::string s(length, '\0');
  for (std::size_t i = 0; i < length; ++i) s[i] = static_cast<char>(pattern_byte(offset + i));
  return s;
}

std::string expand_layout(std::string_view layout) {
  std::string out;
  std::istringstream in{std::string(layout)};
  for (std::string piece; in >> piece;) {
    if (piece[0] == 'P') {
      auto plus = piece.find('+');
      std::uint64_t offset = std::stoull(piece.substr(1, plus - 1));
      std::size_t length = std::stoull(piece.substr(plus + 1));
      out += pattern(offset, length);
    } else if (piece[0] == 'Z') {
      out.append(std::stoull(piece.substr(1)), '\0');
    } else if (piece[0] == 'B') {
      for (std::size_t i = 1; i + 1 < piece.size(); i += 2) {
        out.push_back(static_cast<char>(std::stoi(piece.substr(i, 2), nullptr, 16)));
      }
    }
  }
  return out;
}

std::string describe_layout(std::string_view bytes) {
  // Offsets searched for a pattern run: the test files are a few MiB at most.
  constexpr std::uint64_t kSearch = 4u << 20;
  constexpr std::size_t kWindow = 8;
  std::vector<std::string> pieces;
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
  std::size_t i = 0;
  std::uint64_t resume = 0;
  std::string raw;
  auto flush_raw = [&] {
    if (!raw.empty()) pieces.push_back("B" + raw);
    raw.clear();
  };
  while (i < bytes.size()) {
    if (byte(i) == 0) {
      std::size_t j = i;
      while (j < bytes.size() && byte(j) == 0) ++j;
      flush_raw();
      pieces.push_back(fmt::format("Z{}", j - i));
      i = j;
      continue;
    }
    const std::size_t window = std::min(kWindow, bytes.size() - i);
    auto matches_at = [&](std::uint64_t o) {
      std::size_t k = 0;
      while (k < window && pattern_byte(o + k) == byte(i + k)) ++k;
      return k == window;
    };
    // Where the previous run stopped is the likely place to resume.
    std::uint64_t found = matches_at(resume) ? resume : kSearch;
    for (std::uint64_t o = 0; o < kSearch && found == kSearch; ++o) {
      if (matches_at(o)) found = o;
    }
    if (found == kSearch) {
      // Not the pattern: raw bytes up to the next NUL.
      while (i < bytes.size() && byte(i) != 0) raw += fmt::format("{:02x}", byte(i++));
      continue;
    }
    std::size_t j = i;
    while (j < bytes.size() && byte(j) == pattern_byte(found + (j - i))) ++j;
    flush_raw();
    pieces.push_back(fmt::format("P{}+{}", found, j - i));
    resume = found + (j - i);
    i = j;
  }
  flush_raw();
  std::string out;
  for (const auto& p : pieces) {
    if (!out.empty()) out += ' ';
    out += p;
  }
  return out;
}

std::string log_digest(const std::vector<std::string>& lines) {
  constexpr std::size_t kLiteralLines = 40;
  std::string out;
  if (lines.size() <= kLiteralLines) {
    for (const auto& l : lines) out += l + "\n";
    return out;
  }
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const auto& l : lines) {
    for (unsigned char c : l + "\n") {
      hash ^= c;
      hash *= 0x100000001b3ull;
    }
  }
  return fmt::format("{} lines, fnv1a {:016x}\n", lines.size(), hash);
}

}  // namespace ddtime::fault
