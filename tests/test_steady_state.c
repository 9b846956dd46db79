/* SPDX-License-Identifier: MIT */
/* The PTS steady-state test (iospd/steady_state.h) on synthetic round
 * series whose excursions are worked out by hand in the comments. */
#include "test_util.h"
#include "iospd/steady_state.h"

#include <math.h>

#define EPS 1e-9

/* cmocka 1.1 has no double comparison: one that prints both values. */
#define assert_double_equal(a, b, eps) near_((a), (b), (eps), #a, __LINE__)
static void near_(double got, double want, double eps, const char* what,
                  int line) {
  if (fabs(got - want) <= eps) return;
  print_error("line %d: %s = %.12g, want %.12g\n", line, what, got, want);
  fail();
}

static iospd_ss_limits_t pts(void) {
  iospd_ss_limits_t l;
  iospd_ss_limits_pts(&l);
  return l;
}

static void test_limits(void** state) {
  (void)state;
  iospd_ss_limits_t l = pts();
  assert_int_equal(l.window_rounds, 5);
  assert_int_equal(l.max_rounds, 25);
  assert_true(l.data_pct == 20.0 && l.slope_pct == 10.0);
}

/* 100 x 5: mean 100, no excursion at all. */
static void test_flat(void** state) {
  (void)state;
  const double y[] = {100, 100, 100, 100, 100};
  iospd_ss_limits_t l = pts();
  iospd_ss_window_t w;
  assert_true(iospd_ss_test(y, 5, &l, &w));
  assert_true(w.valid);
  assert_int_equal(w.first_round, 1);
  assert_int_equal(w.last_round, 5);
  assert_double_equal(w.mean, 100.0, EPS);
  assert_double_equal(w.data_excursion, 0.0, EPS);
  assert_double_equal(w.slope, 0.0, EPS);
  assert_double_equal(w.intercept, 100.0, EPS);
  assert_double_equal(w.slope_excursion, 0.0, EPS);
  assert_true(w.data_ok && w.slope_ok);
}

/* 100 108 95 104 93: sum 500, mean 100; max - min = 108 - 93 = 15 (15 %).
 * x - 2 = -2 -1 0 1 2, y - mean = 0 8 -5 4 -7: sxy = 0 - 8 + 0 + 4 - 14 =
 * -18, sxx = 10, slope -1.8, intercept 100 + 1.8 * 2 = 103.6; slope
 * excursion 1.8 * 4 = 7.2 (7.2 %). Both within. */
static void test_noisy_within(void** state) {
  (void)state;
  const double y[] = {100, 108, 95, 104, 93};
  iospd_ss_limits_t l = pts();
  iospd_ss_window_t w;
  assert_true(iospd_ss_test(y, 5, &l, &w));
  assert_double_equal(w.mean, 100.0, EPS);
  assert_double_equal(w.data_excursion, 15.0, EPS);
  assert_double_equal(w.data_excursion_pct, 15.0, EPS);
  assert_double_equal(w.slope, -1.8, EPS);
  assert_double_equal(w.intercept, 103.6, EPS);
  assert_double_equal(w.slope_excursion, 7.2, EPS);
  assert_double_equal(w.slope_excursion_pct, 7.2, EPS);
  assert_double_equal(w.values[1], 108.0, EPS);
  assert_true(w.data_ok && w.slope_ok);
}

/* 90 110 100 100 100: mean 100, data excursion 20 = exactly 20 %: passes
 * (the limit is inclusive); slope: y - mean = -10 10 0 0 0, sxy = 20 - 10
 * = 10, slope 1, excursion 4 (4 %). With 111 in place of 110 and 99 for
 * the fourth (sum still 500): 111 - 90 = 21 > 20: fails. */
static void test_limit_inclusive(void** state) {
  (void)state;
  const double at[] = {90, 110, 100, 100, 100};
  const double over[] = {90, 111, 100, 99, 100};
  iospd_ss_limits_t l = pts();
  iospd_ss_window_t w;
  assert_true(iospd_ss_test(at, 5, &l, &w));
  assert_double_equal(w.data_excursion_pct, 20.0, EPS);
  assert_double_equal(w.slope_excursion, 4.0, EPS);
  assert_false(iospd_ss_test(over, 5, &l, &w));
  assert_double_equal(w.data_excursion, 21.0, EPS);
  assert_false(w.data_ok);
  assert_true(w.slope_ok);
}

/* One outlier, 100 100 150 100 100: mean 110, data excursion 50 = 45.45 %
 * (fails); y - mean = -10 -10 40 -10 -10 is symmetric about the middle:
 * sxy = 20 + 10 + 0 - 10 - 20 = 0, slope 0 (passes). */
static void test_outlier(void** state) {
  (void)state;
  const double y[] = {100, 100, 150, 100, 100};
  iospd_ss_limits_t l = pts();
  iospd_ss_window_t w;
  assert_false(iospd_ss_test(y, 5, &l, &w));
  assert_double_equal(w.mean, 110.0, EPS);
  assert_double_equal(w.data_excursion, 50.0, EPS);
  assert_double_equal(w.data_excursion_pct, 50.0 / 110.0 * 100.0, EPS);
  assert_double_equal(w.slope, 0.0, EPS);
  assert_false(w.data_ok);
  assert_true(w.slope_ok);
}

/* A steady drift, 92 96 100 104 108: mean 100, data excursion 16 (16 %,
 * passes); slope 4 per round, intercept 92, slope excursion 4 * 4 = 16
 * (16 % > 10 %: fails). */
static void test_drift(void** state) {
  (void)state;
  const double y[] = {92, 96, 100, 104, 108};
  iospd_ss_limits_t l = pts();
  iospd_ss_window_t w;
  assert_false(iospd_ss_test(y, 5, &l, &w));
  assert_double_equal(w.data_excursion_pct, 16.0, EPS);
  assert_double_equal(w.slope, 4.0, EPS);
  assert_double_equal(w.intercept, 92.0, EPS);
  assert_double_equal(w.slope_excursion, 16.0, EPS);
  assert_double_equal(w.slope_excursion_pct, 16.0, EPS);
  assert_true(w.data_ok);
  assert_false(w.slope_ok);
}

/* Four rounds: no window yet, whatever the values; go on. */
static void test_fewer_than_window(void** state) {
  (void)state;
  const double y[] = {100, 100, 100, 100};
  iospd_ss_limits_t l = pts();
  iospd_ss_window_t w;
  assert_false(iospd_ss_test(y, 4, &l, &w));
  assert_false(w.valid);
  assert_int_equal(iospd_ss_after_round(y, 4, &l, &w), IOSPD_SS_CONTINUE);
  assert_int_equal(iospd_ss_after_round(y, 0, &l, &w), IOSPD_SS_CONTINUE);
}

/* The window is the last five rounds: 10 20 30 40 then 100s. After round
 * 8 the window is rounds 4..8 = 40 100 100 100 100 (mean 88, excursion 60:
 * 68 %, no); after round 9 it is rounds 5..9, all 100: steady. */
static void test_window_slides(void** state) {
  (void)state;
  const double y[] = {10, 20, 30, 40, 100, 100, 100, 100, 100};
  iospd_ss_limits_t l = pts();
  iospd_ss_window_t w;
  for (uint32_t r = 1; r <= 8; r++)
    assert_int_equal(iospd_ss_after_round(y, r, &l, &w), IOSPD_SS_CONTINUE);
  assert_int_equal(w.first_round, 4);
  assert_double_equal(w.mean, 88.0, EPS);
  assert_double_equal(w.data_excursion, 60.0, EPS);
  assert_int_equal(iospd_ss_after_round(y, 9, &l, &w), IOSPD_SS_STEADY);
  assert_int_equal(w.first_round, 5);
  assert_int_equal(w.last_round, 9);
}

/* 50 150 50 150 ...: never steady; round 24 goes on, round 25 is the cap
 * with the last window (rounds 21..25 = 50 150 50 150 50: mean 90,
 * excursion 100) reported. A window that holds at round 25 is steady, not
 * the cap. */
static void test_cap(void** state) {
  (void)state;
  double y[25];
  for (int i = 0; i < 25; i++) y[i] = i % 2 == 0 ? 50 : 150;
  iospd_ss_limits_t l = pts();
  iospd_ss_window_t w;
  assert_int_equal(iospd_ss_after_round(y, 24, &l, &w), IOSPD_SS_CONTINUE);
  assert_int_equal(iospd_ss_after_round(y, 25, &l, &w), IOSPD_SS_MAX_ROUNDS);
  assert_true(w.valid);
  assert_int_equal(w.first_round, 21);
  assert_int_equal(w.last_round, 25);
  assert_double_equal(w.mean, 90.0, EPS);
  assert_double_equal(w.data_excursion, 100.0, EPS);
  for (int i = 20; i < 25; i++) y[i] = 100;
  assert_int_equal(iospd_ss_after_round(y, 25, &l, &w), IOSPD_SS_STEADY);
  /* No cap (--steady-state): round 100 still goes on. */
  double z[100];
  for (int i = 0; i < 100; i++) z[i] = i % 2 == 0 ? 50 : 150;
  l.max_rounds = 0;
  assert_int_equal(iospd_ss_after_round(z, 100, &l, &w), IOSPD_SS_CONTINUE);
}

/* A window of 3 with other limits; and a mean of 0 is never steady. */
static void test_other_window_and_zero(void** state) {
  (void)state;
  iospd_ss_limits_t l = {.window_rounds = 3, .data_pct = 5, .slope_pct = 2,
                         .max_rounds = 0};
  iospd_ss_window_t w;
  /* 200 | 100 102 98: mean 100, excursion 4 (4 %), slope -1, excursion 2
   * (2 %): both at or within. */
  const double y[] = {200, 100, 102, 98};
  assert_true(iospd_ss_test(y, 4, &l, &w));
  assert_int_equal(w.first_round, 2);
  assert_int_equal(w.n, 3);
  assert_double_equal(w.slope, -1.0, EPS);
  assert_double_equal(w.slope_excursion, 2.0, EPS);
  const double zero[] = {0, 0, 0, 0, 0};
  l = pts();
  assert_false(iospd_ss_test(zero, 5, &l, &w));
  assert_true(w.valid);
  assert_true(w.data_excursion_pct < 0 && w.slope_excursion_pct < 0);
  assert_false(w.data_ok || w.slope_ok);
}

static void test_metrics(void** state) {
  (void)state;
  assert_int_equal(iospd_ss_metric_find("iops", 4), IOSPD_SS_METRIC_IOPS);
  assert_int_equal(iospd_ss_metric_find("throughput", 10),
                   IOSPD_SS_METRIC_THROUGHPUT);
  assert_int_equal(iospd_ss_metric_find("latency", 7), IOSPD_SS_METRIC_LATENCY);
  assert_int_equal(iospd_ss_metric_find("iop", 3), -1);
  assert_string_equal(iospd_ss_metric_def(IOSPD_SS_METRIC_THROUGHPUT)->json,
                      "mib_per_s");
  assert_string_equal(iospd_ss_metric_def(IOSPD_SS_METRIC_LATENCY)->json,
                      "mean_latency_us");
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_ss_metric_list(&sb);
  assert_string_equal(iospd_strbuf_cstr(&sb), "iops, throughput or latency");
  iospd_strbuf_destroy(&sb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_limits),
      cmocka_unit_test(test_flat),
      cmocka_unit_test(test_noisy_within),
      cmocka_unit_test(test_limit_inclusive),
      cmocka_unit_test(test_outlier),
      cmocka_unit_test(test_drift),
      cmocka_unit_test(test_fewer_than_window),
      cmocka_unit_test(test_window_slides),
      cmocka_unit_test(test_cap),
      cmocka_unit_test(test_other_window_and_zero),
      cmocka_unit_test(test_metrics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
