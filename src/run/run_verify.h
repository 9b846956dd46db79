/* SPDX-License-Identifier: MIT */
/* --verify in a run: the state files of a timespan's targets (one per
 * file, shared by every thread and target that names it), bound to the
 * workers' targets, written back after the run. */
#ifndef IOSPD_RUN_VERIFY_H
#define IOSPD_RUN_VERIFY_H

#include "iospd/engine.h"
#include "iospd/run.h"
#include "iospd/verify.h"

typedef struct iospd_run_verify_s {
  iospd_vstate_t* states; /* one per distinct target file */
  uint32_t count;
  uint32_t* of_target;    /* state index of each target of the timespan */
  bool* written;          /* per state: some target on it has -w > 0 */
  iospd_plat_tlock_t** locks; /* per state: the target file's lock */
  uint64_t time_ns, time_ticks; /* header time stamps: clock origin */
} iospd_run_verify_t;

/* Opens (creating) the state of every target; a target that -c just made
 * gets a fresh state. Nothing to do without --verify. */
int iospd_run_verify_open(iospd_run_verify_t* v, const iospd_profile_t* p,
                          const iospd_timespan_t* ts,
                          const iospd_run_hooks_t* hooks, iospd_err_t* err);
void iospd_run_verify_bind(const iospd_run_verify_t* v, iospd_wtarget_t* tg,
                           uint32_t target_index, uint32_t seed,
                           uint32_t thread, iospd_vcounts_t* counts);
/* Writes the states back to the device and closes them. */
int iospd_run_verify_close(iospd_run_verify_t* v, iospd_err_t* err);

#endif
