/* SPDX-License-Identifier: MIT */
/* The run's clock for the live status line (iospd_run_hooks_t.tick, issue
 * #13): the controller tells the timespan, its phase, the time since the
 * timespan began and the time left, at every wait, in every phase, on the
 * fake platform's virtual clock. */
#include "fake_plat.h"
#include "iospd/run.h"
#include "test_util.h"

#define KB 1024u
#define MS 1000000ull

typedef struct {
  uint32_t n;
  iospd_run_tick_t first, last;
  uint32_t per_phase[4];
  uint32_t timespans_seen; /* bit per timespan */
  bool went_back;          /* elapsed or phase went backwards in a timespan */
  bool sum_off;            /* elapsed + remaining off the plan */
  uint64_t warmup_s, duration_s, cooldown_s;
} ticks_t;

static void on_tick(void* ctx, const iospd_run_tick_t* t) {
  ticks_t* k = ctx;
  if (k->n == 0) k->first = *t;
  if (k->n > 0 && k->last.timespan == t->timespan &&
      (t->elapsed_ms < k->last.elapsed_ms || t->phase < k->last.phase))
    k->went_back = true;
  uint64_t plan = (k->warmup_s + k->duration_s + k->cooldown_s) * 1000;
  /* Before measuring the end is the plan; then the workers' deadline, set
   * when measuring really began (a wait slice, at most 100 ms, late). */
  uint64_t sum = t->elapsed_ms + t->remaining_ms;
  if (t->phase == IOSPD_PHASE_WARMUP ? sum != plan
                                     : sum < plan || sum > plan + 100)
    k->sum_off = true;
  k->per_phase[t->phase]++;
  k->timespans_seen |= 1u << t->timespan;
  k->last = *t;
  k->n++;
}

static void test_ticks_through_the_phases(void** state) {
  (void)state;
  fake_reset();
  iospd_profile_t p;
  iospd_profile_init(&p);
  for (int i = 0; i < 2; i++) {
    iospd_timespan_t* ts = iospd_profile_add_timespan(&p);
    ts->warmup = 1;
    ts->duration = 2;
    ts->cooldown = 1;
    iospd_target_t* t = iospd_timespan_add_target(ts);
    iospd_target_set_path(t, "t.dat");
    t->block_size = 4 * KB;
    t->request_count = 1;
  }
  fake_add_file("t.dat", 64 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  ticks_t k;
  memset(&k, 0, sizeof k);
  k.warmup_s = 1;
  k.duration_s = 2;
  k.cooldown_s = 1;
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof hooks);
  hooks.cooperative = true;
  hooks.tick = on_tick;
  hooks.ctx = &k;
  iospd_results_t res;
  memset(&res, 0, sizeof res);
  assert_int_equal(iospd_plat_init(&res.sys, NULL), 0);
  iospd_err_t err;
  iospd_err_clear(&err);
  assert_int_equal(iospd_run(&p, &hooks, &res, &err), 0);

  assert_true(k.n > 0);
  /* The first tick: timespan 1 of 2, warming up, nothing elapsed yet. */
  assert_int_equal(k.first.timespan, 0);
  assert_int_equal(k.first.timespan_count, 2);
  assert_int_equal(k.first.phase, IOSPD_PHASE_WARMUP);
  assert_int_equal(k.first.elapsed_ms, 0);
  assert_int_equal(k.first.remaining_ms, 4000);
  /* Every phase of both timespans was told, in order, and the clock adds
   * up to the plan. */
  assert_int_equal(k.timespans_seen, 3);
  assert_true(k.per_phase[IOSPD_PHASE_WARMUP] > 0);
  assert_true(k.per_phase[IOSPD_PHASE_MEASURE] > 0);
  assert_true(k.per_phase[IOSPD_PHASE_COOLDOWN] > 0);
  assert_false(k.went_back);
  assert_false(k.sum_off);
  /* The last: timespan 2 cooling down, its end less than a wait away. */
  assert_int_equal(k.last.timespan, 1);
  assert_int_equal(k.last.phase, IOSPD_PHASE_COOLDOWN);
  assert_true(k.last.elapsed_ms >= 3900 && k.last.elapsed_ms < 4100);
  assert_true(k.last.remaining_ms <= 100);

  iospd_results_destroy(&res);
  iospd_plat_cpu_topology_free(&res.topo);
  iospd_profile_destroy(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ticks_through_the_phases),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
