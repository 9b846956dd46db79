/* SPDX-License-Identifier: MIT */
/* The commit iospd was built from and the build date. The only file that
 * includes the header cmake/git_commit.cmake generates at build time
 * (rewritten only when the commit or the day changes), so a new commit
 * recompiles one file, not the core. */
#include "iospd/version.h"

#if defined(__has_include)
#if __has_include("iospd_git_commit.h")
#include "iospd_git_commit.h"
#endif
#endif
#ifndef IOSPD_GIT_COMMIT
#define IOSPD_GIT_COMMIT "unknown"
#endif
#ifndef IOSPD_BUILD_DATE
#define IOSPD_BUILD_DATE "unknown"
#endif

const char* iospd_build_commit(void) { return IOSPD_GIT_COMMIT; }

const char* iospd_build_date(void) { return IOSPD_BUILD_DATE; }
