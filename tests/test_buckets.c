/* SPDX-License-Identifier: MIT */
/* IOPS interval buckets (-D): sizing, placement, dropping past the end,
 * per-bucket latency sums, merging, and DISKSPD's IOPS standard deviation. */
#include "test_util.h"

#include <math.h>

#include "iospd/alloc.h"
#include "iospd/buckets.h"
#include "iospd/error.h"
#include "iospd/platform.h"

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
  assert_int_equal(iospd_buckets_get(&b, 0)->count, 1);
  assert_int_equal(iospd_buckets_get(&b, 1)->count, 2);
  assert_int_equal(iospd_buckets_get(&b, 0)->bytes, 4096);
  assert_int_equal(iospd_buckets_get(&b, 1)->bytes, 8192);
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
  assert_int_equal(iospd_buckets_get(&b, 0)->count, 0);
  assert_int_equal(iospd_buckets_get(&b, 1)->count, 3);
  assert_int_equal(iospd_buckets_get(&b, 2)->count, 0);
  assert_true(iospd_buckets_get(&b, 1)->lat_min_us == 1.0);
  assert_true(iospd_buckets_get(&b, 1)->lat_max_us == 3.0);
  assert_true(iospd_buckets_get(&b, 1)->lat_sum_us == 6.0);
  assert_true(iospd_buckets_get(&b, 1)->lat_sumsq_us == 14.0);
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
  assert_int_equal(iospd_buckets_get(&z, 0)->count, 2);
  assert_int_equal(iospd_buckets_get(&z, 1)->count, 1);
  assert_int_equal(iospd_buckets_get(&z, 2)->count, 0);
  assert_int_equal(iospd_buckets_get(&z, 3)->count, 1);
  assert_true(iospd_buckets_get(&z, 0)->lat_min_us == 2.0);
  assert_true(iospd_buckets_get(&z, 0)->lat_max_us == 5.0);
  assert_true(iospd_buckets_get(&z, 0)->lat_sumsq_us == 29.0);
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
static bool no_gate(size_t n) {
  (void)n;
  return false;
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
    assert_int_equal(iospd_buckets_get(&bk, i)->count, expect[i]);
    assert_int_equal(iospd_buckets_get(&bk, i)->bytes, expect[i] * 512);
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
  assert_int_equal(iospd_buckets_get(&b, 9)->count, 10000);
  iospd_buckets_destroy(&b);
}

/* ---- chunked storage ------------------------------------------------------ */

static size_t alloc_bytes;
static bool sum_gate(size_t n) {
  allocs++;
  alloc_bytes += n;
  return true;
}

/* -d3600 -D1: 3.6 M intervals possible, but init reserves only the first
 * IOSPD_BUCKETS_AHEAD_MS (rounded up to whole 1000-interval chunks). */
static void test_init_reserves_only_ahead(void** state) {
  (void)state;
  iospd_buckets_t b;
  allocs = alloc_bytes = 0;
  iospd_alloc_set_gate(sum_gate);
  assert_int_equal(iospd_buckets_init(&b, 1, 3600u * 1000u), 0);
  iospd_alloc_set_gate(NULL);
  assert_int_equal(b.capacity, 3600000);
  assert_int_equal(b.chunk_len, 1000);
  assert_int_equal(b.reserved, 3000); /* 2001 intervals wanted */
  assert_int_equal(allocs, 3);
  assert_true(alloc_bytes < 3000 * sizeof(iospd_bucket_t) + 3 * 64);
  assert_null(iospd_buckets_get(&b, 3000));
  /* The controller, 1.5 s in: covers through 3.5 s, one more chunk. */
  assert_int_equal(iospd_buckets_grow(&b, 1500 * MS), 0);
  assert_int_equal(b.reserved, 4000);
  assert_int_equal(iospd_buckets_grow(&b, 1600 * MS), 0); /* nothing new */
  assert_int_equal(b.reserved, 4000);
  iospd_buckets_destroy(&b);
  /* A coarse -D: chunks of 64 intervals, never past the capacity. */
  assert_int_equal(iospd_buckets_init(&b, 1000, 3600u * 1000u), 0);
  assert_int_equal(b.chunk_len, 64);
  assert_int_equal(b.reserved, 64);
  assert_int_equal(iospd_buckets_grow(&b, 3599000 * MS), 0);
  assert_int_equal(b.reserved, 3600);
  iospd_buckets_destroy(&b);
}

/* Values recorded on both sides of every chunk boundary, with the
 * controller growing the series as time passes, read back exactly: one by
 * one, through a sum, and by a merge. */
static void test_values_across_chunk_boundaries(void** state) {
  (void)state;
  const uint64_t iv = MS; /* -D1 */
  iospd_buckets_t b;
  assert_int_equal(iospd_buckets_init(&b, 1, 10000), 0);
  assert_int_equal(b.chunk_len, 1000);
  const uint32_t idx[] = {0,    1,    998,  999,  1000, 1001, 1999, 2000,
                          2999, 3000, 3001, 4999, 5000, 7777, 9998, 9999};
  const size_t n = sizeof idx / sizeof idx[0];
  allocs = 0;
  for (size_t i = 0; i < n; i++) {
    assert_int_equal(iospd_buckets_grow(&b, idx[i] * iv), 0);
    iospd_alloc_set_gate(count_gate);
    iospd_hot_enter();
    /* i + 1 completions at the interval's first and last nanosecond, with
     * latencies 1 us .. (i+1) us. */
    for (size_t k = 0; k <= i; k++)
      iospd_buckets_add(&b, idx[i] * iv + (k % 2 ? iv - 1 : 0),
                        (uint64_t)(k + 1) * 1000, 512);
    iospd_hot_leave();
    iospd_alloc_set_gate(NULL);
  }
  assert_int_equal(allocs, 0); /* the controller kept ahead */
  assert_int_equal(b.late_chunks, 0);
  assert_int_equal(b.used, 10000);
  assert_int_equal(b.reserved, 10000);
  iospd_buckets_t m;
  memset(&m, 0, sizeof m);
  assert_int_equal(iospd_buckets_merge(&m, &b), 0);
  assert_int_equal(iospd_buckets_merge(&m, &b), 0); /* twice: doubles */
  iospd_buckets_sum_t sum;
  iospd_buckets_sum_init(&sum);
  assert_int_equal(iospd_buckets_sum_add(&sum, &b), 0);
  assert_int_equal(iospd_buckets_sum_add(&sum, &b), 0);
  size_t j = 0;
  uint64_t total = 0;
  for (uint32_t i = 0; i < 10000; i++) {
    const iospd_bucket_t* x = iospd_buckets_get(&b, i);
    assert_non_null(x);
    iospd_bucket_t s;
    iospd_buckets_sum_get(&sum, i, &s);
    const iospd_bucket_t* y = iospd_buckets_get(&m, i);
    if (j < n && idx[j] == i) {
      uint64_t c = j + 1;
      assert_int_equal(x->count, c);
      assert_int_equal(x->bytes, c * 512);
      assert_true(x->lat_min_us == 1.0);
      assert_true(x->lat_max_us == (double)c);
      assert_true(x->lat_sum_us == (double)(c * (c + 1) / 2));
      assert_int_equal(s.count, 2 * c);
      assert_int_equal(y->count, 2 * c);
      assert_true(s.lat_max_us == (double)c);
      assert_true(s.lat_sum_us == 2.0 * (double)(c * (c + 1) / 2));
      total += c;
      j++;
    } else {
      assert_int_equal(x->count, 0);
      assert_int_equal(s.count, 0);
      assert_int_equal(y->count, 0);
    }
  }
  assert_int_equal(j, n);
  assert_int_equal(total, n * (n + 1) / 2);
  /* Twice the counts: twice the stddev, by the sum and by the merge. */
  double sd = iospd_buckets_iops_stddev(&b);
  assert_true(sd > 0);
  assert_true(fabs(iospd_buckets_sum_iops_stddev(&sum) - 2 * sd) < 1e-9);
  assert_true(fabs(iospd_buckets_iops_stddev(&m) - 2 * sd) < 1e-9);
  iospd_buckets_sum_destroy(&sum);
  iospd_buckets_destroy(&m);
  iospd_buckets_destroy(&b);
}

/* A finished run holds 48 bytes per interval and a few bytes per chunk,
 * as the README states. */
static void test_finished_run_memory(void** state) {
  (void)state;
  iospd_buckets_t b;
  allocs = alloc_bytes = 0;
  iospd_alloc_set_gate(sum_gate);
  assert_int_equal(iospd_buckets_init(&b, 1, 60000), 0); /* -d60 -D1 */
  for (uint64_t t = 0; t < 60000; t++) {
    assert_int_equal(iospd_buckets_grow(&b, t * MS), 0);
    iospd_buckets_add(&b, t * MS + 5, 100, 4096);
  }
  iospd_alloc_set_gate(NULL);
  assert_int_equal(sizeof(iospd_bucket_t), 48);
  assert_int_equal(b.used, 60000);
  assert_int_equal(allocs, 60);
  assert_true(alloc_bytes <= 60000 * 48 + 60 * 64);
  assert_true(fabs(iospd_buckets_iops_stddev(&b)) < 1e-9); /* 1 per ms */
  iospd_buckets_destroy(&b);
}

/* The controller starved: the recorder appends the chunk it needs at that
 * interval boundary rather than lose the completion, and the controller
 * later carries on after it. */
static void test_late_controller(void** state) {
  (void)state;
  iospd_buckets_t b;
  assert_int_equal(iospd_buckets_init(&b, 1, 100000), 0);
  assert_int_equal(b.reserved, 3000);
  iospd_buckets_add(&b, 2999 * MS, 10, 512);
  iospd_buckets_add(&b, 5500 * MS, 20, 512); /* two chunks past */
  iospd_buckets_add(&b, 5500 * MS + 1, 30, 512);
  assert_int_equal(b.late_chunks, 3);
  assert_int_equal(b.lost, 0);
  assert_int_equal(iospd_buckets_get(&b, 2999)->count, 1);
  assert_int_equal(iospd_buckets_get(&b, 5500)->count, 2);
  assert_int_equal(iospd_buckets_get(&b, 4000)->count, 0);
  assert_int_equal(iospd_buckets_grow(&b, 5500 * MS), 0);
  assert_int_equal(b.reserved, 8000);
  iospd_buckets_add(&b, 7999 * MS, 40, 512);
  assert_int_equal(b.late_chunks, 3);
  /* Out of memory: counted as lost, never a crash. */
  iospd_alloc_set_gate(no_gate);
  iospd_buckets_add(&b, 9000 * MS, 50, 512);
  iospd_alloc_set_gate(NULL);
  assert_int_equal(b.lost, 1);
  assert_int_equal(b.used, 8000);
  iospd_buckets_add(&b, 7999 * MS + 3, 60, 512); /* back: still recorded */
  assert_int_equal(iospd_buckets_get(&b, 7999)->count, 2);
  iospd_buckets_destroy(&b);
}

/* A worker thread records through many chunks while this thread (the
 * controller) grows the series: every completion lands where it belongs. */
typedef struct race_s {
  iospd_buckets_t* b;
  _Atomic uint64_t now_ns; /* the recorder's clock, read by the grower */
  _Atomic int done;
} race_t;

static void recorder(void* arg) {
  race_t* r = arg;
  iospd_hot_enter();
  for (uint64_t t = 0; t < 20000; t++) {
    uint64_t ns = t * MS;
    atomic_store(&r->now_ns, ns);
    iospd_buckets_add(r->b, ns, 1000, 512);
    iospd_buckets_add(r->b, ns + MS / 2, 1000, 512);
  }
  iospd_hot_leave();
  atomic_store(&r->done, 1);
}

static void test_grow_while_recording(void** state) {
  (void)state;
  iospd_buckets_t b;
  assert_int_equal(iospd_buckets_init(&b, 1, 20000), 0);
  race_t r = {&b, 0, 0};
  iospd_err_t err;
  iospd_thread_opts_t o = {false, 0, IOSPD_CPU_ANY};
  iospd_plat_thread_t* t;
  assert_int_equal(iospd_plat_thread_start(&t, &o, recorder, &r, &err), 0);
  while (!atomic_load(&r.done))
    assert_int_equal(iospd_buckets_grow(&b, atomic_load(&r.now_ns)), 0);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(b.used, 20000);
  assert_int_equal(b.lost, 0);
  uint64_t n = 0;
  for (uint32_t i = 0; i < 20000; i++) {
    assert_int_equal(iospd_buckets_get(&b, i)->count, 2);
    n += 2;
  }
  assert_int_equal(n, 40000);
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
      cmocka_unit_test(test_init_reserves_only_ahead),
      cmocka_unit_test(test_values_across_chunk_boundaries),
      cmocka_unit_test(test_finished_run_memory),
      cmocka_unit_test(test_late_controller),
      cmocka_unit_test(test_grow_while_recording),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
