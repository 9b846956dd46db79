/* SPDX-License-Identifier: MIT */
/* The --timeseries formats (src/report/series_*.c): the extension rule,
 * the CSV header and rows, the JSON Lines objects, quoting and escaping,
 * rates over the interval's own length, and latency of the interval alone
 * (empty where a direction had no I/O). */
#include "iospd/alloc.h"
#include "iospd/hist.h"
#include "iospd/profile.h"
#include "iospd/series_out.h"
#include "test_util.h"

static void test_format_of(void** state) {
  (void)state;
  assert_int_equal(iospd_series_format_of("run.csv"), IOSPD_SERIES_CSV);
  assert_int_equal(iospd_series_format_of("C:\\out\\RUN.CSV"), IOSPD_SERIES_CSV);
  assert_int_equal(iospd_series_format_of("a/b.JsonL"), IOSPD_SERIES_JSONL);
  assert_int_equal(iospd_series_format_of("a.json"), IOSPD_SERIES_NONE);
  assert_int_equal(iospd_series_format_of("a.csv.txt"), IOSPD_SERIES_NONE);
  assert_int_equal(iospd_series_format_of("csv"), IOSPD_SERIES_NONE);
  assert_int_equal(iospd_series_format_of(""), IOSPD_SERIES_NONE);
  assert_int_equal(iospd_series_format_of(NULL), IOSPD_SERIES_NONE);
}

static void test_csv_header(void** state) {
  (void)state;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_series_csv_header(&sb, false);
  assert_string_equal(
      iospd_strbuf_cstr(&sb),
      "timespan,phase,start_ms,end_ms,target,path,read_ios,read_bytes,"
      "read_iops,read_mib_s,write_ios,write_bytes,write_iops,write_mib_s,"
      "total_ios,total_bytes,total_iops,total_mib_s\n");
  iospd_strbuf_reset(&sb);
  iospd_series_csv_header(&sb, true);
  const char* h = iospd_strbuf_cstr(&sb);
  uint32_t commas = 0;
  for (const char* c = h; *c; c++) commas += *c == ',';
  assert_int_equal(commas + 1, 6 + 3 * (4 + 7));
  assert_non_null(strstr(h, ",read_lat_min_ms,read_lat_mean_ms,"
                            "read_lat_p50_ms,read_lat_p90_ms,read_lat_p99_ms,"
                            "read_lat_p99_9_ms,read_lat_max_ms,write_ios,"));
  assert_non_null(strstr(h, ",total_lat_max_ms\n"));
  iospd_strbuf_destroy(&sb);
}

/* Two targets, 500 ms of measuring. Target 0 read 3 I/Os (1 us, 2 us,
 * 3 ms) of 4 KiB, nothing written; target 1 wrote 1 I/O of 1 MiB in
 * 0.5 ms. */
typedef struct {
  iospd_timespan_t ts;
  iospd_target_t targets[2];
  iospd_series_row_t rows[2];
  iospd_interval_t iv;
  iospd_hist_t* h[2][2];
  iospd_hist_t* tot[2];
  iospd_hist_t* tmp;
} fix_t;

static void fix_init(fix_t* f, bool latency) {
  memset(f, 0, sizeof(*f));
  f->targets[0].path = "a,b\"c.dat";
  f->targets[1].path = "tab\there.dat";
  f->ts.targets = f->targets;
  f->ts.target_count = 2;
  for (int t = 0; t < 2; t++)
    for (int op = 0; op < 2; op++) f->h[t][op] = iospd_hist_create();
  f->tot[0] = iospd_hist_create();
  f->tot[1] = iospd_hist_create();
  f->tmp = iospd_hist_create();
  iospd_hist_record(f->h[0][0], 1000);
  iospd_hist_record(f->h[0][0], 2000);
  iospd_hist_record(f->h[0][0], 3000000);
  iospd_hist_record(f->h[1][1], 500000);
  f->rows[0].dir[0] = (iospd_series_dir_t){3, 3 * 4096, NULL};
  f->rows[1].dir[1] = (iospd_series_dir_t){1, 1048576, NULL};
  for (int op = 0; op < 2; op++) {
    iospd_hist_merge(f->tot[op], f->h[0][op]);
    iospd_hist_merge(f->tot[op], f->h[1][op]);
  }
  f->iv.total.dir[0] = (iospd_series_dir_t){3, 3 * 4096, NULL};
  f->iv.total.dir[1] = (iospd_series_dir_t){1, 1048576, NULL};
  if (latency) {
    for (int t = 0; t < 2; t++)
      for (int op = 0; op < 2; op++) f->rows[t].dir[op].lat = f->h[t][op];
    f->iv.total.dir[0].lat = f->tot[0];
    f->iv.total.dir[1].lat = f->tot[1];
  }
  f->iv.timespan = 1;
  f->iv.timespan_count = 2;
  f->iv.phase = IOSPD_PHASE_MEASURE;
  f->iv.start_ms = 1500;
  f->iv.end_ms = 2000;
  f->iv.target_count = 2;
  f->iv.targets = f->rows;
}

static void fix_destroy(fix_t* f) {
  for (int t = 0; t < 2; t++)
    for (int op = 0; op < 2; op++) iospd_hist_destroy(f->h[t][op]);
  iospd_hist_destroy(f->tot[0]);
  iospd_hist_destroy(f->tot[1]);
  iospd_hist_destroy(f->tmp);
}

static void test_csv_rows(void** state) {
  (void)state;
  fix_t f;
  fix_init(&f, true);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_series_csv_rows(&sb, &f.iv, &f.ts, true, f.tmp);
  /* Rates over 0.5 s; latency: min 1 us, mean (1+2+3000)/3 us, nearest
   * rank p50 2 us, p90 and above the 3 ms sample. No write: empty. */
  assert_string_equal(
      iospd_strbuf_cstr(&sb),
      "1,measuring,1500,2000,0,\"a,b\"\"c.dat\","
      "3,12288,6.00,0.02,0.001,1.001,0.002,3.000,3.000,3.000,3.000,"
      "0,0,0.00,0.00,,,,,,,,"
      "3,12288,6.00,0.02,0.001,1.001,0.002,3.000,3.000,3.000,3.000\n"
      "1,measuring,1500,2000,1,tab\there.dat,"
      "0,0,0.00,0.00,,,,,,,,"
      "1,1048576,2.00,2.00,0.500,0.500,0.500,0.500,0.500,0.500,0.500,"
      "1,1048576,2.00,2.00,0.500,0.500,0.500,0.500,0.500,0.500,0.500\n"
      "1,measuring,1500,2000,total,,"
      "3,12288,6.00,0.02,0.001,1.001,0.002,3.000,3.000,3.000,3.000,"
      "1,1048576,2.00,2.00,0.500,0.500,0.500,0.500,0.500,0.500,0.500,"
      "4,1060864,8.00,2.02,0.001,0.876,0.002,3.000,3.000,3.000,3.000\n");
  /* Without -L: no latency columns. */
  iospd_strbuf_reset(&sb);
  fix_destroy(&f);
  fix_init(&f, false);
  iospd_series_csv_rows(&sb, &f.iv, &f.ts, false, NULL);
  assert_string_equal(iospd_strbuf_cstr(&sb),
                      "1,measuring,1500,2000,0,\"a,b\"\"c.dat\","
                      "3,12288,6.00,0.02,0,0,0.00,0.00,3,12288,6.00,0.02\n"
                      "1,measuring,1500,2000,1,tab\there.dat,"
                      "0,0,0.00,0.00,1,1048576,2.00,2.00,1,1048576,2.00,2.00\n"
                      "1,measuring,1500,2000,total,,"
                      "3,12288,6.00,0.02,1,1048576,2.00,2.00,4,1060864,8.00,"
                      "2.02\n");
  iospd_strbuf_destroy(&sb);
  fix_destroy(&f);
}

static void test_jsonl_rows(void** state) {
  (void)state;
  fix_t f;
  fix_init(&f, true);
  f.iv.phase = IOSPD_PHASE_WARMUP;
  f.iv.start_ms = -1000;
  f.iv.end_ms = -500;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_series_jsonl_rows(&sb, &f.iv, &f.ts, true, f.tmp);
  const char* lat3 =
      "{\"min\":0.001,\"mean\":1.001,\"p50\":0.002,\"p90\":3.000,"
      "\"p99\":3.000,\"p99_9\":3.000,\"max\":3.000}";
  const char* lat05 =
      "{\"min\":0.500,\"mean\":0.500,\"p50\":0.500,\"p90\":0.500,"
      "\"p99\":0.500,\"p99_9\":0.500,\"max\":0.500}";
  char want[4096];
  snprintf(
      want, sizeof want,
      "{\"timespan\":1,\"phase\":\"warm-up\",\"start_ms\":-1000,"
      "\"end_ms\":-500,\"target\":0,\"path\":\"a,b\\\"c.dat\","
      "\"read\":{\"ios\":3,\"bytes\":12288,\"iops\":6.00,\"mib_s\":0.02,"
      "\"lat_ms\":%s},"
      "\"write\":{\"ios\":0,\"bytes\":0,\"iops\":0.00,\"mib_s\":0.00,"
      "\"lat_ms\":null},"
      "\"total\":{\"ios\":3,\"bytes\":12288,\"iops\":6.00,\"mib_s\":0.02,"
      "\"lat_ms\":%s}}\n"
      "{\"timespan\":1,\"phase\":\"warm-up\",\"start_ms\":-1000,"
      "\"end_ms\":-500,\"target\":1,\"path\":\"tab\\there.dat\","
      "\"read\":{\"ios\":0,\"bytes\":0,\"iops\":0.00,\"mib_s\":0.00,"
      "\"lat_ms\":null},"
      "\"write\":{\"ios\":1,\"bytes\":1048576,\"iops\":2.00,\"mib_s\":2.00,"
      "\"lat_ms\":%s},"
      "\"total\":{\"ios\":1,\"bytes\":1048576,\"iops\":2.00,\"mib_s\":2.00,"
      "\"lat_ms\":%s}}\n",
      lat3, lat3, lat05, lat05);
  const char* got = iospd_strbuf_cstr(&sb);
  assert_memory_equal(got, want, strlen(want));
  /* The total line: "target":"total" and no path. */
  const char* tot = got + strlen(want);
  assert_true(strncmp(tot,
                      "{\"timespan\":1,\"phase\":\"warm-up\",\"start_ms\":-1000,"
                      "\"end_ms\":-500,\"target\":\"total\",\"read\":{",
                      80) == 0);
  assert_non_null(strstr(tot, "\"total\":{\"ios\":4,\"bytes\":1060864,"
                              "\"iops\":8.00,\"mib_s\":2.02,\"lat_ms\":"
                              "{\"min\":0.001,\"mean\":0.876,"));
  assert_int_equal(tot[strlen(tot) - 1], '\n');
  iospd_strbuf_destroy(&sb);
  fix_destroy(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_format_of),
      cmocka_unit_test(test_csv_header),
      cmocka_unit_test(test_csv_rows),
      cmocka_unit_test(test_jsonl_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
