// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/limits.h"

#include <fcntl.h>

#include <charconv>
#include <string>

namespace ddtime {
namespace {

constexpr std::size_t kTextLimit = 16384;

// A /proc file's text (they are small); empty when it cannot be read.
std::string proc_text(Os& os, const char* path) {
  std::string text;
  const IoResult opened = os.open(path, O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return text;
  const int fd = static_cast<int>(opened.n);
  char chunk[4096];
  while (text.size() < kTextLimit) {
    const IoResult got = os.read(fd, chunk, sizeof chunk);
    if (got.err == EINTR) continue;
    if (!got.ok() || got.n == 0) break;
    text.append(chunk, static_cast<std::size_t>(got.n));
  }
  os.close(fd);
  return text;
}

std::optional<std::int64_t> leading_number(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

// The rest of the line that starts with key, or nullopt.
std::optional<std::string_view> line_after(std::string_view text, std::string_view key) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    if (line.starts_with(key)) return line.substr(key.size());
    at = end + 1;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::int64_t> max_processes_in(std::string_view limits) {
  const std::optional<std::string_view> rest = line_after(limits, "Max processes");
  if (!rest) return std::nullopt;
  return leading_number(*rest);  // "unlimited" is no number
}

std::optional<std::int64_t> threads_running_in(std::string_view loadavg) {
  const std::size_t slash = loadavg.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  return leading_number(loadavg.substr(slash + 1));
}

std::optional<std::int64_t> memory_available_in(std::string_view meminfo) {
  const std::optional<std::string_view> rest = line_after(meminfo, "MemAvailable:");
  if (!rest) return std::nullopt;
  const std::optional<std::int64_t> kib = leading_number(*rest);
  if (!kib) return std::nullopt;
  return *kib * 1024;
}

std::optional<AioLimit> read_aio_limit(Os& os) {
  const std::optional<std::int64_t> max = leading_number(proc_text(os, "/proc/sys/fs/aio-max-nr"));
  const std::optional<std::int64_t> used = leading_number(proc_text(os, "/proc/sys/fs/aio-nr"));
  if (!max || !used) return std::nullopt;
  return AioLimit{*max, *used};
}

SystemLimits read_system_limits(Os& os) {
  SystemLimits limits;
  const auto consider = [&](std::optional<std::int64_t> threads, ThreadLimit::Source source) {
    if (!threads || *threads <= 0) return;
    if (!limits.threads || *threads < limits.threads->threads) limits.threads = ThreadLimit{*threads, source, 0};
  };
  consider(max_processes_in(proc_text(os, "/proc/self/limits")), ThreadLimit::Source::kProcessLimit);
  consider(leading_number(proc_text(os, "/proc/sys/kernel/pid_max")), ThreadLimit::Source::kPidMax);
  consider(leading_number(proc_text(os, "/proc/sys/kernel/threads-max")), ThreadLimit::Source::kThreadsMax);
  if (limits.threads) limits.threads->running = threads_running_in(proc_text(os, "/proc/loadavg")).value_or(0);
  limits.memory_available = memory_available_in(proc_text(os, "/proc/meminfo"));
  return limits;
}

}  // namespace ddtime
