// SPDX-License-Identifier: GPL-3.0-or-later
// The queued engine's set-up over an engine table of the test's own:
// which row copies (auto's pick, its fallback when refused, the one
// named), what is said when a ring is refused, and the two hooks an
// engine unlike the kernel's rings needs, memory of its own and targets
// it reaches itself, each called before the copy and unused by default.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dd/engine_queued.h"
#include "fakes/fake_os.h"
#include "fakes/recording_events.h"
#include "system/buffer.h"
#include "system/signals.h"

namespace ddtime {
namespace {

using testing::FakeOs;
using testing::kinds_of;
using testing::RecordingEvents;

constexpr std::int64_t kBlock = 4096;
constexpr std::size_t kAlignment = 4096;

// What the scripted engines' rings do, set by each test.
struct Script {
  std::size_t calls = 0;             // opens tried, either engine's
  int refuse_first = 0;              // the first open tried fails with this errno
  unsigned refuse_from_job = 99;     // rings from this one on are refused (EAGAIN)
  AlignedBuffer* memory = nullptr;   // the rings' own memory; null: none
  int target_err = 0;                // open_target fails for fd 1 with this
  std::vector<std::string> opened;   // "kernel 4", "slots 2": which engine, at what depth
  std::vector<std::string> targets;  // "0 in.img", "1 -"
  bool at_once = false;              // the rings say they are torn down at once
  std::size_t torn_down = 0;         // rings destroyed
};
Script script;

class ScriptedRing final : public Ring {
 public:
  explicit ScriptedRing(unsigned depth) : depth_(depth) {}
  ~ScriptedRing() override { ++script.torn_down; }
  bool destroyed_at_once() const noexcept override { return script.at_once; }
  const char* name() const noexcept override { return "scripted"; }
  unsigned depth() const noexcept override { return depth_; }
  unsigned worker_threads() const noexcept override { return 0; }
  RingSetup setup() const noexcept override { return {}; }
  void queue(const RingRequest&) noexcept override {}
  int submit_and_wait(unsigned) noexcept override { return 0; }
  std::span<const RingCompletion> completions() const noexcept override { return {}; }
  RingCounters counters() const noexcept override { return {}; }
  std::span<unsigned char> own_memory(std::size_t bytes, std::size_t) noexcept override {
    if (script.memory == nullptr || script.memory->span().size() < bytes) return {};
    return script.memory->span().first(bytes);
  }
  int open_target(int fd, const char* path) noexcept override {
    script.targets.push_back(std::to_string(fd) + " " + (path != nullptr ? path : "-"));
    return fd == 1 ? script.target_err : 0;
  }

 private:
  unsigned depth_;
};

RingOpened open_scripted(const char* what, unsigned depth) {
  const std::size_t call = script.calls++;
  if (call == 0 && script.refuse_first != 0) return {nullptr, script.refuse_first};
  if (script.opened.size() >= script.refuse_from_job) return {nullptr, EAGAIN};
  script.opened.push_back(std::string(what) + " " + std::to_string(depth));
  return {std::make_unique<ScriptedRing>(depth), 0};
}

RingOpened open_kernel_like(unsigned depth, bool /*for_another_thread*/) { return open_scripted("kernel", depth); }
RingOpened open_with_slots(unsigned depth, bool /*for_another_thread*/) { return open_scripted("slots", depth); }

// A kernel-like engine that auto picks and that falls back to one opened
// with its slots, as io_uring and the threads engine are.
constexpr RingEngine kEngines[] = {
    {EngineChoice::kIoUring, "kernel", open_kernel_like, RingEngine::Opens::kBeforeFiles, true, EngineChoice::kThreads,
     Notice::kUringUnavailable, Notice::kUringRingsExhausted, false},
    {EngineChoice::kThreads, "slots", open_with_slots, RingEngine::Opens::kWithSlots, false, EngineChoice::kThreads,
     Notice::kThreadsUnavailable, std::nullopt, true},
};

class QueueSetUp : public ::testing::Test {
 protected:
  QueueSetUp() {
    script = {};
    os_.input.assign(16 * kBlock, 'x');
    settings_.ibs = settings_.obs = kBlock;
    plan_.iodepth = 4;
    plan_.iodepth_given = true;
  }

  // The rings before the files, then the rest; false where either refused.
  bool set_up() {
    if (!resources_.open_kernel_rings(os_, plan_, events_, engine_)) return false;
    const QueueResources::Request request{os_, events_, settings_, kinds_of(os_), plan_, true, kAlignment, {}};
    return resources_.set_up(request, engine_, queue_);
  }

  FakeOs os_;
  RecordingEvents events_;
  Settings settings_;
  Plan plan_;
  EngineUse engine_;
  QueueSetup queue_;
  QueueResources resources_{kEngines};
};

// A SIGINT's copy ends with the process: a ring whose teardown waits (the
// threads engine joins each worker) is left standing for the signal, and
// one torn down at once goes as ever.
TEST_F(QueueSetUp, AfterASigintOnlyRingsTornDownAtOnceGoAndTheQueueIsEmpty) {
  plan_.jobs = 3;
  ASSERT_TRUE(set_up());
  resources_.abandon();
  EXPECT_EQ(script.torn_down, 0u);
  EXPECT_EQ(resources_.ring(), nullptr);

  script.at_once = true;
  QueueResources at_once{kEngines};
  ASSERT_TRUE(at_once.open_kernel_rings(os_, plan_, events_, engine_));
  const QueueResources::Request request{os_, events_, settings_, kinds_of(os_), plan_, true, kAlignment, {}};
  ASSERT_TRUE(at_once.set_up(request, engine_, queue_));
  at_once.abandon();
  EXPECT_EQ(script.torn_down, 3u);
  EXPECT_EQ(at_once.ring(), nullptr);
}

// A SIGINT while the jobs' rings start (the threads engine's thousands of
// workers): no more rings; job 0 alone is handed out, and the set-up says
// it was cut short, so that the signal ends the run as promptly as ever.
TEST_F(QueueSetUp, ASigintDuringTheRingsSetUpOpensNoMoreAndHandsOutTheJobsSetUp) {
  plan_.jobs = 3;
  plan_.engine = EngineChoice::kThreads;
  signals_internal::any_pending = 1;
  const bool set = set_up();
  signals_internal::any_pending = 0;
  ASSERT_TRUE(set);
  EXPECT_EQ(script.opened, std::vector<std::string>{"slots 4"});
  EXPECT_TRUE(engine_.setup_interrupted);
  EXPECT_TRUE(queue_.setup_interrupted);
  EXPECT_EQ(queue_.lanes.size(), 1u);
}

TEST_F(QueueSetUp, AutoTakesThePickingRowBeforeAnyFileAtTheDepthAsked) {
  ASSERT_TRUE(set_up());
  EXPECT_EQ(script.opened, std::vector<std::string>{"kernel 4"});
  EXPECT_EQ(engine_.fallback, EngineUse::Fallback::kNone);
  ASSERT_NE(queue_.ring, nullptr);
  EXPECT_EQ(queue_.slots.size(), 4u);
}

TEST_F(QueueSetUp, AutosPickRefusedGivesWayToItsFallbackAndTheReportNamesIt) {
  script.refuse_first = ENOSYS;
  ASSERT_TRUE(set_up());
  // The fallback opens with the slots, at their count.
  EXPECT_EQ(script.opened, std::vector<std::string>{"slots 4"});
  EXPECT_EQ(engine_.fallback, EngineUse::Fallback::kEngineRefused);
  EXPECT_EQ(engine_.refused, EngineChoice::kIoUring);
  EXPECT_EQ(engine_.fallback_err, ENOSYS);
  EXPECT_TRUE(events_.notices.empty());
}

TEST_F(QueueSetUp, AnEngineNamedAndRefusedEndsTheSetUpWithItsNotice) {
  plan_.engine = EngineChoice::kIoUring;
  script.refuse_first = EPERM;
  EXPECT_FALSE(set_up());
  ASSERT_EQ(events_.notices.size(), 1u);
  EXPECT_EQ(events_.notices[0].what, Notice::kUringUnavailable);
  EXPECT_EQ(events_.notices[0].err, EPERM);
}

// A row without a notice of its own (libaio's, a new engine's): the
// refusal names the engine, for the words to take its row's word.
TEST_F(QueueSetUp, AnEngineWithoutANoticeOfItsOwnIsNamedInTheGeneralOne) {
  constexpr RingEngine kWordless[] = {{EngineChoice::kLibaio, "kernel", open_kernel_like,
                                       RingEngine::Opens::kBeforeFiles, false, EngineChoice::kLibaio, std::nullopt,
                                       std::nullopt, false}};
  QueueResources wordless{kWordless};
  plan_.engine = EngineChoice::kLibaio;
  script.refuse_first = EAGAIN;
  EXPECT_FALSE(wordless.open_kernel_rings(os_, plan_, events_, engine_));
  ASSERT_EQ(events_.notices.size(), 1u);
  EXPECT_EQ(events_.notices[0].what, Notice::kEngineUnavailable);
  EXPECT_EQ(events_.notices[0].value, static_cast<std::int64_t>(EngineChoice::kLibaio));
  EXPECT_EQ(events_.notices[0].err, EAGAIN);
}

TEST_F(QueueSetUp, ALaterJobRefusedSaysHowManyJobsWereSetUp) {
  plan_.jobs = 3;
  script.refuse_from_job = 2;
  EXPECT_FALSE(set_up());
  ASSERT_EQ(events_.notices.size(), 1u);
  EXPECT_EQ(events_.notices[0].what, Notice::kUringRingsExhausted);
  EXPECT_EQ(events_.notices[0].value, 2);
}

TEST_F(QueueSetUp, WithoutMemoryOfTheRingsOwnTheSlotsAreTheCores) {
  AlignedBuffer ring_memory;
  ASSERT_TRUE(ring_memory.allocate(4 * kBlock, kAlignment));
  ASSERT_TRUE(set_up());
  const unsigned char* first = queue_.slots[0].data();
  EXPECT_FALSE(first >= ring_memory.span().data() && first < ring_memory.span().data() + 4 * kBlock);
}

TEST_F(QueueSetUp, SlotsLieInTheRingsOwnMemoryWhereItHasSome) {
  AlignedBuffer ring_memory;
  ASSERT_TRUE(ring_memory.allocate(4 * kBlock, kAlignment));
  script.memory = &ring_memory;
  ASSERT_TRUE(set_up());
  ASSERT_EQ(queue_.slots.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(queue_.slots[i].data(), ring_memory.span().data() + i * kBlock);
    EXPECT_EQ(queue_.slots[i].size(), static_cast<std::size_t>(kBlock));
  }
}

TEST_F(QueueSetUp, EveryRingIsToldEachTargetsPathOrThatItIsAStandardStream) {
  settings_.input_file = "in.img";
  plan_.jobs = 2;
  ASSERT_TRUE(set_up());
  EXPECT_EQ(script.targets, (std::vector<std::string>{"0 in.img", "1 -", "0 in.img", "1 -"}));
}

TEST_F(QueueSetUp, ATargetARingCannotReachEndsTheSetUpAsAFailedOpen) {
  script.target_err = ENODEV;
  EXPECT_FALSE(set_up());
  ASSERT_EQ(events_.notices.size(), 1u);
  EXPECT_EQ(events_.notices[0].what, Notice::kOpenFailed);
  EXPECT_EQ(events_.notices[0].err, ENODEV);
}

}  // namespace
}  // namespace ddtime
