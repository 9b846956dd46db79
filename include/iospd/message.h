/* SPDX-License-Identifier: MIT */
/* Messages for the user travel as (kind, text): the code that has something
 * to say names its kind and gives the bare text; the one printer
 * (src/app/app_print.c, iospd_app_message) adds the kind's prefix and sends
 * it where the kind goes. The kinds, their prefixes and where they go live
 * in one table (src/base/message.c), the only place the prefixes are
 * spelled. */
#ifndef IOSPD_MESSAGE_H
#define IOSPD_MESSAGE_H

#include <stdarg.h>

#include "iospd/common.h"
#include "iospd/strbuf.h"

typedef enum iospd_msg_kind_e {
  /* A -v line: a UTC timestamp before it, with the run-time notices
   * (stdout for the text report, as DISKSPD, else stderr). */
  IOSPD_MSG_VERBOSE = 0,
  /* DISKSPD's own warning lines, in DISKSPD's capitals ("WARNING: "), on
   * stderr; kept for the reports' warnings. */
  IOSPD_MSG_DISKSPD_WARNING,
  /* iospd's warnings about misleading set-ups ("warning: "), on stderr;
   * kept for the reports' warnings. */
  IOSPD_MSG_WARNING,
  /* What iospd did on its own, whatever -v says ("NOTE: "), on stderr. */
  IOSPD_MSG_NOTE,
  /* A workload's account of what it prepares (the tree's creation, re-use
   * and clean-up: "iospd: "), on stderr. */
  IOSPD_MSG_INFO,
  /* A line of progress with no prefix (--verify-only), on stderr. */
  IOSPD_MSG_PROGRESS,
  /* Why a command line, profile or run was refused or failed
   * ("iospd: error: "), on stderr. */
  IOSPD_MSG_ERROR,
  /* iospd's detail after one of DISKSPD's own warning lines, naming the
   * target ("note: "), on stderr. */
  IOSPD_MSG_DETAIL,
  /* What to do after an error, with no prefix ("Run 'iospd -?' ..."), on
   * stderr. */
  IOSPD_MSG_HINT,
  IOSPD_MSG_KIND_COUNT
} iospd_msg_kind_t;

/* Where a kind goes and what becomes of it. */
enum {
  IOSPD_MSG_STAMPED = 1u << 0, /* a UTC timestamp first, as a notice */
  IOSPD_MSG_KEPT = 1u << 1     /* also one of the reports' warnings */
};

typedef struct iospd_msg_def_s {
  iospd_msg_kind_t kind;
  const char* prefix; /* written before the text ("" for none) */
  unsigned flags;     /* IOSPD_MSG_* */
} iospd_msg_def_t;

/* The row of kind k (a kind out of range gets the NOTE row). */
const iospd_msg_def_t* iospd_msg_def(iospd_msg_kind_t k);

/* Appends "<prefix><text>\n" (no timestamp) to sb. */
void iospd_msg_line(iospd_strbuf_t* sb, iospd_msg_kind_t k, const char* text);
/* The same with the text formatted; a control character the text carries
 * (a path with a newline in it) becomes '?', so a message stays one line.
 * The validation's and the parser's diagnostics are built with these. */
void iospd_msg_linef(iospd_strbuf_t* sb, iospd_msg_kind_t k, const char* fmt,
                     ...) IOSPD_PRINTF(3, 4);
void iospd_msg_vlinef(iospd_strbuf_t* sb, iospd_msg_kind_t k, const char* fmt,
                      va_list ap) IOSPD_PRINTF(3, 0);

#endif
