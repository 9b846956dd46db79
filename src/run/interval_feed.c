/* SPDX-License-Identifier: MIT */
/* The per-interval producer: the worker's slot flip at an interval end and
 * the controller's collection, sum and hooks->interval call. The protocol
 * and its rules are in interval_feed.h. */
#include "interval_feed.h"

#include <string.h>

#include "iospd/alloc.h"
#include "iospd/engine.h"

#define NPHASE 3u
/* Intervals the controller holds while waiting for slow workers; a worker
 * further ahead than this makes it write the oldest one early. */
#define PENDING 4u

uint32_t iospd_series_interval_ms(const iospd_timespan_t* ts) {
  if (ts->calc_iops_stddev && ts->io_bucket_ms > 0) return ts->io_bucket_ms;
  return 1000u;
}

/* ---- worker ---------------------------------------------------------------- */

static uint64_t phase_origin(const iospd_engine_ctl_t* ctl, uint32_t phase) {
  if (phase == IOSPD_PHASE_WARMUP) return ctl->warmup_start_ticks;
  if (phase == IOSPD_PHASE_MEASURE) return ctl->measure_start_ticks;
  return atomic_load_explicit(&ctl->measure_end_ticks, memory_order_relaxed);
}

void iospd_wseries_move(iospd_wseries_t* ws, const iospd_engine_ctl_t* ctl,
                        uint32_t phase, uint64_t now) {
  iospd_wslot_t* cur = ws->cur;
  if (phase >= IOSPD_PHASE_STOP) {
    /* Nothing more is counted: hand over what there is. */
    if (cur != NULL && cur->count > 0)
      atomic_store_explicit(&cur->handed, 1, memory_order_release);
    ws->cur = NULL;
    ws->cur_phase = IOSPD_PHASE_STOP;
    ws->cur_end = UINT64_MAX;
    atomic_store_explicit(&ws->at_key, IOSPD_SERIES_KEY_DONE,
                          memory_order_release);
    return;
  }
  uint64_t origin = phase_origin(ctl, phase);
  uint64_t since = now > origin ? now - origin : 0;
  uint64_t idx = since / ws->interval_ticks;
  uint32_t last = ws->last[phase];
  if (idx >= last) idx = last;
  uint64_t key = IOSPD_SERIES_KEY(phase, idx);
  ws->cur_phase = phase;
  /* The last interval of a phase lasts until the phase changes. */
  ws->cur_end =
      idx == last ? UINT64_MAX : origin + (idx + 1) * ws->interval_ticks;
  if (cur == NULL || cur->count > 0) {
    iospd_wslot_t* other =
        cur == NULL ? NULL : (cur == &ws->slot[0] ? &ws->slot[1] : &ws->slot[0]);
    iospd_wslot_t* next = NULL;
    if (cur == NULL) {
      /* Out of slots before: take whichever came back. */
      for (int i = 0; i < 2 && next == NULL; i++)
        if (!atomic_load_explicit(&ws->slot[i].handed, memory_order_acquire))
          next = &ws->slot[i];
    } else if (!atomic_load_explicit(&other->handed, memory_order_acquire)) {
      next = other;
    }
    if (next != NULL) {
      if (cur != NULL)
        atomic_store_explicit(&cur->handed, 1, memory_order_release);
      cur = next;
    } else if (cur != NULL &&
               IOSPD_SERIES_KEY_PHASE(cur->key) != (uint32_t)phase) {
      /* No slot back at a phase end: the new phase must not mix into the
       * old one's counts. */
      atomic_store_explicit(&cur->handed, 1, memory_order_release);
      cur = NULL;
    }
    /* else: no slot back within the phase: keep filling this one. */
  }
  ws->cur = cur;
  if (cur != NULL) cur->key = key;
  atomic_store_explicit(&ws->at_key, key, memory_order_release);
}

/* ---- controller ------------------------------------------------------------ */

typedef struct pend_s {
  bool used;
  uint64_t key;
  uint64_t errors;
  uint64_t* ios; /* [target * 2 + op], timespan target index */
  uint64_t* bytes;
  iospd_hist_t** lat; /* NULL without -L; entries created on demand */
} pend_t;

struct iospd_cseries_s {
  const iospd_run_hooks_t* hooks;
  const iospd_timespan_t* ts;
  uint32_t timespan, timespan_count;
  uint64_t tps;
  uint64_t lt; /* interval length, ticks */
  uint32_t interval_ms;
  bool latency;
  uint32_t ntargets;
  iospd_worker_t** workers;
  uint32_t nworkers;
  uint64_t* errors; /* the run's, across timespans */
  uint32_t nominal[NPHASE];  /* intervals each phase has when run in full */
  uint64_t ph_start[NPHASE]; /* UINT64_MAX until known */
  uint64_t ph_end[NPHASE];
  uint64_t emit_key; /* next interval to write */
  bool done;         /* every interval of the timespan written */
  pend_t pend[PENDING];
  uint64_t left_out;
  /* The rows handed to the hook. */
  iospd_series_row_t* rows;
  iospd_hist_t* tot_lat[2];
  iospd_hist_t* empty; /* the latency of a row without completions */
};

static uint32_t phase_count(const iospd_cseries_t* cs, uint32_t p);
static uint64_t normalize(const iospd_cseries_t* cs, uint64_t k);

uint32_t iospd_cseries_poll_ms(const iospd_cseries_t* cs) {
  uint32_t half = cs->interval_ms / 2;
  if (half == 0) half = 1;
  return half < IOSPD_POLL_MS ? half : IOSPD_POLL_MS;
}

uint64_t iospd_cseries_left_out(const iospd_cseries_t* cs) {
  return cs == NULL ? 0 : cs->left_out;
}

static void free_slot(iospd_wslot_t* s, uint32_t n) {
  if (s->lat != NULL)
    for (uint32_t i = 0; i < n; i++) iospd_hist_destroy(s->lat[i]);
  iospd_free(s->lat);
  iospd_free(s->ios);
  iospd_free(s->bytes);
}

static int alloc_slot(iospd_wslot_t* s, const iospd_worker_t* w,
                      bool latency) {
  uint32_t n = w->target_count * 2u;
  memset(s, 0, sizeof(*s));
  atomic_init(&s->handed, 0);
  s->ios = iospd_calloc(n ? n : 1, sizeof(*s->ios));
  s->bytes = iospd_calloc(n ? n : 1, sizeof(*s->bytes));
  if (s->ios == NULL || s->bytes == NULL) return IOSPD_ENOMEM;
  if (!latency) return 0;
  s->lat = iospd_calloc(n ? n : 1, sizeof(*s->lat));
  if (s->lat == NULL) return IOSPD_ENOMEM;
  for (uint32_t k = 0; k < w->target_count; k++) {
    uint32_t wr = w->targets[k].t->write_ratio;
    bool need[2] = {wr < 100, wr > 0};
    for (uint32_t op = 0; op < 2; op++)
      if (need[op] && (s->lat[k * 2 + op] = iospd_hist_create()) == NULL)
        return IOSPD_ENOMEM;
  }
  return 0;
}

static void free_wseries(iospd_wseries_t* ws, uint32_t n) {
  if (ws == NULL) return;
  free_slot(&ws->slot[0], n);
  free_slot(&ws->slot[1], n);
  iospd_free(ws);
}

void iospd_cseries_close(iospd_cseries_t* cs) {
  if (cs == NULL) return;
  for (uint32_t i = 0; i < cs->nworkers; i++) {
    iospd_worker_t* w = cs->workers[i];
    free_wseries(w->series, w->target_count * 2u);
    w->series = NULL;
  }
  for (uint32_t i = 0; i < PENDING; i++) {
    pend_t* p = &cs->pend[i];
    if (p->lat != NULL)
      for (uint32_t j = 0; j < cs->ntargets * 2u; j++)
        iospd_hist_destroy(p->lat[j]);
    iospd_free(p->lat);
    iospd_free(p->ios);
    iospd_free(p->bytes);
  }
  iospd_hist_destroy(cs->empty);
  iospd_hist_destroy(cs->tot_lat[0]);
  iospd_hist_destroy(cs->tot_lat[1]);
  iospd_free(cs->rows);
  iospd_free(cs);
}

static uint32_t intervals(uint64_t ms, uint32_t len_ms) {
  return (uint32_t)((ms + len_ms - 1) / len_ms);
}

int iospd_cseries_open(iospd_cseries_t** out, const iospd_run_hooks_t* hooks,
                       const iospd_timespan_t* ts, uint32_t timespan,
                       uint32_t timespan_count, uint64_t ticks_per_second,
                       iospd_worker_t** workers, uint32_t nworkers,
                       uint64_t* errors, iospd_err_t* err) {
  *out = NULL;
  if (hooks == NULL || hooks->interval == NULL) return 0;
  iospd_cseries_t* cs = iospd_calloc(1, sizeof(*cs));
  if (cs == NULL) goto oom;
  cs->hooks = hooks;
  cs->ts = ts;
  cs->timespan = timespan;
  cs->timespan_count = timespan_count;
  cs->tps = ticks_per_second ? ticks_per_second : 1;
  cs->interval_ms = iospd_series_interval_ms(ts);
  cs->lt = cs->tps * cs->interval_ms / 1000u;
  if (cs->lt == 0) cs->lt = 1;
  cs->latency = ts->measure_latency;
  cs->ntargets = ts->target_count;
  cs->workers = workers;
  cs->nworkers = nworkers;
  cs->errors = errors;
  cs->nominal[IOSPD_PHASE_WARMUP] =
      intervals((uint64_t)ts->warmup * 1000u, cs->interval_ms);
  cs->nominal[IOSPD_PHASE_MEASURE] =
      intervals((uint64_t)ts->duration * 1000u, cs->interval_ms);
  /* -d0 still measures for an instant: it gets one (empty) row. */
  if (cs->nominal[IOSPD_PHASE_MEASURE] == 0)
    cs->nominal[IOSPD_PHASE_MEASURE] = 1;
  cs->nominal[IOSPD_PHASE_COOLDOWN] =
      intervals((uint64_t)ts->cooldown * 1000u, cs->interval_ms);
  for (uint32_t p = 0; p < NPHASE; p++)
    cs->ph_start[p] = cs->ph_end[p] = UINT64_MAX;
  cs->emit_key = normalize(cs, IOSPD_SERIES_KEY(IOSPD_PHASE_WARMUP, 0));
  uint32_t nt = cs->ntargets * 2u;
  for (uint32_t i = 0; i < PENDING; i++) {
    pend_t* p = &cs->pend[i];
    p->ios = iospd_calloc(nt ? nt : 1, sizeof(*p->ios));
    p->bytes = iospd_calloc(nt ? nt : 1, sizeof(*p->bytes));
    if (p->ios == NULL || p->bytes == NULL) goto oom;
    if (cs->latency) {
      p->lat = iospd_calloc(nt ? nt : 1, sizeof(*p->lat));
      if (p->lat == NULL) goto oom;
      for (uint32_t j = 0; j < nt; j++)
        if ((p->lat[j] = iospd_hist_create()) == NULL) goto oom;
    }
  }
  cs->rows = iospd_calloc(cs->ntargets ? cs->ntargets : 1, sizeof(*cs->rows));
  if (cs->rows == NULL) goto oom;
  if (cs->latency && ((cs->tot_lat[0] = iospd_hist_create()) == NULL ||
                      (cs->tot_lat[1] = iospd_hist_create()) == NULL ||
                      (cs->empty = iospd_hist_create()) == NULL))
    goto oom;
  for (uint32_t i = 0; i < nworkers; i++) {
    iospd_worker_t* w = workers[i];
    iospd_wseries_t* ws = iospd_calloc(1, sizeof(*ws));
    if (ws == NULL) goto oom;
    w->series = ws;
    if (alloc_slot(&ws->slot[0], w, cs->latency) < 0 ||
        alloc_slot(&ws->slot[1], w, cs->latency) < 0)
      goto oom;
    ws->interval_ticks = cs->lt;
    for (uint32_t p = 0; p < NPHASE; p++)
      ws->last[p] = cs->nominal[p] ? cs->nominal[p] - 1 : 0;
    /* Warm-up's first interval; the first batch sets the real one. */
    ws->cur = &ws->slot[0];
    ws->cur->key = IOSPD_SERIES_KEY(IOSPD_PHASE_WARMUP, 0);
    ws->cur_phase = IOSPD_PHASE_WARMUP;
    ws->cur_end = 0;
    atomic_init(&ws->at_key, IOSPD_SERIES_KEY(IOSPD_PHASE_WARMUP, 0));
  }
  *out = cs;
  return 0;
oom:
  iospd_cseries_close(cs);
  return iospd_err_set(err, IOSPD_ENOMEM,
                       "out of memory for the per-interval records "
                       "(time series, live status)");
}

void iospd_cseries_phase_start(iospd_cseries_t* cs, uint32_t phase,
                               uint64_t t) {
  if (cs != NULL && phase < NPHASE) cs->ph_start[phase] = t;
}

void iospd_cseries_phase_end(iospd_cseries_t* cs, uint32_t phase, uint64_t t) {
  if (cs == NULL || phase >= NPHASE || cs->ph_start[phase] == UINT64_MAX)
    return;
  if (t < cs->ph_start[phase]) t = cs->ph_start[phase];
  if (cs->ph_end[phase] == UINT64_MAX) cs->ph_end[phase] = t;
}

/* Intervals phase p has: as run when it has ended, else as planned. */
static uint32_t phase_count(const iospd_cseries_t* cs, uint32_t p) {
  if (cs->ph_start[p] == UINT64_MAX) return cs->nominal[p];
  if (cs->ph_end[p] == UINT64_MAX) return cs->nominal[p];
  uint64_t len = cs->ph_end[p] - cs->ph_start[p];
  uint64_t n = (len + cs->lt - 1) / cs->lt;
  if (p == IOSPD_PHASE_MEASURE && n == 0) n = 1;
  return n < cs->nominal[p] ? (uint32_t)n : cs->nominal[p];
}

/* k itself if its phase has it, else the first interval of the next phase
 * that has any; a phase beyond cool-down means the timespan is written. */
static uint64_t normalize(const iospd_cseries_t* cs, uint64_t k) {
  uint32_t p = IOSPD_SERIES_KEY_PHASE(k);
  uint32_t i = IOSPD_SERIES_KEY_INDEX(k);
  while (p < NPHASE && i >= phase_count(cs, p)) {
    p++;
    i = 0;
  }
  return IOSPD_SERIES_KEY(p, i);
}

static uint64_t next_key(const iospd_cseries_t* cs, uint64_t k) {
  return normalize(cs, k + 1);
}

static void clear_pend(const iospd_cseries_t* cs, pend_t* p) {
  uint32_t nt = cs->ntargets * 2u;
  memset(p->ios, 0, nt * sizeof(*p->ios));
  memset(p->bytes, 0, nt * sizeof(*p->bytes));
  if (p->lat != NULL)
    for (uint32_t j = 0; j < nt; j++)
      if (iospd_hist_count(p->lat[j]) > 0) iospd_hist_reset(p->lat[j]);
  p->errors = 0;
  p->used = false;
}

static pend_t* find_pend(iospd_cseries_t* cs, uint64_t key) {
  for (uint32_t i = 0; i < PENDING; i++)
    if (cs->pend[i].used && cs->pend[i].key == key) return &cs->pend[i];
  return NULL;
}

static int64_t ticks_to_ms(const iospd_cseries_t* cs, uint64_t from,
                           uint64_t to) {
  /* Rounded to the nearest ms; signed: warm-up is before measuring. */
  if (to >= from) {
    uint64_t d = to - from;
    return (int64_t)(d / cs->tps * 1000u + (d % cs->tps * 1000u + cs->tps / 2) / cs->tps);
  }
  uint64_t d = from - to;
  return -(int64_t)(d / cs->tps * 1000u + (d % cs->tps * 1000u + cs->tps / 2) / cs->tps);
}

/* Where measuring starts (or would have): the zero of the row times. */
static uint64_t time_zero(const iospd_cseries_t* cs) {
  if (cs->ph_start[IOSPD_PHASE_MEASURE] != UINT64_MAX)
    return cs->ph_start[IOSPD_PHASE_MEASURE];
  uint64_t w0 = cs->ph_start[IOSPD_PHASE_WARMUP];
  return w0 + (uint64_t)cs->ts->warmup * cs->tps;
}

/* End tick of interval k, or UINT64_MAX while it can still grow. */
static uint64_t interval_end(const iospd_cseries_t* cs, uint64_t k) {
  uint32_t p = IOSPD_SERIES_KEY_PHASE(k), i = IOSPD_SERIES_KEY_INDEX(k);
  if (cs->ph_start[p] == UINT64_MAX) return UINT64_MAX;
  bool last = i + 1 >= phase_count(cs, p);
  if (last) return cs->ph_end[p];
  uint64_t e = cs->ph_start[p] + (uint64_t)(i + 1) * cs->lt;
  return cs->ph_end[p] != UINT64_MAX && cs->ph_end[p] < e ? cs->ph_end[p] : e;
}

static void emit(iospd_cseries_t* cs, uint64_t k, const pend_t* pd) {
  uint32_t p = IOSPD_SERIES_KEY_PHASE(k), i = IOSPD_SERIES_KEY_INDEX(k);
  if (pd != NULL) *cs->errors += pd->errors;
  iospd_interval_t iv;
  memset(&iv, 0, sizeof(iv));
  iv.timespan = cs->timespan;
  iv.timespan_count = cs->timespan_count;
  iv.phase = (iospd_phase_t)p;
  /* 0-based within the timespan, all phases. */
  for (uint32_t q = 0; q < p; q++) iv.index += phase_count(cs, q);
  iv.index += i;
  uint64_t zero = time_zero(cs);
  uint64_t start = cs->ph_start[p] + (uint64_t)i * cs->lt;
  uint64_t end = interval_end(cs, k);
  if (end == UINT64_MAX) end = start + cs->lt; /* final write of a cut run */
  iv.start_ms = ticks_to_ms(cs, zero, start);
  iv.end_ms = ticks_to_ms(cs, zero, end);
  /* Measuring and cool-down rows start on whole intervals from the zero. */
  if (p == IOSPD_PHASE_MEASURE) iv.start_ms = (int64_t)i * cs->interval_ms;
  int64_t el = ticks_to_ms(cs, cs->ph_start[IOSPD_PHASE_WARMUP], end);
  iv.elapsed_ms = el > 0 ? (uint64_t)el : 0;
  int64_t total =
      ((int64_t)cs->ts->duration + (int64_t)cs->ts->cooldown) * 1000;
  iv.remaining_ms = total > iv.end_ms ? (uint64_t)(total - iv.end_ms) : 0;
  iv.target_count = cs->ntargets;
  iv.targets = cs->rows;
  memset(&iv.total, 0, sizeof(iv.total));
  for (int op = 0; op < 2; op++)
    if (cs->tot_lat[op] != NULL) {
      if (iospd_hist_count(cs->tot_lat[op]) > 0)
        iospd_hist_reset(cs->tot_lat[op]);
      iv.total.dir[op].lat = cs->tot_lat[op];
    }
  for (uint32_t t = 0; t < cs->ntargets; t++)
    for (int op = 0; op < 2; op++) {
      iospd_series_dir_t* d = &cs->rows[t].dir[op];
      uint32_t j = t * 2u + (uint32_t)op;
      d->ios = pd ? pd->ios[j] : 0;
      d->bytes = pd ? pd->bytes[j] : 0;
      d->lat = !cs->latency ? NULL : pd != NULL ? pd->lat[j] : cs->empty;
      iv.total.dir[op].ios += d->ios;
      iv.total.dir[op].bytes += d->bytes;
    }
  if (cs->latency)
    for (uint32_t t = 0; t < cs->ntargets; t++)
      for (int op = 0; op < 2; op++)
        if (pd != NULL) iospd_hist_merge(cs->tot_lat[op], pd->lat[t * 2u + op]);
  iv.errors = *cs->errors;
  cs->hooks->interval(cs->hooks->ctx, &iv);
}

/* Writes interval emit_key (with what has been collected) and moves on. */
static void emit_next(iospd_cseries_t* cs) {
  pend_t* pd = find_pend(cs, cs->emit_key);
  emit(cs, cs->emit_key, pd);
  if (pd != NULL) clear_pend(cs, pd);
  cs->emit_key = next_key(cs, cs->emit_key);
  if (IOSPD_SERIES_KEY_PHASE(cs->emit_key) >= NPHASE) cs->done = true;
}

static void add_slot(iospd_cseries_t* cs, const iospd_worker_t* w,
                     const iospd_wslot_t* s) {
  uint64_t key = s->key;
  uint32_t p = IOSPD_SERIES_KEY_PHASE(key), i = IOSPD_SERIES_KEY_INDEX(key);
  if (p >= NPHASE) return;
  uint32_t n = phase_count(cs, p);
  if (n == 0) return; /* warm-up of -W0: nothing to write, not measured */
  if (i >= n) key = IOSPD_SERIES_KEY(p, n - 1); /* a cut phase's tail */
  if (cs->done || key < cs->emit_key) {
    /* Handed over after its row was written: into the next row of the
     * same phase, if there is one. */
    if (!cs->done && IOSPD_SERIES_KEY_PHASE(cs->emit_key) == p) {
      key = cs->emit_key;
    } else {
      cs->left_out += s->count - s->errors;
      *cs->errors += s->errors;
      return;
    }
  }
  pend_t* pd = find_pend(cs, key);
  while (pd == NULL) {
    for (uint32_t j = 0; j < PENDING && pd == NULL; j++)
      if (!cs->pend[j].used) pd = &cs->pend[j];
    if (pd == NULL) {
      /* A worker is PENDING intervals ahead of a slow one: write the
       * oldest now; not an interval whose phase the controller has not
       * seen start (it has had no CPU for that long). */
      if (cs->ph_start[IOSPD_SERIES_KEY_PHASE(cs->emit_key)] == UINT64_MAX) {
        cs->left_out += s->count - s->errors;
        *cs->errors += s->errors;
        return;
      }
      emit_next(cs);
      if (cs->done || key < cs->emit_key) {
        cs->left_out += s->count - s->errors;
        *cs->errors += s->errors;
        return;
      }
      pd = find_pend(cs, key);
      continue;
    }
    pd->used = true;
    pd->key = key;
  }
  pd->errors += s->errors;
  for (uint32_t k = 0; k < w->target_count; k++) {
    uint32_t t = w->targets[k].target_index;
    for (uint32_t op = 0; op < 2; op++) {
      uint32_t src = k * 2u + op, dst = t * 2u + op;
      pd->ios[dst] += s->ios[src];
      pd->bytes[dst] += s->bytes[src];
      if (pd->lat != NULL && s->lat != NULL && s->lat[src] != NULL)
        iospd_hist_merge(pd->lat[dst], s->lat[src]);
    }
  }
}

static void reset_slot(const iospd_worker_t* w, iospd_wslot_t* s) {
  uint32_t n = w->target_count * 2u;
  memset(s->ios, 0, n * sizeof(*s->ios));
  memset(s->bytes, 0, n * sizeof(*s->bytes));
  if (s->lat != NULL)
    for (uint32_t i = 0; i < n; i++)
      if (s->lat[i] != NULL && iospd_hist_count(s->lat[i]) > 0)
        iospd_hist_reset(s->lat[i]);
  s->count = s->errors = 0;
}

void iospd_cseries_poll(iospd_cseries_t* cs, uint64_t now, bool final) {
  if (cs == NULL || cs->done) return;
  /* Where every worker is, read before its slots: a worker past k has
   * handed over k's slot before saying so (interval_feed.h). */
  uint64_t slowest = IOSPD_SERIES_KEY_DONE;
  for (uint32_t i = 0; i < cs->nworkers; i++) {
    iospd_worker_t* w = cs->workers[i];
    uint64_t at = atomic_load_explicit(&w->series->at_key, memory_order_acquire);
    if (at < slowest) slowest = at;
  }
  for (uint32_t i = 0; i < cs->nworkers; i++) {
    iospd_worker_t* w = cs->workers[i];
    for (int j = 0; j < 2; j++) {
      iospd_wslot_t* s = &w->series->slot[j];
      if (!atomic_load_explicit(&s->handed, memory_order_acquire)) continue;
      if (s->count > 0) add_slot(cs, w, s);
      reset_slot(w, s);
      atomic_store_explicit(&s->handed, 0, memory_order_release);
    }
  }
  if (final) {
    /* Every worker has stopped: what is still in a slot it was filling
     * belongs to the run too. */
    for (uint32_t i = 0; i < cs->nworkers; i++) {
      iospd_worker_t* w = cs->workers[i];
      iospd_wslot_t* s = w->series->cur;
      if (s != NULL && s->count > 0) {
        add_slot(cs, w, s);
        reset_slot(w, s);
      }
      cs->left_out += w->series->dropped;
      w->series->dropped = 0;
    }
  }
  uint64_t grace = cs->tps * IOSPD_SERIES_GRACE_MS / 1000u;
  uint64_t phase_grace = cs->tps * IOSPD_SERIES_PHASE_GRACE_MS / 1000u;
  while (!cs->done) {
    /* A phase cut short may have fewer intervals than planned. */
    if (IOSPD_SERIES_KEY_INDEX(cs->emit_key) >=
        phase_count(cs, IOSPD_SERIES_KEY_PHASE(cs->emit_key))) {
      cs->emit_key = normalize(cs, cs->emit_key);
      if (IOSPD_SERIES_KEY_PHASE(cs->emit_key) >= NPHASE) {
        cs->done = true;
        break;
      }
    }
    uint64_t k = cs->emit_key;
    uint32_t p = IOSPD_SERIES_KEY_PHASE(k);
    if (cs->ph_start[p] == UINT64_MAX) {
      if (!final) break;
      /* The run ended before this phase: nothing more to write. */
      cs->done = true;
      break;
    }
    uint64_t end = interval_end(cs, k);
    if (!final) {
      if (end == UINT64_MAX || now < end) break;
      /* Late completions of an interval go to the next one of its phase;
       * the last one of a phase has no next, so it waits longer. */
      bool last = IOSPD_SERIES_KEY_INDEX(k) + 1 >= phase_count(cs, p);
      if (slowest <= k && now - end < (last ? phase_grace : grace)) break;
    } else if (end == UINT64_MAX && cs->ph_end[p] == UINT64_MAX) {
      /* Cut in this phase without the controller saying where: write it
       * (emit() shows a whole interval) and stop. */
      emit_next(cs);
      cs->done = true;
      break;
    }
    emit_next(cs);
  }
}
