/* SPDX-License-Identifier: MIT */
/* One finished interval of a run, as the controller hands it to the live
 * outputs (the time-series file, the status line) when the interval ends.
 *
 * Contract between the producer (src/run: workers hand over per-interval
 * counts and, with -L, a per-interval histogram; the controller sums them)
 * and the consumers (src/report/series_*.c, the status line). The interval
 * is the -D interval when -D is given, else 1 s; intervals cover warm-up,
 * measuring and cool-down. Everything a row points to is valid only during
 * the callback. */
#ifndef IOSPD_SERIES_H
#define IOSPD_SERIES_H

#include "iospd/common.h"
#include "iospd/hist.h"

/* A run's phases; the engine's workers read them (iospd/engine.h). */
enum iospd_phase {
  IOSPD_PHASE_WARMUP = 0, /* issuing, not counting */
  IOSPD_PHASE_MEASURE,    /* issuing and counting */
  IOSPD_PHASE_COOLDOWN,   /* issuing, not counting */
  IOSPD_PHASE_STOP        /* stop issuing, drain, return */
};
typedef enum iospd_phase iospd_phase_t;

/* "warm-up", "measuring", "cool-down". */
const char* iospd_phase_name(iospd_phase_t phase);

/* One direction of one row: this interval alone. */
typedef struct iospd_series_dir_s {
  uint64_t ios;
  uint64_t bytes;
  const iospd_hist_t* lat; /* NULL without -L */
} iospd_series_dir_t;

/* One target (or the total): [0] read, [1] write (IOSPD_OP_*). The total
 * direction of a row is the sum of the two (histograms merge exactly). */
typedef struct iospd_series_row_s {
  iospd_series_dir_t dir[2];
} iospd_series_row_t;

typedef struct iospd_interval_s {
  uint32_t timespan;       /* 0-based index of the timespan */
  uint32_t timespan_count; /* timespans in the profile */
  iospd_phase_t phase;
  uint32_t index;          /* 0-based within this timespan (all phases) */
  /* Interval bounds in ms from the start of measuring of this timespan:
   * negative during warm-up. The last interval of a phase may be shorter
   * than the interval length (end - start says how long it was). */
  int64_t start_ms, end_ms;
  uint64_t elapsed_ms;   /* since the timespan started (warm-up included) */
  uint64_t remaining_ms; /* until the timespan ends (cool-down included) */
  uint32_t target_count;
  const iospd_series_row_t* targets; /* by target index in the timespan */
  iospd_series_row_t total;          /* all targets */
  uint64_t errors;       /* failed I/Os so far in this run, all timespans */
} iospd_interval_t;

#endif
