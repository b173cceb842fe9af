// SPDX-License-Identifier: GPL-3.0-or-later
// ending — how a step of a copy (positioning at skip= or seek=) or a whole
// copy ended, in GNU dd's terms: one vocabulary from io_position up to the
// driver, so that nothing translates between two.
#pragma once

namespace ddtime {

enum class Ending {
  kFinished,     // done: a step goes on to the next; a copy flushes, drops caches, closes, reports
  kQuit,         // GNU's quit(1): the message is out; flush, close, statistics, exit with the status
  kDie,          // GNU's die(): the message is out; exit with the status, no statistics
  kInterrupted,  // a signal asked the run to stop: close, statistics, then die by it
};

}  // namespace ddtime
