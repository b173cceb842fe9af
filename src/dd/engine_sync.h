// SPDX-License-Identifier: GPL-3.0-or-later
// engine_sync — dd's copy one system call at a time, as GNU does it: skip=
// and seek=, then a loop of read_record() (read, count, pad, recover under
// conv=noerror) and a sink chosen once before the loop (a straight copy,
// reblocking to obs, or conversion), the final partial block, and the
// truncate a sparse output's trailing hole needs. Buffers are allocated
// and the sink chosen before the first read.
#pragma once

#include "dd/engine.h"

namespace ddtime {

CopyResult run_sync_copy(const CopyRequest& request);

}  // namespace ddtime
