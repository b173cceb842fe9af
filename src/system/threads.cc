// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/threads.h"

#include <signal.h>

#include <utility>

namespace ddtime {

int ThreadGroup::start(unsigned count, std::function<void(unsigned)> work) {
  work_ = std::move(work);
  members_.reserve(count);
  threads_.reserve(count);
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  sigdelset(&all, SIGPIPE);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  int failed = 0;
  for (unsigned i = 0; i < count && failed == 0; ++i) {
    members_.push_back({this, i});
    pthread_t thread;
    failed = pthread_create(&thread, nullptr, &ThreadGroup::enter, &members_.back());
    if (failed == 0) threads_.push_back(thread);
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return failed;
}

void* ThreadGroup::enter(void* self) noexcept {
  const auto* member = static_cast<const Member*>(self);
  member->group->work_(member->index);
  return nullptr;
}

void ThreadGroup::join() noexcept {
  for (pthread_t thread : threads_) pthread_join(thread, nullptr);
  threads_.clear();
}

}  // namespace ddtime
