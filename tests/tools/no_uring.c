// SPDX-License-Identifier: GPL-3.0-or-later
// no_uring PROGRAM [ARG...]: runs PROGRAM with io_uring_setup refused with
// EPERM, as a container's default seccomp profile or
// kernel.io_uring_disabled refuses it, so that tests can see ddtime fall
// back to its thread pool (or, asked for io_uring outright, fail).
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: no_uring PROGRAM [ARG...]\n");
    return 2;
  }
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
    fprintf(stderr, "no_uring: seccomp: %s\n", strerror(errno));
    return 126;
  }
  // The program sees itself under the name it was given, as the shell
  // would run it.
  execv(argv[1], argv + 1);
  fprintf(stderr, "no_uring: %s: %s\n", argv[1], strerror(errno));
  return 127;
}
