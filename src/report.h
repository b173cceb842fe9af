// report — every byte of summary and progress text: GNU's records lines,
// the truncated-records line, the bytes/seconds/rate line with GNU's SI and
// IEC sizes and rounding, and the \r-rewritten status=progress line.
// (Stats, elapsed time, settings) in, text out; never writes anything itself.
#pragma once

#include <cstdint>
#include <string>

#include "settings.h"
#include "stats.h"

namespace ddtime {

// GNU's human_readable() for a byte count: "4.3 GB" (si) or "4.0 GiB" (iec);
// below the first prefix just "999 B" / "1000 B".
// Requires: bytes >= 0.
std::string human_size(std::int64_t bytes, bool si);

// The bytes line without its line ending:
// "4294967296 bytes (4.3 GB, 4.0 GiB) copied, 0.0812 s, 52.9 GB/s".
// elapsed_ns <= 0 gives "Infinity B/s". progress_style prints the seconds as
// GNU's progress line does.
// Requires: bytes >= 0.
std::string transfer_line(std::int64_t bytes, std::int64_t elapsed_ns, bool progress_style);

class Reporter {
 public:
  explicit Reporter(StatusLevel level) noexcept : level_(level) {}

  // What GNU prints at the end, on SIGUSR1/SIGINT, and after each read error
  // under conv=noerror: a newline ending any progress line, the records
  // lines, the truncated line, then (unless noxfer) the bytes line.
  // Empty for status=none.
  std::string summary(const Stats& stats, std::int64_t elapsed_ns);

  // One status=progress update: "\r" + bytes line, padded with spaces to
  // cover a longer previous line.
  std::string progress(const Stats& stats, std::int64_t elapsed_ns);

 private:
  StatusLevel level_;
  std::size_t progress_length_ = 0;  // length of the last progress line shown
};

}  // namespace ddtime
