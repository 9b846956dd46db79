/* SPDX-License-Identifier: MIT */
/* How a report file (--output, --timeseries) reaches its path on POSIX, one
 * decision for the probe before the run and for the writers after it, so
 * that neither follows a link or replaces something that is not a file. */
#ifndef IOSPD_POSIX_OUT_KIND_H
#define IOSPD_POSIX_OUT_KIND_H

#include "iospd/error.h"

typedef enum {
  /* Absent or a regular file: written to a new file beside it, renamed. */
  IOSPD_OUT_REPLACE,
  /* The process's own stream (/dev/stdout, /dev/stderr, /dev/fd/N,
   * /proc/self/fd/N): written to descriptor N, never opened or renamed. */
  IOSPD_OUT_OWN_FD,
  /* A character device or a FIFO: opened without O_CREAT/O_TRUNC and
   * written in place. */
  IOSPD_OUT_IN_PLACE,
} iospd_out_kind_t;

/* Descriptor N when path spells one of the process's own streams, else -1. */
int iospd_posix_own_fd(const char* path);

/* Decides on path as it is now (lstat: a link is never followed). Refuses,
 * with err saying why and what to do (without naming path itself): a
 * symbolic link (the message names its target), a folder, a block device,
 * a socket, a file under /proc or /sys, an own stream not open for writing.
 * *fd is the descriptor for IOSPD_OUT_OWN_FD. */
int iospd_posix_out_kind(const char* path, iospd_out_kind_t* kind, int* fd,
                         iospd_err_t* err);

/* Why an open descriptor's file (st_mode from fstat) may not take a report
 * written in place or after truncation: 0 for a regular file, a character
 * device or a FIFO, else a negative IOSPD_E* with err set. */
int iospd_posix_out_mode_ok(unsigned mode, iospd_err_t* err);

#endif
