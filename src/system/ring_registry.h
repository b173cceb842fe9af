// SPDX-License-Identifier: GPL-3.0-or-later
// ring_registry — the one table of the queued engines: a row per ring,
// with the word --engine= takes, how its ring is opened, whether
// --engine=auto may pick it and what copies when that pick is refused,
// and the notices that say it could not be had. The queue's set-up
// iterates it, the command line reads its words and the report its
// flags. A new engine is four files: its ring's, a row here, its
// EngineChoice value (plan.h) and its case in report_run's engine_setup
// (the words of its RingSetup, which has one count for every engine);
// its refusal is worded from its row's word, unless it has words of its
// own.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "model/events.h"
#include "model/plan.h"
#include "model/symbols.h"
#include "system/ring.h"

namespace ddtime {

// Each engine's ring of depth entries, or the errno that refused it.
// for_another_thread: the ring starts disabled, for start_in_this_thread
// (io_uring's single issuer; the others have nothing to enable).
//
// An io_uring, its completion queue sized to the depth, with the
// cooperative, single-issuer and deferred task-run flags dropped one by
// one while the kernel refuses them. ENOSYS: no io_uring in the kernel,
// or built without it; EPERM: a seccomp profile, kernel.io_uring_disabled;
// ENOMEM: on recent kernels (6.18 here) the ring's own memory counts
// against RLIMIT_MEMLOCK, as registered buffers always have, for a
// process without CAP_IPC_LOCK.
RingOpened open_uring(unsigned depth, bool for_another_thread = false);
// Whether this build has the io_uring ring at all.
bool uring_built_in() noexcept;
// depth threads, each making one pread or pwrite at a time (EAGAIN: no
// more threads).
RingOpened open_thread_ring(unsigned depth, bool for_another_thread = false);
// A Linux AIO context (io_setup). EAGAIN: past fs.aio-max-nr; ENOSYS: no
// AIO in the kernel.
RingOpened open_aio_ring(unsigned depth, bool for_another_thread = false);

struct RingEngine {
  // When the queue's set-up opens an engine's rings. Before any file: a
  // kernel ring, which a limit the kernel holds it to (RLIMIT_MEMLOCK,
  // fs.aio-max-nr) refuses with every file as it was; its depth is
  // --iodepth. With the slots: one that needs them to exist first, a
  // worker per slot (no more could ever have a request); its depth is
  // the slots' count.
  enum class Opens : std::uint8_t { kBeforeFiles, kWithSlots };

  EngineChoice choice;
  InlineText<9> word;  // what --engine= takes, and what the ring's name() says
  RingOpened (*open)(unsigned depth, bool for_another_thread);
  Opens opens;
  // --engine=auto's pick for a queue: the first row that says so.
  bool auto_picks;
  // What copies when auto's pick is refused for the first job (the
  // report says why); its own choice: nothing, the run ends. Asked for
  // by name, an engine that is refused ends the run.
  EngineChoice refused_falls_back_to;
  // Refused for the first job, or for any where later has no notice of
  // its own (value: --iodepth). None: the engine has no words of its
  // own, and Notice::kEngineUnavailable (value: its choice) names it.
  std::optional<Notice> unavailable;
  // Refused for a later job, once the first's was set up (value: the
  // jobs set up). The jobs cannot share one engine, so this ends the run.
  std::optional<Notice> later_unavailable;
  // The report's engine line names the ring's setup ("8 threads").
  bool setup_in_report;
};

inline constexpr RingEngine kRingEngines[] = {
    {EngineChoice::kIoUring, "io_uring", open_uring, RingEngine::Opens::kBeforeFiles, true, EngineChoice::kThreads,
     Notice::kUringUnavailable, Notice::kUringRingsExhausted, false},
    {EngineChoice::kThreads, "threads", open_thread_ring, RingEngine::Opens::kWithSlots, false, EngineChoice::kThreads,
     Notice::kThreadsUnavailable, std::nullopt, true},
    {EngineChoice::kLibaio, "libaio", open_aio_ring, RingEngine::Opens::kBeforeFiles, false, EngineChoice::kLibaio,
     std::nullopt, std::nullopt, false},
};

// The lookups take the table, so that a test can hand the queue's set-up
// one of its own (a fake engine's row).
using RingEngines = std::span<const RingEngine>;

// The row of a queued engine; null for auto and sync, which are no ring.
constexpr const RingEngine* find_ring_engine(EngineChoice choice, RingEngines engines = kRingEngines) noexcept {
  for (const RingEngine& engine : engines) {
    if (engine.choice == choice) return &engine;
  }
  return nullptr;
}

// The row whose word is word; null for any other.
constexpr const RingEngine* find_ring_engine(std::string_view word, RingEngines engines = kRingEngines) noexcept {
  for (const RingEngine& engine : engines) {
    if (engine.word.view() == word) return &engine;
  }
  return nullptr;
}

// The word of an engine (what --engine= takes, and what the report and
// the JSON name it by): its row's, or auto's and sync's, which are no ring.
constexpr std::string_view engine_word(EngineChoice choice, RingEngines engines = kRingEngines) noexcept {
  if (const RingEngine* engine = find_ring_engine(choice, engines)) return engine->word.view();
  for (const EngineSymbol& symbol : kEngineSymbols) {
    if (symbol.engine == choice) return symbol.name.view();
  }
  return {};
}

// The engine a queue asked for with choice runs first: auto's pick, or
// the one named; null for sync.
constexpr const RingEngine* ring_engine_asked(EngineChoice choice, RingEngines engines = kRingEngines) noexcept {
  if (choice != EngineChoice::kAuto) return find_ring_engine(choice, engines);
  for (const RingEngine& engine : engines) {
    if (engine.auto_picks) return &engine;
  }
  return nullptr;
}

}  // namespace ddtime
