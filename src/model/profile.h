// SPDX-License-Identifier: GPL-3.0-or-later
// profile — --profile=NAME's presets as plain values: each a list of tests
// (a block size, sequential or random, a depth, a number of jobs) and the
// pause between them. The rows are CrystalDiskMark's (default, NVMe SSD,
// Flash Memory, and its Peak and Real World profiles), which KDiskMark
// repeats; what a test does with them is the driver's.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "model/units.h"

namespace ddtime {

struct ProfileTest {
  std::string_view label;  // "SEQ1M Q8T1": as CrystalDiskMark names its rows
  std::int64_t bs = 0;
  bool random = false;
  unsigned iodepth = 1;  // Q
  unsigned jobs = 1;     // T
};

struct ProfilePreset {
  std::string_view name;
  std::span<const ProfileTest> tests;
  std::int64_t pause_ns = 0;  // between tests, unless --pause
  std::int64_t time_ns = 0;   // each run, unless --time
};

inline constexpr std::int64_t kProfileMiB = std::int64_t{1} << 20;
// The range when --size is not given (or the file's, when smaller).
inline constexpr std::int64_t kProfileDefaultRange = std::int64_t{1} << 30;
// A test's runs when --repeat and --warmup are not given: one unmeasured
// run, as CrystalDiskMark's "Preparing" pass, then three (CDM 9's count).
inline constexpr unsigned kProfileRepeat = 3;
inline constexpr unsigned kProfileWarmup = 1;
// The largest block any test moves: the range must hold one.
inline constexpr std::int64_t kProfileLargestBlock = kProfileMiB;

inline constexpr std::array<ProfileTest, 4> kDiskmarkTests = {{
    {"SEQ1M Q8T1", kProfileMiB, false, 8, 1},
    {"SEQ1M Q1T1", kProfileMiB, false, 1, 1},
    {"RND4K Q32T1", 4096, true, 32, 1},
    {"RND4K Q1T1", 4096, true, 1, 1},
}};

inline constexpr std::array<ProfileTest, 4> kNvmeTests = {{
    {"SEQ1M Q8T1", kProfileMiB, false, 8, 1},
    {"SEQ128K Q32T1", 128 * 1024, false, 32, 1},
    {"RND4K Q32T16", 4096, true, 32, 16},
    {"RND4K Q1T1", 4096, true, 1, 1},
}};

// CrystalDiskMark's Peak Performance profile: the two rows a drive's
// marketing quotes (deep queue); Real World Performance: the two a desktop
// mostly sees (one I/O at a time).
inline constexpr std::array<ProfileTest, 2> kPeakTests = {{
    {"SEQ1M Q8T1", kProfileMiB, false, 8, 1},
    {"RND4K Q32T1", 4096, true, 32, 1},
}};
inline constexpr std::array<ProfileTest, 2> kRealWorldTests = {{
    {"SEQ1M Q1T1", kProfileMiB, false, 1, 1},
    {"RND4K Q1T1", 4096, true, 1, 1},
}};

inline constexpr std::array<ProfilePreset, 5> kProfilePresets = {{
    {"diskmark", kDiskmarkTests, 5 * kNanosecondsPerSecond, 5 * kNanosecondsPerSecond},
    {"nvme", kNvmeTests, 5 * kNanosecondsPerSecond, 5 * kNanosecondsPerSecond},
    // CrystalDiskMark's Flash Memory preset: the default rows, measured
    // 1 s each with 30 s between tests for the flash to recover.
    {"flash", kDiskmarkTests, 30 * kNanosecondsPerSecond, 1 * kNanosecondsPerSecond},
    {"peak", kPeakTests, 5 * kNanosecondsPerSecond, 5 * kNanosecondsPerSecond},
    {"real", kRealWorldTests, 5 * kNanosecondsPerSecond, 5 * kNanosecondsPerSecond},
}};

// The presets' names in the table's order, joined by separator: what
// --help, a refusal and the completion list, so that a new preset is a
// row of the table and nothing more.
inline std::string profile_names(std::string_view separator) {
  std::string names;
  for (const ProfilePreset& preset : kProfilePresets) {
    if (!names.empty()) names += separator;
    names += preset.name;
  }
  return names;
}

// The preset of that name, or null.
constexpr const ProfilePreset* find_profile(std::string_view name) noexcept {
  for (const ProfilePreset& preset : kProfilePresets) {
    if (preset.name == name) return &preset;
  }
  return nullptr;
}

}  // namespace ddtime
