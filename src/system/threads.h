// SPDX-License-Identifier: GPL-3.0-or-later
// threads — a group of threads that run one function each and are joined
// together (--jobs' submitters). They start with every signal but SIGPIPE
// blocked, so that SIGINT and SIGUSR1 reach the thread that polls for
// them, and a write to a closed pipe still kills as it does in GNU dd.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace ddtime {

// While it lives, the calling thread blocks every signal but SIGPIPE, and
// so do the threads it starts, which inherit the mask: a worker must not
// take the copy's SIGINT or SIGUSR1, yet a write to a closed pipe must
// kill as it does in GNU dd.
class WorkerSignalMask {
 public:
  WorkerSignalMask() noexcept;
  ~WorkerSignalMask();
  WorkerSignalMask(const WorkerSignalMask&) = delete;
  WorkerSignalMask& operator=(const WorkerSignalMask&) = delete;

 private:
  sigset_t previous_;
};

class ThreadGroup {
 public:
  ThreadGroup() = default;
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;
  ~ThreadGroup() { join(); }

  // Starts count threads, the i-th running work(i). Returns 0, or the
  // errno that refused a thread (those started are still to be joined).
  int start(unsigned count, std::function<void(unsigned)> work);
  void join() noexcept;
  // The threads started and not yet joined.
  std::size_t size() const noexcept { return threads_.size(); }

 private:
  static void* enter(void* self) noexcept;

  struct Member {
    ThreadGroup* group;
    unsigned index;
  };
  std::function<void(unsigned)> work_;
  std::vector<Member> members_;
  std::vector<pthread_t> threads_;
};

}  // namespace ddtime
