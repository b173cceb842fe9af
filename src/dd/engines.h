// SPDX-License-Identifier: GPL-3.0-or-later
// engines — the one entry point every copy goes through: the engine the
// session chose, behind run_copy(). Apart from engine.h, which the engines
// themselves include, so that the interface does not depend on them.
#pragma once

#include "dd/engine.h"

namespace ddtime {

// The session chose before the first read: a ring means the queued engine.
CopyResult run_copy(const CopyRequest& request);

}  // namespace ddtime
