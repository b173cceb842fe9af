// SPDX-License-Identifier: GPL-3.0-or-later
// The thread-pool ring: where io_uring cannot be had (a container's default
// seccomp profile, kernel.io_uring_disabled, an old kernel), depth threads
// each make one pread or pwrite at a time. Signals stay with the thread
// that runs the copy: the workers block them, so a SIGINT reaches the
// loop that polls for it. SIGPIPE is the exception: the kernel sends it to
// the thread whose write met the closed pipe, and a worker that blocked it
// would turn GNU's death by SIGPIPE into an EPIPE message and status 1.
//
// The workers are plain pthreads with small stacks, started with no heap
// state of their own: std::thread hands each new thread a heap object to
// free, and a thread's first free() gives it a malloc arena, two pages
// more per worker in the peak RSS that --iodepth bounds (depth x bs +
// 2 MiB). Now a worker costs the two pages of its stack and descriptor.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "system/ring_registry.h"
#include "system/threads.h"

namespace ddtime {
namespace {

class ThreadRing final : public Ring {
 public:
  explicit ThreadRing(unsigned depth) : depth_(depth), work_(depth), reaped_(depth) { pending_.reserve(depth); }

  // The workers, or the errno that refused one (none is left running then).
  int start() noexcept {
    done_.reserve(depth_);
    workers_.reserve(depth_);
    int failed = 0;
    {
      const WorkerSignalMask mask;
      failed = start_workers();
    }
    if (failed != 0) stop_workers();
    return failed;
  }

  ~ThreadRing() override { stop_workers(); }

  const char* name() const noexcept override { return "threads"; }
  unsigned depth() const noexcept override { return depth_; }
  unsigned worker_threads() const noexcept override { return depth_; }
  RingSetup setup() const noexcept override { return {.entries = depth_}; }

  void queue(const RingRequest& request) noexcept override {
    pending_.push_back(request);  // reserved: never allocates
    ++counters_.requests;
  }

  int submit_and_wait(unsigned wait_for) noexcept override {
    reaped_count_ = 0;
    std::unique_lock lock(mutex_);
    in_flight_ += static_cast<unsigned>(pending_.size());
    counters_.in_flight_sum += in_flight_;
    ++counters_.submissions;
    for (const RingRequest& request : pending_) work_[(work_head_ + work_count_++) % depth_] = request;
    const bool submitted = !pending_.empty();
    pending_.clear();
    if (submitted) work_ready_.notify_all();
    // Wake now and then without a completion, so that the caller can poll
    // for signals: the workers block them all.
    if (done_.size() < wait_for) {
      done_ready_.wait_for(lock, std::chrono::milliseconds(50), [&] { return done_.size() >= wait_for; });
    }
    for (const RingCompletion& completion : done_) reaped_[reaped_count_++] = completion;
    done_.clear();
    in_flight_ -= static_cast<unsigned>(reaped_count_);
    return reaped_count_ < wait_for ? EINTR : 0;
  }

  std::span<const RingCompletion> completions() const noexcept override { return {reaped_.data(), reaped_count_}; }

  RingCounters counters() const noexcept override {
    std::lock_guard lock(mutex_);
    return counters_;
  }

 private:
  // A worker's stack: pread and pwrite need little. The sanitizers' own
  // frames need the default.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  static constexpr std::size_t kWorkerStack = 0;
#else
  static constexpr std::size_t kWorkerStack = 64 * 1024;
#endif

  // depth_ workers, or the error of the first that could not start.
  int start_workers() noexcept {
    pthread_attr_t attributes;
    if (int err = pthread_attr_init(&attributes); err != 0) return err;
    int err = kWorkerStack != 0 ? pthread_attr_setstacksize(&attributes, kWorkerStack) : 0;
    for (unsigned i = 0; err == 0 && i < depth_; ++i) {
      pthread_t worker;
      err = pthread_create(&worker, &attributes, &ThreadRing::run_worker, this);
      if (err == 0) workers_.push_back(worker);  // reserved: never allocates
    }
    pthread_attr_destroy(&attributes);
    return err;
  }

  void stop_workers() noexcept {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (pthread_t worker : workers_) pthread_join(worker, nullptr);
    workers_.clear();
  }

  static void* run_worker(void* ring) {
    static_cast<ThreadRing*>(ring)->work();
    return nullptr;
  }

  void work() {
    std::unique_lock lock(mutex_);
    while (true) {
      work_ready_.wait(lock, [&] { return stopping_ || work_count_ != 0; });
      if (stopping_) return;
      const RingRequest request = work_[work_head_];
      work_head_ = (work_head_ + 1) % depth_;
      --work_count_;
      lock.unlock();
      const std::int64_t result = transfer(request);
      lock.lock();
      ++counters_.system_calls;
      done_.push_back(RingCompletion{request.tag, result});
      done_ready_.notify_one();
    }
  }

  // One pread or pwrite (read or write at a pipe's own position), as
  // io_uring would make it: EINTR is retried, nothing else.
  static std::int64_t transfer(const RingRequest& request) noexcept {
    while (true) {
      ssize_t n = 0;
      if (request.kind == RingRequest::Kind::kRead) {
        n = request.offset < 0 ? ::read(request.fd, request.buffer, request.length)
                               : ::pread(request.fd, request.buffer, request.length, request.offset);
      } else {
        n = request.offset < 0 ? ::write(request.fd, request.buffer, request.length)
                               : ::pwrite(request.fd, request.buffer, request.length, request.offset);
      }
      if (n >= 0) return n;
      if (errno != EINTR) return -errno;
    }
  }

  const unsigned depth_;
  std::vector<RingRequest> pending_;  // queued, not yet submitted
  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable done_ready_;
  // Submitted, not yet taken by a worker: a circle of depth entries, so
  // that submitting never allocates.
  std::vector<RingRequest> work_;
  std::size_t work_head_ = 0;
  std::size_t work_count_ = 0;
  std::vector<RingCompletion> done_;  // completed, not yet reaped
  std::vector<RingCompletion> reaped_;
  std::size_t reaped_count_ = 0;
  unsigned in_flight_ = 0;
  bool stopping_ = false;
  RingCounters counters_;
  std::vector<pthread_t> workers_;
};

}  // namespace

RingOpened open_thread_ring(unsigned depth, bool /*for_another_thread*/) {
  auto ring = std::make_unique<ThreadRing>(depth);
  if (const int err = ring->start(); err != 0) return {nullptr, err};
  return {std::move(ring), 0};
}

}  // namespace ddtime
