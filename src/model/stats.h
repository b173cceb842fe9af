// SPDX-License-Identifier: GPL-3.0-or-later
// stats — the counters a dd run reports. Plain integers, updated by the
// engine in the copy loop and read by report; no behaviour here.
#pragma once

#include <cstdint>

namespace ddtime {

struct Stats {
  std::int64_t full_records_in = 0;
  std::int64_t partial_records_in = 0;
  std::int64_t full_records_out = 0;
  std::int64_t partial_records_out = 0;
  std::int64_t truncated_records = 0;  // conv=block lines longer than cbs
  std::int64_t bytes_out = 0;          // bytes written, as GNU's summary counts
  std::int64_t bytes_in = 0;           // bytes read by the copy loop (not skip=)
};

}  // namespace ddtime
