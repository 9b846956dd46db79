/* SPDX-License-Identifier: MIT */
#ifndef IOSPD_VERSION_H
#define IOSPD_VERSION_H

#define IOSPD_VERSION "0.1.0"
/* What the XML <Tool> element reports, so DISKSPD parsers accept it. */
#define IOSPD_DISKSPD_VERSION "2.2.0"
#define IOSPD_DISKSPD_VERSION_DATE "2024/6/3"

/* The git commit iospd was built from ("4f90ee7"), read when CMake
 * configured the build; "unknown" outside a git checkout. */
const char* iospd_build_commit(void);

#endif
