// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/measured.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "system/file_kind.h"

namespace ddtime {
namespace {

// A small sysfs file's text, or "" when it cannot be read.
std::string read_small(Os& os, const std::string& path) {
  const IoResult opened = os.open(path.c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return {};
  const int fd = static_cast<int>(opened.n);
  char buffer[128];
  std::string text;
  while (true) {
    const IoResult got = os.read(fd, buffer, sizeof buffer);
    if (got.err == EINTR) continue;
    if (!got.ok() || got.n == 0) break;
    text.append(buffer, static_cast<std::size_t>(got.n));
    if (text.size() > 1024) break;
  }
  os.close(fd);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// "48K", "1024K", "32M" as bytes; 0 when it is not one.
std::int64_t size_in_bytes(const std::string& text) {
  std::int64_t value = 0;
  std::size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') value = value * 10 + (text[i++] - '0');
  if (i == 0) return 0;
  if (i == text.size()) return value;
  switch (text[i]) {
    case 'K':
      return value << 10;
    case 'M':
      return value << 20;
    case 'G':
      return value << 30;
    default:
      return 0;
  }
}

// "a 64 KiB buffer", "a 3000-byte buffer": never "bytes", which scripts
// grep GNU's summary for.
std::string buffer_words(std::int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) return fmt::format("a {} MiB buffer", bytes >> 20);
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("a {} KiB buffer", bytes >> 10);
  return fmt::format("a {}-byte buffer", bytes);
}

}  // namespace

std::vector<CpuCache> read_cpu_caches(Os& os, const std::string& root) {
  std::vector<CpuCache> caches;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = fmt::format("{}/index{}", root, index);
    const std::string type = read_small(os, dir + "/type");
    if (type.empty()) break;
    if (type == "Instruction") continue;
    const std::string level = read_small(os, dir + "/level");
    const std::int64_t bytes = size_in_bytes(read_small(os, dir + "/size"));
    if (level.empty() || bytes == 0) continue;
    caches.push_back({std::atoi(level.c_str()), bytes});
  }
  std::sort(caches.begin(), caches.end(), [](const CpuCache& a, const CpuCache& b) { return a.level < b.level; });
  return caches;
}

std::string cache_level_for(std::int64_t bytes, const std::vector<CpuCache>& caches) {
  // Without sysfs's word on the caches, where a buffer fits is unknown.
  if (caches.empty()) return "?";
  for (const CpuCache& cache : caches) {
    if (bytes <= cache.bytes) return fmt::format("L{}", cache.level);
  }
  return "memory";
}

// The measured line's words need fewer kinds than FileKind has: /dev/full
// reads as /dev/zero does, a socket is a pipe to it.
SideKind side_kind_of(FileKind kind) {
  switch (kind) {
    case FileKind::kRegular:
      return SideKind::kRegular;
    case FileKind::kBlock:
      return SideKind::kBlock;
    case FileKind::kPipe:
    case FileKind::kSocket:
      return SideKind::kPipe;
    case FileKind::kNull:
      return SideKind::kNull;
    case FileKind::kZero:
    case FileKind::kFull:
      return SideKind::kZero;
    case FileKind::kRandom:
      return SideKind::kRandom;
    case FileKind::kOtherCharacter:
      return SideKind::kOtherCharacter;
    default:
      return SideKind::kUnknown;
  }
}

std::string row_labelled(std::string_view line, std::string_view row) {
  const std::size_t at = line.find(": measured: ");
  if (at == std::string_view::npos) return std::string(line);
  return fmt::format("{}: measured ({}, the row of GNU's lines below): {}", line.substr(0, at), row,
                     line.substr(at + 12));
}

namespace {

std::string regular_input_words(const MeasuredFacts& f) {
  std::string words = fmt::format("reading '{}'", f.input_name);
  if (f.input_direct) {
    words += " with O_DIRECT, past the page cache";
  } else if (f.input_residency_unknown) {
    words +=
        ", how much of it was in the page cache unknown (the kernel tells only the file's owner or a "
        "user who may write it): maybe from memory";
  } else if (f.input_resident) {
    words += fmt::format(", {:.1f}% of the data read in the page cache before the run{}", *f.input_resident * 100,
                         *f.input_resident >= 0.999  ? ": from memory, not from the disk"
                         : *f.input_resident > 0.001 ? ": partly from memory"
                                                     : "");
  }
  return words;
}

std::string input_words(const MeasuredFacts& f, std::string_view buffer, std::string_view fits) {
  switch (f.input) {
    case SideKind::kZero:
      return fmt::format("the kernel zero-filling {}{}", buffer, fits);
    case SideKind::kRandom:
      return "the kernel's random generator, not a device";
    case SideKind::kRegular:
      return regular_input_words(f);
    case SideKind::kBlock:
      return f.input_direct ? fmt::format("reading the device '{}' with O_DIRECT: every read reached it", f.input_name)
                            : fmt::format(
                                  "reading the device '{}' through the page cache: reads may have come from memory "
                                  "(add iflag=direct)",
                                  f.input_name);
    case SideKind::kPipe:
      return "reading a pipe: the writer's pace as much as ours";
    case SideKind::kNull:
      return "reading /dev/null, which gives nothing";
    default:
      return fmt::format("reading '{}'", f.input_name);
  }
}

std::string output_words(const MeasuredFacts& f) {
  switch (f.output) {
    case SideKind::kNull:
      return "; writing to /dev/null, which discards";
    case SideKind::kRegular:
      return f.output_flushed
                 ? fmt::format("; writing '{}' through to the device", f.output_name)
                 : fmt::format("; writing '{}' into the page cache, not the device: add conv=fdatasync", f.output_name);
    case SideKind::kBlock:
      return f.output_flushed
                 ? fmt::format("; writing the device '{}' through to it", f.output_name)
                 : fmt::format("; writing the device '{}' into the page cache: add oflag=direct or conv=fdatasync",
                               f.output_name);
    case SideKind::kPipe:
      return "; writing a pipe: the reader's pace as much as ours";
    default:
      return std::string();
  }
}

}  // namespace

std::string measured_line(std::string_view program, const MeasuredFacts& f) {
  const std::string buffer = buffer_words(f.bs);
  const std::string fits =
      f.caches.empty() ? std::string() : fmt::format(", which fits in {}", cache_level_for(f.bs, f.caches));
  std::string words;
  if (f.pattern) {
    words = fmt::format("data made by the generator in {}{} (its own rate is said above)", buffer, fits);
  } else if (f.input == SideKind::kZero && f.output == SideKind::kNull) {
    words = fmt::format(
        "the kernel zero-filling {} in this process's memory{}, plus two system calls per record; no "
        "device, and /dev/null keeps nothing",
        buffer, fits);
  } else {
    words = input_words(f, buffer, fits) + output_words(f);
  }
  return fmt::format("{}: measured: {}\n", program, words);
}

}  // namespace ddtime
