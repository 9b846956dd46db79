/* SPDX-License-Identifier: MIT */
/* Private to src/posix: the only place OS headers are included for the Linux
 * platform, the definitions of the opaque platform types, and helpers shared
 * between the files of this directory (prefix iospd_posix_). */
#ifndef IOSPD_POSIX_INTERNAL_H
#define IOSPD_POSIX_INTERNAL_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "iospd/error.h"
#include "iospd/platform.h"

/* errno -> IOSPD_E* (the only place that knows errno values). */
int iospd_posix_translate(int errnum);
/* Fills err with "<what>: <strerror>" and the errno, returns the code. */
int iospd_posix_err(iospd_err_t* err, int errnum, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);

#endif
