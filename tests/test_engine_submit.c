/* SPDX-License-Identifier: MIT */
/* How the engine hands I/Os to the platform, against the fake platform's
 * virtual clock: one stamp per I/O where each I/O is its own OS call
 * (Windows ReadFile), the reap batch the platform asks for, I/Os given up
 * on after the stop, and what a run asks of the platform (-l, -g, -j). */
#include "fake_plat.h"
#include "iospd/hist.h"
#include "iospd/run.h"
#include "test_util.h"

#define KB 1024u
#define START 1000000000ull
#define US 1000ull
#define MS 1000000ull

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
  char said[1024];
} run_t;

static iospd_target_t* setup(run_t* r, const char* path, uint32_t slots) {
  memset(r, 0, sizeof(*r));
  fake_reset();
  iospd_profile_init(&r->p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = 0;
  ts->duration = 1;
  ts->cooldown = 0;
  ts->measure_latency = true;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, path);
  t->block_size = 4 * KB;
  t->request_count = slots;
  fake_add_file(path, 1024 * KB, true);
  return t;
}

static void message(void* ctx, iospd_msg_kind_t kind, const char* text) {
  run_t* r = ctx;
  size_t n = strlen(r->said);
  snprintf(r->said + n, sizeof(r->said) - n, "%s%s\n",
           iospd_msg_def(kind)->prefix, text);
}

static void go(run_t* r) {
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof(hooks));
  hooks.cooperative = true;
  hooks.message = message;
  hooks.ctx = r;
  assert_int_equal(iospd_plat_init(&r->res.sys, NULL), 0);
  iospd_err_clear(&r->err);
  r->rc = iospd_run(&r->p, &hooks, &r->res, &r->err);
}

static void done(run_t* r) {
  iospd_results_destroy(&r->res);
  iospd_plat_cpu_topology_free(&r->res.topo);
  iospd_profile_destroy(&r->p);
}

static const iospd_target_stats_t* st(run_t* r) {
  return &r->res.timespans[0].threads[0].targets[0].stats;
}

/* Each submit call costs 100 us per I/O (a cached ReadFile copies inside
 * the call), then the device takes 1 ms. Handed over one by one, every
 * I/O's latency is its own call plus the device: exactly 1.1 ms, however
 * many calls went before it in the batch. Stamped once per batch, the
 * k-th I/O of a batch of four would read 1.1 ms + k x 100 us. */
static void test_each_io_stamped_at_its_own_submit(void** state) {
  (void)state;
  for (int each = 1; each >= 0; each--) {
    run_t r;
    setup(&r, "s.dat", 4);
    fake_set_queue_traits(each != 0, 16, 16);
    fake_set_submit_cost(100 * US);
    const uint64_t lat[] = {1 * MS};
    fake_set_latencies(lat, 1);
    go(&r);
    assert_int_equal(r.rc, 0);
    uint32_t n;
    const fake_io_t* log = fake_log(&n);
    const iospd_target_stats_t* s = st(&r);
    assert_true(s->ios[0] > 3000);
    if (each) {
      /* One submit call per I/O, and what the engine recorded is what
       * the fake saw from each call's start to its reap. */
      assert_int_equal(fake_submit_calls(), n);
      for (uint32_t i = 0; i < n; i++)
        if (log[i].reaped_ns != 0)
          assert_int_equal(log[i].reaped_ns - log[i].submit_ns, 1100 * US);
      assert_int_equal(iospd_hist_min_ns(s->lat[0]), 1100 * US);
      assert_int_equal(iospd_hist_max_ns(s->lat[0]), 1100 * US);
    } else {
      /* The batch path (io_uring: one kernel entry for the batch): the
       * first four share one stamp, so the fourth reads 1.4 ms. */
      assert_int_equal(fake_submit_calls() < n, true);
      assert_int_equal(log[3].submit_ns, START + 300 * US);
      assert_int_equal(log[3].reaped_ns, START + 1400 * US);
      assert_true(iospd_hist_max_ns(s->lat[0]) > 1100 * US);
    }
    done(&r);
  }
}

/* The reap batch is the platform's: with 32 I/Os of 1 ms completing
 * together each millisecond, Windows' 16 (DISKSPD's per
 * GetQueuedCompletionStatusEx) reissues them 16 at a time, Linux's 2 for
 * unbuffered targets two at a time. One submit call per pass shows it. */
static void test_reap_batch_is_the_platforms(void** state) {
  (void)state;
  const uint32_t batches[] = {16, 2};
  for (int i = 0; i < 2; i++) {
    run_t r;
    iospd_target_t* t = setup(&r, "b.dat", 32);
    t->cache_mode = IOSPD_CACHE_DISABLE_OS;
    fake_set_queue_traits(false, 16, batches[i]);
    const uint64_t lat[] = {1 * MS};
    fake_set_latencies(lat, 1);
    go(&r);
    assert_int_equal(r.rc, 0);
    uint32_t n;
    (void)fake_log(&n);
    assert_in_range(n, 32 + 32 * 999, 32 + 32 * 1000);
    assert_int_equal((n - 32) % batches[i], 0);
    assert_int_equal(fake_submit_calls(), 1 + (n - 32) / batches[i]);
    done(&r);
  }
}

/* An I/O that comes back cancelled after the stop (the controller
 * cancelled a blocking call that outlived the drain time) is not a failure
 * of the run, but it is said; cancelled while measuring, it fails the run
 * as any failed I/O does. */
static void test_cancelled_after_stop(void** state) {
  (void)state;
  run_t r;
  /* Two slots of 1 ms I/Os; the one issued at 990 ms takes 50 ms and
   * comes back cancelled, after the stop at 1 s. */
  setup(&r, "c.dat", 2);
  static uint64_t lat[4000];
  for (int i = 0; i < 4000; i++) lat[i] = 1 * MS;
  lat[1980] = 50 * MS;
  fake_set_latencies(lat, 4000);
  fake_fail_io(1980, IOSPD_ECANCELED);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  assert_int_equal(log[1980].submit_ns, START + 990 * MS);
  assert_int_equal(log[1980].reaped_ns, START + 1040 * MS);
  assert_int_equal(st(&r)->errors[0], 0);
  assert_int_equal(st(&r)->ios[0], n - 1 - 1); /* less it and the last */
  assert_string_equal(r.said,
                      "WARNING: thread 0: 1 I/O was still in flight 10 s "
                      "after the run stopped (a hung or paused device?) and "
                      "cancelled\n");
  done(&r);

  /* Cancelled while measuring: a failure like any other. */
  setup(&r, "c.dat", 2);
  fake_set_latencies(lat, 4000);
  fake_fail_io(500, IOSPD_ECANCELED);
  go(&r);
  assert_int_equal(r.rc, IOSPD_ECANCELED);
  assert_non_null(strstr(r.err.msg, "read at offset"));
  assert_int_equal(st(&r)->errors[0], 1);
  assert_string_equal(r.said, "");
  done(&r);
}

/* -l and -g/-j are asked of the platform once per run, before anything
 * starts, and given back; a refusal (no "Lock pages in memory") fails the
 * run with the platform's message and nothing is given back. */
static void test_run_needs(void** state) {
  (void)state;
  run_t r;
  iospd_run_needs_t needs;
  uint32_t begins, ends;
  setup(&r, "n.dat", 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  fake_run_needs(&needs, &begins, &ends);
  assert_false(needs.large_pages);
  assert_false(needs.fine_waits);
  assert_int_equal(begins, 1);
  assert_int_equal(ends, 1);
  done(&r);

  iospd_target_t* t = setup(&r, "n.dat", 1);
  t->large_pages = true;
  t->throughput_bpms = 100;
  go(&r);
  assert_int_equal(r.rc, 0);
  fake_run_needs(&needs, &begins, &ends);
  assert_true(needs.large_pages);
  assert_true(needs.fine_waits);
  assert_int_equal(ends, 1);
  done(&r);

  /* Think time needs fine waits too, but only with a burst (-i). */
  t = setup(&r, "n.dat", 1);
  t->think_time = 2;
  go(&r);
  fake_run_needs(&needs, &begins, &ends);
  assert_false(needs.fine_waits);
  done(&r);
  t = setup(&r, "n.dat", 1);
  t->think_time = 2;
  t->burst_size = 10;
  go(&r);
  fake_run_needs(&needs, &begins, &ends);
  assert_true(needs.fine_waits);
  assert_false(needs.large_pages);
  done(&r);

  t = setup(&r, "n.dat", 1);
  t->large_pages = true;
  fake_fail_run_begin(IOSPD_EACCES);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EACCES);
  assert_string_equal(r.err.msg, "fake: run_begin refused");
  fake_run_needs(&needs, &begins, &ends);
  assert_int_equal(begins, 1);
  assert_int_equal(ends, 0);
  uint32_t n;
  (void)fake_log(&n);
  assert_int_equal(n, 0);
  done(&r);
}

/* One I/O's completion arrives twice in one reap (a driver's warning
 * status on a synchronous failure queues a packet anyway; a platform bug).
 * The second is dropped and counted as a stray: every measured I/O is
 * counted once, the slot is queued once (ready[] holds at most the depth:
 * ASan sees a second push as an overflow), and the run says so. Before the
 * slots carried in_flight the I/O was counted twice and its tag pushed
 * twice into ready[], one past the end of a four-slot array. */
static void test_duplicate_completion_dropped(void** state) {
  (void)state;
  run_t r;
  setup(&r, "d.dat", 4);
  fake_set_queue_traits(false, 16, 16);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  fake_duplicate_completion(10);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  uint64_t measured = 0;
  for (uint32_t i = 0; i < n; i++)
    if (log[i].reaped_ns != 0 && log[i].measured) measured++;
  assert_true(measured > 3000);
  assert_int_equal(st(&r)->ios[0], measured);
  assert_int_equal(st(&r)->bytes[0], measured * 4 * KB);
  assert_non_null(strstr(r.said,
                         "thread 0: 1 completion arrived for I/Os that were "
                         "no longer in flight (one I/O reported twice by the "
                         "platform or a driver); it was dropped, not "
                         "counted\n"));
  done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_each_io_stamped_at_its_own_submit),
      cmocka_unit_test(test_reap_batch_is_the_platforms),
      cmocka_unit_test(test_cancelled_after_stop),
      cmocka_unit_test(test_run_needs),
      cmocka_unit_test(test_duplicate_completion_dropped),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  fake_reset();
  return rc;
}
