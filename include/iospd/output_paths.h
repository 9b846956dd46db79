/* SPDX-License-Identifier: MIT */
/* Safety of report files (--output, --timeseries) and --verify state
 * files: before any I/O, every file a run will write is checked against
 * every file it reads or writes, by identity, so that a report or a state
 * file never overwrites the data under test or the run's own inputs, and a
 * run never measures for an hour to then fail at writing its results. */
#ifndef IOSPD_OUTPUT_PATHS_H
#define IOSPD_OUTPUT_PATHS_H

#include "iospd/error.h"
#include "iospd/profile.h"

/* One file a run writes, and the option that named it (for messages). */
typedef struct iospd_out_path_s {
  const char* option; /* "--output=json:r.json", "--timeseries" */
  const char* path;
} iospd_out_path_t;

/* Checks, in this order, and fills err naming the option and the path:
 * (c) two entries naming one file (iospd_plat_same_file);
 * (b) an entry naming the same file as a target of any timespan, a -Z
 *     source file or the -X profile;
 * (d) with --verify or --verify-only, a target's state file
 *     (iospd_vstate_path) that is a target, a -Z source file, the -X
 *     profile or an entry (count 0 checks the state files alone);
 * (a) an entry that cannot be written (iospd_plat_output_probe: a missing
 *     or read-only folder, a folder, a read-only file; nothing is created
 *     or truncated that would stay).
 * Returns 0, IOSPD_EUSAGE (bad input: exit 3) or IOSPD_ENOMEM. */
int iospd_output_paths_check(const iospd_out_path_t* outs, size_t count,
                             const iospd_profile_t* p, iospd_err_t* err);

#endif
