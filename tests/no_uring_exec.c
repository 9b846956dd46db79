/* SPDX-License-Identifier: MIT */
/* Runs a program the way a container with Docker's default seccomp profile
 * would (moby 25+): io_uring_setup, io_uring_enter and io_uring_register
 * fail with EPERM, everything else is allowed. With --no-aio the kernel AIO
 * calls fail the same way too (a stricter profile).
 *
 *   no_uring_exec [--no-aio] program [args...]
 *
 * A raw BPF filter through prctl(PR_SET_SECCOMP): no libseccomp needed.
 * Exit 77 (ctest's skip) when the kernel has no seccomp filters. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define NATIVE_ARCH AUDIT_ARCH_I386
#else
#error "no_uring_exec: add this architecture's AUDIT_ARCH"
#endif

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#define __NR_io_uring_enter 426
#define __NR_io_uring_register 427
#endif

#define DENY(nr)                                         \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),       \
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM)

int main(int argc, char** argv) {
  int first = 1;
  int no_aio = 0;
  if (argc > 1 && strcmp(argv[1], "--no-aio") == 0) {
    no_aio = 1;
    first = 2;
  }
  if (first >= argc) {
    fprintf(stderr, "usage: no_uring_exec [--no-aio] program [args...]\n");
    return 2;
  }
  struct sock_filter uring_only[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      DENY(__NR_io_uring_setup),
      DENY(__NR_io_uring_enter),
      DENY(__NR_io_uring_register),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_filter with_aio[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      DENY(__NR_io_uring_setup),
      DENY(__NR_io_uring_enter),
      DENY(__NR_io_uring_register),
      DENY(__NR_io_setup),
      DENY(__NR_io_submit),
      DENY(__NR_io_getevents),
      DENY(__NR_io_destroy),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog;
  if (no_aio) {
    prog.len = (unsigned short)(sizeof with_aio / sizeof with_aio[0]);
    prog.filter = with_aio;
  } else {
    prog.len = (unsigned short)(sizeof uring_only / sizeof uring_only[0]);
    prog.filter = uring_only;
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
    fprintf(stderr, "no_uring_exec: skipped: cannot install the filter: %s\n",
            strerror(errno));
    return 77;
  }
  execvp(argv[first], argv + first);
  fprintf(stderr, "no_uring_exec: cannot run %s: %s\n", argv[first],
          strerror(errno));
  return 127;
}
