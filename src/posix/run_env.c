/* SPDX-License-Identifier: MIT */
/* What a run asks of the process on Linux (iospd_plat_run_begin), and the
 * plain sleep of polling loops. Linux needs no setup for either: hugetlb
 * or transparent huge pages come per buffer (mem.c), and nanosleep is
 * already precise to well under a millisecond. */
#include <errno.h>
#include <time.h>

#include "posix/internal.h"

void iospd_plat_sleep(uint32_t ms) {
  struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
  /* A signal cuts nanosleep short; sleep the rest. */
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

int iospd_plat_run_begin(const iospd_run_needs_t* needs, iospd_err_t* err) {
  (void)needs;
  (void)err;
  return 0;
}

void iospd_plat_run_end(void) {}
