// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/cache_state.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "dd/io.h"
#include "model/symbols.h"
#include "system/buffer.h"

namespace ddtime {
namespace {

constexpr std::string_view kDropCaches = "/proc/sys/vm/drop_caches";

// A file opened to look at, closed when it goes.
class Look {
 public:
  Look(Os& os, const std::string& path, int flags = O_RDONLY) noexcept
      : os_(os), opened_(os.open(path.c_str(), flags | O_CLOEXEC, 0)) {}
  ~Look() {
    if (opened_.ok()) os_.close(fd());
  }
  Look(const Look&) = delete;
  Look& operator=(const Look&) = delete;

  bool ok() const noexcept { return opened_.ok(); }
  int err() const noexcept { return opened_.err; }
  int fd() const noexcept { return static_cast<int>(opened_.n); }

 private:
  Os& os_;
  IoResult opened_;
};

// Of [from, from + length) of the file (length -1: to its end).
std::optional<Residency> residency_of(Os& os, const std::optional<std::string>& path, FileKind kind,
                                      std::int64_t from = 0, std::int64_t length = -1) {
  if (!path) return std::nullopt;
  Look file(os, *path);
  const std::int64_t size = file.ok() ? file_size(os, file.fd(), kind).value_or(-1) : -1;
  if (size < 0) return std::nullopt;
  from = std::min(from, size);
  const std::int64_t end = length < 0 ? size : std::min(size, from + length);
  const auto page = static_cast<std::int64_t>(page_size());
  const std::int64_t first_page = from / page;
  Residency residency{0, end > from ? (end + page - 1) / page - first_page : 0};
  if (end <= from) return residency;
  const IoResult resident = os.resident_pages(file.fd(), static_cast<off_t>(from), static_cast<off_t>(end - from));
  if (resident.err == EACCES) {
    residency.resident.reset();
  } else if (!resident.ok()) {
    return std::nullopt;
  } else {
    residency.resident = resident.n;
  }
  return residency;
}

}  // namespace

std::string_view cache_mode_name(CacheMode mode) noexcept {
  for (const CacheSymbol& symbol : kCacheSymbols) {
    if (symbol.mode == mode) return symbol.name.view();
  }
  return "as-is";
}

CacheFailure CacheStateSetter::prepare(const std::function<bool()>& stop) {
  switch (mode_) {
    case CacheMode::kAsIs:
      return {};
    case CacheMode::kCold:
      if (CacheFailure failed = drop_both(); failed.err != 0) return failed;
      return {};
    case CacheMode::kColdSystem:
      return drop_everything();
    case CacheMode::kWarm:
      return settings_.input_file ? warm(*settings_.input_file, kinds_.input, stop) : CacheFailure{};
  }
  return {};
}

CacheState CacheStateSetter::measure() {
  // Of the bytes the run reads and writes, not of the whole files: a warm
  // range in a cold file is a warm run.
  const std::optional<std::int64_t> length = settings_.count_in_bytes();
  const std::optional<std::int64_t> skip = settings_.skip_offset();
  const std::optional<std::int64_t> seek = settings_.seek_offset();
  return {skip ? residency_of(os_, settings_.input_file, kinds_.input, *skip, length.value_or(-1)) : std::nullopt,
          seek ? residency_of(os_, settings_.output_file, kinds_.output, *seek, length.value_or(-1)) : std::nullopt};
}

std::optional<Residency> CacheStateSetter::input_range_residency() {
  const std::optional<std::int64_t> from = settings_.skip_offset();
  if (!from) return std::nullopt;
  return residency_of(os_, settings_.input_file, kinds_.input, *from, settings_.count_in_bytes().value_or(-1));
}

CacheFailure CacheStateSetter::drop(const std::string& path, FileKind kind) {
  Look file(os_, path);
  // A file not there yet has nothing cached; the run reports what else
  // keeps it from opening.
  if (!file.ok()) return {};
  if (!file_size(os_, file.fd(), kind)) return {};
  if (kind == FileKind::kBlock) {
    if (IoResult flushed = os_.flush_device_cache(file.fd()); !flushed.ok()) {
      return {flushed.err, "drop the cached pages of", path};
    }
    return {};
  }
  // Dirty pages cannot be dropped: write them back first.
  if (IoResult synced = os_.fdatasync(file.fd()); !synced.ok()) return {synced.err, "write back", path};
  if (IoResult dropped = os_.drop_cache(file.fd(), 0, 0); !dropped.ok()) {
    return {dropped.err, "drop the cached pages of", path};
  }
  return {};
}

CacheFailure CacheStateSetter::drop_both() {
  if (settings_.input_file) {
    if (CacheFailure failed = drop(*settings_.input_file, kinds_.input); failed.err != 0) return failed;
  }
  if (settings_.output_file) return drop(*settings_.output_file, kinds_.output);
  return {};
}

CacheFailure CacheStateSetter::drop_everything() {
  // The session's own files first, so that their dirty pages go too.
  if (CacheFailure failed = drop_both(); failed.err != 0) return failed;
  Look knob(os_, std::string(kDropCaches), O_WRONLY);
  if (!knob.ok()) return {knob.err(), "write", std::string(kDropCaches)};
  if (const int err = write_all(os_, knob.fd(), "3\n"); err != 0) return {err, "write", std::string(kDropCaches)};
  return {};
}

CacheFailure CacheStateSetter::warm(const std::string& path, FileKind kind, const std::function<bool()>& stop) {
  Look file(os_, path);
  if (!file.ok()) return {};
  const std::optional<std::int64_t> known = file_size(os_, file.fd(), kind);
  if (!known) return {};
  const std::int64_t size = *known;
  // The bytes the copy will read: from skip= on, count= of them.
  const std::int64_t from = std::min(settings_.skip_offset().value_or(size), size);
  std::int64_t left = std::min(size - from, settings_.count_in_bytes().value_or(size));
  if (!os_.lseek(file.fd(), static_cast<off_t>(from), SEEK_SET).ok()) return {};
  std::vector<unsigned char> block(std::size_t{1} << 20);
  while (left > 0) {
    if (stop && stop()) return {EINTR, "read", path};
    const IoResult got =
        os_.read(file.fd(), block.data(), static_cast<std::size_t>(std::min<std::int64_t>(left, 1 << 20)));
    if (got.err == EINTR) continue;
    if (!got.ok()) return {got.err, "read", path};
    if (got.n == 0) break;
    left -= got.n;
  }
  return {};
}

}  // namespace ddtime
