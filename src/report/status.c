/* SPDX-License-Identifier: MIT */
/* The live status line's tracker (iospd/status.h): sums the run's intervals
 * into refresh windows of about a second and decides when to redraw. It
 * runs on the controller thread, between waits, never on the I/O path. */
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/hist.h"
#include "iospd/status.h"

/* A window of intervals counts as "a second" from this length on, so that
 * -D333 refreshes every 999 ms and not every 1332 ms. */
#define WINDOW_MS 950u
/* With intervals of a second or less, the intervals drive the redraws; the
 * clock redraws only if none came for this long (a stalled run). */
#define STALL_MS 1500u

struct iospd_status_s {
  const iospd_profile_t* p;
  iospd_status_view_t view;
  bool started;            /* view.timespan is the one being tracked */
  uint32_t interval_ms;    /* of the current timespan */
  /* The window being summed. */
  uint64_t win_ios[2], win_bytes[2], win_ms;
  iospd_hist_t* win_lat[2]; /* NULL without -L anywhere in the profile */
  /* The last redraw. */
  bool drawn;              /* in the current timespan */
  uint64_t drawn_ms;       /* its elapsed_ms */
  iospd_phase_t drawn_phase;
};

static void reset_window(iospd_status_t* st) {
  memset(st->win_ios, 0, sizeof st->win_ios);
  memset(st->win_bytes, 0, sizeof st->win_bytes);
  st->win_ms = 0;
  for (int op = 0; op < 2; op++)
    if (st->win_lat[op] != NULL) iospd_hist_reset(st->win_lat[op]);
}

iospd_status_t* iospd_status_create(const iospd_profile_t* p) {
  iospd_status_t* st = iospd_calloc(1, sizeof *st);
  if (st == NULL) return NULL;
  st->p = p;
  bool latency = false;
  for (uint32_t i = 0; i < p->timespan_count; i++)
    latency = latency || p->timespans[i].measure_latency;
  for (int op = 0; latency && op < 2; op++) {
    st->win_lat[op] = iospd_hist_create();
    if (st->win_lat[op] == NULL) {
      iospd_status_destroy(st);
      return NULL;
    }
  }
  return st;
}

void iospd_status_destroy(iospd_status_t* st) {
  if (st == NULL) return;
  for (int op = 0; op < 2; op++) iospd_hist_destroy(st->win_lat[op]);
  iospd_free(st);
}

/* A new timespan: what it shows, its interval, a fresh window. */
static void enter_timespan(iospd_status_t* st, uint32_t index,
                           uint32_t count) {
  iospd_status_view_t* v = &st->view;
  if (st->started && v->timespan == index) return;
  st->started = true;
  st->drawn = false;
  uint64_t errors = v->errors; /* counted over the whole run */
  memset(v, 0, sizeof *v);
  v->errors = errors;
  v->timespan = index;
  v->timespan_count = count;
  st->interval_ms = 1000;
  if (index < st->p->timespan_count) {
    const iospd_timespan_t* ts = &st->p->timespans[index];
    for (uint32_t t = 0; t < ts->target_count; t++) {
      uint32_t w = ts->targets[t].write_ratio;
      if (w < 100) v->show[0] = true;
      if (w > 0) v->show[1] = true;
    }
    v->latency = ts->measure_latency && st->win_lat[0] != NULL;
    if (ts->calc_iops_stddev && ts->io_bucket_ms > 0)
      st->interval_ms = ts->io_bucket_ms;
  }
  reset_window(st);
}

static bool redraw_at(iospd_status_t* st, uint64_t elapsed_ms) {
  st->drawn = true;
  st->drawn_ms = elapsed_ms;
  st->drawn_phase = st->view.phase;
  return true;
}

/* The window is complete: its rates become the shown ones. */
static void close_window(iospd_status_t* st) {
  iospd_status_view_t* v = &st->view;
  double s = (double)st->win_ms / 1000.0;
  for (int op = 0; op < 2; op++) {
    v->iops[op] = (double)st->win_ios[op] / s;
    v->mib_s[op] = (double)st->win_bytes[op] / (1024.0 * 1024.0) / s;
    const iospd_hist_t* h = st->win_lat[op];
    v->lat_known[op] = h != NULL && iospd_hist_count(h) > 0;
    if (v->lat_known[op]) {
      v->lat_mean_ms[op] = iospd_hist_mean_ns(h) / 1e6;
      v->lat_p99_ms[op] = iospd_hist_percentile_ns(h, 99.0) / 1e6;
    }
  }
  v->has_rates = true;
  reset_window(st);
}

/* The head (phase, elapsed, remaining) follows the clock, not the
 * intervals: the last interval of a phase is handed over after the next
 * phase began, and the line says where the run is now. */
bool iospd_status_on_interval(iospd_status_t* st, const iospd_interval_t* iv) {
  enter_timespan(st, iv->timespan, iv->timespan_count);
  iospd_status_view_t* v = &st->view;
  v->errors = iv->errors;
  for (int op = 0; op < 2; op++) {
    const iospd_series_dir_t* d = &iv->total.dir[op];
    st->win_ios[op] += d->ios;
    st->win_bytes[op] += d->bytes;
    if (st->win_lat[op] != NULL && d->lat != NULL)
      iospd_hist_merge(st->win_lat[op], d->lat);
  }
  if (iv->end_ms > iv->start_ms)
    st->win_ms += (uint64_t)(iv->end_ms - iv->start_ms);
  if (st->win_ms < WINDOW_MS) return false;
  close_window(st);
  return redraw_at(st, v->elapsed_ms);
}

bool iospd_status_on_tick(iospd_status_t* st, const iospd_run_tick_t* t) {
  enter_timespan(st, t->timespan, t->timespan_count);
  iospd_status_view_t* v = &st->view;
  v->phase = t->phase;
  v->elapsed_ms = t->elapsed_ms;
  v->remaining_ms = t->remaining_ms;
  if (!st->drawn || v->phase != st->drawn_phase)
    return redraw_at(st, t->elapsed_ms);
  uint64_t since = t->elapsed_ms > st->drawn_ms ? t->elapsed_ms - st->drawn_ms
                                                : 0;
  bool due;
  if (st->interval_ms <= 1000)
    due = since >= STALL_MS;
  else /* a new whole second, not just after an interval's redraw */
    due = t->elapsed_ms / 1000 != st->drawn_ms / 1000 && since >= 500;
  return due ? redraw_at(st, t->elapsed_ms) : false;
}

size_t iospd_status_render(const iospd_status_t* st, char* buf, size_t cap,
                           uint32_t width) {
  return iospd_status_line_format(buf, cap, &st->view, width);
}

const iospd_status_view_t* iospd_status_view(const iospd_status_t* st) {
  return &st->view;
}
