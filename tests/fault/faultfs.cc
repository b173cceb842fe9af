// SPDX-License-Identifier: GPL-3.0-or-later
// faultfs — a FUSE filesystem for the fault-injection tests. It serves
// in-memory files holding a deterministic pattern (pattern.h) and fails,
// shortens or delays chosen reads, writes, syncs, flushes and truncations,
// as told through its control file. Every such request is logged, one line
// each, so a test can prove what reached the "disk". It runs single-threaded
// in the foreground; the tests start, mount and unmount it (fault_fs.h).
//
//   ddtime_faultfs MOUNTPOINT LOGFILE
//
// Lines written to MOUNTPOINT/.control (each ends with a newline):
//   file NAME [size=N] [fill=pattern|zero] [cache]
//       (re)creates NAME with N bytes (default 0) of the pattern or zeros.
//       Files are served with direct_io, so each read(2)/write(2) of the
//       program under test reaches us as one request with its own size and
//       a short count reaches it unchanged; `cache` serves through the page
//       cache instead.
//   file NAME size=N claims=M past=wrap|drop
//       a counterfeit: NAME holds N bytes and says it holds M; a byte at
//       offset M > p >= N is stored at p % N (wrap, as a card that ignores
//       its high address lines) or lost, reading back zeros (drop).
//   fault NAME OP ACTION [at=START[-END]] [after=N] [times=K|always] [cut]
//       OP: read write fsync fdatasync flush truncate
//       ACTION: an errno name (EIO, ENOSPC, EINTR, EAGAIN, ...), short=K
//       (transfer at most K bytes), zero (transfer nothing: 0 returned),
//       delay=MS (answer normally after MS milliseconds), and for reads
//       flip (the bytes read inside the range come back inverted: a
//       corrupted sector) or from=D (they come from D bytes further on: a
//       misplaced block).
//       at: the byte range [START, END) a read or write must overlap, or the
//       size a truncation asks for must fall in (default: everything; END
//       defaults to the end of all files). after: let the first N matching
//       requests through. times: how often it fires (default once).
//       cut: a request that begins before START is answered with the bytes
//       before START only (a short count), as a disk stops at a bad sector,
//       and the request that then begins inside the range fails.
// Log lines: "NAME OP OFFSET LENGTH RESULT", where RESULT is the count
// returned or an errno name; OFFSET/LENGTH are "-" where they do not apply.
#define FUSE_USE_VERSION 35

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fault/pattern.h"

namespace {

constexpr std::int64_t kNoEnd = std::numeric_limits<std::int64_t>::max();
constexpr const char* kControlName = "/.control";

enum class Op { kRead, kWrite, kFsync, kFdatasync, kFlush, kTruncate };

struct Rule {
  Op op = Op::kRead;
  std::int64_t start = 0;
  std::int64_t end = kNoEnd;
  int err = 0;
  std::int64_t short_count = -1;
  bool zero = false;
  int delay_ms = 0;
  bool flip = false;
  std::int64_t displace = 0;
  bool cut = false;
  std::int64_t after = 0;
  std::int64_t times = 1;  // -1: always
};

struct File {
  std::vector<unsigned char> data;
  bool direct_io = true;
  std::vector<Rule> rules;
  std::int64_t claims = -1;  // a counterfeit's size as reported; -1: an honest file
  bool wraps = false;        // a counterfeit's bytes past data: wrapped (else lost)

  std::int64_t size() const { return claims >= 0 ? claims : static_cast<std::int64_t>(data.size()); }
  // Where byte p lives, or -1 where a counterfeit loses it.
  std::int64_t place(std::int64_t p) const {
    const auto held = static_cast<std::int64_t>(data.size());
    if (claims < 0 || p < held) return p;
    return wraps && held > 0 ? p % held : -1;
  }
};

std::map<std::string, File> files;
std::string control_pending;
FILE* log_file = nullptr;

struct ErrnoName {
  const char* name;
  int value;
};
constexpr ErrnoName kErrnoNames[] = {
    {"EIO", EIO},       {"ENOSPC", ENOSPC},   {"EINTR", EINTR},   {"EAGAIN", EAGAIN}, {"EFBIG", EFBIG},
    {"EPERM", EPERM},   {"EINVAL", EINVAL},   {"EROFS", EROFS},   {"EDQUOT", EDQUOT}, {"ENXIO", ENXIO},
    {"EACCES", EACCES}, {"ENODATA", ENODATA}, {"ENOMEM", ENOMEM}, {"EBUSY", EBUSY},   {"ETIMEDOUT", ETIMEDOUT},
};

const char* errno_name(int err) {
  for (const auto& e : kErrnoNames) {
    if (e.value == err) return e.name;
  }
  return "E?";
}

int errno_value(const std::string& name) {
  for (const auto& e : kErrnoNames) {
    if (name == e.name) return e.value;
  }
  return 0;
}

void log_line(const std::string& name, const char* op, std::int64_t offset, std::int64_t length, int result) {
  if (log_file == nullptr) return;
  std::string off = offset < 0 ? "-" : std::to_string(offset);
  std::string len = length < 0 ? "-" : std::to_string(length);
  std::string res = result < 0 ? errno_name(-result) : std::to_string(result);
  std::fprintf(log_file, "%s %s %s %s %s\n", name.c_str(), op, off.c_str(), len.c_str(), res.c_str());
  std::fflush(log_file);
}

bool parse_int(const std::string& text, std::int64_t& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < 0) return false;
  value = v;
  return true;
}

bool parse_op(const std::string& word, Op& op) {
  static const std::map<std::string, Op> kOps = {{"read", Op::kRead},   {"write", Op::kWrite},
                                                 {"fsync", Op::kFsync}, {"fdatasync", Op::kFdatasync},
                                                 {"flush", Op::kFlush}, {"truncate", Op::kTruncate}};
  auto it = kOps.find(word);
  if (it == kOps.end()) return false;
  op = it->second;
  return true;
}

// One control line; false when it is malformed (the write then fails).
bool run_control(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.empty()) return true;
  if (words[0] == "file" && words.size() >= 2) {
    File f;
    std::int64_t size = 0;
    bool zero_fill = false;
    for (std::size_t i = 2; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w.rfind("size=", 0) == 0) {
        if (!parse_int(w.substr(5), size)) return false;
      } else if (w == "fill=zero") {
        zero_fill = true;
      } else if (w == "fill=pattern") {
        zero_fill = false;
      } else if (w == "cache") {
        f.direct_io = false;
      } else if (w.rfind("claims=", 0) == 0) {
        if (!parse_int(w.substr(7), f.claims)) return false;
      } else if (w == "past=wrap" || w == "past=drop") {
        f.wraps = w == "past=wrap";
      } else {
        return false;
      }
    }
    f.data.resize(static_cast<std::size_t>(size));
    if (!zero_fill) {
      for (std::int64_t i = 0; i < size; ++i) {
        f.data[static_cast<std::size_t>(i)] = ddtime::fault::pattern_byte(static_cast<std::uint64_t>(i));
      }
    }
    files["/" + words[1]] = std::move(f);
    return true;
  }
  if (words[0] == "fault" && words.size() >= 4) {
    auto it = files.find("/" + words[1]);
    if (it == files.end()) return false;
    Rule r;
    if (!parse_op(words[2], r.op)) return false;
    const std::string& action = words[3];
    if (action.rfind("short=", 0) == 0) {
      if (!parse_int(action.substr(6), r.short_count)) return false;
    } else if (action.rfind("delay=", 0) == 0) {
      std::int64_t ms = 0;
      if (!parse_int(action.substr(6), ms)) return false;
      r.delay_ms = static_cast<int>(ms);
    } else if (action == "zero") {
      r.zero = true;
    } else if (action == "flip") {
      r.flip = true;
    } else if (action.rfind("from=", 0) == 0) {
      // A displacement either way: from=-65536 is the block before.
      const bool back = action.size() > 5 && action[5] == '-';
      if (!parse_int(action.substr(back ? 6 : 5), r.displace) || r.displace == 0) return false;
      if (back) r.displace = -r.displace;
    } else {
      r.err = errno_value(action);
      if (r.err == 0) return false;
    }
    for (std::size_t i = 4; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w.rfind("at=", 0) == 0) {
        std::string range = w.substr(3);
        auto dash = range.find('-');
        if (!parse_int(range.substr(0, dash), r.start)) return false;
        if (dash != std::string::npos && dash + 1 < range.size()) {
          if (!parse_int(range.substr(dash + 1), r.end)) return false;
        } else if (dash == std::string::npos) {
          r.end = r.start + 1;
        }
      } else if (w.rfind("after=", 0) == 0) {
        if (!parse_int(w.substr(6), r.after)) return false;
      } else if (w == "times=always" || w == "always") {
        r.times = -1;
      } else if (w.rfind("times=", 0) == 0) {
        if (!parse_int(w.substr(6), r.times)) return false;
      } else if (w == "cut") {
        r.cut = true;
      } else {
        return false;
      }
    }
    it->second.rules.push_back(r);
    return true;
  }
  return false;
}

// What the first armed rule for this request says. For reads and writes
// `length` may come back smaller (a short count) or the result may be an
// error; 0 means "go ahead with `length` bytes".
struct Decision {
  int err = 0;
  std::int64_t length = 0;
  const Rule* corrupt = nullptr;  // flip or from=: what to do to the bytes in its range
};

Decision decide(File& f, Op op, std::int64_t offset, std::int64_t length) {
  Decision d{0, length};
  for (Rule& r : f.rules) {
    if (r.op != op || r.times == 0) continue;
    bool hit;
    if (op == Op::kRead || op == Op::kWrite) {
      hit = offset < r.end && offset + std::max<std::int64_t>(length, 1) > r.start;
    } else if (op == Op::kTruncate) {
      hit = offset >= r.start && offset < r.end;
    } else {
      hit = true;
    }
    if (!hit) continue;
    if (r.cut && (op == Op::kRead || op == Op::kWrite) && offset < r.start) {
      d.length = r.start - offset;
      return d;
    }
    if (r.after > 0) {
      --r.after;
      continue;
    }
    if (r.times > 0) --r.times;
    if (r.delay_ms > 0) {
      struct timespec ts {
        r.delay_ms / 1000, (r.delay_ms % 1000) * 1000000L
      };
      nanosleep(&ts, nullptr);
      return d;
    }
    if (r.err != 0) {
      d.err = r.err;
      return d;
    }
    if (r.zero) {
      d.length = 0;
      return d;
    }
    if (r.flip || r.displace != 0) d.corrupt = &r;
    if (r.short_count >= 0) d.length = std::min(length, r.short_count);
    return d;
  }
  return d;
}

void fill_stat(struct stat* st, const File* f) {
  std::memset(st, 0, sizeof *st);
  st->st_uid = getuid();
  st->st_gid = getgid();
  st->st_nlink = 1;
  if (f == nullptr) {
    st->st_mode = S_IFREG | 0600;
  } else {
    st->st_mode = S_IFREG | 0644;
    st->st_size = static_cast<off_t>(f->size());
    st->st_blocks = (st->st_size + 511) / 512;
  }
  st->st_blksize = 4096;
}

void* fs_init(struct fuse_conn_info* conn, struct fuse_config* cfg) {
  cfg->entry_timeout = 0;
  cfg->attr_timeout = 0;
  cfg->negative_timeout = 0;
  cfg->direct_io = 0;
  cfg->kernel_cache = 0;
  // Truncation then always reaches us as its own request, which a test can
  // make fail.
  conn->want &= ~FUSE_CAP_ATOMIC_O_TRUNC;
  return nullptr;
}

int fs_getattr(const char* path, struct stat* st, struct fuse_file_info*) {
  if (std::strcmp(path, "/") == 0) {
    std::memset(st, 0, sizeof *st);
    st->st_mode = S_IFDIR | 0755;
    st->st_nlink = 2;
    return 0;
  }
  if (std::strcmp(path, kControlName) == 0) {
    fill_stat(st, nullptr);
    return 0;
  }
  auto it = files.find(path);
  if (it == files.end()) return -ENOENT;
  fill_stat(st, &it->second);
  return 0;
}

int fs_readdir(const char* path, void* buf, fuse_fill_dir_t filler, off_t, struct fuse_file_info*,
               enum fuse_readdir_flags) {
  if (std::strcmp(path, "/") != 0) return -ENOTDIR;
  filler(buf, ".", nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  filler(buf, "..", nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  filler(buf, kControlName + 1, nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  for (const auto& [name, file] : files) {
    filler(buf, name.c_str() + 1, nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  }
  return 0;
}

int fs_open(const char* path, struct fuse_file_info* fi) {
  if (std::strcmp(path, kControlName) == 0) {
    fi->direct_io = 1;
    return 0;
  }
  auto it = files.find(path);
  if (it == files.end()) return -ENOENT;
  fi->direct_io = it->second.direct_io ? 1 : 0;
  if (fi->flags & O_TRUNC) it->second.data.clear();
  return 0;
}

int fs_create(const char* path, mode_t, struct fuse_file_info* fi) {
  File& f = files[path];
  f.data.clear();
  fi->direct_io = f.direct_io ? 1 : 0;
  return 0;
}

int fs_unlink(const char* path) { return files.erase(path) != 0 ? 0 : -ENOENT; }

int fs_read(const char* path, char* buf, size_t size, off_t offset, struct fuse_file_info*) {
  auto it = files.find(path);
  if (it == files.end()) return std::strcmp(path, kControlName) == 0 ? 0 : -ENOENT;
  File& f = it->second;
  const std::string name = path + 1;
  const auto length = static_cast<std::int64_t>(size);
  Decision d = decide(f, Op::kRead, offset, length);
  if (d.err != 0) {
    log_line(name, "read", offset, length, -d.err);
    return -d.err;
  }
  const std::int64_t file_size = f.size();
  std::int64_t n = std::clamp<std::int64_t>(file_size - offset, 0, d.length);
  if (f.claims >= 0) {
    for (std::int64_t p = offset; p < offset + n; ++p) {
      const std::int64_t at = f.place(p);
      buf[p - offset] = at < 0 ? 0 : static_cast<char>(f.data[static_cast<std::size_t>(at)]);
    }
  } else if (n > 0) {
    std::memcpy(buf, f.data.data() + offset, static_cast<std::size_t>(n));
  }
  if (const Rule* r = d.corrupt; r != nullptr) {
    const std::int64_t from = std::max<std::int64_t>(offset, r->start);
    const std::int64_t to = std::min<std::int64_t>(offset + n, r->end);
    for (std::int64_t p = from; p < to; ++p) {
      unsigned char& byte = reinterpret_cast<unsigned char&>(buf[p - offset]);
      if (r->flip) {
        byte = static_cast<unsigned char>(~byte);
      } else if (p + r->displace >= 0 && p + r->displace < file_size) {
        byte = f.data[static_cast<std::size_t>(p + r->displace)];
      }
    }
  }
  log_line(name, "read", offset, length, static_cast<int>(n));
  return static_cast<int>(n);
}

int fs_write(const char* path, const char* buf, size_t size, off_t offset, struct fuse_file_info*) {
  if (std::strcmp(path, kControlName) == 0) {
    control_pending.append(buf, size);
    for (auto nl = control_pending.find('\n'); nl != std::string::npos; nl = control_pending.find('\n')) {
      std::string line = control_pending.substr(0, nl);
      control_pending.erase(0, nl + 1);
      if (!run_control(line)) {
        std::fprintf(stderr, "ddtime_faultfs: bad control line: %s\n", line.c_str());
        return -EINVAL;
      }
    }
    return static_cast<int>(size);
  }
  auto it = files.find(path);
  if (it == files.end()) return -ENOENT;
  File& f = it->second;
  const std::string name = path + 1;
  const auto length = static_cast<std::int64_t>(size);
  Decision d = decide(f, Op::kWrite, offset, length);
  if (d.err != 0) {
    log_line(name, "write", offset, length, -d.err);
    return -d.err;
  }
  const auto end = static_cast<std::size_t>(offset + d.length);
  if (f.claims >= 0) {
    // A counterfeit never grows: each byte to its place, or lost.
    for (std::int64_t p = offset; p < offset + d.length && p < f.claims; ++p) {
      const std::int64_t at = f.place(p);
      if (at >= 0) f.data[static_cast<std::size_t>(at)] = static_cast<unsigned char>(buf[p - offset]);
    }
  } else if (d.length > 0) {
    if (f.data.size() < end) f.data.resize(end);
    std::memcpy(f.data.data() + offset, buf, static_cast<std::size_t>(d.length));
  }
  log_line(name, "write", offset, length, static_cast<int>(d.length));
  return static_cast<int>(d.length);
}

int fs_truncate(const char* path, off_t size, struct fuse_file_info*) {
  auto it = files.find(path);
  if (it == files.end()) return std::strcmp(path, kControlName) == 0 ? 0 : -ENOENT;
  Decision d = decide(it->second, Op::kTruncate, size, 0);
  log_line(path + 1, "truncate", size, -1, -d.err);
  if (d.err != 0) return -d.err;
  it->second.data.resize(static_cast<std::size_t>(size));
  return 0;
}

int fs_fsync(const char* path, int datasync, struct fuse_file_info*) {
  auto it = files.find(path);
  if (it == files.end()) return 0;
  Op op = datasync ? Op::kFdatasync : Op::kFsync;
  Decision d = decide(it->second, op, 0, 0);
  log_line(path + 1, datasync ? "fdatasync" : "fsync", -1, -1, -d.err);
  return -d.err;
}

int fs_flush(const char* path, struct fuse_file_info*) {
  auto it = files.find(path);
  if (it == files.end()) return 0;
  Decision d = decide(it->second, Op::kFlush, 0, 0);
  log_line(path + 1, "flush", -1, -1, -d.err);
  return -d.err;
}

int fs_utimens(const char*, const struct timespec*, struct fuse_file_info*) { return 0; }
int fs_chmod(const char*, mode_t, struct fuse_file_info*) { return 0; }
int fs_chown(const char*, uid_t, gid_t, struct fuse_file_info*) { return 0; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s MOUNTPOINT LOGFILE\n", argv[0]);
    return 2;
  }
  // A test that dies must not leave us (and the mount) behind: the kernel
  // tells us when the parent goes, and auto_unmount then unmounts.
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  log_file = std::fopen(argv[2], "a");
  if (log_file == nullptr) {
    std::perror(argv[2]);
    return 2;
  }
  struct fuse_operations ops {};
  ops.init = fs_init;
  ops.getattr = fs_getattr;
  ops.readdir = fs_readdir;
  ops.open = fs_open;
  ops.create = fs_create;
  ops.unlink = fs_unlink;
  ops.read = fs_read;
  ops.write = fs_write;
  ops.truncate = fs_truncate;
  ops.fsync = fs_fsync;
  ops.flush = fs_flush;
  ops.utimens = fs_utimens;
  ops.chmod = fs_chmod;
  ops.chown = fs_chown;

  std::vector<char*> args{argv[0],
                          const_cast<char*>("-f"),
                          const_cast<char*>("-s"),
                          const_cast<char*>("-o"),
                          const_cast<char*>("fsname=ddtime-faultfs,subtype=ddtime,auto_unmount"),
                          argv[1]};
  return fuse_main(static_cast<int>(args.size()), args.data(), &ops, nullptr);
}
