/* SPDX-License-Identifier: MIT */
/* The live status line (issue #13): the formatter's exact text (numbers,
 * units, phases, errors, -L or not, what is left out at a given width) and
 * the tracker (short intervals summed into one refresh a second, long ones
 * still redrawing the clock every second, latency from merged histograms).
 * Pure core code: runs natively and under wine alike (latency means are
 * compared within 1e-12: i686's x87 rounds intermediates differently). */
#include "test_util.h"

#include "iospd/hist.h"
#include "iospd/status.h"

static char line[512];

static const char* fmt(const iospd_status_view_t* v, uint32_t width) {
  size_t n = iospd_status_line_format(line, sizeof line, v, width);
  assert_int_equal(n, strlen(line));
  assert_true(n <= width);
  return line;
}

/* 1/2 measuring, 12.3 s in, 17.7 s left, reads and writes at known rates. */
static iospd_status_view_t mixed(bool latency) {
  iospd_status_view_t v;
  memset(&v, 0, sizeof v);
  v.timespan = 0;
  v.timespan_count = 2;
  v.phase = IOSPD_PHASE_MEASURE;
  v.elapsed_ms = 12345;
  v.remaining_ms = 17655;
  v.show[0] = v.show[1] = true;
  v.has_rates = true;
  v.iops[0] = 12345.0;
  v.mib_s[0] = 48.22;
  v.iops[1] = 5123.0;
  v.mib_s[1] = 20.01;
  v.latency = latency;
  v.lat_known[0] = v.lat_known[1] = latency;
  v.lat_mean_ms[0] = 0.1234;
  v.lat_p99_ms[0] = 1.2341;
  v.lat_mean_ms[1] = 0.0871;
  v.lat_p99_ms[1] = 0.456;
  return v;
}

static void test_read_only_fits_80(void** state) {
  (void)state;
  iospd_status_view_t v = mixed(false);
  v.timespan_count = 1;
  v.show[1] = false;
  assert_string_equal(fmt(&v, 79),
                      "1/1 measuring | 0:12 elapsed | 0:18 left | "
                      "R 12.3k IOPS 48.2 MiB/s | 0 errors");
}

static void test_mixed_latency_full(void** state) {
  (void)state;
  iospd_status_view_t v = mixed(true);
  assert_string_equal(
      fmt(&v, 200),
      "1/2 measuring | 0:12 elapsed | 0:18 left | "
      "R 12.3k IOPS 48.2 MiB/s mean 0.123 p99 1.234 ms | "
      "W 5123 IOPS 20.0 MiB/s mean 0.087 p99 0.456 ms | 0 errors");
  assert_int_equal(strlen(line), 150);
}

/* Narrower and narrower: whole parts go, least useful first. */
static void test_truncation_order(void** state) {
  (void)state;
  iospd_status_view_t v = mixed(true);
  static const struct {
    uint32_t width;
    const char* want;
  } cases[] = {
      {150, "1/2 measuring | 0:12 elapsed | 0:18 left | "
            "R 12.3k IOPS 48.2 MiB/s mean 0.123 p99 1.234 ms | "
            "W 5123 IOPS 20.0 MiB/s mean 0.087 p99 0.456 ms | 0 errors"},
      {149, "1/2 measuring | 0:12 elapsed | 0:18 left | "
            "R 12.3k IOPS 48.2 MiB/s mean 0.123 p99 1.234 ms | "
            "W 5123 IOPS 20.0 MiB/s mean 0.087 p99 0.456 ms"},
      {139, "1/2 measuring | 0:12 elapsed | 0:18 left | "
            "R 12.3k IOPS 48.2 MiB/s mean 0.123 p99 1.234 ms | "
            "W 5123 IOPS 20.0 MiB/s mean 0.087 p99 0.456 ms"},
      {138, "1/2 measuring | 0:18 left | "
            "R 12.3k IOPS 48.2 MiB/s mean 0.123 p99 1.234 ms | "
            "W 5123 IOPS 20.0 MiB/s mean 0.087 p99 0.456 ms"},
      {123, "1/2 measuring | 0:18 left | "
            "R 12.3k IOPS 48.2 MiB/s mean 0.123 p99 1.234 ms | "
            "W 5123 IOPS 20.0 MiB/s"},
      {100, "1/2 measuring | 0:18 left | "
            "R 12.3k IOPS 48.2 MiB/s mean 0.123 p99 1.234 ms | "
            "W 5123 IOPS 20.0 MiB/s"},
      /* 80 columns (79 used, so the cursor never wraps): both rates. */
      {79, "1/2 measuring | 0:18 left | R 12.3k IOPS 48.2 MiB/s | "
           "W 5123 IOPS 20.0 MiB/s"},
      {75, "1/2 measuring | 0:18 left | R 12.3k IOPS 48.2 MiB/s"},
      {50, "1/2 measuring | 0:18 left"},
      {24, "1/2 measuring"},
      {13, "1/2 measuring"},
      {12, "1/2 measurin"}, /* only the head is ever cut */
      {0, ""},
  };
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(cases); i++) {
    const char* got = fmt(&v, cases[i].width);
    if (strcmp(got, cases[i].want) != 0)
      fail_msg("width %u: got '%s', want '%s'", cases[i].width, got,
               cases[i].want);
  }
  /* Wider than the longest line: nothing more, and the buffer's size and
   * IOSPD_STATUS_LINE_MAX bound it as well. */
  assert_int_equal(strlen(fmt(&v, 100000)), 150);
  char small[20];
  assert_int_equal(iospd_status_line_format(small, sizeof small, &v, 200), 13);
  assert_string_equal(small, "1/2 measuring");
}

/* Errors, once there are some, stay until only the head is left. */
static void test_errors(void** state) {
  (void)state;
  iospd_status_view_t v = mixed(false);
  v.timespan_count = 1;
  v.errors = 3;
  assert_string_equal(fmt(&v, 90),
                      "1/1 measuring | 0:18 left | R 12.3k IOPS 48.2 MiB/s | "
                      "W 5123 IOPS 20.0 MiB/s | 3 errors");
  assert_string_equal(fmt(&v, 30), "1/1 measuring | 3 errors");
  assert_string_equal(fmt(&v, 23), "1/1 measuring");
  v.errors = 1;
  assert_string_equal(fmt(&v, 30), "1/1 measuring | 1 error");
}

static void test_phases_and_no_rates_yet(void** state) {
  (void)state;
  iospd_status_view_t v;
  memset(&v, 0, sizeof v);
  v.timespan_count = 1;
  v.show[0] = true;
  v.latency = true;
  v.phase = IOSPD_PHASE_WARMUP;
  v.remaining_ms = 35000;
  assert_string_equal(fmt(&v, 79),
                      "1/1 warm-up | 0:00 elapsed | 0:35 left | 0 errors");
  v.phase = IOSPD_PHASE_COOLDOWN;
  v.timespan = 2;
  v.timespan_count = 3;
  v.elapsed_ms = 3600000; /* an hour */
  v.remaining_ms = 1;     /* rounded up: not "0:00" while 1 ms is left */
  assert_string_equal(fmt(&v, 79),
                      "3/3 cool-down | 1:00:00 elapsed | 0:01 left | 0 errors");
  v.remaining_ms = 0;
  v.elapsed_ms = 59999;
  assert_string_equal(fmt(&v, 79),
                      "3/3 cool-down | 0:59 elapsed | 0:00 left | 0 errors");
}

/* Three significant digits, with the unit steps at the rounding edges. */
static void test_numbers(void** state) {
  (void)state;
  static const struct {
    double iops, mib;
    const char* want;
  } rates[] = {
      {0.0, 0.0, "R 0 IOPS 0.00 MiB/s"},
      {9999.4, 9.994, "R 9999 IOPS 9.99 MiB/s"},
      {9999.5, 9.996, "R 10.0k IOPS 10.0 MiB/s"},
      {123456.0, 99.94, "R 123k IOPS 99.9 MiB/s"},
      {999499.0, 99.96, "R 999k IOPS 100 MiB/s"},
      {999500.0, 4823.4, "R 1.00M IOPS 4823 MiB/s"},
      {12345678.0, 999.4, "R 12.3M IOPS 999 MiB/s"},
  };
  iospd_status_view_t v = mixed(false);
  v.show[1] = false;
  char want[128];
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(rates); i++) {
    v.iops[0] = rates[i].iops;
    v.mib_s[0] = rates[i].mib;
    snprintf(want, sizeof want,
             "1/2 measuring | 0:12 elapsed | 0:18 left | %s | 0 errors",
             rates[i].want);
    assert_string_equal(fmt(&v, 200), want);
  }
  static const struct {
    double mean, p99;
    const char* want;
  } lat[] = {
      {0.0004, 9.9994, "mean 0.000 p99 9.999 ms"},
      {9.9996, 99.994, "mean 10.00 p99 99.99 ms"},
      {123.44, 999.96, "mean 123.4 p99 1000 ms"},
      {1234.6, 65432.1, "mean 1235 p99 65432 ms"},
  };
  v = mixed(true);
  v.show[1] = false;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(lat); i++) {
    v.lat_mean_ms[0] = lat[i].mean;
    v.lat_p99_ms[0] = lat[i].p99;
    snprintf(want, sizeof want,
             "1/2 measuring | 0:12 elapsed | 0:18 left | "
             "R 12.3k IOPS 48.2 MiB/s %s | 0 errors",
             lat[i].want);
    assert_string_equal(fmt(&v, 200), want);
  }
  /* -L, but no write ended in the window: nothing to average. */
  v = mixed(true);
  v.lat_known[1] = false;
  v.iops[1] = v.mib_s[1] = 0.0;
  assert_string_equal(
      fmt(&v, 200),
      "1/2 measuring | 0:12 elapsed | 0:18 left | "
      "R 12.3k IOPS 48.2 MiB/s mean 0.123 p99 1.234 ms | "
      "W 0 IOPS 0.00 MiB/s mean - p99 - ms | 0 errors");
}

/* ---- the tracker ---------------------------------------------------------- */

static iospd_target_t g_targets[2];
static iospd_timespan_t g_ts[2];
static iospd_profile_t g_p;

/* Two timespans: the first with -D<bucket_ms> (0: no -D) and -L as asked,
 * 70 % reads; the second 100 % reads, no -D. */
static const iospd_profile_t* profile(uint32_t bucket_ms, bool latency) {
  memset(&g_p, 0, sizeof g_p);
  memset(g_ts, 0, sizeof g_ts);
  memset(g_targets, 0, sizeof g_targets);
  g_targets[0].write_ratio = 30;
  g_targets[1].write_ratio = 0;
  g_ts[0].targets = &g_targets[0];
  g_ts[0].target_count = 1;
  g_ts[0].measure_latency = latency;
  g_ts[0].calc_iops_stddev = bucket_ms > 0;
  g_ts[0].io_bucket_ms = bucket_ms;
  g_ts[1].targets = &g_targets[1];
  g_ts[1].target_count = 1;
  g_p.timespans = g_ts;
  g_p.timespan_count = 2;
  return &g_p;
}

/* One interval of `ms` ending `end_ms` after measuring began (5 s warm-up,
 * 10 s measured, no cool-down) with the given I/O counts of 4 KiB. */
static iospd_interval_t interval(uint32_t ts, int64_t end_ms, uint32_t ms,
                                 uint64_t reads, uint64_t writes,
                                 const iospd_hist_t* rlat,
                                 const iospd_hist_t* wlat) {
  iospd_interval_t iv;
  memset(&iv, 0, sizeof iv);
  iv.timespan = ts;
  iv.timespan_count = 2;
  iv.start_ms = end_ms - (int64_t)ms;
  iv.end_ms = end_ms;
  iv.phase = end_ms <= 0 ? IOSPD_PHASE_WARMUP : IOSPD_PHASE_MEASURE;
  iv.elapsed_ms = (uint64_t)(end_ms + 5000);
  iv.remaining_ms = (uint64_t)(10000 - end_ms);
  iv.total.dir[0].ios = reads;
  iv.total.dir[0].bytes = reads * 4096;
  iv.total.dir[0].lat = rlat;
  iv.total.dir[1].ios = writes;
  iv.total.dir[1].bytes = writes * 4096;
  iv.total.dir[1].lat = wlat;
  return iv;
}

static iospd_run_tick_t tick(uint32_t ts, uint64_t elapsed_ms) {
  iospd_run_tick_t t = {.timespan = ts,
                        .timespan_count = 2,
                        .phase = elapsed_ms < 5000 ? IOSPD_PHASE_WARMUP
                                                   : IOSPD_PHASE_MEASURE,
                        .elapsed_ms = elapsed_ms,
                        .remaining_ms = 15000 - elapsed_ms};
  return t;
}

/* -D100: ten intervals make one refresh; its rates are over that second. */
static void test_tracker_sums_short_intervals(void** state) {
  (void)state;
  iospd_status_t* st = iospd_status_create(profile(100, false));
  assert_non_null(st);
  iospd_run_tick_t t = tick(0, 5000);
  assert_true(iospd_status_on_tick(st, &t)); /* the first tick draws */
  for (int i = 1; i <= 10; i++) {
    iospd_interval_t iv = interval(0, 100 * i, 100, 100 + i, 50, NULL, NULL);
    bool draw = iospd_status_on_interval(st, &iv);
    assert_int_equal(draw, i == 10);
    /* Ticks between them do not redraw: the intervals do, every second. */
    t = tick(0, 5000 + 100 * (uint64_t)i + 10);
    assert_false(iospd_status_on_tick(st, &t));
  }
  const iospd_status_view_t* v = iospd_status_view(st);
  assert_true(v->has_rates);
  assert_true(v->show[0] && v->show[1]);
  assert_false(v->latency);
  /* 1055 reads and 500 writes of 4 KiB in 1.000 s. */
  assert_true(v->iops[0] == 1055.0);
  assert_true(v->iops[1] == 500.0);
  assert_true(v->mib_s[1] == 500.0 * 4096 / 1048576.0);
  char buf[256];
  iospd_status_render(st, buf, sizeof buf, 200);
  assert_string_equal(buf,
                      "1/2 measuring | 0:06 elapsed | 0:09 left | "
                      "R 1055 IOPS 4.12 MiB/s | W 500 IOPS 1.95 MiB/s | "
                      "0 errors");
  /* A run whose intervals stop coming still has its clock redrawn, 1.5 s
   * after the last redraw (made at the clock's 5.910 s). */
  t = tick(0, 5910 + 1499);
  assert_false(iospd_status_on_tick(st, &t));
  t = tick(0, 5910 + 1500);
  assert_true(iospd_status_on_tick(st, &t));
  iospd_status_destroy(st);
}

/* The head follows the clock: a warm-up interval handed over after
 * measuring began changes the rates, not the phase shown; a new phase is
 * drawn at its first tick. */
static void test_tracker_phase_from_clock(void** state) {
  (void)state;
  iospd_status_t* st = iospd_status_create(profile(0, false));
  assert_non_null(st);
  iospd_run_tick_t t = tick(0, 4990);
  assert_true(iospd_status_on_tick(st, &t));
  assert_int_equal(iospd_status_view(st)->phase, IOSPD_PHASE_WARMUP);
  t = tick(0, 5005); /* measuring began: redrawn at once */
  assert_true(iospd_status_on_tick(st, &t));
  iospd_interval_t iv = interval(0, 0, 1000, 100, 0, NULL, NULL);
  assert_int_equal(iv.phase, IOSPD_PHASE_WARMUP);
  assert_true(iospd_status_on_interval(st, &iv));
  char buf[256];
  iospd_status_render(st, buf, sizeof buf, 200);
  assert_string_equal(buf,
                      "1/2 measuring | 0:05 elapsed | 0:10 left | "
                      "R 100 IOPS 0.39 MiB/s | W 0 IOPS 0.00 MiB/s | "
                      "0 errors");
  t = tick(0, 5105); /* same phase, just drawn: nothing to do */
  assert_false(iospd_status_on_tick(st, &t));
  iospd_status_destroy(st);
}

/* -D333: a refresh every third interval (999 ms counts as a second). */
static void test_tracker_d333(void** state) {
  (void)state;
  iospd_status_t* st = iospd_status_create(profile(333, false));
  assert_non_null(st);
  for (int i = 1; i <= 6; i++) {
    iospd_interval_t iv = interval(0, 333 * i, 333, 333, 0, NULL, NULL);
    assert_int_equal(iospd_status_on_interval(st, &iv), i % 3 == 0);
  }
  /* 999 reads in 999 ms. */
  assert_float_equal(iospd_status_view(st)->iops[0], 1000.0, 1e-9);
  iospd_status_destroy(st);
}

/* -D5000: the rates are those of the whole interval, and the clock is still
 * redrawn once per elapsed second in between. */
static void test_tracker_long_intervals(void** state) {
  (void)state;
  iospd_status_t* st = iospd_status_create(profile(5000, false));
  assert_non_null(st);
  int draws = 0;
  for (uint64_t ms = 5000; ms < 10000; ms += 100) {
    iospd_run_tick_t t = tick(0, ms);
    draws += iospd_status_on_tick(st, &t);
  }
  assert_int_equal(draws, 5); /* at 5.0, 6.0, 7.0, 8.0, 9.0 s */
  iospd_interval_t iv = interval(0, 5000, 5000, 5000, 2500, NULL, NULL);
  assert_true(iospd_status_on_interval(st, &iv));
  const iospd_status_view_t* v = iospd_status_view(st);
  assert_true(v->iops[0] == 1000.0);
  assert_true(v->iops[1] == 500.0);
  /* Just after the interval's redraw, the tick of the same second waits. */
  iospd_run_tick_t t = tick(0, 10050);
  assert_false(iospd_status_on_tick(st, &t));
  t = tick(0, 11000);
  assert_true(iospd_status_on_tick(st, &t));
  iospd_status_destroy(st);
}

/* -L: mean and p99 come from the window's merged histograms. */
static void test_tracker_latency(void** state) {
  (void)state;
  iospd_status_t* st = iospd_status_create(profile(500, true));
  assert_non_null(st);
  iospd_hist_t* a = iospd_hist_create();
  iospd_hist_t* b = iospd_hist_create();
  iospd_hist_t* none = iospd_hist_create();
  assert_non_null(a);
  assert_non_null(b);
  assert_non_null(none);
  /* First half second: 99 reads of 1 ms; second: one of 50 ms. */
  for (int i = 0; i < 99; i++) iospd_hist_record(a, 1000000);
  iospd_hist_record(b, 50000000);
  iospd_interval_t iv = interval(0, 500, 500, 99, 0, a, none);
  assert_false(iospd_status_on_interval(st, &iv));
  iv = interval(0, 1000, 500, 1, 0, b, none);
  assert_true(iospd_status_on_interval(st, &iv));
  const iospd_status_view_t* v = iospd_status_view(st);
  assert_true(v->latency);
  assert_true(v->lat_known[0]);
  assert_false(v->lat_known[1]); /* no write ended */
  assert_float_equal(v->lat_mean_ms[0], 1.49, 1e-12); /* (99 * 1 + 50) / 100 */
  assert_float_equal(v->lat_p99_ms[0], 1.0, 1e-12); /* 99th of 100 */
  /* The next window starts empty. */
  iospd_hist_reset(a);
  iospd_hist_record(a, 2000000);
  iv = interval(0, 1500, 500, 1, 0, a, none);
  assert_false(iospd_status_on_interval(st, &iv));
  iv = interval(0, 2000, 500, 1, 0, a, none);
  assert_true(iospd_status_on_interval(st, &iv));
  assert_float_equal(v->lat_mean_ms[0], 2.0, 1e-12);
  assert_float_equal(v->lat_p99_ms[0], 2.0, 1e-12);
  iospd_hist_destroy(a);
  iospd_hist_destroy(b);
  iospd_hist_destroy(none);
  iospd_status_destroy(st);
}

/* A new timespan: no stale rates, its own directions and interval; the
 * errors are the run's. */
static void test_tracker_next_timespan(void** state) {
  (void)state;
  iospd_status_t* st = iospd_status_create(profile(0, true));
  assert_non_null(st);
  iospd_interval_t iv = interval(0, 1000, 1000, 10, 10, NULL, NULL);
  iv.errors = 2;
  assert_true(iospd_status_on_interval(st, &iv));
  assert_true(iospd_status_view(st)->has_rates);
  iospd_run_tick_t t = tick(1, 0);
  assert_true(iospd_status_on_tick(st, &t));
  const iospd_status_view_t* v = iospd_status_view(st);
  assert_int_equal(v->timespan, 1);
  assert_false(v->has_rates);
  assert_true(v->show[0]);
  assert_false(v->show[1]); /* timespan 2 only reads */
  assert_false(v->latency); /* and has no -L */
  char buf[256];
  iospd_status_render(st, buf, sizeof buf, 79);
  assert_string_equal(buf, "2/2 warm-up | 0:00 elapsed | 0:15 left | 2 errors");
  iospd_status_destroy(st);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_read_only_fits_80),
      cmocka_unit_test(test_mixed_latency_full),
      cmocka_unit_test(test_truncation_order),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_phases_and_no_rates_yet),
      cmocka_unit_test(test_numbers),
      cmocka_unit_test(test_tracker_sums_short_intervals),
      cmocka_unit_test(test_tracker_phase_from_clock),
      cmocka_unit_test(test_tracker_d333),
      cmocka_unit_test(test_tracker_long_intervals),
      cmocka_unit_test(test_tracker_latency),
      cmocka_unit_test(test_tracker_next_timespan),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
