/* SPDX-License-Identifier: MIT */
/* Private to src/win: the only place <windows.h> is included, the definitions
 * of the opaque platform types, and helpers shared by the files of this
 * directory (prefix iospd_win_). */
#ifndef IOSPD_WIN_INTERNAL_H
#define IOSPD_WIN_INTERNAL_H

#include <windows.h>

#include "iospd/error.h"
#include "iospd/platform.h"

/* QueryPerformanceFrequency, read once by iospd_plat_init. */
extern uint64_t iospd_win_qpc_freq;

/* GetLastError-style code -> IOSPD_E* (the only place that knows them). */
int iospd_win_translate(DWORD code);
/* Fills err with "<what>: <FormatMessage text> (error N)". */
int iospd_win_err(iospd_err_t* err, DWORD code, const char* fmt, ...)
    IOSPD_PRINTF(3, 4);

#endif
