// SPDX-License-Identifier: GPL-3.0-or-later
// environment_facts — what comparing two machines' documents needs to know
// about the machine, the program and the files, as plain values (issue 22).
// measure/environment gathers them; report_environment_json writes them.
// An absent value is one the system would not tell: it is written as null.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddtime {

// uname(2)'s fields, as the kernel gives them.
struct KernelFacts {
  std::string name = {};     // sysname: "Linux"
  std::string release = {};  // "6.1.0-28-amd64"
  std::string version = {};  // "#1 SMP PREEMPT_DYNAMIC ..."
  std::string machine = {};  // "x86_64"
};

// The whole disk a file lives on (a partition's parent), from sysfs.
struct DeviceFacts {
  std::string name = {};                                          // "nvme0n1", "sda", "loop0"
  std::optional<std::string> model = std::nullopt;                // device/model, spaces trimmed
  std::optional<std::string> firmware = std::nullopt;             // device/firmware_rev (NVMe) or device/rev (SCSI)
  std::optional<bool> rotational = std::nullopt;                  // queue/rotational
  std::optional<std::int64_t> logical_block_size = std::nullopt;  // queue/logical_block_size
  std::optional<std::string> scheduler = std::nullopt;            // queue/scheduler's bracketed word
  std::optional<std::int64_t> size_bytes = std::nullopt;          // size (512-byte sectors) in bytes
  std::optional<std::string> write_cache = std::nullopt;          // queue/write_cache: "write back", "write through"
  std::optional<std::string> backing_file = std::nullopt;         // a loop device's loop/backing_file
};

// One of the run's files: where it lives. filesystem and device are null
// for what lives on no disk (a pipe, /dev/null, tmpfs has no device).
struct FileFacts {
  std::string path = {};                                 // as given on the command line
  std::optional<std::string> filesystem = std::nullopt;  // "ext4", "xfs", "tmpfs"...
  std::optional<DeviceFacts> device = std::nullopt;
};

struct Environment {
  std::optional<std::string> host = std::nullopt;       // uname's nodename
  std::optional<KernelFacts> kernel = std::nullopt;     // null when uname failed
  std::optional<std::string> cpu_model = std::nullopt;  // /proc/cpuinfo's first "model name"
  std::optional<std::int64_t> logical_cpus = std::nullopt;
  std::optional<std::int64_t> memory_bytes = std::nullopt;  // /proc/meminfo's MemTotal
  std::string ddtime_version = {};
  std::vector<std::string> command_line = {};                // argv as given, argv[0] as invoked
  std::optional<std::int64_t> date = std::nullopt;           // seconds since the epoch (UTC) when gathered
  std::optional<FileFacts> input = std::nullopt;             // null: standard input, no file named
  std::optional<FileFacts> output = std::nullopt;            // null: standard output
  std::optional<std::uint64_t> random_seed = std::nullopt;   // --random's order seed
  std::optional<std::uint64_t> pattern_seed = std::nullopt;  // --pattern's seed (a session's first run's)
};

}  // namespace ddtime
