// SPDX-License-Identifier: GPL-3.0-or-later
// The io_uring ring. Only what liburing 2.3 (Debian 12) has is used.
#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

#include "system/ring_registry.h"

#if DDTIME_WITH_URING
#include <liburing.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#endif

namespace ddtime {

#if DDTIME_WITH_URING
namespace {

class UringRing final : public Ring {
 public:
  UringRing(unsigned depth, unsigned flags) : depth_(depth), flags_(flags), reaped_(depth) {}
  ~UringRing() override {
    if (!initialised_) return;
    // Closing a ring tears it down later, in a kernel worker, and the
    // files registered with it stay open until then: an of= on a file
    // system just unmounted by a script would be busy (EBUSY), a deleted
    // one would keep its blocks. Unregistered here, they are let go now.
    if (files_registered_ != 0 && !files_let_go_) io_uring_unregister_files(&ring_);
    io_uring_queue_exit(&ring_);
  }

  // Returns 0 or -errno from io_uring_setup.
  int init() {
    io_uring_params params{};
    params.flags = flags_ | IORING_SETUP_CQSIZE;
    params.cq_entries = depth_;
    const int result = io_uring_queue_init_params(depth_, &ring_, &params);
    initialised_ = result == 0;
    return result;
  }

  // Registered buffers spare the kernel mapping each one per request; the
  // kernel charges them to RLIMIT_MEMLOCK, so this may be refused.
  bool register_buffers(std::span<const std::span<unsigned char>> buffers) override {
    std::vector<iovec> iovecs;
    iovecs.reserve(buffers.size());
    for (std::span<unsigned char> buffer : buffers) iovecs.push_back({buffer.data(), buffer.size()});
    registered_ =
        !iovecs.empty() && io_uring_register_buffers(&ring_, iovecs.data(), static_cast<unsigned>(iovecs.size())) == 0;
    return registered_;
  }

  // Registered files spare the kernel looking each request's descriptor
  // up and counting a reference on it (fio's registerfiles); refused on
  // kernels before 5.1's file table, where the descriptors go as they are.
  bool register_files(std::span<const int> files) override {
    if (files.empty() || files.size() > files_.size() || files_registered_ != 0) return false;
    if (io_uring_register_files(&ring_, files.data(), static_cast<unsigned>(files.size())) != 0) return false;
    std::copy(files.begin(), files.end(), files_.begin());
    files_registered_ = files.size();
    return true;
  }

  // The report still says the files were registered: they were, for the copy.
  void let_files_go() noexcept override {
    if (files_registered_ != 0 && !files_let_go_) files_let_go_ = io_uring_unregister_files(&ring_) == 0;
  }

  const char* name() const noexcept override { return "io_uring"; }
  unsigned depth() const noexcept override { return depth_; }
  unsigned worker_threads() const noexcept override { return 0; }
  bool destroyed_at_once() const noexcept override { return true; }

  RingSetup setup() const noexcept override {
    return {.registered_buffers = registered_,
            .registered_files = files_registered_ != 0,
            .single_issuer = (flags_ & IORING_SETUP_SINGLE_ISSUER) != 0,
            .cooperative_task_run = (flags_ & IORING_SETUP_COOP_TASKRUN) != 0,
            .deferred_task_run = (flags_ & IORING_SETUP_DEFER_TASKRUN) != 0};
  }

  void queue(const RingRequest& request) noexcept override {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    // Never null: the caller keeps queued + in flight within the depth,
    // and the submission queue holds depth entries.
    const auto offset = static_cast<__u64>(request.offset);
    const auto length = static_cast<unsigned>(request.length);
    const bool fixed = registered_ && request.buffer_index >= 0;
    if (request.kind == RingRequest::Kind::kRead) {
      if (fixed) {
        io_uring_prep_read_fixed(sqe, request.fd, request.buffer, length, offset, request.buffer_index);
      } else {
        io_uring_prep_read(sqe, request.fd, request.buffer, length, offset);
      }
    } else if (fixed) {
      io_uring_prep_write_fixed(sqe, request.fd, request.buffer, length, offset, request.buffer_index);
    } else {
      io_uring_prep_write(sqe, request.fd, request.buffer, length, offset);
    }
    io_uring_sqe_set_data64(sqe, request.tag);
    for (std::size_t index = 0; index < files_registered_; ++index) {
      if (files_[index] == request.fd) {
        sqe->fd = static_cast<int>(index);
        sqe->flags |= IOSQE_FIXED_FILE;
        break;
      }
    }
    ++queued_;
    ++counters_.requests;
  }

  int submit_and_wait(unsigned wait_for) noexcept override {
    reaped_count_ = 0;
    in_flight_ += queued_;
    counters_.in_flight_sum += in_flight_;
    ++counters_.submissions;
    // One system call submits the batch and waits; none at all when there
    // is nothing to submit and enough has completed already.
    if (queued_ != 0 || io_uring_cq_ready(&ring_) < wait_for) {
      ++counters_.system_calls;
      const int result = io_uring_submit_and_wait(&ring_, wait_for);
      queued_ = 0;
      if (result < 0 && result != -EINTR && result != -EAGAIN && result != -EBUSY) return -result;
    }
    io_uring_cqe* cqe = nullptr;
    unsigned head = 0;
    unsigned seen = 0;
    io_uring_for_each_cqe(&ring_, head, cqe) {
      if (seen == reaped_.size()) break;
      reaped_[seen++] = RingCompletion{io_uring_cqe_get_data64(cqe), cqe->res};
    }
    io_uring_cq_advance(&ring_, seen);
    reaped_count_ = seen;
    in_flight_ -= seen;
    return seen < wait_for ? EINTR : 0;
  }

  std::span<const RingCompletion> completions() const noexcept override { return {reaped_.data(), reaped_count_}; }
  RingCounters counters() const noexcept override { return counters_; }

  int start_in_this_thread() noexcept override {
    if ((flags_ & IORING_SETUP_R_DISABLED) == 0) return 0;
    // The system call itself: Debian 12's liburing.so.2 does not export
    // io_uring_enable_rings (its static library does).
    const long result = ::syscall(__NR_io_uring_register, ring_.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0);
    return result < 0 ? errno : 0;
  }

 private:
  io_uring ring_{};
  unsigned depth_;
  unsigned flags_;
  bool initialised_ = false;
  bool registered_ = false;
  std::array<int, 2> files_{-1, -1};
  std::size_t files_registered_ = 0;
  bool files_let_go_ = false;  // by let_files_go, from the submitting thread
  unsigned queued_ = 0;
  unsigned in_flight_ = 0;
  std::vector<RingCompletion> reaped_;
  std::size_t reaped_count_ = 0;
  RingCounters counters_;
};

// How long a ring refused for RLIMIT_MEMLOCK is tried again. Here the
// wait was too short to show: five passes of 64 jobs at depth 1024 took
// 2.4 s unprivileged, waits included, and 2.9 s as root, which never waits.
constexpr std::chrono::milliseconds kMemlockReleaseWait{500};

}  // namespace

bool uring_built_in() noexcept { return true; }

RingOpened open_uring(unsigned depth, bool for_another_thread) {
  // Each flag needs a newer kernel than the one before it; a kernel that
  // does not know one answers EINVAL, and the ring is set up without it.
  const unsigned tries[] = {
      IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
      IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
      IORING_SETUP_COOP_TASKRUN,
      0,
  };
  int err = ENOSYS;
  // A ring for another thread starts disabled: a single issuer is the
  // thread that enables it, not the one that set it up.
  const unsigned disabled = for_another_thread ? IORING_SETUP_R_DISABLED : 0;
  // ENOMEM may be for a moment only: the kernel counts a ring's memory
  // against RLIMIT_MEMLOCK (for a process without CAP_IPC_LOCK, on recent
  // kernels) until a kernel worker has torn the ring down, some time after
  // it was closed. The rings of a --repeat's last pass, or of a ddtime the
  // same user ran just before, still counted, and a pass at 64 jobs of
  // depth 1024 found room for 29 rings. So ENOMEM is tried again while the
  // teardown can take; a limit really reached costs that wait once.
  const auto give_up = std::chrono::steady_clock::now() + kMemlockReleaseWait;
  for (const unsigned flags : tries) {
    int result = 0;
    auto ring = std::make_unique<UringRing>(depth, flags | disabled);
    while ((result = ring->init()) == -ENOMEM && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (result == 0) return {std::move(ring), 0};
    err = -result;
    if (err != EINVAL) break;
  }
  return {nullptr, err};
}

#else

bool uring_built_in() noexcept { return false; }

RingOpened open_uring(unsigned, bool) { return {nullptr, ENOSYS}; }

#endif

}  // namespace ddtime
