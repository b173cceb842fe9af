// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench/run.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "dd/engine_queued.h"
#include "dd/engines.h"
#include "dd/io.h"
#include "dd/io_position.h"
#include "model/units.h"
#include "system/buffer.h"
#include "system/signals.h"

namespace ddtime {

namespace {

// --steady=LIMIT holds the rate's deviation to LIMIT percent of the
// window's mean and its slope to a tenth of that per interval, as fio's
// examples pair iops:10% with bw_slope:1%.
SteadyRule steady_rule(const Plan& plan) {
  const double limit = plan.steady_percent.value_or(10.0);
  return SteadyRule{limit, limit / 10, SteadyRule{}.window};
}

}  // namespace

Run::Run(Os& os, Events& events, RunWindow& window, const Settings& settings, FileKinds kinds, const Plan& plan,
         const PatternSource* pattern, RingEngines engines)
    : os_(os),
      events_(events),
      window_(window),
      settings_(settings),
      plan_(plan),
      pattern_(pattern),
      kinds_(once_opened(kinds)),
      input_cache_(os, kInputFd, settings),
      output_cache_(os, kOutputFd, settings),
      queue_(engines) {}

bool Run::open_files() {
  if (int err = open_input(os_, settings_); err != 0) {
    events_.notice(settings_.input_file ? Notice::kOpenFailed : Notice::kSetFlagsFailed, Side::kInput, err, 0);
    return false;
  }
  input_position_ = probe_input_position(os_);
  std::int64_t seek_size = 0;
  if (settings_.output_file && !settings_.conv.notrunc &&
      !multiply_add_fits(settings_.seek_records, settings_.obs, settings_.seek_bytes, seek_size)) {
    events_.notice(Notice::kSeekTooLargeToTruncate, Side::kOutput, 0, settings_.seek_records);
    return false;
  }
  // Whether the run makes the output: a refusal must not leave it behind.
  // Asked now, not of the kind resolve found: an earlier run of a session
  // may have made the file since.
  struct stat status {};
  output_created_ = settings_.output_file && os_.stat_path(settings_.output_file->c_str(), status).err == ENOENT;
  if (int err = open_output(os_, settings_); err != 0) {
    events_.notice(settings_.output_file ? Notice::kOpenFailed : Notice::kSetFlagsFailed, Side::kOutput, err, 0);
    return false;
  }
  return truncate_at_seek(os_, events_, settings_) == 0;
}

bool Run::check_direct_alignment(std::size_t& buffer_alignment) {
  for (const Side side : {Side::kInput, Side::kOutput}) {
    if (!(side == Side::kInput ? settings_.iflag.direct : settings_.oflag.direct)) continue;
    const DirectIoNeeds needs = direct_io_needs_of(os_, side == Side::kInput ? kInputFd : kOutputFd);
    if (settings_.ext.align == 0 && needs.memory_alignment > buffer_alignment) {
      buffer_alignment = needs.memory_alignment;
    }
    // Only a requirement the kernel stated is worth refusing over; as dd,
    // the kernel's EINVAL speaks, exactly as with GNU.
    if (!settings_.ext.actionable_errors()) continue;
    if (const std::optional<AlignmentProblem> problem = alignment_problem(settings_, side, needs)) {
      events_.alignment_refused(*problem);
      return false;
    }
  }
  return true;
}

bool Run::allocate_output_blocks() {
  // The blocks the copy will write, from where its first write lands (the
  // file's end under O_APPEND), allocated with the file's size and bytes
  // left as they are: an interrupted copy, a short input or notrunc then
  // leave exactly what the copy without it would (issue 19's third rule).
  if (kinds_.output != FileKind::kRegular) return true;
  const std::optional<std::int64_t> bytes = expected_input_bytes(os_, settings_, kinds_.input);
  const std::optional<std::int64_t> seek = settings_.seek_offset();
  if (!bytes || *bytes == 0 || !seek) return true;
  const std::optional<std::int64_t> start = settings_.oflag.append ? file_size(os_, kOutputFd, kinds_.output) : seek;
  if (!start) return true;
  const IoResult allocated = os_.allocate_blocks(kOutputFd, static_cast<off_t>(*start), static_cast<off_t>(*bytes));
  if (allocated.ok()) return true;
  events_.notice(Notice::kPreallocateFailed, Side::kOutput, allocated.err, 0);
  return false;
}

int Run::advise_page_cache(const CopyResult& copied) {
  // count=0 with nocache is the documented way to drop a file's cache,
  // so only then is a failure an error.
  const bool count_zero = settings_.max_records == 0 && settings_.max_bytes == 0;
  int status = 0;
  if (input_cache_.enabled() || input_cache_.reaches_end_of_file()) {
    int err = input_cache_.finish(copied.input_offset);
    if (err != 0 && count_zero) {
      events_.notice(Notice::kCacheDropFailed, Side::kInput, err, 0);
      status = 1;
    }
  }
  if (output_cache_.enabled() || output_cache_.reaches_end_of_file()) {
    int err = output_cache_.finish(-1);
    if (err != 0 && count_zero) {
      events_.notice(Notice::kCacheDropFailed, Side::kOutput, err, 0);
      status = 1;
    }
  }
  return status;
}

RunResult Run::finish(RunResult result) {
  // Signals first, so that the files are closed once (GNU's finish_up).
  if (result.ending != Ending::kInterrupted && signals::pending() && events_.handle_signals(result.stats)) {
    result.ending = Ending::kInterrupted;
  }
  for (Side side : {Side::kInput, Side::kOutput}) {
    if (int err = close_side(os_, side == Side::kInput ? kInputFd : kOutputFd); err != 0) {
      // GNU dies here: no statistics.
      events_.notice(Notice::kCloseFailed, side, err, 0);
      return {.stats = result.stats, .exit_status = 1, .ending = Ending::kDie, .report = RunResult::Report::kNothing};
    }
  }
  result.times = window_.measure();
  return result;
}

void Run::release_queue() noexcept {
  // Released after the window closed (unmapping N blocks takes time) and
  // before anything is reported, so that the report's own pages and
  // allocations do not add to the copy's peak memory.
  queue_.release();
}

void Run::describe_engine(RunResult& result) const {
  result.engine = engine_;
  Ring* const ring = queue_.ring();
  if (ring == nullptr) return;
  const RingCounters counters = queue_.counters();
  result.engine.kind = queue_.engine();
  result.engine.depth = ring->depth();
  result.engine.setup = ring->setup();
  if (counters.submissions != 0) {
    result.engine.mean_in_flight =
        static_cast<double>(counters.in_flight_sum) / static_cast<double>(counters.submissions);
  }
  if (counters.requests != 0) {
    result.engine.system_calls_per_io =
        static_cast<double>(counters.system_calls) / static_cast<double>(counters.requests);
  }
}

std::optional<MixChoice> Run::mix_choice() const noexcept {
  if (!plan_.mix || pattern_ == nullptr) return std::nullopt;
  return MixChoice{*plan_.mix, pattern_->seed()};
}

RunResult Run::copy(std::size_t buffer_alignment) {
  QueueSetup queue;
  QueueResources::Request request{os_, events_, settings_, kinds_, plan_, input_position_.seekable, buffer_alignment,
                                  {}};
  if (pattern_ != nullptr) request.generate_input = generated_rings();
  if (!queue_.set_up(request, engine_, queue)) return ended_before_copy(1);
  queue.mix = mix_choice();
  if (plan_.random && !place_randomly(queue)) return ended_before_copy(1);
  if (plan_.time_ns) go_round(queue);
  set_up_timekeeper();
  announce_start(queue);
  // The jobs set up: all asked, or fewer when a SIGINT came during set-up.
  const auto jobs = static_cast<unsigned>(std::max<std::size_t>(queue.lanes.size(), 1));
  if (plan_.latency) set_up_latency(jobs);
  Os* base = latency_ ? &latency_->os() : &os_;
  Events* events = latency_ ? &latency_->events() : &events_;
  TimedOs timed(*base);
  // A queued engine's reads and writes are in flight together, in the
  // ring, not in calls this Os could time: not measured, rather than 0.
  const bool split = settings_.ext.split_times && queue.ring == nullptr;
  const OpenedWindow opened(window_, split ? &timed : nullptr);
  // The CPU a window may hold: the threads engine's workers count with the
  // copy's thread; io_uring's kernel workers are bounded by the CPUs alone.
  if (Ring* const ring = queue_.ring())
    window_.set_threads(ring->worker_threads() > 0 ? (ring->worker_threads() + 1) * jobs : 0);
  window_.set_job_threads(jobs);
  // --mix: above the Os that time, which see only what reaches the target.
  Os& measured_os = split ? static_cast<Os&>(timed) : *base;
  std::optional<MixOs> mixed;
  if (queue.ring == nullptr && mix_choice()) mixed.emplace(measured_os, *pattern_, *mix_choice());
  const CopyRequest job{mixed ? static_cast<Os&>(*mixed) : measured_os,
                        *events,
                        window_.clock(),
                        settings_,
                        kinds_,
                        buffer_alignment,
                        input_position_,
                        input_cache_,
                        output_cache_,
                        window_.start_ns(),
                        queue,
                        queue.ring != nullptr && latency_ ? latency_->jobs_taps() : std::span<IoTap* const>{},
                        timekeeper_ ? &*timekeeper_ : nullptr};
  // --jobs' other jobs keep samples of their own, which no interval of the
  // timeline (job 0's) can mark: its intervals carry no latency then.
  if (timekeeper_ && mix_choice()) timekeeper_->set_mix(*mix_choice(), settings_.ibs, plan_.jobs);
  if (timekeeper_) timekeeper_->start(latency_ ? &latency_->recorders() : nullptr, plan_.jobs == 1);
  const CopyResult copied = run_copy(job);
  window_.copy_ended();
  note_jobs(copied.jobs);
  if (timekeeper_) timekeeper_->copy_ended(copied.stats);
  if (latency_) latency_->copy_ended(queue_.ring() != nullptr);
  RunResult result = after_copy(copied);
  describe_time(result, queue, copied.counts_from_start);
  result.mix = mix_result(mixed ? &*mixed : nullptr);
  return result;
}

std::function<std::unique_ptr<Ring>(std::unique_ptr<Ring>)> Run::generated_rings() {
  // Each job's ring in turn, job 0 first; a mixed run's rings are kept
  // for their counts.
  return [this](std::unique_ptr<Ring> ring) -> std::unique_ptr<Ring> {
    auto generated = std::make_unique<PatternRing>(std::move(ring), *pattern_, mix_choice(),
                                                   static_cast<unsigned>(mix_rings_.size()));
    mix_rings_.push_back(generated.get());
    return generated;
  };
}

void Run::set_up_latency(unsigned jobs) {
  // A timed run's samples are as many as the time allows, not the range's.
  const std::optional<std::int64_t> bytes =
      plan_.time_ns ? std::nullopt : expected_input_bytes(os_, settings_, kinds_.input);
  latency_.emplace(os_, events_, window_.clock(), settings_, bytes, plan_.random, jobs);
}

std::optional<MixResult> Run::mix_result(const MixOs* mixed) const noexcept {
  const std::optional<MixChoice> choice = mix_choice();
  if (!choice) return std::nullopt;
  MixResult result{*choice, {}};
  if (mixed != nullptr) result.counts = mixed->counts();
  for (const PatternRing* ring : mix_rings_) result.counts += ring->counts();
  if (timekeeper_) {
    // The ramp's I/Os are not the measurement's (one job: options refuse
    // --mix with --ramp and --jobs).
    const Stats& ramp = timekeeper_->ramp_stats();
    const std::int64_t records = ramp.full_records_out + ramp.partial_records_out;
    const std::int64_t reads = timekeeper_->mix_ramp_reads();
    result.counts.reads -= reads;
    result.counts.read_bytes -= reads * settings_.ibs;
    result.counts.writes -= records - reads;
    result.counts.write_bytes -= (records - reads) * settings_.ibs;
  }
  return result;
}

void Run::announce_start(const QueueSetup& queue) {
  RunStart start;
  start.settings = &settings_;
  if (timekeeper_ && timekeeper_->samples()) start.timeline = timekeeper_->shared_timeline();
  if (timekeeper_ && plan_.time_ns) {
    if (queue.order.repeats()) timekeeper_->set_range_blocks(queue.order.blocks());
    start.time = timekeeper_->live();
  }
  if (settings_.ext.progress) start.expected_bytes = expected_input_bytes(os_, settings_, kinds_.input);
  events_.starting(start);
}

void Run::note_jobs(const JobsUse& jobs) {
  engine_.jobs_asked = plan_.jobs;
  engine_.jobs = jobs;
  if (const IoResult cpus = os_.online_cpus(); cpus.ok()) engine_.online_cpus = static_cast<unsigned>(cpus.n);
  window_.set_job_threads(jobs.ran);
}

void Run::go_round(QueueSetup& queue) {
  const std::optional<std::int64_t> bytes = expected_input_bytes(os_, settings_, kinds_.input);
  // An endless range (/dev/zero to /dev/null) is one pass that the time ends.
  if (!bytes || *bytes < settings_.ibs) return;
  queue.order = BlockOrder::passes(*bytes / settings_.ibs, plan_.random, queue.order.seed());
}

void Run::set_up_timekeeper() {
  if (!plan_.time_ns && !plan_.timeline) return;
  Timekeeper::Rules rules{plan_.time_ns, plan_.ramp_ns, plan_.timeline, plan_.timeline_interval_ns, std::nullopt};
  if (plan_.steady_percent) rules.steady = steady_rule(plan_);
  timekeeper_.emplace(window_, rules);
}

void Run::describe_time(RunResult& result, const QueueSetup& queue, bool counts_from_start) {
  if (!timekeeper_) return;
  result.steady_rule = steady_rule(plan_);
  if (plan_.time_ns) {
    const Stats ramp = counts_from_start ? Stats{} : timekeeper_->ramp_stats();
    Stats& stats = result.stats;
    take_away_ramp(stats, ramp);
    TimedRun timed{*plan_.time_ns, plan_.ramp_ns, timekeeper_->ramp_elapsed_ns(), ramp};
    if (queue.order.repeats()) {
      timed.range_blocks = queue.order.blocks();
      timed.range_bytes = timed.range_blocks * settings_.ibs;
      timed.passes = static_cast<double>(stats.full_records_out + stats.partial_records_out) /
                     static_cast<double>(timed.range_blocks);
    }
    timed.ended_by = timekeeper_->ended_by();
    result.timed = timed;
  }
  if (timekeeper_->samples()) result.timeline = timekeeper_->timeline();
}

// --random: the range's whole blocks in the order the seed draws (for the
// queued engine, or the sync engine at depth 1), and
// what the report says of it. The records past them are read where dd
// reads them: a partial last block, then the end of the input, exactly as
// the sequential copy meets them (a whole-block read that comes back
// short, as O_DIRECT needs). resolve has refused what cannot take it; an
// input the queue still cannot read at offsets is GNU's "cannot seek".
bool Run::place_randomly(QueueSetup& queue) {
  const std::optional<std::int64_t> bytes = expected_input_bytes(os_, settings_, kinds_.input);
  // Without a ring only the sync engine may copy (by pread and pwrite at
  // each record's block): a queued engine that fell back for an input it
  // cannot read at offsets cannot.
  if ((queue.ring == nullptr && plan_.queued()) || !bytes) {
    events_.notice(Notice::kCannotSeek, Side::kInput, ESPIPE, 0);
    return false;
  }
  const std::int64_t blocks = *bytes / settings_.ibs;
  const std::uint64_t seed = plan_.random_seed.value_or(0);
  // A timed run goes round the whole blocks alone.
  const std::int64_t range = plan_.time_ns ? blocks * settings_.ibs : *bytes;
  queue.order = BlockOrder(blocks, seed);  // a timed run's passes: go_round
  random_ = RandomAccess{seed,
                         settings_.skip_offset().value_or(0),
                         settings_.seek_offset().value_or(0),
                         range,
                         blocks,
                         plan_.time_ns.has_value()};
  return true;
}

// What the copy's ending owes: nothing more, the flush, the cache advice.
RunResult Run::after_copy(const CopyResult& copied) {
  RunResult result{.stats = copied.stats,
                   .exit_status = copied.exit_status,
                   .ending = copied.ending,
                   .report = RunResult::Report::kSummary};
  result.first_write = copied.first_write;
  result.random = random_;
  describe_engine(result);
  switch (copied.ending) {
    case Ending::kDie:
      result.report = RunResult::Report::kNothing;
      return result;
    case Ending::kInterrupted:
      return finish(result);
    case Ending::kQuit:
    case Ending::kFinished:
      break;
  }
  // GNU 9.1 flushes on its way out of a quit too; a flush that fails there
  // ends the run with no statistics.
  if (flush_wanted(settings_.conv, copied.output_needs_fsync)) {
    window_.flush_starting();
    const int synced = flush_output(os_, events_, settings_.conv, copied.output_needs_fsync);
    window_.flush_finished();
    if (synced != 0) {
      result.exit_status = synced;
      if (copied.ending == Ending::kQuit) {
        result.report = RunResult::Report::kJsonOnly;
        return result;
      }
    }
  }
  if (copied.ending == Ending::kFinished && advise_page_cache(copied) != 0) result.exit_status = 1;
  return finish(result);
}

RunResult Run::ended_before_copy(int status) const {
  return {.exit_status = status, .ending = Ending::kDie, .report = RunResult::Report::kJsonOnly};
}

RunResult Run::perform() {
  // The kernel's rings first: one it refuses ends the run with every
  // file as it was.
  if (!queue_.open_kernel_rings(os_, plan_, events_, engine_)) return ended_before_copy(1);
  if (!open_files()) return ended_before_copy(1);
  std::size_t buffer_alignment = settings_.ext.align != 0 ? settings_.ext.align : page_size();
  if ((settings_.iflag.direct || settings_.oflag.direct) && !check_direct_alignment(buffer_alignment)) {
    // An output the kernel's needs were unknown of until it existed: a
    // refused command creates nothing.
    if (output_created_) os_.remove_file(settings_.output_file->c_str());
    return ended_before_copy(1);
  }
  if (plan_.preallocate && !allocate_output_blocks()) return ended_before_copy(1);
  RunResult result = copy(buffer_alignment);
  if (result.ending == Ending::kInterrupted) {
    queue_.abandon();
  } else {
    release_queue();
    // Releasing the rings can take tens of milliseconds (libaio's
    // io_destroy waits for the kernel's RCU grace period): a SIGINT in that
    // time ends the run as one a moment earlier would have, rather than
    // after a report that says the run went on.
    const bool reported = result.ending == Ending::kFinished || result.ending == Ending::kQuit;
    if (reported && signals::pending() && events_.handle_signals(result.stats)) result.ending = Ending::kInterrupted;
  }
  // Summarised after the window closed: sorting the samples is no part of
  // the copy.
  if (latency_ && result.timeline) {
    timekeeper_->add_latency(latency_->recorders(), latency_->ns_per_tick());
    result.timeline = timekeeper_->timeline();
  }
  if (latency_) latency_->report(result);
  return result;
}

}  // namespace ddtime
