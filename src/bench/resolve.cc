// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/resolve.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "dd/io.h"
#include "report/report_files.h"
#include "system/disk_signature.h"
#include "system/limits.h"

namespace ddtime {
namespace {

constexpr const char* kCpuCaches = "/sys/devices/system/cpu/cpu0/cache";

// The memory-bandwidth measurement people use dd for, done properly: every
// row the same bytes, from a buffer in L1 to four times the last-level
// cache, and no row's block larger than what every row moves.
void expand_memory_sweep(Os& os, ResolvedRun& resolved) {
  resolved.caches = read_cpu_caches(os, kCpuCaches);
  const std::int64_t last_level = resolved.caches.empty() ? std::int64_t{16} << 20 : resolved.caches.back().bytes;
  resolved.settings.input_file = std::string("/dev/zero");
  resolved.settings.output_file = std::string("/dev/null");
  if (!resolved.plan.size && resolved.settings.max_records == kNoLimit) {
    resolved.plan.size = std::max<std::int64_t>(std::int64_t{1} << 30, 16 * 4 * last_level);
  }
  const std::int64_t moved =
      resolved.plan.size ? *resolved.plan.size : resolved.settings.count_in_bytes().value_or(INT64_MAX);
  for (std::int64_t bs = 4096; bs <= 4 * last_level && bs <= moved; bs *= 2) resolved.plan.sweep_bs.push_back(bs);
}

// --direct: O_DIRECT on each side that can take it.
void resolve_direct(ResolvedRun& resolved) {
  if (!resolved.settings.ext.direct) return;
  if (resolved.settings.input_file && can_take_direct(resolved.input)) resolved.settings.iflag.direct = true;
  if (resolved.settings.output_file && can_take_direct(resolved.output)) resolved.settings.oflag.direct = true;
  resolved.settings.ext.direct = false;  // done: the flags say it from here on
}

// What a file or device input holds past skip=; nullopt for anything else
// (and for --pattern, which has no end).
std::optional<std::int64_t> input_rest(Os& os, const ResolvedRun& resolved) {
  if (resolved.plan.pattern) return std::nullopt;
  const std::optional<std::int64_t> size = resolved.settings.input_file
                                               ? file_size(os, *resolved.settings.input_file, resolved.input)
                                               : file_size(os, STDIN_FILENO, resolved.input);
  const std::optional<std::int64_t> skipped = resolved.settings.skip_offset();
  if (!size || !skipped) return std::nullopt;
  return *size > *skipped ? *size - *skipped : 0;
}

// The operands' own range: count= in bytes, else the input's rest.
std::optional<std::int64_t> range_bytes(Os& os, const ResolvedRun& resolved) {
  if (const std::optional<std::int64_t> counted = resolved.settings.count_in_bytes()) return counted;
  return input_rest(os, resolved);
}

// --random's (and --time's) range where the input gives none (an endless source such as
// /dev/zero or --pattern): the rest of a block-device output from seek=,
// as count= in bytes, as --size would give it, so that the run ends at the
// device's end instead of meeting it.
void random_range_from_output(Os& os, ResolvedRun& resolved) {
  if (!(resolved.plan.random || resolved.plan.time_ns) || resolved.bytes || resolved.output != FileKind::kBlock ||
      !resolved.settings.output_file)
    return;
  const std::optional<std::int64_t> size = file_size(os, *resolved.settings.output_file, resolved.output);
  const std::optional<std::int64_t> seek = resolved.settings.seek_offset();
  if (!size || !seek) return;
  const std::int64_t bytes = *size > *seek ? *size - *seek : 0;
  resolved.settings.max_records = bytes / resolved.settings.ibs;
  resolved.settings.max_bytes = bytes % resolved.settings.ibs;
  resolved.bytes = bytes;
}

// Whether a session opens its files more than once: a session of one
// run (--csv, --pattern alone) copies once, as dd does, standard streams
// included (defect A7); --cache works on the files by name.
bool opens_files_again(const Plan& plan) {
  return plan.repeat > 1 || plan.warmup > 0 || plan.sweeps_bs() || !plan.sweep_iodepth.empty() || plan.cache_given;
}

// A session opens each side again for every run.
bool check_rerunnable(const ResolvedRun& resolved, const Messages& messages) {
  const std::string asked = session_words(resolved.plan);
  for (const Side side : {Side::kInput, Side::kOutput}) {
    if (side == Side::kInput && resolved.plan.pattern) continue;  // the generator gives its bytes again and again
    const std::optional<std::string>& file =
        side == Side::kInput ? resolved.settings.input_file : resolved.settings.output_file;
    const FileKind kind = side == Side::kInput ? resolved.input : resolved.output;
    if (!file) {
      // Each run closes its side as dd does; a standard stream has no
      // name to open again.
      messages.cannot_repeat(asked, side, {});
      return false;
    }
    if (can_reopen(kind)) continue;
    messages.cannot_repeat(asked, side,
                           kind == FileKind::kPipe     ? "a pipe"
                           : kind == FileKind::kSocket ? "a socket"
                                                       : "a character device that gives each read once");
    return false;
  }
  return true;
}

bool check_readback(const ResolvedRun& resolved, const Messages& messages) {
  if (!is_positional(resolved.output) && resolved.output != FileKind::kAbsent &&
      resolved.output != FileKind::kUnknown) {
    messages.readback_needs_file(*resolved.settings.output_file);
    return false;
  }
  if (resolved.plan.verify && !resolved.plan.pattern &&
      !(resolved.settings.input_file && reads_again_alike(resolved.input))) {
    messages.verify_needs_replay();
    return false;
  }
  return true;
}

// --preallocate reserves a file's blocks for the range the copy writes.
bool check_preallocate(const ResolvedRun& resolved, const Messages& messages) {
  if (!resolved.bytes) {
    messages.preallocate_needs_size();
    return false;
  }
  if (resolved.output != FileKind::kRegular && resolved.output != FileKind::kAbsent) {
    messages.preallocate_needs_file(resolved.settings.output_file.value_or(std::string()));
    return false;
  }
  return true;
}

// The write modes claim a block-device output: refused when it is
// mounted or claimed, unless --force. The claim is one descriptor held to
// the end, not an O_EXCL open per run: a run's io_uring lets go of its
// files only when the kernel tears the ring down, after the run, and the
// next run's own claim would then meet EBUSY from its predecessor.
bool claim_output_device(Os& os, ResolvedRun& resolved, const Messages& messages) {
  if (resolved.output != FileKind::kBlock || resolved.plan.force) return true;
  const std::string& path = *resolved.settings.output_file;
  const IoResult claimed = os.open(path.c_str(), O_WRONLY | O_EXCL | O_CLOEXEC, 0);
  if (!claimed.ok() && claimed.err == EBUSY) {
    messages.device_in_use(resolved.plan.readback   ? "--readback"
                           : resolved.plan.capacity ? "--capacity"
                                                    : session_words(resolved.plan),
                           path);
    return false;
  }
  // Any other failure is the run's to report, when it opens the device.
  if (claimed.ok()) resolved.device_claim = static_cast<int>(claimed.n);
  return true;
}

// As ddtime, an operand the device's direct I/O would refuse is refused
// now, before the output is opened (and cut). An output not there yet
// tells nothing until the run creates it.
bool check_alignment(Os& os, const ResolvedRun& resolved, const Messages& messages) {
  if (!resolved.settings.ext.actionable_errors()) return true;
  for (const Side side : {Side::kInput, Side::kOutput}) {
    const bool input = side == Side::kInput;
    const std::optional<std::string>& file = input ? resolved.settings.input_file : resolved.settings.output_file;
    if (!(input ? resolved.settings.iflag.direct : resolved.settings.oflag.direct) || !file ||
        !is_positional(input ? resolved.input : resolved.output)) {
      continue;
    }
    const IoResult opened = os.open(file->c_str(), O_RDONLY | O_CLOEXEC, 0);
    if (!opened.ok()) continue;  // the run says why it cannot open it
    const DirectIoNeeds needs = os.direct_io_needs(static_cast<int>(opened.n));
    os.close(static_cast<int>(opened.n));
    if (const std::optional<AlignmentProblem> problem = alignment_problem(resolved.settings, side, needs)) {
      messages.alignment(*problem);
      return false;
    }
  }
  return true;
}

bool check_sweep_has_an_end(ResolvedRun& resolved, const Messages& messages) {
  if (!resolved.plan.sweeps_bs()) return true;
  // Every row moves the same bytes: --size, else count= in the command
  // line's blocks, else the whole input, which must then have an end.
  if (resolved.plan.size) {
    resolved.sweep_bytes = resolved.plan.size;
  } else if (const std::optional<std::int64_t> counted = resolved.settings.count_in_bytes()) {
    resolved.sweep_bytes = counted;
  } else if (resolved.plan.pattern || !is_positional(resolved.input)) {
    messages.sweep_needs_size();
    return false;
  }
  return true;
}

// --random: both sides take reads and writes at offsets of their own (a
// file, a device, or a memory device where any order will do), and the
// range has an end to draw the order over.
bool check_random(Os& os, const ResolvedRun& resolved, const Messages& messages) {
  for (const Side side : {Side::kInput, Side::kOutput}) {
    const FileKind kind = side == Side::kInput ? resolved.input : resolved.output;
    if (is_positional(kind) || is_order_free(kind) || kind == FileKind::kAbsent || kind == FileKind::kUnknown) continue;
    messages.random_cannot_place(side, kind == FileKind::kPipe     ? "a pipe"
                                       : kind == FileKind::kSocket ? "a socket"
                                       : kind == FileKind::kDirectory
                                           ? "a directory"
                                           : "a character device that takes each transfer in turn");
    return false;
  }
  if (!resolved.bytes) {
    messages.random_needs_range();
    return false;
  }
  // A block written past a device's end fails wherever the order puts it,
  // not at the end as in the sequential copy: the range must fit.
  if (resolved.output == FileKind::kBlock && resolved.settings.output_file) {
    const std::optional<std::int64_t> size = file_size(os, *resolved.settings.output_file, resolved.output);
    const std::int64_t end = resolved.settings.seek_offset().value_or(0) + *resolved.bytes;
    if (size && end > *size) {
      messages.random_past_device_end(*resolved.settings.output_file, end, *size);
      return false;
    }
  }
  return true;
}

// --jobs=N: every job reads and writes its own part at offsets of its
// own, which a pipe or a tape cannot take (the output may also be
// /dev/null, where order cannot show).
bool check_jobs(const ResolvedRun& resolved, const Messages& messages) {
  for (const Side side : {Side::kInput, Side::kOutput}) {
    const FileKind kind = side == Side::kInput ? resolved.input : resolved.output;
    if (is_positional(kind) || is_order_free(kind)) continue;
    // Absent: the run creates the output, or says why the input cannot open.
    if (kind == FileKind::kAbsent || kind == FileKind::kUnknown) continue;
    messages.jobs_cannot_place(resolved.plan.jobs, side,
                               kind == FileKind::kPipe        ? "a pipe"
                               : kind == FileKind::kSocket    ? "a socket"
                               : kind == FileKind::kDirectory ? "a directory"
                                                              : "a character device that takes each transfer in turn");
    return false;
  }
  return true;
}

// --time: a range with an end is gone over again from its start, which
// the input must be able to return to, in whole blocks; an endless one
// must not fill a file.
bool check_time(Os& os, ResolvedRun& resolved, const Messages& messages) {
  const bool goes_round = resolved.plan.pattern || is_positional(resolved.input) || is_order_free(resolved.input);
  const auto cannot_go_round = [&] {
    messages.time_cannot_go_round(resolved.input == FileKind::kPipe ? "a pipe"
                                  : resolved.input == FileKind::kSocket
                                      ? "a socket"
                                      : "a character device that gives each read once");
    return false;
  };
  if (!resolved.bytes) {
    const bool fills = resolved.output == FileKind::kRegular || resolved.output == FileKind::kAbsent ||
                       resolved.output == FileKind::kUnknown || resolved.output == FileKind::kDirectory;
    if (!fills) return true;
    // A range would be gone over again, which a pipe cannot: advising
    // --size would only lead to that refusal (defect A8).
    if (!goes_round) return cannot_go_round();
    messages.time_needs_size();
    return false;
  }
  // count= or --size bounded by what the input holds past skip=: the
  // range the passes go over.
  const std::optional<std::int64_t> rest = input_rest(os, resolved);
  const std::int64_t range = rest ? std::min(*resolved.bytes, *rest) : *resolved.bytes;
  resolved.timed_range = range;
  // Every row of a bs sweep goes round the same range in its own blocks.
  std::int64_t bs = resolved.settings.ibs;
  for (const std::int64_t row : resolved.plan.sweep_bs) bs = std::max(bs, row);
  // An auto sweep's rows are found as it runs, from its first one.
  if (resolved.plan.sweep_bs_auto) bs = std::max(bs, first_auto_bs(resolved.settings));
  if (range < bs) {
    messages.time_range_under_a_block(range, bs);
    return false;
  }
  return goes_round || cannot_go_round();
}

// --profile measures a file or a block device: what it reads (if=) or
// writes and reads back (of=, which may not exist yet).
bool check_profile_target(const ResolvedRun& resolved, const Messages& messages) {
  const bool writes = resolved.plan.pattern.has_value();
  const FileKind kind = writes ? resolved.output : resolved.input;
  if (kind == FileKind::kRegular || kind == FileKind::kBlock || (writes && kind == FileKind::kAbsent) ||
      kind == FileKind::kUnknown) {
    return true;
  }
  messages.profile_needs_file(session_words(resolved.plan),
                              *(writes ? resolved.settings.output_file : resolved.settings.input_file),
                              kind == FileKind::kPipe        ? "a pipe"
                              : kind == FileKind::kSocket    ? "a socket"
                              : kind == FileKind::kDirectory ? "a directory"
                                                             : "a character device");
  return false;
}

// Rule 3 of issue 28: what --jobs and --iodepth start is checked against
// what the machine allows before anything is opened, so that 64 jobs of
// 1024 threads each are refused at once, not after seconds of starting
// threads with of= already emptied. Only a queued copy reads the limits:
// a plain dd run pays nothing for them.
bool check_limits(Os& os, const ResolvedRun& resolved, const Messages& messages) {
  if (!resolved.plan.queued() && resolved.plan.sweep_iodepth.empty()) return true;
  const SystemLimits limits = read_system_limits(os);
  std::int64_t depth = resolved.plan.iodepth;
  for (const unsigned row : resolved.plan.sweep_iodepth) depth = std::max<std::int64_t>(depth, row);
  const std::int64_t jobs = resolved.plan.jobs;
  // The threads engine: a worker per slot in every job, and a thread per
  // job beside the calling one; io_uring: the jobs' threads alone.
  const auto slots = static_cast<std::int64_t>(
      resolved.plan.slots_per_job(resolved.bytes, resolved.settings.ibs, static_cast<unsigned>(depth)));
  const std::int64_t threads = (resolved.plan.engine == EngineChoice::kThreads ? jobs * slots : 0) + (jobs - 1);
  if (limits.threads && threads > limits.threads->threads - limits.threads->running) {
    messages.too_many_threads(resolved.plan.jobs, static_cast<unsigned>(depth), threads, *limits.threads);
    return false;
  }
  // --engine=libaio: each job's context takes twice its depth of the
  // kernel's fs.aio-max-nr events (io_setup doubles what it is asked).
  if (resolved.plan.engine == EngineChoice::kLibaio) {
    const std::int64_t events = jobs * depth * 2;
    if (const std::optional<AioLimit> aio = read_aio_limit(os); aio && events > aio->max - aio->used) {
      messages.too_many_aio_events(resolved.plan.jobs, static_cast<unsigned>(depth), events, aio->max, aio->used);
      return false;
    }
  }
  std::int64_t buffers = 0;
  const bool overflows = __builtin_mul_overflow(jobs * slots, resolved.settings.ibs, &buffers);
  if (limits.memory_available && (overflows || buffers > *limits.memory_available)) {
    if (overflows) buffers = INT64_MAX;
    messages.queue_buffers_beyond_memory(resolved.plan.jobs, static_cast<unsigned>(depth), buffers,
                                         *limits.memory_available);
    return false;
  }
  return true;
}

// What the device's first bytes say it holds, read through os; nullopt
// when it holds nothing known or cannot be read (the run then says why).
std::optional<DiskSignature> device_signature(Os& os, const std::string& path) {
  const IoResult opened = os.open(path.c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return std::nullopt;
  const int fd = static_cast<int>(opened.n);
  std::vector<unsigned char> head(kDiskSignatureSpan);
  std::size_t got = 0;
  while (got < head.size()) {
    const IoResult read = os.read(fd, head.data() + got, head.size() - got);
    if (read.err == EINTR) continue;
    if (!read.ok() || read.n == 0) break;
    got += static_cast<std::size_t>(read.n);
  }
  os.close(fd);
  head.resize(got);
  return find_disk_signature(head);
}

// Rule 1 of issue 28: a benchmark never destroys what the user did not
// offer as scratch. Data of ddtime's own making (a profile's, --pattern's)
// over an existing non-empty file, or over a device holding a partition
// table or a file system, is refused unless --force, before anything is
// opened for writing. A copy of if= keeps dd's meaning and is not checked.
bool check_scratch_target(Os& os, const ResolvedRun& resolved, const Messages& messages) {
  if (!resolved.plan.pattern || !resolved.settings.output_file || resolved.plan.force) return true;
  const std::string& path = *resolved.settings.output_file;
  const std::string asked = resolved.plan.profile    ? session_words(resolved.plan)
                            : resolved.plan.mix      ? std::string("--mix")
                            : resolved.plan.capacity ? std::string("--capacity")
                                                     : std::string("--pattern");
  if (resolved.output == FileKind::kRegular) {
    if (const std::optional<std::int64_t> size = file_size(os, path, resolved.output); size > 0) {
      messages.would_overwrite_file(asked, path, *size);
      return false;
    }
  }
  if (resolved.output == FileKind::kBlock) {
    // Mounted or claimed says more than what it holds: the kernel's
    // exclusive claim, taken read-only and let go at once.
    const IoResult claimed = os.open(path.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC, 0);
    if (!claimed.ok() && claimed.err == EBUSY) {
      messages.device_in_use(asked, path);
      return false;
    }
    if (claimed.ok()) os.close(static_cast<int>(claimed.n));
    if (const std::optional<DiskSignature> found = device_signature(os, path)) {
      messages.would_overwrite_device(asked, path, *found);
      return false;
    }
  }
  return true;
}

// A profile (with --force) writes inside an existing file, never past its end.
bool check_profile_stays_inside(Os& os, const ResolvedRun& resolved, const Messages& messages) {
  if (!resolved.plan.pattern || resolved.output != FileKind::kRegular || !resolved.plan.size) return true;
  const std::string& path = *resolved.settings.output_file;
  const std::optional<std::int64_t> size = file_size(os, path, resolved.output);
  if (!size || *size == 0) return true;
  const std::int64_t end = resolved.settings.seek_offset().value_or(0) + *resolved.plan.size;
  if (end <= *size) return true;
  messages.profile_would_grow(session_words(resolved.plan), path, *size, end);
  return false;
}

bool check_modes(Os& os, ResolvedRun& resolved, const Messages& messages) {
  if (!check_limits(os, resolved, messages)) return false;
  if (!check_scratch_target(os, resolved, messages)) return false;
  if (resolved.plan.profile && !check_profile_stays_inside(os, resolved, messages)) return false;
  if (resolved.plan.profile && !check_profile_target(resolved, messages)) return false;
  if (resolved.plan.random && !check_random(os, resolved, messages)) return false;
  if (resolved.plan.jobs > 1 && !check_jobs(resolved, messages)) return false;
  if (resolved.plan.time_ns && !check_time(os, resolved, messages)) return false;
  if (resolved.plan.readback && !check_readback(resolved, messages)) return false;
  if (opens_files_again(resolved.plan) && !resolved.plan.readback && !check_rerunnable(resolved, messages))
    return false;
  if (!check_sweep_has_an_end(resolved, messages)) return false;
  if (resolved.plan.preallocate && !check_preallocate(resolved, messages)) return false;
  // (--capacity writes stamps, a --pattern: a session's claim.)
  if ((resolved.plan.session() || resolved.plan.readback) && !claim_output_device(os, resolved, messages)) return false;
  return check_alignment(os, resolved, messages);
}

}  // namespace

std::int64_t first_auto_bs(const Settings& settings) noexcept { return settings.bs_given ? settings.ibs : 4096; }

std::string session_words(const Plan& plan) {
  if (plan.profile) return fmt::format("--profile={}", plan.profile->name);
  if (plan.repeat > 1) return fmt::format("--repeat={}", plan.repeat);
  if (plan.warmup > 0) return fmt::format("--warmup={}", plan.warmup);
  if (plan.sweeps_bs() || !plan.sweep_iodepth.empty()) return "--sweep";
  if (plan.mix) return "--mix";
  if (plan.pattern) return "--pattern";
  if (plan.cache_given) return "--cache";
  return "--csv";
}

std::optional<ResolvedRun> resolve(Os& os, const Settings& settings, const Plan& plan, const Messages& messages) {
  ResolvedRun resolved;
  resolved.settings = settings;
  resolved.plan = plan;
  if (resolved.plan.sweep_bs_memory) expand_memory_sweep(os, resolved);
  if (resolved.plan.size) {
    // --size is count= in bytes, for every pass of every mode.
    resolved.settings.max_records = *resolved.plan.size / resolved.settings.ibs;
    resolved.settings.max_bytes = *resolved.plan.size % resolved.settings.ibs;
    resolved.settings.ext.count_from_size = true;
  }
  resolved.input = resolved.plan.pattern ? FileKind::kZero : find_kind(os, resolved.settings.input_file, STDIN_FILENO);
  resolved.output = find_kind(os, resolved.settings.output_file, STDOUT_FILENO);
  resolve_direct(resolved);
  resolved.bytes = range_bytes(os, resolved);
  // A profile's mix tests are set up per test (derive), over the range
  // its preparation has just written.
  if (resolved.plan.mix && !resolved.plan.profile && !resolve_mix(os, resolved, messages)) return std::nullopt;
  random_range_from_output(os, resolved);
  if (const std::optional<ReportPathProblem> problem =
          check_report_paths(os, resolved.settings, requested_reports(resolved.plan))) {
    messages.report_path_refused(*problem);
    return std::nullopt;
  }
  if (!check_modes(os, resolved, messages)) return std::nullopt;
  return resolved;
}

}  // namespace ddtime
