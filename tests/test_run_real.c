/* SPDX-License-Identifier: MIT */
/* iospd_run on the real platform with real threads: short runs on a
 * temporary file in the test's working directory. Checks that -c creates
 * the exact size, that a sequential -w100 run leaves DISKSPD's write
 * pattern on disk, and that the counts add up. Native Linux only; skips
 * elsewhere (wine is a functional bed, not a storage one). */
#include "iospd/run.h"
#include "test_util.h"

#define TMP "iospd_run_real.tmp"
#define KB 1024u

static iospd_sysinfo_t g_sys;

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
} real_t;

static iospd_target_t* setup(real_t* r, uint32_t dur) {
  memset(r, 0, sizeof(*r));
  iospd_profile_init(&r->p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = 0;
  ts->duration = dur;
  ts->cooldown = 0;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, TMP);
  t->block_size = 4 * KB;
  return t;
}

static uint32_t g_dots, g_told;
static void dot_interrupts(void* ctx) {
  (void)ctx;
  /* A worker thread plays Ctrl-C: the same wake-up a real one causes. */
  if (g_dots++ == 0) iospd_plat_interrupt();
}
static void told(void* ctx) {
  (void)ctx;
  g_told++;
}

static void go_hooks(real_t* r, const iospd_run_hooks_t* hooks) {
  r->res.sys = g_sys;
  iospd_err_clear(&r->err);
  r->rc = iospd_run(&r->p, hooks, &r->res, &r->err);
  if (r->rc != 0) print_error("iospd_run: %s\n", r->err.msg);
}

static void go(real_t* r) {
  r->res.sys = g_sys;
  iospd_err_clear(&r->err);
  r->rc = iospd_run(&r->p, NULL, &r->res, &r->err);
  if (r->rc != 0) print_error("iospd_run: %s\n", r->err.msg);
}

static void done(real_t* r) {
  iospd_results_destroy(&r->res);
  iospd_plat_cpu_topology_free(&r->res.topo);
  iospd_profile_destroy(&r->p);
}

static long file_size(const char* path) {
  FILE* f = fopen(path, "rb");
  if (f == NULL) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fclose(f);
  return n;
}

/* Sums over every (thread, target): bytes must be ios x block size. */
static uint64_t check_counts(real_t* r, int op, uint32_t bs) {
  uint64_t ios = 0;
  const iospd_timespan_result_t* tsr = &r->res.timespans[0];
  for (uint32_t i = 0; i < tsr->thread_count; i++)
    for (uint32_t k = 0; k < tsr->threads[i].target_count; k++) {
      const iospd_target_stats_t* s = &tsr->threads[i].targets[k].stats;
      assert_int_equal(s->bytes[op], s->ios[op] * bs);
      assert_int_equal(s->errors[op], 0);
      ios += s->ios[op];
    }
  return ios;
}

static void test_create_exact_size(void** state) {
  (void)state;
  remove(TMP);
  real_t r;
  iospd_target_t* t = setup(&r, 1);
  t->create = true;
  t->file_size = 1024 * KB + 4 * KB;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(file_size(TMP), 1024 * KB + 4 * KB);
  assert_true(check_counts(&r, 0, 4 * KB) > 0);
  assert_int_equal(check_counts(&r, 1, 4 * KB), 0);
  const iospd_timespan_result_t* tsr = &r.res.timespans[0];
  assert_in_range((long)(tsr->seconds * 1000), 950, 1500);
  assert_int_equal(tsr->threads[0].targets[0].file_size, 1024 * KB + 4 * KB);
  assert_non_null(r.res.engine_name);
  assert_true(r.res.engine_name[0] != '\0');
  done(&r);
}

static void test_write_then_read_pattern(void** state) {
  (void)state;
  remove(TMP);
  real_t r;
  iospd_target_t* t = setup(&r, 1);
  t->create = true;
  t->file_size = 256 * KB;
  t->write_ratio = 100;
  t->request_count = 4;
  go(&r);
  assert_int_equal(r.rc, 0);
  uint64_t writes = check_counts(&r, 1, 4 * KB);
  /* A sequential second covers the 64 blocks many times over. */
  assert_true(writes > 64);
  done(&r);

  /* The file now holds byte i = i mod 256 everywhere (DISKSPD's write buffers). */
  FILE* f = fopen(TMP, "rb");
  assert_non_null(f);
  static unsigned char buf[256 * KB];
  assert_int_equal(fread(buf, 1, sizeof(buf), f), sizeof(buf));
  fclose(f);
  for (size_t i = 0; i < sizeof(buf); i++) {
    if (buf[i] != (unsigned char)(i & 0xff)) {
      print_error("byte %lu is %u\n", (unsigned long)i, (unsigned)buf[i]);
      fail();
    }
  }

  /* Reading it back: no -c this time, so nothing is recreated. */
  t = setup(&r, 1);
  t->request_count = 2;
  t->threads_per_file = 2;
  t->random_ratio = 100;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_true(check_counts(&r, 0, 4 * KB) > 0);
  assert_int_equal(r.res.timespans[0].thread_count, 2);
  assert_int_equal(file_size(TMP), 256 * KB);
  done(&r);

  f = fopen(TMP, "rb");
  assert_non_null(f);
  assert_int_equal(fread(buf, 1, sizeof(buf), f), sizeof(buf));
  fclose(f);
  assert_int_equal(buf[4097], 1);
}

/* The portable engine, many slots over two threads, random mixed I/O. */
static void test_psync_mixed(void** state) {
  (void)state;
  remove(TMP);
  real_t r;
  iospd_target_t* t = setup(&r, 1);
  t->create = true;
  t->file_size = 512 * KB;
  t->write_ratio = 50;
  t->random_ratio = 100;
  t->request_count = 8;
  t->threads_per_file = 2;
  /* Windows has no psync: there auto (IOCP). */
  int psync = iospd_engine_choice_parse("psync");
  r.p.ext.engine = psync >= 0 ? psync : IOSPD_ENGINE_AUTO;
  r.p.timespans[0].measure_latency = true;
  go(&r);
  assert_int_equal(r.rc, 0);
  /* Windows has one engine (IOCP); --engine only chooses on Linux. */
  if (strcmp(g_sys.os_name, "linux") == 0)
    assert_string_equal(r.res.engine_name, "psync");
  uint64_t reads = check_counts(&r, 0, 4 * KB);
  uint64_t writes = check_counts(&r, 1, 4 * KB);
  assert_true(reads > 50);
  assert_true(writes > 50);
  done(&r);
}

/* A -F pool with -O slots shared by two targets, then -si across threads:
 * the threaded controller with more than one target per worker. */
static void test_pool_and_interlocked(void** state) {
  (void)state;
  remove(TMP);
  remove(TMP "2");
  real_t r;
  iospd_target_t* t = setup(&r, 1);
  t->create = true;
  t->file_size = 256 * KB;
  iospd_timespan_t* ts = &r.p.timespans[0];
  iospd_target_t* t2 = iospd_timespan_add_target(ts);
  iospd_target_set_path(t2, TMP "2");
  t2->block_size = 8 * KB;
  t2->create = true;
  t2->file_size = 256 * KB;
  t2->random_ratio = 100;
  ts->thread_count = 2;
  ts->request_count = 4;
  go(&r);
  assert_int_equal(r.rc, 0);
  const iospd_timespan_result_t* tsr = &r.res.timespans[0];
  assert_int_equal(tsr->thread_count, 2);
  for (uint32_t i = 0; i < 2; i++) {
    assert_int_equal(tsr->threads[i].target_count, 2);
    for (uint32_t k = 0; k < 2; k++) {
      const iospd_thread_target_result_t* tt = &tsr->threads[i].targets[k];
      uint32_t bs = k == 0 ? 4 * KB : 8 * KB;
      assert_int_equal(tt->target_index, k);
      assert_int_equal(tt->stats.bytes[0], tt->stats.ios[0] * bs);
      assert_true(tt->stats.ios[0] > 0);
    }
  }
  done(&r);

  t = setup(&r, 1);
  t->interlocked = true;
  t->threads_per_file = 3;
  t->request_count = 2;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_true(check_counts(&r, 0, 4 * KB) > 0);
  assert_int_equal(r.res.timespans[0].thread_count, 3);
  done(&r);
  remove(TMP "2");
}

static void test_missing_target(void** state) {
  (void)state;
  remove(TMP);
  real_t r;
  setup(&r, 1);
  go(&r);
  assert_int_equal(r.rc, IOSPD_ENOENT);
  assert_string_equal(r.err.msg, "target '" TMP
                                 "' does not exist; create it with "
                                 "-c<size>");
  done(&r);
}

/* Must run last: the platform's wake-up stays set for the process. */
static void test_interrupt_warmup(void** state) {
  (void)state;
  remove(TMP);
  real_t r;
  iospd_target_t* t = setup(&r, 5);
  r.p.timespans[0].warmup = 5;
  r.p.timespans[0].cooldown = 5;
  r.p.progress_dots = 100;
  t->create = true;
  t->file_size = 64 * KB;
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof(hooks));
  hooks.progress_dot = dot_interrupts;
  hooks.interrupted = told;
  go_hooks(&r, &hooks);
  assert_int_equal(r.rc, 0);
  assert_true(r.res.timespans[0].interrupted_before_measure);
  assert_int_equal(g_told, 1);
  assert_int_equal(check_counts(&r, 0, 4 * KB), 0);
  done(&r);
}

int main(void) {
  iospd_err_t err;
  if (iospd_plat_init(&g_sys, &err) < 0) {
    printf("skipped: platform init failed: %s\n", err.msg);
    return IOSPD_TEST_SKIP;
  }
  /* IOSPD_RUN_REAL_ANY=1 runs it anyway (e.g. under wine, to check the
   * Windows platform functionally). */
  if ((g_sys.os_name == NULL || strcmp(g_sys.os_name, "linux") != 0) &&
      getenv("IOSPD_RUN_REAL_ANY") == NULL) {
    printf(
        "skipped: real runs are checked on native Linux only (this is "
        "%s)\n",
        g_sys.os_name ? g_sys.os_name : "unknown");
    iospd_plat_shutdown();
    return IOSPD_TEST_SKIP;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_exact_size),
      cmocka_unit_test(test_write_then_read_pattern),
      cmocka_unit_test(test_psync_mixed),
      cmocka_unit_test(test_pool_and_interlocked),
      cmocka_unit_test(test_missing_target),
      cmocka_unit_test(test_interrupt_warmup),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  remove(TMP);
  iospd_plat_shutdown();
  return rc;
}
