/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's run-time switches in the block worker, against the fake
 * platform's virtual clock: -u (the ring engine, its submit batches and
 * registered buffers), -oc (completions per wait), the -vs completion-wait
 * histogram, and -bs buffer separation (each thread's buffer on its own
 * boundary). */
#include "cJSON.h"
#include "fake_plat.h"
#include "iospd/message.h"
#include "iospd/bufsep.h"
#include "iospd/report.h"
#include "iospd/run.h"
#include "test_util.h"

#define KB 1024u
#define MIB (1024u * 1024u)
#define MS 1000000ull
#define FAKE_RING 2 /* the fake's "fake-ring" row (IOSPD_ENGINE_CAP_RING) */

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
  char said[2048];
} run_t;

static iospd_timespan_t* setup(run_t* r, uint32_t threads, uint32_t slots) {
  memset(r, 0, sizeof(*r));
  fake_reset();
  iospd_profile_init(&r->p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = 0;
  ts->duration = 1;
  ts->cooldown = 0;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, "u.dat");
  t->block_size = 4 * KB;
  t->request_count = slots;
  t->threads_per_file = threads;
  fake_add_file("u.dat", 1024 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  return ts;
}

/* The line as the printer would write it: the kind's prefix, the text. */
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

static const iospd_wait_stats_t* waits(run_t* r, uint32_t thread) {
  return &r->res.timespans[0].threads[thread].wait;
}

/* -u picks the ring engine; without it the profile's (auto, 0). */
static void test_u_picks_the_ring_engine(void** state) {
  (void)state;
  for (int u = 0; u < 2; u++) {
    run_t r;
    iospd_timespan_t* ts = setup(&r, 1, 4);
    ts->ioring.enabled = u != 0;
    ts->ioring.registered_buffers = true;
    go(&r);
    assert_int_equal(r.rc, 0);
    assert_int_equal(fake_queues_created(), 1);
    assert_int_equal(fake_queue_engine(0), u ? FAKE_RING : 0);
    done(&r);
  }
}

/* -u with --engine= naming another engine: the run fails before any I/O,
 * naming both. */
static void test_u_refuses_another_engine(void** state) {
  (void)state;
  run_t r;
  iospd_timespan_t* ts = setup(&r, 1, 4);
  ts->ioring.enabled = true;
  r.p.ext.engine = 1; /* "fake" */
  go(&r);
  assert_true(r.rc < 0);
  assert_non_null(strstr(r.err.msg, "-u submits through fake-ring, but "
                                    "--engine=fake names another engine; "
                                    "drop -u or the --engine= switch"));
  uint32_t n;
  (void)fake_log(&n);
  assert_int_equal(n, 0);
  done(&r);
  /* --engine= naming the ring engine itself is fine. */
  ts = setup(&r, 1, 4);
  ts->ioring.enabled = true;
  r.p.ext.engine = FAKE_RING;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(fake_queue_engine(0), FAKE_RING);
  done(&r);
}

/* The batch: -o8 with I/Os of 1 ms that complete together. Every pass
 * reissues all eight with nothing in flight, so the eight go in submit
 * calls of the batch each, the last partial: -u (25 % = 2): 2 2 2 2;
 * -u3: 3 3 2; -u50p: 4 4; -u8: 8; without -u one call of 8. */
static void test_u_submits_in_batches(void** state) {
  (void)state;
  static const struct {
    bool u;
    uint32_t batch;
    bool pct;
    uint32_t sizes[4];
    uint32_t calls; /* per pass */
  } cases[] = {
      {true, 0, false, {2, 2, 2, 2}, 4},  {true, 25, true, {2, 2, 2, 2}, 4},
      {true, 3, false, {3, 3, 2, 0}, 3},  {true, 50, true, {4, 4, 0, 0}, 2},
      {true, 8, false, {8, 0, 0, 0}, 1},  {true, 100, false, {8, 0, 0, 0}, 1},
      {false, 0, false, {8, 0, 0, 0}, 1},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    run_t r;
    iospd_timespan_t* ts = setup(&r, 1, 8);
    ts->ioring.enabled = cases[c].u;
    ts->ioring.registered_buffers = true;
    ts->ioring.batch = cases[c].batch;
    ts->ioring.batch_percent = cases[c].pct;
    go(&r);
    assert_int_equal(r.rc, 0);
    uint32_t n, calls;
    (void)fake_log(&n);
    const uint32_t* sizes = fake_submit_sizes(&calls);
    /* One pass per millisecond of the 1 s run: about 1000 x 8 I/Os. */
    assert_in_range(n, 8 * 999, 8 * 1001);
    assert_int_equal(n % 8, 0);
    assert_int_equal(calls, n / 8 * cases[c].calls);
    for (uint32_t i = 0; i < calls; i++)
      assert_int_equal(sizes[i], cases[c].sizes[i % cases[c].calls]);
    done(&r);
  }
}

/* With completions spread out (1, 2, 3 and 4 ms), a partial batch waits
 * for more completions while I/O is in flight: -o8 -u4 hands over exactly
 * four I/Os in every submit call, and the eight are all in flight at
 * times (the queue's depth is kept). */
static void test_u_partial_batch_waits(void** state) {
  (void)state;
  run_t r;
  iospd_timespan_t* ts = setup(&r, 1, 8);
  const uint64_t lat[] = {1 * MS, 2 * MS, 3 * MS, 4 * MS};
  fake_set_latencies(lat, 4);
  ts->ioring.enabled = true;
  ts->ioring.batch = 4;
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n, calls;
  const fake_io_t* log = fake_log(&n);
  const uint32_t* sizes = fake_submit_sizes(&calls);
  assert_true(calls > 100);
  for (uint32_t i = 0; i < calls; i++) assert_int_equal(sizes[i], 4);
  assert_int_equal(n, calls * 4);
  /* In flight at each submit: those submitted before and not yet reaped. */
  uint32_t most = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t k = 0;
    for (uint32_t j = 0; j <= i; j++)
      if (log[j].reaped_ns == 0 || log[j].reaped_ns > log[i].submit_ns) k++;
    if (k > most) most = k;
    if (i > 400) break;
  }
  assert_int_equal(most, 8);
  done(&r);
}

/* Registered buffers: -u registers the worker's buffer, -un does not;
 * without -u the one-target worker registers as before. */
static void test_un_leaves_buffers_unregistered(void** state) {
  (void)state;
  static const struct {
    bool u, reg;
    uint32_t calls;
  } cases[] = {{true, true, 1}, {true, false, 0}, {false, false, 1}};
  for (size_t c = 0; c < 3; c++) {
    run_t r;
    iospd_timespan_t* ts = setup(&r, 1, 4);
    ts->ioring.enabled = cases[c].u;
    ts->ioring.registered_buffers = cases[c].reg;
    go(&r);
    assert_int_equal(r.rc, 0);
    assert_int_equal(fake_register_calls(), cases[c].calls);
    done(&r);
  }
}

/* -oc2 with -o4 of 1 ms I/Os: every wait returns exactly two completions
 * (the other two are taken by the next pass's wait at once), so the
 * completion-wait histogram has every wait in its "2" column; without -oc
 * the platform's 16 takes all four per wait. */
static void test_oc_completions_per_wait(void** state) {
  (void)state;
  for (int oc = 0; oc < 2; oc++) {
    run_t r;
    iospd_timespan_t* ts = setup(&r, 1, 4);
    ts->completion_depth = oc ? 2 : 0;
    go(&r);
    assert_int_equal(r.rc, 0);
    assert_int_equal(fake_reap_max_seen(), oc ? 2 : 16);
    const iospd_wait_stats_t* w = waits(&r, 0);
    uint32_t col = oc ? 2 : 4;
    assert_true(w->completion_wait > 900);
    for (uint32_t i = 0; i < 8; i++)
      assert_int_equal(w->completion_wait_hist[i],
                       i == col ? w->completion_wait : 0);
    /* The waits returned every I/O reaped but the few of the drain after
     * the stop, whose waits are not counted (fewer than -o). */
    uint32_t n;
    const fake_io_t* log = fake_log(&n);
    uint64_t reaped = 0;
    for (uint32_t i = 0; i < n; i++) reaped += log[i].reaped_ns != 0;
    assert_true(reaped >= w->completion_wait * col);
    assert_true(reaped - w->completion_wait * col < 4);
    done(&r);
  }
}

/* The histogram in the JSON at 2.3 (wait_statistics.wait_completion, as
 * the XML's <WaitCompletion>), not at 2.2: the -oc2 run above. */
static void test_histogram_in_json(void** state) {
  (void)state;
  for (int level = 0; level < 2; level++) {
    run_t r;
    iospd_timespan_t* ts = setup(&r, 1, 4);
    ts->completion_depth = 2;
    r.p.verbose_stats = true;
    r.p.ext.diskspd = level ? IOSPD_DISKSPD_23 : IOSPD_DISKSPD_22;
    go(&r);
    assert_int_equal(r.rc, 0);
    r.res.profile = &r.p;
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_report_json(&sb, &r.res, NULL);
    cJSON* doc = cJSON_Parse(sb.data);
    assert_non_null(doc);
    const cJSON* ws = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(
            cJSON_GetObjectItemCaseSensitive(
                cJSON_GetArrayItem(
                    cJSON_GetObjectItemCaseSensitive(doc, "timespans"), 0),
                "threads"),
            0),
        "wait_statistics");
    assert_non_null(ws);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(ws, "lookaside_completion"));
    const cJSON* h = cJSON_GetObjectItemCaseSensitive(ws, "wait_completion");
    if (level) {
      assert_int_equal(cJSON_GetArraySize(h), 8);
      for (int i = 0; i < 8; i++)
        assert_true(cJSON_GetArrayItem(h, i)->valuedouble ==
                    (double)waits(&r, 0)->completion_wait_hist[i]);
      assert_true(cJSON_GetArrayItem(h, 2)->valuedouble ==
                  (double)waits(&r, 0)->completion_wait);
      assert_true(waits(&r, 0)->completion_wait > 900);
    } else {
      assert_null(h);
    }
    cJSON_Delete(doc);
    iospd_strbuf_destroy(&sb);
    done(&r);
  }
}

/* -oc above the worker's room (16 completions per pass) is held to it. */
static void test_oc_more_than_room(void** state) {
  (void)state;
  run_t r;
  iospd_timespan_t* ts = setup(&r, 1, 32);
  ts->completion_depth = 64;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(fake_reap_max_seen(), 16);
  done(&r);
}

/* The lowest buffer address each queue's reads used: slot 0's, the start
 * of that worker's target buffer. */
static uintptr_t buffer_of(uint32_t queue) {
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  uintptr_t lo = UINTPTR_MAX;
  for (uint32_t i = 0; i < n; i++)
    if (log[i].queue == queue && log[i].op == IOSPD_OP_READ &&
        (uintptr_t)log[i].buf < lo)
      lo = (uintptr_t)log[i].buf;
  return lo;
}

/* -bs: at --diskspd=2.3 (and with -bsp at any level) each of three
 * threads' buffers starts on its own 16 MiB boundary (64-byte lines, the
 * fallback of a topology without caches, and 4 KiB pages); -bsn and 2.2
 * keep the page alignment. */
static void test_bs_separates_thread_buffers(void** state) {
  (void)state;
  static const struct {
    iospd_diskspd_level_t level;
    iospd_buffer_separation_t bs;
    bool separated;
  } cases[] = {
      {IOSPD_DISKSPD_23, IOSPD_BUFSEP_LEVEL_DEFAULT, true},
      {IOSPD_DISKSPD_23, IOSPD_BUFSEP_PDE_CACHE_LINE, true},
      {IOSPD_DISKSPD_22, IOSPD_BUFSEP_PDE_CACHE_LINE, true},
      {IOSPD_DISKSPD_23, IOSPD_BUFSEP_SYSTEM_DEFAULT, false},
      {IOSPD_DISKSPD_22, IOSPD_BUFSEP_LEVEL_DEFAULT, false},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    run_t r;
    iospd_timespan_t* ts = setup(&r, 3, 2);
    r.p.ext.diskspd = cases[c].level;
    ts->buffer_separation = cases[c].bs;
    go(&r);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.res.sys.page_size, 4096);
    assert_int_equal(fake_queues_created(), 3);
    uintptr_t b[3];
    for (uint32_t q = 0; q < 3; q++) {
      b[q] = buffer_of(q);
      assert_true(b[q] != UINTPTR_MAX);
      assert_int_equal(b[q] % 4096u, 0);
      if (cases[c].separated) assert_int_equal(b[q] % (16u * MIB), 0);
    }
    if (cases[c].separated) {
      assert_true(b[0] != b[1] && b[1] != b[2] && b[0] != b[2]);
    } else {
      /* Page-aligned only: three 16 MiB-aligned buffers by chance would
       * be one in 2^36. */
      assert_false(b[0] % (16u * MIB) == 0 && b[1] % (16u * MIB) == 0 &&
                   b[2] % (16u * MIB) == 0);
    }
    assert_null(strstr(r.said, "take priority"));
    done(&r);
  }
}

/* -l with an explicit -bsp: large pages decide, with a warning. */
static void test_bs_large_pages_warning(void** state) {
  (void)state;
  for (int explicit_bsp = 0; explicit_bsp < 2; explicit_bsp++) {
    run_t r;
    iospd_timespan_t* ts = setup(&r, 1, 2);
    r.p.ext.diskspd = IOSPD_DISKSPD_23;
    ts->targets[0].large_pages = true;
    ts->buffer_separation = explicit_bsp ? IOSPD_BUFSEP_PDE_CACHE_LINE
                                         : IOSPD_BUFSEP_LEVEL_DEFAULT;
    go(&r);
    assert_int_equal(r.rc, 0);
    const char* w = strstr(r.said,
                           "WARNING: large pages (-l) take priority over "
                           "buffer separation (-bsp): the I/O buffers are "
                           "placed on large pages, not separated");
    if (explicit_bsp)
      assert_non_null(w);
    else
      assert_null(w);
    done(&r);
  }
}

/* The boundary: (line / 8) x (page / 8) x page, the largest line of the
 * caches, 64 bytes when the topology lists none. */
static void test_bs_boundary(void** state) {
  (void)state;
  iospd_cache_info_t caches[3] = {
      {.level = 1, .line_size = 64}, {.level = 2, .line_size = 128},
      {.level = 3, .line_size = 64}};
  iospd_cpu_topology_t topo;
  memset(&topo, 0, sizeof topo);
  assert_int_equal(iospd_bufsep_bytes(&topo, 4096), 16u * MIB);
  assert_int_equal(iospd_bufsep_bytes(NULL, 0), 16u * MIB);
  assert_int_equal(iospd_bufsep_bytes(&topo, 16384), 256u * MIB);
  topo.caches = caches;
  topo.cache_count = 3;
  assert_int_equal(iospd_bufsep_bytes(&topo, 4096), 32u * MIB);
  topo.cache_count = 1;
  assert_int_equal(iospd_bufsep_bytes(&topo, 65536), 4096ull * MIB);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_u_picks_the_ring_engine),
      cmocka_unit_test(test_u_refuses_another_engine),
      cmocka_unit_test(test_u_submits_in_batches),
      cmocka_unit_test(test_u_partial_batch_waits),
      cmocka_unit_test(test_un_leaves_buffers_unregistered),
      cmocka_unit_test(test_oc_completions_per_wait),
      cmocka_unit_test(test_histogram_in_json),
      cmocka_unit_test(test_oc_more_than_room),
      cmocka_unit_test(test_bs_separates_thread_buffers),
      cmocka_unit_test(test_bs_large_pages_warning),
      cmocka_unit_test(test_bs_boundary),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  fake_reset();
  return rc;
}
