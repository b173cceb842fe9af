// SPDX-License-Identifier: GPL-3.0-or-later
/* fault_shim — an LD_PRELOAD library for faults a filesystem cannot
 * express: EINTR storms on every call, write() returning 0, short reads and
 * writes on pipes, ftruncate/fsync/fdatasync failing. It wraps the libc
 * entry points dd uses; everything else passes straight through.
 *
 * DDTIME_SHIM holds rules separated by ';', each
 *     OP:FD:ACTION[:after=N][:times=K]
 *   OP      read write ftruncate fsync fdatasync
 *   FD      the descriptor, or * for any (never 2: messages are left alone)
 *   ACTION  an errno name (EIO ENOSPC EINTR EAGAIN EFBIG EPERM EINVAL),
 *           eintr=K (fail each call K times with EINTR, then let it through),
 *           short=K (transfer at most K bytes), zero (return 0, do nothing)
 *   after   let the first N matching calls through untouched
 *   times   inject at most K times (default: every time)
 * Two more forms set the scene before main() runs:
 *     rlimit:fsize:N    RLIMIT_FSIZE of N bytes (and no core dumps), for EFBIG
 *     signal:XFSZ:ignore  SIGXFSZ ignored, as if inherited so
 * Each injection is appended to the file named by DDTIME_SHIM_LOG, if set,
 * as "OP FD ACTION", so a test can check the fault fired as often as GNU
 * dd made it fire. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

enum op { OP_READ, OP_WRITE, OP_FTRUNCATE, OP_FSYNC, OP_FDATASYNC, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"read", "write", "ftruncate", "fsync", "fdatasync"};

enum action { ACT_ERRNO, ACT_EINTR_STORM, ACT_SHORT, ACT_ZERO };

struct rule {
  enum op op;
  int fd; /* -1: any */
  enum action action;
  int err;
  long amount; /* storm length or short count */
  long after;
  long times;  /* -1: always */
  long streak; /* EINTRs given since the last call let through */
  char text[48];
};

#define MAX_RULES 16
static struct rule rules[MAX_RULES];
static int rule_count = -1;

static const struct {
  const char *name;
  int value;
} errno_names[] = {{"EIO", EIO},     {"ENOSPC", ENOSPC}, {"EINTR", EINTR}, {"EAGAIN", EAGAIN}, {"EFBIG", EFBIG},
                   {"EPERM", EPERM}, {"EINVAL", EINVAL}, {"EROFS", EROFS}, {"EBADF", EBADF},   {"ENOSYS", ENOSYS}};

static void load_rules(void) {
  rule_count = 0;
  const char *spec = getenv("DDTIME_SHIM");
  if (spec == NULL) return;
  char buffer[1024];
  strncpy(buffer, spec, sizeof buffer - 1);
  buffer[sizeof buffer - 1] = '\0';
  char *save_rule = NULL;
  for (char *text = strtok_r(buffer, ";", &save_rule); text != NULL && rule_count < MAX_RULES;
       text = strtok_r(NULL, ";", &save_rule)) {
    struct rule r;
    memset(&r, 0, sizeof r);
    r.times = -1;
    snprintf(r.text, sizeof r.text, "%s", text);
    char *save_field = NULL;
    char *op = strtok_r(text, ":", &save_field);
    char *fd = strtok_r(NULL, ":", &save_field);
    char *action = strtok_r(NULL, ":", &save_field);
    if (op == NULL || fd == NULL || action == NULL) goto bad;
    if (strcmp(op, "rlimit") == 0 && strcmp(fd, "fsize") == 0) {
      struct rlimit limit = {(rlim_t)atoll(action), (rlim_t)atoll(action)};
      struct rlimit no_core = {0, 0};
      if (setrlimit(RLIMIT_FSIZE, &limit) != 0 || setrlimit(RLIMIT_CORE, &no_core) != 0) goto bad;
      continue;
    }
    if (strcmp(op, "signal") == 0 && strcmp(fd, "XFSZ") == 0 && strcmp(action, "ignore") == 0) {
      signal(SIGXFSZ, SIG_IGN);
      continue;
    }
    int found = 0;
    for (int i = 0; i < OP_COUNT; ++i) {
      if (strcmp(op, op_names[i]) == 0) {
        r.op = (enum op)i;
        found = 1;
      }
    }
    if (!found) goto bad;
    r.fd = strcmp(fd, "*") == 0 ? -1 : atoi(fd);
    if (strncmp(action, "eintr=", 6) == 0) {
      r.action = ACT_EINTR_STORM;
      r.amount = atol(action + 6);
    } else if (strncmp(action, "short=", 6) == 0) {
      r.action = ACT_SHORT;
      r.amount = atol(action + 6);
    } else if (strcmp(action, "zero") == 0) {
      r.action = ACT_ZERO;
    } else {
      r.action = ACT_ERRNO;
      for (size_t i = 0; i < sizeof errno_names / sizeof errno_names[0]; ++i) {
        if (strcmp(action, errno_names[i].name) == 0) r.err = errno_names[i].value;
      }
      if (r.err == 0) goto bad;
    }
    for (char *opt = strtok_r(NULL, ":", &save_field); opt != NULL; opt = strtok_r(NULL, ":", &save_field)) {
      if (strncmp(opt, "after=", 6) == 0) {
        r.after = atol(opt + 6);
      } else if (strncmp(opt, "times=", 6) == 0) {
        r.times = atol(opt + 6);
      } else {
        goto bad;
      }
    }
    rules[rule_count++] = r;
    continue;
  bad:
    /* A mistyped rule must not turn into a test that silently passes. */
    {
      static const char message[] = "fault_shim: bad rule in DDTIME_SHIM\n";
      syscall(SYS_write, 2, message, sizeof message - 1);
      _exit(125);
    }
  }
}

/* Limits and dispositions must be in place before dd starts. */
__attribute__((constructor)) static void load_at_start(void) {
  if (rule_count < 0) load_rules();
}

static void note(const struct rule *r, int fd) {
  const char *path = getenv("DDTIME_SHIM_LOG");
  if (path == NULL) return;
  char line[96];
  int n = snprintf(line, sizeof line, "%s %d %s\n", op_names[r->op], fd, r->text);
  int log_fd = (int)syscall(SYS_open, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return;
  syscall(SYS_write, log_fd, line, (size_t)n);
  syscall(SYS_close, log_fd);
}

/* What to do with this call: 0 to go ahead (perhaps with *length
 * shortened), 1 to return *result with errno set as told. */
static int decide(enum op op, int fd, size_t *length, long *result) {
  if (rule_count < 0) load_rules();
  if (fd == 2) return 0;
  for (int i = 0; i < rule_count; ++i) {
    struct rule *r = &rules[i];
    if (r->op != op || (r->fd != -1 && r->fd != fd) || r->times == 0) continue;
    if (r->action == ACT_EINTR_STORM) {
      if (r->streak >= r->amount) {
        r->streak = 0;
        return 0;
      }
    }
    if (r->after > 0) {
      --r->after;
      return 0;
    }
    if (r->times > 0) --r->times;
    note(r, fd);
    switch (r->action) {
      case ACT_EINTR_STORM:
        ++r->streak;
        errno = EINTR;
        *result = -1;
        return 1;
      case ACT_ERRNO:
        errno = r->err;
        *result = -1;
        return 1;
      case ACT_ZERO:
        *result = 0;
        return 1;
      case ACT_SHORT:
        if (length != NULL && *length > (size_t)r->amount) *length = (size_t)r->amount;
        return 0;
    }
  }
  return 0;
}

typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef int (*ftruncate_fn)(int, off_t);
typedef int (*sync_fn)(int);

#define NEXT(name, type)   \
  static type next_##name; \
  if (next_##name == NULL) next_##name = (type)dlsym(RTLD_NEXT, #name)

ssize_t read(int fd, void *buffer, size_t length) {
  NEXT(read, read_fn);
  long result;
  if (decide(OP_READ, fd, &length, &result)) return result;
  return next_read(fd, buffer, length);
}

ssize_t __read_chk(int fd, void *buffer, size_t length, size_t buffer_length) {
  (void)buffer_length;
  return read(fd, buffer, length);
}

ssize_t write(int fd, const void *buffer, size_t length) {
  NEXT(write, write_fn);
  long result;
  if (decide(OP_WRITE, fd, &length, &result)) return result;
  return next_write(fd, buffer, length);
}

int ftruncate(int fd, off_t length) {
  NEXT(ftruncate, ftruncate_fn);
  long result;
  if (decide(OP_FTRUNCATE, fd, NULL, &result)) return (int)result;
  return next_ftruncate(fd, length);
}

int ftruncate64(int fd, off_t length) { return ftruncate(fd, length); }

int fsync(int fd) {
  NEXT(fsync, sync_fn);
  long result;
  if (decide(OP_FSYNC, fd, NULL, &result)) return (int)result;
  return next_fsync(fd);
}

int fdatasync(int fd) {
  NEXT(fdatasync, sync_fn);
  long result;
  if (decide(OP_FDATASYNC, fd, NULL, &result)) return (int)result;
  return next_fdatasync(fd);
}
