/* SPDX-License-Identifier: MIT */
/* Safety of report files (--output, --timeseries): before any I/O, every
 * file a run will write is checked, so that a report never overwrites the
 * data under test and a run never measures for an hour to then fail at
 * writing its results. */
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
 * (b) an entry naming the same file as a target of any timespan;
 * (a) an entry that cannot be written (iospd_plat_output_probe: a missing
 *     or read-only folder, a folder, a read-only file; nothing is created
 *     or truncated that would stay).
 * Returns 0 or IOSPD_EUSAGE (bad input: exit 3). */
int iospd_output_paths_check(const iospd_out_path_t* outs, size_t count,
                             const iospd_profile_t* p, iospd_err_t* err);

#endif
