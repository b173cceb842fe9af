// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/threads.h"

#include <utility>

namespace ddtime {

int ThreadGroup::start(unsigned count, std::function<void(unsigned)> work) {
  work_ = std::move(work);
  members_.reserve(count);
  threads_.reserve(count);
  const WorkerSignalMask mask;
  int failed = 0;
  for (unsigned i = 0; i < count && failed == 0; ++i) {
    members_.push_back({this, i});
    pthread_t thread;
    failed = pthread_create(&thread, nullptr, &ThreadGroup::enter, &members_.back());
    if (failed == 0) threads_.push_back(thread);
  }
  return failed;
}

WorkerSignalMask::WorkerSignalMask() noexcept {
  sigset_t all;
  sigfillset(&all);
  sigdelset(&all, SIGPIPE);
  pthread_sigmask(SIG_SETMASK, &all, &previous_);
}

WorkerSignalMask::~WorkerSignalMask() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

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
