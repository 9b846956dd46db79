/* SPDX-License-Identifier: MIT */
#ifndef IOSPD_VERSION_H
#define IOSPD_VERSION_H

#define IOSPD_VERSION "0.1.0"
/* What the XML <Tool> element reports, so DISKSPD parsers accept it. */
#define IOSPD_DISKSPD_VERSION "2.2.0"
#define IOSPD_DISKSPD_VERSION_DATE "2024/6/3"
/* What --diskspd=2.3 reports in <Tool> (DISKSPD 2.3.0's own strings). */
#define IOSPD_DISKSPD23_VERSION "2.3.0"
#define IOSPD_DISKSPD23_VERSION_DATE "2026/06/15"

/* The git commit iospd was built from ("4f90ee7", "-dirty" appended for
 * uncommitted changes), read at build time; "unknown" outside a git
 * checkout. */
const char* iospd_build_commit(void);
/* The UTC day iospd was built ("2026-12-01"): SOURCE_DATE_EPOCH when the
 * build environment sets it (reproducible builds), else the build's own
 * day (cmake/git_commit.cmake). */
const char* iospd_build_date(void);

#endif
