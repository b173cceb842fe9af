// SPDX-License-Identifier: GPL-3.0-or-later
// report_json — the --json document: one run's operands, counters, times
// and outcome, in docs/ddtime.schema.json, written with the json writer (which
// owns the syntax). (Settings, stats, times) in, text out; whether and
// where it is written is the caller's decision.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "measure/record.h"
#include "model/environment_facts.h"
#include "report/json.h"

namespace ddtime {

// One run as a JSON object on one line, '\n'-terminated (--json), from
// its record: complete is false for a SIGUSR1 snapshot (pass kSnapshot) or
// a run stopped by a signal; the engine is there when the record shows it.
// Every key, its type and when it is null or absent: the "run" of
// docs/ddtime.schema.json (for people, docs/json.md), which the tests
// validate every document against; a key it does not name fails them.
std::string json_report(const RunRecord& run, const Environment& environment, std::string_view version = {});

// A session of runs (--repeat, --warmup, --sweep, --readback) as one
// document: the schema's "session". Its environment is the session's,
// once, with the first seeds its runs show; a SIGUSR1 snapshot lists the
// runs so far and no summary.
std::string json_session_report(const SessionRecord& session, const Environment& environment,
                                std::string_view version = {});

// A command refused before anything ran (a bad option, a conflict, a
// report path that aliases a data file), with --json on standard error,
// where JSON replaces all text, diagnostics included: the schema's "error",
// with "refused": true.
std::string json_refusal(std::span<const std::string> errors, const Environment& environment, std::string_view version);

// The document for a command that failed where nothing else could report
// it (an exception that unwound to main): as a refusal's, with
// "refused": false, since work may have been done.
std::string json_failure(std::span<const std::string> errors, const Environment& environment, std::string_view version);

// The same with no environment, made without the heap, for when memory
// is what failed: "memory exhausted".
std::string_view json_memory_exhausted() noexcept;

// text as a JSON string literal, quotes included. '"' and '\\' are
// escaped, control characters (and DEL) as \u00XX; valid UTF-8 passes
// through; any byte that is not part of a valid UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF included) becomes
// \ufffd, so a file name that is not UTF-8 still gives valid JSON, read
// back as plainly not the name given (operands then add its hex).
std::string json_quote(std::string_view text);

// One run of a session, or a pass (--readback's, --capacity=full's), as
// the "runs" of a session document have it: the schema's "session_run".
void put_session_run(json::Object& run, const RunRecord& source, std::string_view version);

// "signal": null (0), the signal's name ("SIGINT"), or its number as a
// string where it has no name; every document (run, session, profile).
void put_signal(json::Object& object, int signal);

// The version a document names: version, or the build's when empty.
std::string_view version_or_build(std::string_view version);

}  // namespace ddtime
