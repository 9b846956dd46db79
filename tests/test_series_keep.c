/* SPDX-License-Identifier: MIT */
/* The in-memory time series for the HTML report (src/report/series_keep.c):
 * the rows are the .jsonl rows, appended per interval, whole intervals
 * only, and the cap drops (and counts) intervals instead of growing. */
#include "iospd/alloc.h"
#include "iospd/profile.h"
#include "iospd/series_keep.h"
#include "iospd/series_out.h"
#include "test_util.h"

typedef struct {
  iospd_profile_t p;
  iospd_timespan_t ts;
  iospd_target_t targets[2];
  iospd_series_row_t rows[2];
  iospd_interval_t iv;
} fix_t;

static void fix_init(fix_t* f) {
  memset(f, 0, sizeof *f);
  f->targets[0].path = "a.dat";
  f->targets[1].path = "b\"c.dat";
  f->ts.targets = f->targets;
  f->ts.target_count = 2;
  f->p.timespans = &f->ts;
  f->p.timespan_count = 1;
  f->rows[0].dir[0] = (iospd_series_dir_t){3, 3 * 4096, NULL};
  f->rows[1].dir[1] = (iospd_series_dir_t){1, 65536, NULL};
  f->iv.phase = IOSPD_PHASE_MEASURE;
  f->iv.target_count = 2;
  f->iv.targets = f->rows;
  f->iv.total.dir[0] = f->rows[0].dir[0];
  f->iv.total.dir[1] = f->rows[1].dir[1];
}

static void at(fix_t* f, int64_t start) {
  f->iv.start_ms = start;
  f->iv.end_ms = start + 500;
}

static void test_rows_are_the_jsonl_rows(void** state) {
  (void)state;
  fix_t f;
  fix_init(&f);
  iospd_series_keep_t* k = iospd_series_keep_create(&f.p, 1 << 20);
  assert_non_null(k);
  iospd_strbuf_t want;
  iospd_strbuf_init(&want);
  for (int i = 0; i < 3; i++) {
    at(&f, i * 500);
    iospd_series_keep_interval(k, &f.iv);
    iospd_series_jsonl_rows(&want, &f.iv, &f.ts, false, NULL);
  }
  size_t len = 0;
  const char* text = iospd_series_keep_text(k, &len);
  assert_int_equal(len, want.len);
  assert_memory_equal(text, iospd_strbuf_cstr(&want), len);
  /* 3 intervals x (2 targets + total) */
  size_t lines = 0;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  assert_int_equal(lines, 9);
  assert_non_null(strstr(text, "\"path\":\"b\\\"c.dat\""));
  assert_int_equal(iospd_series_keep_dropped(k), 0);
  iospd_strbuf_destroy(&want);
  iospd_series_keep_destroy(k);
}

static void test_cap_drops_whole_intervals(void** state) {
  (void)state;
  fix_t f;
  fix_init(&f);
  iospd_strbuf_t one;
  iospd_strbuf_init(&one);
  at(&f, 0);
  iospd_series_jsonl_rows(&one, &f.iv, &f.ts, false, NULL);
  /* room for two intervals and a bit */
  iospd_series_keep_t* k = iospd_series_keep_create(&f.p, 2 * one.len + 10);
  for (int i = 0; i < 5; i++) {
    at(&f, 0); /* same length of text each time */
    iospd_series_keep_interval(k, &f.iv);
  }
  size_t len = 0;
  iospd_series_keep_text(k, &len);
  assert_int_equal(len, 2 * one.len);
  assert_int_equal(iospd_series_keep_dropped(k), 3);
  iospd_strbuf_destroy(&one);
  iospd_series_keep_destroy(k);
}

static void test_null_keeper(void** state) {
  (void)state;
  fix_t f;
  fix_init(&f);
  iospd_series_keep_interval(NULL, &f.iv);
  size_t len = 1;
  assert_string_equal(iospd_series_keep_text(NULL, &len), "");
  assert_int_equal(len, 0);
  assert_int_equal(iospd_series_keep_dropped(NULL), 0);
  iospd_series_keep_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rows_are_the_jsonl_rows),
      cmocka_unit_test(test_cap_drops_whole_intervals),
      cmocka_unit_test(test_null_keeper),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
