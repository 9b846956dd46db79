/* SPDX-License-Identifier: MIT */
/* --steady-state's tracker (pts_steady.h). */
#include "pts_steady.h"

#include <string.h>

#include "iospd/alloc.h"
#include "iospd/hist.h"

struct iospd_ss_track_s {
  iospd_ss_result_t res;
  uint32_t timespan;
  uint32_t per_round; /* intervals in a round */
  /* The round being summed. */
  uint32_t in_round;
  uint64_t ms, ios, bytes;
  iospd_hist_t* lat; /* latency metric only */
  /* The last window_rounds values, oldest first. */
  double vals[IOSPD_SS_WINDOW_MAX];
  uint32_t nvals;
  bool done; /* the test held: later intervals are not rounds */
};

int iospd_ss_track_open(iospd_ss_track_t** out, const iospd_ss_opts_t* o,
                        uint32_t timespan, uint32_t interval_ms,
                        iospd_err_t* err) {
  *out = NULL;
  iospd_ss_track_t* t = iospd_calloc(1, sizeof *t);
  if (t == NULL) goto oom;
  t->timespan = timespan;
  t->res.metric = o->metric;
  t->res.limits.window_rounds = o->window_rounds;
  t->res.limits.data_pct = o->data_pct;
  t->res.limits.slope_pct = o->slope_pct;
  t->res.limits.max_rounds = 0; /* -d is the cap */
  t->res.round_ms = o->round_ms;
  t->res.stopped = IOSPD_SS_STOPPED_DURATION;
  if (interval_ms == 0) interval_ms = 1000;
  t->per_round = o->round_ms / interval_ms;
  if (t->per_round == 0) t->per_round = 1;
  if (o->metric == IOSPD_SS_METRIC_LATENCY &&
      (t->lat = iospd_hist_create()) == NULL)
    goto oom;
  *out = t;
  return 0;
oom:
  iospd_ss_track_close(t);
  return iospd_err_set(err, IOSPD_ENOMEM,
                       "out of memory for --steady-state's rounds");
}

static double round_value(const iospd_ss_track_t* t) {
  double secs = (double)t->ms / 1000.0;
  switch (t->res.metric) {
    case IOSPD_SS_METRIC_THROUGHPUT:
      return secs > 0 ? (double)t->bytes / 1048576.0 / secs : 0;
    case IOSPD_SS_METRIC_LATENCY:
      return iospd_hist_count(t->lat) > 0 ? iospd_hist_mean_ns(t->lat) / 1000.0
                                          : 0;
    default:
      return secs > 0 ? (double)t->ios / secs : 0;
  }
}

bool iospd_ss_track_interval(iospd_ss_track_t* t, const iospd_interval_t* iv) {
  if (t == NULL || t->done || iv->timespan != t->timespan ||
      iv->phase != IOSPD_PHASE_MEASURE)
    return false;
  t->ms += iv->end_ms > iv->start_ms ? (uint64_t)(iv->end_ms - iv->start_ms)
                                      : 0;
  for (int op = 0; op < 2; op++) {
    t->ios += iv->total.dir[op].ios;
    t->bytes += iv->total.dir[op].bytes;
    if (t->lat != NULL && iv->total.dir[op].lat != NULL)
      iospd_hist_merge(t->lat, iv->total.dir[op].lat);
  }
  if (++t->in_round < t->per_round) return false;
  /* A whole round. */
  double v = round_value(t);
  t->in_round = 0;
  t->ms = t->ios = t->bytes = 0;
  if (t->lat != NULL && iospd_hist_count(t->lat) > 0) iospd_hist_reset(t->lat);
  uint32_t n = t->res.limits.window_rounds;
  if (t->nvals == n) {
    memmove(t->vals, t->vals + 1, (n - 1) * sizeof t->vals[0]);
    t->nvals--;
  }
  t->vals[t->nvals++] = v;
  t->res.rounds++;
  iospd_ss_window_t w;
  bool ok = iospd_ss_test(t->vals, t->nvals, &t->res.limits, &w);
  if (w.valid) {
    /* Numbered from the run's first round, not the kept ones. */
    w.first_round += t->res.rounds - t->nvals;
    w.last_round += t->res.rounds - t->nvals;
    t->res.window = w;
  }
  if (ok) {
    t->done = true;
    t->res.converged = true;
    t->res.stopped = IOSPD_SS_STOPPED_STEADY;
  }
  return ok;
}

iospd_ss_result_t* iospd_ss_track_result(const iospd_ss_track_t* t,
                                         bool interrupted) {
  if (t == NULL) return NULL;
  iospd_ss_result_t* r = iospd_malloc(sizeof *r);
  if (r == NULL) return NULL;
  *r = t->res;
  if (!r->converged && interrupted) r->stopped = IOSPD_SS_STOPPED_INTERRUPTED;
  return r;
}

void iospd_ss_track_close(iospd_ss_track_t* t) {
  if (t == NULL) return;
  iospd_hist_destroy(t->lat);
  iospd_free(t);
}
