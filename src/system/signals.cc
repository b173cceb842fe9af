// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/signals.h"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "system/threads.h"

namespace ddtime::signals_internal {
std::atomic<int> any_pending{0};
}  // namespace ddtime::signals_internal

namespace ddtime::signals {

namespace {

std::atomic<int> interrupt_signal{0};
std::atomic<int> info_count{0};

void on_interrupt(int sig) {
  interrupt_signal.store(sig, std::memory_order_relaxed);
  signals_internal::any_pending.store(1, std::memory_order_release);
}

void on_info(int) {
  info_count.fetch_add(1, std::memory_order_relaxed);
  signals_internal::any_pending.store(1, std::memory_order_release);
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

// The listener must run the moment its signal wakes it, ahead of the
// busy jobs: EEVDF gives a sleeper no credit, and a woken thread with an
// ordinary slice waited behind half of 64 busy jobs (12-88 ms). The
// lowest real-time priority where the kernel allows it (it sleeps, so it
// takes nothing from the copy); else the shortest slice an ordinary
// thread may ask for (Linux 6.12), whose early deadline lets it preempt;
// else an ordinary thread.
void run_first() noexcept {
  sched_param lowest{};
  lowest.sched_priority = sched_get_priority_min(SCHED_FIFO);
  if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &lowest) == 0) return;
  // sched_setattr(2)'s first layout (48 bytes); <linux/sched/types.h>
  // cannot be included beside <sched.h>, and glibc 2.36 has no wrapper.
  struct {
    std::uint32_t size = 48;
    std::uint32_t policy = SCHED_OTHER;
    std::uint64_t flags = 0;
    std::int32_t nice = 0;
    std::uint32_t priority = 0;
    std::uint64_t runtime_ns = 100'000;  // the slice: the least the kernel takes
    std::uint64_t deadline_ns = 0;
    std::uint64_t period_ns = 0;
  } short_slice;
  static_assert(sizeof short_slice == 48);
  syscall(SYS_sched_setattr, 0, &short_slice, 0);
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
  // Blocked in this thread so that a handler here cannot run between the
  // reads and the store below; a Listener's handler, in its own thread,
  // only raises the flag again, which is what it means.
  sigset_t caught = caught_set();
  sigset_t previous;
  pthread_sigmask(SIG_BLOCK, &caught, &previous);
  Taken taken;
  signals_internal::any_pending.store(0, std::memory_order_relaxed);
  taken.interrupt = interrupt_signal.load(std::memory_order_relaxed);
  // Handlers only add to the count and this thread alone takes from it,
  // so a count seen above zero stays so until it is taken.
  taken.info = info_count.load(std::memory_order_relaxed) > 0;
  if (taken.info) info_count.fetch_sub(1, std::memory_order_relaxed);
  if (taken.interrupt != 0 || info_count.load(std::memory_order_relaxed) > 0) {
    signals_internal::any_pending.store(1, std::memory_order_relaxed);
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return taken;
}

Listener::Listener(std::function<void()> on_interrupt) noexcept : on_interrupt_(std::move(on_interrupt)) {
  sigset_t caught = caught_set();
  pthread_sigmask(SIG_BLOCK, &caught, &previous_);
  stop_fd_ = eventfd(0, EFD_CLOEXEC);
  if (stop_fd_ >= 0) {
    // The listener starts with the workers' mask and opens the caught
    // signals only while it sleeps.
    const WorkerSignalMask mask;
    started_ = pthread_create(&thread_, nullptr, &Listener::listen, this) == 0;
  }
  if (!started_) {
    if (stop_fd_ >= 0) close(stop_fd_);
    stop_fd_ = -1;
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
}

Listener::~Listener() {
  if (!started_) return;
  const std::uint64_t one = 1;
  while (write(stop_fd_, &one, sizeof one) < 0 && errno == EINTR) {
  }
  pthread_join(thread_, nullptr);
  close(stop_fd_);
  // What arrived since the listener stopped listening comes here now.
  pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

void* Listener::listen(void* self) noexcept {
  auto* listener = static_cast<Listener*>(self);
  run_first();
  sigset_t open;
  pthread_sigmask(SIG_SETMASK, nullptr, &open);
  sigdelset(&open, SIGINT);
  sigdelset(&open, SIGUSR1);
  bool told = false;
  while (true) {
    pollfd stop{listener->stop_fd_, POLLIN, 0};
    // The caught signals open only inside ppoll: a handler runs here and
    // ppoll returns EINTR.
    if (ppoll(&stop, 1, nullptr, &open) > 0) break;
    if (!told && interrupt_signal.load(std::memory_order_relaxed) != 0) {
      told = true;
      listener->on_interrupt_();
    }
  }
  return nullptr;
}

}  // namespace ddtime::signals
