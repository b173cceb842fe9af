// SPDX-License-Identifier: GPL-3.0-or-later
// ring — positional reads and writes with many in flight, behind one small
// interface: io_uring (ring_uring.cc, built with DDTIME_WITH_URING), a
// pool of threads making pread/pwrite (ring_threads.cc), or Linux AIO
// (ring_aio.cc), each a row of ring_registry.h. A request carries
// a tag the caller chooses; completions come back in any order, in
// batches. Setup (ring flags, registered buffers) is decided when the ring
// is opened, before the first request. Never retries a short transfer and
// never prints: the engine decides what a result means.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "model/ring_setup.h"

namespace ddtime {

struct RingRequest {
  enum class Kind : std::uint8_t { kRead, kWrite };
  std::uint64_t tag = 0;
  Kind kind = Kind::kRead;
  int fd = -1;
  unsigned char* buffer = nullptr;
  std::size_t length = 0;
  std::int64_t offset = -1;  // -1: at the file's own position (a pipe)
  int buffer_index = -1;     // the registered buffer it lies in, or -1
};

struct RingCompletion {
  std::uint64_t tag = 0;
  std::int64_t result = 0;  // bytes transferred, or -errno
};

// What the ring did, for the report: how many requests went in, how many
// system calls it took to submit and reap them, and how full it was.
struct RingCounters {
  std::uint64_t requests = 0;
  std::uint64_t system_calls = 0;   // io_uring_enter, or the threads' pread/pwrite
  std::uint64_t in_flight_sum = 0;  // requests in flight, summed at each submission
  std::uint64_t submissions = 0;    // how many times that sum was taken
};

class Ring {
 public:
  virtual ~Ring() = default;

  // "io_uring", "threads" or "libaio".
  virtual const char* name() const noexcept = 0;
  virtual unsigned depth() const noexcept = 0;
  // Threads of this process that make the I/O besides the caller's: the
  // thread pool's workers; 0 for io_uring, whose kernel workers the
  // process does not count.
  virtual unsigned worker_threads() const noexcept = 0;
  // What was set up (registered buffers, the flags the kernel took, the
  // workers), as flags and counts; the report words them.
  virtual RingSetup setup() const noexcept = 0;

  // Requires: fewer than depth() requests queued and in flight together.
  virtual void queue(const RingRequest& request) noexcept = 0;
  // Submits what is queued, then waits until at least wait_for
  // completions are ready (or a signal arrived: EINTR). Returns 0 or errno.
  virtual int submit_and_wait(unsigned wait_for) noexcept = 0;
  // The completions reaped by the last submit_and_wait; valid until the
  // next call.
  virtual std::span<const RingCompletion> completions() const noexcept = 0;
  virtual RingCounters counters() const noexcept = 0;
  // --jobs: the calling thread, not the one that opened the ring, submits
  // from here on (a single-issuer io_uring opened for another thread is
  // enabled by its submitter). Returns 0 or errno.
  virtual int start_in_this_thread() noexcept { return 0; }
  // Hands the kernel the buffers every request will use, once, where the
  // ring can take them (io_uring's fixed buffers); false where it cannot
  // or the kernel refused (RLIMIT_MEMLOCK): requests then go with plain
  // buffers, as they would anyway.
  virtual bool register_buffers(std::span<const std::span<unsigned char>> /*buffers*/) { return false; }
  // Registers descriptors (at most two) with the ring, so that requests on
  // them skip the kernel's descriptor lookup (io_uring's registered
  // files); false where the ring has no such thing or the kernel refused:
  // they then go as they are. Registered, they are let go when the ring is
  // destroyed or by let_files_go(), either of which must be done by the
  // thread that submits to it (a single-issuer ring refuses others).
  virtual bool register_files(std::span<const int> /*files*/) { return false; }
  // The registered files let go now, by the thread that submits to the
  // ring, which another thread will destroy (--jobs' job 0: its thread
  // submits, the calling thread tears the rings down after the join).
  virtual void let_files_go() noexcept {}
  // Whether destroying the ring returns at once (io_uring, which the
  // kernel tears down later) rather than waiting (Linux AIO's io_destroy
  // waits out an RCU grace period, the threads engine joins its threads):
  // those that wait are best destroyed together.
  virtual bool destroyed_at_once() const noexcept { return false; }

  // Two set-up hooks for an engine unlike the kernel's rings (an SPDK-like
  // one, whose memory must be its own and whose device no descriptor
  // names), as fio's iomem_alloc and open_file are; no engine here needs
  // them yet. Neither is called once the copy has begun.
  //
  // Memory of the ring's own for its requests' buffers, at least bytes
  // long and starting on the alignment, the ring's until it is destroyed;
  // asked of a ring opened before its slots. Empty (the default): the core
  // allocates the slots, as for every ring here.
  virtual std::span<unsigned char> own_memory(std::size_t /*bytes*/, std::size_t /*alignment*/) noexcept { return {}; }
  // The target that requests on fd go to, which the ring may reach by
  // itself from its path (null: a standard stream); 0, or the errno that
  // refused it. The default: requests go through fd as the core opened it.
  virtual int open_target(int /*fd*/, const char* /*path*/) noexcept { return 0; }
};

// A ring, or the errno that refused it. Every engine's open function,
// and the table of them, are in ring_registry.h.
struct RingOpened {
  std::unique_ptr<Ring> ring;
  int err = 0;
};

}  // namespace ddtime
