// SPDX-License-Identifier: GPL-3.0-or-later
// messages: the words of what a run met. Here the block device's blocks
// written out of order after an error (issue 28, rule 2): how many, of
// what size, which, and where one copy in turn would have stopped; and a
// later job's io_uring refused (rule 3).
#include "report/messages.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <string>

namespace ddtime {
namespace {

// What the message says for blocks written to /dev/loop7.
std::string said_of(const WrittenOutOfOrder& blocks) {
  std::string err;
  const Diag diag{"ddtime", false, [&err](std::string_view text) { err.append(text); }};
  Settings settings;
  settings.output_file = "/dev/loop7";
  Messages(diag, settings).written_out_of_order(blocks);
  return err;
}

TEST(Messages, ABlockDeviceSaysWhichBlocksItKeepsWrittenOutOfOrder) {
  EXPECT_EQ(said_of({.stop_block = 2, .blocks = 5, .first_block = 3, .last_block = 7, .block_size = 4096}),
            "ddtime: '/dev/loop7' holds the copy in turn before block 2 and 5 blocks of 4096 B written out of "
            "order past it (blocks 3 to 7)\n");
}

TEST(Messages, OneBlockWrittenOutOfOrderIsNamedAlone) {
  EXPECT_EQ(said_of({.stop_block = 0, .blocks = 1, .first_block = 9, .last_block = 9, .block_size = 512}),
            "ddtime: '/dev/loop7' holds the copy in turn before block 0 and 1 block of 512 B written out of order "
            "past it (block 9)\n");
}

// What the message says for a notice.
std::string said_of(Notice what, int err, std::int64_t value) {
  std::string said;
  const Diag diag{"ddtime", false, [&said](std::string_view text) { said.append(text); }};
  Settings settings;
  Messages(diag, settings).notice(what, Side::kInput, err, value);
  return said;
}

// A later job's io_uring refused for RLIMIT_MEMLOCK: the limit the user
// can change is named, with the two options that use less of it.
TEST(Messages, RingsPastTheLockedMemoryLimitNameTheLimitAndWhatUsesLess) {
  EXPECT_EQ(said_of(Notice::kUringRingsExhausted, ENOMEM, 37),
            "ddtime: io_uring set up the rings of 37 jobs, then refused the next (Cannot allocate memory): every ring "
            "counts against the locked-memory limit (ulimit -l); give fewer --jobs or a lower --iodepth\n");
}

TEST(Messages, ARingRefusedForAnotherReasonSaysThatReasonAlone) {
  EXPECT_EQ(said_of(Notice::kUringRingsExhausted, EAGAIN, 3),
            "ddtime: io_uring set up the rings of 3 jobs, then refused the next: Resource temporarily unavailable\n");
}

// An engine with no refusal words of its own (a new one, or libaio) is
// named by the word --engine= took.
TEST(Messages, AnEngineWithoutWordsOfItsOwnIsNamedByItsWord) {
  EXPECT_EQ(said_of(Notice::kEngineUnavailable, EAGAIN, static_cast<std::int64_t>(EngineChoice::kLibaio)),
            "ddtime: --engine=libaio: cannot set up the engine: Resource temporarily unavailable\n");
}

}  // namespace
}  // namespace ddtime
