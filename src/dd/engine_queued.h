// SPDX-License-Identifier: GPL-3.0-or-later
// engine_queued — dd's straight copy (bs=, no conversions) with up to
// depth reads and writes in flight over a Ring: each record is read at its
// own offset (the input's position after skip=, plus its index times bs)
// and written at the output's (after seek=), or in record order at the
// output's own position when it cannot take positioned writes (a pipe,
// oflag=append). Completions come in any order; records are counted, and
// an error or the end of input is acted on, in record order, so that the
// records lines, the exit status and the messages are the sync engine's.
// The final partial block goes through io's Writer, as in the sync engine.
#pragma once

#include "dd/engine.h"

namespace ddtime {

// Requires: job.queue.ring and job.queue.slots set, the input seekable, the
// settings a straight copy (no conversion, sync, noerror, sparse, nocache).
CopyResult run_queued_copy(const CopyJob& job);

}  // namespace ddtime
