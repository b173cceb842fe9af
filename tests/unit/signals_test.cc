// SPDX-License-Identifier: GPL-3.0-or-later
// The signals module's Listener (issue 28, A5): while it lives, SIGINT
// reaches a thread of its own, which calls on_interrupt at once, while
// the creating thread keeps the signal blocked and still sees it through
// pending(); a SIGUSR1 does not call on_interrupt; a signal that arrives
// after the listener ended comes to the creating thread.
#include "system/signals.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace ddtime {
namespace {

using namespace std::chrono_literals;

bool wait_until(const std::atomic<bool>& flag) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!flag.load() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  return flag.load();
}

bool blocked_here(int sig) {
  sigset_t mask;
  pthread_sigmask(SIG_SETMASK, nullptr, &mask);
  return sigismember(&mask, sig) == 1;
}

// One test, in order: SIGINT's handler resets itself on delivery.
TEST(SignalListener, HearsSigintInItsOwnThreadAndHandsTheRestBack) {
  signals::install(true);
  ASSERT_FALSE(blocked_here(SIGINT));
  std::atomic<bool> interrupted{false};
  std::atomic<pthread_t> heard_in{};
  {
    signals::Listener listener([&] {
      heard_in.store(pthread_self());
      interrupted.store(true);
    });
    ASSERT_TRUE(listener.listening());
    EXPECT_TRUE(blocked_here(SIGINT)) << "the creating thread leaves SIGINT to the listener";
    EXPECT_TRUE(blocked_here(SIGUSR1));

    ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!signals::pending() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
    ASSERT_TRUE(signals::pending());
    signals::Taken info = signals::take();
    EXPECT_TRUE(info.info);
    EXPECT_EQ(info.interrupt, 0);
    EXPECT_FALSE(interrupted.load()) << "SIGUSR1 is not an interrupt";

    ASSERT_EQ(kill(getpid(), SIGINT), 0);
    ASSERT_TRUE(wait_until(interrupted));
    EXPECT_FALSE(pthread_equal(heard_in.load(), pthread_self()));
    EXPECT_TRUE(signals::pending());
  }
  EXPECT_FALSE(blocked_here(SIGINT)) << "the mask is the creating thread's again";
  const signals::Taken taken = signals::take();
  EXPECT_EQ(taken.interrupt, SIGINT);
}

}  // namespace
}  // namespace ddtime
