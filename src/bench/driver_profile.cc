// SPDX-License-Identifier: GPL-3.0-or-later
// The driver's --profile: the command line shaped into the profile's base
// job before resolve checks it (bs=1M over the range, the time, the runs,
// O_DIRECT), then, with of=, the range written once, unmeasured; then each
// test's warm-ups and runs through the same Run every other mode uses,
// reads first and writes after, as CrystalDiskMark orders them, with the
// pause between tests. The console says and writes the table at the end.
#include "bench/driver.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "bench/driver_internal.h"
#include "system/file_kind.h"

namespace ddtime {
using namespace driver_detail;

namespace {

// The preparation: the range written once in 1 MiB blocks, in turn.
constexpr ProfileTest kPrepare{"prepare", kProfileLargestBlock, false, 1, 1};
// The pause is slept in slices this long, so that a SIGINT is heard.
constexpr std::int64_t kPauseSliceNs = 50'000'000;

}  // namespace

void Driver::shape_profile() {
  Settings& s = asked_;
  Plan& p = asked_plan_;
  const ProfilePreset& preset = *p.profile;
  // skip= and seek= (bs= is refused, so in 512-byte blocks) counted again
  // in the base job's 1 MiB blocks; each test counts them in its own.
  reblock(s.skip_records, s.skip_bytes, s.ibs, kProfileLargestBlock);
  reblock(s.seek_records, s.seek_bytes, s.obs, kProfileLargestBlock);
  s.ibs = s.obs = kProfileLargestBlock;
  s.bs_given = true;
  if (s.output_file) {
    // The write tests' data, as CrystalDiskMark's test file: random bytes.
    p.pattern = PatternSpec{PatternKind::kRandom, 0};
    s.conv.notrunc = true;  // the prepared range is read back, never cut
  } else {
    s.output_file = std::string("/dev/null");
  }
  if (!p.time_ns) p.time_ns = preset.time_ns;
  if (!p.pause_ns) p.pause_ns = preset.pause_ns;
  if (!p.repeat_given) p.repeat = kProfileRepeat;
  if (!p.warmup_given) p.warmup = kProfileWarmup;
  // Uncached, as CrystalDiskMark and KDiskMark measure, unless --cache
  // asks for the page cache in a state of its own.
  if (!p.cache_given) s.ext.direct = true;
  if (!p.size) p.size = profile_default_range();
}

std::int64_t Driver::profile_default_range() {
  const bool writes = asked_plan_.pattern.has_value();
  const std::string& target = writes ? *asked_.output_file : *asked_.input_file;
  struct stat status {};
  if (!os_.stat_path(target.c_str(), status).ok()) return kProfileDefaultRange;
  const FileKind kind = classify(status);
  std::optional<std::int64_t> size;
  // A file read has only what it holds; one written (with --force: it holds
  // data) is never grown past its end. An empty one is made at the range.
  if (kind == FileKind::kRegular && (!writes || status.st_size > 0)) size = status.st_size;
  if (kind == FileKind::kBlock) {
    const IoResult opened = os_.open(target.c_str(), O_RDONLY | O_CLOEXEC, 0);
    if (opened.ok()) {
      const IoResult bytes = os_.block_device_size(static_cast<int>(opened.n));
      if (bytes.ok()) size = bytes.n;
      os_.close(static_cast<int>(opened.n));
    }
  }
  if (!size) return kProfileDefaultRange;
  const std::int64_t start = (writes ? asked_.seek_offset() : asked_.skip_offset()).value_or(0);
  std::int64_t rest = *size > start ? *size - start : 0;
  // Whole blocks of the largest test, when there is one.
  if (rest >= kProfileLargestBlock) rest -= rest % kProfileLargestBlock;
  return std::max<std::int64_t>(1, std::min(kProfileDefaultRange, rest));
}

Settings Driver::profile_settings(const ProfileTest& test, bool write) const {
  Settings s = settings();
  if (plan().pattern && !write) {
    // A read test of of=: the range just written, read into /dev/null.
    s.input_file = s.output_file;
    s.output_file = std::string("/dev/null");
    s.iflag = IoFlags{};
    s.iflag.direct = settings().oflag.direct;
    s.skip_records = s.seek_records;
    s.skip_bytes = s.seek_bytes;
    s.seek_records = s.seek_bytes = 0;
    s.oflag = IoFlags{};
    s.conv.notrunc = false;
  }
  if (write) s.input_file = std::string("/dev/zero");  // a descriptor to have: the generator reads
  reblock(s.skip_records, s.skip_bytes, s.ibs, test.bs);
  reblock(s.seek_records, s.seek_bytes, s.obs, test.bs);
  s.ibs = s.obs = test.bs;
  count_bytes(s, *plan().size);
  return s;
}

Plan Driver::profile_plan(const ProfileTest& test, bool write) {
  Plan p = plan();
  p.iodepth = test.iodepth;
  p.iodepth_given = true;
  p.jobs = test.jobs;
  p.random = test.random;
  if (test.random) p.random_seed = (static_cast<std::uint64_t>(window_.now_ns()) * 0x9e3779b97f4a7c15ULL) >> 1;
  // Every job's I/Os timed, submit to reap, for the mean and p99 columns.
  p.latency = true;
  if (!write) p.pattern.reset();
  return p;
}

ProfileRecord Driver::profile_record() const {
  ProfileRecord record{.preset = plan().profile};
  record.writes = plan().pattern.has_value();
  record.target = *(record.writes ? settings().output_file : settings().input_file);
  record.start = (record.writes ? settings().seek_offset() : settings().skip_offset()).value_or(0);
  record.range = *plan().size;
  record.time_ns = *plan().time_ns;
  record.warmup = plan().warmup;
  record.repeat = plan().repeat;
  record.pause_ns = *plan().pause_ns;
  record.direct = record.writes ? settings().oflag.direct : settings().iflag.direct;
  record.cache = plan().cache;
  record.cache_given = plan().cache_given;
  return record;
}

int Driver::run_profile() {
  ProfileRecord record = profile_record();
  if (record.writes) {
    struct stat status {};
    const bool exists = os_.stat_path(record.target.c_str(), status).ok();
    if (!exists || (classify(status) == FileKind::kRegular && status.st_size == 0)) {
      console_.messages().profile_creates(session_words(plan()), record.target, record.start + record.range);
    }
    if (const std::optional<int> ended = prepare_profile_range(record)) return *ended;
  }
  const std::span<const ProfileTest> tests = record.preset->tests;
  for (const bool write : {false, true}) {
    if (write && !record.writes) break;
    for (std::size_t i = 0; i < tests.size(); ++i) {
      record.rows.push_back(ProfileRow{.test = tests[i], .write = write});
      if (const std::optional<int> ended = run_profile_test(record, record.rows.back())) return *ended;
      const bool last = write == record.writes && i + 1 == tests.size();
      if (!last) profile_pause(record);
    }
  }
  if (console_.interrupted_in("a profile: all tests done", nullptr)) profile_stop(record);
  record.complete = true;
  return profile_finish(record, 0);
}

std::optional<int> Driver::prepare_profile_range(ProfileRecord& record) {
  const Settings settings = profile_settings(kPrepare, true);
  Plan plan = profile_plan(kPrepare, true);
  plan.time_ns.reset();  // once over the range, not for a time
  plan.latency = false;
  if (console_.interrupted_in("a profile: preparing the range", nullptr)) profile_stop(record);
  const PatternSource pattern = next_pattern(settings);
  console_.profile_step("preparing the range");
  const RunRecord run = run_with(settings, plan, &pattern, "preparing the range");
  record.prepare_ns = run.result.times.real_ns;
  return profile_run_ended(record, run);
}

std::optional<int> Driver::run_profile_test(ProfileRecord& record, ProfileRow& row) {
  const Settings settings = profile_settings(row.test, row.write);
  const Plan plan = profile_plan(row.test, row.write);
  const std::string side = row.write ? "write" : "read";
  for (unsigned i = 0; i < record.warmup + record.repeat; ++i) {
    const bool warmup = i < record.warmup;
    const unsigned index = warmup ? i + 1 : i - record.warmup + 1;
    const std::string label = fmt::format("{} {}, {} {} of {}", row.test.label, side, warmup ? "warm-up" : "run",
                                          index, warmup ? record.warmup : record.repeat);
    if (console_.interrupted_in(fmt::format("a profile: {}", label), nullptr)) profile_stop(record);
    console_.profile_step(label);
    if (record.cache_given) {
      SessionRecord scratch{.plan = plan};
      std::optional<CacheState> state;
      if (!prepare_cache(settings, fmt::format("{} {}", row.test.label, side), scratch, state)) {
        if (console_.interrupt() != 0) profile_stop(record);
        return profile_finish(record, 1);
      }
    }
    std::optional<PatternSource> pattern;
    if (row.write) pattern.emplace(next_pattern(settings));
    const RunRecord run = run_with(settings, plan, pattern ? &*pattern : nullptr, label);
    row.runs.push_back(profile_run(run, row.write, warmup));
    if (const std::optional<int> ended = profile_run_ended(record, run)) return ended;
  }
  summarise_profile_row(row);
  return std::nullopt;
}

// How a run's end ends the profile: GNU's die(), a SIGINT, an error.
std::optional<int> Driver::profile_run_ended(ProfileRecord& record, const RunRecord& run) {
  const RunResult& done = run.result;
  if (done.report != RunResult::Report::kSummary) return profile_finish(record, done.exit_status != 0 ? done.exit_status : 1);
  if (done.ending == Ending::kInterrupted) profile_stop(record);
  if (done.exit_status != 0) return profile_finish(record, done.exit_status);
  return std::nullopt;
}

void Driver::profile_pause(ProfileRecord& record) {
  for (std::int64_t left = record.pause_ns; left > 0; left -= kPauseSliceNs) {
    if (console_.interrupted_in("a profile: the pause between tests", nullptr)) profile_stop(record);
    os_.sleep_ns(std::min(left, kPauseSliceNs));
  }
}

int Driver::profile_finish(ProfileRecord& record, std::optional<int> exit_status) {
  record.exit_status = exit_status;
  record.signal = exit_status ? 0 : console_.interrupt();
  for (ProfileRow& row : record.rows) summarise_profile_row(row);
  return console_.profile_ended(record);
}

void Driver::profile_stop(ProfileRecord& record) {
  profile_finish(record, std::nullopt);
  die_by(console_.interrupt());
}

}  // namespace ddtime
