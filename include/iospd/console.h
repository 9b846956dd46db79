/* SPDX-License-Identifier: MIT */
/* Process-level platform services that only src/main.c and the application
 * (src/app) use: the command line as UTF-8, console set-up, and reading a
 * whole file. Declared apart from platform.h because the run core never
 * needs them. */
#ifndef IOSPD_CONSOLE_H
#define IOSPD_CONSOLE_H

#include "iospd/common.h"
#include "iospd/error.h"

/* Sets the console up for our output (Windows: a console gets UTF-16 and
 * its code page is left alone, pipes and files get UTF-8 with CRLF text
 * mode kept as DISKSPD prints it; Linux: SIGPIPE ignored, so writing to a
 * closed pipe fails with EPIPE and is reported instead of killing the
 * process silently). Call first. */
void iospd_plat_console_init(void);
/* Returns argv as UTF-8 strings (Windows: from GetCommandLineW, since the
 * CRT's argv is in the ANSI code page). The strings live until exit. */
int iospd_plat_utf8_args(int argc, char** argv, int* out_argc,
                         const char* const** out_argv);
/* Writes text to stdout / stderr in one go and flushes. stdout is the
 * product (results, profiles), so its first failed write or flush is
 * remembered; later writes to it are skipped, and iospd_plat_close_out
 * reports the failure. A write error on stderr has nowhere to be told. May
 * be called from several threads (-P dots). */
void iospd_plat_write_out(const char* text, size_t len);
void iospd_plat_write_err(const char* text, size_t len);
/* The live status line (--progress) on stderr; see iospd/status.h. */
/* True when stderr is a terminal: Linux isatty(2); Windows a console
 * handle (GetConsoleMode succeeds: conhost or Windows Terminal) whose
 * processed output (\r, \b) is on. A file or a pipe is not, and neither
 * is a mintty/MSYS pipe. */
bool iospd_plat_err_is_terminal(void);
/* Columns of the terminal stderr is on (its visible window on Windows);
 * 0 when unknown. */
uint32_t iospd_plat_err_columns(void);
/* Draws line (ASCII, no newline, at most 255 bytes: longer is cut) on
 * stderr's current row, in place of the status line shown before. A
 * terminal gets "\r", the line and "erase to the end of the row" (ESC [K);
 * a Windows console gets "\r" and the line padded with spaces over the
 * previous one (no console mode is changed, so there is nothing to restore
 * after Ctrl-C or a kill). Controller thread only. */
void iospd_plat_status_show(const char* line, size_t len);
/* Erases the status line, if one is shown, leaving the cursor at the start
 * of its row. iospd_plat_write_out and iospd_plat_write_err call it before
 * writing, so nothing (a message, the report) is printed behind it. */
void iospd_plat_status_clear(void);
/* Erases a status line left shown, flushes and closes stdout (call once,
 * last). Returns 0 when everything written to it arrived; else a negative
 * IOSPD_E* with err naming standard output and the OS's reason (full disk,
 * closed pipe, bad handle). */
int iospd_plat_close_out(iospd_err_t* err);

/* A file written as the run goes (--timeseries): created (or truncated)
 * at path (UTF-8), and every write handed straight to the OS, with no
 * buffer of ours, so whatever was written survives the process being
 * killed. Controller thread only. */
typedef struct iospd_plat_stream_s iospd_plat_stream_t;
int iospd_plat_stream_create(const char* path, iospd_plat_stream_t** out,
                             iospd_err_t* err);
/* Writes all len bytes; a negative IOSPD_E* with err saying why if not. */
int iospd_plat_stream_write(iospd_plat_stream_t* s, const void* data,
                            size_t len, iospd_err_t* err);
/* Closes (NULL is fine); a negative IOSPD_E* if the close reports a
 * failure of earlier writes. */
int iospd_plat_stream_close(iospd_plat_stream_t* s, iospd_err_t* err);

#endif
