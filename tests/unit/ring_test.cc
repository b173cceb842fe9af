// SPDX-License-Identifier: GPL-3.0-or-later
// The real rings on a real file: io_uring (skipped, saying why, where the
// kernel or a seccomp profile refuses it), the thread pool and Linux AIO
// (skipped where io_setup is refused), and AIO under O_DIRECT. Many reads
// in flight at their own offsets come back, in some order, with their
// tags; writes land where they were aimed; a pipe is read at its own
// position; errors come back as -errno.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "system/ring_registry.h"

namespace ddtime {
namespace {

constexpr unsigned kDepth = 8;
constexpr std::size_t kBlock = 4096;

// A temporary file holding kDepth * 4 blocks, each filled with its index.
class TempFile {
 public:
  TempFile() {
    std::string pattern = "/var/tmp/ddtime-ring.XXXXXX";
    fd_ = ::mkstemp(pattern.data());
    path_ = pattern;
    std::vector<unsigned char> block(kBlock);
    for (unsigned i = 0; i < kDepth * 4; ++i) {
      std::memset(block.data(), static_cast<int>(i), kBlock);
      if (::write(fd_, block.data(), kBlock) != static_cast<ssize_t>(kBlock)) std::abort();
    }
  }
  ~TempFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  std::string path_;
};

struct RingKind {
  enum Which { kUring, kThreads, kAio };
  const char* name;
  Which which;
};

class RealRing : public ::testing::TestWithParam<RingKind> {
 protected:
  void SetUp() override {
    buffers_.assign(kDepth, std::vector<unsigned char>(kBlock));
    std::vector<std::span<unsigned char>> spans;
    for (auto& buffer : buffers_) spans.emplace_back(buffer);
    if (GetParam().which == RingKind::kAio) {
      RingOpened opened = open_aio_ring(kDepth);
      if (!opened.ring) GTEST_SKIP() << "io_setup refused here: " << std::strerror(opened.err);
      ring_ = std::move(opened.ring);
    } else if (GetParam().which == RingKind::kUring) {
      if (!uring_built_in()) GTEST_SKIP() << "built without io_uring (DDTIME_WITH_URING=OFF)";
      RingOpened opened = open_uring(kDepth);
      if (!opened.ring) GTEST_SKIP() << "io_uring refused here: " << std::strerror(opened.err);
      ring_ = std::move(opened.ring);
      ring_->register_buffers(spans);
    } else {
      ring_ = open_thread_ring(kDepth).ring;
    }
  }

  // Waits for n completions in as many rounds as it takes.
  std::vector<RingCompletion> reap(unsigned n) {
    std::vector<RingCompletion> all;
    while (all.size() < n) {
      const int err = ring_->submit_and_wait(1);
      EXPECT_TRUE(err == 0 || err == EINTR) << std::strerror(err);
      for (const RingCompletion& c : ring_->completions()) all.push_back(c);
    }
    return all;
  }

  std::vector<std::vector<unsigned char>> buffers_;
  std::unique_ptr<Ring> ring_;
  TempFile file_;
};

TEST_P(RealRing, ReadsManyBlocksInFlightEachAtItsOwnOffset) {
  for (unsigned i = 0; i < kDepth; ++i) {
    const unsigned block = kDepth * 4 - 1 - i;  // backwards, to be sure offsets are honoured
    ring_->queue({i, RingRequest::Kind::kRead, file_.fd(), buffers_[i].data(), kBlock,
                  static_cast<std::int64_t>(block * kBlock), static_cast<int>(i)});
  }
  std::set<std::uint64_t> tags;
  for (const RingCompletion& c : reap(kDepth)) {
    EXPECT_EQ(c.result, static_cast<std::int64_t>(kBlock));
    tags.insert(c.tag);
    EXPECT_EQ(buffers_[c.tag][0], static_cast<unsigned char>(kDepth * 4 - 1 - c.tag));
    EXPECT_EQ(buffers_[c.tag][kBlock - 1], static_cast<unsigned char>(kDepth * 4 - 1 - c.tag));
  }
  EXPECT_EQ(tags.size(), kDepth);
  EXPECT_EQ(ring_->counters().requests, kDepth);
}

TEST_P(RealRing, WritesLandWhereTheyWereAimed) {
  for (unsigned i = 0; i < kDepth; ++i) {
    std::memset(buffers_[i].data(), 0xA0 + static_cast<int>(i), kBlock);
    ring_->queue({i, RingRequest::Kind::kWrite, file_.fd(), buffers_[i].data(), kBlock,
                  static_cast<std::int64_t>(i * kBlock), static_cast<int>(i)});
  }
  for (const RingCompletion& c : reap(kDepth)) EXPECT_EQ(c.result, static_cast<std::int64_t>(kBlock));
  std::vector<unsigned char> check(kBlock);
  for (unsigned i = 0; i < kDepth; ++i) {
    ASSERT_EQ(::pread(file_.fd(), check.data(), kBlock, static_cast<off_t>(i * kBlock)), static_cast<ssize_t>(kBlock));
    EXPECT_EQ(check[17], 0xA0 + i);
  }
}

TEST_P(RealRing, AReadPastTheEndReturnsZeroAndAShortOneItsBytes) {
  const auto end = static_cast<std::int64_t>(kDepth * 4 * kBlock);
  ring_->queue({1, RingRequest::Kind::kRead, file_.fd(), buffers_[0].data(), kBlock, end, 0});
  ring_->queue({2, RingRequest::Kind::kRead, file_.fd(), buffers_[1].data(), kBlock, end - 100, 1});
  for (const RingCompletion& c : reap(2)) EXPECT_EQ(c.result, c.tag == 1 ? 0 : 100);
}

TEST_P(RealRing, ErrorsComeBackAsNegativeErrno) {
  ring_->queue({7, RingRequest::Kind::kRead, 999, buffers_[0].data(), kBlock, 0, -1});
  std::vector<RingCompletion> done = reap(1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].tag, 7u);
  EXPECT_EQ(done[0].result, -EBADF);
}

TEST_P(RealRing, APipeIsReadAtItsOwnPosition) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  ASSERT_EQ(::write(pipe_fds[1], "abcdef", 6), 6);
  ring_->queue({3, RingRequest::Kind::kRead, pipe_fds[0], buffers_[0].data(), 3, -1, -1});
  std::vector<RingCompletion> done = reap(1);
  ring_->queue({4, RingRequest::Kind::kRead, pipe_fds[0], buffers_[1].data(), 3, -1, -1});
  std::vector<RingCompletion> next = reap(1);
  EXPECT_EQ(done[0].result, 3);
  EXPECT_EQ(next[0].result, 3);
  EXPECT_EQ(std::string(buffers_[0].begin(), buffers_[0].begin() + 3), "abc");
  EXPECT_EQ(std::string(buffers_[1].begin(), buffers_[1].begin() + 3), "def");
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

// io_uring submits and reaps a batch in one system call, Linux AIO in one
// io_submit and one io_getevents; the thread pool makes one pread per
// request, and says so.
TEST_P(RealRing, CountsTheSystemCallsItTakes) {
  for (unsigned round = 0; round < 4; ++round) {
    for (unsigned i = 0; i < kDepth; ++i) {
      ring_->queue({i, RingRequest::Kind::kRead, file_.fd(), buffers_[i].data(), kBlock,
                    static_cast<std::int64_t>(i * kBlock), static_cast<int>(i)});
    }
    reap(kDepth);
  }
  const RingCounters counters = ring_->counters();
  EXPECT_EQ(counters.requests, 4 * kDepth);
  if (GetParam().which != RingKind::kThreads) {
    EXPECT_LT(counters.system_calls, counters.requests / 2);
  } else {
    EXPECT_EQ(counters.system_calls, counters.requests);
  }
}

INSTANTIATE_TEST_SUITE_P(Rings, RealRing,
                         ::testing::Values(RingKind{"IoUring", RingKind::kUring},
                                           RingKind{"Threads", RingKind::kThreads},
                                           RingKind{"LinuxAio", RingKind::kAio}),
                         [](const ::testing::TestParamInfo<RingKind>& kind) { return kind.param.name; });

// Registered files (issue 28, P3): a request on a registered descriptor
// goes by its slot in the ring's file table, one on any other descriptor
// as it is; both land where they were aimed, and the set-up says so.
TEST(IoUringRing, ReadsThroughRegisteredFilesAndPlainDescriptorsAlike) {
  if (!uring_built_in()) GTEST_SKIP() << "built without io_uring (DDTIME_WITH_URING=OFF)";
  TempFile registered;
  TempFile plain;
  std::vector<std::vector<unsigned char>> buffers(2, std::vector<unsigned char>(kBlock));
  std::vector<std::span<unsigned char>> spans(buffers.begin(), buffers.end());
  const int files[] = {registered.fd()};
  RingOpened opened = open_uring(kDepth);
  if (!opened.ring) GTEST_SKIP() << "io_uring refused here: " << std::strerror(opened.err);
  Ring& ring = *opened.ring;
  EXPECT_TRUE(ring.register_files(files));
  EXPECT_TRUE(ring.register_buffers(spans));
  EXPECT_TRUE(ring.setup().registered_files);
  ring.queue({1, RingRequest::Kind::kRead, registered.fd(), buffers[0].data(), kBlock, 5 * kBlock, 0});
  ring.queue({2, RingRequest::Kind::kRead, plain.fd(), buffers[1].data(), kBlock, 9 * kBlock, 1});
  unsigned done = 0;
  while (done < 2) {
    ASSERT_EQ(ring.submit_and_wait(1), 0);
    for (const RingCompletion& c : ring.completions()) {
      EXPECT_EQ(c.result, static_cast<std::int64_t>(kBlock)) << c.tag;
      ++done;
    }
  }
  EXPECT_EQ(buffers[0][0], 5);
  EXPECT_EQ(buffers[1][kBlock - 1], 9);
}

// Under O_DIRECT (where the file system has it), with aligned buffers,
// Linux AIO reads a whole batch at its own offsets, and the batch takes
// one io_submit and at most a few io_getevents.
TEST(LinuxAioRing, ReadsABatchUnderODirectInFewSystemCalls) {
  const TempFile file;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/fd/%d", file.fd());
  const int fd = ::open(path, O_RDONLY | O_DIRECT);
  if (fd < 0) GTEST_SKIP() << "no O_DIRECT here: " << std::strerror(errno);
  RingOpened opened = open_aio_ring(kDepth);
  if (!opened.ring) {
    ::close(fd);
    GTEST_SKIP() << "io_setup refused here: " << std::strerror(opened.err);
  }
  EXPECT_STREQ(opened.ring->name(), "libaio");
  auto* memory = static_cast<unsigned char*>(std::aligned_alloc(kBlock, kBlock * kDepth));
  for (unsigned i = 0; i < kDepth; ++i) {
    opened.ring->queue({i, RingRequest::Kind::kRead, fd, memory + i * kBlock, kBlock,
                        static_cast<std::int64_t>((2 * i + 1) * kBlock), -1});
  }
  unsigned seen = 0;
  while (seen < kDepth) {
    const int err = opened.ring->submit_and_wait(kDepth - seen);
    ASSERT_TRUE(err == 0 || err == EINTR) << std::strerror(err);
    for (const RingCompletion& c : opened.ring->completions()) {
      EXPECT_EQ(c.result, static_cast<std::int64_t>(kBlock));
      EXPECT_EQ(memory[c.tag * kBlock + 9], static_cast<unsigned char>(2 * c.tag + 1));
      ++seen;
    }
  }
  EXPECT_LE(opened.ring->counters().system_calls, 3u);
  std::free(memory);
  ::close(fd);
}

}  // namespace
}  // namespace ddtime

namespace ddtime {
namespace {

TEST(RingRegistry, EveryRowIsFoundByItsChoiceAndByItsWordAndNoWordIsTwice) {
  for (const RingEngine& engine : kRingEngines) {
    EXPECT_EQ(find_ring_engine(engine.choice), &engine) << engine.word.view();
    EXPECT_EQ(find_ring_engine(engine.word.view()), &engine) << engine.word.view();
  }
  EXPECT_EQ(find_ring_engine(EngineChoice::kAuto), nullptr);
  EXPECT_EQ(find_ring_engine(EngineChoice::kSync), nullptr);
  EXPECT_EQ(find_ring_engine(std::string_view("auto")), nullptr);
}

TEST(RingRegistry, AutoPicksIoUringAndFallsBackToTheThreadsEngine) {
  const RingEngine* picked = ring_engine_asked(EngineChoice::kAuto);
  ASSERT_NE(picked, nullptr);
  EXPECT_EQ(picked->choice, EngineChoice::kIoUring);
  EXPECT_EQ(picked->refused_falls_back_to, EngineChoice::kThreads);
  EXPECT_EQ(ring_engine_asked(EngineChoice::kLibaio)->choice, EngineChoice::kLibaio);
  EXPECT_EQ(ring_engine_asked(EngineChoice::kSync), nullptr);
}

TEST(RingRegistry, EachRingItOpensCallsItselfByItsRowsWord) {
  for (const RingEngine& engine : kRingEngines) {
    RingOpened opened = engine.open(kDepth, false);
    if (!opened.ring) continue;  // refused here: said by the tests above
    EXPECT_EQ(std::string_view(opened.ring->name()), engine.word.view());
  }
}

TEST(RingRegistry, ARingHasNoMemoryOfItsOwnAndUsesTheCoresDescriptorsByDefault) {
  RingOpened opened = open_thread_ring(1);
  ASSERT_NE(opened.ring, nullptr);
  EXPECT_TRUE(opened.ring->own_memory(4096, 4096).empty());
  EXPECT_EQ(opened.ring->open_target(0, "in"), 0);
  EXPECT_EQ(opened.ring->open_target(1, nullptr), 0);
}

}  // namespace
}  // namespace ddtime
