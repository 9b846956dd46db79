/* SPDX-License-Identifier: MIT */
/* The commit iospd was built from. The only file that includes the header
 * cmake/git_commit.cmake generates at build time (rewritten only when the
 * commit changes), so a new commit recompiles one file, not the core. */
#include "iospd/version.h"

#if defined(__has_include)
#if __has_include("iospd_git_commit.h")
#include "iospd_git_commit.h"
#endif
#endif
#ifndef IOSPD_GIT_COMMIT
#define IOSPD_GIT_COMMIT "unknown"
#endif

const char* iospd_build_commit(void) { return IOSPD_GIT_COMMIT; }
