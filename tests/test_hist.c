/* SPDX-License-Identifier: MIT */
/* The latency histogram against brute force: nearest-rank percentiles of
 * sorted arrays for many distributions (fixed seeds), the print-exactness
 * below 10 ms and the 0.1 % bound above, exact moments, and merging. */
#include "test_util.h"

#include <math.h>

#include "iospd/alloc.h"
#include "iospd/hist.h"

static uint64_t rng_state;
static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}
static double rnd01(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

static int cmp_u64(const void* a, const void* b) {
  uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return x < y ? -1 : x > y;
}

/* Reference nearest rank: smallest k with k >= p/100 * N (k >= 1). */
static uint64_t exact_pct(const uint64_t* sorted, size_t n, double p) {
  if (p <= 0) return sorted[0];
  if (p >= 100) return sorted[n - 1];
  /* rank k = ceil(n × p / 100), exactly: p has at most 7 decimals */
  uint64_t pp = (uint64_t)(p * 1e7 + 0.5);
  uint64_t k = ((uint64_t)n * pp + 999999999u) / 1000000000u;
  if (k == 0) k = 1;
  return sorted[k - 1];
}

static const double kPcts[] = {0,    1,     5,      10,      25,       50,
                               75,   90,    95,     99,      99.9,     99.99,
                               99.999, 99.9999, 99.99999, 99.999999,
                               99.9999999, 100, 33.3, 66.6, 12.5, 87.5};

/* Distributions, in ns. */
static uint64_t draw(int kind) {
  switch (kind) {
    case 0: return rnd() % 10000000;                      /* uniform < 10 ms */
    case 1: return (uint64_t)(-log(1 - rnd01()) * 100000); /* exp, mean 100us */
    case 2: return (uint64_t)exp(9 + 3 * rnd01() * rnd01() * 4); /* lognormal-ish */
    case 3: return rnd() % 1000;                           /* sub-microsecond */
    case 4: return rnd01() < 0.5 ? 20000 + rnd() % 3000 : 5000000 + rnd() % 2000000;
    case 5: return 10000000 + rnd() % 990000000;           /* 10 ms .. 1 s */
    case 6: return (uint64_t)(1e4 / pow(1 - rnd01(), 1.2)); /* pareto tail */
    case 7: return 9999000 + rnd() % 2000;                 /* around 10 ms */
    case 8: return 123456;                                 /* constant */
    default: return rnd() % UINT64_C(200000000000);        /* up to 200 s */
  }
}

static void check_distribution(int kind, size_t n, uint64_t seed) {
  rng_state = seed;
  uint64_t* v = malloc(n * sizeof *v);
  assert_non_null(v);
  iospd_hist_t* h = iospd_hist_create();
  assert_non_null(h);
  for (size_t i = 0; i < n; i++) {
    v[i] = draw(kind);
    iospd_hist_record(h, v[i]);
  }
  qsort(v, n, sizeof *v, cmp_u64);
  assert_int_equal(iospd_hist_count(h), n);
  assert_int_equal(iospd_hist_min_ns(h), v[0]);
  assert_int_equal(iospd_hist_max_ns(h), v[n - 1]);

  /* Two-pass mean and population stddev. */
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += (double)v[i];
  double mean = sum / (double)n, ss = 0;
  for (size_t i = 0; i < n; i++) ss += ((double)v[i] - mean) * ((double)v[i] - mean);
  double sd = sqrt(ss / (double)n);
  assert_true(fabs(iospd_hist_mean_ns(h) - mean) <= 1e-9 * mean + 1e-9);
  assert_true(fabs(iospd_hist_stddev_ns(h) - sd) <= 1e-7 * sd + 1e-6);

  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(kPcts); i++) {
    double p = kPcts[i];
    uint64_t ex = exact_pct(v, n, p);
    double got = iospd_hist_percentile_ns(h, p);
    assert_true(got >= (double)v[0] && got <= (double)v[n - 1]);
    if (ex < 10000000) {
      /* Must print exactly like the true value at %.3f ms: compare the value
       * rounded to the microsecond (the printed digits), and the printf text
       * itself except at exact half-microsecond ties. */
      uint64_t g = (uint64_t)got;
      assert_true((double)g == got);
      if ((g + 500) / 1000 != (ex + 500) / 1000) {
        print_message("kind %d p %g: got %.0f ns, exact %llu ns\n", kind, p,
                      got, (unsigned long long)ex);
        fail();
      }
      if (ex % 1000 != 500 && g % 1000 != 500) {
        char a[32], b[32];
        snprintf(a, sizeof a, "%.3f", got / 1e6);
        snprintf(b, sizeof b, "%.3f", (double)ex / 1e6);
        assert_string_equal(a, b);
      }
    } else {
      double rel = fabs(got - (double)ex) / (double)ex;
      if (rel > 0.001) {
        print_message("kind %d p %g: got %.0f, exact %llu, rel %g\n", kind, p,
                      got, (unsigned long long)ex, rel);
        fail();
      }
    }
  }
  iospd_hist_destroy(h);
  free(v);
}

static void test_percentiles_match_brute_force(void** state) {
  (void)state;
  for (int kind = 0; kind < 10; kind++) {
    check_distribution(kind, 20000, 0x9e3779b97f4a7c15ull + (uint64_t)kind);
    check_distribution(kind, 7, 0x1234567ull + (uint64_t)kind);
    check_distribution(kind, 1, 0x42ull + (uint64_t)kind);
  }
}

/* When p% of n is a whole number m, the percentile is the m-th smallest
 * sample, on every FPU. gcc's 32-bit x87 code kept p / 100 * n in 80 bits
 * (99.9 / 100 * 10000 = 9990.0000000000006, not 9990), so the x86 iospd.exe
 * reported the next bucket's latency for the 3-nines row. */
static void test_percentile_rank_is_exact_on_every_fpu(void** state) {
  (void)state;
  static const struct {
    double p;
    uint64_t n;
  } cases[] = {{99.9, 10000}, {99.9, 1000}, {99.99, 10000},
               {99.99, 100000}, {99.999, 100000}, {99, 100}, {95, 20}};
  iospd_hist_t* h = iospd_hist_create();
  for (size_t c = 0; c < IOSPD_ARRAY_SIZE(cases); c++) {
    uint64_t n = cases[c].n;
    uint64_t m = (uint64_t)(cases[c].p * 1000 + 0.5) * n / 100000; /* exact */
    iospd_hist_reset(h);
    for (uint64_t i = 0; i < m; i++) iospd_hist_record(h, 100000); /* 0.1 ms */
    for (uint64_t i = m; i < n; i++) iospd_hist_record(h, 200000);
    double got = iospd_hist_percentile_ns(h, cases[c].p);
    if (got != 100000.0) {
      print_message("p %g of %llu samples (%llu at 100000 ns): got %.0f ns\n",
                    cases[c].p, (unsigned long long)n, (unsigned long long)m, got);
      fail();
    }
  }
  iospd_hist_destroy(h);
}

static void test_diskspd_examples(void** state) {
  (void)state;
  iospd_hist_t* h = iospd_hist_create();
  for (uint64_t us = 1; us <= 3; us++) iospd_hist_record(h, us * 1000);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 0), 1000);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 50), 2000);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 100), 3000);
  iospd_hist_reset(h);
  for (uint64_t us = 1; us <= 99; us++) iospd_hist_record(h, us * 1000);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 50), 50000);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 60), 60000);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 10), 10000);
  assert_int_equal((uint64_t)iospd_hist_mean_ns(h), 50000);
  /* population stddev of 1..99 us = sqrt((99^2 - 1) / 12) us */
  assert_true(fabs(iospd_hist_stddev_ns(h) - 1000 * sqrt(9800.0 / 12)) < 1e-6);
  assert_int_equal(iospd_hist_bucket_count(h), 99);
  iospd_hist_destroy(h);
}

static void test_empty_and_extremes(void** state) {
  (void)state;
  iospd_hist_t* h = iospd_hist_create();
  assert_int_equal(iospd_hist_count(h), 0);
  assert_int_equal(iospd_hist_min_ns(h), 0);
  assert_int_equal(iospd_hist_max_ns(h), 0);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 50), 0);
  assert_int_equal((uint64_t)iospd_hist_mean_ns(h), 0);
  assert_int_equal((uint64_t)iospd_hist_stddev_ns(h), 0);
  assert_int_equal(iospd_hist_bucket_count(h), 0);
  /* Values past the tracked range (2^43 ns) keep exact min/max. */
  iospd_hist_record(h, 0);
  iospd_hist_record(h, (UINT64_C(1) << 50) + 3);
  assert_int_equal(iospd_hist_min_ns(h), 0);
  assert_int_equal(iospd_hist_max_ns(h), (UINT64_C(1) << 50) + 3);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 100), (UINT64_C(1) << 50) + 3);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 75), (UINT64_C(1) << 50) + 3);
  assert_int_equal((uint64_t)iospd_hist_percentile_ns(h, 25), 0);
  iospd_hist_destroy(h);
}

static void test_merge_equals_union(void** state) {
  (void)state;
  rng_state = 777;
  iospd_hist_t* a = iospd_hist_create();
  iospd_hist_t* b = iospd_hist_create();
  iospd_hist_t* u = iospd_hist_create();
  iospd_hist_t* e = iospd_hist_create();
  for (int i = 0; i < 50000; i++) {
    uint64_t x = draw(i % 10);
    iospd_hist_record((rnd() & 1) ? a : b, x);
    iospd_hist_record(u, x);
  }
  iospd_hist_merge(a, e); /* merging an empty one changes nothing */
  iospd_hist_merge(e, a); /* into an empty one copies */
  iospd_hist_merge(e, b);
  assert_int_equal(iospd_hist_count(e), iospd_hist_count(u));
  assert_int_equal(iospd_hist_min_ns(e), iospd_hist_min_ns(u));
  assert_int_equal(iospd_hist_max_ns(e), iospd_hist_max_ns(u));
  assert_int_equal(iospd_hist_bucket_count(e), iospd_hist_bucket_count(u));
  double m = iospd_hist_mean_ns(u), s = iospd_hist_stddev_ns(u);
  assert_true(fabs(iospd_hist_mean_ns(e) - m) <= 1e-9 * m);
  assert_true(fabs(iospd_hist_stddev_ns(e) - s) <= 1e-9 * s);
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(kPcts); i++)
    assert_int_equal((uint64_t)iospd_hist_percentile_ns(e, kPcts[i]),
                     (uint64_t)iospd_hist_percentile_ns(u, kPcts[i]));
  iospd_hist_destroy(a);
  iospd_hist_destroy(b);
  iospd_hist_destroy(u);
  iospd_hist_destroy(e);
}

static size_t allocs;
static bool count_gate(size_t n) {
  (void)n;
  allocs++;
  return true;
}

/* Mean and stddev come from exact integer sums: values whose squares pass
 * 2^64 (alone and summed), and both merge orders, give the exact answers
 * bit for bit. */
static void test_exact_sums_at_large_values(void** state) {
  (void)state;
  iospd_hist_t* a = iospd_hist_create();
  iospd_hist_t* b = iospd_hist_create();
  iospd_hist_t* all = iospd_hist_create();
  assert_non_null(a);
  assert_non_null(b);
  assert_non_null(all);
  /* 4e9 and 4e9 + 2 (squares below 2^64, their sum far above): mean
   * 4e9 + 1, stddev exactly 1. */
  const uint64_t lo = UINT64_C(4000000000);
  for (uint32_t i = 0; i < 1000000; i++) {
    iospd_hist_record(i & 1 ? a : b, lo + 2 * (i & 1));
    iospd_hist_record(all, lo + 2 * (i & 1));
  }
  assert_int_equal(iospd_hist_count(all), 1000000);
  assert_true(iospd_hist_mean_ns(all) == 4000000001.0);
  assert_true(iospd_hist_stddev_ns(all) == 1.0);
  iospd_hist_t* ab = iospd_hist_create();
  iospd_hist_t* ba = iospd_hist_create();
  iospd_hist_merge(ab, a);
  iospd_hist_merge(ab, b);
  iospd_hist_merge(ba, b);
  iospd_hist_merge(ba, a);
  assert_true(iospd_hist_mean_ns(ab) == 4000000001.0);
  assert_true(iospd_hist_stddev_ns(ab) == 1.0);
  assert_true(iospd_hist_mean_ns(ba) == iospd_hist_mean_ns(ab));
  assert_true(iospd_hist_stddev_ns(ba) == iospd_hist_stddev_ns(ab));
  /* Above 2^32 ns (the 128-bit square path): 2^40 - 3, 2^40, 2^40 + 3:
   * mean 2^40, population variance 6. */
  iospd_hist_reset(a);
  const uint64_t big = UINT64_C(1) << 40;
  iospd_hist_record(a, big - 3);
  iospd_hist_record(a, big);
  iospd_hist_record(a, big + 3);
  assert_true(iospd_hist_mean_ns(a) == (double)big);
  assert_true(fabs(iospd_hist_stddev_ns(a) - sqrt(6.0)) < 1e-12);
  /* A mean that is not a whole number: 1, 2 -> 1.5, stddev 0.5. */
  iospd_hist_reset(b);
  iospd_hist_record(b, 1);
  iospd_hist_record(b, 2);
  assert_true(iospd_hist_mean_ns(b) == 1.5);
  assert_true(iospd_hist_stddev_ns(b) == 0.5);
  iospd_hist_destroy(a);
  iospd_hist_destroy(b);
  iospd_hist_destroy(all);
  iospd_hist_destroy(ab);
  iospd_hist_destroy(ba);
}

static void test_record_does_not_allocate(void** state) {
  (void)state;
  iospd_hist_t* h = iospd_hist_create();
  allocs = 0;
  iospd_alloc_set_gate(count_gate);
  for (uint64_t i = 0; i < 100000; i++) iospd_hist_record(h, i * 7919);
  iospd_alloc_set_gate(NULL);
  assert_int_equal(allocs, 0);
  assert_int_equal(iospd_hist_count(h), 100000);
  iospd_hist_destroy(h);
  /* Memory is fixed: the documented size. */
  assert_int_equal(IOSPD_HIST_BYTES, 161976);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_percentiles_match_brute_force),
      cmocka_unit_test(test_percentile_rank_is_exact_on_every_fpu),
      cmocka_unit_test(test_diskspd_examples),
      cmocka_unit_test(test_empty_and_extremes),
      cmocka_unit_test(test_merge_equals_union),
      cmocka_unit_test(test_record_does_not_allocate),
      cmocka_unit_test(test_exact_sums_at_large_values),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
