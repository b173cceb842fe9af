// SPDX-License-Identifier: GPL-3.0-or-later
// alarm — the bell --time and --timeline take their turns from: rung by a
// thread of its own at the time set, so that the copy reads no clock
// between turns and is never interrupted. (A signal would be: SIGALRM
// cuts a read of /dev/zero or a pipe short, and the summary would count
// partial records that the timing made.) The copy loop checks rung(), one
// relaxed load, once per record or reaped batch.
#pragma once

#include <atomic>
#include <cstdint>

namespace ddtime::alarm {

namespace detail {
extern std::atomic<bool> bell;
}  // namespace detail

// Rings once, after_ns from now; 0 takes back what was set. The thread
// starts at the first call and sleeps until it is needed. Returns 0 or
// the errno of a thread that could not start.
int set(std::int64_t after_ns) noexcept;

inline bool rung() noexcept { return detail::bell.load(std::memory_order_relaxed); }
inline void take() noexcept { detail::bell.store(false, std::memory_order_relaxed); }

}  // namespace ddtime::alarm
