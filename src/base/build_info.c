/* SPDX-License-Identifier: MIT */
/* The commit iospd was built from. The only file that sees IOSPD_GIT_COMMIT
 * (CMakeLists.txt sets it on this file alone), so a new commit recompiles
 * one file, not the whole core. */
#include "iospd/version.h"

#ifndef IOSPD_GIT_COMMIT
#define IOSPD_GIT_COMMIT "unknown"
#endif

const char* iospd_build_commit(void) { return IOSPD_GIT_COMMIT; }
