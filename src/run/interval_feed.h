/* SPDX-License-Identifier: MIT */
/* The per-interval producer (issue #13): workers account their completions
 * per interval, the controller collects the finished intervals, sums them
 * and calls hooks->interval (iospd/series.h). Private to src/run.
 *
 * Hand-over, lock-free and allocation-free on the worker's side: each
 * worker owns two slots. It fills one; when a batch's clock (or the phase)
 * passes the end of the slot's interval it hands the slot over (store
 * release of `handed`) and goes on in the other one, if the controller has
 * given that one back (load acquire of `handed` == 0). The controller,
 * every poll, merges every handed slot into its own copy of that interval,
 * resets the slot and gives it back (store release of 0). Each worker also
 * publishes the interval it has reached (`at_key`, release, after the
 * hand-over), so the controller knows when every worker is past an
 * interval.
 *
 * The rules (docs/time-series.md says them for users):
 * - A completion counts in the interval of the phase the worker saw for its
 *   batch (the same test that decides whether it counts in the results)
 *   that holds the batch's clock; so measuring rows add up exactly to the
 *   results. The last interval of a phase runs to the phase's real end.
 * - An interval is written once every worker is past it, or
 *   IOSPD_SERIES_GRACE_MS after its end (a worker blocked in one I/O call
 *   for longer does not hold the rows up); the last interval of a phase
 *   waits up to IOSPD_SERIES_PHASE_GRACE_MS. Completions handed over after
 *   their interval was written (that worker was blocked, or got no CPU)
 *   are added to the first interval not yet written of the same phase; if
 *   that phase is all written they are left out of the series (counted,
 *   and said after the run). The stuck I/O itself lands where it
 *   completed.
 * - A worker whose other slot has not come back at an interval end (the
 *   controller got no CPU for a whole interval) keeps filling its slot:
 *   its earlier interval is then counted in the later one. At a phase end
 *   it has nowhere to go: those completions are left out of the series
 *   (counted and said after the run). The results are never affected. */
#ifndef IOSPD_RUN_INTERVAL_FEED_H
#define IOSPD_RUN_INTERVAL_FEED_H

#include <stdatomic.h>

#include "iospd/common.h"
#include "iospd/hist.h"
#include "iospd/run.h"
#include "iospd/series.h"

/* An interval: phase in the high half, index within the phase below. */
#define IOSPD_SERIES_KEY(phase, idx) (((uint64_t)(phase) << 32) | (uint32_t)(idx))
#define IOSPD_SERIES_KEY_PHASE(key) ((uint32_t)((key) >> 32))
#define IOSPD_SERIES_KEY_INDEX(key) ((uint32_t)(key))
/* A worker that has stopped is past every interval. */
#define IOSPD_SERIES_KEY_DONE UINT64_MAX
/* How long after its end an interval waits for a worker that has not
 * moved past it (blocked in one I/O call). */
#define IOSPD_SERIES_GRACE_MS 500u
/* The same for the last interval of a phase: what comes after its row is
 * written is lost to the series, so it waits longer (a thread that an
 * overloaded machine leaves without CPU for over 500 ms is not rare). */
#define IOSPD_SERIES_PHASE_GRACE_MS 5000u

typedef struct iospd_wslot_s {
  _Atomic uint32_t handed; /* 1: the controller's, until it stores 0 */
  uint64_t key;
  uint64_t count;  /* completions recorded, failed ones included */
  uint64_t errors; /* failed completions */
  uint64_t* ios;   /* [k * 2 + op], k = the worker's target index */
  uint64_t* bytes;
  /* NULL without -L; an entry is NULL for a direction its target never
   * issues (-w0: no writes, -w100: no reads), to halve the memory. */
  iospd_hist_t** lat;
} iospd_wslot_t;

/* One worker's side. */
typedef struct iospd_wseries_s {
  iospd_wslot_t slot[2];
  iospd_wslot_t* cur; /* the slot being filled; NULL: nowhere (dropped) */
  uint32_t cur_phase;
  uint64_t cur_end; /* tick where the current interval ends */
  uint64_t interval_ticks;
  uint32_t last[3]; /* last interval index of each phase */
  uint64_t dropped; /* completions that could not be placed */
  /* Read by the controller: kept off the line of the hot fields. */
  char pad_[IOSPD_CACHELINE];
  _Atomic uint64_t at_key;
} iospd_wseries_t;

struct iospd_engine_ctl_s;

/* Worker, once per batch: the batch's phase and clock. Out of line only
 * when an interval ends. */
void iospd_wseries_move(iospd_wseries_t* ws,
                        const struct iospd_engine_ctl_s* ctl, uint32_t phase,
                        uint64_t now);
static inline void iospd_wseries_at(iospd_wseries_t* ws,
                                    const struct iospd_engine_ctl_s* ctl,
                                    uint32_t phase, uint64_t now) {
  if (IOSPD_LIKELY(phase == ws->cur_phase && now < ws->cur_end)) return;
  iospd_wseries_move(ws, ctl, phase, now);
}

/* Worker, per completion (not in the stop phase). */
static inline void iospd_wseries_record(iospd_wseries_t* ws, uint32_t k,
                                        int op, uint32_t bytes,
                                        uint64_t lat_ns) {
  iospd_wslot_t* s = ws->cur;
  if (IOSPD_UNLIKELY(s == NULL)) {
    ws->dropped++;
    return;
  }
  uint32_t i = k * 2u + (uint32_t)op;
  s->count++;
  s->ios[i]++;
  s->bytes[i] += bytes;
  iospd_hist_t* h;
  if (s->lat != NULL && (h = s->lat[i]) != NULL) iospd_hist_record(h, lat_ns);
}

static inline void iospd_wseries_error(iospd_wseries_t* ws) {
  iospd_wslot_t* s = ws->cur;
  if (IOSPD_UNLIKELY(s == NULL)) {
    ws->dropped++;
    return;
  }
  s->count++;
  s->errors++;
}

/* ---- the controller's side ---------------------------------------------- */

typedef struct iospd_cseries_s iospd_cseries_t;

/* The interval length of a timespan: -D when given, else 1 s. */
uint32_t iospd_series_interval_ms(const struct iospd_timespan_s* ts);

/* Before the workers start: gives every worker its slots (w->series) and
 * the controller its collection. errors is the run's failed-I/O count
 * across timespans (read and added to). NULL *out and 0 when the hook is
 * NULL. */
struct iospd_worker_s;
int iospd_cseries_open(iospd_cseries_t** out, const iospd_run_hooks_t* hooks,
                       const struct iospd_timespan_s* ts, uint32_t timespan,
                       uint32_t timespan_count, uint64_t ticks_per_second,
                       struct iospd_worker_s** workers, uint32_t nworkers,
                       uint64_t* errors, iospd_err_t* err);
/* The controller's timeline: phase p started (or ended) at tick t. */
void iospd_cseries_phase_start(iospd_cseries_t* cs, uint32_t phase,
                               uint64_t t);
void iospd_cseries_phase_end(iospd_cseries_t* cs, uint32_t phase, uint64_t t);
/* Collects the handed slots and writes the intervals that are due. final:
 * every worker has stopped; write everything the timeline covers. */
void iospd_cseries_poll(iospd_cseries_t* cs, uint64_t now, bool final);
/* Longest the controller may sleep between polls, in ms. */
uint32_t iospd_cseries_poll_ms(const iospd_cseries_t* cs);
/* Completions left out of the series (see the rules above); 0 if none. */
uint64_t iospd_cseries_left_out(const iospd_cseries_t* cs);
/* Frees the collection and every worker's slots. */
void iospd_cseries_close(iospd_cseries_t* cs);

#endif
