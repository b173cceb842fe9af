// SPDX-License-Identifier: GPL-3.0-or-later
// The Linux AIO ring (io_setup, io_submit, io_getevents) through Debian's
// libaio, linked in (libaio.a) like liburing: no library to load at
// start-up. --engine=libaio, by name only: on zram, where io_uring hands
// each request to a kernel worker, io_uring still outran it at depth.
// Without O_DIRECT, io_submit copies through the page cache before it
// returns: correct, just not asynchronous.
#include <libaio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <ctime>
#include <vector>

#include "system/ring_registry.h"

namespace ddtime {
namespace {

class AioRing final : public Ring {
 public:
  explicit AioRing(unsigned depth) : depth_(depth), iocbs_(depth), pointers_(depth), events_(depth), reaped_(depth) {}
  ~AioRing() override {
    if (context_ != nullptr) io_destroy(context_);
  }

  // 0 or the errno of io_setup (EAGAIN: past fs.aio-max-nr).
  int init() noexcept {
    const int result = io_setup(static_cast<int>(depth_), &context_);
    if (result == 0) return 0;
    context_ = nullptr;
    return -result;
  }

  const char* name() const noexcept override { return "libaio"; }
  unsigned depth() const noexcept override { return depth_; }
  unsigned worker_threads() const noexcept override { return 0; }
  RingSetup setup() const noexcept override { return {.entries = depth_}; }

  void queue(const RingRequest& request) noexcept override {
    // Never past the depth: the caller keeps queued + in flight within it.
    iocb& block = iocbs_[queued_];
    if (request.kind == RingRequest::Kind::kRead) {
      io_prep_pread(&block, request.fd, request.buffer, request.length, request.offset);
    } else {
      io_prep_pwrite(&block, request.fd, request.buffer, request.length, request.offset);
    }
    // The tag rides in the pointer-sized data field, given back in io_event.
    block.data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(request.tag));
    pointers_[queued_] = &block;
    ++queued_;
    ++counters_.requests;
  }

  int submit_and_wait(unsigned wait_for) noexcept override {
    reaped_count_ = 0;
    in_flight_ += queued_;
    counters_.in_flight_sum += in_flight_;
    ++counters_.submissions;
    submit();
    // Requests io_submit refused are completed already, with their errno;
    // what the device completed inside io_submit (zram, brd) is taken from
    // the completion ring in memory, without a system call.
    reap_from_memory();
    const unsigned ready = static_cast<unsigned>(reaped_count_);
    if (in_flight_ > 0 && (ready < wait_for || ready == 0)) {
      // Waits for at least what is asked (never more than is in flight),
      // takes what else is there; a signal ends the wait (io_getevents is
      // never restarted), as io_uring's does.
      const long min_nr = std::min<long>(wait_for > ready ? wait_for - ready : 0, in_flight_);
      const long room = std::min<long>(static_cast<long>(depth_) - ready, in_flight_);
      ++counters_.system_calls;
      const int got = io_getevents(context_, min_nr, room, events_.data(), nullptr);
      if (got < 0 && got != -EINTR) return -got;
      for (int i = 0; i < got; ++i) reaped_[reaped_count_++] = completion_of(events_[i]);
      if (got > 0) in_flight_ -= static_cast<unsigned>(got);
    }
    return reaped_count_ < wait_for ? EINTR : 0;
  }

  std::span<const RingCompletion> completions() const noexcept override { return {reaped_.data(), reaped_count_}; }
  RingCounters counters() const noexcept override { return counters_; }

 private:
  // The kernel's completion ring is mapped at the context's address: its
  // header, then nr events; the kernel moves tail, the reader head. Read
  // only where the header is the one this code knows (magic, no
  // incompatible features), as libaio and fio do; else io_getevents.
  struct CompletionRing {
    unsigned id;
    unsigned nr;
    unsigned head;
    unsigned tail;
    unsigned magic;
    unsigned compat_features;
    unsigned incompat_features;
    unsigned header_length;  // the events follow it
  };
  static constexpr unsigned kRingMagic = 0xa10a10a1;

  void reap_from_memory() noexcept {
    auto* ring = reinterpret_cast<CompletionRing*>(context_);  // the context is the ring's address
    if (ring->magic != kRingMagic || ring->incompat_features != 0) return;
    unsigned head = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
    const unsigned tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
    bool took = false;
    while (head != tail && reaped_count_ < reaped_.size()) {
      const io_event& event = reinterpret_cast<const io_event*>(ring + 1)[head];
      reaped_[reaped_count_++] = completion_of(event);
      --in_flight_;
      head = head + 1 == ring->nr ? 0 : head + 1;
      took = true;
    }
    if (took) __atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
  }

  // One io_submit for the batch; the kernel may take part of it, and a
  // request it refuses (a bad descriptor, an unaligned O_DIRECT buffer)
  // ends the part it took: that one completes with its errno, as io_uring
  // would report it, and the rest go in again. A request at the file's own
  // position (a pipe, a tape, O_APPEND) is made here, in its turn, by
  // read or write: AIO has no "current position" and refuses offset -1.
  void submit() noexcept {
    unsigned done = 0;
    while (done < queued_) {
      unsigned end = done;
      while (end < queued_ && pointers_[end]->u.c.offset >= 0) ++end;
      if (end == done) {
        complete_now(*pointers_[done]);
        ++done;
        continue;
      }
      ++counters_.system_calls;
      const int taken = io_submit(context_, static_cast<long>(end - done), pointers_.data() + done);
      if (taken > 0) {
        done += static_cast<unsigned>(taken);
        continue;
      }
      if (taken == -EINTR) continue;
      const int err = taken < 0 ? -taken : EAGAIN;
      finish(tag_of(*pointers_[done]), -static_cast<std::int64_t>(err));
      ++done;
    }
    queued_ = 0;
  }

  // One read or write at the file's own position; EINTR is retried, as
  // the threads ring does.
  void complete_now(const iocb& block) noexcept {
    void* const buffer = block.u.c.buf;
    ssize_t n = 0;
    do {
      ++counters_.system_calls;
      n = block.aio_lio_opcode == IO_CMD_PREAD ? ::read(block.aio_fildes, buffer, block.u.c.nbytes)
                                               : ::write(block.aio_fildes, buffer, block.u.c.nbytes);
    } while (n < 0 && errno == EINTR);
    finish(tag_of(block), n >= 0 ? n : -static_cast<std::int64_t>(errno));
  }

  static_assert(sizeof(void*) == sizeof(std::uint64_t), "a tag rides in iocb's data pointer");
  // res is the kernel's long in an unsigned field: a negative errno or
  // the bytes moved.
  static RingCompletion completion_of(const io_event& event) noexcept {
    return RingCompletion{static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(event.data)),
                          static_cast<std::int64_t>(static_cast<long>(event.res))};
  }

  static std::uint64_t tag_of(const iocb& block) noexcept {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(block.data));
  }

  void finish(std::uint64_t tag, std::int64_t result) noexcept {
    reaped_[reaped_count_++] = RingCompletion{tag, result};
    --in_flight_;
  }

  unsigned depth_;
  io_context_t context_ = nullptr;
  std::vector<iocb> iocbs_;
  std::vector<iocb*> pointers_;
  std::vector<io_event> events_;
  std::vector<RingCompletion> reaped_;
  std::size_t reaped_count_ = 0;
  unsigned queued_ = 0;
  unsigned in_flight_ = 0;
  RingCounters counters_;
};

}  // namespace

RingOpened open_aio_ring(unsigned depth, bool /*for_another_thread*/) {
  auto ring = std::make_unique<AioRing>(depth);
  if (const int err = ring->init(); err != 0) return {nullptr, err};
  return {std::move(ring), 0};
}

}  // namespace ddtime
