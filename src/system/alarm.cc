// SPDX-License-Identifier: GPL-3.0-or-later
#include "system/alarm.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

namespace ddtime::alarm {

namespace detail {
std::atomic<bool> bell{false};
}  // namespace detail

namespace {

using Clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC, the window's clock

// Never destroyed: the thread sleeps in it until the process exits.
struct Ringer {
  std::mutex lock;
  std::condition_variable changed;
  std::optional<Clock::time_point> due;

  [[noreturn]] void run() {
    std::unique_lock<std::mutex> held(lock);
    while (true) {
      if (!due) {
        changed.wait(held);
      } else if (changed.wait_until(held, *due) == std::cv_status::timeout && due && Clock::now() >= *due) {
        due.reset();
        detail::bell.store(true, std::memory_order_relaxed);
      }
    }
  }
};

Ringer* started() noexcept {
  static Ringer* ringer = []() noexcept -> Ringer* {
    try {
      auto* made = new Ringer;
      std::thread([made] { made->run(); }).detach();
      return made;
    } catch (...) {
      return nullptr;
    }
  }();
  return ringer;
}

}  // namespace

int set(std::int64_t after_ns) noexcept {
  Ringer* ringer = started();
  if (ringer == nullptr) return EAGAIN;
  {
    std::lock_guard<std::mutex> held(ringer->lock);
    if (after_ns > 0) {
      ringer->due = Clock::now() + std::chrono::nanoseconds(after_ns);
    } else {
      ringer->due.reset();
    }
  }
  ringer->changed.notify_one();
  return 0;
}

}  // namespace ddtime::alarm
