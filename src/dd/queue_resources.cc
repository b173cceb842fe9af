// SPDX-License-Identifier: GPL-3.0-or-later
// The queued engine's resources: the slots in one allocation and a ring
// per job, set up before the measured window opens.
#include <fcntl.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "dd/engine_queued.h"
#include "system/signals.h"
#include "system/threads.h"

namespace ddtime {

// One allocation for every slot, each starting on the alignment: one
// mapping, so no page of allocator bookkeeping per slot in the RSS. A job
// whose ring has memory of its own (Ring::own_memory) has its slots there
// instead.
bool QueueResources::allocate_slots(const Request& request) {
  const std::size_t alignment = request.alignment;
  const auto ibs = static_cast<std::size_t>(request.settings.ibs);
  const std::size_t stride = (ibs + alignment - 1) / alignment * alignment;
  // Never more slots than a job's part has records (rule 3 of issue 28):
  // 64 jobs at depth 1024 over a 4 MB file held 256 MiB of buffers that no
  // I/O could use. An endless range (/dev/zero, no count=) uses them all.
  slots_per_job_ = request.plan.slots_per_job(expected_input_bytes(request.os, request.settings, request.kinds.input),
                                              request.settings.ibs, request.plan.iodepth);
  const unsigned jobs = request.plan.jobs;
  std::size_t job_bytes = 0;
  bool fits = stride >= ibs && !__builtin_mul_overflow(stride, slots_per_job_, &job_bytes);
  std::vector<std::span<unsigned char>> memory(jobs);
  std::size_t core_jobs = 0;
  for (unsigned job = 0; fits && job < jobs; ++job) {
    if (job < rings_.size()) memory[job] = rings_[job]->own_memory(job_bytes, alignment);
    if (memory[job].size() < job_bytes) {
      memory[job] = {};
      ++core_jobs;
    }
  }
  std::size_t total = 0;
  if (!fits || __builtin_mul_overflow(job_bytes, core_jobs, &total) ||
      (core_jobs != 0 && !slot_memory_.allocate(total, alignment))) {
    request.events.notice(Notice::kQueueBuffersExhausted, Side::kInput, 0, request.plan.iodepth);
    return false;
  }
  std::size_t core_job = 0;
  for (unsigned job = 0; job < jobs; ++job) {
    const std::span<unsigned char> base =
        memory[job].empty() ? slot_memory_.span().subspan(core_job++ * job_bytes, job_bytes) : memory[job];
    for (std::size_t i = 0; i < slots_per_job_; ++i) slots_.push_back(base.subspan(i * stride, ibs));
  }
  return true;
}

std::span<const std::span<unsigned char>> QueueResources::job_slots(unsigned job) const noexcept {
  return std::span<const std::span<unsigned char>>(slots_).subspan(std::size_t{job} * slots_per_job_, slots_per_job_);
}

namespace {

// An io_uring's descriptor is the lowest one free. A session's passes
// close their files, so 0 and 1, where open_files puts if= and of=, are
// free between passes: the next pass's ring took descriptor 0, and the
// reads meant for if= went to the ring (EOPNOTSUPP). While the rings are
// set up, /dev/null holds whichever of 0, 1 and 2 is free.
class StandardDescriptorsHeld {
 public:
  explicit StandardDescriptorsHeld(Os& os) noexcept : os_(os) {
    // Those below fd are open or held: the lowest free one is fd.
    for (int fd = 0; fd < 3; ++fd) {
      if (os_.get_status_flags(fd).ok()) continue;
      const IoResult opened = os_.open("/dev/null", O_RDWR | O_CLOEXEC, 0);
      if (!opened.ok()) continue;
      if (opened.n == fd) {
        held_[static_cast<std::size_t>(fd)] = true;
      } else {
        os_.close(static_cast<int>(opened.n));
      }
    }
  }
  ~StandardDescriptorsHeld() {
    for (int fd = 0; fd < 3; ++fd) {
      if (held_[static_cast<std::size_t>(fd)]) os_.close(fd);
    }
  }
  StandardDescriptorsHeld(const StandardDescriptorsHeld&) = delete;
  StandardDescriptorsHeld& operator=(const StandardDescriptorsHeld&) = delete;

 private:
  Os& os_;
  std::array<bool, 3> held_{};
};

}  // namespace

// Every job's kernel ring, before any file is opened (rule 3 of issue
// 28): a limit the kernel holds the rings to (RLIMIT_MEMLOCK, which
// counts io_uring's rings on recent kernels; fs.aio-max-nr) refuses the
// run before of= is created or cut. The engine is the one asked for by
// name, or auto's pick (io_uring); where auto's pick is refused for job
// 0, its fallback (the threads engine, which set_up starts: its threads
// need the slots) copies, and the report says why.
// With --jobs every job's ring, job 0's too, is enabled by the job's own
// thread (the calling thread supervises); the only job's is the calling
// thread's.
bool QueueResources::open_kernel_rings(Os& os, const Plan& plan, Events& events, EngineUse& engine) {
  engine_ = plan.queued() ? ring_engine_asked(plan.engine, engines_) : nullptr;
  if (engine_ == nullptr || engine_->opens != RingEngine::Opens::kBeforeFiles) return true;
  const StandardDescriptorsHeld held(os);
  return open_rings(events, plan, plan.iodepth, engine);
}

bool QueueResources::open_rings(Events& events, const Plan& plan, unsigned depth, EngineUse& engine) {
  for (unsigned job = 0; job < plan.jobs; ++job) {
    // A SIGINT while thousands of workers start (the threads engine starts
    // 28,672 at --jobs=64 --iodepth=1024, a second's work): no more rings;
    // the jobs set up so far copy, and stop at their first look at the
    // signals, so that the signal ends the process as promptly as ever.
    if (job != 0 && signals::pending()) {
      engine.setup_interrupted = true;
      break;
    }
    RingOpened opened = engine_->open(depth, plan.jobs > 1);
    if (opened.ring) {
      rings_.push_back(std::move(opened.ring));
      continue;
    }
    if (job != 0 && engine_->later_unavailable) {
      // Refused after job 0's was set up: the jobs cannot share one
      // engine, and the threads engine in the place of each refused ring
      // would start thousands of threads at a deep queue (64 jobs at
      // depth 1024, unprivileged, started 18,000). Where the kernel
      // counts the rings against RLIMIT_MEMLOCK, the error says so.
      events.notice(*engine_->later_unavailable, Side::kInput, opened.err, job);
      return false;
    }
    if (job == 0 && plan.engine == EngineChoice::kAuto && engine_->refused_falls_back_to != engine_->choice) {
      engine.fallback = EngineUse::Fallback::kEngineRefused;
      engine.fallback_err = opened.err;
      engine.refused = engine_->choice;
      engine_ = find_ring_engine(engine_->refused_falls_back_to, engines_);
      return engine_->opens != RingEngine::Opens::kBeforeFiles || open_rings(events, plan, depth, engine);
    }
    if (engine_->unavailable) {
      events.notice(*engine_->unavailable, Side::kInput, opened.err, plan.iodepth);
    } else {
      events.notice(Notice::kEngineUnavailable, Side::kInput, opened.err, static_cast<std::int64_t>(engine_->choice));
    }
    return false;
  }
  return true;
}

bool QueueResources::open_targets(const Request& request) {
  struct Target {
    int fd;
    Side side;
    const std::optional<std::string>& path;
  };
  const Target targets[] = {{kInputFd, Side::kInput, request.settings.input_file},
                            {kOutputFd, Side::kOutput, request.settings.output_file}};
  for (const std::unique_ptr<Ring>& ring : rings_) {
    for (const Target& target : targets) {
      if (const int err = ring->open_target(target.fd, target.path ? target.path->c_str() : nullptr); err != 0) {
        request.events.notice(Notice::kOpenFailed, target.side, err, 0);
        return false;
      }
    }
  }
  return true;
}

bool QueueResources::set_up(const Request& request, EngineUse& engine, QueueSetup& queue) {
  if (!request.plan.queued()) return true;
  // Where the copy turns out to be the sync engine's, the rings opened
  // for it go at once.
  const auto sync_engine_copies = [this] {
    rings_.clear();
    return true;
  };
  // Reads go at their own offsets and come back in any order, which a
  // pipe, a terminal or a tape cannot take: then the copy is the sync
  // engine's, and the report says why.
  const Positioning input = positioning_of(request.kinds.input);
  if (!request.input_seekable || input == Positioning::kInOrder) {
    engine.fallback =
        request.input_seekable ? EngineUse::Fallback::kInputReadInOrder : EngineUse::Fallback::kInputCannotSeek;
    return sync_engine_copies();
  }
  queue.refill_short_reads = input == Positioning::kOrderFree;
  // Writes go at their own offsets only to a regular file or a block
  // device, and as they come to /dev/null, where order cannot show;
  // anything else (a pipe, a tape) takes them in record order, one at a
  // time, as O_APPEND does.
  // O_APPEND sends a regular file's writes to its end, so they go in
  // order at the file's own position; a block device has no end to append
  // at, and GNU's writes land one after another from where it stands.
  IoResult flags = request.os.get_status_flags(kOutputFd);
  const Positioning output = positioning_of(request.kinds.output);
  const bool block_device = request.kinds.output == FileKind::kBlock;
  queue.positional_output = output == Positioning::kPositional && request.os.lseek(kOutputFd, 0, SEEK_CUR).ok() &&
                            flags.ok() && ((flags.n & O_APPEND) == 0 || block_device);
  queue.order_free_output = output == Positioning::kOrderFree;
  if (engine_ == nullptr) engine_ = ring_engine_asked(request.plan.engine, engines_);
  if (!allocate_slots(request)) return false;
  // An engine opened with its slots (the threads engine: a worker per
  // slot, as more could never have a request).
  if (engine_->opens == RingEngine::Opens::kWithSlots &&
      !open_rings(request.events, request.plan, static_cast<unsigned>(slots_per_job_), engine)) {
    return false;
  }
  if (!open_targets(request)) return false;
  hand_out_lanes(request, queue);
  queue.setup_interrupted = engine.setup_interrupted;
  return true;
}

void QueueResources::hand_out_lanes(const Request& request, QueueSetup& queue) {
  // Job 0's ring alone registers the files: unregistering them (see
  // ~UringRing) must come from the ring's own thread, which for --jobs is
  // job 0's (run_part lets them go) and otherwise the calling thread,
  // which tears job 0's ring down.
  static constexpr int kFiles[] = {kInputFd, kOutputFd};
  rings_[0]->register_files(kFiles);
  // The buffers go to the kernel once every ring is set up: the kernel
  // counts both against RLIMIT_MEMLOCK for a process without
  // CAP_IPC_LOCK, and job 0's 4 MiB of buffers at depth 1024 left the
  // default 8 MiB room for 46 rings. A ring whose buffers do not fit
  // works with plain ones.
  const auto jobs = static_cast<unsigned>(rings_.size());  // fewer than asked after a SIGINT
  for (unsigned job = 0; job < jobs; ++job) rings_[job]->register_buffers(job_slots(job));
  for (unsigned job = 0; job < jobs; ++job) {
    // --pattern: the generator answers the input's reads, as PatternOs
    // does for the sync engine.
    if (request.generate_input) rings_[job] = request.generate_input(std::move(rings_[job]));
    lanes_.push_back({rings_[job].get(), job_slots(job)});
  }
  queue.ring = lanes_[0].ring;
  queue.slots = lanes_[0].slots;
  queue.lanes = lanes_;
  queue.generated_input = static_cast<bool>(request.generate_input);
}

RingCounters QueueResources::counters() const noexcept {
  RingCounters sum;
  for (const std::unique_ptr<Ring>& ring : rings_) {
    const RingCounters counters = ring->counters();
    sum.requests += counters.requests;
    sum.system_calls += counters.system_calls;
    sum.in_flight_sum += counters.in_flight_sum;
    sum.submissions += counters.submissions;
  }
  return sum;
}

void QueueResources::abandon() noexcept {
  lanes_.clear();
  // Still reachable, so that nothing is leaked: the signal takes them
  // with the process, or, should it ever exit instead, they are torn down
  // then as release() would.
  static std::vector<std::unique_ptr<Ring>> standing;
  for (std::unique_ptr<Ring>& ring : rings_) {
    if (ring->destroyed_at_once()) continue;
    try {
      standing.push_back(std::move(ring));
    } catch (...) {
      (void)ring.release();  // no memory to keep it by: left as it is
    }
  }
  rings_.clear();
  slots_.clear();
  slot_memory_ = AlignedBuffer();
}

void QueueResources::release() noexcept {
  lanes_.clear();
  // A Linux AIO context's io_destroy waits out an RCU grace period (32 ms
  // here): eight jobs' contexts, one after another, held the end of a run,
  // SIGINT's included, for a quarter of a second. Such rings of the other
  // jobs go together, each in a thread of its own; job 0's goes here, in
  // the calling thread, which submitted to it (or, for --jobs, after its
  // thread let the registered files go). Where no thread can be had, they go one after another below,
  // as io_uring's do, which return at once: 63 threads to close them took
  // 30 ms of a SIGINT's 75 at --jobs=64 --iodepth=1024.
  if (rings_.size() > 1 && !rings_[1]->destroyed_at_once()) {
    try {
      ThreadGroup teardown;
      teardown.start(static_cast<unsigned>(rings_.size() - 1), [this](unsigned i) { rings_[i + 1].reset(); });
      teardown.join();
    } catch (...) {
    }
  }
  rings_.clear();
  slots_.clear();
  slot_memory_ = AlignedBuffer();
}

}  // namespace ddtime
