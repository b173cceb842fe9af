// SPDX-License-Identifier: GPL-3.0-or-later
// messages: the words of what a run met. Here the block device's blocks
// written out of order after an error (issue 28, rule 2): how many, of
// what size, which, and where one copy in turn would have stopped.
#include "report/messages.h"

#include <gtest/gtest.h>

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
            "ddtime: '/dev/loop7' keeps 5 blocks of 4096 bytes written out of order (blocks 3 to 7), past block 2, "
            "where one copy in turn would have stopped\n");
}

TEST(Messages, OneBlockWrittenOutOfOrderIsNamedAlone) {
  EXPECT_EQ(said_of({.stop_block = 0, .blocks = 1, .first_block = 9, .last_block = 9, .block_size = 512}),
            "ddtime: '/dev/loop7' keeps 1 block of 512 bytes written out of order (block 9), past block 0, "
            "where one copy in turn would have stopped\n");
}

}  // namespace
}  // namespace ddtime
