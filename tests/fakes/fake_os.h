// SPDX-License-Identifier: GPL-3.0-or-later
// fake_os — a scripted Os for what real files make hard to reproduce: short
// reads, EINTR storms, EIO at a chosen read, ENOSPC in the middle of a block,
// failing fsync or ftruncate. fd 0 reads from `input`, fd 1 writes into
// `output` at a position, so sparse seeks and truncation can be checked. It
// records every call for assertions about the system-call sequence.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "system/file_kind.h"
#include "system/os.h"

namespace ddtime::testing {

// One scripted answer to a read or write.
struct Step {
  enum class Kind { kBytes, kError, kEof };
  Kind kind = Kind::kBytes;
  std::size_t bytes = 0;  // at most this many (kBytes)
  int err = 0;            // kError
};

inline Step Bytes(std::size_t n) { return {Step::Kind::kBytes, n, 0}; }
inline Step Fail(int err) { return {Step::Kind::kError, 0, err}; }
inline Step Eintr() { return Fail(EINTR); }
inline Step Eof() { return {Step::Kind::kEof, 0, 0}; }

class FakeOs final : public Os {
 public:
  std::vector<unsigned char> input;   // what fd 0 holds
  std::vector<unsigned char> output;  // what fd 1 holds
  bool input_seekable = true;
  bool output_seekable = true;
  bool output_is_regular = true;
  int fsync_error = 0;
  int fdatasync_error = 0;
  int ftruncate_error = 0;
  int reserve_error = 0;
  ssize_t resident = 0;            // what resident_pages() answers
  int resident_error = 0;          // or the errno it fails with
  DirectIoNeeds direct_needs;      // what direct_io_needs() answers
  std::int64_t device_size = -1;   // block_device_size(): -1 means ENOTTY
  std::vector<std::string> calls;  // "read 0 512", "write 1 512", ...
  // Names for the two files, so that a session can open them again for
  // every run and a read-back can read the output: opening input_name
  // gives a new descriptor on the input's bytes, output_name on the
  // output's (emptied under O_TRUNC), each at offset 0; dup2 moves one onto
  // fd 0 or 1; stat_path knows both as regular files. Any other name is
  // not there.
  std::optional<std::string> input_name;
  std::optional<std::string> output_name;
  // A disk that lies: reading the output's byte at this offset gives it
  // with its bits flipped.
  std::optional<std::size_t> output_reads_wrong_at;
  // The machine, for the reports' environment: read-only text files by
  // name (/proc, /sys), opened and read as the real ones are, and known to
  // stat_path as regular files unless stats says otherwise; stats answers
  // stat_path for a name first; links is what real_path resolves a name
  // to (a /sys path not among them is not there); magics is each path's
  // statfs f_type (any other: ENOENT).
  std::map<std::string, std::string> files;
  std::map<std::string, struct stat> stats;
  std::map<std::string, std::string> links;
  std::map<std::string, std::uint32_t> magics;
  // fstat's answer for these descriptors first (a block device's st_rdev).
  std::map<int, struct stat> fd_stats;
  struct utsname names = fake_names();
  int names_error = 0;                        // uname fails with this
  ssize_t cpus_online = 2;                    // online_cpus(); 0 means unknown (ENOSYS)
  std::int64_t wall_seconds = 1'796'250'000;  // wall_clock_seconds()
  std::int64_t slept_ns = 0;                  // sleep_ns(): the waits, added up, never waited
  // execute(): each program tried and its argv, never started; the answer
  // is exec_error for every path (ENOENT: none is there).
  std::vector<std::vector<std::string>> executed;
  int exec_error = ENOENT;

  void on_read(std::vector<Step> steps) { reads_.insert(reads_.end(), steps.begin(), steps.end()); }
  void on_write(std::vector<Step> steps) { writes_.insert(writes_.end(), steps.begin(), steps.end()); }

  std::string stderr_written;
  // The next opens that fail with EINTR.
  int interrupted_opens = 0;
  std::string output_text() const { return {output.begin(), output.end()}; }
  std::size_t count_calls(const std::string& prefix) const {
    return static_cast<std::size_t>(
        std::count_if(calls.begin(), calls.end(), [&](const std::string& c) { return c.rfind(prefix, 0) == 0; }));
  }

  IoResult open(const char* path, int flags, mode_t) noexcept override {
    calls.push_back(std::string("open ") + path);
    // A signal caught while the open blocked (a FIFO with no writer yet).
    if (interrupted_opens > 0) {
      --interrupted_opens;
      return {-1, EINTR};
    }
    if (std::string_view(path) == "/dev/null") {
      open_[next_fd_] = {File::kNull, 0, true, true};
      return {next_fd_++, 0};
    }
    if (files.count(path) != 0) {
      open_[next_fd_] = {File::kText, 0, true, false, path};
      return {next_fd_++, 0};
    }
    const bool is_input = input_name && *input_name == path;
    if (!is_input && !(output_name && *output_name == path)) return {-1, ENOENT};
    if (!is_input && (flags & O_TRUNC) != 0) output.clear();
    const int fd = next_fd_++;
    const int access = flags & O_ACCMODE;
    open_[fd] = {is_input ? File::kInput : File::kOutput, 0, access != O_WRONLY, access != O_RDONLY};
    return {fd, 0};
  }
  IoResult close(int fd) noexcept override {
    calls.push_back("close " + std::to_string(fd));
    if (fd >= kFirstNamedFd) open_.erase(fd);
    return {0, 0};
  }
  IoResult dup2(int from, int to) noexcept override {
    if (const auto found = open_.find(from); found != open_.end()) open_[to] = found->second;
    return {to, 0};
  }

  IoResult read(int fd, void* buffer, std::size_t length) noexcept override {
    calls.push_back("read " + std::to_string(fd) + " " + std::to_string(length));
    return read_here(fd, buffer, length);
  }

  // At an offset: as read or write there, the descriptor's position kept.
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override {
    calls.push_back("pread " + std::to_string(fd) + " " + std::to_string(length) + " " + std::to_string(offset));
    return at_offset(fd, offset, [&] { return read_here(fd, buffer, length); });
  }
  IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept override {
    calls.push_back("pwrite " + std::to_string(fd) + " " + std::to_string(length) + " " + std::to_string(offset));
    return at_offset(fd, offset, [&] { return write_here(fd, buffer, length); });
  }

  IoResult read_here(int fd, void* buffer, std::size_t length) noexcept {
    const auto found = open_.find(fd);
    if (found == open_.end() || !found->second.readable) return {-1, EBADF};
    std::size_t limit = length;
    if (!reads_.empty()) {
      Step step = reads_.front();
      reads_.pop_front();
      if (step.kind == Step::Kind::kError) return {-1, step.err};
      if (step.kind == Step::Kind::kEof) return {0, 0};
      limit = std::min(limit, step.bytes);
    }
    if (found->second.file == File::kText) {
      const std::string& text = files[found->second.name];
      text_.assign(text.begin(), text.end());
    }
    const std::vector<unsigned char>& bytes = found->second.file == File::kText ? text_ : contents(found->second.file);
    std::size_t& position = found->second.position;
    std::size_t available = bytes.size() - std::min(bytes.size(), position);
    std::size_t n = std::min(limit, available);
    // An empty input has no data(): memcpy takes no null pointer, even for 0 bytes.
    if (n > 0) std::memcpy(buffer, bytes.data() + position, n);
    if (found->second.file == File::kOutput && output_reads_wrong_at && *output_reads_wrong_at >= position &&
        *output_reads_wrong_at < position + n) {
      static_cast<unsigned char*>(buffer)[*output_reads_wrong_at - position] ^= 0xff;
    }
    position += n;
    return {static_cast<ssize_t>(n), 0};
  }

  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override {
    calls.push_back("write " + std::to_string(fd) + " " + std::to_string(length));
    return write_here(fd, buffer, length);
  }

  template <typename Call>
  IoResult at_offset(int fd, off_t offset, Call call) noexcept {
    const auto found = open_.find(fd);
    if (found == open_.end()) return {-1, EBADF};
    const bool input_file = found->second.file == File::kInput;
    if (!(input_file ? input_seekable : output_seekable)) return {-1, ESPIPE};
    if (offset < 0) return {-1, EINVAL};
    const std::size_t kept = found->second.position;
    found->second.position = static_cast<std::size_t>(offset);
    const IoResult result = call();
    found->second.position = kept;
    return result;
  }

  IoResult write_here(int fd, const void* buffer, std::size_t length) noexcept {
    if (fd == 2) {  // what the runner writes itself (JSON), not through Diag
      stderr_written.append(static_cast<const char*>(buffer), length);
      return {static_cast<ssize_t>(length), 0};
    }
    const auto found = open_.find(fd);
    if (found == open_.end() || !found->second.writable) return {-1, EBADF};
    std::size_t n = length;
    if (!writes_.empty()) {
      Step step = writes_.front();
      writes_.pop_front();
      if (step.kind == Step::Kind::kError) return {-1, step.err};
      if (step.kind == Step::Kind::kEof) return {0, 0};
      n = std::min(n, step.bytes);
    }
    if (found->second.file == File::kNull) return {static_cast<ssize_t>(n), 0};
    std::vector<unsigned char>& bytes = contents(found->second.file);
    std::size_t& position = found->second.position;
    if (bytes.size() < position + n) bytes.resize(position + n);
    if (n > 0) std::memcpy(bytes.data() + position, buffer, n);
    position += n;
    return {static_cast<ssize_t>(n), 0};
  }

  IoResult lseek(int fd, off_t offset, int whence) noexcept override {
    calls.push_back("lseek " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(whence));
    const auto found = open_.find(fd);
    if (found == open_.end()) return {-1, EBADF};
    const bool input_file = found->second.file == File::kInput;
    if (!(input_file ? input_seekable : output_seekable)) return {-1, ESPIPE};
    std::size_t& position = found->second.position;
    const std::size_t size = contents(found->second.file).size();
    off_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? static_cast<off_t>(position) : static_cast<off_t>(size);
    off_t target = base + offset;
    if (target < 0) return {-1, EINVAL};
    position = static_cast<std::size_t>(target);
    return {target, 0};
  }

  IoResult fstat(int fd, struct stat& status) noexcept override {
    status = {};
    if (const auto given = fd_stats.find(fd); given != fd_stats.end()) {
      status = given->second;
      return {0, 0};
    }
    const auto found = open_.find(fd);
    if (found != open_.end() && found->second.file == File::kNull) {
      status.st_mode = S_IFCHR | 0666;
      status.st_rdev = makedev(1, 3);
      return {0, 0};
    }
    const bool input_file = found != open_.end() ? found->second.file == File::kInput : fd == 0;
    bool regular = input_file ? input_seekable : output_is_regular;
    status.st_mode = regular ? S_IFREG | 0644 : S_IFIFO | 0600;
    status.st_size = static_cast<off_t>(input_file ? input.size() : output.size());
    status.st_ino = input_file ? 1 : 2;  // two files, as stat_path knows them
    return {0, 0};
  }

  IoResult ftruncate(int fd, off_t length) noexcept override {
    calls.push_back("ftruncate " + std::to_string(fd) + " " + std::to_string(length));
    if (ftruncate_error != 0) return {-1, ftruncate_error};
    if (const auto found = open_.find(fd); found != open_.end() && found->second.file == File::kOutput) {
      output.resize(static_cast<std::size_t>(length));
    }
    return {0, 0};
  }

  IoResult fsync(int fd) noexcept override {
    calls.push_back("fsync " + std::to_string(fd));
    return fsync_error != 0 ? IoResult{-1, fsync_error} : IoResult{0, 0};
  }
  IoResult fdatasync(int fd) noexcept override {
    calls.push_back("fdatasync " + std::to_string(fd));
    return fdatasync_error != 0 ? IoResult{-1, fdatasync_error} : IoResult{0, 0};
  }
  IoResult get_status_flags(int) noexcept override { return {status_flags_, 0}; }
  IoResult set_status_flags(int fd, int flags) noexcept override {
    calls.push_back("setfl " + std::to_string(fd) + " " + std::to_string(flags));
    status_flags_ = flags;
    return {0, 0};
  }
  IoResult drop_cache(int fd, off_t offset, off_t length) noexcept override {
    calls.push_back("fadvise " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(length));
    return {0, 0};
  }

  IoResult stat_path(const char* path, struct stat& status) noexcept override {
    calls.push_back(std::string("stat ") + path);
    status = {};
    if (const auto known = stats.find(path); known != stats.end()) {
      status = known->second;
      return {0, 0};
    }
    if (files.count(path) != 0) {
      status.st_mode = S_IFREG | 0444;
      return {0, 0};
    }
    if (std::string_view(path) == "/dev/null") {
      open_[next_fd_] = {File::kNull, 0, true, true};
      return {next_fd_++, 0};
    }
    const bool is_input = input_name && *input_name == path;
    if (!is_input && !(output_name && *output_name == path)) return {-1, ENOENT};
    status.st_mode = S_IFREG | 0644;
    status.st_size = static_cast<off_t>(is_input ? input.size() : output.size());
    status.st_ino = is_input ? 1 : 2;
    return {0, 0};
  }
  IoResult reserve(int fd, off_t offset, off_t length) noexcept override {
    calls.push_back("reserve " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(length));
    if (reserve_error != 0) return {-1, reserve_error};
    const auto end = static_cast<std::size_t>(offset + length);
    if (fd == 1 && output.size() < end) output.resize(end);
    return {0, 0};
  }
  IoResult resident_pages(int fd, off_t offset, off_t length) noexcept override {
    calls.push_back("resident " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(length));
    return resident_error != 0 ? IoResult{-1, resident_error} : IoResult{resident, 0};
  }
  IoResult flush_device_cache(int fd) noexcept override {
    calls.push_back("flushbuf " + std::to_string(fd));
    return {0, 0};
  }
  IoResult allocate_blocks(int fd, off_t offset, off_t length) noexcept override {
    calls.push_back("allocate " + std::to_string(fd) + " " + std::to_string(offset) + " " + std::to_string(length));
    return reserve_error != 0 ? IoResult{-1, reserve_error} : IoResult{0, 0};
  }
  IoResult remove_file(const char* path) noexcept override {
    calls.push_back(std::string("unlink ") + path);
    return {0, 0};
  }
  IoResult terminal_columns(int) noexcept override { return {-1, ENOTTY}; }
  IoResult real_path(const char* path, char* resolved) noexcept override {
    if (const auto link = links.find(path); link != links.end()) {
      std::snprintf(resolved, PATH_MAX, "%s", link->second.c_str());
      return {0, 0};
    }
    // sysfs has only what links names.
    if (std::string_view(path).starts_with("/sys/")) return {-1, ENOENT};
    std::snprintf(resolved, PATH_MAX, "/fake/%s", path);
    return {0, 0};
  }
  IoResult system_names(struct utsname& answer) noexcept override {
    if (names_error != 0) return {-1, names_error};
    answer = names;
    return {0, 0};
  }
  IoResult filesystem_magic(const char* path) noexcept override {
    calls.push_back(std::string("statfs ") + path);
    const auto magic = magics.find(path);
    return magic == magics.end() ? IoResult{-1, ENOENT} : IoResult{static_cast<ssize_t>(magic->second), 0};
  }
  IoResult online_cpus() noexcept override { return cpus_online > 0 ? IoResult{cpus_online, 0} : IoResult{-1, ENOSYS}; }
  IoResult wall_clock_seconds() noexcept override { return {static_cast<ssize_t>(wall_seconds), 0}; }
  IoResult sleep_ns(std::int64_t ns) noexcept override {
    slept_ns += ns;
    return {0, 0};
  }
  IoResult execute(const char* path, char* const argv[]) noexcept override {
    std::vector<std::string> call{path};
    for (char* const* word = argv; *word != nullptr; ++word) call.emplace_back(*word);
    executed.push_back(std::move(call));
    return {-1, exec_error};
  }
  DirectIoNeeds direct_io_needs(int) noexcept override { return direct_needs; }
  IoResult block_device_size(int) noexcept override {
    return device_size < 0 ? IoResult{-1, ENOTTY} : IoResult{static_cast<ssize_t>(device_size), 0};
  }

 private:
  enum class File { kInput, kOutput, kNull, kText };
  struct Open {
    File file;
    std::size_t position = 0;
    bool readable = true;
    bool writable = false;
    std::string name = {};  // kText: its key in files
  };
  static struct utsname fake_names() {
    struct utsname names {};
    std::snprintf(names.sysname, sizeof names.sysname, "Linux");
    std::snprintf(names.nodename, sizeof names.nodename, "fakehost");
    std::snprintf(names.release, sizeof names.release, "6.1.0-fake");
    std::snprintf(names.version, sizeof names.version, "#1 SMP fake");
    std::snprintf(names.machine, sizeof names.machine, "x86_64");
    return names;
  }
  std::vector<unsigned char> text_;  // the kText file being read
  // /dev/null reads as empty and keeps nothing written to it.
  std::vector<unsigned char>& contents(File file) noexcept {
    null_.clear();
    return file == File::kInput ? input : file == File::kOutput ? output : null_;
  }
  std::vector<unsigned char> null_;

  static constexpr int kFirstNamedFd = 100;  // open() hands these out, one per call
  // As a shell hands them over: the input to read, the output to write.
  std::map<int, Open> open_{{0, {File::kInput, 0, true, false}}, {1, {File::kOutput, 0, false, true}}};
  int next_fd_ = kFirstNamedFd;
  std::deque<Step> reads_;
  std::deque<Step> writes_;
  int status_flags_ = O_WRONLY;
};

// A FakeOs whose input is a file named "in" holding input, and whose
// output a file named "out" holding output.
inline FakeOs named_files(std::vector<unsigned char> input, std::vector<unsigned char> output = {}) {
  FakeOs os;
  os.input = std::move(input);
  os.output = std::move(output);
  os.input_name = "in";
  os.output_name = "out";
  return os;
}

// The kinds resolve would find of fd 0 and fd 1 (a fake's, or any Os's):
// what a run hands its engine.
inline FileKinds kinds_of(Os& os) { return {find_kind(os, std::nullopt, 0), find_kind(os, std::nullopt, 1)}; }

}  // namespace ddtime::testing
