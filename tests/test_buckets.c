/* SPDX-License-Identifier: MIT */
/* IOPS interval buckets (-D): sizing, placement, dropping past the end,
 * per-bucket latency sums, merging, and DISKSPD's IOPS standard deviation. */
#include "test_util.h"

#include <math.h>

#include "iospd/alloc.h"
#include "iospd/buckets.h"
#include "iospd/error.h"

#define MS UINT64_C(1000000)

static void test_sizing_and_errors(void** state) {
  (void)state;
  iospd_buckets_t b;
  assert_int_equal(iospd_buckets_init(&b, 1000, 2500), 0);
  assert_int_equal(b.capacity, 3); /* ceil(2500 / 1000) */
  assert_int_equal(b.used, 0);
  assert_int_equal(b.interval_ns, 1000 * MS);
  iospd_buckets_destroy(&b);
  assert_int_equal(iospd_buckets_init(&b, 500, 2000), 0);
  assert_int_equal(b.capacity, 4);
  iospd_buckets_destroy(&b);
  assert_int_equal(iospd_buckets_init(&b, 0, 2000), IOSPD_EINVAL);
  assert_int_equal(b.capacity, 0);
  iospd_buckets_destroy(&b);
  assert_int_equal(iospd_buckets_init(&b, 1000, 0), 0);
  assert_int_equal(b.capacity, 0);
  iospd_buckets_add(&b, 0, 5, 4096); /* no buckets: ignored */
  assert_int_equal(b.used, 0);
  assert_true(iospd_buckets_iops_stddev(&b) == 0.0);
  iospd_buckets_destroy(&b);
}

static void test_diskspd_stddev_example(void** state) {
  (void)state;
  iospd_buckets_t b;
  assert_int_equal(iospd_buckets_init(&b, 1000, 2000), 0);
  iospd_buckets_add(&b, 100 * MS, 1000, 4096);
  iospd_buckets_add(&b, 1500 * MS, 1000, 4096);
  iospd_buckets_add(&b, 1999 * MS, 1000, 4096);
  assert_int_equal(b.used, 2);
  assert_int_equal(b.b[0].count, 1);
  assert_int_equal(b.b[1].count, 2);
  assert_int_equal(b.b[0].bytes, 4096);
  assert_int_equal(b.b[1].bytes, 8192);
  /* {1, 2}: population stddev 0.5, per 1 s interval -> 0.5 IO/s. */
  assert_true(fabs(iospd_buckets_iops_stddev(&b) - 0.5) < 1e-12);
  iospd_buckets_destroy(&b);
  /* Same counts in 500 ms intervals: 0.5 per 0.5 s = 1.0 IO/s. */
  assert_int_equal(iospd_buckets_init(&b, 500, 1000), 0);
  iospd_buckets_add(&b, 10 * MS, 1000, 4096);
  iospd_buckets_add(&b, 600 * MS, 1000, 4096);
  iospd_buckets_add(&b, 700 * MS, 1000, 4096);
  assert_true(fabs(iospd_buckets_iops_stddev(&b) - 1.0) < 1e-12);
  iospd_buckets_destroy(&b);
}

static void test_placement_latency_and_drop(void** state) {
  (void)state;
  iospd_buckets_t b;
  assert_int_equal(iospd_buckets_init(&b, 1000, 3000), 0);
  iospd_buckets_add(&b, 1000 * MS, 3000, 4096);  /* exactly 1 s: bucket 1 */
  iospd_buckets_add(&b, 1200 * MS, 1000, 4096);
  iospd_buckets_add(&b, 1300 * MS, 2000, 4096);
  iospd_buckets_add(&b, 3000 * MS, 9000, 4096);  /* past the last bucket: dropped */
  iospd_buckets_add(&b, 99999 * MS, 9000, 4096);
  assert_int_equal(b.used, 2);
  assert_int_equal(b.b[0].count, 0);
  assert_int_equal(b.b[1].count, 3);
  assert_int_equal(b.b[2].count, 0);
  assert_true(b.b[1].lat_min_us == 1.0);
  assert_true(b.b[1].lat_max_us == 3.0);
  assert_true(b.b[1].lat_sum_us == 6.0);
  assert_true(b.b[1].lat_sumsq_us == 14.0);
  /* used = 2 buckets {0, 3}: mean 1.5, stddev 1.5 */
  assert_true(fabs(iospd_buckets_iops_stddev(&b) - 1.5) < 1e-12);
  iospd_buckets_destroy(&b);
}

static void test_merge(void** state) {
  (void)state;
  iospd_buckets_t a, c, z;
  assert_int_equal(iospd_buckets_init(&a, 1000, 2000), 0);
  assert_int_equal(iospd_buckets_init(&c, 1000, 4000), 0);
  iospd_buckets_add(&a, 0, 5000, 512);
  iospd_buckets_add(&a, 1100 * MS, 7000, 512);
  iospd_buckets_add(&c, 200 * MS, 2000, 512);
  iospd_buckets_add(&c, 3500 * MS, 4000, 512);
  memset(&z, 0, sizeof z); /* a zeroed destination adopts the interval */
  assert_int_equal(iospd_buckets_merge(&z, &a), 0);
  assert_int_equal(iospd_buckets_merge(&z, &c), 0);
  assert_int_equal(z.capacity, 4);
  assert_int_equal(z.used, 4);
  assert_int_equal(z.interval_ns, 1000 * MS);
  assert_int_equal(z.b[0].count, 2);
  assert_int_equal(z.b[1].count, 1);
  assert_int_equal(z.b[2].count, 0);
  assert_int_equal(z.b[3].count, 1);
  assert_true(z.b[0].lat_min_us == 2.0);
  assert_true(z.b[0].lat_max_us == 5.0);
  assert_true(z.b[0].lat_sumsq_us == 29.0);
  /* different interval: refused */
  iospd_buckets_t d;
  assert_int_equal(iospd_buckets_init(&d, 500, 1000), 0);
  iospd_buckets_add(&d, 0, 1, 512);
  assert_int_equal(iospd_buckets_merge(&z, &d), IOSPD_EINVAL);
  iospd_buckets_destroy(&a);
  iospd_buckets_destroy(&c);
  iospd_buckets_destroy(&d);
  iospd_buckets_destroy(&z);
}

static size_t allocs;
static bool count_gate(size_t n) {
  (void)n;
  allocs++;
  return true;
}

/* The index is found by comparing with the current bucket, not by a
 * division per add: at and around every boundary, in order, backwards and
 * past the end, the counts land where since / interval says. */
static void test_index_without_division_matches(void** state) {
  (void)state;
  const uint64_t iv = 1000000; /* 1 ms */
  iospd_buckets_t bk;
  assert_int_equal(iospd_buckets_init(&bk, 1, 5), 0);
  assert_int_equal(bk.capacity, 5);
  const uint64_t times[] = {0,          1,          iv - 1,     iv,
                            iv + 1,     2 * iv - 1, 2 * iv,     4 * iv + 7,
                            iv / 2,     3 * iv,     3 * iv - 1, 5 * iv - 1,
                            5 * iv,     9 * iv,     2 * iv + 5, UINT64_MAX,
                            4 * iv};
  uint64_t expect[5] = {0};
  for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
    iospd_buckets_add(&bk, times[i], 1000, 512);
    uint64_t idx = times[i] / iv;
    if (idx < 5) expect[idx]++;
  }
  for (uint32_t i = 0; i < 5; i++) {
    assert_int_equal(bk.b[i].count, expect[i]);
    assert_int_equal(bk.b[i].bytes, expect[i] * 512);
  }
  assert_int_equal(expect[0], 4);
  assert_int_equal(expect[1], 3);
  assert_int_equal(expect[2], 3);
  assert_int_equal(expect[3], 1);
  assert_int_equal(expect[4], 3);
  assert_int_equal(bk.used, 5);
  iospd_buckets_destroy(&bk);
}

static void test_add_does_not_allocate(void** state) {
  (void)state;
  iospd_buckets_t b;
  assert_int_equal(iospd_buckets_init(&b, 1000, 10000), 0);
  allocs = 0;
  iospd_alloc_set_gate(count_gate);
  for (uint64_t i = 0; i < 100000; i++) iospd_buckets_add(&b, i * 100000, 50, 4096);
  iospd_alloc_set_gate(NULL);
  assert_int_equal(allocs, 0);
  assert_int_equal(b.used, 10);
  assert_int_equal(b.b[9].count, 10000);
  iospd_buckets_destroy(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sizing_and_errors),
      cmocka_unit_test(test_diskspd_stddev_example),
      cmocka_unit_test(test_placement_latency_and_drop),
      cmocka_unit_test(test_merge),
      cmocka_unit_test(test_add_does_not_allocate),
      cmocka_unit_test(test_index_without_division_matches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
