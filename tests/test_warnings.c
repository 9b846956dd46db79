/* SPDX-License-Identifier: MIT */
/* The warnings about misleading set-ups (iospd/warnings.h): the rules at
 * their thresholds, the sample offsets, and the after-the-run checks
 * (busy thread, Little's law) on hand-made results, with the exact texts
 * kept for the reports (main prints them after the report). */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/warnings.h"
#include "run/run_internal.h"

static void test_rules(void** state) {
  (void)state;
  /* Busy: 95 % of the wall time on a CPU, and only when both are known. */
  assert_true(iospd_warn_busy(950, 1000));
  assert_false(iospd_warn_busy(949, 1000));
  assert_true(iospd_warn_busy(2000, 1000)); /* rounding of the clocks */
  assert_false(iospd_warn_busy(0, 1000));
  assert_false(iospd_warn_busy(1000, 0));
  /* Little's law: 2.0 s of latency in 1.0 s = 2 in flight. */
  double f = 0;
  assert_true(iospd_warn_queue_not_full(2.0, 1.0, 4, &f));
  assert_true(f > 1.999 && f < 2.001);
  assert_false(iospd_warn_queue_not_full(3.2, 1.0, 4, &f)); /* 80 % */
  assert_true(iospd_warn_queue_not_full(3.19, 1.0, 4, &f));
  assert_false(iospd_warn_queue_not_full(1.0, 1.0, 0, &f));
  assert_false(iospd_warn_queue_not_full(0.0, 1.0, 4, &f));
  /* Page cache: fits in what is available; unknown memory says nothing. */
  assert_true(iospd_warn_page_cache(1024, 1024));
  assert_false(iospd_warn_page_cache(1025, 1024));
  assert_false(iospd_warn_page_cache(1024, 0));
  uint8_t b[64] = {0};
  assert_true(iospd_warn_all_zero(b, sizeof b));
  b[63] = 1;
  assert_false(iospd_warn_all_zero(b, sizeof b));
  assert_string_equal(iospd_warn_kind_name(IOSPD_WARN_UNWRITTEN),
                      "unwritten_target");
  assert_string_equal(iospd_warn_kind_name(IOSPD_WARN_QUEUE_NOT_FULL),
                      "queue_not_full");
  assert_string_equal(iospd_warn_kind_name(IOSPD_WARN_KIND_COUNT), "unknown");
}

/* 32 samples of 64 KiB over [1 MiB + 100, 64 MiB): 4 KiB-aligned, inside,
 * first at the first aligned offset, last ending near the end, rising. */
static void test_sample_offsets(void** state) {
  (void)state;
  uint64_t base = (1u << 20) + 100, end = 64u << 20;
  uint64_t prev = 0;
  for (uint32_t k = 0; k < 32; k++) {
    uint64_t o = iospd_warn_sample_offset(base, end, 65536, k, 32);
    assert_int_equal(o % 4096, 0);
    assert_true(o >= base && o + 65536 <= end);
    if (k > 0) assert_true(o > prev);
    prev = o;
  }
  assert_int_equal(iospd_warn_sample_offset(base, end, 65536, 0, 32),
                   (1u << 20) + 4096);
  assert_true(prev + 65536 > end - 8192);
  /* A range smaller than one sample: the first offset (the caller does not
   * sample then). */
  assert_int_equal(iospd_warn_sample_offset(0, 4096, 65536, 3, 32), 0);
}

/* After the run: one busy thread of two; then Little's law on the totals:
 * 1000 I/Os of 1 ms each in 1 s = 1 in flight of 4 asked (2 + 2). */
static void test_after_run(void** state) {
  (void)state;
  iospd_timespan_t ts;
  iospd_timespan_init(&ts);
  iospd_target_t tgt;
  iospd_target_init(&tgt);
  ts.targets = &tgt;
  ts.target_count = 1;
  iospd_thread_target_result_t ttr[2];
  memset(ttr, 0, sizeof ttr);
  iospd_thread_result_t th[2];
  memset(th, 0, sizeof th);
  for (int i = 0; i < 2; i++) {
    th[i].targets = &ttr[i];
    th[i].target_count = 1;
    ttr[i].stats.ios[0] = 500;
    ttr[i].stats.lat_sum_ns[0] = 500ull * 1000000u; /* 1 ms each */
  }
  iospd_timespan_result_t tsr;
  memset(&tsr, 0, sizeof tsr);
  tsr.ts = &ts;
  tsr.seconds = 1.0;
  tsr.threads = th;
  tsr.thread_count = tsr.thread_count_alloc = 2;
  iospd_worker_t w[2];
  memset(w, 0, sizeof w);
  iospd_worker_t* ws[2] = {&w[0], &w[1]};
  w[0].id = 0;
  w[0].slot_count = 2;
  w[0].cpu_ns = 980000000u;
  w[0].wall_ns = 1000000000u;
  w[1].id = 1;
  w[1].slot_count = 2;
  w[1].cpu_ns = 100000000u;
  w[1].wall_ns = 1000000000u;
  iospd_run_warn_generator(&tsr, ws, 2);
  /* Kept for the report; main says them after it. */
  assert_int_equal(tsr.warning_count, 2);
  assert_string_equal(
      tsr.warnings[0].text,
      "thread 0 was busy on a CPU for 98 % of the run: the "
      "generator, not the storage, may be the limit. Use more threads (-t, "
      "-F) or fewer outstanding I/Os per thread");
  assert_string_equal(
      tsr.warnings[1].text,
      "1000 IOPS x 1000.0 us mean latency = 1.00 I/Os in flight on "
      "average, 25 % of the 4 outstanding I/Os asked for (Little's law): the "
      "generator, not the storage, may be the limit, or the storage answers "
      "faster than I/Os are issued (the page cache)");
  assert_int_equal(tsr.warning_count, 2);
  assert_int_equal(tsr.warnings[0].kind, IOSPD_WARN_GENERATOR_BUSY);
  assert_int_equal(tsr.warnings[0].thread, 0);
  assert_int_equal(tsr.warnings[0].target, -1);
  assert_int_equal(tsr.warnings[1].kind, IOSPD_WARN_QUEUE_NOT_FULL);
  assert_non_null(strstr(tsr.warnings[1].text, "25 % of the 4"));

  /* A full queue (4 ms each: 4 in flight) and nobody busy: silence. A
   * throttled run (-g) is not judged by Little's law at all. */
  for (uint32_t i = 0; i < tsr.warning_count; i++)
    iospd_free(tsr.warnings[i].text);
  iospd_free(tsr.warnings);
  tsr.warnings = NULL;
  tsr.warning_count = 0;
  w[0].cpu_ns = 940000000u;
  for (int i = 0; i < 2; i++) ttr[i].stats.lat_sum_ns[0] = 500ull * 4000000u;
  iospd_run_warn_generator(&tsr, ws, 2);
  assert_int_equal(tsr.warning_count, 0);
  for (int i = 0; i < 2; i++) ttr[i].stats.lat_sum_ns[0] = 500ull * 1000000u;
  /* CPU time a little above the wall time (the clocks tick apart): said
   * as 100 %, never more. */
  w[0].cpu_ns = 1020000000u;
  iospd_run_warn_generator(&tsr, ws, 2);
  assert_int_equal(tsr.warning_count, 2); /* and Little's law again */
  assert_non_null(strstr(tsr.warnings[0].text,
                          "thread 0 was busy on a CPU for 100 % of the run"));
  for (uint32_t i = 0; i < tsr.warning_count; i++)
    iospd_free(tsr.warnings[i].text);
  iospd_free(tsr.warnings);
  tsr.warnings = NULL;
  tsr.warning_count = 0;
  w[0].cpu_ns = 0;
  tgt.throughput_bpms = 100;
  iospd_run_warn_generator(&tsr, ws, 2);
  assert_int_equal(tsr.warning_count, 0);
  tgt.throughput_bpms = 0;
}

/* Many busy threads (-t1000 on two CPUs): one line counts them, naming the
 * first and the lowest share, instead of a line each. Three or fewer keep
 * a line each (test_after_run). */
static void test_many_busy(void** state) {
  (void)state;
  iospd_timespan_result_t tsr;
  memset(&tsr, 0, sizeof tsr);
  enum { N = 6 };
  iospd_worker_t w[N];
  iospd_worker_t* ws[N];
  memset(w, 0, sizeof w);
  for (uint32_t i = 0; i < N; i++) {
    w[i].id = 10 + i;
    w[i].wall_ns = 1000000000u;
    /* Thread 10 idle; 11..15 busy at 99, 98, 97, 96, 99 %. */
    w[i].cpu_ns = i == 0 ? 100000000u
                         : (i == 5 ? 990000000u : (1000u - 10u * i) * 1000000u);
    ws[i] = &w[i];
  }
  iospd_run_warn_generator(&tsr, ws, N); /* no timespan: no Little's law */
  assert_int_equal(tsr.warning_count, 1);
  assert_int_equal(tsr.warnings[0].kind, IOSPD_WARN_GENERATOR_BUSY);
  assert_int_equal(tsr.warnings[0].thread, -1);
  assert_string_equal(
      tsr.warnings[0].text,
      "5 of 6 threads (the first: thread 11) were each busy on a CPU for "
      "96 % or more of the run: the generator, not the storage, may be the "
      "limit. Use more threads (-t, -F) or fewer outstanding I/Os per "
      "thread, or fewer threads than CPUs if they outnumber them");
  iospd_free(tsr.warnings[0].text);
  iospd_free(tsr.warnings);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rules),
      cmocka_unit_test(test_sample_offsets),
      cmocka_unit_test(test_after_run),
      cmocka_unit_test(test_many_busy),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
