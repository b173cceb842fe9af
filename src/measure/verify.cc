// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/verify.h"

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace ddtime {
namespace {

constexpr std::size_t kBlock = std::size_t{1} << 20;

// Fills buffer from fd as far as it goes (short reads continued); n is
// what arrived, less than length only at the end. A read a signal cut
// short (EINTR) is tried again unless stopped() says the comparison ends.
IoResult read_fully(Os& os, int fd, unsigned char* buffer, std::size_t length, const std::function<bool()>& stopped) {
  std::size_t got = 0;
  while (got < length) {
    const IoResult r = os.read(fd, buffer + got, length - got);
    if (r.err == EINTR && stopped()) return {static_cast<ssize_t>(got), EINTR};
    if (r.err == EINTR) continue;
    if (!r.ok()) return {static_cast<ssize_t>(got), r.err};
    if (r.n == 0) break;
    got += static_cast<std::size_t>(r.n);
  }
  return {static_cast<ssize_t>(got), 0};
}

}  // namespace

VerifyOutcome verify_bytes(Os& os, const VerifySource& source, int actual_fd, std::int64_t actual_offset,
                           std::int64_t bytes, const VerifyStop& stop) {
  VerifyOutcome outcome;
  if (!os.lseek(actual_fd, static_cast<off_t>(actual_offset), SEEK_SET).ok() ||
      (source.fd >= 0 && !os.lseek(source.fd, static_cast<off_t>(source.offset), SEEK_SET).ok())) {
    outcome.err = ESPIPE;
    return outcome;
  }
  std::vector<unsigned char> expected(kBlock, 0);
  std::vector<unsigned char> actual(kBlock);
  const auto stopped = [&] { return stop && stop(outcome.compared); };
  while (outcome.compared < bytes) {
    if (stopped()) {
      outcome.stopped = true;
      return outcome;
    }
    const auto want = static_cast<std::size_t>(std::min<std::int64_t>(bytes - outcome.compared, kBlock));
    const IoResult got = read_fully(os, actual_fd, actual.data(), want, stopped);
    if (got.err == EINTR) {
      outcome.stopped = true;
      return outcome;
    }
    if (!got.ok()) {
      outcome.err = got.err;
      return outcome;
    }
    std::size_t have = want;
    if (source.generator != nullptr) {
      source.generator->fill(expected.data(), want, outcome.compared);
    } else if (source.fd >= 0) {
      const IoResult original = read_fully(os, source.fd, expected.data(), want, stopped);
      if (original.err == EINTR) {
        outcome.stopped = true;
        return outcome;
      }
      if (!original.ok()) {
        outcome.err = original.err;
        outcome.read_expected = true;
        return outcome;
      }
      have = static_cast<std::size_t>(original.n);
    }
    const auto same = std::min(have, static_cast<std::size_t>(got.n));
    if (std::memcmp(expected.data(), actual.data(), same) != 0) {
      std::size_t i = 0;
      while (expected[i] == actual[i]) ++i;
      outcome.first_bad = actual_offset + outcome.compared + static_cast<std::int64_t>(i);
      outcome.compared += static_cast<std::int64_t>(i);
      return outcome;
    }
    outcome.compared += static_cast<std::int64_t>(same);
    if (same < want) {  // one side ended early
      outcome.first_bad = actual_offset + outcome.compared;
      return outcome;
    }
  }
  return outcome;
}

}  // namespace ddtime
