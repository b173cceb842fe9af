// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/signals.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>

namespace ddtime::signals {

namespace detail {
volatile std::sig_atomic_t any_pending = 0;
}  // namespace detail

namespace {

volatile std::sig_atomic_t interrupt_signal = 0;
volatile std::sig_atomic_t info_count = 0;

void on_interrupt(int sig) {
  interrupt_signal = sig;
  detail::any_pending = 1;
}

void on_info(int) {
  info_count = info_count + 1;
  detail::any_pending = 1;
}

bool ignored_at_start(int sig) {
  struct sigaction current {};
  return sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
}

sigset_t caught_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGUSR1);
  return set;
}

}  // namespace

void install(bool want_info) noexcept {
  static bool installed = false;
  if (installed) return;
  installed = true;
  sigset_t caught = caught_set();
  if (ignored_at_start(SIGINT)) sigdelset(&caught, SIGINT);
  // GNU catches SIGUSR1 even when it was ignored at start: asking for the
  // statistics is never what an inherited SIG_IGN meant to prevent.
  if (!want_info) sigdelset(&caught, SIGUSR1);

  struct sigaction action {};
  action.sa_mask = caught;
  if (sigismember(&caught, SIGUSR1)) {
    action.sa_handler = on_info;
    action.sa_flags = 0;
    sigaction(SIGUSR1, &action, nullptr);
  }
  if (sigismember(&caught, SIGINT)) {
    // Reset on delivery: a second ^C while the stats are printed kills at once.
    action.sa_handler = on_interrupt;
    action.sa_flags = SA_NODEFER | SA_RESETHAND;
    sigaction(SIGINT, &action, nullptr);
  }
}

void install_as_gnu() noexcept { install(std::getenv("POSIXLY_CORRECT") == nullptr); }

Taken take() noexcept {
  sigset_t caught = caught_set();
  sigset_t previous;
  sigprocmask(SIG_BLOCK, &caught, &previous);
  Taken taken;
  taken.interrupt = interrupt_signal;
  if (info_count > 0) {
    info_count = info_count - 1;
    taken.info = true;
  }
  detail::any_pending = (interrupt_signal != 0 || info_count > 0) ? 1 : 0;
  sigprocmask(SIG_SETMASK, &previous, nullptr);
  return taken;
}

}  // namespace ddtime::signals
