/* SPDX-License-Identifier: MIT */
/* --pts on the fake platform (iospd/pts.h): preconditioning writes twice
 * the capacity in 128 KiB sequential writes (counted in the I/O log,
 * wrapping at a capacity that is no multiple of 128 KiB), the rounds of a
 * reduced matrix on the virtual clock (1 ms per I/O: every cell the same
 * IOPS, so steady at round 5 exactly), the 25-round cap when the rate
 * alternates, and the refusals. */
#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/pts.h"
#include "test_util.h"

#define KB 1024u
#define MS 1000000ull

static void build(iospd_profile_t* p, const char* path, uint32_t depth) {
  iospd_profile_init(p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(p);
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, path);
  t->block_size = 4096;
  t->request_count = depth;
  t->threads_per_file = 1;
  p->ext.pts.test = IOSPD_PTS_IOPS;
  p->ext.pts.cell_s = 1;
  p->ext.pts.bs[0] = 4096;
  p->ext.pts.nbs = 1;
  p->ext.pts.read_pct[0] = 100;
  p->ext.pts.read_pct[1] = 0;
  p->ext.pts.nmix = 2;
}

static void test_wipc_counts(void** state) {
  (void)state;
  fake_reset();
  const uint64_t size = 1024 * KB + 64 * KB;
  fake_add_file("w.dat", size, true);
  iospd_profile_t p;
  build(&p, "w.dat", 4);
  iospd_sysinfo_t sys;
  assert_int_equal(iospd_plat_init(&sys, NULL), 0);
  iospd_pts_result_t r;
  memset(&r, 0, sizeof r);
  r.capacity = size;
  r.outstanding = 4;
  r.ticks_per_second = sys.ticks_per_second;
  iospd_run_session_t s;
  iospd_run_session_init(&s);
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_pts_wipc(&s, &p, NULL, &r, &err), 0);
  /* A pass is 8 writes of 128 KiB and one of 64 KiB; two passes. */
  assert_int_equal(r.wipc_writes, 18);
  assert_int_equal(r.wipc_bytes, 2 * size);
  assert_true(r.wipc_done);
  uint32_t n = 0;
  const fake_io_t* log = fake_log(&n);
  assert_int_equal(n, 18);
  uint64_t want_off = 0, sum = 0;
  for (uint32_t i = 0; i < n; i++) {
    assert_int_equal(log[i].op, IOSPD_OP_WRITE);
    assert_int_equal(log[i].offset, want_off);
    uint32_t len = i % 9 == 8 ? 64 * KB : 128 * KB;
    assert_int_equal(log[i].length, len);
    sum += log[i].length;
    want_off = (want_off + len) % size;
  }
  assert_int_equal(sum, 2 * size);
  /* Random data replaced the file's pattern. */
  uint64_t fsz = 0;
  const uint8_t* d = fake_file_data("w.dat", &fsz);
  uint32_t same = 0;
  for (uint32_t i = 0; i < 4096; i++) same += d[i] == (uint8_t)i;
  assert_true(same < 100);
  iospd_profile_destroy(&p);
}

static void run(iospd_profile_t* p, iospd_pts_result_t* r, int want_rc,
                iospd_err_t* err) {
  iospd_sysinfo_t sys;
  assert_int_equal(iospd_plat_init(&sys, NULL), 0);
  iospd_pts_hooks_t h = {.cooperative = true};
  iospd_err_clear(err);
  int rc = iospd_pts_run(p, &sys, &h, NULL, r, err);
  if (rc != want_rc) fail_msg("rc %d (%s), want %d", rc, err->msg, want_rc);
}

static void test_rounds_steady(void** state) {
  (void)state;
  fake_reset();
  fake_add_file("r.dat", 1024 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  iospd_profile_t p;
  build(&p, "r.dat", 1);
  iospd_pts_result_t r;
  iospd_err_t err;
  run(&p, &r, 0, &err);
  assert_int_equal(r.wipc_writes, 16);
  assert_int_equal(r.wipc_bytes, 2048 * KB);
  assert_int_equal(r.stopped, IOSPD_PTS_STOP_STEADY);
  assert_true(r.converged);
  assert_int_equal(r.nrounds, 5);
  assert_string_equal(r.kind, "file");
  assert_non_null(strstr(iospd_strbuf_cstr(&r.reasons), "cells of 1 s"));
  for (uint32_t k = 0; k < 5; k++) {
    const iospd_pts_round_t* rd = &r.rounds[k];
    assert_int_equal(rd->n, k + 1);
    assert_int_equal(rd->ncells, 2);
    /* The mixes in the order given: read 100, then read 0 (tracked). */
    assert_int_equal(rd->cells[0].read_pct, 100);
    assert_int_equal(rd->cells[1].read_pct, 0);
    assert_int_equal(rd->cells[1].bs, 4096);
    assert_true(rd->cells[1].random);
    /* 1 ms per I/O, one in flight: 1000 I/Os in the measured second. */
    assert_true(rd->cells[1].iops == 1000.0);
    assert_true(rd->tracked == rd->cells[1].iops);
    assert_true(rd->cells[1].lat_mean_us == 1000.0);
  }
  assert_true(r.window.valid);
  assert_int_equal(r.window.first_round, 1);
  assert_int_equal(r.window.last_round, 5);
  assert_true(r.window.data_excursion == 0 && r.window.slope == 0);
  iospd_pts_result_free(&r);
  iospd_profile_destroy(&p);
}

/* 1000 I/Os at 1 ms, then 334 at 3 ms, over and over: rounds alternate
 * near 1000 and 333 IOPS, never steady: 25 rounds, the last window is
 * rounds 21-25. */
static void test_cap(void** state) {
  (void)state;
  fake_reset();
  fake_add_file("c.dat", 256 * KB, true);
  static uint64_t lat[1334];
  for (int i = 0; i < 1334; i++) lat[i] = i < 1000 ? 1 * MS : 3 * MS;
  fake_set_latencies(lat, 1334);
  iospd_profile_t p;
  build(&p, "c.dat", 1);
  p.ext.pts.read_pct[0] = 0;
  p.ext.pts.nmix = 1;
  iospd_pts_result_t r;
  iospd_err_t err;
  run(&p, &r, 0, &err);
  assert_int_equal(r.stopped, IOSPD_PTS_STOP_MAX_ROUNDS);
  assert_false(r.converged);
  assert_int_equal(r.nrounds, 25);
  assert_int_equal(r.window.first_round, 21);
  assert_int_equal(r.window.last_round, 25);
  assert_false(r.window.data_ok);
  for (uint32_t k = 0; k < 5; k++)
    assert_true(r.window.values[k] == r.rounds[20 + k].tracked);
  iospd_pts_result_free(&r);
  iospd_profile_destroy(&p);
}

static void test_refusals(void** state) {
  (void)state;
  fake_reset();
  fake_add_file("x.dat", 1024 * KB, true);
  iospd_profile_t p;
  build(&p, "x.dat", 1);
  p.ext.pts.bs[0] = 8192; /* no 4K: the tracked cell is missing */
  iospd_pts_result_t r;
  iospd_err_t err;
  run(&p, &r, IOSPD_EUSAGE, &err);
  assert_string_equal(err.msg,
                      "--pts-matrix: the iops test tracks block size 4096 at "
                      "read 0 %, which the matrix must hold (add bs:4K / "
                      "read:0)");
  iospd_pts_result_free(&r);
  p.ext.pts.bs[0] = 4096;
  p.timespans[0].targets[0].create = true;
  run(&p, &r, IOSPD_EUSAGE, &err);
  assert_non_null(strstr(err.msg, "create a file first"));
  iospd_pts_result_free(&r);
  p.timespans[0].targets[0].create = false;
  iospd_target_t* t2 = iospd_timespan_add_target(&p.timespans[0]);
  iospd_target_set_path(t2, "x.dat");
  run(&p, &r, IOSPD_EUSAGE, &err);
  assert_non_null(strstr(err.msg, "exactly one target"));
  iospd_pts_result_free(&r);
  iospd_profile_destroy(&p);
}

/* The rate changes part way (the fake platform's I/Os take 2 ms instead
 * of 1 ms from the 3508th on: WIPC's 8 writes, then 3.5 rounds of 1000
 * I/Os): round 4 is mixed, rounds 5 on run at 500 IOPS. No window that
 * holds a round from before the change is steady; the first steady one
 * is rounds 5-9, five rounds after the change. */
static void test_change_part_way(void** state) {
  (void)state;
  fake_reset();
  fake_add_file("g.dat", 512 * KB, true);
  static uint64_t lat[20000];
  for (int i = 0; i < 20000; i++) lat[i] = i < 3508 ? 1 * MS : 2 * MS;
  fake_set_latencies(lat, 20000);
  iospd_profile_t p;
  build(&p, "g.dat", 1);
  p.ext.pts.read_pct[0] = 0;
  p.ext.pts.nmix = 1;
  iospd_pts_result_t r;
  iospd_err_t err;
  run(&p, &r, 0, &err);
  assert_int_equal(r.wipc_writes, 8);
  assert_int_equal(r.stopped, IOSPD_PTS_STOP_STEADY);
  assert_int_equal(r.nrounds, 9);
  assert_int_equal(r.window.first_round, 5);
  for (uint32_t k = 0; k < 3; k++)
    if (r.rounds[k].tracked < 999 || r.rounds[k].tracked > 1000)
      fail_msg("round %u: %.1f IOPS before the change", k + 1,
               r.rounds[k].tracked);
  if (!(r.rounds[3].tracked > 550 && r.rounds[3].tracked < 950))
    fail_msg("round 4 (the change): %.1f IOPS", r.rounds[3].tracked);
  for (uint32_t k = 4; k < 9; k++)
    if (r.rounds[k].tracked < 499 || r.rounds[k].tracked > 500)
      fail_msg("round %u: %.1f IOPS after the change", k + 1,
               r.rounds[k].tracked);
  /* Every earlier window (rounds 1-5 .. 4-8) fails the test. */
  double y[9];
  for (uint32_t k = 0; k < 9; k++) y[k] = r.rounds[k].tracked;
  iospd_ss_window_t w;
  for (uint32_t n = 5; n < 9; n++)
    assert_false(iospd_ss_test(y, n, &r.limits, &w));
  iospd_pts_result_free(&r);
  iospd_profile_destroy(&p);
}

/* --pts-purge: refused on a file and without --allow-raw-write; on a disk
 * with it, one whole-device discard (secure when asked) before WIPC. */
static void test_purge(void** state) {
  (void)state;
  fake_reset();
  fake_add_file("f.dat", 512 * KB, true);
  fake_add_file("/dev/sdz", 512 * KB, true);
  fake_set_device("/dev/sdz", false, false, "");
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  iospd_profile_t p;
  build(&p, "f.dat", 1);
  p.ext.pts.purge = IOSPD_PTS_PURGE_TRIM;
  p.ext.allow_raw_write = true;
  iospd_pts_result_t r;
  iospd_err_t err;
  run(&p, &r, IOSPD_EUSAGE, &err);
  assert_string_equal(err.msg, "--pts-purge=trim discards a whole disk; "
                               "'f.dat' is a file: drop --pts-purge");
  iospd_pts_result_free(&r);
  iospd_profile_destroy(&p);
  build(&p, "/dev/sdz", 1);
  p.ext.pts.purge = IOSPD_PTS_PURGE_SECURE;
  run(&p, &r, IOSPD_EUSAGE, &err);
  assert_string_equal(err.msg, "--pts-purge=secure discards every block of "
                               "'/dev/sdz': pass --allow-raw-write too");
  assert_int_equal(fake_discards("/dev/sdz", NULL), 0);
  iospd_pts_result_free(&r);
  p.ext.allow_raw_write = true;
  run(&p, &r, 0, &err);
  bool secure = false;
  assert_int_equal(fake_discards("/dev/sdz", &secure), 1);
  assert_true(secure);
  assert_int_equal(r.purge, IOSPD_PTS_PURGE_SECURE);
  assert_string_equal(r.kind, "disk");
  /* Then WIPC: its 8 writes of 128 KiB come first in the log. */
  uint32_t n = 0;
  const fake_io_t* log = fake_log(&n);
  assert_true(n > 8);
  for (uint32_t i = 0; i < 8; i++) assert_int_equal(log[i].length, 128 * KB);
  assert_int_equal(r.stopped, IOSPD_PTS_STOP_STEADY);
  iospd_pts_result_free(&r);
  iospd_profile_destroy(&p);
}

/* --steady-state on the virtual clock (1 ms per I/O, one in flight: 1000
 * I/Os every 1 s interval): rounds of 1 s, window 3: steady after round 3
 * (at 3 s); measuring ends at the next interval end at least a poll ahead,
 * 4 s, not -d30; the results hold the 4000 I/Os completed by then (the
 * one at exactly 4 s counts, as at any end of measuring). */
static void test_steady_state_run(void** state) {
  (void)state;
  fake_reset();
  fake_add_file("s.dat", 1024 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  iospd_profile_t p;
  build(&p, "s.dat", 1);
  p.ext.pts.test = 0;
  iospd_timespan_t* ts = &p.timespans[0];
  ts->warmup = 0;
  ts->cooldown = 0;
  ts->duration = 30;
  p.ext.steady = (iospd_ss_opts_t){.on = true, .metric = IOSPD_SS_METRIC_IOPS,
                                   .data_pct = 20, .slope_pct = 10,
                                   .window_rounds = 3, .round_ms = 1000};
  iospd_results_t res;
  memset(&res, 0, sizeof res);
  assert_int_equal(iospd_plat_init(&res.sys, NULL), 0);
  iospd_run_hooks_t h = {.cooperative = true};
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_run(&p, &h, &res, &err), 0);
  const iospd_timespan_result_t* tr = &res.timespans[0];
  const iospd_ss_result_t* s = tr->steady_state;
  assert_non_null(s);
  assert_true(s->converged);
  assert_int_equal(s->stopped, IOSPD_SS_STOPPED_STEADY);
  assert_int_equal(s->rounds, 3);
  assert_int_equal(s->window.first_round, 1);
  /* The I/O completing at 1000 ms counts in the second interval: the
   * first holds 999 (1 .. 999 ms), the next ones 1000 each. */
  assert_true(s->window.values[0] == 999.0);
  assert_true(s->window.values[1] == 1000.0 && s->window.values[2] == 1000.0);
  assert_true(tr->seconds == 4.0);
  uint64_t ios = 0;
  for (uint32_t t = 0; t < tr->thread_count_alloc; t++)
    for (uint32_t k = 0; k < tr->threads[t].target_count; k++)
      ios += tr->threads[t].targets[k].stats.ios[0] +
             tr->threads[t].targets[k].stats.ios[1];
  assert_int_equal(ios, 4000);
  iospd_results_destroy(&res);
  iospd_run_release(&res, &p);
  iospd_plat_cpu_topology_free(&res.topo);
  iospd_profile_destroy(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wipc_counts),
      cmocka_unit_test(test_rounds_steady),
      cmocka_unit_test(test_cap),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_steady_state_run),
      cmocka_unit_test(test_purge),
      cmocka_unit_test(test_change_part_way),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
