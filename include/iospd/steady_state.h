/* SPDX-License-Identifier: MIT */
/* Steady state as SNIA SSS PTS 2.0.2 defines it (issue #28, docs/pts.md):
 * over a measurement window of the last n rounds (PTS: 5) of a tracked
 * value y,
 *   data excursion  = max(y) - min(y)                 <= data limit  % of mean
 *   slope excursion = |slope| * (n - 1)               <= slope limit % of mean
 * where slope is the least-squares line y = intercept + slope * x fitted to
 * the window with x = round - first_round (0 .. n-1), so the slope
 * excursion is the line's value at the last round minus its value at the
 * first. A window whose mean is not above 0 is never steady. Rounds go on
 * until the test holds or max_rounds (PTS: 25) have run.
 *
 * Pure arithmetic: no clock, no I/O. The PTS rounds (src/run/pts*.c) and
 * --steady-state (a round = window_ms of consecutive intervals of one run)
 * both call it. */
#ifndef IOSPD_STEADY_STATE_H
#define IOSPD_STEADY_STATE_H

#include "iospd/common.h"
#include "iospd/strbuf.h"

#define IOSPD_SS_WINDOW_PTS 5u       /* rounds in the PTS window */
#define IOSPD_SS_MAX_ROUNDS_PTS 25u  /* PTS: stop after this many rounds */
#define IOSPD_SS_DATA_PCT_PTS 20.0   /* data excursion limit, % of mean */
#define IOSPD_SS_SLOPE_PCT_PTS 10.0  /* slope excursion limit, % of mean */
#define IOSPD_SS_WINDOW_MAX 64u      /* longest window --steady-state takes */

typedef struct iospd_ss_limits_s {
  uint32_t window_rounds; /* 2 .. IOSPD_SS_WINDOW_MAX */
  double data_pct;        /* data excursion limit, % of the window's mean */
  double slope_pct;       /* slope excursion limit, % of the window's mean */
  uint32_t max_rounds;    /* 0: no cap (--steady-state stops at -d) */
} iospd_ss_limits_t;

/* The PTS limits: 5 rounds, 20 %, 10 %, 25 rounds. */
void iospd_ss_limits_pts(iospd_ss_limits_t* lim);

/* One measurement window and its verdict. Rounds are numbered from 1. */
typedef struct iospd_ss_window_s {
  bool valid; /* false: fewer rounds than the window (nothing else set) */
  uint32_t first_round, last_round;
  uint32_t n;
  double values[IOSPD_SS_WINDOW_MAX];
  double mean;
  double data_excursion, data_excursion_pct;   /* pct < 0: mean <= 0 */
  double slope, intercept;
  double slope_excursion, slope_excursion_pct; /* pct < 0: mean <= 0 */
  bool data_ok, slope_ok;
} iospd_ss_window_t;

/* Tests the window of the last lim->window_rounds of y[0 .. rounds), y[i]
 * being round i + 1. Returns true when both excursions are within their
 * limits; w is filled whenever there are enough rounds (w->valid). */
bool iospd_ss_test(const double* y, uint32_t rounds,
                   const iospd_ss_limits_t* lim, iospd_ss_window_t* w);

/* What a mode does after a round. */
typedef enum iospd_ss_next {
  IOSPD_SS_CONTINUE = 0, /* run another round */
  IOSPD_SS_STEADY,       /* the window holds: stop, converged */
  IOSPD_SS_MAX_ROUNDS    /* the cap is reached without steady state */
} iospd_ss_next_t;

/* After round `rounds` (y[0 .. rounds)): the test, then the cap. */
iospd_ss_next_t iospd_ss_after_round(const double* y, uint32_t rounds,
                                     const iospd_ss_limits_t* lim,
                                     iospd_ss_window_t* w);

/* How a --steady-state timespan ended (the JSON "stopped" words). */
typedef enum iospd_ss_stop {
  IOSPD_SS_STOPPED_STEADY = 0, /* the test held: measuring ended there */
  IOSPD_SS_STOPPED_DURATION,   /* -d ran out first */
  IOSPD_SS_STOPPED_INTERRUPTED /* Ctrl-C (or -yp) first */
} iospd_ss_stop_t;
/* "steady", "duration", "interrupted". */
const char* iospd_ss_stop_word(iospd_ss_stop_t s);

/* The verdict of --steady-state for one timespan (results tree). */
typedef struct iospd_ss_result_s {
  int metric; /* iospd_ss_metric_t */
  iospd_ss_limits_t limits;
  uint32_t round_ms;
  uint32_t rounds;          /* whole rounds measured */
  iospd_ss_window_t window; /* the last window tested (!valid: too few) */
  bool converged;
  iospd_ss_stop_t stopped;
} iospd_ss_result_t;

/* The tracked metric (one table: --steady-state's words, the JSON's
 * metric word, the unit the reports print). */
typedef enum iospd_ss_metric {
  IOSPD_SS_METRIC_IOPS = 0,
  IOSPD_SS_METRIC_THROUGHPUT, /* MiB/s */
  IOSPD_SS_METRIC_LATENCY,    /* mean latency, us (needs -L) */
  IOSPD_SS_METRIC_COUNT
} iospd_ss_metric_t;

typedef struct iospd_ss_metric_def_s {
  iospd_ss_metric_t metric;
  const char* word; /* --steady-state= / --pts= word */
  const char* json; /* the JSON "metric" word */
  const char* unit; /* for the reports */
} iospd_ss_metric_def_t;

const iospd_ss_metric_def_t* iospd_ss_metric_def(iospd_ss_metric_t m);
/* -1 when the word is none of the table's. */
int iospd_ss_metric_find(const char* word, size_t len);
/* Appends "iops, throughput or latency", for messages. */
void iospd_ss_metric_list(iospd_strbuf_t* out);

#endif
