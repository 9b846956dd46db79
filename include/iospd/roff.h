/* SPDX-License-Identifier: MIT */
/* Text as roff input for the man page (man(7) macros): what must be escaped
 * so groff prints it as written. '\' is written \e; ' and ` as \(aq and
 * \(ga (ASCII, not typographic quotes, so commands stay copyable); a line
 * starting with '.' gets \& (else it would be a request); non-ASCII UTF-8
 * becomes \[uXXXX] (groff reads ASCII input), bad bytes \[uFFFD].
 *
 * Hyphens: '-' is written \- (a minus, what a shell needs) in option names,
 * paths and commands, and left a hyphen in prose. Without IOSPD_ROFF_CODE a
 * word counts as code when it starts with '-' (after an opening bracket or
 * quote) or holds one of / < = _ ("-Sh", "--engine=", "/dev/shm/sem.x-y");
 * "round-robin" stays prose. */
#ifndef IOSPD_ROFF_H
#define IOSPD_ROFF_H

#include "iospd/common.h"
#include "iospd/strbuf.h"

enum {
  IOSPD_ROFF_CODE = 1u << 0,   /* every '-' is \- (options, commands) */
  IOSPD_ROFF_ARG = 1u << 1,    /* a quoted macro argument: '"' is \(dq and
                                  line breaks become spaces */
  IOSPD_ROFF_SYNTAX = 1u << 2, /* a switch's syntax inside \fB...\fR:
                                  <placeholders> in italics, a break point
                                  after each '|' so long lists can wrap */
};

/* Appends text (lines separated by '\n') as roff input: each line's
 * leading spaces dropped, empty lines skipped (roff fills the text), every
 * line ended with '\n' (not in IOSPD_ROFF_ARG mode, which ends nothing). */
void iospd_roff_append(iospd_strbuf_t* out, const char* text, unsigned flags);

#endif
