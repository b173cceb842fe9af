// SPDX-License-Identifier: GPL-3.0-or-later
// signals — SIGINT and SIGUSR1 handlers that only record what arrived, and
// the poll the copy path makes between system calls. Acting on a signal
// (printing, closing, re-raising) is the driver's business.
#pragma once

#include <csignal>

namespace ddtime::signals {

namespace detail {
// Set by the handlers; nonzero while something is waiting to be handled.
extern volatile std::sig_atomic_t any_pending;
}  // namespace detail

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
inline bool pending() noexcept { return detail::any_pending != 0; }

struct Taken {
  int interrupt = 0;  // the terminating signal that arrived, or 0
  bool info = false;  // one SIGUSR1 was consumed
};

// Consumes one pending event with the signals blocked, so none is lost.
Taken take() noexcept;

}  // namespace ddtime::signals
