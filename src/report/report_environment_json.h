// SPDX-License-Identifier: GPL-3.0-or-later
// report_environment_json — the "environment" object every JSON document
// carries (issue 22), so that documents from two machines can be compared
// leaf by leaf. Its keys and their types are a contract with
// `ddtime --compare`: more may come, none is renamed. What the system did
// not tell is null.
#pragma once

#include <cstdint>
#include <string>

#include "model/environment_facts.h"
#include "report/json.h"

namespace ddtime {

//   "environment": {"host": "name", "kernel": {"name": "Linux", "release": "6.1.0-28-amd64",
//      "version": "#1 SMP ...", "machine": "x86_64"} | null,
//    "cpu": {"model": "..." | null, "logical_cpus": 2 | null}, "memory_bytes": 25200000000 | null,
//    "ddtime_version": "0.1.0", "command_line": ["ddtime", "if=in", ...],
//    "date": "2026-12-02T22:38:22Z" | null,
//    "files": {"input": FILE | null, "output": FILE | null},
//    "seeds": {"random": 1234 | null, "pattern": 5678 | null}}
//   FILE: {"path": "in", "filesystem": "ext4" | null, "device": {"name": "loop0",
//      "model": null, "firmware": null, "rotational": false, "logical_block_size": 512,
//      "scheduler": "none", "size_bytes": 1073741824, "write_cache": "write back",
//      "backing_file": "/var/tmp/disk1.img" (a loop device's; else null)} | null}
void put_environment(json::Object object, const Environment& environment);

// seconds since the epoch as ISO 8601 in UTC: "2026-12-02T22:38:22Z".
std::string utc_date(std::int64_t seconds);

}  // namespace ddtime
