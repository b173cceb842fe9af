// SPDX-License-Identifier: GPL-3.0-or-later
// json_corpus — keeps every JSON document ddtime writes in an end-to-end
// test, one file each, in the directory $DDTIME_JSON_CORPUS names, for
// tests/schema/validate_corpus.py to validate against
// docs/ddtime.schema.json once the suite has run. Without the variable it
// does nothing; it never fails a test.
#pragma once

#include "e2e/harness.h"

namespace ddtime::e2e {

// The documents of one finished process: standard error's lines under a
// bare --json, standard output's under --compare, and each --json=PATH's
// file (relative to options.cwd) that is there.
void keep_json_documents(const Options& options, const Result& result);

}  // namespace ddtime::e2e
