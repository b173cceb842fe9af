// SPDX-License-Identifier: GPL-3.0-or-later
// report_profile — every word of --profile's reports, from its record: the
// table on standard error (a row per test, read and write side by side:
// MB/s, IOPS, mean and p99 latency, a bar on a log scale of six decades)
// with the footer that states every parameter and how each figure was
// chosen; the JSON document --compare reads; the CSV, a line per test and
// side.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "measure/profile_record.h"
#include "model/environment_facts.h"
#include "model/settings.h"

namespace ddtime {

// How the table is drawn: its rate unit (MB/s unless --units asks for
// iec, MiB/s, or bytes, B/s; the JSON and CSV stay in B/s) and its bars
// (Unicode blocks where the locale is UTF-8, '#' otherwise).
struct ProfileLook {
  std::optional<RateUnits> units = std::nullopt;
  bool utf8 = false;
};

// The terminal's line of where a profile stands, from the first column:
// "\rPROGRAM: --profile=NAME: STEP ...", blanks over what the line before
// it showed past its end; shown becomes its width. No newline.
std::string profile_step_line(std::string_view program, std::string_view name, std::string_view step,
                              std::size_t& shown);
// The same line blanked, the cursor back at the first column; shown 0.
std::string profile_step_cleared(std::size_t& shown);

// The table and its footer, each line ending in a newline.
std::string profile_table(const ProfileRecord& record, const ProfileLook& look = {});

// {"schema":1,"tool":"ddtime","version":..,"environment":{..},"complete":..,
//  "target":{"path":..,"start":..,"prepared_s":..|null},
//  "profile":{"name","size","time_s","warmup","repeat","pause_s","direct","cache","pattern"},
//  "rows":[{"test","side","bs","iodepth","jobs","random","median_bytes_per_second","ci95":[lo,hi]|null,
//           "best_bytes_per_second","iops","latency":{"mean_s","p99_s"},"runs":[..]}],
//  "exit_status":..|null,"signal":..}
std::string profile_json(const ProfileRecord& record, const Environment& environment, std::string_view version);

// A header, then a line per test and side.
std::string profile_csv(const ProfileRecord& record);

}  // namespace ddtime
