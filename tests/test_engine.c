/* SPDX-License-Identifier: MIT */
/* The real engine and controller (iospd_run) against the fake platform's
 * virtual clock: exact offset/op sequences, counts equal to what the fake
 * saw while measuring, scripted latencies, -g throttle, short submits, I/O
 * errors, Ctrl-C during warm-up, -c creation and the safety checks. */
#include "fake_plat.h"
#include "iospd/alloc.h"
#include "iospd/gen.h"
#include "iospd/hist.h"
#include "iospd/rand.h"
#include "iospd/report.h"
#include "iospd/run.h"
#include "run/run_internal.h"
#include "diskspd_fill_model.h"
#include "test_util.h"

/* These tests hold DISKSPD 2.2's layouts and rules: their profiles are at
 * --diskspd=2.2 (the default is 2.3; the 2.3 forms have their own tests). */
static void profile_init22(iospd_profile_t* p) {
  iospd_profile_init(p);
  p->ext.diskspd = IOSPD_DISKSPD_22;
}

#define KB 1024u
#define START 1000000000ull
#define MS 1000000ull

typedef struct {
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
  uint32_t dots;
  uint32_t interrupts;
  char said[2048];
} run_t;

static iospd_target_t* setup(run_t* r, const char* path, uint32_t warm,
                             uint32_t dur, uint32_t cool) {
  memset(r, 0, sizeof(*r));
  fake_reset();
  profile_init22(&r->p);
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = warm;
  ts->duration = dur;
  ts->cooldown = cool;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, path);
  t->block_size = 4 * KB;
  return t;
}

static void dot(void* ctx) { ((run_t*)ctx)->dots++; }
static void on_int(void* ctx) { ((run_t*)ctx)->interrupts++; }

static void message(void* ctx, iospd_msg_kind_t kind, const char* text) {
  run_t* r = ctx;
  size_t n = strlen(r->said);
  snprintf(r->said + n, sizeof(r->said) - n, "%s%s\n",
           iospd_msg_def(kind)->prefix, text);
}

static iospd_target_t* add_timespan(run_t* r, const char* path, uint32_t dur) {
  iospd_timespan_t* ts = iospd_profile_add_timespan(&r->p);
  ts->warmup = 0;
  ts->duration = dur;
  ts->cooldown = 0;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, path);
  t->block_size = 4 * KB;
  return t;
}

static void go(run_t* r) {
  iospd_run_hooks_t hooks;
  memset(&hooks, 0, sizeof(hooks));
  hooks.cooperative = true;
  hooks.progress_dot = dot;
  hooks.message = message;
  hooks.interrupted = on_int;
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

static const iospd_target_stats_t* st(run_t* r, uint32_t thread,
                                      uint32_t target) {
  return &r->res.timespans[0].threads[thread].targets[target].stats;
}

static void test_sequential_exact(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "s.dat", 0, 1, 0);
  t->request_count = 1;
  fake_add_file("s.dat", 64 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  /* One I/O per virtual millisecond for one second. */
  assert_int_equal(n, 1001);
  for (uint32_t i = 0; i < 40; i++) {
    assert_int_equal(log[i].queue, 0);
    assert_int_equal(log[i].op, IOSPD_OP_READ);
    assert_int_equal(log[i].offset, (i % 16) * 4 * KB);
    assert_int_equal(log[i].submit_ns, START + i * MS);
  }
  assert_int_equal(fake_queue_depth(0), 1);
  const iospd_timespan_result_t* tsr = &r.res.timespans[0];
  assert_int_equal((uint64_t)(tsr->seconds * 1e9 + 0.5), 1000000000ull);
  assert_int_equal(st(&r, 0, 0)->ios[0], 1000);
  assert_int_equal(st(&r, 0, 0)->bytes[0], 1000 * 4 * KB);
  assert_int_equal(st(&r, 0, 0)->ios[1], 0);
  assert_string_equal(r.res.engine_name, "fake");
  assert_int_equal(r.res.timespans[0].threads[0].targets[0].file_size, 64 * KB);
  /* The fake's CPUs are half idle, a quarter kernel, a quarter user. */
  assert_int_equal((int)(tsr->cpu[0].idle + 0.5), 50);
  assert_int_equal((int)(tsr->cpu[1].user + 0.5), 25);
  done(&r);
}

static void test_counts_and_latencies(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "c.dat", 1, 2, 1);
  t->request_count = 4;
  t->write_ratio = 40;
  t->random_ratio = 100;
  r.p.timespans[0].measure_latency = true;
  r.p.timespans[0].calc_iops_stddev = true;
  fake_add_file("c.dat", 1024 * KB, true);
  const uint64_t lat[] = {100000, 250000, 400000, 130000, 170000};
  fake_set_latencies(lat, 5);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  uint64_t ios[2] = {0, 0}, bytes[2] = {0, 0}, sum[2] = {0, 0};
  uint64_t mn[2] = {UINT64_MAX, UINT64_MAX}, mx[2] = {0, 0};
  uint32_t warm = 0, cool = 0;
  uint64_t bucketed = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (log[i].reaped_ns == 0) continue;
    if (!log[i].measured) {
      if (log[i].reaped_ns < START + 1500 * MS)
        warm++;
      else
        cool++;
      continue;
    }
    uint8_t op = log[i].op;
    uint64_t l = log[i].reaped_ns - log[i].submit_ns;
    /* What the engine saw is exactly what was scripted. */
    assert_int_equal(l, lat[i % 5]);
    ios[op]++;
    /* Completions at or past the end of the last interval are dropped
     * from the -D buckets (DISKSPD's -D buckets) but still counted. */
    bucketed += log[i].reaped_ns - (START + 1000 * MS) < 2000 * MS;
    bytes[op] += (uint64_t)log[i].result;
    sum[op] += l;
    if (l < mn[op]) mn[op] = l;
    if (l > mx[op]) mx[op] = l;
  }
  assert_true(warm > 1000);
  assert_true(cool > 1000);
  const iospd_target_stats_t* s = st(&r, 0, 0);
  for (int op = 0; op < 2; op++) {
    assert_true(ios[op] > 1000);
    assert_int_equal(s->ios[op], ios[op]);
    assert_int_equal(s->bytes[op], bytes[op]);
    assert_int_equal(iospd_hist_count(s->lat[op]), ios[op]);
    assert_int_equal(iospd_hist_min_ns(s->lat[op]), mn[op]);
    assert_int_equal(iospd_hist_max_ns(s->lat[op]), mx[op]);
    double mean = iospd_hist_mean_ns(s->lat[op]);
    assert_int_equal((uint64_t)(mean * (double)ios[op] + 0.5), sum[op]);
  }
  /* -D: two one-second buckets, together holding every measured I/O. */
  uint64_t in_buckets = 0;
  for (int op = 0; op < 2; op++)
    for (uint32_t b = 0; b < s->iops[op].used; b++)
      in_buckets += iospd_buckets_get(&s->iops[op], b)->count;
  assert_int_equal(s->iops[0].capacity, 2);
  assert_int_equal(in_buckets, bucketed);
  assert_true(bucketed + 10 > ios[0] + ios[1]);
  done(&r);
}

static void test_random_sequence_per_thread(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "r.dat", 0, 1, 0);
  t->request_count = 3;
  t->threads_per_file = 2;
  t->random_ratio = 100;
  t->write_ratio = 30;
  t->stride_align = 8 * KB;
  r.p.timespans[0].rand_seed = 7;
  fake_add_file("r.dat", 10 * 1024 * KB + 512, true);
  const uint64_t lat[] = {300000, 50000, 700000};
  fake_set_latencies(lat, 3);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  assert_int_equal(fake_queues_created(), 2);
  for (uint32_t k = 0; k < 2; k++) {
    /* Reference: thread seed = -z + thread number, same generator. */
    iospd_rand_t rng;
    iospd_rand_seed(&rng, 7 + k);
    iospd_gen_t g;
    assert_int_equal(
        iospd_gen_init(&g, t, k, 10 * 1024 * KB + 512, &rng, NULL, NULL), 0);
    uint32_t seen = 0, writes = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (log[i].queue != k) continue;
      uint8_t op;
      uint64_t off, c = 0;
      iospd_gen_next(&g, &c, &op, &off);
      assert_int_equal(log[i].offset, off);
      assert_int_equal(log[i].op, op);
      writes += op == IOSPD_OP_WRITE;
      seen++;
    }
    assert_true(seen > 1000);
    assert_in_range(writes * 100 / seen, 25, 35);
    iospd_gen_destroy(&g);
  }
  done(&r);
}

static void test_throttle(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "g.dat", 0, 1, 0);
  t->request_count = 8;
  t->throughput_bpms = 8 * KB; /* two 4 KiB I/Os per millisecond */
  fake_add_file("g.dat", 1024 * KB, true);
  const uint64_t lat[] = {10000};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  for (uint32_t i = 0; i < n; i++) {
    /* Issued bytes never run ahead of elapsed whole ms x rate. */
    uint64_t elapsed_ms = (log[i].submit_ns - START) / MS;
    assert_true((uint64_t)(i + 1) * 4 * KB <= elapsed_ms * 8 * KB);
  }
  uint64_t measured = st(&r, 0, 0)->ios[0];
  assert_in_range(measured, 1990, 2002);
  done(&r);
}

static void test_think_time(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "j.dat", 0, 1, 0);
  t->request_count = 2;
  t->burst_set = t->think_set = true;
  t->burst_size = 10;
  t->think_time = 5;
  fake_add_file("j.dat", 1024 * KB, true);
  const uint64_t lat[] = {1000};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  /* Bursts of 10 issued back to back, then at least 5 ms of silence. */
  for (uint32_t i = 10; i < n; i += 10) {
    assert_true(log[i].submit_ns - log[i - 1].submit_ns >= 5 * MS);
    assert_true(log[i - 1].submit_ns - log[i - 10].submit_ns < 1 * MS);
  }
  assert_in_range(n, 1800, 2010);
  done(&r);
}

static void test_short_submits(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "q.dat", 0, 1, 0);
  t->request_count = 4;
  fake_add_file("q.dat", 64 * KB, true);
  fake_short_submits(1, 3);
  const uint64_t lat[] = {200000};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  /* Refused and partly accepted batches are resubmitted in order. */
  assert_true(n > 1000);
  for (uint32_t i = 0; i < n; i++)
    assert_int_equal(log[i].offset, (i % 16) * 4 * KB);
  /* Nothing was issued during the three refused calls (one ms each). */
  assert_int_equal(log[0].submit_ns, START + 3 * MS);
  assert_true(fake_submit_calls() > n);
  uint64_t measured = 0;
  for (uint32_t i = 0; i < n; i++) measured += log[i].measured;
  assert_int_equal(st(&r, 0, 0)->ios[0], measured);
  done(&r);
}

static void test_io_error(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "e.dat", 0, 1, 0);
  t->request_count = 1;
  fake_add_file("e.dat", 64 * KB, true);
  fake_fail_io(10, IOSPD_EIO);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EIO);
  assert_string_equal(r.err.msg,
                      "read at offset 40960 of target 'e.dat' failed "
                      "(thread 0): input/output error");
  const iospd_target_stats_t* s = st(&r, 0, 0);
  assert_int_equal(s->first_error, IOSPD_EIO);
  assert_int_equal(s->first_error_offset, 40960);
  assert_int_equal(s->errors[0], 1);
  /* Results keep what was measured before the failure. */
  assert_int_equal(s->ios[0], 10);
  uint32_t n;
  (void)fake_log(&n);
  assert_int_equal(n, 11);
  assert_int_equal(r.res.timespan_count, 1);
  done(&r);

  /* The platform kept the raw OS code: the message gives it, with the
   * system's words, instead of the IOSPD_E* class ("no such file" was
   * what ERROR_NOT_READY read as). */
  t = setup(&r, "e.dat", 0, 1, 0);
  t->request_count = 1;
  fake_add_file("e.dat", 64 * KB, true);
  fake_fail_io(3, IOSPD_EIO);
  fake_set_os_error(21, "The device is not ready (error 21)");
  go(&r);
  assert_int_equal(r.rc, IOSPD_EIO);
  assert_string_equal(r.err.msg,
                      "read at offset 12288 of target 'e.dat' failed "
                      "(thread 0): The device is not ready (error 21)");
  done(&r);
}

/* A completion that moves 0 bytes although the target is as large as at
 * the start: a run failure naming the target and offset, never an I/O. */
static void test_zero_byte_completion(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "z.dat", 0, 1, 0);
  t->request_count = 1;
  fake_add_file("z.dat", 64 * KB, true);
  fake_fail_io(10, 0);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EIO);
  const char* want =
      "read at offset 40960 of target 'z.dat' moved 0 of 4096 bytes "
      "(thread 0), short of the target's end (now 65536 bytes, 65536 at the "
      "start): the device or file system returned a partial transfer";
  assert_string_equal(r.err.msg, want);
  const iospd_timespan_result_t* tsr = &r.res.timespans[0];
  /* The report names it, and shows the 10 I/Os measured before it. */
  assert_string_equal(tsr->error, want);
  assert_false(tsr->interrupted_before_measure);
  assert_true(tsr->seconds > 0);
  const iospd_target_stats_t* s = st(&r, 0, 0);
  assert_int_equal(s->ios[0], 10);
  assert_int_equal(s->bytes[0], 10 * 4 * KB);
  assert_int_equal(s->errors[0], 1);
  assert_int_equal(s->first_error, IOSPD_EIO);
  assert_int_equal(s->first_error_offset, 40960);
  uint32_t n;
  (void)fake_log(&n);
  assert_int_equal(n, 11);
  assert_null(strstr(r.said, "fewer bytes"));
  done(&r);

  /* A partial transfer short of the end fails the same way (no retry). */
  t = setup(&r, "p.dat", 0, 1, 0);
  t->request_count = 1;
  fake_add_file("p.dat", 64 * KB, true);
  fake_fail_io(3, 1000);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EIO);
  assert_string_equal(
      r.err.msg,
      "read at offset 12288 of target 'p.dat' moved 1000 of 4096 bytes "
      "(thread 0), short of the target's end (now 65536 bytes, 65536 at the "
      "start): the device or file system returned a partial transfer");
  assert_int_equal(st(&r, 0, 0)->ios[0], 3);
  assert_int_equal(st(&r, 0, 0)->bytes[0], 3 * 4 * KB);
  done(&r);
}

/* Another process truncates the target 500 ms into a 2 s run: every later
 * read moves 0 bytes. The run fails at the first one, names the truncation,
 * and counts only the I/Os before it (IOPS not inflated), at -o4. */
static void test_truncated_target(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "t.dat", 0, 2, 0);
  t->request_count = 4;
  t->random_ratio = 100;
  fake_add_file("t.dat", 1024 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  fake_truncate_at("t.dat", 0, START + 500 * MS);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EIO);
  assert_non_null(strstr(r.err.msg, "of target 't.dat' moved 0 of 4096 "
                                    "bytes (thread 0): the target now ends "
                                    "before that I/O's end (now 0 bytes, "
                                    "1048576 at the start); was it "
                                    "truncated during the run?"));
  assert_string_equal(r.res.timespans[0].error, r.err.msg);
  /* Counted: exactly the full reads the fake completed while measuring. */
  uint32_t n, full = 0, empty = 0;
  const fake_io_t* log = fake_log(&n);
  for (uint32_t i = 0; i < n; i++) {
    if (log[i].reaped_ns == 0) continue;
    if (log[i].result == 4096 && log[i].measured) full++;
    if (log[i].result == 0) empty++;
  }
  const iospd_target_stats_t* s = st(&r, 0, 0);
  assert_int_equal(s->ios[0], full);
  assert_int_equal(s->bytes[0], (uint64_t)full * 4 * KB);
  /* 4 in flight, 1 ms each, for 500 ms. */
  assert_in_range(full, 1990, 2004);
  /* The run stopped at once: at most one batch of empty reads. */
  assert_in_range(empty, 1, 4);
  assert_true(r.res.timespans[0].seconds < 0.6);
  done(&r);
}

static void test_drain_timeout(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "h.dat", 0, 1, 0);
  t->request_count = 1;
  fake_add_file("h.dat", 64 * KB, true);
  /* The 100th I/O never completes (a hung device). */
  static uint64_t lat[200];
  for (int i = 0; i < 200; i++) lat[i] = 1 * MS;
  lat[99] = 100000ull * 1000 * MS;
  fake_set_latencies(lat, 200);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(st(&r, 0, 0)->ios[0], 99);
  /* Measured 1 s, then gave up on the drain after 10 s, and said so. */
  assert_in_range(fake_now(), START + 11000 * MS, START + 12300 * MS);
  assert_non_null(strstr(r.said,
                         "WARNING: thread 0: 1 I/O was still in flight 10 s "
                         "after the run stopped (a hung or paused device?) "
                         "and cancelled\n"));
  done(&r);
}

static void test_interrupt_in_warmup(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "i.dat", 5, 5, 5);
  t->request_count = 2;
  fake_add_file("i.dat", 64 * KB, true);
  fake_interrupt_at(START + 2000 * MS);
  go(&r);
  assert_int_equal(r.rc, 0);
  const iospd_timespan_result_t* tsr = &r.res.timespans[0];
  assert_true(tsr->interrupted_before_measure);
  assert_int_equal(r.interrupts, 1);
  assert_int_equal((int)tsr->seconds, 0);
  assert_int_equal(st(&r, 0, 0)->ios[0], 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  assert_true(n > 1000);
  for (uint32_t i = 0; i < n; i++) assert_false(log[i].measured);
  /* Stopped at the interruption, not after 15 s. */
  assert_true(fake_now() < START + 2200 * MS);
  done(&r);
}

static void test_interrupt_in_measure(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "m.dat", 1, 10, 5);
  t->request_count = 1;
  fake_add_file("m.dat", 64 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  fake_interrupt_at(START + 3500 * MS);
  go(&r);
  assert_int_equal(r.rc, 0);
  const iospd_timespan_result_t* tsr = &r.res.timespans[0];
  assert_false(tsr->interrupted_before_measure);
  /* Measured from 1 s to the interruption at 3.5 s; no cool-down. */
  assert_int_equal((uint64_t)(tsr->seconds * 1000 + 0.5), 2500);
  assert_in_range(st(&r, 0, 0)->ios[0], 2499, 2501);
  assert_true(fake_now() < START + 3600 * MS);
  done(&r);
}

static void test_create_and_missing(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "nope.dat", 0, 1, 0);
  go(&r);
  assert_int_equal(r.rc, IOSPD_ENOENT);
  assert_string_equal(r.err.msg,
                      "target 'nope.dat' does not exist; create it with "
                      "-c<size>");
  assert_int_equal(fake_file_creates("nope.dat"), 0);
  done(&r);

  /* -c0: -c was given, but a size of 0 creates nothing. */
  t = setup(&r, "nope.dat", 0, 1, 0);
  t->create = true;
  go(&r);
  assert_int_equal(r.rc, IOSPD_ENOENT);
  assert_string_equal(r.err.msg,
                      "target 'nope.dat' does not exist and -c0 creates "
                      "nothing; give -c a size (for example -c64M) to "
                      "create it");
  assert_int_equal(fake_file_creates("nope.dat"), 0);
  done(&r);

  t = setup(&r, "new.dat", 0, 1, 0);
  t->create = true;
  t->file_size = 3 * 1024 * KB;
  go(&r);
  assert_int_equal(r.rc, 0);
  uint64_t size = 0;
  assert_non_null(fake_file_data("new.dat", &size));
  assert_int_equal(size, 3 * 1024 * KB);
  assert_int_equal(fake_file_creates("new.dat"), 1);
  done(&r);

  /* Without -c an existing file is never recreated. */
  setup(&r, "old.dat", 0, 1, 0);
  fake_add_file("old.dat", 64 * KB, true);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(fake_file_creates("old.dat"), 0);
  done(&r);
}

static void test_too_small(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "tiny.dat", 0, 1, 0);
  t->threads_per_file = 4;
  t->thread_stride = 8 * KB;
  fake_add_file("tiny.dat", 28 * KB - 1, true);
  go(&r);
  assert_int_equal(r.rc, IOSPD_ETOOSMALL);
  assert_string_equal(r.err.msg,
                      "target 'tiny.dat' is too small for thread 3: its "
                      "usable range (from offset 0 (-B) to 28671 "
                      "bytes, the end of the target) must hold at least one "
                      "block of 4KiB (-b) after the thread's offset 24KiB "
                      "(thread 3 x stride -T 8KiB); use a bigger file (-c), "
                      "a smaller -b or -T, or a larger -f");
  done(&r);
}

static void test_raw_write_safety(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "/dev/fake", 0, 1, 0);
  t->write_ratio = 50;
  fake_add_file("/dev/fake", 1024 * KB, false);
  fake_set_device("/dev/fake", true, false, "a GPT partition table");
  go(&r);
  assert_int_equal(r.rc, IOSPD_EUNSAFE);
  assert_string_equal(r.err.msg,
                      "refusing to write to '/dev/fake': it holds a GPT "
                      "partition table, which writing (-w50) would destroy; "
                      "pass --allow-raw-write to write to it anyway");
  uint32_t n;
  (void)fake_log(&n);
  assert_int_equal(n, 0);
  done(&r);

  t = setup(&r, "/dev/fake", 0, 1, 0);
  t->write_ratio = 50;
  r.p.ext.allow_raw_write = true;
  fake_add_file("/dev/fake", 1024 * KB, false);
  fake_set_device("/dev/fake", true, true, "ext4");
  go(&r);
  assert_int_equal(r.rc, 0);
  done(&r);

  /* Reading needs no permission; -c on a device is refused. */
  t = setup(&r, "/dev/fake", 0, 1, 0);
  fake_add_file("/dev/fake", 1024 * KB, false);
  fake_set_device("/dev/fake", false, true, "ext4");
  go(&r);
  assert_int_equal(r.rc, 0);
  done(&r);
  t = setup(&r, "/dev/fake", 0, 1, 0);
  t->create = true;
  t->file_size = 4096;
  fake_add_file("/dev/fake", 1024 * KB, false);
  fake_set_device("/dev/fake", false, false, "");
  go(&r);
  assert_int_equal(r.rc, IOSPD_EUNSAFE);
  assert_int_equal(fake_file_creates("/dev/fake"), 0);
  done(&r);
}

/* Unbuffered targets reissue completions two at a time (two I/Os per
 * submit); buffered ones take the whole batch. Eight I/Os of 1 ms each
 * complete together every virtual millisecond. */
static void test_reap_batch_by_buffering(void** state) {
  (void)state;
  for (int unbuffered = 1; unbuffered >= 0; unbuffered--) {
    run_t r;
    iospd_target_t* t = setup(&r, "b.dat", 0, 1, 0);
    t->request_count = 8;
    if (unbuffered) t->cache_mode = IOSPD_CACHE_DISABLE_OS;
    fake_add_file("b.dat", 1024 * KB, true);
    const uint64_t lat[] = {1 * MS};
    fake_set_latencies(lat, 1);
    go(&r);
    assert_int_equal(r.rc, 0);
    uint32_t n;
    const fake_io_t* log = fake_log(&n);
    /* The same stream either way: 8 at start, then 8 per millisecond
     * (the last millisecond's are cut where the run stops). */
    assert_in_range(n, 8 + 8 * 999, 8 + 8 * 1000);
    assert_in_range(st(&r, 0, 0)->ios[0], 8 * 999, 8 * 1000);
    for (uint32_t i = 0; i < 64; i++)
      assert_int_equal(log[i].submit_ns, START + (i / 8) * MS);
    /* One submit for the first eight; after that one per two I/Os when
     * unbuffered, one per batch of eight when buffered. */
    if (unbuffered) {
      /* The fake answers Linux's traits: batches of 2 when unbuffered. */
      assert_int_equal((n - 8) % 2, 0);
      assert_int_equal(fake_submit_calls(), 1 + (n - 8) / 2);
    } else {
      assert_int_equal((n - 8) % 8, 0);
      assert_int_equal(fake_submit_calls(), 1 + (n - 8) / 8);
    }
    done(&r);
  }
}

static void test_unbuffered_alignment(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "a.dat", 0, 1, 0);
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->block_size = 512;
  fake_add_file("a.dat", 1024 * KB, true);
  fake_set_sector("a.dat", 4096);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EALIGN);
  assert_string_equal(r.err.msg,
                      "target 'a.dat': the block size (-b) of 512 bytes is "
                      "not a multiple of the logical sector size (4096 "
                      "bytes), which unbuffered I/O (-Su/-Sh) requires; use "
                      "a multiple of 4096 or drop -Su/-Sh");
  done(&r);

  t = setup(&r, "a.dat", 0, 1, 0);
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->base_offset = 1000;
  fake_add_file("a.dat", 1024 * KB, true);
  fake_set_sector("a.dat", 512);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EALIGN);
  assert_non_null(strstr(r.err.msg, "base offset (-B) of 1000 bytes"));
  done(&r);

  /* -Z<size> windows need a buffer alignment beyond the source's own
   * (4 KiB): refused, naming both. */
  t = setup(&r, "a.dat", 0, 1, 0);
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->write_ratio = 10;
  t->pattern = IOSPD_PATTERN_ZERO; /* -Z together with -Z<size> */
  t->random_data_size = 64 * KB;
  fake_add_file("a.dat", 1024 * KB, true);
  fake_set_sector("a.dat", 4096);
  fake_set_buffer_align("a.dat", 8192);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EALIGN);
  assert_string_equal(r.err.msg,
                      "target 'a.dat': unbuffered I/O (-Su/-Sh) on this "
                      "target needs buffers aligned to 8192 bytes, which "
                      "-Z<size> write windows cannot be (at most 4096); "
                      "drop -Z<size> or -Su/-Sh");
  done(&r);

  /* -rdabs3000/1000:97/1M: the second range starts at 1000 bytes, off a
   * 512-byte sector; its first offset would fail at run time. */
  t = setup(&r, "a.dat", 0, 1, 0);
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->random_ratio = 100;
  t->dist_type = IOSPD_DIST_ABSOLUTE;
  t->dist = iospd_calloc(2, sizeof *t->dist);
  assert_non_null(t->dist);
  t->dist_count = 2;
  t->dist[0] = (iospd_dist_range_t){0, 3, 0, 1000};
  t->dist[1] = (iospd_dist_range_t){3, 97, 1000, 1024 * KB};
  fake_add_file("a.dat", 1024 * KB, true);
  fake_set_sector("a.dat", 512);
  go(&r);
  assert_int_equal(r.rc, IOSPD_EALIGN);
  assert_string_equal(r.err.msg,
                      "target 'a.dat': -rdabs range 2 starts at 1000 bytes, "
                      "which is not a multiple of the logical sector size "
                      "(512 bytes) that unbuffered I/O (-Su/-Sh) requires; "
                      "make every range length a multiple of 512 or drop "
                      "-Su/-Sh");
  done(&r);

  /* Aligned: runs, and the handle was opened unbuffered. */
  t = setup(&r, "a.dat", 0, 1, 0);
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->write_through = true;
  fake_add_file("a.dat", 1024 * KB, true);
  fake_set_sector("a.dat", 4096);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(fake_file_open_flags("a.dat"),
                   IOSPD_OPEN_READ | IOSPD_OPEN_NO_BUFFERING |
                       IOSPD_OPEN_WRITE_THROUGH | IOSPD_OPEN_ASYNC);
  done(&r);
}

/* Runs -Z64K -w100 -Su on a 4Kn target whose device asks for buffer
 * alignment `align` (0: does not say) and returns the largest power of two
 * that every write buffer's offset in the 4 KiB-aligned source divides. */
static uintptr_t zwindow_steps(uint32_t align, uint32_t* writes) {
  run_t r;
  iospd_target_t* t = setup(&r, "z.dat", 0, 1, 0);
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  t->write_ratio = 100;
  t->random_ratio = 100;
  t->random_data_size = 64 * KB;
  fake_add_file("z.dat", 1024 * KB, true);
  fake_set_sector("z.dat", 4096);
  fake_set_buffer_align("z.dat", align);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n = 0;
  const fake_io_t* log = fake_log(&n);
  uintptr_t all = 0;
  *writes = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (log[i].op != IOSPD_OP_WRITE) continue;
    (*writes)++;
    all |= (uintptr_t)log[i].buf & (IOSPD_RND_SRC_ALIGN - 1);
  }
  done(&r);
  uintptr_t step = IOSPD_RND_SRC_ALIGN;
  while (step > 1 && (all & (step - 1)) != 0) step >>= 1;
  return step;
}

/* 4Kn disks: Windows checks buffer addresses against the device's
 * alignment requirement, not the logical sector, so -Z windows follow the
 * former (512-byte steps as in DISKSPD when it allows them) and are no
 * longer refused; a device that does not say gets 4 KiB windows. */
static void test_zwindows_4kn(void** state) {
  (void)state;
  uint32_t writes = 0;
  /* Over 1000 random windows in 64 KiB: some start off 1 KiB boundaries. */
  assert_int_equal(zwindow_steps(512, &writes), 512);
  assert_true(writes > 1000);
  assert_int_equal(zwindow_steps(4, &writes), 512);
  assert_int_equal(zwindow_steps(0, &writes), 4096);
  assert_true(writes > 1000);
}

static void test_refusals(void** state) {
  (void)state;
  run_t r;
  setup(&r, "x.dat", 0, 1, 0);
  fake_add_file("x.dat", 64 * KB, true);
  r.p.etw.enabled = true;
  go(&r);
  assert_int_equal(r.rc, IOSPD_ENOTSUP);
  assert_non_null(strstr(r.err.msg, "ETW tracing (-e) is not implemented"));
  done(&r);

  setup(&r, "x.dat", 0, 1, 0);
  fake_add_file("x.dat", 64 * KB, true);
  iospd_timespan_t* ts = &r.p.timespans[0];
  ts->affinity = iospd_calloc(2, sizeof(*ts->affinity));
  ts->affinity_count = 2;
  ts->affinity[0].cpu = 1;
  ts->affinity[1].cpu = 5;
  go(&r);
  assert_int_equal(r.rc, IOSPD_EINVAL);
  assert_string_equal(r.err.msg,
                      "affinity (-a): CPU 5 of group 0 does not exist: the "
                      "group has 2 CPUs (0-1)");
  done(&r);
}

static void test_write_pattern(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "w.dat", 0, 1, 0);
  t->write_ratio = 100;
  t->request_count = 3;
  fake_add_file("w.dat", 64 * KB, false);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint64_t size;
  const uint8_t* d = fake_file_data("w.dat", &size);
  for (uint64_t i = 0; i < size; i++) assert_int_equal(d[i], i & 0xff);
  assert_int_equal(st(&r, 0, 0)->ios[0], 0);
  assert_true(st(&r, 0, 0)->ios[1] > 100);
  assert_int_equal(fake_file_open_flags("w.dat"),
                   IOSPD_OPEN_WRITE | IOSPD_OPEN_ASYNC);
  done(&r);

  /* -Z: zeros go to the file. */
  t = setup(&r, "z.dat", 0, 1, 0);
  t->write_ratio = 100;
  t->pattern = IOSPD_PATTERN_ZERO;
  fake_add_file("z.dat", 64 * KB, true);
  go(&r);
  d = fake_file_data("z.dat", &size);
  for (uint64_t i = 0; i < size; i++) assert_int_equal(d[i], 0);
  done(&r);
}

/* -Z<size>: every write takes a random window of one source filled from
 * a generator seeded with 0; the window draw follows the offset/type. */
static void test_random_source_windows(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "zs.dat", 0, 1, 0);
  t->write_ratio = 100;
  t->request_count = 1;
  t->pattern = IOSPD_PATTERN_RANDOM;
  t->random_data_size = 3 * 4 * KB + 100;
  r.p.timespans[0].rand_seed = 3;
  fake_add_file("zs.dat", 16 * 4 * KB, false);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  static _Alignas(8) uint8_t src[3 * 4 * KB + 100];
  iospd_rand_t seed0, w;
  iospd_rand_seed(&seed0, 0);
  iospd_rand_fill(&seed0, src, sizeof(src), false);
  iospd_rand_seed(&w, 3); /* thread 0: seed + 0 */
  uint32_t n;
  (void)fake_log(&n);
  uint64_t size;
  const uint8_t* d = fake_file_data("zs.dat", &size);
  uint32_t span = (uint32_t)sizeof(src) - 4 * KB + 1;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t off = iospd_rand32(&w) % span;
    /* Only the last pass over the file is still visible. */
    if (j + 16 < n) continue;
    assert_memory_equal(d + (j % 16) * 4 * KB, src + off, 4 * KB);
  }
  done(&r);
}

/* -Zr: each write buffer is refilled from the thread's generator first. */
static void test_refill_per_write(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "zr.dat", 0, 1, 0);
  t->write_ratio = 100;
  t->request_count = 1;
  r.p.timespans[0].random_write_data = true;
  fake_add_file("zr.dat", 8 * 4 * KB, false);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  iospd_rand_t w;
  iospd_rand_seed(&w, 0);
  static _Alignas(8) uint8_t block[4 * KB];
  uint32_t n;
  (void)fake_log(&n);
  uint64_t size;
  const uint8_t* d = fake_file_data("zr.dat", &size);
  for (uint32_t j = 0; j < n; j++) {
    iospd_rand_fill(&w, block, sizeof(block), true);
    if (j + 8 < n) continue;
    assert_memory_equal(d + (j % 8) * 4 * KB, block, sizeof(block));
  }
  done(&r);
}

/* -Zr with a block size that is not a multiple of 8 (issue #10): write
 * slot i sits at 3 x 13 + 13 i past a page-aligned start, so the three slots
 * meet the heads 7, 4 and 1 of DISKSPD's fill. Every offset and the final
 * file content must be those of the model of DISKSPD for seed 5: offset
 * draw, then the refill of the slot that carries the write. */
static void test_refill_odd_block_matches_diskspd(void** state) {
  (void)state;
  enum { BS = 13, SLOTS = 3, FILE_SIZE = 1000 * BS + 7 };
  run_t r;
  iospd_target_t* t = setup(&r, "zr13.dat", 0, 1, 0);
  t->block_size = BS;
  t->write_ratio = 100;
  t->random_ratio = 100;
  t->request_count = SLOTS;
  r.p.timespans[0].random_write_data = true;
  r.p.timespans[0].rand_seed = 5;
  fake_add_file("zr13.dat", FILE_SIZE, false);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  assert_true(n > 1000);
  static uint8_t image[FILE_SIZE];
  memset(image, 0, sizeof image);
  dsm_rng_t m;
  dsm_seed(&m, 5); /* thread 0: -z5 + 0 */
  for (uint32_t i = 0; i < n; i++) {
    assert_int_equal(log[i].op, IOSPD_OP_WRITE);
    assert_int_equal(log[i].offset, dsm_random_offset(&m, FILE_SIZE, BS, BS));
    unsigned head = (unsigned)((SLOTS * BS + log[i].tag * BS) % 8);
    dsm_fill(&m, image + log[i].offset, BS, head, true);
  }
  uint64_t size;
  const uint8_t* d = fake_file_data("zr13.dat", &size);
  assert_int_equal(size, FILE_SIZE);
  assert_memory_equal(d, image, FILE_SIZE);
  done(&r);
}

static void test_pool_shared_slots(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "p1.dat", 0, 1, 0);
  iospd_timespan_t* ts = &r.p.timespans[0];
  ts->thread_count = 2;
  ts->request_count = 5;
  t->random_ratio = 100;
  iospd_target_t* t2 = iospd_timespan_add_target(ts);
  iospd_target_set_path(t2, "p2.dat");
  t2->block_size = 8 * KB;
  t2->random_ratio = 100;
  t2->weight = 3;
  ts->targets[0].weight = 1;
  fake_add_file("p1.dat", 1024 * KB, true);
  fake_add_file("p2.dat", 1024 * KB, true);
  const uint64_t lat[] = {100000};
  fake_set_latencies(lat, 1);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(fake_queues_created(), 2);
  assert_int_equal(fake_queue_depth(0), 5);
  assert_int_equal(fake_queue_depth(1), 5);
  uint32_t n;
  const fake_io_t* log = fake_log(&n);
  uint32_t per[2] = {0, 0};
  for (uint32_t i = 0; i < n; i++) {
    uint32_t f = log[i].file;
    per[f]++;
    assert_int_equal(log[i].length, f == 0 ? 4 * KB : 8 * KB);
  }
  /* Weights 1:3. */
  assert_in_range(per[1] * 100 / n, 72, 78);
  assert_int_equal(r.res.timespans[0].threads[1].target_count, 2);
  assert_true(st(&r, 1, 1)->ios[0] > 0);
  done(&r);
}

static void test_progress_and_timespans(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "d.dat", 0, 1, 0);
  t->request_count = 1;
  r.p.progress_dots = 100;
  fake_add_file("d.dat", 64 * KB, true);
  const uint64_t lat[] = {1 * MS};
  fake_set_latencies(lat, 1);
  iospd_timespan_t* ts2 = iospd_profile_add_timespan(&r.p);
  ts2->warmup = 0;
  ts2->duration = 2;
  ts2->cooldown = 0;
  iospd_target_t* t2 = iospd_timespan_add_target(ts2);
  iospd_target_set_path(t2, "d.dat");
  t2->block_size = 4 * KB;
  t2->request_count = 1;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.res.timespan_count, 2);
  assert_int_equal(st(&r, 0, 0)->ios[0], 1000);
  assert_int_equal(r.res.timespans[1].threads[0].targets[0].stats.ios[0], 2000);
  assert_int_equal(r.dots, 30);
  done(&r);
}

static void test_failed_and_unrun_timespans(void** state) {
  (void)state;
  run_t r;
  setup(&r, "ok.dat", 0, 1, 0);
  fake_add_file("ok.dat", 64 * KB, true);
  add_timespan(&r, "missing.dat", 1);
  add_timespan(&r, "ok.dat", 1);
  go(&r);
  assert_int_equal(r.rc, IOSPD_ENOENT);
  /* The whole document is still there: the first timespan measured, the
   * failed and the unrun ones read as interrupted. */
  assert_int_equal(r.res.timespan_count, 3);
  assert_false(r.res.timespans[0].interrupted_before_measure);
  assert_true(st(&r, 0, 0)->ios[0] > 0);
  assert_true(r.res.timespans[1].interrupted_before_measure);
  assert_true(r.res.timespans[2].interrupted_before_measure);
  assert_ptr_equal(r.res.timespans[2].ts, &r.p.timespans[2]);
  assert_int_equal(r.res.timespans[2].thread_count, 0);
  done(&r);

  /* Ctrl-C in the first timespan: the second is not started, so its -c
   * file is never created. */
  setup(&r, "ok.dat", 0, 2, 0);
  fake_add_file("ok.dat", 64 * KB, true);
  iospd_target_t* t = add_timespan(&r, "later.dat", 1);
  t->create = true;
  t->file_size = 64 * KB;
  fake_interrupt_at(START + 1000 * MS);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.res.timespan_count, 2);
  assert_true(r.res.timespans[1].interrupted_before_measure);
  assert_int_equal(fake_file_creates("later.dat"), 0);
  done(&r);
}

static void test_precreate(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "pc.dat", 0, 1, 0);
  t->create = true;
  t->file_size = 64 * KB;
  t = add_timespan(&r, "pc.dat", 1);
  t->create = true;
  t->file_size = 128 * KB;
  r.p.precreate = IOSPD_PRECREATE_USE_MAX_SIZE;
  go(&r);
  assert_int_equal(r.rc, 0);
  uint64_t size = 0;
  fake_file_data("pc.dat", &size);
  assert_int_equal(size, 128 * KB);
  assert_int_equal(fake_file_creates("pc.dat"), 1);
  done(&r);

  /* Sizes differ: CreateOnlyFilesWithConstantSizes leaves it to each
   * timespan's -c, which recreates it every time. */
  t = setup(&r, "pc.dat", 0, 1, 0);
  t->create = true;
  t->file_size = 64 * KB;
  t = add_timespan(&r, "pc.dat", 1);
  t->create = true;
  t->file_size = 128 * KB;
  r.p.precreate = IOSPD_PRECREATE_CONSTANT_SIZES;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(fake_file_creates("pc.dat"), 2);
  done(&r);

  /* Constant-or-zero: one -c size and one target without -c. */
  t = setup(&r, "pc.dat", 0, 1, 0);
  t->create = true;
  t->file_size = 64 * KB;
  add_timespan(&r, "pc.dat", 1);
  r.p.precreate = IOSPD_PRECREATE_CONSTANT_OR_ZERO_SIZES;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(fake_file_creates("pc.dat"), 1);
  done(&r);
}

/* Issue #12: every thread's engine and the depth it really kept reach the
 * results; a queue that keeps fewer I/Os in flight than -o asks is said
 * before the run (message hook: stderr) and in the text report before the
 * results, and the XML names both per thread. A full-depth run says
 * nothing. */
static void test_depth_shortfall_is_reported(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "d.dat", 0, 1, 0);
  t->request_count = 8;
  t->threads_per_file = 2;
  fake_add_file("d.dat", 64 * KB, true);
  go(&r);
  assert_int_equal(r.rc, 0);
  const iospd_thread_result_t* th = r.res.timespans[0].threads;
  for (int i = 0; i < 2; i++) {
    assert_string_equal(th[i].engine, "fake");
    assert_int_equal(th[i].depth_asked, 8);
    assert_int_equal(th[i].depth_kept, 8);
  }
  assert_null(strstr(r.said, "WARNING"));
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_text(&sb, &r.res);
  assert_non_null(
      strstr(sb.data, "\t\tusing fake, 8 I/Os in flight per thread\n"));
  assert_non_null(
      strstr(sb.data, "\nI/O engine:\t\tfake, 8 I/Os in flight per thread\n"));
  assert_null(strstr(sb.data, "WARNING"));
  iospd_strbuf_destroy(&sb);
  done(&r);

  t = setup(&r, "d.dat", 0, 1, 0);
  t->request_count = 8;
  t->threads_per_file = 2;
  fake_add_file("d.dat", 64 * KB, true);
  fake_set_kept_depth(3);
  go(&r);
  assert_int_equal(r.rc, 0);
  th = r.res.timespans[0].threads;
  assert_int_equal(th[1].depth_asked, 8);
  assert_int_equal(th[1].depth_kept, 3);
  assert_string_equal(r.said,
                      "WARNING: thread 0: the fake engine keeps 3 I/Os in "
                      "flight, not the 8 asked for\n"
                      "WARNING: thread 1: the fake engine keeps 3 I/Os in "
                      "flight, not the 8 asked for\n");
  iospd_strbuf_init(&sb);
  iospd_report_text(&sb, &r.res);
  assert_non_null(strstr(
      sb.data, "\t\tusing fake, 3 I/Os in flight per thread\n"
               "\t\tWARNING: the fake engine keeps 3 I/Os in flight, not "
               "the 8 asked for\n"));
  const char* warn = strstr(sb.data,
                            "\nWARNING: thread 1: the fake engine kept 3 I/Os "
                            "in flight, not the 8 asked for\n");
  assert_non_null(warn);
  const char* results = strstr(sb.data, "Total IO\n");
  assert_non_null(results);
  assert_true(warn < results);
  iospd_strbuf_destroy(&sb);
  iospd_strbuf_init(&sb);
  iospd_report_xml(&sb, &r.res);
  assert_non_null(strstr(sb.data,
                         "<Id>1</Id>\n      <IoEngine>fake</IoEngine>\n"
                         "      <IoEngineDepth>3</IoEngineDepth>\n"));
  iospd_strbuf_destroy(&sb);
  done(&r);
}

static void test_verbose_messages(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "v.dat", 1, 1, 1);
  t->create = true;
  t->file_size = 64 * KB;
  r.p.verbose = true;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.said,
                      "Creating file 'v.dat' of size 65536.\n"
                      "NOTE: creating 'v.dat': 100 % written\n"
                      "starting warm up...\n"
                      "starting measurements...\n"
                      "measurements finished\n"
                      "starting cool down...\n");
  done(&r);
}

/* -c progress: a line at each new tenth written. The fake reports every
 * 4 MiB, as the Linux platform does: 10 MiB gives 40, 80 and 100 %. Small
 * files without -v get no NOTE and no progress. */
static void test_create_progress(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "p.dat", 0, 1, 0);
  t->create = true;
  t->file_size = 10 * KB * KB;
  r.p.verbose = true;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_non_null(strstr(r.said,
                         "Creating file 'p.dat' of size 10485760.\n"
                         "NOTE: creating 'p.dat': 40 % written\n"
                         "NOTE: creating 'p.dat': 80 % written\n"
                         "NOTE: creating 'p.dat': 100 % written\n"
                         "starting warm up...\n"));
  done(&r);

  t = setup(&r, "p.dat", 0, 1, 0);
  t->create = true;
  t->file_size = 10 * KB * KB;
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_null(strstr(r.said, "NOTE"));
  done(&r);

  /* A warning the platform meets while creating (Windows: DISKSPD's
   * privilege, folder and valid-data fallbacks) reaches the message hook
   * as it is, also when no progress is noted. */
  t = setup(&r, "p.dat", 0, 1, 0);
  t->create = true;
  t->file_size = 64 * KB;
  fake_set_create_warning(IOSPD_MSG_DISKSPD_WARNING,
                          "Could not create intermediate directory "
                          "(error code: 5)");
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.said,
                      "WARNING: Could not create intermediate directory "
                      "(error code: 5)\n");
  done(&r);

  /* The platform's NOTE on how the file was made (Windows: with
   * SetFileValidData, nothing written) comes beside the creation note
   * only: with -v or a large file, not for a small -c, whose output stays
   * DISKSPD's. */
  static const char svd[] =
      "'p.dat' was created with SetFileValidData: its 65536 bytes "
      "were not written";
  for (int verbose = 0; verbose < 2; verbose++) {
    t = setup(&r, "p.dat", 0, 1, 0);
    t->create = true;
    t->file_size = 64 * KB;
    r.p.verbose = verbose != 0;
    fake_set_create_warning(IOSPD_MSG_NOTE, svd);
    go(&r);
    assert_int_equal(r.rc, 0);
    if (verbose)
      assert_non_null(strstr(r.said,
                             "Creating file 'p.dat' of size 65536.\n"
                             "NOTE: 'p.dat' was created with "
                             "SetFileValidData: its 65536 bytes were not "
                             "written\n"));
    else
      assert_null(strstr(r.said, "NOTE"));
    done(&r);
  }
}

static void test_affinity_layout(void** state) {
  (void)state;
  iospd_cpu_info_t cpus[4];
  memset(cpus, 0, sizeof(cpus));
  for (uint16_t i = 0; i < 4; i++) {
    cpus[i].number = i;
    cpus[i].active = i != 1; /* CPU 1 is offline */
  }
  iospd_group_info_t group = {4, 3, 0xd};
  iospd_cpu_topology_t topo;
  memset(&topo, 0, sizeof(topo));
  topo.cpu_count = 4;
  topo.group_count = 1;
  topo.cpus = cpus;
  topo.groups = &group;
  iospd_timespan_t ts;
  iospd_timespan_init(&ts);
  /* Default: round robin over active CPUs. */
  const uint32_t want[] = {0, 2, 3, 0, 2};
  for (uint32_t i = 0; i < 5; i++) {
    iospd_thread_opts_t o = iospd_run_affinity(&ts, &topo, i);
    assert_true(o.pin);
    assert_int_equal(o.group, 0);
    assert_int_equal(o.cpu, want[i]);
  }
  /* -a3,2: thread i takes entry i mod 2. */
  iospd_affinity_t list[2] = {{0, 3}, {0, 2}};
  ts.affinity = list;
  ts.affinity_count = 2;
  assert_int_equal(iospd_run_affinity(&ts, &topo, 0).cpu, 3);
  assert_int_equal(iospd_run_affinity(&ts, &topo, 1).cpu, 2);
  assert_int_equal(iospd_run_affinity(&ts, &topo, 2).cpu, 3);
  iospd_err_t err;
  assert_int_equal(iospd_run_check_affinity(&ts, &topo, &err), 0);
  list[1].cpu = 1;
  assert_int_equal(iospd_run_check_affinity(&ts, &topo, &err), IOSPD_EINVAL);
  assert_string_equal(err.msg,
                      "affinity (-a): CPU 1 of group 0 is not active "
                      "(offline or outside this process's CPU set)");
  list[1].group = 1;
  assert_int_equal(iospd_run_check_affinity(&ts, &topo, &err), IOSPD_EINVAL);
  assert_string_equal(err.msg,
                      "affinity (-a): CPU 1 of group 1 does not exist: this "
                      "system has 1 processor group(s)");
  /* -n: no pinning at all. */
  ts.affinity_count = 0;
  ts.disable_affinity = true;
  assert_false(iospd_run_affinity(&ts, &topo, 0).pin);
  /* Thread counts: -t sums per target, -F is the pool. */
  iospd_target_t t[2];
  iospd_target_init(&t[0]);
  iospd_target_init(&t[1]);
  t[0].threads_per_file = 3;
  t[1].threads_per_file = 2;
  ts.targets = t;
  ts.target_count = 2;
  assert_int_equal(iospd_run_thread_count(&ts), 5);
  assert_int_equal(iospd_run_max_relative_thread(&ts, &t[0]), 2);
  ts.thread_count = 4;
  assert_int_equal(iospd_run_thread_count(&ts), 4);
  assert_int_equal(iospd_run_max_relative_thread(&ts, &t[1]), 3);
}

static void test_max_size_warning(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "f.dat", 0, 1, 0);
  t->max_file_size = 128 * KB;
  fake_add_file("f.dat", 64 * KB, true);
  go(&r);
  assert_int_equal(r.rc, 0);
  /* DISKSPD's line once per thread on the target, then our note. */
  assert_string_equal(r.said,
                      "WARNING: file size 65536 is less than MaxFileSize "
                      "131072\n"
                      "NOTE: target 'f.dat' is smaller than its -f limit "
                      "(MaxFileSize); the I/O uses the whole target\n");
  done(&r);

  t = setup(&r, "g.dat", 0, 1, 0);
  t->max_file_size = 128 * KB;
  t->threads_per_file = 3;
  t->thread_stride = 4 * KB;
  fake_add_file("g.dat", 64 * KB, true);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.said,
                      "WARNING: file size 65536 is less than MaxFileSize "
                      "131072\n"
                      "WARNING: file size 65536 is less than MaxFileSize "
                      "131072\n"
                      "WARNING: file size 65536 is less than MaxFileSize "
                      "131072\n"
                      "NOTE: target 'g.dat' is smaller than its -f limit "
                      "(MaxFileSize); the I/O uses the whole target\n"
                      /* the fake platform has 2 CPUs (run_warn.c) */
                      "warning: 3 worker threads on 2 logical CPUs: threads "
                      "wait for a CPU, which adds to the latency and may cap "
                      "the IOPS; use at most 2 threads (-t, -F) and more "
                      "outstanding I/Os each (-o)\n");
  done(&r);
}

/* A file with never-written ranges (the platform's extent walk) gets one
 * warning on stderr naming the bytes and the fix; the run goes on. */
static void test_unwritten_warning(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "sp.dat", 0, 1, 0);
  t->threads_per_file = 2;
  fake_add_file("sp.dat", 4096 * KB, true);
  fake_set_unwritten("sp.dat", true, 1024 * KB, 0);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.said,
                      "WARNING: target 'sp.dat': 1048576 of its 4194304 "
                      "bytes (25.0 %) were never written (holes of a sparse "
                      "file); reads there return zeros without touching the "
                      "device and writes there first allocate, so the "
                      "results are not the device's. Re-create the file "
                      "with -c<size>, which writes every block, or write it "
                      "once first, e.g. a -w100 -Zr pass over the whole "
                      "target (or a --verify write run)\n");
  assert_true(r.res.timespans[0].seconds > 0);
  done(&r);

  /* Two targets on the same file: one warning. Unwritten extents. */
  t = setup(&r, "uw.dat", 0, 1, 0);
  iospd_target_t* t2 = iospd_timespan_add_target(&r.p.timespans[0]);
  iospd_target_set_path(t2, "uw.dat");
  t2->block_size = 4 * KB;
  fake_add_file("uw.dat", 1024 * KB, true);
  fake_set_unwritten("uw.dat", true, 0, 1024 * KB);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.said,
                      "WARNING: target 'uw.dat': 1048576 of its 1048576 "
                      "bytes (100.0 %) were never written (unwritten "
                      "extents, as fallocate, SetEndOfFile or an "
                      "interrupted -c leave); "
                      "reads there return zeros without touching the "
                      "device and writes there first allocate, so the "
                      "results are not the device's. Re-create the file "
                      "with -c<size>, which writes every block, or write it "
                      "once first, e.g. a -w100 -Zr pass over the whole "
                      "target (or a --verify write run)\n");
  done(&r);

  /* Both kinds; then a platform that cannot tell, and a written file. */
  setup(&r, "both.dat", 0, 1, 0);
  fake_add_file("both.dat", 1024 * KB, true);
  fake_set_unwritten("both.dat", true, 4 * KB, 8 * KB);
  go(&r);
  assert_non_null(strstr(r.said, "12288 of its 1048576 bytes (1.2 %) were "
                                 "never written (holes and unwritten "
                                 "extents)"));
  done(&r);
  setup(&r, "unk.dat", 0, 1, 0);
  fake_add_file("unk.dat", 1024 * KB, true);
  fake_set_unwritten("unk.dat", false, 1024 * KB, 0);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.said, "");
  done(&r);

  /* -c writes every block: a re-created file is clean. */
  t = setup(&r, "rc.dat", 0, 1, 0);
  t->create = true;
  t->file_size = 64 * KB;
  fake_add_file("rc.dat", 64 * KB, true);
  fake_set_unwritten("rc.dat", true, 64 * KB, 0);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(r.said, "");
  done(&r);
}

/* Warnings about misleading set-ups known before the run (run_warn.c):
 * each is one "warning: " line and an entry of the timespan's results. */
static void test_setup_warnings(void** state) {
  (void)state;
  run_t r;
  /* Reads of a file whose sampled blocks are all zeros. */
  setup(&r, "z.dat", 0, 1, 0);
  fake_add_file("z.dat", 1024 * KB, false);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(
      r.said,
      "warning: target 'z.dat': all 32 blocks sampled across the range the "
      "run reads are zeros; storage that skips or compresses zeros (thin "
      "provisioning, a fresh SSD, deduplication) answers such reads without "
      "real work. To measure real reads, write it once first, e.g. a -w100 "
      "-Zr pass over the whole target (or a --verify write run)\n");
  assert_int_equal(r.res.timespans[0].warning_count, 1);
  assert_int_equal(r.res.timespans[0].warnings[0].kind, IOSPD_WARN_ZERO_DATA);
  assert_int_equal(r.res.timespans[0].warnings[0].target, 0);
  done(&r);
  /* Writes only, or data that is not zero: nothing to say. One non-zero
   * byte in the first sample is enough. */
  iospd_target_t* t = setup(&r, "zw.dat", 0, 1, 0);
  t->write_ratio = 100;
  fake_add_file("zw.dat", 1024 * KB, false);
  go(&r);
  assert_string_equal(r.said, "");
  assert_int_equal(r.res.timespans[0].warning_count, 0);
  done(&r);
  setup(&r, "nz.dat", 0, 1, 0);
  fake_add_file("nz.dat", 1024 * KB, false);
  uint64_t nz_size = 0;
  ((uint8_t*)fake_file_data("nz.dat", &nz_size))[100] = 7;
  go(&r);
  assert_string_equal(r.said, "");
  done(&r);

  /* Buffered reads of 1 MiB with 8 MiB available: the page cache. */
  setup(&r, "pc.dat", 0, 1, 0);
  fake_add_file("pc.dat", 1024 * KB, true);
  fake_set_mem_available(8192 * KB);
  go(&r);
  assert_string_equal(
      r.said,
      "warning: target 'pc.dat': buffered reads of 1048576 bytes, which fit "
      "in the 8388608 bytes of free memory: after the first pass the run "
      "measures the page cache, not the storage. Use -Su (unbuffered) or a "
      "target larger than memory\n");
  assert_int_equal(r.res.timespans[0].warnings[0].kind, IOSPD_WARN_PAGE_CACHE);
  done(&r);
  /* Unbuffered, or larger than memory: silence. */
  t = setup(&r, "pu.dat", 0, 1, 0);
  t->cache_mode = IOSPD_CACHE_DISABLE_OS;
  fake_add_file("pu.dat", 1024 * KB, true);
  fake_set_mem_available(8192 * KB);
  go(&r);
  assert_string_equal(r.said, "");
  done(&r);
  setup(&r, "pb.dat", 0, 1, 0);
  fake_add_file("pb.dat", 1024 * KB, true);
  fake_set_mem_available(512 * KB);
  go(&r);
  assert_string_equal(r.said, "");
  done(&r);

  /* Three threads on the fake platform's two CPUs; two are fine. */
  t = setup(&r, "th.dat", 0, 1, 0);
  t->threads_per_file = 3;
  t->thread_stride = 64 * KB;
  fake_add_file("th.dat", 1024 * KB, true);
  go(&r);
  assert_string_equal(
      r.said,
      "warning: 3 worker threads on 2 logical CPUs: threads wait for a CPU, "
      "which adds to the latency and may cap the IOPS; use at most 2 "
      "threads (-t, -F) and more outstanding I/Os each (-o)\n");
  assert_int_equal(r.res.timespans[0].warnings[0].kind,
                   IOSPD_WARN_THREADS_OVER_CPUS);
  assert_int_equal(r.res.timespans[0].warnings[0].target, -1);
  done(&r);
  t = setup(&r, "t2.dat", 0, 1, 0);
  t->threads_per_file = 2;
  t->thread_stride = 64 * KB;
  fake_add_file("t2.dat", 1024 * KB, true);
  go(&r);
  assert_string_equal(r.said, "");
  done(&r);
}

/* Ctrl-C or SIGTERM while -c writes: the run ends as interrupted before
 * measuring (exit 0 in main, as any Ctrl-C), the platform's account of
 * what was left goes out as a NOTE, no I/O is issued and no later timespan
 * runs. Remarks of the platform during -c are passed on as NOTEs. */
static void test_create_interrupted(void** state) {
  (void)state;
  run_t r;
  iospd_target_t* t = setup(&r, "ci.dat", 0, 5, 0);
  t->create = true;
  t->file_size = 1024 * KB;
  add_timespan(&r, "ci.dat", 5);
  fake_add_file("ci.dat", 64 * KB, true);
  fake_create_script("ci.dat", true, "removed 'ci.dat.iospd-creating-7'");
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_string_equal(
      r.said,
      "NOTE: -c: removed 'ci.dat.iospd-creating-7'\n"
      "NOTE: creating 'ci.dat' (-c) stopped: interrupted after 0 of "
      "1048576 bytes were written; the existing file is as it was\n");
  assert_int_equal(r.interrupts, 1);
  assert_int_equal(r.res.timespan_count, 2);
  assert_true(r.res.timespans[0].interrupted_before_measure);
  assert_true(r.res.timespans[1].interrupted_before_measure);
  uint32_t n = 0;
  (void)fake_log(&n);
  assert_int_equal(n, 0);
  uint64_t size = 0;
  assert_non_null(fake_file_data("ci.dat", &size));
  assert_int_equal(size, 64 * KB);
  done(&r);
  /* The same during <PrecreateFiles>: no timespan starts. */
  t = setup(&r, "pci.dat", 0, 5, 0);
  t->create = true;
  t->file_size = 1024 * KB;
  t = add_timespan(&r, "pci.dat", 5);
  t->create = true;
  t->file_size = 1024 * KB;
  r.p.precreate = IOSPD_PRECREATE_USE_MAX_SIZE;
  fake_add_file("pci.dat", 64 * KB, true);
  fake_create_script("pci.dat", true, NULL);
  go(&r);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.interrupts, 1);
  assert_int_equal(r.res.timespan_count, 2);
  assert_true(r.res.timespans[0].interrupted_before_measure);
  assert_true(r.res.timespans[1].interrupted_before_measure);
  assert_int_equal(fake_file_creates("pci.dat"), 1);
  (void)fake_log(&n);
  assert_int_equal(n, 0);
  assert_non_null(strstr(r.said, "NOTE: creating 'pci.dat' (-c) stopped: "));
  done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sequential_exact),
      cmocka_unit_test(test_counts_and_latencies),
      cmocka_unit_test(test_random_sequence_per_thread),
      cmocka_unit_test(test_throttle),
      cmocka_unit_test(test_think_time),
      cmocka_unit_test(test_short_submits),
      cmocka_unit_test(test_io_error),
      cmocka_unit_test(test_zero_byte_completion),
      cmocka_unit_test(test_truncated_target),
      cmocka_unit_test(test_drain_timeout),
      cmocka_unit_test(test_interrupt_in_warmup),
      cmocka_unit_test(test_interrupt_in_measure),
      cmocka_unit_test(test_create_and_missing),
      cmocka_unit_test(test_too_small),
      cmocka_unit_test(test_raw_write_safety),
      cmocka_unit_test(test_unbuffered_alignment),
      cmocka_unit_test(test_zwindows_4kn),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_write_pattern),
      cmocka_unit_test(test_random_source_windows),
      cmocka_unit_test(test_refill_per_write),
      cmocka_unit_test(test_refill_odd_block_matches_diskspd),
      cmocka_unit_test(test_pool_shared_slots),
      cmocka_unit_test(test_progress_and_timespans),
      cmocka_unit_test(test_failed_and_unrun_timespans),
      cmocka_unit_test(test_precreate),
      cmocka_unit_test(test_verbose_messages),
      cmocka_unit_test(test_depth_shortfall_is_reported),
      cmocka_unit_test(test_create_progress),
      cmocka_unit_test(test_affinity_layout),
      cmocka_unit_test(test_max_size_warning),
      cmocka_unit_test(test_reap_batch_by_buffering),
      cmocka_unit_test(test_unwritten_warning),
      cmocka_unit_test(test_setup_warnings),
      cmocka_unit_test(test_create_interrupted),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  fake_reset();
  return rc;
}
