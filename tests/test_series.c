/* SPDX-License-Identifier: MIT */
/* The per-interval producer (src/run/interval_feed.c) against the fake
 * platform's virtual clock: rows in every phase with the right times, and
 * exact bookkeeping: the measuring rows' I/Os and bytes add up to the
 * results tree per target and direction, and their merged histograms equal
 * the final ones bucket for bucket. */
#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/hist.h"
#include "iospd/engine.h"
#include "iospd/run.h"
#include "run/interval_feed.h"
#include "test_util.h"

#define KB 1024u
#define MS 1000000ull
#define MAXROWS 64
#define MAXT 2

typedef struct {
  uint32_t timespan, timespan_count, index;
  iospd_phase_t phase;
  int64_t start_ms, end_ms;
  uint64_t elapsed_ms, remaining_ms, errors;
  uint32_t target_count;
  uint64_t ios[MAXT][2], bytes[MAXT][2];
  uint64_t lat_n[MAXT][2];
} row_t;

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
  row_t rows[MAXROWS];
  uint32_t nrows;
  /* Merged measuring histograms per timespan, target, direction. */
  iospd_hist_t* merged[2][MAXT][2];
  char said[1024];
} run_t;

static void on_interval(void* ctx, const iospd_interval_t* iv) {
  run_t* r = ctx;
  assert_true(r->nrows < MAXROWS);
  row_t* o = &r->rows[r->nrows++];
  o->timespan = iv->timespan;
  o->timespan_count = iv->timespan_count;
  o->index = iv->index;
  o->phase = iv->phase;
  o->start_ms = iv->start_ms;
  o->end_ms = iv->end_ms;
  o->elapsed_ms = iv->elapsed_ms;
  o->remaining_ms = iv->remaining_ms;
  o->errors = iv->errors;
  o->target_count = iv->target_count;
  assert_true(iv->target_count <= MAXT);
  uint64_t tot_ios[2] = {0, 0}, tot_bytes[2] = {0, 0}, tot_n[2] = {0, 0};
  for (uint32_t t = 0; t < iv->target_count; t++)
    for (int op = 0; op < 2; op++) {
      const iospd_series_dir_t* d = &iv->targets[t].dir[op];
      o->ios[t][op] = d->ios;
      o->bytes[t][op] = d->bytes;
      tot_ios[op] += d->ios;
      tot_bytes[op] += d->bytes;
      if (d->lat != NULL) {
        o->lat_n[t][op] = iospd_hist_count(d->lat);
        /* The interval's histogram holds exactly its I/Os. */
        assert_int_equal(iospd_hist_count(d->lat), d->ios);
        tot_n[op] += iospd_hist_count(d->lat);
        if (iv->phase == IOSPD_PHASE_MEASURE) {
          iospd_hist_t** m = &r->merged[iv->timespan][t][op];
          if (*m == NULL) *m = iospd_hist_create();
          iospd_hist_merge(*m, d->lat);
        }
      }
    }
  /* The total row is the sum of the target rows. */
  for (int op = 0; op < 2; op++) {
    assert_int_equal(iv->total.dir[op].ios, tot_ios[op]);
    assert_int_equal(iv->total.dir[op].bytes, tot_bytes[op]);
    if (iv->total.dir[op].lat != NULL)
      assert_int_equal(iospd_hist_count(iv->total.dir[op].lat), tot_n[op]);
  }
}

static void message(void* ctx, iospd_msg_kind_t kind, const char* text) {
  run_t* r = ctx;
  size_t n = strlen(r->said);
  snprintf(r->said + n, sizeof(r->said) - n, "%s%s\n",
           iospd_msg_def(kind)->prefix, text);
}

static iospd_timespan_t* add_ts(run_t* r, uint32_t warm, uint32_t dur,
                                uint32_t cool) {
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = warm;
  ts->duration = dur;
  ts->cooldown = cool;
  return ts;
}

static iospd_target_t* add_target(iospd_timespan_t* ts, const char* path) {
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, path);
  t->block_size = 4 * KB;
  return t;
}

static void begin(run_t* r) {
  memset(r, 0, sizeof(*r));
  fake_reset();
  iospd_profile_init(&r->p);
}

static void go(run_t* r) {
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof(hooks));
  hooks.cooperative = true;
  hooks.interval = on_interval;
  hooks.message = message;
  hooks.ctx = r;
  assert_int_equal(iospd_plat_init(&r->res.sys, NULL), 0);
  iospd_err_clear(&r->err);
  r->rc = iospd_run(&r->p, &hooks, &r->res, &r->err);
}

static void done(run_t* r) {
  for (int a = 0; a < 2; a++)
    for (int t = 0; t < MAXT; t++)
      for (int op = 0; op < 2; op++) iospd_hist_destroy(r->merged[a][t][op]);
  iospd_results_destroy(&r->res);
  iospd_plat_cpu_topology_free(&r->res.topo);
  iospd_profile_destroy(&r->p);
}

/* The results tree's totals of (timespan, target, op), and its merged
 * final histogram (caller destroys). */
static void totals(run_t* r, uint32_t ts, uint32_t target, int op,
                   uint64_t* ios, uint64_t* bytes, iospd_hist_t** lat) {
  const iospd_timespan_result_t* tr = &r->res.timespans[ts];
  *ios = *bytes = 0;
  if (lat != NULL) *lat = iospd_hist_create();
  for (uint32_t i = 0; i < tr->thread_count; i++)
    for (uint32_t k = 0; k < tr->threads[i].target_count; k++) {
      const iospd_thread_target_result_t* tt = &tr->threads[i].targets[k];
      if (tt->target_index != target) continue;
      *ios += tt->stats.ios[op];
      *bytes += tt->stats.bytes[op];
      if (lat != NULL && tt->stats.lat[op] != NULL)
        iospd_hist_merge(*lat, tt->stats.lat[op]);
    }
}

/* Measuring rows of timespan ts add up to the results exactly; with -L
 * their merged histograms equal the final ones (count, min, max, sums and
 * every bucket: the whole structure). */
static void check_exact(run_t* r, uint32_t ts, uint32_t ntargets,
                        bool latency) {
  for (uint32_t t = 0; t < ntargets; t++)
    for (int op = 0; op < 2; op++) {
      uint64_t ios = 0, bytes = 0;
      for (uint32_t i = 0; i < r->nrows; i++) {
        const row_t* o = &r->rows[i];
        if (o->timespan != ts || o->phase != IOSPD_PHASE_MEASURE) continue;
        ios += o->ios[t][op];
        bytes += o->bytes[t][op];
      }
      uint64_t want_ios, want_bytes;
      iospd_hist_t* lat = NULL;
      totals(r, ts, t, op, &want_ios, &want_bytes, latency ? &lat : NULL);
      assert_int_equal(ios, want_ios);
      assert_int_equal(bytes, want_bytes);
      if (latency) {
        const iospd_hist_t* m = r->merged[ts][t][op];
        assert_int_equal(iospd_hist_count(lat), want_ios);
        if (want_ios > 0) {
          assert_non_null(m);
          assert_int_equal(iospd_hist_count(m), want_ios);
          assert_int_equal(iospd_hist_min_ns(m), iospd_hist_min_ns(lat));
          assert_int_equal(iospd_hist_max_ns(m), iospd_hist_max_ns(lat));
          assert_memory_equal(m, lat, IOSPD_HIST_BYTES);
        }
      }
      iospd_hist_destroy(lat);
    }
}

static uint32_t count_phase(const run_t* r, uint32_t ts, iospd_phase_t ph) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < r->nrows; i++)
    n += r->rows[i].timespan == ts && r->rows[i].phase == ph;
  return n;
}

static void test_rows_and_exact_sums(void** state) {
  (void)state;
  run_t r;
  begin(&r);
  iospd_timespan_t* ts = add_ts(&r, 1, 3, 1);
  ts->measure_latency = true;
  iospd_target_t* t = add_target(ts, "a.dat");
  t->request_count = 4;
  t->write_ratio = 40;
  t->random_ratio = 100;
  fake_add_file("a.dat", 1024 * KB, true);
  const uint64_t lat[] = {100000, 250000, 400000, 130000, 12000000};
  fake_set_latencies(lat, 5);
  go(&r);
  assert_int_equal(r.rc, 0);
  /* 1 s intervals: one warm-up, three measuring, one cool-down, in order. */
  assert_int_equal(r.nrows, 5);
  const iospd_phase_t ph[] = {IOSPD_PHASE_WARMUP, IOSPD_PHASE_MEASURE,
                              IOSPD_PHASE_MEASURE, IOSPD_PHASE_MEASURE,
                              IOSPD_PHASE_COOLDOWN};
  const int64_t start[] = {-1000, 0, 1000, 2000, 3000};
  /* Warm-up really ends when the controller starts measuring, a few ms
   * after -W (an I/O of 12 ms may hold the virtual clock): its row runs to
   * that point, the time zero of every row. */
  int64_t warm = -r.rows[0].start_ms;
  assert_true(warm >= 1000 && warm <= 1013);
  for (uint32_t i = 0; i < 5; i++) {
    const row_t* o = &r.rows[i];
    assert_int_equal(o->phase, ph[i]);
    assert_int_equal(o->index, i);
    assert_int_equal(o->timespan, 0);
    assert_int_equal(o->timespan_count, 1);
    assert_int_equal(o->target_count, 1);
    if (i > 0) assert_int_equal(o->start_ms, start[i]);
    assert_int_equal(o->end_ms, start[i] + 1000);
    assert_int_equal(o->elapsed_ms, (uint64_t)(start[i] + 1000 + warm));
    assert_int_equal(o->remaining_ms, (uint64_t)(3000 - start[i]));
    assert_int_equal(o->errors, 0);
    /* Every phase issues: warm-up and cool-down rows are not empty. */
    assert_true(o->ios[0][0] > 500);
    assert_true(o->ios[0][1] > 300);
    assert_int_equal(o->bytes[0][0], o->ios[0][0] * 4 * KB);
  }
  check_exact(&r, 0, 1, true);
  done(&r);
}

/* -D500 with two targets and two threads that share them (-F): intervals
 * of 500 ms, per target rows. */
static void test_bucket_interval_two_targets(void** state) {
  (void)state;
  run_t r;
  begin(&r);
  iospd_timespan_t* ts = add_ts(&r, 1, 2, 1);
  ts->measure_latency = true;
  ts->calc_iops_stddev = true;
  ts->io_bucket_ms = 500;
  ts->thread_count = 2;
  iospd_target_t* a = add_target(ts, "a.dat");
  a->request_count = 2;
  a->write_ratio = 50;
  a->random_ratio = 100;
  iospd_target_t* b = add_target(ts, "b.dat");
  b->request_count = 3;
  fake_add_file("a.dat", 1024 * KB, true);
  fake_add_file("b.dat", 1024 * KB, true);
  const uint64_t lat[] = {300000, 700000, 1900000};
  fake_set_latencies(lat, 3);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_WARMUP), 2);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_MEASURE), 4);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_COOLDOWN), 2);
  assert_int_equal(r.nrows, 8);
  for (uint32_t i = 0; i < r.nrows; i++) {
    const row_t* o = &r.rows[i];
    assert_int_equal(o->index, i);
    assert_int_equal(o->start_ms, -1000 + 500 * (int64_t)i);
    assert_int_equal(o->end_ms, o->start_ms + 500);
    assert_int_equal(o->target_count, 2);
    assert_true(o->ios[0][0] > 0 && o->ios[1][0] > 0);
    assert_int_equal(o->ios[1][1], 0); /* b only reads */
  }
  check_exact(&r, 0, 2, true);
  done(&r);
}

/* Two timespans: rows say which, and each adds up to its own results. No
 * warm-up or cool-down: measuring rows only. */
static void test_two_timespans(void** state) {
  (void)state;
  run_t r;
  begin(&r);
  iospd_timespan_t* ts = add_ts(&r, 0, 2, 0);
  iospd_target_t* t = add_target(ts, "a.dat");
  t->request_count = 1;
  ts = add_ts(&r, 1, 1, 2);
  t = add_target(ts, "a.dat");
  t->request_count = 1;
  t->write_ratio = 100;
  fake_add_file("a.dat", 1024 * KB, true);
  const uint64_t lat[] = {500000};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.nrows, 2 + 4);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_WARMUP), 0);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_MEASURE), 2);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_COOLDOWN), 0);
  assert_int_equal(count_phase(&r, 1, IOSPD_PHASE_WARMUP), 1);
  assert_int_equal(count_phase(&r, 1, IOSPD_PHASE_MEASURE), 1);
  assert_int_equal(count_phase(&r, 1, IOSPD_PHASE_COOLDOWN), 2);
  for (uint32_t i = 0; i < r.nrows; i++) {
    assert_int_equal(r.rows[i].timespan, i < 2 ? 0 : 1);
    assert_int_equal(r.rows[i].timespan_count, 2);
  }
  /* Second timespan: -1000, 0, then cool-down 1000 and 2000 (past -d). */
  assert_int_equal(r.rows[2].start_ms, -1000);
  assert_int_equal(r.rows[3].start_ms, 0);
  assert_int_equal(r.rows[4].start_ms, 1000);
  assert_int_equal(r.rows[5].start_ms, 2000);
  assert_int_equal(r.rows[5].end_ms, 3000);
  assert_int_equal(r.rows[5].remaining_ms, 0);
  assert_int_equal(r.rows[2].index, 0);
  assert_int_equal(r.rows[5].index, 3);
  /* Depth 1, 0.5 ms each from the start of measuring: completions at
   * 0.5 ms .. 999.5 ms fall in the first interval, the one at 1000 ms in
   * the second, and the one at exactly 2000 ms (the end of -d) still
   * counts as measured, in the last interval. */
  assert_int_equal(r.rows[0].ios[0][0], 1999);
  assert_int_equal(r.rows[1].ios[0][0], 2001);
  check_exact(&r, 0, 1, false);
  check_exact(&r, 1, 1, false);
  done(&r);
}

/* Ctrl-C in the middle of measuring: the rows stop there, and what was
 * measured still adds up exactly. */
static void test_interrupted(void** state) {
  (void)state;
  run_t r;
  begin(&r);
  iospd_timespan_t* ts = add_ts(&r, 1, 5, 1);
  ts->measure_latency = true;
  iospd_target_t* t = add_target(ts, "a.dat");
  t->request_count = 3;
  fake_add_file("a.dat", 1024 * KB, true);
  const uint64_t lat[] = {200000, 900000};
  fake_set_latencies(lat, 2);
  /* The fake clock starts at 1 s; measuring at 2 s; stop at 4.5 s. */
  fake_interrupt_at(4500 * MS);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_WARMUP), 1);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_MEASURE), 3);
  assert_int_equal(count_phase(&r, 0, IOSPD_PHASE_COOLDOWN), 0);
  const row_t* last = &r.rows[r.nrows - 1];
  assert_int_equal(last->start_ms, 2000);
  assert_int_equal(last->end_ms, 2500);
  check_exact(&r, 0, 1, true);
  done(&r);
}

/* Failed I/Os: the rows carry the run's error count so far. */
static void test_errors(void** state) {
  (void)state;
  run_t r;
  begin(&r);
  iospd_timespan_t* ts = add_ts(&r, 0, 2, 0);
  iospd_target_t* t = add_target(ts, "a.dat");
  t->request_count = 1;
  fake_add_file("a.dat", 1024 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  fake_fail_io(1500, IOSPD_EIO);
  go(&r);
  /* A failed I/O fails the run; the interval it fell in says so. */
  assert_true(r.rc < 0);
  assert_true(r.nrows >= 2);
  assert_int_equal(r.rows[0].errors, 0);
  assert_int_equal(r.rows[r.nrows - 1].errors, 1);
  done(&r);
}

/* ---- the controller's rules, driven by hand --------------------------------
 * Two workers on one target, 1 s intervals, ticks in ns. Worker B blocks
 * inside one I/O call (it makes no pass, so it cannot hand anything over):
 * rows wait for it until IOSPD_SERIES_GRACE_MS after their end, then are
 * written without it; what B hands over late goes to the first row not yet
 * written of the same phase, or is left out (and counted) when that phase
 * is all written. The stuck I/O lands where it completed. */

typedef struct {
  iospd_timespan_t ts;
  iospd_target_t tgt;
  iospd_engine_ctl_t ctl;
  iospd_wtarget_t wt[2];
  iospd_worker_t w[2];
  iospd_worker_t* wp[2];
  iospd_run_hooks_t hooks;
  iospd_cseries_t* cs;
  uint64_t errors;
  run_t r; /* only its rows */
} hand_t;

#define S_NS 1000000000ull

static void hand_init(hand_t* h, uint32_t dur, uint32_t cool) {
  memset(h, 0, sizeof(*h));
  h->ts.warmup = 0;
  h->ts.duration = dur;
  h->ts.cooldown = cool;
  h->ts.targets = &h->tgt;
  h->ts.target_count = 1;
  h->ctl.ticks_per_second = S_NS;
  h->ctl.warmup_start_ticks = 0;
  h->ctl.measure_start_ticks = 0;
  atomic_store(&h->ctl.measure_end_ticks, dur * S_NS);
  atomic_store(&h->ctl.phase, IOSPD_PHASE_MEASURE);
  for (int i = 0; i < 2; i++) {
    h->wt[i].t = &h->tgt;
    h->wt[i].target_index = 0;
    h->w[i].id = (uint32_t)i;
    h->w[i].ctl = &h->ctl;
    h->w[i].targets = &h->wt[i];
    h->w[i].target_count = 1;
    h->wp[i] = &h->w[i];
  }
  h->hooks.interval = on_interval;
  h->hooks.ctx = &h->r;
  assert_int_equal(iospd_cseries_open(&h->cs, &h->hooks, &h->ts, 0, 1, S_NS,
                                      h->wp, 2, &h->errors, NULL),
                   0);
  iospd_cseries_phase_start(h->cs, IOSPD_PHASE_WARMUP, 0);
  iospd_cseries_phase_end(h->cs, IOSPD_PHASE_WARMUP, 0);
  iospd_cseries_phase_start(h->cs, IOSPD_PHASE_MEASURE, 0);
}

/* Worker i's batch at time t (ms) in phase ph, with n reads. */
static void batch(hand_t* h, int i, uint32_t ph, uint64_t t_ms, uint32_t n) {
  iospd_wseries_at(h->w[i].series, &h->ctl, ph, t_ms * MS);
  for (uint32_t k = 0; k < n; k++)
    iospd_wseries_record(h->w[i].series, 0, IOSPD_OP_READ, 4096, 100000);
}

static void test_blocked_worker_grace_and_late(void** state) {
  (void)state;
  hand_t h;
  hand_init(&h, 3, 10);
  const uint32_t M = IOSPD_PHASE_MEASURE, C = IOSPD_PHASE_COOLDOWN;
  batch(&h, 0, M, 100, 10);
  batch(&h, 1, M, 100, 5); /* then B blocks in a call until 2.2 s */
  batch(&h, 0, M, 1050, 7);
  iospd_cseries_poll(h.cs, 1100 * MS, false);
  assert_int_equal(h.r.nrows, 0); /* B may still hand over [0, 1000) */
  iospd_cseries_poll(h.cs, 1499 * MS, false);
  assert_int_equal(h.r.nrows, 0);
  iospd_cseries_poll(h.cs, 1500 * MS, false); /* grace over: write it */
  assert_int_equal(h.r.nrows, 1);
  assert_int_equal(h.r.rows[0].ios[0][0], 10);
  batch(&h, 0, M, 2050, 4);
  /* B's call returns at 2.2 s: its 5 from [0, 1000) come late, and the
   * I/O it was blocked in completed now, in [2000, 3000). */
  batch(&h, 1, M, 2200, 1);
  iospd_cseries_poll(h.cs, 2300 * MS, false);
  assert_int_equal(h.r.nrows, 2);
  assert_int_equal(h.r.rows[1].start_ms, 1000);
  assert_int_equal(h.r.rows[1].ios[0][0], 7 + 5);
  /* B blocks again at 2.5 s; its 1 + 2 reads of [2000, 3000) stay in its
   * slot meanwhile. A goes on into cool-down. */
  batch(&h, 1, M, 2500, 2);
  batch(&h, 0, M, 2900, 3);
  iospd_cseries_phase_end(h.cs, M, 3000 * MS);
  iospd_cseries_phase_start(h.cs, C, 3000 * MS);
  batch(&h, 0, C, 3001, 6);
  /* The last measuring row waits longer than 500 ms for B... */
  iospd_cseries_poll(h.cs, 3600 * MS, false);
  assert_int_equal(h.r.nrows, 2);
  /* ...and gets B's reads when B comes back at 3.8 s. */
  batch(&h, 1, C, 3800, 1);
  iospd_cseries_poll(h.cs, 3900 * MS, false);
  assert_int_equal(h.r.nrows, 3);
  assert_int_equal(h.r.rows[2].phase, M);
  assert_int_equal(h.r.rows[2].ios[0][0], 4 + 3 + 1 + 2);
  assert_int_equal(iospd_cseries_left_out(h.cs), 0);
  /* B goes on in [3000, 4000) (1 + 4 reads) and blocks from 3.9 s until
   * 9.5 s: cool-down rows are written 500 ms after their end without B. */
  batch(&h, 1, C, 3900, 4);
  batch(&h, 0, C, 4001, 2);
  iospd_cseries_poll(h.cs, 4400 * MS, false);
  assert_int_equal(h.r.nrows, 3);
  iospd_cseries_poll(h.cs, 4500 * MS, false);
  assert_int_equal(h.r.nrows, 4);
  assert_int_equal(h.r.rows[3].start_ms, 3000);
  assert_int_equal(h.r.rows[3].ios[0][0], 6);
  for (uint64_t t = 5001; t < 10000; t += 1000) {
    batch(&h, 0, C, t, 1);
    iospd_cseries_poll(h.cs, (t + 100) * MS, false);
  }
  iospd_cseries_poll(h.cs, 9400 * MS, false);
  /* Up to [7000, 8000); [8000, 9000) ended only 400 ms ago. */
  assert_int_equal(h.r.nrows, 8);
  /* B's 5 go to the first cool-down row not written, [8000, 9000). */
  batch(&h, 1, C, 9500, 0);
  iospd_cseries_phase_end(h.cs, C, 13000 * MS);
  batch(&h, 0, IOSPD_PHASE_STOP, 13001, 0);
  batch(&h, 1, IOSPD_PHASE_STOP, 13001, 0);
  iospd_cseries_poll(h.cs, 13001 * MS, true);
  assert_int_equal(h.r.nrows, 13);
  assert_int_equal(h.r.rows[12].start_ms, 12000);
  assert_int_equal(h.r.rows[12].end_ms, 13000);
  assert_int_equal(h.r.rows[8].start_ms, 8000);
  assert_int_equal(h.r.rows[8].ios[0][0], 1 + 5);
  assert_int_equal(h.r.rows[9].ios[0][0], 1);
  assert_int_equal(iospd_cseries_left_out(h.cs), 0);
  iospd_cseries_close(h.cs);
}

/* The last interval of a phase waits IOSPD_SERIES_PHASE_GRACE_MS; what
 * comes after that is left out of the series (and counted). */
static void test_blocked_past_phase_end(void** state) {
  (void)state;
  hand_t h;
  hand_init(&h, 1, 10);
  const uint32_t M = IOSPD_PHASE_MEASURE, C = IOSPD_PHASE_COOLDOWN;
  batch(&h, 0, M, 100, 10);
  batch(&h, 1, M, 100, 5); /* B blocks until 7 s */
  iospd_cseries_phase_end(h.cs, M, 1000 * MS);
  iospd_cseries_phase_start(h.cs, C, 1000 * MS);
  batch(&h, 0, C, 1001, 1);
  iospd_cseries_poll(h.cs, 5999 * MS, false);
  assert_int_equal(h.r.nrows, 0);
  iospd_cseries_poll(h.cs, 6000 * MS, false);
  /* The measuring row, then cool-down up to [4000, 5000). */
  assert_int_equal(h.r.nrows, 5);
  assert_int_equal(h.r.rows[0].ios[0][0], 10);
  batch(&h, 1, C, 7000, 0);
  iospd_cseries_poll(h.cs, 7000 * MS, false);
  assert_int_equal(iospd_cseries_left_out(h.cs), 5);
  iospd_cseries_close(h.cs);
}

/* Every worker past an interval: it is written at once, not after the
 * grace; a worker that stopped holds nobody up. */
static void test_rows_without_waiting(void** state) {
  (void)state;
  hand_t h;
  hand_init(&h, 2, 0);
  const uint32_t M = IOSPD_PHASE_MEASURE;
  batch(&h, 0, M, 10, 3);
  batch(&h, 1, M, 10, 4);
  batch(&h, 1, IOSPD_PHASE_STOP, 20, 0); /* B failed and stopped */
  batch(&h, 0, M, 1000, 2);
  iospd_cseries_poll(h.cs, 1000 * MS, false);
  assert_int_equal(h.r.nrows, 1);
  assert_int_equal(h.r.rows[0].ios[0][0], 7);
  assert_int_equal(h.r.rows[0].end_ms, 1000);
  assert_int_equal(h.r.rows[0].remaining_ms, 1000);
  iospd_cseries_phase_end(h.cs, M, 2000 * MS);
  batch(&h, 0, IOSPD_PHASE_STOP, 2001, 0);
  iospd_cseries_poll(h.cs, 2001 * MS, true);
  assert_int_equal(h.r.nrows, 2);
  assert_int_equal(h.r.rows[1].ios[0][0], 2);
  assert_int_equal(iospd_cseries_left_out(h.cs), 0);
  iospd_cseries_close(h.cs);
}

/* The controller got no CPU for a whole interval: the worker's other slot
 * is not back, so it keeps filling the one it has (the earlier interval's
 * I/Os are counted in the later row, none lost); at a phase change it has
 * nowhere to go and those completions are left out of the series. */
static void test_starved_controller(void** state) {
  (void)state;
  hand_t h;
  hand_init(&h, 3, 1);
  const uint32_t M = IOSPD_PHASE_MEASURE, C = IOSPD_PHASE_COOLDOWN;
  batch(&h, 1, IOSPD_PHASE_STOP, 0, 0); /* one worker is enough here */
  batch(&h, 0, M, 10, 5);
  batch(&h, 0, M, 1010, 6);  /* hands [0, 1000) over */
  batch(&h, 0, M, 2010, 7);  /* that slot is not back: 6 + 7 in [2000..) */
  iospd_cseries_poll(h.cs, 2020 * MS, false);
  assert_int_equal(h.r.nrows, 2);
  assert_int_equal(h.r.rows[0].ios[0][0], 5);
  assert_int_equal(h.r.rows[1].ios[0][0], 0);
  batch(&h, 0, M, 2500, 1);  /* slot back: nothing changes mid-interval */
  iospd_cseries_phase_end(h.cs, M, 3000 * MS);
  iospd_cseries_phase_start(h.cs, C, 3000 * MS);
  batch(&h, 0, C, 3010, 2);  /* hands [2000, 3000) over: 6 + 7 + 1 */
  batch(&h, 0, C, 3020, 3);
  /* Cool-down started but the controller slept through it: at the stop
   * the worker hands what it has; nothing is lost. */
  batch(&h, 0, IOSPD_PHASE_STOP, 4001, 0);
  iospd_cseries_phase_end(h.cs, C, 4000 * MS);
  iospd_cseries_poll(h.cs, 4001 * MS, true);
  assert_int_equal(h.r.nrows, 4);
  assert_int_equal(h.r.rows[2].ios[0][0], 6 + 7 + 1);
  assert_int_equal(h.r.rows[3].ios[0][0], 2 + 3);
  assert_int_equal(iospd_cseries_left_out(h.cs), 0);
  iospd_cseries_close(h.cs);

  /* A phase change with both slots still with the controller: the new
   * phase must not mix into the old one's row, so its completions are left
   * out of the series, and counted. */
  hand_init(&h, 2, 1);
  batch(&h, 1, IOSPD_PHASE_STOP, 0, 0);
  batch(&h, 0, M, 10, 5);
  batch(&h, 0, M, 1010, 3); /* hands [0, 1000) over */
  iospd_cseries_phase_end(h.cs, M, 2000 * MS);
  iospd_cseries_phase_start(h.cs, C, 2000 * MS);
  batch(&h, 0, C, 2010, 4); /* hands [1000, 2000) over; no slot left */
  batch(&h, 0, IOSPD_PHASE_STOP, 3010, 0);
  iospd_cseries_phase_end(h.cs, C, 3000 * MS);
  iospd_cseries_poll(h.cs, 3020 * MS, true);
  assert_int_equal(h.r.nrows, 3);
  assert_int_equal(h.r.rows[0].ios[0][0], 5);
  assert_int_equal(h.r.rows[1].ios[0][0], 3);
  assert_int_equal(h.r.rows[2].ios[0][0], 0);
  assert_int_equal(iospd_cseries_left_out(h.cs), 4);
  iospd_cseries_close(h.cs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rows_and_exact_sums),
      cmocka_unit_test(test_bucket_interval_two_targets),
      cmocka_unit_test(test_two_timespans),
      cmocka_unit_test(test_interrupted),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_blocked_worker_grace_and_late),
      cmocka_unit_test(test_blocked_past_phase_end),
      cmocka_unit_test(test_rows_without_waiting),
      cmocka_unit_test(test_starved_controller),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
