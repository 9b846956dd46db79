/* SPDX-License-Identifier: MIT */
/* Process-level platform services that only src/main.c uses: the command
 * line as UTF-8, console set-up, and reading a whole file. Declared apart
 * from platform.h because the run core never needs them. */
#ifndef IOSPD_CONSOLE_H
#define IOSPD_CONSOLE_H

#include "iospd/common.h"
#include "iospd/error.h"

/* Sets the console up for our output (Windows: UTF-8 code page, CRLF text
 * mode kept as DISKSPD prints it). Call first. */
void iospd_plat_console_init(void);
/* Returns argv as UTF-8 strings (Windows: from GetCommandLineW, since the
 * CRT's argv is in the ANSI code page). The strings live until exit. */
int iospd_plat_utf8_args(int argc, char** argv, int* out_argc,
                         const char* const** out_argv);
/* Reads a whole file (UTF-8 path) into a NUL-terminated iospd_malloc buffer. */
int iospd_plat_read_whole_file(const char* path, char** data, size_t* len,
                               iospd_err_t* err);
/* Writes text to stdout / stderr in one go and flushes. */
void iospd_plat_write_out(const char* text, size_t len);
void iospd_plat_write_err(const char* text, size_t len);

#endif
