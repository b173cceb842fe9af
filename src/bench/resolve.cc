// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/resolve.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
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

FileKind kind_of(Os& os, const std::optional<std::string>& path, int fd) {
  struct stat status {};
  if (!path) return os.fstat(fd, status).ok() ? classify(status) : FileKind::kUnknown;
  const IoResult found = os.stat_path(path->c_str(), status);
  if (!found.ok()) return found.err == ENOENT ? FileKind::kAbsent : FileKind::kUnknown;
  return classify(status);
}

// What a regular file or block device holds; nullopt for anything else.
std::optional<std::int64_t> size_of(Os& os, const std::string& path, FileKind kind) {
  struct stat status {};
  if (kind == FileKind::kRegular && os.stat_path(path.c_str(), status).ok()) return status.st_size;
  if (kind != FileKind::kBlock) return std::nullopt;
  const IoResult opened = os.open(path.c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return std::nullopt;
  const IoResult size = os.block_device_size(static_cast<int>(opened.n));
  os.close(static_cast<int>(opened.n));
  return size.ok() ? std::optional<std::int64_t>(size.n) : std::nullopt;
}

// The same of a descriptor already open (standard input).
std::optional<std::int64_t> size_of_fd(Os& os, int fd, FileKind kind) {
  struct stat status {};
  if (kind == FileKind::kRegular && os.fstat(fd, status).ok()) return status.st_size;
  if (kind != FileKind::kBlock) return std::nullopt;
  const IoResult size = os.block_device_size(fd);
  return size.ok() ? std::optional<std::int64_t>(size.n) : std::nullopt;
}

// The memory-bandwidth measurement people use dd for, done properly: every
// row the same bytes, from a buffer in L1 to four times the last-level
// cache, and no row's block larger than what every row moves.
void expand_memory_sweep(Os& os, Job& job) {
  job.caches = read_cpu_caches(os, kCpuCaches);
  const std::int64_t last_level = job.caches.empty() ? std::int64_t{16} << 20 : job.caches.back().bytes;
  job.settings.input_file = std::string("/dev/zero");
  job.settings.output_file = std::string("/dev/null");
  if (!job.plan.size && job.settings.max_records == kNoLimit) {
    job.plan.size = std::max<std::int64_t>(std::int64_t{1} << 30, 16 * 4 * last_level);
  }
  const std::int64_t moved = job.plan.size ? *job.plan.size : job.settings.count_in_bytes().value_or(INT64_MAX);
  for (std::int64_t bs = 4096; bs <= 4 * last_level && bs <= moved; bs *= 2) job.plan.sweep_bs.push_back(bs);
}

// --direct: O_DIRECT on each side that can take it.
void resolve_direct(Job& job) {
  if (!job.settings.ext.direct) return;
  if (job.settings.input_file && can_take_direct(job.input)) job.settings.iflag.direct = true;
  if (job.settings.output_file && can_take_direct(job.output)) job.settings.oflag.direct = true;
  job.settings.ext.direct = false;  // done: the flags say it from here on
}

// What a file or device input holds past skip=; nullopt for anything else
// (and for --pattern, which has no end).
std::optional<std::int64_t> input_rest(Os& os, const Job& job) {
  if (job.plan.pattern) return std::nullopt;
  const std::optional<std::int64_t> size = job.settings.input_file ? size_of(os, *job.settings.input_file, job.input)
                                                                   : size_of_fd(os, STDIN_FILENO, job.input);
  const std::optional<std::int64_t> skipped = job.settings.skip_offset();
  if (!size || !skipped) return std::nullopt;
  return *size > *skipped ? *size - *skipped : 0;
}

// The operands' own range: count= in bytes, else the input's rest.
std::optional<std::int64_t> range_bytes(Os& os, const Job& job) {
  if (const std::optional<std::int64_t> counted = job.settings.count_in_bytes()) return counted;
  return input_rest(os, job);
}

// --random's (and --time's) range where the input gives none (an endless source such as
// /dev/zero or --pattern): the rest of a block-device output from seek=,
// as count= in bytes, as --size would give it, so that the run ends at the
// device's end instead of meeting it.
void random_range_from_output(Os& os, Job& job) {
  if (!(job.plan.random || job.plan.time_ns) || job.bytes || job.output != FileKind::kBlock ||
      !job.settings.output_file)
    return;
  const std::optional<std::int64_t> size = size_of(os, *job.settings.output_file, job.output);
  const std::optional<std::int64_t> seek = job.settings.seek_offset();
  if (!size || !seek) return;
  const std::int64_t bytes = *size > *seek ? *size - *seek : 0;
  job.settings.max_records = bytes / job.settings.ibs;
  job.settings.max_bytes = bytes % job.settings.ibs;
  job.bytes = bytes;
}

// Whether a session opens its files more than once: a session of one
// run (--csv, --pattern alone) copies once, as dd does, standard streams
// included (defect A7); --cache works on the files by name.
bool opens_files_again(const Plan& plan) {
  return plan.repeat > 1 || plan.warmup > 0 || plan.sweeps_bs() || !plan.sweep_iodepth.empty() || plan.cache_given;
}

// A session opens each side again for every run.
bool check_rerunnable(const Job& job, const Messages& messages) {
  const std::string asked = session_words(job.plan);
  for (const Side side : {Side::kInput, Side::kOutput}) {
    if (side == Side::kInput && job.plan.pattern) continue;  // the generator gives its bytes again and again
    const std::optional<std::string>& file = side == Side::kInput ? job.settings.input_file : job.settings.output_file;
    const FileKind kind = side == Side::kInput ? job.input : job.output;
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

bool check_readback(const Job& job, const Messages& messages) {
  if (!is_positional(job.output) && job.output != FileKind::kAbsent && job.output != FileKind::kUnknown) {
    messages.readback_needs_file(*job.settings.output_file);
    return false;
  }
  if (job.plan.verify && !job.plan.pattern && !(job.settings.input_file && reads_again_alike(job.input))) {
    messages.verify_needs_replay();
    return false;
  }
  return true;
}

// --preallocate reserves a file's blocks for the range the copy writes.
bool check_preallocate(const Job& job, const Messages& messages) {
  if (!job.bytes) {
    messages.preallocate_needs_size();
    return false;
  }
  if (job.output != FileKind::kRegular && job.output != FileKind::kAbsent) {
    messages.preallocate_needs_file(job.settings.output_file.value_or(std::string()));
    return false;
  }
  return true;
}

// The write modes claim a block-device output: refused when it is
// mounted or claimed, unless --force. The claim is one descriptor held to
// the end, not an O_EXCL open per run: a run's io_uring lets go of its
// files only when the kernel tears the ring down, after the run, and the
// next run's own claim would then meet EBUSY from its predecessor.
bool claim_output_device(Os& os, Job& job, const Messages& messages) {
  if (job.output != FileKind::kBlock || job.plan.force) return true;
  const std::string& path = *job.settings.output_file;
  const IoResult claimed = os.open(path.c_str(), O_WRONLY | O_EXCL | O_CLOEXEC, 0);
  if (!claimed.ok() && claimed.err == EBUSY) {
    messages.device_in_use(job.plan.readback ? "--readback" : session_words(job.plan), path);
    return false;
  }
  // Any other failure is the run's to report, when it opens the device.
  if (claimed.ok()) job.device_claim = static_cast<int>(claimed.n);
  return true;
}

// As ddtime, an operand the device's direct I/O would refuse is refused
// now, before the output is opened (and cut). An output not there yet
// tells nothing until the run creates it.
bool check_alignment(Os& os, const Job& job, const Messages& messages) {
  if (!job.settings.ext.actionable_errors) return true;
  for (const Side side : {Side::kInput, Side::kOutput}) {
    const bool input = side == Side::kInput;
    const std::optional<std::string>& file = input ? job.settings.input_file : job.settings.output_file;
    if (!(input ? job.settings.iflag.direct : job.settings.oflag.direct) || !file ||
        !is_positional(input ? job.input : job.output)) {
      continue;
    }
    const IoResult opened = os.open(file->c_str(), O_RDONLY | O_CLOEXEC, 0);
    if (!opened.ok()) continue;  // the run says why it cannot open it
    const DirectIoNeeds needs = os.direct_io_needs(static_cast<int>(opened.n));
    os.close(static_cast<int>(opened.n));
    if (const std::optional<AlignmentProblem> problem = alignment_problem(job.settings, side, needs)) {
      messages.alignment(*problem);
      return false;
    }
  }
  return true;
}

bool check_sweep_has_an_end(Job& job, const Messages& messages) {
  if (!job.plan.sweeps_bs()) return true;
  // Every row moves the same bytes: --size, else count= in the command
  // line's blocks, else the whole input, which must then have an end.
  if (job.plan.size) {
    job.sweep_bytes = job.plan.size;
  } else if (const std::optional<std::int64_t> counted = job.settings.count_in_bytes()) {
    job.sweep_bytes = counted;
  } else if (job.plan.pattern || !is_positional(job.input)) {
    messages.sweep_needs_size();
    return false;
  }
  return true;
}

// --random: both sides take reads and writes at offsets of their own (a
// file, a device, or a memory device where any order will do), and the
// range has an end to draw the order over.
bool check_random(Os& os, const Job& job, const Messages& messages) {
  for (const Side side : {Side::kInput, Side::kOutput}) {
    const FileKind kind = side == Side::kInput ? job.input : job.output;
    if (is_positional(kind) || is_order_free(kind) || kind == FileKind::kAbsent || kind == FileKind::kUnknown) continue;
    messages.random_cannot_place(side, kind == FileKind::kPipe     ? "a pipe"
                                       : kind == FileKind::kSocket ? "a socket"
                                       : kind == FileKind::kDirectory
                                           ? "a directory"
                                           : "a character device that takes each transfer in turn");
    return false;
  }
  if (!job.bytes) {
    messages.random_needs_range();
    return false;
  }
  // A block written past a device's end fails wherever the order puts it,
  // not at the end as in the sequential copy: the range must fit.
  if (job.output == FileKind::kBlock && job.settings.output_file) {
    const std::optional<std::int64_t> size = size_of(os, *job.settings.output_file, job.output);
    const std::int64_t end = job.settings.seek_offset().value_or(0) + *job.bytes;
    if (size && end > *size) {
      messages.random_past_device_end(*job.settings.output_file, end, *size);
      return false;
    }
  }
  return true;
}

// --jobs=N: every job reads and writes its own part at offsets of its
// own, which a pipe or a tape cannot take (the output may also be
// /dev/null, where order cannot show).
bool check_jobs(const Job& job, const Messages& messages) {
  for (const Side side : {Side::kInput, Side::kOutput}) {
    const FileKind kind = side == Side::kInput ? job.input : job.output;
    if (is_positional(kind) || is_order_free(kind)) continue;
    // Absent: the run creates the output, or says why the input cannot open.
    if (kind == FileKind::kAbsent || kind == FileKind::kUnknown) continue;
    messages.jobs_cannot_place(job.plan.jobs, side,
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
bool check_time(Os& os, Job& job, const Messages& messages) {
  const bool goes_round = job.plan.pattern || is_positional(job.input) || is_order_free(job.input);
  const auto cannot_go_round = [&] {
    messages.time_cannot_go_round(job.input == FileKind::kPipe     ? "a pipe"
                                  : job.input == FileKind::kSocket ? "a socket"
                                                                   : "a character device that gives each read once");
    return false;
  };
  if (!job.bytes) {
    const bool fills = job.output == FileKind::kRegular || job.output == FileKind::kAbsent ||
                       job.output == FileKind::kUnknown || job.output == FileKind::kDirectory;
    if (!fills) return true;
    // A range would be gone over again, which a pipe cannot: advising
    // --size would only lead to that refusal (defect A8).
    if (!goes_round) return cannot_go_round();
    messages.time_needs_size();
    return false;
  }
  // count= or --size bounded by what the input holds past skip=: the
  // range the passes go over.
  const std::optional<std::int64_t> rest = input_rest(os, job);
  const std::int64_t range = rest ? std::min(*job.bytes, *rest) : *job.bytes;
  job.timed_range = range;
  // Every row of a bs sweep goes round the same range in its own blocks.
  std::int64_t bs = job.settings.ibs;
  for (const std::int64_t row : job.plan.sweep_bs) bs = std::max(bs, row);
  // An auto sweep's rows are found as it runs, from its first one.
  if (job.plan.sweep_bs_auto) bs = std::max(bs, first_auto_bs(job.settings));
  if (range < bs) {
    messages.time_range_under_a_block(range, bs);
    return false;
  }
  return goes_round || cannot_go_round();
}

// --profile measures a file or a block device: what it reads (if=) or
// writes and reads back (of=, which may not exist yet).
bool check_profile_target(const Job& job, const Messages& messages) {
  const bool writes = job.plan.pattern.has_value();
  const FileKind kind = writes ? job.output : job.input;
  if (kind == FileKind::kRegular || kind == FileKind::kBlock || (writes && kind == FileKind::kAbsent) ||
      kind == FileKind::kUnknown) {
    return true;
  }
  messages.profile_needs_file(session_words(job.plan), *(writes ? job.settings.output_file : job.settings.input_file),
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
bool check_limits(Os& os, const Job& job, const Messages& messages) {
  if (!job.plan.queued() && job.plan.sweep_iodepth.empty()) return true;
  const SystemLimits limits = read_system_limits(os);
  std::int64_t depth = job.plan.iodepth;
  for (const unsigned row : job.plan.sweep_iodepth) depth = std::max<std::int64_t>(depth, row);
  const std::int64_t jobs = job.plan.jobs;
  // The threads engine: a worker per slot in every job, and a thread per
  // job beside the calling one; io_uring: the jobs' threads alone.
  const auto slots = static_cast<std::int64_t>(job.plan.slots_per_job(job.bytes, job.settings.ibs, static_cast<unsigned>(depth)));
  const std::int64_t threads = (job.plan.engine == EngineChoice::kThreads ? jobs * slots : 0) + (jobs - 1);
  if (limits.threads && threads > limits.threads->threads - limits.threads->running) {
    messages.too_many_threads(job.plan.jobs, static_cast<unsigned>(depth), threads, *limits.threads);
    return false;
  }
  // --engine=libaio: each job's context takes twice its depth of the
  // kernel's fs.aio-max-nr events (io_setup doubles what it is asked).
  if (job.plan.engine == EngineChoice::kLibaio) {
    const std::int64_t events = jobs * depth * 2;
    if (const std::optional<AioLimit> aio = read_aio_limit(os); aio && events > aio->max - aio->used) {
      messages.too_many_aio_events(job.plan.jobs, static_cast<unsigned>(depth), events, aio->max, aio->used);
      return false;
    }
  }
  std::int64_t buffers = 0;
  const bool overflows = __builtin_mul_overflow(jobs * slots, job.settings.ibs, &buffers);
  if (limits.memory_available && (overflows || buffers > *limits.memory_available)) {
    if (overflows) buffers = INT64_MAX;
    messages.queue_buffers_beyond_memory(job.plan.jobs, static_cast<unsigned>(depth), buffers,
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
bool check_scratch_target(Os& os, const Job& job, const Messages& messages) {
  if (!job.plan.pattern || !job.settings.output_file || job.plan.force) return true;
  const std::string& path = *job.settings.output_file;
  const std::string asked = job.plan.profile ? session_words(job.plan) : std::string("--pattern");
  if (job.output == FileKind::kRegular) {
    struct stat status {};
    if (os.stat_path(path.c_str(), status).ok() && status.st_size > 0) {
      messages.would_overwrite_file(asked, path, status.st_size);
      return false;
    }
  }
  if (job.output == FileKind::kBlock) {
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
bool check_profile_stays_inside(Os& os, const Job& job, const Messages& messages) {
  if (!job.plan.pattern || job.output != FileKind::kRegular || !job.plan.size) return true;
  const std::string& path = *job.settings.output_file;
  struct stat status {};
  if (!os.stat_path(path.c_str(), status).ok() || status.st_size == 0) return true;
  const std::int64_t end = job.settings.seek_offset().value_or(0) + *job.plan.size;
  if (end <= status.st_size) return true;
  messages.profile_would_grow(session_words(job.plan), path, status.st_size, end);
  return false;
}

bool check_modes(Os& os, Job& job, const Messages& messages) {
  if (!check_limits(os, job, messages)) return false;
  if (!check_scratch_target(os, job, messages)) return false;
  if (job.plan.profile && !check_profile_stays_inside(os, job, messages)) return false;
  if (job.plan.profile && !check_profile_target(job, messages)) return false;
  if (job.plan.random && !check_random(os, job, messages)) return false;
  if (job.plan.jobs > 1 && !check_jobs(job, messages)) return false;
  if (job.plan.time_ns && !check_time(os, job, messages)) return false;
  if (job.plan.readback && !check_readback(job, messages)) return false;
  if (opens_files_again(job.plan) && !job.plan.readback && !check_rerunnable(job, messages)) return false;
  if (!check_sweep_has_an_end(job, messages)) return false;
  if (job.plan.preallocate && !check_preallocate(job, messages)) return false;
  if ((job.plan.session() || job.plan.readback) && !claim_output_device(os, job, messages)) return false;
  return check_alignment(os, job, messages);
}

}  // namespace

std::int64_t first_auto_bs(const Settings& settings) noexcept { return settings.bs_given ? settings.ibs : 4096; }

std::string session_words(const Plan& plan) {
  if (plan.profile) return fmt::format("--profile={}", plan.profile->name);
  if (plan.repeat > 1) return fmt::format("--repeat={}", plan.repeat);
  if (plan.warmup > 0) return fmt::format("--warmup={}", plan.warmup);
  if (plan.sweeps_bs() || !plan.sweep_iodepth.empty()) return "--sweep";
  if (plan.pattern) return "--pattern";
  if (plan.cache_given) return "--cache";
  return "--csv";
}

std::optional<Job> resolve(Os& os, const Settings& settings, const Plan& plan, const Messages& messages) {
  Job job;
  job.settings = settings;
  job.plan = plan;
  if (job.plan.sweep_bs_memory) expand_memory_sweep(os, job);
  if (job.plan.size) {
    // --size is count= in bytes, for every pass of every mode.
    job.settings.max_records = *job.plan.size / job.settings.ibs;
    job.settings.max_bytes = *job.plan.size % job.settings.ibs;
    job.settings.ext.count_from_size = true;
  }
  job.input = job.plan.pattern ? FileKind::kZero : kind_of(os, job.settings.input_file, STDIN_FILENO);
  job.output = kind_of(os, job.settings.output_file, STDOUT_FILENO);
  resolve_direct(job);
  job.bytes = range_bytes(os, job);
  random_range_from_output(os, job);
  if (const std::optional<ReportPathProblem> problem =
          check_report_paths(os, job.settings, requested_reports(job.plan))) {
    messages.report_path_refused(*problem);
    return std::nullopt;
  }
  if (!check_modes(os, job, messages)) return std::nullopt;
  return job;
}

}  // namespace ddtime
