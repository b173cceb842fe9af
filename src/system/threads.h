// SPDX-License-Identifier: GPL-3.0-or-later
// threads — a group of threads that run one function each and are joined
// together (--jobs' submitters). They start with every signal but SIGPIPE
// blocked, so that SIGINT and SIGUSR1 reach the thread that polls for
// them, and a write to a closed pipe still kills as it does in GNU dd.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <pthread.h>

namespace ddtime {

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
