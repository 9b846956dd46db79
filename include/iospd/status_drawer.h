/* SPDX-License-Identifier: MIT */
/* The live status line's own thread. The controller renders the line (pure
 * work) and posts it here without ever waiting; this thread writes it to
 * the console. A console that blocks its writers (a QuickEdit selection on
 * Windows, Ctrl-S on a terminal, a pipe nobody reads) then stalls only this
 * thread, never the phase deadlines, the CPU snapshots, the -y events or
 * the time-series rows the controller owes at fixed times.
 *
 * Hand-off: a triple buffer of whole lines on one atomic word. The poster
 * owns one buffer, the drawer one, the third is the latest line; a post
 * exchanges its buffer with the third, so the drawer always draws the
 * newest line and skips the ones a stall made stale.
 *
 * Other console output (messages, the Ctrl-C notice) goes through
 * iospd_status_drawer_quiet_begin/_end around it, so it never interleaves
 * with half a status line: begin waits while a status write is under way
 * (it would block on that console anyway), and the line comes back once
 * end is called. */
#ifndef IOSPD_STATUS_DRAWER_H
#define IOSPD_STATUS_DRAWER_H

#include "iospd/common.h"
#include "iospd/error.h"
#include "iospd/status.h"

typedef struct iospd_status_drawer_s iospd_status_drawer_t;

/* Writes one status line on the console (iospd_plat_status_show), or a
 * test's writer. Runs on the drawer's thread only. */
typedef void (*iospd_status_show_fn)(void* ctx, const char* line,
                                     size_t len);

/* Starts the thread. poll_ms: how often it looks for a new line (the
 * line changes a few times a second at most). */
int iospd_status_drawer_start(iospd_status_drawer_t** d,
                              iospd_status_show_fn show, void* ctx,
                              uint32_t poll_ms, iospd_err_t* err);
/* Hands a line over; never waits, never allocates. len is cut to
 * IOSPD_STATUS_LINE_MAX. */
void iospd_status_drawer_post(iospd_status_drawer_t* d, const char* line,
                              size_t len);
/* Around any other write to the console; the calls nest (any thread).
 * redraw: show the line again at once (after a message); false leaves it
 * erased until the next post (after a -P dot, so the dots stay in runs). */
void iospd_status_drawer_quiet_begin(iospd_status_drawer_t* d);
void iospd_status_drawer_quiet_end(iospd_status_drawer_t* d, bool redraw);
/* Lines the thread has written so far (tests, and the e2e's stall check). */
uint64_t iospd_status_drawer_drawn(const iospd_status_drawer_t* d);
/* Stops the thread once its current write returns, and frees d. Lines
 * posted and not yet drawn are dropped. NULL: nothing. */
void iospd_status_drawer_stop(iospd_status_drawer_t* d);

#endif
