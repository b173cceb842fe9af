// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/pattern.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "dd/engine.h"
#include "dd/io.h"
#include "measure/timing.h"
#include "model/units.h"

namespace ddtime {
namespace {

// A bijection on 64 bits with one multiply (xorshift, multiply, xorshift):
// it scrambles a counter well enough that no block repeats and none
// compresses, which is all a device test needs of it, at about two cycles
// a word (splitmix64's two-multiply finaliser made 5.2 GB/s here; this
// makes more).
inline std::uint64_t mix(std::uint64_t x) noexcept {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  return x;
}

inline std::uint64_t word_at(std::uint64_t seed, std::uint64_t index) noexcept {
  return mix(seed + index * 0x9e3779b97f4a7c15ULL);
}

// Random bytes [offset, offset + length): word w holds bytes 8w..8w+7.
void fill_random(unsigned char* out, std::size_t length, std::uint64_t offset, std::uint64_t seed) noexcept {
  std::uint64_t index = offset / 8;
  std::size_t skip = static_cast<std::size_t>(offset % 8);
  while (length > 0 && (skip != 0 || length < 8)) {  // a partial first or last word
    const std::uint64_t word = word_at(seed, index++);
    const std::size_t take = std::min<std::size_t>(8 - skip, length);
    std::memcpy(out, reinterpret_cast<const unsigned char*>(&word) + skip, take);
    out += take;
    length -= take;
    skip = 0;
  }
  // Whole words: the counter advances by addition, so each word costs the
  // mixer's one multiply, and four at a time overlap.
  constexpr std::uint64_t kStep = 0x9e3779b97f4a7c15ULL;
  std::uint64_t counter = seed + index * kStep;
  std::size_t words = length / 8;
  while (words >= 4) {
    const std::uint64_t w[4] = {mix(counter), mix(counter + kStep), mix(counter + 2 * kStep), mix(counter + 3 * kStep)};
    std::memcpy(out, w, sizeof w);
    out += sizeof w;
    counter += 4 * kStep;
    index += 4;
    words -= 4;
  }
  while (words-- > 0) {
    const std::uint64_t w = mix(counter);
    std::memcpy(out, &w, 8);
    out += 8;
    counter += kStep;
    ++index;
  }
  if (const std::size_t rest = length % 8; rest != 0) {
    const std::uint64_t w = word_at(seed, index);
    std::memcpy(out, &w, rest);
  }
}

void put_le64(unsigned char* out, std::uint64_t value) noexcept {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}

}  // namespace

bool parse_pattern(std::string_view text, PatternSpec& spec) noexcept {
  if (text == "zero") {
    spec = {PatternKind::kByte, 0x00};
  } else if (text == "ones") {
    spec = {PatternKind::kByte, 0xff};
  } else if (text == "random") {
    spec = {PatternKind::kRandom, 0};
  } else if (text == "stamp") {
    spec = {PatternKind::kStamp, 0};
  } else if (text.size() == 4 && (text.starts_with("0x") || text.starts_with("0X"))) {
    unsigned value = 0;
    for (const char c : text.substr(2)) {
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) return false;
      value = value * 16 + static_cast<unsigned>(digit);
    }
    spec = {PatternKind::kByte, static_cast<unsigned char>(value)};
  } else {
    return false;
  }
  return true;
}

std::string pattern_name(const PatternSpec& spec) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (spec.kind) {
    case PatternKind::kRandom:
      return "random";
    case PatternKind::kStamp:
      return "stamp";
    case PatternKind::kByte:
      break;
  }
  if (spec.byte == 0x00) return "zero";
  if (spec.byte == 0xff) return "ones";
  return {'0', 'x', kHex[spec.byte >> 4], kHex[spec.byte & 15]};
}

void PatternSource::fill(unsigned char* buffer, std::size_t length, std::int64_t offset) const noexcept {
  switch (spec_.kind) {
    case PatternKind::kByte:
      std::memset(buffer, spec_.byte, length);
      return;
    case PatternKind::kRandom:
      fill_random(buffer, length, static_cast<std::uint64_t>(offset), seed_);
      return;
    case PatternKind::kStamp:
      break;
  }
  // Sector by sector, each made whole (in place when it fits) and copied
  // in part at the ends.
  std::uint64_t position = static_cast<std::uint64_t>(offset);
  while (length > 0) {
    const std::uint64_t sector_start = position - position % kSector;
    const std::size_t skip = static_cast<std::size_t>(position - sector_start);
    const std::size_t take = std::min(kSector - skip, length);
    unsigned char sector[kSector];
    unsigned char* target = skip == 0 && take == kSector ? buffer : sector;
    fill_random(target, kSector, sector_start, seed_);
    put_le64(target, static_cast<std::uint64_t>(base_) + sector_start);
    put_le64(target + 8, seed_);
    if (target == sector) std::memcpy(buffer, sector + skip, take);
    buffer += take;
    length -= take;
    position += take;
  }
}

IoResult PatternOs::read(int fd, void* buffer, std::size_t length) noexcept {
  if (fd != kInputFd) return OsWrapper::read(fd, buffer, length);
  source_.fill(static_cast<unsigned char*>(buffer), length, position_);
  position_ += static_cast<std::int64_t>(length);
  return {static_cast<ssize_t>(length), 0};
}

PatternRing::PatternRing(std::unique_ptr<Ring> inner, const PatternSource& source, std::optional<MixChoice> choice,
                         unsigned job)
    : inner_(std::move(inner)), source_(source), choice_(choice), job_(job) {
  // At most depth requests are queued and in flight together: a batch
  // holds at most that many of each kind.
  made_.reserve(inner_->depth());
  reaped_.reserve(std::size_t{2} * inner_->depth());
}

void PatternRing::queue(const RingRequest& request) noexcept {
  const bool read = request.kind == RingRequest::Kind::kRead;
  bool answered = read && request.fd == kInputFd;
  if (choice_ && (request.fd == kInputFd || request.fd == kOutputFd)) {
    // A record's read is generated when the record is a write, and its
    // write goes nowhere when it is a read.
    const bool reads = choice_->reads(job_, static_cast<std::int64_t>(request.tag & ~kWriteTag));
    answered = reads != read;
  }
  if (answered) return answer(request);
  inner_->queue(request);
  ++inner_queued_;
  ++inner_in_flight_;
}

void PatternRing::answer(const RingRequest& request) noexcept {
  if (request.kind == RingRequest::Kind::kRead) {
    // The queued engine reads only an input it can read at offsets; a
    // mixed run's input is the target, at the output's offsets.
    source_.fill(request.buffer, request.length, choice_ ? request.offset - source_.base() : request.offset);
  }
  made_.push_back({request.tag, static_cast<std::int64_t>(request.length)});
}

int PatternRing::submit_and_wait(unsigned wait_for) noexcept {
  reaped_.assign(made_.begin(), made_.end());
  made_.clear();
  // Wait on the inner ring only for what the generated reads do not
  // already answer, and for no more than it holds.
  const auto made = static_cast<unsigned>(reaped_.size());
  const unsigned wait_inner = std::min(wait_for > made ? wait_for - made : 0u, inner_in_flight_);
  if (inner_queued_ == 0 && wait_inner == 0) return 0;
  if (const int err = inner_->submit_and_wait(wait_inner); err != 0) {
    // Nothing is lost: the generated reads come back with the next batch.
    made_.assign(reaped_.begin(), reaped_.end());
    reaped_.clear();
    return err;
  }
  inner_queued_ = 0;
  for (const RingCompletion& completion : inner_->completions()) {
    reaped_.push_back(completion);
    --inner_in_flight_;
    if (!choice_ || completion.result <= 0) continue;
    if ((completion.tag & kWriteTag) != 0) {
      ++counts_.writes;
      counts_.write_bytes += completion.result;
    } else {
      ++counts_.reads;
      counts_.read_bytes += completion.result;
    }
  }
  return 0;
}

IoResult PatternOs::pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept {
  if (fd != kInputFd) return OsWrapper::pread(fd, buffer, length, offset);
  source_.fill(static_cast<unsigned char*>(buffer), length, offset);
  return {static_cast<ssize_t>(length), 0};
}

IoResult PatternOs::lseek(int fd, off_t offset, int whence) noexcept {
  if (fd != kInputFd) return OsWrapper::lseek(fd, offset, whence);
  const std::int64_t target = whence == SEEK_SET ? offset : whence == SEEK_CUR ? position_ + offset : -1;
  if (target < 0) return {-1, EINVAL};
  position_ = target;
  return {static_cast<ssize_t>(target), 0};
}

IoResult MixOs::read_record(void* buffer, std::size_t length, std::int64_t offset) noexcept {
  record_reads_ = choice_.reads(0, ++record_);
  if (!record_reads_) {
    source_.fill(static_cast<unsigned char*>(buffer), length, offset - source_.base());
    return {static_cast<ssize_t>(length), 0};
  }
  const IoResult got = OsWrapper::pread(kInputFd, buffer, length, static_cast<off_t>(offset));
  if (got.n > 0) {
    ++counts_.reads;
    counts_.read_bytes += got.n;
  }
  return got;
}

IoResult MixOs::write_record(const void* buffer, std::size_t length, std::int64_t offset) noexcept {
  if (record_reads_) return {static_cast<ssize_t>(length), 0};
  const IoResult put = OsWrapper::pwrite(kOutputFd, buffer, length, static_cast<off_t>(offset));
  if (put.n > 0) {
    ++counts_.writes;
    counts_.write_bytes += put.n;
  }
  return put;
}

IoResult MixOs::read(int fd, void* buffer, std::size_t length) noexcept {
  if (fd != kInputFd) return OsWrapper::read(fd, buffer, length);
  const IoResult got = read_record(buffer, length, input_position_);
  if (got.n > 0) input_position_ += got.n;
  return got;
}

IoResult MixOs::write(int fd, const void* buffer, std::size_t length) noexcept {
  if (fd != kOutputFd) return OsWrapper::write(fd, buffer, length);
  const IoResult put = write_record(buffer, length, output_position_);
  if (put.n > 0) output_position_ += put.n;
  return put;
}

IoResult MixOs::pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept {
  if (fd != kInputFd) return OsWrapper::pread(fd, buffer, length, offset);
  return read_record(buffer, length, offset);
}

IoResult MixOs::pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept {
  if (fd != kOutputFd) return OsWrapper::pwrite(fd, buffer, length, offset);
  return write_record(buffer, length, offset);
}

IoResult MixOs::lseek(int fd, off_t offset, int whence) noexcept {
  // The target's own positions move too, for whatever asks them.
  const IoResult moved = OsWrapper::lseek(fd, offset, whence);
  if (moved.n >= 0 && fd == kInputFd) input_position_ = moved.n;
  if (moved.n >= 0 && fd == kOutputFd) output_position_ = moved.n;
  return moved;
}

double measure_generator_rate(const PatternSource& source, const std::function<bool()>& stop) {
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  std::vector<unsigned char> block(kBlock);
  MonotonicClock clock;
  const std::int64_t start = clock.now_ns();
  std::int64_t now = start;
  std::int64_t made = 0;
  while (now - start < 20'000'000 && !(stop && stop())) {
    source.fill(block.data(), kBlock, made);
    made += static_cast<std::int64_t>(kBlock);
    now = clock.now_ns();
  }
  return now > start ? static_cast<double>(made) / in_seconds(static_cast<double>(now - start)) : 0;
}

}  // namespace ddtime
