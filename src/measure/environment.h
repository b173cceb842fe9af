// SPDX-License-Identifier: GPL-3.0-or-later
// environment — gathers the machine, the program and the files a document
// describes (issue 22): uname, /proc's CPU and memory, each file's file
// system (mountinfo, else statfs's magic) and disk (sysfs), the date.
// Everything through os; whatever the system will not tell stays absent,
// never an error. Call it outside any measured window: it reads /proc and
// /sys. Writing it is report_environment_json's.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/environment_facts.h"
#include "system/os.h"

namespace ddtime {

// The whole environment but the seeds, which the runs decide: input and
// output are if= and of= (absent: standard input or output, no facts).
Environment gather_environment(Os& os, std::vector<std::string> command_line, const std::optional<std::string>& input,
                               const std::optional<std::string>& output);

// Where path lives: its file system and disk. A path not there yet is
// described by its directory, where the run will create it; a block device
// by itself (its file system is what is mounted from it, if anything);
// anything else (a pipe, /dev/null) has neither. mountinfo: the text of
// /proc/self/mountinfo, read once for both files.
// memo: the last device described, kept for the next file.
struct DeviceMemo {
  std::optional<dev_t> device;
  std::optional<DeviceFacts> facts;
};
FileFacts file_facts(Os& os, const std::string& path, std::string_view mountinfo, DeviceMemo* memo = nullptr);

// The whole disk holding device number device (a partition's parent), from
// /sys/dev/block; absent when sysfs does not know the number (tmpfs,
// overlayfs and btrfs's anonymous devices).
std::optional<DeviceFacts> device_facts(Os& os, dev_t device);

// The parsers, on a file's text.
// /proc/cpuinfo's first "model name".
std::optional<std::string> cpu_model_in(std::string_view cpuinfo);
// /proc/meminfo's MemTotal, in bytes.
std::optional<std::int64_t> memory_total_in(std::string_view meminfo);
// The file system type of the first mount of device major:minor in
// /proc/self/mountinfo's text ("ext4", "fuse.sshfs").
std::optional<std::string> mount_type_in(std::string_view mountinfo, unsigned major, unsigned minor);
// The file system a statfs f_type names; ext2, ext3 and ext4 share one
// magic number, so it says "ext2/3/4"; an unknown one is its number in hex.
std::string filesystem_of_magic(std::uint32_t magic);
// queue/scheduler's choice: the bracketed word ("[mq-deadline] none"), or
// the only word there is.
std::optional<std::string> scheduler_in(std::string_view text);

}  // namespace ddtime
