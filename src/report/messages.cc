// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/messages.h"

#include <cerrno>

#include "report/report.h"
#include "system/ring_registry.h"

namespace ddtime {
namespace {

// The option that asked for a report, as its refusals name it.
std::string report_option(std::string_view format) { return "--" + std::string(format); }

}  // namespace

Messages::Messages(const Diag& diag, const Settings& settings) : diag_(diag), settings_(settings) {}

void Messages::notice(Notice what, Side side, int err, std::int64_t value) const {
  if (!transfer_notice(what, side, err, value) && !engine_notice(what, err, value)) {
    position_or_setup_notice(what, side, err, value);
  }
}

// Reading, writing, flushing and cache advice.
bool Messages::transfer_notice(Notice what, Side side, int err, std::int64_t value) const {
  // status=none silences GNU's warnings, never its errors.
  const bool quiet = settings_.status == StatusLevel::kNone;
  const std::string& name = name_of(side);
  switch (what) {
    case Notice::kPartialRead:
      if (!quiet) {
        diag_.error(0, "warning: partial read ({} {}); suggest iflag=fullblock", value, value == 1 ? "byte" : "bytes");
      }
      break;
    case Notice::kReadError:
      if (!settings_.conv.noerror || !quiet) diag_.error(err, "error reading {}", diag_.quote_always(name));
      break;
    case Notice::kWriteError:
      diag_.error(err, "error writing {}", diag_.quote_always(name));
      break;
    case Notice::kBlockWriteError:
      diag_.error(err, "writing to {}", diag_.quote_always(name));
      break;
    case Notice::kFdatasyncFailed:
      diag_.error(err, "fdatasync failed for {}", diag_.quote_always(name));
      break;
    case Notice::kFsyncFailed:
      diag_.error(err, "fsync failed for {}", diag_.quote_always(name));
      break;
    case Notice::kDirectOffFailed:
      if (!quiet) diag_.error(err, "failed to turn off O_DIRECT: {}", diag_.quote_if_needed(name));
      break;
    case Notice::kCacheDropFailed:
      diag_.error(err, "failed to discard cache for: {}", diag_.quote_if_needed(name));
      break;
    case Notice::kInputBufferExhausted:
      diag_.error(0, "memory exhausted by input buffer of size {} bytes ({}){}", value, human_size(value, false),
                  aligned_words());
      break;
    case Notice::kOutputBufferExhausted:
      diag_.error(0, "memory exhausted by output buffer of size {} bytes ({}){}", value, human_size(value, false),
                  aligned_words());
      break;
    case Notice::kQueueBuffersExhausted:
      diag_.error(0, "memory exhausted by {} buffers of {} bytes ({}) each, one per I/O of --iodepth={}{}", value,
                  settings_.ibs, human_size(settings_.ibs, false), value, aligned_words());
      break;
    default:
      return false;
  }
  return true;
}

// Opening, positioning, truncating and closing.
void Messages::position_or_setup_notice(Notice what, Side side, int err, std::int64_t value) const {
  const bool quiet = settings_.status == StatusLevel::kNone;
  const std::string& name = name_of(side);
  switch (what) {
    case Notice::kCannotSkipToOffset:
      if (!quiet) diag_.error(0, "{}: cannot skip to specified offset", diag_.quote_if_needed(name));
      break;
    case Notice::kCannotSkip:
      diag_.error(err, "{}: cannot skip", diag_.quote_if_needed(name));
      break;
    case Notice::kCannotSeek:
      diag_.error(err, "{}: cannot seek", diag_.quote_if_needed(name));
      break;
    case Notice::kCannotFstat:
      diag_.error(err, "cannot fstat {}", diag_.quote_always(name));
      break;
    case Notice::kTruncateFailed:
      diag_.error(err, "failed to truncate to {} bytes in output file {}", value, diag_.quote_always(name));
      break;
    case Notice::kOffsetOverflow:
      diag_.error(0, "offset overflow while reading file {}", diag_.quote_always(name));
      break;
    case Notice::kInvalidOffsetAfterRead:
      if (!quiet) diag_.error(0, "warning: invalid file offset after failed read");
      break;
    case Notice::kKernelBugWorkaround:
      diag_.error(0, "cannot work around kernel bug after all");
      break;
    case Notice::kOpenFailed:
      diag_.error(err, "failed to open {}", diag_.quote_always(name));
      break;
    case Notice::kSetFlagsFailed:
      diag_.error(err, "setting flags for {}", diag_.quote_always(name));
      break;
    case Notice::kSeekTooLargeToTruncate:
      diag_.error(0, "offset too large: cannot truncate to a length of seek={} ({}-byte) blocks", value, settings_.obs);
      break;
    case Notice::kCloseFailed:
      diag_.error(err, "closing {} file {}", side == Side::kInput ? "input" : "output", diag_.quote_always(name));
      break;
    case Notice::kPreallocateFailed:
      preallocate_failed(name, err);
      break;
    default:  // worded by transfer_notice or engine_notice
      break;
  }
}

// A queued engine that could not be set up.
bool Messages::engine_notice(Notice what, int err, std::int64_t value) const {
  switch (what) {
    case Notice::kUringUnavailable:
      diag_.error(err, "--engine=io_uring: cannot set up io_uring");
      return true;
    case Notice::kUringRingsExhausted:
      // Where the kernel counts the rings against RLIMIT_MEMLOCK, the
      // limit is what the user can change; naming it saves a search.
      if (err == ENOMEM) {
        diag_.error(0,
                    "io_uring set up the rings of {} jobs, then refused the next ({}): every ring counts against the "
                    "locked-memory limit (ulimit -l); give fewer --jobs or a lower --iodepth",
                    value, error_text(err));
      } else {
        diag_.error(err, "io_uring set up the rings of {} jobs, then refused the next", value);
      }
      return true;
    case Notice::kEngineUnavailable:
      diag_.error(err, "--engine={}: cannot set up the engine", engine_word(static_cast<EngineChoice>(value)));
      return true;
    case Notice::kThreadsUnavailable:
      diag_.error(err, fmt::format("cannot start the threads engine's {} threads", value));
      return true;
    default:
      return false;
  }
}

std::string Messages::aligned_words() const {
  // Only --align is worth naming: GNU's own alignment never fails alone.
  if (settings_.ext.align == 0) return {};
  const auto align = static_cast<std::int64_t>(settings_.ext.align);
  return fmt::format(", aligned to {} bytes ({}) as --align asks", align, human_size(align, false));
}

void Messages::written_out_of_order(const WrittenOutOfOrder& blocks) const {
  const char* const noun = blocks.blocks == 1 ? "block" : "blocks";
  const std::string range = blocks.first_block == blocks.last_block
                                ? fmt::format("block {}", blocks.first_block)
                                : fmt::format("blocks {} to {}", blocks.first_block, blocks.last_block);
  // The run in turn from the start ends at the first block not written or
  // at the failed one, whichever is lower: before it the device holds what
  // one copy in turn would, past it only the blocks named.
  diag_.error(0, "{} holds the copy in turn before block {} and {} {} of {} B written out of order past it ({})",
              diag_.quote_always(name_of(Side::kOutput)), blocks.stop_block, blocks.blocks, noun, blocks.block_size,
              range);
}

void Messages::alignment(const AlignmentProblem& problem) const {
  const std::string& name = name_of(problem.side);
  const char* what = problem.logical_block_size ? "logical block size" : "direct I/O alignment";
  switch (problem.kind) {
    case AlignmentProblem::Kind::kBlockSize:
      diag_.error(0, "{}={} is not a multiple of {}'s {} {}; use {}={} or a multiple", problem.operand, problem.value,
                  name, what, problem.block, problem.operand, problem.block);
      break;
    case AlignmentProblem::Kind::kCountBytes:
      diag_.error(0, "{} leaves a last read of {} {}, which is not a multiple of {}'s {} {}", problem.operand,
                  problem.value, problem.value == 1 ? "byte" : "bytes", name, what, problem.block);
      break;
    case AlignmentProblem::Kind::kStartOffset:
      diag_.error(0, "{} would start at byte {}, which is not a multiple of {}'s {} {}", problem.operand, problem.value,
                  name, what, problem.block);
      break;
  }
}

void Messages::report_failed(std::string_view title, const std::string& path, int err) const {
  diag_.error(err, "failed to write the {} report to {}", title, diag_.quote_always(path));
}

void Messages::compare_program_failed(const std::string& path, int err) const {
  diag_.error(err, "--compare runs {}, which could not be started", diag_.quote_always(path));
}

void Messages::only_compares() const {
  diag_.error(0, "this program compares ddtime's JSON documents: run it as ddtime --compare A.json B.json");
}

void Messages::cannot_repeat(std::string_view asked, Side side, std::string_view kind) const {
  const bool input = side == Side::kInput;
  const std::optional<std::string>& file = input ? settings_.input_file : settings_.output_file;
  if (!file) {
    diag_.error(0, "{} cannot {} standard {} again; name the file with {}", asked, input ? "read" : "write",
                input ? "input" : "output", input ? "if=" : "of=");
    return;
  }
  diag_.error(0, "{} cannot {} {} again: it is {}", asked, input ? "read" : "write", diag_.quote(*file), kind);
}

void Messages::cache_failed(std::string_view mode, int err, std::string_view doing, const std::string& path) const {
  diag_.error(err, "--cache={}: cannot {} {}", mode, doing, diag_.quote(path));
}

void Messages::readback_needs_file(const std::string& path) const {
  diag_.error(0, "--readback reads the output back: {} is not a regular file or a block device", diag_.quote(path));
}

void Messages::verify_needs_replay() const {
  diag_.error(0,
              "--verify compares with the input read again: it needs if= a file, a block device, /dev/zero or "
              "/dev/full");
}

void Messages::verify_read_failed(const std::string& path, int err) const {
  diag_.error(err, "--verify: error reading {}", diag_.quote(path));
}

void Messages::verify_mismatch(const std::string& path, std::int64_t offset) const {
  // Followed by GNU's summary: no "bytes" here, which scripts grep for.
  diag_.error(0, "--verify: what was read back differs from what was written, first at offset {} of {}", offset,
              diag_.quote(path));
}

void Messages::device_in_use(std::string_view asked, const std::string& path) const {
  diag_.error(0, "{} would write to {}, which is mounted or in use; --force writes to it anyway", asked,
              diag_.quote(path));
}

void Messages::preallocate_needs_size() const {
  diag_.error(0, "--preallocate needs the size of the copy: give count=, --size, or an input file or device");
}

void Messages::report_path_refused(const ReportPathProblem& problem) const {
  using Kind = ReportPathProblem::Kind;
  const std::string option = report_option(problem.format);
  const std::string path = diag_.quote(problem.path);
  switch (problem.kind) {
    case Kind::kDirectory:
      diag_.error(0, "{}: {} is a directory, not a file the report can go to", option, path);
      break;
    case Kind::kSameAsInput:
      diag_.error(0, "{} and if= name the same file {}: the report would overwrite the input", option, path);
      break;
    case Kind::kSameAsOutput:
      diag_.error(0, "{} and of= name the same file {}: the report would overwrite the copy", option, path);
      break;
    case Kind::kSameAsOther:
      diag_.error(0, "{} and {} name the same file {}: one report would overwrite the other",
                  report_option(problem.other), option, path);
      break;
    case Kind::kCannotOpen:
      diag_.error(problem.err, "{}: cannot open {}", option, path);
      break;
  }
}

void Messages::preallocate_needs_file(const std::string& path) const {
  diag_.error(0, "--preallocate reserves the blocks of a regular file, which {} is not", diag_.quote(path));
}

void Messages::preallocate_failed(const std::string& path, int err) const {
  diag_.error(err, "--preallocate: cannot reserve {}", diag_.quote(path));
}

void Messages::random_cannot_place(Side side, std::string_view kind) const {
  const bool input = side == Side::kInput;
  diag_.error(0, "--random {} each block at its own offset, which {} cannot take: it is {}", input ? "reads" : "writes",
              diag_.quote(name_of(side)), kind);
}

void Messages::jobs_cannot_place(unsigned jobs, Side side, std::string_view kind) const {
  const bool input = side == Side::kInput;
  diag_.error(0, "--jobs={} {} each job's part at its own offsets, which {} cannot take: it is {}", jobs,
              input ? "reads" : "writes", diag_.quote(name_of(side)), kind);
}

void Messages::too_many_threads(unsigned jobs, unsigned depth, std::int64_t threads, const ThreadLimit& limit) const {
  const std::string_view source = limit.source == ThreadLimit::Source::kProcessLimit ? "RLIMIT_NPROC"
                                  : limit.source == ThreadLimit::Source::kPidMax     ? "kernel.pid_max"
                                                                                     : "kernel.threads-max";
  diag_.error(0,
              "--jobs={} x --iodepth={} on the threads engine is {} threads, and {} allows {} ({} running now): "
              "give fewer jobs or a lower depth, or let io_uring queue them (--engine=auto)",
              jobs, depth, threads, source, limit.threads, limit.running);
}

void Messages::too_many_aio_events(unsigned jobs, unsigned depth, std::int64_t events, std::int64_t max,
                                   std::int64_t used) const {
  diag_.error(0,
              "--jobs={} x --iodepth={} on the libaio engine is {} Linux AIO events (the kernel counts twice the "
              "depth), and fs.aio-max-nr allows {} ({} in use now): give fewer jobs or a lower depth, or let "
              "io_uring queue them (--engine=auto)",
              jobs, depth, events, max, used);
}

void Messages::queue_buffers_beyond_memory(unsigned jobs, unsigned depth, std::int64_t bytes,
                                           std::int64_t available) const {
  diag_.error(0,
              "--jobs={} x --iodepth={} x ibs={} is {} bytes ({}) of buffers, more than the {} bytes ({}) of memory "
              "available (MemAvailable): give fewer jobs, a lower depth or a smaller block",
              jobs, depth, settings_.ibs, bytes, human_size(bytes, false), available, human_size(available, false));
}

void Messages::random_needs_range() const {
  diag_.error(0,
              "--random draws its order over a range with an end, and neither the input nor the output has one: "
              "give --size=BYTES or count=");
}

void Messages::random_past_device_end(const std::string& path, std::int64_t end, std::int64_t size) const {
  diag_.error(0,
              "--random's range ends at byte {}, past the end of {} ({} bytes): its blocks beyond could not be written",
              end, diag_.quote(path), size);
}

void Messages::time_needs_size() const {
  diag_.error(0,
              "--time would write to {} until the time is up, and nothing bounds the range: give --size=BYTES (or "
              "count=), and the run goes over that range again and again",
              diag_.quote(name_of(Side::kOutput)));
}

void Messages::time_range_under_a_block(std::int64_t bytes, std::int64_t bs) const {
  diag_.error(0, "--time goes over its range in whole blocks, and the range ({} bytes) holds no block of bs={}", bytes,
              bs);
}

void Messages::profile_needs_file(std::string_view asked, const std::string& path, std::string_view kind) const {
  diag_.error(0, "{} measures a file or a block device: {} is {}", asked, diag_.quote(path), kind);
}

namespace {

std::string_view content_words(DiskContent content) {
  switch (content) {
    case DiskContent::kMbr:
      return "a DOS (MBR) partition table";
    case DiskContent::kGpt:
      return "a GPT partition table";
    case DiskContent::kExt2:
      return "an ext2 file system";
    case DiskContent::kExt3:
      return "an ext3 file system";
    case DiskContent::kExt4:
      return "an ext4 file system";
    case DiskContent::kXfs:
      return "an XFS file system";
    case DiskContent::kBtrfs:
      return "a btrfs file system";
    case DiskContent::kSwap:
      return "a swap area";
    case DiskContent::kFat:
      return "a FAT file system";
    case DiskContent::kNtfs:
      return "an NTFS file system";
    case DiskContent::kIso9660:
      return "an ISO 9660 file system";
    case DiskContent::kLuks:
      return "a LUKS encrypted volume";
    case DiskContent::kLvm2:
      return "an LVM2 physical volume";
    case DiskContent::kSquashfs:
      return "a squashfs file system";
    case DiskContent::kF2fs:
      return "an f2fs file system";
  }
  return "data";
}

}  // namespace

void Messages::would_overwrite_file(std::string_view asked, const std::string& path, std::int64_t bytes) const {
  diag_.error(0, "{} holds {} bytes ({}); {} would overwrite them with data of its own; --force overwrites it",
              diag_.quote(path), bytes, human_size(bytes, true), asked);
}

void Messages::would_overwrite_device(std::string_view asked, const std::string& path,
                                      const DiskSignature& found) const {
  const std::string label = found.label.empty() ? std::string() : fmt::format(" (label {})", diag_.quote(found.label));
  diag_.error(0, "{} holds {}{}; {} would overwrite it; --force overwrites it", diag_.quote(path),
              content_words(found.content), label, asked);
}

void Messages::profile_would_grow(std::string_view asked, const std::string& path, std::int64_t size,
                                  std::int64_t end) const {
  diag_.error(0,
              "{} would write {} up to byte {}, past its end at {}: a profile never grows a file; give --size "
              "within it, or a new file",
              asked, diag_.quote(path), end, size);
}

void Messages::mix_needs_data(const std::string& path) const {
  diag_.error(0,
              "--mix reads {} as well as writing it, and it holds nothing to read: fill it first (ddtime "
              "--pattern=random of={} bs=1M count=N)",
              diag_.quote(path), path);
}

void Messages::mix_would_grow(const std::string& path, std::int64_t size, std::int64_t end) const {
  diag_.error(0, "--mix reads and writes inside {}: the range ends at byte {}, past its end at {}", diag_.quote(path),
              end, size);
}

void Messages::mix_needs_a_block(std::int64_t range, std::int64_t bs) const {
  diag_.error(0, "--mix reads and writes whole blocks of bs={}, and the range ({} bytes) holds none", bs, range);
}

void Messages::profile_creates(std::string_view asked, const std::string& path, std::int64_t bytes) const {
  // Said as GNU says its warnings: silenced by status=none.
  if (settings_.status == StatusLevel::kNone) return;
  // Not GNU's word "bytes": scripts grep ddtime's lines for GNU's summary.
  diag_.raw(fmt::format("{}: {} creates {}, {} ({}): the range's size\n", diag_.program(), asked, diag_.quote(path),
                        human_size(bytes, false), human_size(bytes, true)));
}

void Messages::time_cannot_go_round(std::string_view kind) const {
  diag_.error(0, "--time goes over its range again from the start, which the input cannot: it is {}", kind);
}

void Messages::sweep_needs_size() const {
  diag_.error(0, "every row of a sweep moves the same bytes, and the input has no end: give --size=BYTES or count=");
}

}  // namespace ddtime
