/* SPDX-License-Identifier: MIT */
/* Many runs in one process (iospd_run_in, iospd/run.h): four different
 * profiles run one after another with one session, each result checked
 * exactly on the fake platform's virtual clock (1 ms per I/O, so a slot
 * completes 1000 I/Os a measured second); nothing of one run is left for
 * the next. Then Ctrl-C during a run: that run keeps what it measured and
 * the next call with the same session runs nothing. */
#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/run.h"
#include "test_util.h"

#define KB 1024u
#define MS 1000000ull
#define SEC 1000000000ull

typedef struct {
  uint32_t threads, depth, bs, write_pct, seconds;
  uint32_t targets;
} shape_t;

static void build(iospd_profile_t* p, const shape_t* s) {
  iospd_profile_init(p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(p);
  ts->warmup = 0;
  ts->duration = s->seconds;
  ts->cooldown = 0;
  for (uint32_t k = 0; k < s->targets; k++) {
    char name[16];
    snprintf(name, sizeof name, "m%u.dat", k);
    iospd_target_t* t = iospd_timespan_add_target(ts);
    iospd_target_set_path(t, name);
    t->block_size = s->bs;
    t->request_count = s->depth;
    t->threads_per_file = s->threads;
    t->write_ratio = s->write_pct;
  }
}

static int run_one(iospd_run_session_t* ss, const shape_t* s,
                   iospd_profile_t* p, iospd_results_t* res) {
  build(p, s);
  memset(res, 0, sizeof *res);
  assert_int_equal(iospd_plat_init(&res->sys, NULL), 0);
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof hooks);
  hooks.cooperative = true;
  iospd_err_t err;
  iospd_err_clear(&err);
  return iospd_run_in(ss, p, &hooks, res, &err);
}

/* I/Os and bytes of target ti over every thread, by direction. */
static void sums(const iospd_results_t* r, uint32_t ti, uint64_t ios[2],
                 uint64_t bytes[2]) {
  ios[0] = ios[1] = bytes[0] = bytes[1] = 0;
  const iospd_timespan_result_t* ts = &r->timespans[0];
  for (uint32_t i = 0; i < ts->thread_count; i++)
    for (uint32_t k = 0; k < ts->threads[i].target_count; k++) {
      const iospd_thread_target_result_t* tt = &ts->threads[i].targets[k];
      if (tt->target_index != ti) continue;
      for (int op = 0; op < 2; op++) {
        ios[op] += tt->stats.ios[op];
        bytes[op] += tt->stats.bytes[op];
      }
    }
}

static void done(iospd_profile_t* p, iospd_results_t* r) {
  iospd_results_destroy(r);
  iospd_run_release(r, p);
  iospd_plat_cpu_topology_free(&r->topo);
  iospd_profile_destroy(p);
}

static void test_three_profiles(void** state) {
  (void)state;
  fake_reset();
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  fake_add_file("m0.dat", 1024 * KB, true);
  fake_add_file("m1.dat", 1024 * KB, true);
  iospd_run_session_t ss;
  iospd_run_session_init(&ss);
  const shape_t shapes[4] = {
      {1, 1, 4 * KB, 0, 1, 1},   /* reads, depth 1: 1000 I/Os */
      {1, 4, 8 * KB, 100, 2, 1}, /* writes, 4 slots x 2 s: 8000 */
      {1, 2, 4 * KB, 0, 1, 2},   /* two targets, 2 slots each, 1 s */
      {2, 3, 8 * KB, 100, 1, 1}, /* 2 threads on one target, 3 slots */
  };
  /* Measured I/Os per target: depth x seconds x 1000 for one worker. In
   * cooperative runs the workers are stepped in turn and a reap that waits
   * moves the one virtual clock, so n workers of equal depth share it:
   * each completes 1/n of that (threads x targets workers here). */
  for (int i = 0; i < 4; i++) {
    iospd_profile_t p;
    iospd_results_t r;
    assert_int_equal(run_one(&ss, &shapes[i], &p, &r), 0);
    assert_int_equal(r.timespan_count, 1);
    assert_false(r.timespans[0].interrupted_before_measure);
    assert_true(r.timespans[0].seconds == (double)shapes[i].seconds);
    const shape_t* s = &shapes[i];
    uint32_t workers = s->threads * s->targets;
    uint64_t want = (uint64_t)s->threads * s->depth * s->seconds * 1000u /
                    workers;
    int op = s->write_pct == 100 ? 1 : 0;
    for (uint32_t ti = 0; ti < s->targets; ti++) {
      uint64_t ios[2], bytes[2];
      sums(&r, ti, ios, bytes);
      assert_int_equal(ios[op], want);
      assert_int_equal(bytes[op], want * s->bs);
      assert_int_equal(ios[!op], 0);
      assert_int_equal(bytes[!op], 0);
    }
    assert_int_equal(r.timespans[0].thread_count, s->threads * s->targets);
    done(&p, &r);
  }
  assert_false(iospd_run_session_interrupted(&ss));
}

/* Ctrl-C half-way through the second of two runs: it keeps what it
 * measured; a third call with the session runs nothing. */
static void test_stop_between_runs(void** state) {
  (void)state;
  fake_reset();
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  fake_add_file("m0.dat", 1024 * KB, true);
  iospd_run_session_t ss;
  iospd_run_session_init(&ss);
  const shape_t s = {1, 1, 4 * KB, 0, 2, 1};
  iospd_profile_t p;
  iospd_results_t r;
  assert_int_equal(run_one(&ss, &s, &p, &r), 0);
  uint64_t ios[2], bytes[2];
  sums(&r, 0, ios, bytes);
  assert_int_equal(ios[0], 2000);
  uint64_t t_end = fake_now();
  done(&p, &r);
  fake_interrupt_at(t_end + 1 * SEC); /* 1 s into the next measured time */
  assert_int_equal(run_one(&ss, &s, &p, &r), 0);
  assert_true(iospd_run_session_interrupted(&ss));
  assert_int_equal(r.timespan_count, 1);
  sums(&r, 0, ios, bytes);
  assert_true(ios[0] > 0 && ios[0] < 2000);
  assert_int_equal(bytes[0], ios[0] * 4 * KB);
  done(&p, &r);
  uint32_t before = 0, after = 0;
  (void)fake_log(&before);
  assert_int_equal(run_one(&ss, &s, &p, &r), 0);
  assert_int_equal(r.timespan_count, 0);
  (void)fake_log(&after);
  assert_int_equal(after, before); /* no I/O at all */
  done(&p, &r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_three_profiles),
      cmocka_unit_test(test_stop_between_runs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
