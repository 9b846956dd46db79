/* SPDX-License-Identifier: MIT */
/* Per-target statistics (init/record/merge), CPU usage from two snapshots
 * (as DISKSPD computes CPU usage) and freeing a results tree. */
#include "test_util.h"

#include <math.h>

#include "iospd/alloc.h"
#include "iospd/error.h"
#include "iospd/stats.h"

#define MS UINT64_C(1000000)

static void test_record_and_merge(void** state) {
  (void)state;
  iospd_target_stats_t a, b;
  assert_int_equal(iospd_target_stats_init(&a, true, true, 1000, 3000), 0);
  assert_int_equal(iospd_target_stats_init(&b, true, true, 1000, 3000), 0);
  assert_non_null(a.lat[0]);
  assert_non_null(a.lat[1]);
  assert_int_equal(a.iops[0].capacity, 3);
  iospd_target_stats_record(&a, IOSPD_OP_READ, 4096, 50000, 10 * MS);
  iospd_target_stats_record(&a, IOSPD_OP_READ, 4096, 70000, 1010 * MS);
  iospd_target_stats_record(&a, IOSPD_OP_WRITE, 8192, 90000, 2010 * MS);
  iospd_target_stats_record(&b, IOSPD_OP_WRITE, 8192, 30000, 20 * MS);
  iospd_target_stats_record(&b, IOSPD_OP_WRITE, 8192, 30000, 5000 * MS);
  b.first_error = IOSPD_EIO;
  b.first_error_offset = 12345;
  b.errors[1] = 1;
  assert_int_equal(a.bytes[0], 8192);
  assert_int_equal(a.ios[0], 2);
  assert_int_equal(iospd_hist_count(a.lat[0]), 2);
  assert_int_equal(a.iops[0].used, 2);
  assert_int_equal(iospd_target_stats_merge(&a, &b), 0);
  assert_int_equal(a.bytes[1], 3 * 8192);
  assert_int_equal(a.ios[1], 3);
  assert_int_equal(a.errors[1], 1);
  assert_int_equal(a.first_error, IOSPD_EIO);
  assert_int_equal(a.first_error_offset, 12345);
  assert_int_equal(iospd_hist_count(a.lat[1]), 3);
  assert_int_equal(iospd_hist_min_ns(a.lat[1]), 30000);
  assert_int_equal(iospd_hist_max_ns(a.lat[1]), 90000);
  /* the completion at 5 s fell past the 3 buckets: counted, not bucketed */
  assert_int_equal(iospd_buckets_get(&a.iops[1], 0)->count, 1);
  assert_int_equal(iospd_buckets_get(&a.iops[1], 2)->count, 1);
  assert_int_equal(a.iops[1].used, 3);
  iospd_target_stats_destroy(&a);
  iospd_target_stats_destroy(&b);
  assert_null(a.lat[0]);
}

static void test_without_latency_or_buckets(void** state) {
  (void)state;
  iospd_target_stats_t a, b;
  assert_int_equal(iospd_target_stats_init(&a, false, false, 1000, 3000), 0);
  assert_null(a.lat[0]);
  assert_int_equal(a.iops[0].capacity, 0);
  iospd_target_stats_record(&a, IOSPD_OP_READ, 512, 1, 1);
  assert_int_equal(a.bytes[0], 512);
  assert_int_equal(a.ios[0], 1);
  /* merging -L stats into a plain one gives it a histogram */
  assert_int_equal(iospd_target_stats_init(&b, true, false, 1000, 3000), 0);
  iospd_target_stats_record(&b, IOSPD_OP_READ, 512, 2000, 1);
  assert_int_equal(iospd_target_stats_merge(&a, &b), 0);
  assert_non_null(a.lat[0]);
  assert_int_equal(iospd_hist_count(a.lat[0]), 1);
  iospd_target_stats_destroy(&a);
  iospd_target_stats_destroy(&b);
  assert_int_equal(iospd_target_stats_init(&a, false, true, 0, 3000),
                   IOSPD_EINVAL);
}

static void test_cpu_usage(void** state) {
  (void)state;
  iospd_cpu_times_t s[3] = {{100, 200, 300}, {0, 0, 0}, {50, 50, 50}};
  iospd_cpu_times_t e[3] = {{700, 500, 400}, {0, 0, 0}, {40, 60, 50}};
  iospd_cpu_usage_t u[3];
  iospd_cpu_usage_compute(s, e, 3, u);
  /* idle 600, kernel 300, user 100 of 1000 */
  assert_true(fabs(u[0].idle - 60.0) < 1e-9);
  assert_true(fabs(u[0].kernel - 30.0) < 1e-9);
  assert_true(fabs(u[0].user - 10.0) < 1e-9);
  assert_true(fabs(u[0].usage - 40.0) < 1e-9);
  /* no time at all: 100 % idle */
  assert_true(u[1].idle == 100.0);
  assert_true(u[1].usage == 0.0);
  /* idle went backwards: clamped to 0; kernel 10 of 10 */
  assert_true(u[2].idle == 0.0);
  assert_true(fabs(u[2].kernel - 100.0) < 1e-9);
  assert_true(fabs(u[2].usage - 100.0) < 1e-9);
}

static void test_results_destroy_frees_tree(void** state) {
  (void)state;
  iospd_results_t r;
  memset(&r, 0, sizeof r);
  r.timespan_count = 2;
  r.timespans = iospd_calloc(2, sizeof *r.timespans);
  for (uint32_t i = 0; i < 2; i++) {
    iospd_timespan_result_t* tr = &r.timespans[i];
    tr->cpu = iospd_calloc(4, sizeof *tr->cpu);
    tr->thread_count = tr->thread_count_alloc = 2;
    tr->threads = iospd_calloc(2, sizeof *tr->threads);
    for (uint32_t t = 0; t < 2; t++) {
      iospd_thread_result_t* th = &tr->threads[t];
      th->target_count = 2;
      th->targets = iospd_calloc(2, sizeof *th->targets);
      for (uint32_t k = 0; k < 2; k++) {
        assert_int_equal(iospd_target_stats_init(&th->targets[k].stats, true,
                                                 true, 1000, 2000),
                         0);
        th->targets[k].dist = iospd_calloc(2, sizeof *th->targets[k].dist);
        th->targets[k].dist_count = 2;
      }
    }
  }
  iospd_results_destroy(&r); /* ASan/LSan builds prove nothing leaks */
  assert_null(r.timespans);
  assert_int_equal(r.timespan_count, 0);
  iospd_results_destroy(&r); /* twice is harmless */
  iospd_results_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_record_and_merge),
      cmocka_unit_test(test_without_latency_or_buckets),
      cmocka_unit_test(test_cpu_usage),
      cmocka_unit_test(test_results_destroy_frees_tree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
