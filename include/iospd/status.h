/* SPDX-License-Identifier: MIT */
/* The live status line (--progress): one line on stderr, redrawn in place
 * about once a second while a run goes on, erased before anything else is
 * printed. Two pure parts, so tests can check every character:
 *  - the formatter turns the numbers of one refresh into a line that fits
 *    a given width (src/report/status_line.c);
 *  - the tracker takes the run's intervals and clock ticks (iospd/run.h),
 *    sums intervals shorter than a second into one refresh, and says when
 *    a redraw is due (src/report/status.c).
 * Drawing and erasing are the platform's (iospd_plat_status_* in
 * iospd/console.h); src/main.c wires the three together. */
#ifndef IOSPD_STATUS_H
#define IOSPD_STATUS_H

#include "iospd/common.h"
#include "iospd/profile.h"
#include "iospd/run.h"

/* Everything one status line shows. [0] read, [1] write (IOSPD_OP_*). */
typedef struct iospd_status_view_s {
  uint32_t timespan;       /* 0-based; shown 1-based as "1/2" */
  uint32_t timespan_count;
  iospd_phase_t phase;
  uint64_t elapsed_ms;     /* since the timespan started (warm-up too) */
  uint64_t remaining_ms;   /* until it ends (cool-down too) */
  bool show[2];            /* directions the profile issues */
  bool has_rates;          /* false until the first refresh window ends */
  double iops[2];          /* of the last window */
  double mib_s[2];         /* MiB (2^20 bytes) per second */
  bool latency;            /* -L: show mean and p99 */
  bool lat_known[2];       /* the window completed I/Os in that direction */
  double lat_mean_ms[2], lat_p99_ms[2];
  uint64_t errors;         /* failed I/Os so far */
} iospd_status_view_t;

/* Longest line the formatter makes (a wider terminal gets no more). */
#define IOSPD_STATUS_LINE_MAX 255u

/* Writes the line for v into buf (cap bytes, NUL-terminated) and returns
 * its length, at most min(width, cap - 1, IOSPD_STATUS_LINE_MAX). Parts
 * are separated by " | "; when the whole line does not fit, whole parts
 * are left out, least useful first: "0 errors", the elapsed time, the
 * write then read latency, the write then read rates, the remaining time,
 * "N errors"; the head ("1/2 measuring") is cut at the width only when it
 * alone is too long. ASCII only, so bytes are columns. */
size_t iospd_status_line_format(char* buf, size_t cap,
                                const iospd_status_view_t* v, uint32_t width);

/* The tracker. */
typedef struct iospd_status_s iospd_status_t;

/* For a validated profile: per timespan it shows the directions the
 * profile issues (a 100 % read run shows no write rates), the latency with
 * -L, and knows its interval (-D<ms>, else 1 s). p must outlive the
 * tracker. NULL on ENOMEM (with -L it keeps two histograms to merge short
 * intervals into one refresh). */
iospd_status_t* iospd_status_create(const iospd_profile_t* p);
void iospd_status_destroy(iospd_status_t* st);
/* Feeds one finished interval (the interval hook). Intervals of one
 * timespan are summed until they cover at least a second (-D below 1000)
 * or taken one by one (1 s or longer); the rates of that window replace
 * the shown ones. The phase and times shown stay the clock's (the ticks'):
 * an interval is handed over after it ended. Returns true when the line
 * should be redrawn now. */
bool iospd_status_on_interval(iospd_status_t* st, const iospd_interval_t* iv);
/* Feeds the run's clock (the tick hook). Returns true when the line should
 * be redrawn now: at the first tick of a timespan or of a phase; with
 * intervals longer than a second, once per elapsed second; with shorter
 * ones (whose windows redraw the line about every second), only if no
 * window came for 1.5 s. */
bool iospd_status_on_tick(iospd_status_t* st, const iospd_run_tick_t* t);
/* The line as it stands, for a terminal `width` columns wide. */
size_t iospd_status_render(const iospd_status_t* st, char* buf, size_t cap,
                           uint32_t width);
/* The numbers behind it (tests). */
const iospd_status_view_t* iospd_status_view(const iospd_status_t* st);

#endif
