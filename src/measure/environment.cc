// SPDX-License-Identifier: GPL-3.0-or-later
#include "measure/environment.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <utility>

namespace ddtime {
namespace {

// Not in linux/magic.h: the kernel's fs/fuse/inode.c and fs/zfs keep them.
constexpr std::uint32_t kFuseMagic = 0x65735546;
constexpr std::uint32_t kZfsMagic = 0x2fc12fc1;

// Enough for the first CPU's block of /proc/cpuinfo (its flags line is the
// longest) without reading a many-core machine's hundreds of kilobytes.
constexpr std::size_t kCpuinfoLimit = 16 * 1024;
constexpr std::size_t kMountinfoLimit = 1024 * 1024;
constexpr std::size_t kSmallLimit = 4096;

// A /proc or /sys file's text, at most limit bytes; absent when it cannot
// be opened or read.
std::optional<std::string> read_text(Os& os, const std::string& path, std::size_t limit) {
  const IoResult opened = os.open(path.c_str(), O_RDONLY | O_CLOEXEC, 0);
  if (!opened.ok()) return std::nullopt;
  const int fd = static_cast<int>(opened.n);
  std::string text;
  bool failed = false;
  while (text.size() < limit) {
    const std::size_t had = text.size();
    text.resize(std::min(limit, had + kSmallLimit));
    const IoResult got = os.read(fd, text.data() + had, text.size() - had);
    text.resize(had + (got.ok() && got.n > 0 ? static_cast<std::size_t>(got.n) : 0));
    if (got.err == EINTR) continue;
    failed = !got.ok();
    if (!got.ok() || got.n == 0) break;
  }
  os.close(fd);
  if (failed) return std::nullopt;
  return text;
}

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

// A sysfs attribute's text, trimmed; absent when missing or empty.
std::optional<std::string> attribute(Os& os, const std::string& path) {
  const std::optional<std::string> text = read_text(os, path, kSmallLimit);
  if (!text) return std::nullopt;
  const std::string_view value = trimmed(*text);
  if (value.empty()) return std::nullopt;
  return std::string(value);
}

std::optional<std::int64_t> number_in(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text->c_str(), &end, 10);
  if (errno != 0 || end == text->c_str() || *end != '\0') return std::nullopt;
  return value;
}

// The directory holding path: "." for a bare name, "/" for one at the root.
std::string parent_of(const std::string& path) {
  std::string trimmed_path = path;
  while (trimmed_path.size() > 1 && trimmed_path.back() == '/') trimmed_path.pop_back();
  const std::size_t slash = trimmed_path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return trimmed_path.substr(0, slash);
}

std::string base_name_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The lines of text, one at a time, the last without its newline too.
template <typename Visit>
void for_each_line(std::string_view text, Visit visit) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (!visit(text.substr(0, end))) return;
    if (end == std::string_view::npos) return;
    text.remove_prefix(end + 1);
  }
}

// "key<spaces>: value" as (key, value), or absent without a colon.
std::optional<std::pair<std::string_view, std::string_view>> key_value(std::string_view line) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return std::pair{trimmed(line.substr(0, colon)), trimmed(line.substr(colon + 1))};
}

// The file system of a file on device number device: mountinfo names it
// exactly; statfs's magic number is the fallback (it cannot tell ext4 from
// ext2 or devtmpfs from tmpfs).
std::optional<std::string> filesystem_at(Os& os, const std::string& path, dev_t device, std::string_view mountinfo) {
  if (std::optional<std::string> type = mount_type_in(mountinfo, major(device), minor(device))) return type;
  const IoResult magic = os.filesystem_magic(path.c_str());
  if (!magic.ok()) return std::nullopt;
  return filesystem_of_magic(static_cast<std::uint32_t>(magic.n));
}

std::optional<DeviceFacts> remembered_device(Os& os, dev_t device, DeviceMemo* memo) {
  if (memo == nullptr) return device_facts(os, device);
  if (!memo->device || *memo->device != device) {
    memo->device = device;
    memo->facts = device_facts(os, device);
  }
  return memo->facts;
}

void gather_machine(Os& os, Environment& environment) {
  struct utsname names {};
  if (os.system_names(names).ok()) {
    environment.host = names.nodename;
    environment.kernel = KernelFacts{names.sysname, names.release, names.version, names.machine};
  }
  if (const std::optional<std::string> cpuinfo = read_text(os, "/proc/cpuinfo", kCpuinfoLimit)) {
    environment.cpu_model = cpu_model_in(*cpuinfo);
  }
  if (const IoResult cpus = os.online_cpus(); cpus.ok()) environment.logical_cpus = cpus.n;
  if (const std::optional<std::string> meminfo = read_text(os, "/proc/meminfo", kSmallLimit)) {
    environment.memory_bytes = memory_total_in(*meminfo);
  }
}

}  // namespace

Environment gather_environment(Os& os, std::vector<std::string> command_line, const std::optional<std::string>& input,
                               const std::optional<std::string>& output) {
  Environment environment;
  if (const IoResult now = os.wall_clock_seconds(); now.ok()) environment.date = now.n;
  environment.ddtime_version = DDTIME_VERSION;
  environment.command_line = std::move(command_line);
  gather_machine(os, environment);
  if (input || output) {
    const std::string mountinfo = read_text(os, "/proc/self/mountinfo", kMountinfoLimit).value_or(std::string());
    // Most often both files are on one disk: its sysfs is read once.
    DeviceMemo memo;
    if (input) environment.input = file_facts(os, *input, mountinfo, &memo);
    if (output) environment.output = file_facts(os, *output, mountinfo, &memo);
  }
  return environment;
}

FileFacts file_facts(Os& os, const std::string& path, std::string_view mountinfo, DeviceMemo* memo) {
  FileFacts facts{.path = path};
  struct stat status {};
  std::string where = path;
  if (const IoResult found = os.stat_path(path.c_str(), status); !found.ok()) {
    if (found.err != ENOENT) return facts;
    // Not there yet: the run creates it in its directory, on that
    // directory's file system and disk.
    where = parent_of(path);
    if (!os.stat_path(where.c_str(), status).ok() || !S_ISDIR(status.st_mode)) return facts;
  }
  if (S_ISBLK(status.st_mode)) {
    // What lives on /dev is not interesting: the device itself is.
    facts.filesystem = mount_type_in(mountinfo, major(status.st_rdev), minor(status.st_rdev));
    facts.device = remembered_device(os, status.st_rdev, memo);
  } else if (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode)) {
    facts.filesystem = filesystem_at(os, where, status.st_dev, mountinfo);
    facts.device = remembered_device(os, status.st_dev, memo);
  }
  return facts;
}

std::optional<DeviceFacts> device_facts(Os& os, dev_t device) {
  const std::string link = fmt::format("/sys/dev/block/{}:{}", major(device), minor(device));
  char resolved[PATH_MAX];
  if (!os.real_path(link.c_str(), resolved).ok()) return std::nullopt;
  std::string disk = resolved;
  struct stat status {};
  // A partition's queue and model are its disk's, one directory up.
  if (os.stat_path((disk + "/partition").c_str(), status).ok()) disk = parent_of(disk);
  DeviceFacts facts{.name = base_name_of(disk)};
  facts.model = attribute(os, disk + "/device/model");
  facts.firmware = attribute(os, disk + "/device/firmware_rev");
  if (!facts.firmware) facts.firmware = attribute(os, disk + "/device/rev");
  if (const std::optional<std::int64_t> rotational = number_in(attribute(os, disk + "/queue/rotational"))) {
    facts.rotational = *rotational != 0;
  }
  facts.logical_block_size = number_in(attribute(os, disk + "/queue/logical_block_size"));
  if (const std::optional<std::string> scheduler = attribute(os, disk + "/queue/scheduler")) {
    facts.scheduler = scheduler_in(*scheduler);
  }
  // sysfs counts a disk's size in 512-byte sectors, whatever its blocks.
  if (const std::optional<std::int64_t> sectors = number_in(attribute(os, disk + "/size"))) {
    facts.size_bytes = *sectors * 512;
  }
  facts.write_cache = attribute(os, disk + "/queue/write_cache");
  facts.backing_file = attribute(os, disk + "/loop/backing_file");
  return facts;
}

std::optional<std::string> cpu_model_in(std::string_view cpuinfo) {
  std::optional<std::string> model;
  for_each_line(cpuinfo, [&](std::string_view line) {
    const auto pair = key_value(line);
    if (pair && pair->first == "model name" && !pair->second.empty()) model = std::string(pair->second);
    return !model;
  });
  return model;
}

std::optional<std::int64_t> memory_total_in(std::string_view meminfo) {
  std::optional<std::int64_t> bytes;
  for_each_line(meminfo, [&](std::string_view line) {
    const auto pair = key_value(line);
    if (!pair || pair->first != "MemTotal") return true;
    // "25200000 kB": the kernel's kB are KiB.
    std::string_view value = pair->second;
    const bool in_kib = value.ends_with(" kB");
    if (in_kib) value.remove_suffix(3);
    if (const std::optional<std::int64_t> number = number_in(std::string(trimmed(value)))) {
      bytes = in_kib ? *number * 1024 : *number;
    }
    return false;
  });
  return bytes;
}

std::optional<std::string> mount_type_in(std::string_view mountinfo, unsigned major_number, unsigned minor_number) {
  // "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw":
  // the third field is the device, the first after " - " the type.
  const std::string device = fmt::format("{}:{}", major_number, minor_number);
  std::optional<std::string> type;
  for_each_line(mountinfo, [&](std::string_view line) {
    const std::size_t first = line.find(' ');
    const std::size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
    const std::size_t third = second == std::string_view::npos ? second : line.find(' ', second + 1);
    if (third == std::string_view::npos || line.substr(second + 1, third - second - 1) != device) return true;
    const std::size_t separator = line.find(" - ", third);
    if (separator == std::string_view::npos) return true;
    const std::string_view rest = line.substr(separator + 3);
    const std::string_view name = rest.substr(0, rest.find(' '));
    if (!name.empty()) type = std::string(name);
    return !type;
  });
  return type;
}

std::string filesystem_of_magic(std::uint32_t magic) {
  struct Named {
    std::uint32_t magic;
    char name[12];
  };
  static constexpr Named kNames[] = {
      {EXT4_SUPER_MAGIC, "ext2/3/4"},
      {XFS_SUPER_MAGIC, "xfs"},
      {BTRFS_SUPER_MAGIC, "btrfs"},
      {TMPFS_MAGIC, "tmpfs"},
      {OVERLAYFS_SUPER_MAGIC, "overlay"},
      {NFS_SUPER_MAGIC, "nfs"},
      {kFuseMagic, "fuse"},
      {PROC_SUPER_MAGIC, "proc"},
      {SYSFS_MAGIC, "sysfs"},
      {F2FS_SUPER_MAGIC, "f2fs"},
      {kZfsMagic, "zfs"},
      {MSDOS_SUPER_MAGIC, "vfat"},
      {EXFAT_SUPER_MAGIC, "exfat"},
      {SQUASHFS_MAGIC, "squashfs"},
      {ISOFS_SUPER_MAGIC, "iso9660"},
      {RAMFS_MAGIC, "ramfs"},
      {CIFS_SUPER_MAGIC, "cifs"},
      {SMB2_SUPER_MAGIC, "smb3"},
      {CEPH_SUPER_MAGIC, "ceph"},
      {NILFS_SUPER_MAGIC, "nilfs2"},
      {V9FS_MAGIC, "9p"},
      {HUGETLBFS_MAGIC, "hugetlbfs"},
      {DEVPTS_SUPER_MAGIC, "devpts"},
      {EROFS_SUPER_MAGIC_V1, "erofs"},
  };
  for (const Named& named : kNames) {
    if (named.magic == magic) return named.name;
  }
  return fmt::format("0x{:08x}", magic);
}

std::optional<std::string> scheduler_in(std::string_view text) {
  const std::size_t open = text.find('[');
  const std::size_t close = open == std::string_view::npos ? open : text.find(']', open);
  if (close != std::string_view::npos) return std::string(text.substr(open + 1, close - open - 1));
  const std::string_view word = trimmed(text);
  if (word.empty() || word.find(' ') != std::string_view::npos) return std::nullopt;
  return std::string(word);
}

}  // namespace ddtime
