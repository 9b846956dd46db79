/* SPDX-License-Identifier: MIT */
/* The histogram's sparse form (JSON results, merging): export then import
 * gives an identical histogram for random samples of many shapes, bucket
 * bounds hold their samples, import refuses what is not a bucket bound, and
 * the 128-bit decimal text round-trips. */
#include "test_util.h"

#include <math.h>

#include "iospd/error.h"
#include "iospd/hist.h"

static uint64_t rng_state;
static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}
static double rnd01(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }

static uint64_t draw(int kind) {
  switch (kind) {
    case 0: return rnd() % 10000000;                       /* < 10 ms */
    case 1: return (uint64_t)(-log(1 - rnd01()) * 100000); /* exp */
    case 2: return 9990000 + rnd() % 30000;                /* around 10 ms */
    case 3: return 10000000 + rnd() % 990000000;           /* 10 ms .. 1 s */
    case 4: return rnd() % UINT64_C(20000000000000);       /* up to 5.5 h */
    default: return rnd() % 1000;                          /* sub-us */
  }
}

static const double kPcts[] = {0,      1,       25,       50,        90,
                               99,     99.9,    99.99,    99.999,    99.9999,
                               99.99999, 99.999999, 99.9999999, 100, 33.3};

/* Export h into a fresh histogram through the public sparse interface. */
static iospd_hist_t* roundtrip(const iospd_hist_t* h) {
  iospd_hist_t* g = iospd_hist_create();
  assert_non_null(g);
  iospd_hist_bucket_t b;
  uint32_t pos = 0;
  uint64_t prev_hi = 0, sum = 0;
  while (iospd_hist_next_bucket(h, &pos, &b)) {
    assert_true(b.count > 0);
    assert_true(b.lo_ns < b.hi_ns);
    assert_true(b.lo_ns >= prev_hi); /* ascending, disjoint */
    prev_hi = b.hi_ns;
    sum += b.count;
    assert_int_equal(iospd_hist_add_bucket(g, b.lo_ns, b.count), 0);
  }
  assert_false(iospd_hist_next_bucket(h, &pos, &b)); /* stays at the end */
  assert_int_equal(sum, iospd_hist_count(h));
  iospd_hist_exact_t e;
  iospd_hist_get_exact(h, &e);
  iospd_hist_set_exact(g, &e);
  assert_int_equal(iospd_hist_check(g), 0);
  return g;
}

static void assert_identical(const iospd_hist_t* a, const iospd_hist_t* b) {
  /* The layout is fixed-size and the struct holds no padding or pointers:
   * byte equality is identity. */
  assert_memory_equal(a, b, IOSPD_HIST_BYTES);
  /* Through volatile doubles: on i686 (x87) a result still in an 80-bit
   * register would otherwise be compared with one already rounded to 64
   * bits, and identical inputs would seem to differ. */
  volatile double x, y;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(kPcts); i++) {
    x = iospd_hist_percentile_ns(a, kPcts[i]);
    y = iospd_hist_percentile_ns(b, kPcts[i]);
    assert_true(x == y);
  }
  x = iospd_hist_mean_ns(a);
  y = iospd_hist_mean_ns(b);
  assert_true(x == y);
  x = iospd_hist_stddev_ns(a);
  y = iospd_hist_stddev_ns(b);
  assert_true(x == y);
  assert_int_equal(iospd_hist_bucket_count(a), iospd_hist_bucket_count(b));
}

static void test_export_import_identical(void** state) {
  (void)state;
  for (int kind = 0; kind <= 5; kind++) {
    for (int rep = 0; rep < 3; rep++) {
      rng_state = UINT64_C(0x9E3779B97F4A7C15) * (uint64_t)(kind * 7 + rep + 1);
      iospd_hist_t* h = iospd_hist_create();
      assert_non_null(h);
      size_t n = 1 + (size_t)(rnd() % 50000);
      for (size_t i = 0; i < n; i++) iospd_hist_record(h, draw(kind));
      iospd_hist_t* g = roundtrip(h);
      assert_identical(h, g);
      iospd_hist_destroy(g);
      iospd_hist_destroy(h);
    }
  }
}

static void test_empty_roundtrip(void** state) {
  (void)state;
  iospd_hist_t* h = iospd_hist_create();
  iospd_hist_t* g = roundtrip(h);
  assert_identical(h, g);
  iospd_hist_exact_t e;
  iospd_hist_get_exact(g, &e);
  assert_int_equal(e.count, 0);
  assert_int_equal(e.min_ns, 0);
  iospd_hist_destroy(g);
  iospd_hist_destroy(h);
}

/* Every sample lies in the bounds of the one bucket it lands in. */
static void test_bounds_hold_their_sample(void** state) {
  (void)state;
  static const uint64_t edges[] = {
      0,       499,      500,      999,      1000,     1499,    1500,
      9999499, 9999500,  10000499, 10000500, 10000501, 16777215, 16777216,
      UINT64_C(8796093022207), UINT64_C(8796093022208), UINT64_MAX};
  iospd_hist_t* h = iospd_hist_create();
  rng_state = 42;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(edges) + 2000; i++) {
    uint64_t x = i < IOSPD_ARRAY_SIZE(edges) ? edges[i] : draw((int)(i % 6));
    iospd_hist_reset(h);
    iospd_hist_record(h, x);
    iospd_hist_bucket_t b;
    uint32_t pos = 0;
    assert_true(iospd_hist_next_bucket(h, &pos, &b));
    assert_int_equal(b.count, 1);
    assert_true(b.lo_ns <= x);
    if (!b.open_end) assert_true(x < b.hi_ns);
    assert_false(iospd_hist_next_bucket(h, &pos, &b));
  }
  /* The documented bounds of a few buckets. */
  iospd_hist_reset(h);
  iospd_hist_record(h, 0);
  iospd_hist_record(h, 1200);
  iospd_hist_record(h, 10000600);
  iospd_hist_record(h, UINT64_C(1) << 50);
  iospd_hist_bucket_t b;
  uint32_t pos = 0;
  assert_true(iospd_hist_next_bucket(h, &pos, &b));
  assert_int_equal(b.lo_ns, 0);
  assert_int_equal(b.hi_ns, 500);
  assert_true(iospd_hist_next_bucket(h, &pos, &b));
  assert_int_equal(b.lo_ns, 500);
  assert_int_equal(b.hi_ns, 1500);
  assert_true(iospd_hist_next_bucket(h, &pos, &b));
  assert_int_equal(b.lo_ns, 10000500); /* the log region's first bucket */
  assert_int_equal(b.hi_ns, 611 * 16384);
  assert_true(iospd_hist_next_bucket(h, &pos, &b));
  assert_true(b.open_end);
  assert_int_equal(b.lo_ns, (UINT64_C(1) << 43) - (UINT64_C(1) << 33));
  assert_int_equal(b.hi_ns, UINT64_C(1) << 43);
  iospd_hist_destroy(h);
}

static void test_import_refuses_non_bounds(void** state) {
  (void)state;
  iospd_hist_t* h = iospd_hist_create();
  assert_int_equal(iospd_hist_add_bucket(h, 0, 1), 0);
  assert_int_equal(iospd_hist_add_bucket(h, 500, 1), 0);
  assert_int_equal(iospd_hist_add_bucket(h, 10000500, 1), 0);
  assert_int_equal(iospd_hist_add_bucket(h, 611 * 16384, 1), 0);
  assert_int_equal(iospd_hist_add_bucket(h, 1, 1), IOSPD_EINVAL);
  assert_int_equal(iospd_hist_add_bucket(h, 1000, 1), IOSPD_EINVAL);
  assert_int_equal(iospd_hist_add_bucket(h, 10000000, 1), IOSPD_EINVAL);
  assert_int_equal(iospd_hist_add_bucket(h, 610 * 16384, 1), IOSPD_EINVAL);
  assert_int_equal(iospd_hist_add_bucket(h, UINT64_C(1) << 43, 1),
                   IOSPD_EINVAL);
  assert_int_equal(iospd_hist_bucket_count(h), 4);
  /* Counts that do not add up to the exact count are caught. */
  iospd_hist_exact_t e = {5, 0, 611 * 16384, 0, 0, 0};
  iospd_hist_set_exact(h, &e);
  assert_int_equal(iospd_hist_check(h), IOSPD_EINVAL);
  e.count = 4;
  iospd_hist_set_exact(h, &e);
  assert_int_equal(iospd_hist_check(h), 0);
  e.min_ns = 600; /* not in the first non-empty bucket */
  iospd_hist_set_exact(h, &e);
  assert_int_equal(iospd_hist_check(h), IOSPD_EINVAL);
  iospd_hist_destroy(h);
}

/* Import of split histograms merges: two halves imported into one equal the
 * histogram of all samples. */
static void test_import_adds(void** state) {
  (void)state;
  iospd_hist_t *a = iospd_hist_create(), *b = iospd_hist_create(),
               *all = iospd_hist_create();
  rng_state = 7;
  for (int i = 0; i < 20000; i++) {
    uint64_t x = draw(i % 6);
    iospd_hist_record(i % 2 ? a : b, x);
    iospd_hist_record(all, x);
  }
  iospd_hist_t* ia = roundtrip(a);
  iospd_hist_t* ib = roundtrip(b);
  iospd_hist_merge(ia, ib);
  assert_identical(ia, all);
  iospd_hist_destroy(ia);
  iospd_hist_destroy(ib);
  iospd_hist_destroy(a);
  iospd_hist_destroy(b);
  iospd_hist_destroy(all);
}

static void test_u128_decimal(void** state) {
  (void)state;
  char buf[IOSPD_U128_DEC_MAX];
  uint64_t hi, lo;
  assert_int_equal(iospd_u128_to_dec(0, 0, buf), 1);
  assert_string_equal(buf, "0");
  iospd_u128_to_dec(0, UINT64_MAX, buf);
  assert_string_equal(buf, "18446744073709551615");
  iospd_u128_to_dec(1, 0, buf);
  assert_string_equal(buf, "18446744073709551616");
  assert_int_equal(iospd_u128_to_dec(UINT64_MAX, UINT64_MAX, buf), 39);
  assert_string_equal(buf, "340282366920938463463374607431768211455");
  assert_int_equal(
      iospd_u128_from_dec("340282366920938463463374607431768211455", &hi, &lo),
      0);
  assert_true(hi == UINT64_MAX && lo == UINT64_MAX);
  assert_int_equal(
      iospd_u128_from_dec("340282366920938463463374607431768211456", &hi, &lo),
      IOSPD_EINVAL);
  assert_int_equal(
      iospd_u128_from_dec("3402823669209384634633746074317682114550", &hi,
                          &lo),
      IOSPD_EINVAL);
  assert_int_equal(iospd_u128_from_dec("", &hi, &lo), IOSPD_EINVAL);
  assert_int_equal(iospd_u128_from_dec("01", &hi, &lo), IOSPD_EINVAL);
  assert_int_equal(iospd_u128_from_dec("-1", &hi, &lo), IOSPD_EINVAL);
  assert_int_equal(iospd_u128_from_dec("12a", &hi, &lo), IOSPD_EINVAL);
  assert_int_equal(iospd_u128_from_dec("0", &hi, &lo), 0);
  assert_true(hi == 0 && lo == 0);
  rng_state = 99;
  for (int i = 0; i < 10000; i++) {
    uint64_t h0 = i % 3 == 0 ? 0 : rnd() >> (rnd() % 64);
    uint64_t l0 = rnd();
    iospd_u128_to_dec(h0, l0, buf);
    assert_int_equal(iospd_u128_from_dec(buf, &hi, &lo), 0);
    assert_true(hi == h0 && lo == l0);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_export_import_identical),
      cmocka_unit_test(test_empty_roundtrip),
      cmocka_unit_test(test_bounds_hold_their_sample),
      cmocka_unit_test(test_import_refuses_non_bounds),
      cmocka_unit_test(test_import_adds),
      cmocka_unit_test(test_u128_decimal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
