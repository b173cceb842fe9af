// SPDX-License-Identifier: GPL-3.0-or-later
// pattern — --pattern's generated source in place of if=: zeros, ones, one
// byte, random bytes, or stamped sectors. Every byte is a function of the
// run's seed and its offset in the stream, so blocks can be made in any
// order (a queued engine fills them as it goes), are never the same twice
// (a compressing or deduplicating device cannot cheat) and can be made
// again for --verify. No system calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/mix.h"
#include "model/plan.h"
#include "system/os.h"
#include "system/ring.h"

namespace ddtime {

// "zero", "ones", "0xHH" (two hex digits), "random", "stamp"; false for
// anything else.
bool parse_pattern(std::string_view text, PatternSpec& spec) noexcept;
std::string pattern_name(const PatternSpec& spec);  // "zero", "ones", "0x5a", "random", "stamp"

class PatternSource {
 public:
  // base: where the stream's byte 0 lands in the output (seek=), which
  // stamp writes into each sector.
  PatternSource(const PatternSpec& spec, std::uint64_t seed, std::int64_t base) noexcept
      : spec_(spec), seed_(seed), base_(base) {}

  // Bytes [offset, offset + length) of the stream.
  void fill(unsigned char* buffer, std::size_t length, std::int64_t offset) const noexcept;

  const PatternSpec& spec() const noexcept { return spec_; }
  std::uint64_t seed() const noexcept { return seed_; }
  std::int64_t base() const noexcept { return base_; }

  // stamp's sector: its first 8 bytes are the sector's output offset and
  // the next 8 the seed (little-endian), the rest random.
  static constexpr std::size_t kSector = 512;

 private:
  PatternSpec spec_;
  std::uint64_t seed_;
  std::int64_t base_;
};

// The Os a run with --pattern copies through: its input descriptor is
// /dev/zero, opened only to have one, and every read of it is answered by
// the generator, in stream order, with no system call. Everything else
// goes to the wrapped Os.
class PatternOs final : public OsWrapper {
 public:
  PatternOs(Os& target, const PatternSource& source) noexcept : OsWrapper(target), source_(source) {}
  IoResult read(int fd, void* buffer, std::size_t length) noexcept override;
  // The input's position is the stream's: --random with the sync engine
  // seeks to each block before reading it.
  IoResult lseek(int fd, off_t offset, int whence) noexcept override;
  // --random's reads at their offsets: the stream's bytes there.
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override;

 private:
  const PatternSource& source_;
  std::int64_t position_ = 0;
};

// The Os a --mix run's sync engine goes through, above the latency and
// split-time Os so that they see only what reaches the target. fd 0 and
// fd 1 are both the target, read and written at the positions this
// keeps (by pread and pwrite, whatever the engine calls): a record that
// is a read reads the target and its write goes nowhere; a record that is
// a write is generated (as PatternOs) and written. Each record is one
// read of fd 0, then its write.
class MixOs final : public OsWrapper {
 public:
  MixOs(Os& target, const PatternSource& source, MixChoice choice) noexcept
      : OsWrapper(target), source_(source), choice_(choice) {}
  IoResult read(int fd, void* buffer, std::size_t length) noexcept override;
  IoResult write(int fd, const void* buffer, std::size_t length) noexcept override;
  IoResult pread(int fd, void* buffer, std::size_t length, off_t offset) noexcept override;
  IoResult pwrite(int fd, const void* buffer, std::size_t length, off_t offset) noexcept override;
  IoResult lseek(int fd, off_t offset, int whence) noexcept override;

  const MixCounts& counts() const noexcept { return counts_; }

 private:
  IoResult read_record(void* buffer, std::size_t length, std::int64_t offset) noexcept;
  IoResult write_record(const void* buffer, std::size_t length, std::int64_t offset) noexcept;

  const PatternSource& source_;
  MixChoice choice_;
  std::int64_t record_ = -1;   // the record whose read came last
  bool record_reads_ = false;  // whether it is a read
  std::int64_t input_position_ = 0;
  std::int64_t output_position_ = 0;
  MixCounts counts_;
};

// The ring a queued run with --pattern copies through, as PatternOs is
// the sync engine's Os: a read of the input descriptor (/dev/zero, opened
// only to have one) is answered by the generator as it is queued, with no
// system call, and comes back with the next batch the wrapped ring reaps;
// everything else goes to the wrapped ring. skip= is refused with
// --pattern, so a read's offset is the stream's. No allocation per I/O:
// the batches are sized to the depth when it is made.
//
// With --mix (choice, for job's records) it is the queued engine's MixOs:
// a read of a record that is a write is generated, a write of a record
// that is a read completes at once, and the rest reach the target (the
// reads at their offsets in it); counts() says what did.
class PatternRing final : public Ring {
 public:
  PatternRing(std::unique_ptr<Ring> inner, const PatternSource& source, std::optional<MixChoice> choice = std::nullopt,
              unsigned job = 0);
  const MixCounts& counts() const noexcept { return counts_; }

  const char* name() const noexcept override { return inner_->name(); }
  unsigned depth() const noexcept override { return inner_->depth(); }
  unsigned worker_threads() const noexcept override { return inner_->worker_threads(); }
  RingSetup setup() const noexcept override { return inner_->setup(); }
  RingCounters counters() const noexcept override { return inner_->counters(); }
  int start_in_this_thread() noexcept override { return inner_->start_in_this_thread(); }
  void let_files_go() noexcept override { inner_->let_files_go(); }
  bool register_buffers(std::span<const std::span<unsigned char>> buffers) override {
    return inner_->register_buffers(buffers);
  }
  bool register_files(std::span<const int> files) override { return inner_->register_files(files); }
  bool destroyed_at_once() const noexcept override { return inner_->destroyed_at_once(); }

  void queue(const RingRequest& request) noexcept override;
  int submit_and_wait(unsigned wait_for) noexcept override;
  std::span<const RingCompletion> completions() const noexcept override { return reaped_; }

 private:
  // Answered here: made_ gets its completion.
  void answer(const RingRequest& request) noexcept;

  std::unique_ptr<Ring> inner_;
  const PatternSource& source_;
  std::optional<MixChoice> choice_;
  unsigned job_;
  MixCounts counts_;
  std::vector<RingCompletion> made_;    // generated reads since the last batch
  std::vector<RingCompletion> reaped_;  // the last batch: generated, then the inner ring's
  unsigned inner_queued_ = 0;           // requests the inner ring has not submitted yet
  unsigned inner_in_flight_ = 0;        // requests the inner ring holds, submitted or not
};

// What the generator makes per second on this core, filling a 1 MiB buffer
// for about a fiftieth of a second: said before the run, so that no one
// takes the generator's speed for the device's.
// stop() is asked between blocks: true ends the measurement at once
// (a SIGINT), the rate of what was made so far returned.
double measure_generator_rate(const PatternSource& source, const std::function<bool()>& stop = {});

}  // namespace ddtime
