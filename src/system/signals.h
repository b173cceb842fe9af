// SPDX-License-Identifier: GPL-3.0-or-later
// signals — SIGINT and SIGUSR1 handlers that only record what arrived, and
// the poll the copy path makes between system calls. Acting on a signal
// (printing, closing, re-raising) is the driver's business.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <csignal>
#include <functional>

namespace ddtime::signals_internal {
// Set by the handlers; nonzero while something is waiting to be handled.
// Atomic, not volatile: with a Listener the handler runs in another
// thread than the one that polls (lock-free atomics are signal-safe).
extern std::atomic<int> any_pending;
}  // namespace ddtime::signals_internal

namespace ddtime::signals {

// Catches SIGINT (reset to default once caught, so a second one kills) and,
// unless want_info is false, SIGUSR1. SIGINT ignored when the program
// started stays ignored; SIGUSR1 is caught regardless, as GNU dd does. Handlers are installed without
// SA_RESTART so a blocked read returns EINTR and the stats come out promptly.
// Installs once: a later call changes nothing.
void install(bool want_info) noexcept;

// As GNU dd installs them: POSIX lets SIGUSR1 keep its default
// (terminating) action when POSIXLY_CORRECT is set, and GNU honours that.
void install_as_gnu() noexcept;

// Cheap enough to call before every system call.
inline bool pending() noexcept { return signals_internal::any_pending.load(std::memory_order_relaxed) != 0; }

struct Taken {
  int interrupt = 0;  // the terminating signal that arrived, or 0
  bool info = false;  // one SIGUSR1 was consumed
};

// Consumes one pending event, so none is lost.
Taken take() noexcept;

// While it lives, the caught signals go to a thread of its own, which
// sleeps until one arrives. With --jobs many busy threads share the CPUs,
// and the job that polls for signals waited up to a whole round of them
// (over 100 ms for 64 jobs on 2 CPUs) before it ran and stopped the
// others; a sleeping thread that the signal wakes runs at once, and calls
// on_interrupt (which must be signal-safe in spirit: no locks the copy
// holds) when SIGINT arrived. The creating thread blocks the caught
// signals meanwhile (it still sees them through pending()), and takes
// back any that arrive after the listener ends. Where no thread can be
// had, the signals stay with the creating thread, as without a listener.
class Listener {
 public:
  explicit Listener(std::function<void()> on_interrupt) noexcept;
  ~Listener();
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  bool listening() const noexcept { return started_; }

 private:
  static void* listen(void* self) noexcept;

  std::function<void()> on_interrupt_;
  sigset_t previous_;
  pthread_t thread_{};
  int stop_fd_ = -1;
  bool started_ = false;
};

}  // namespace ddtime::signals
