/* SPDX-License-Identifier: MIT */
/* The one place the application prints: standard output, error lines and
 * the run-time notices (-v lines, -P dots, the Ctrl-C line). Everything
 * below the application builds text into a strbuf and hands it here. */
#ifndef IOSPD_APP_PRINT_H
#define IOSPD_APP_PRINT_H

#include <stddef.h>

#include "iospd/message.h"
#include "iospd/profile.h"
#include "iospd/strbuf.h"

/* The exit codes: 0 success (also after Ctrl-C), 1 run failure, 3 bad input
 * (DISKSPD's). */
enum {
  IOSPD_EXIT_OK = 0,
  IOSPD_EXIT_RUN_FAILED = 1,
  IOSPD_EXIT_BAD_INPUT = 3
};

/* sb on standard output. */
void iospd_app_out(const iospd_strbuf_t* sb);

/* One line of kind k on standard error: its prefix (iospd/message.h), msg,
 * a newline. */
void iospd_app_err_line(iospd_msg_kind_t k, const char* msg);

/* Diagnostics collected one per line ("warning: ...", "error: ...") on
 * standard error; nothing when sb is empty. */
void iospd_app_err_sb(const iospd_strbuf_t* sb);

/* A message of kind k (iospd/message.h): its prefix, the text and a line
 * end; a kind marked IOSPD_MSG_STAMPED (-v lines) behind a UTC timestamp
 * (diagnostics, not a stable interface) as a notice (iospd_app_notice),
 * every other kind on standard error. p may be NULL. */
void iospd_app_message(const iospd_profile_t* p, iospd_msg_kind_t k,
                       const char* text);

/* A run-time notice: on stdout for text output, as DISKSPD prints them, on
 * stderr when stdout holds an XML or JSON document (p may be NULL: stdout). */
void iospd_app_notice(const iospd_profile_t* p, const char* text, size_t len);

#endif
