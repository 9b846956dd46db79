/* SPDX-License-Identifier: MIT */
/* The per-interval producer (src/run/interval_feed.c) against the fake
 * platform's virtual clock: rows in every phase with the right times, and
 * exact bookkeeping: the measuring rows' I/Os and bytes add up to the
 * results tree per target and direction, and their merged histograms equal
 * the final ones bucket for bucket. */
#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/hist.h"
#include "iospd/run.h"
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

static void message(void* ctx, const char* text) {
  run_t* r = ctx;
  size_t n = strlen(r->said);
  snprintf(r->said + n, sizeof(r->said) - n, "%s\n", text);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rows_and_exact_sums),
      cmocka_unit_test(test_bucket_interval_two_targets),
      cmocka_unit_test(test_two_timespans),
      cmocka_unit_test(test_interrupted),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
