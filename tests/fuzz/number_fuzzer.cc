// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target for the size grammar (src/model/number.h): any byte string is a
// candidate operand value. Beyond "no crash, no UB, no leak" it checks the
// promises number.h makes about its verdicts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string_view>

#include "model/number.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ddtime::ParsedNumber parsed = ddtime::parse_number(text);
  switch (parsed.verdict) {
    case ddtime::NumberVerdict::kOk:
      // Sizes and counts are never negative.
      if (parsed.value < 0) std::abort();
      break;
    case ddtime::NumberVerdict::kOverflow:
      if (parsed.value != std::numeric_limits<std::int64_t>::max()) std::abort();
      break;
    case ddtime::NumberVerdict::kInvalid:
      if (parsed.value < 0) std::abort();
      break;
  }
  // Deterministic: the same text, the same answer.
  const ddtime::ParsedNumber again = ddtime::parse_number(text);
  if (again.value != parsed.value || again.verdict != parsed.verdict ||
      again.zero_multiplier != parsed.zero_multiplier) {
    std::abort();
  }
  return 0;
}
