// SPDX-License-Identifier: GPL-3.0-or-later
// A scripted Ring for the queued engine's tests: requests act on the
// FakeOs's input and output (so the Writer's final partial block and the
// ring's writes land in one file), completions come back in the order the
// test chooses
// (newest first by default, the hardest order for in-order accounting),
// and chosen requests can be made short, or fail with an errno.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "fakes/fake_os.h"
#include "system/ring.h"

namespace ddtime::testing {

class FakeRing final : public Ring {
 public:
  FakeRing(FakeOs& os, unsigned depth) : input(os.input), output(os.output), os_(os), depth_(depth) {}

  std::vector<unsigned char>& input;   // what fd 0 reads
  std::vector<unsigned char>& output;  // what fd 1 holds after the writes
  // Per request, in the order queued (0 = the first): how it ends. A
  // result of -1 means "do the transfer"; >= 0 caps it at that many bytes;
  // < -1 is -errno.
  std::function<std::int64_t(std::uint64_t sequence, const RingRequest&)> outcome;
  bool newest_first = true;         // completion order within a batch
  std::function<void()> torn_down;  // called by the destructor (the ring released)
  std::vector<std::string> log;     // "read 0 @4096 4096", "write 1 @0 4096"

  FakeRing(const FakeRing&) = delete;
  FakeRing& operator=(const FakeRing&) = delete;
  ~FakeRing() override {
    if (torn_down) torn_down();
  }

  const char* name() const noexcept override { return "fake"; }
  unsigned depth() const noexcept override { return depth_; }
  unsigned worker_threads() const noexcept override { return 0; }
  RingSetup setup() const noexcept override { return {}; }

  void queue(const RingRequest& request) noexcept override {
    queued_.push_back({sequence_++, request});
    ++counters_.requests;
  }

  int submit_and_wait(unsigned wait_for) noexcept override {
    ++counters_.system_calls;
    ++counters_.submissions;
    counters_.in_flight_sum += queued_.size();
    reaped_.clear();
    if (newest_first) std::reverse(queued_.begin(), queued_.end());
    for (const auto& [sequence, request] : queued_) reaped_.push_back({request.tag, complete(sequence, request)});
    queued_.clear();
    return reaped_.size() < wait_for ? EINTR : 0;
  }

  std::span<const RingCompletion> completions() const noexcept override { return reaped_; }
  RingCounters counters() const noexcept override { return counters_; }

 private:
  std::int64_t complete(std::uint64_t sequence, const RingRequest& request) {
    const bool read = request.kind == RingRequest::Kind::kRead;
    log.push_back(std::string(read ? "read " : "write ") + std::to_string(request.fd) + " @" +
                  std::to_string(request.offset) + " " + std::to_string(request.length));
    std::int64_t scripted = outcome ? outcome(sequence, request) : -1;
    if (scripted < -1) return scripted;
    // At the file's own position: the fake's read and write keep it.
    if (request.offset < 0) {
      std::size_t length = request.length;
      if (scripted >= 0) length = std::min<std::size_t>(length, static_cast<std::size_t>(scripted));
      IoResult done =
          read ? os_.read(request.fd, request.buffer, length) : os_.write(request.fd, request.buffer, length);
      return done.ok() ? done.n : -done.err;
    }
    const auto offset = static_cast<std::size_t>(request.offset);
    std::size_t length = request.length;
    if (scripted >= 0) length = std::min<std::size_t>(length, static_cast<std::size_t>(scripted));
    if (read) {
      const std::size_t available = offset < input.size() ? input.size() - offset : 0;
      length = std::min(length, available);
      std::memcpy(request.buffer, input.data() + offset, length);
    } else {
      if (output.size() < offset + length) output.resize(offset + length);
      std::memcpy(output.data() + offset, request.buffer, length);
    }
    return static_cast<std::int64_t>(length);
  }

  FakeOs& os_;
  unsigned depth_;
  std::uint64_t sequence_ = 0;
  std::vector<std::pair<std::uint64_t, RingRequest>> queued_;
  std::vector<RingCompletion> reaped_;
  RingCounters counters_;
};

}  // namespace ddtime::testing
