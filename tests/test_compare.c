/* SPDX-License-Identifier: MIT */
/* iospd --compare's core (src/merge/compare*.c): the noise test on known
 * inputs (p-values against independently computed ones, the
 * autocorrelation correction, fixed-seed series with equal and shifted
 * means), the comparison built from result documents (values, %,
 * verdicts, differing fields, the profile refusal and --force) and the
 * text table line by line. */
#include "test_util.h"

#include <math.h>

#include "cJSON.h"
#include "iospd/compare.h"
#include "iospd/results_doc.h"

/* ---- the statistics ----------------------------------------------------- */

static void test_t_pvalue(void** state) {
  (void)state;
  /* Two-sided critical values of Student's t (any table) and p-values
   * computed by numerical integration of the t density (Simpson, 2e5
   * steps) outside iospd. */
  assert_true(fabs(iospd_cmp_t_pvalue(2.228, 10) - 0.0500118) < 1e-6);
  assert_true(fabs(iospd_cmp_t_pvalue(-2.228, 10) - 0.0500118) < 1e-6);
  assert_true(fabs(iospd_cmp_t_pvalue(3.169, 10) - 0.01000) < 1e-5);
  assert_true(fabs(iospd_cmp_t_pvalue(12.706, 1) - 0.05) < 1e-5);
  assert_true(fabs(iospd_cmp_t_pvalue(1.96, 1e6) - 0.05) < 1e-4);
  assert_true(fabs(iospd_cmp_t_pvalue(3.5327043465311387, 78) -
                   0.00069457519) < 1e-8);
  assert_true(iospd_cmp_t_pvalue(0, 5) == 1.0);
  assert_true(iospd_cmp_t_pvalue(1, 1) > 0.4999999 &&
              iospd_cmp_t_pvalue(1, 1) < 0.5000001);
  assert_true(iospd_cmp_t_pvalue(INFINITY, 5) == 0.0);
  assert_true(iospd_cmp_t_pvalue(NAN, 5) == 1.0);
}

/* Blocks of 5 intervals at 95 then 5 at 105, four times: strongly
 * autocorrelated (r1 = 0.625). Shifted by 4, plain Welch on 40 "samples"
 * calls it real (t = 3.53, p = 0.0007); with n_eff = 40 * 0.375 / 1.625 =
 * 9.23 per run it is within noise (t = 1.697, df = 16.46, p = 0.1085). */
static void test_autocorrelation_correction(void** state) {
  (void)state;
  double a[40], b[40];
  for (int i = 0; i < 40; i++) {
    a[i] = (i / 5) % 2 ? 105 : 95;
    b[i] = a[i] + 4;
  }
  iospd_cmp_test_t t;
  iospd_cmp_noise_test(a, 40, b, 40, &t);
  assert_int_equal(t.verdict, IOSPD_CMP_NOISE);
  assert_int_equal(t.n_a, 40);
  assert_true(t.mean_a == 100.0 && t.mean_b == 104.0);
  assert_true(fabs(t.r1_a - 0.625) < 1e-12 && fabs(t.r1_b - 0.625) < 1e-12);
  assert_true(fabs(t.n_eff_a - 9.230769230769231) < 1e-12);
  assert_true(fabs(t.t - 1.697056274847714) < 1e-9);
  assert_true(fabs(t.df - 16.46153846153846) < 1e-9);
  assert_true(fabs(t.p - 0.1085097) < 1e-6);
  /* Doubling the shift makes it real even after the correction. */
  for (int i = 0; i < 40; i++) b[i] = a[i] + 12;
  iospd_cmp_noise_test(a, 40, b, 40, &t);
  assert_int_equal(t.verdict, IOSPD_CMP_REAL);
  assert_true(t.p < IOSPD_CMP_ALPHA);
}

/* A fixed-seed generator: xorshift64* and Box-Muller, normal(mean, sd). */
static uint64_t rng;
static double uniform(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return ((double)((rng * UINT64_C(2685821657736338717)) >> 11) + 0.5) /
         9007199254740992.0;
}
static void normal_series(double* x, size_t n, double mean, double sd) {
  for (size_t i = 0; i < n; i++)
    x[i] = mean + sd * sqrt(-2 * log(uniform())) * cos(6.283185307179586 *
                                                       uniform());
}

static void test_fixed_seed_series(void** state) {
  (void)state;
  double a[60], b[60];
  iospd_cmp_test_t t;
  /* Equal means, 5 % spread: within noise, for every one of 20 seeds
   * (p >= 0.01 happens by chance 99 % of the time; these seeds are fixed,
   * so the outcome is too). */
  int real = 0;
  for (uint64_t seed = 1; seed <= 20; seed++) {
    rng = seed * UINT64_C(0x9E3779B97F4A7C15);
    normal_series(a, 60, 10000, 500);
    normal_series(b, 60, 10000, 500);
    iospd_cmp_noise_test(a, 60, b, 60, &t);
    assert_int_not_equal(t.verdict, IOSPD_CMP_UNKNOWN);
    real += t.verdict == IOSPD_CMP_REAL;
  }
  assert_int_equal(real, 0);
  /* Shifted by 10 % with 1 % spread: real, and by far. */
  rng = 42;
  normal_series(a, 60, 10000, 100);
  normal_series(b, 60, 11000, 100);
  iospd_cmp_noise_test(a, 60, b, 60, &t);
  assert_int_equal(t.verdict, IOSPD_CMP_REAL);
  assert_true(t.p < 1e-12);
  assert_true(t.t > 30);
  assert_true(fabs(t.mean_b / t.mean_a - 1.1) < 0.005);
  /* The same series against itself: t = 0, p = 1. */
  iospd_cmp_noise_test(a, 60, a, 60, &t);
  assert_int_equal(t.verdict, IOSPD_CMP_NOISE);
  assert_true(t.t == 0.0 && t.p == 1.0);
}

static void test_too_few_or_flat(void** state) {
  (void)state;
  double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 2, 3, 4, 5, 6};
  iospd_cmp_test_t t;
  iospd_cmp_noise_test(a, 4, b, 6, &t);
  assert_int_equal(t.verdict, IOSPD_CMP_UNKNOWN);
  assert_string_equal(t.why, "only 4 and 6 intervals (the test needs 5 in "
                             "each: run longer or with a shorter -D)");
  double f[5] = {7, 7, 7, 7, 7}, g[5] = {8, 8, 8, 8, 8};
  iospd_cmp_noise_test(f, 5, f, 5, &t);
  assert_int_equal(t.verdict, IOSPD_CMP_NOISE);
  assert_true(t.p == 1.0);
  iospd_cmp_noise_test(f, 5, g, 5, &t);
  assert_int_equal(t.verdict, IOSPD_CMP_REAL);
  assert_true(t.p == 0.0);
}

/* ---- documents ---------------------------------------------------------- */

/* A result document: one timespan, one target, reads only, n intervals
 * of 100 ms with the given IOPS (4 KiB each) and mean latency; CPU 50 %
 * of 2 CPUs. */
typedef struct run_s {
  const char* host;
  int block;
  const double* iops;
  size_t n;
  double lat_ms;  /* mean latency (also per interval); 0: no -L */
  double p99_ms;
  bool writes;    /* a second direction: writes of half the reads */
  size_t missing; /* trailing intervals left out of the -D series */
} run_t;

static char* doc_text(const run_t* r) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  double secs = (double)r->n / 10.0;
  double ios = 0;
  for (size_t i = 0; i < r->n; i++) ios += r->iops[i] / 10.0;
  double wios = r->writes ? ios / 2 : 0;
  iospd_strbuf_appendf(
      &sb,
      "{\"format\": \"iospd-results\", \"format_version\": 1,\n"
      " \"system\": {\"computer_name\": \"%s\", \"run_time\": "
      "\"2026-12-01T20:00:00Z\", \"io_engine\": \"io_uring\"},\n"
      " \"environment\": {\"os_release\": \"6.1\", \"command_line\": "
      "{\"joined\": \"iospd %s\"}},\n"
      " \"profile\": {\"result_format\": \"json\", \"timespans\": "
      "[{\"duration_s\": %g, \"targets\": [{\"path\": \"%s.dat\", "
      "\"block_size\": %d}]}]},\n"
      " \"timespans\": [{\"index\": 0, \"measured\": true, "
      "\"test_time_seconds\": %g,\n"
      "  \"cpu\": {\"cpus\": [{}, {}], \"average\": {\"usage_percent\": 50}},\n"
      "  \"total\": {",
      r->host, r->host, secs, r->host, r->block, secs);
  static const char* const dirs[] = {"read", "write", "total"};
  for (int d = 0; d < 3; d++) {
    double n = d == 0 ? ios : d == 1 ? wios : ios + wios;
    iospd_strbuf_appendf(&sb, "%s\"%s\": {\"ios\": %.17g, \"bytes\": %.17g, "
                         "\"iops\": %.17g, \"mib_per_s\": %.17g, "
                         "\"latency\": ", d ? ", " : "", dirs[d], n,
                         n * r->block, n / secs,
                         n * r->block / 1048576.0 / secs);
    if (r->lat_ms > 0 && n > 0)
      iospd_strbuf_appendf(&sb, "{\"mean_ms\": %.17g, \"percentiles\": "
                           "[{\"percentile\": \"99\", \"ms\": %.17g}, "
                           "{\"percentile\": \"99.9\", \"ms\": %.17g}]}}",
                           r->lat_ms, r->p99_ms, r->p99_ms * 2);
    else
      iospd_strbuf_append(&sb, "null}");
  }
  iospd_strbuf_append(&sb, "},\n  \"iops_series\": {\"interval_ms\": 100, "
                           "\"buckets\": [");
  for (size_t i = 0; i + r->missing < r->n; i++) {
    double n = r->iops[i] / 10.0, w = r->writes ? n / 2 : 0;
    iospd_strbuf_appendf(&sb, "%s\n   {\"sample_ms\": %zu, \"read_ios\": %.17g, "
                         "\"write_ios\": %.17g, \"read_bytes\": %.17g, "
                         "\"write_bytes\": %.17g, \"read_latency\": ",
                         i ? "," : "", (i + 1) * 100, n, w, n * r->block,
                         w * r->block);
    if (r->lat_ms > 0)
      iospd_strbuf_appendf(&sb, "{\"mean_ms\": %.17g}", r->lat_ms);
    else
      iospd_strbuf_append(&sb, "null");
    iospd_strbuf_appendf(&sb, ", \"write_latency\": %s}",
                         r->writes && r->lat_ms > 0 ? "{\"mean_ms\": 1}" : "null");
  }
  iospd_strbuf_append(&sb, "]}}]}\n");
  size_t len = strlen(iospd_strbuf_cstr(&sb));
  char* s = malloc(len + 1);
  memcpy(s, iospd_strbuf_cstr(&sb), len + 1);
  iospd_strbuf_destroy(&sb);
  return s;
}

static cJSON* load(const run_t* r, const char* name) {
  char* text = doc_text(r);
  cJSON* d = NULL;
  iospd_err_t err;
  int rc = iospd_results_doc_parse(name, text, strlen(text), "--compare", &d,
                                   &err);
  if (rc != 0) print_error("%s\n", err.msg);
  assert_int_equal(rc, 0);
  free(text);
  return d;
}

/* Series: around `mean` with a small deterministic wobble. */
static void series(double* x, size_t n, double mean, double wobble) {
  for (size_t i = 0; i < n; i++)
    x[i] = mean + wobble * (double)((int)((i * 7) % 5) - 2);
}

static const iospd_cmp_row_t* row_of(const iospd_compare_t* c,
                                     iospd_cmp_metric_t m,
                                     iospd_cmp_dir_t d) {
  const iospd_cmp_span_t* s = &c->runs[1].spans[0];
  for (size_t i = 0; i < s->n_rows; i++)
    if (s->rows[i].metric == m && s->rows[i].dir == d && s->rows[i].target < 0)
      return &s->rows[i];
  fail_msg("no row %d/%d", (int)m, (int)d);
  return NULL;
}

static void test_build_values_and_verdicts(void** state) {
  (void)state;
  double a[20], b[20];
  series(a, 20, 1000, 10);
  series(b, 20, 1100, 10);
  run_t ra = {"box", 4096, a, 20, 0.5, 2.0, false, 0};
  run_t rb = {"box", 4096, b, 20, 0.5, 2.5, false, 0};
  cJSON* docs[2] = {load(&ra, "a.json"), load(&rb, "b.json")};
  const char* names[2] = {"a.json", "b.json"};
  iospd_compare_t c;
  iospd_err_t err;
  iospd_compare_opts_t opts = {false, false, "--compare"};
  assert_int_equal(iospd_compare_build((const cJSON* const*)docs, names, 2,
                                       &opts, &c, &err), 0);
  assert_int_equal(c.n_runs, 2);
  assert_false(c.profiles_differ);
  assert_int_equal(c.n_fields, 0);
  assert_int_equal(c.runs[0].intervals, 20);
  assert_true(c.runs[0].interval_ms == 100);
  assert_int_equal(c.runs[0].ts_intervals, 0);
  assert_int_equal(c.runs[1].n_spans, 1);
  /* Reads only: the total direction, 6 metrics. */
  assert_int_equal(c.runs[1].spans[0].n_rows, 6);

  const iospd_cmp_row_t* r = row_of(&c, IOSPD_CMP_IOPS, IOSPD_CMP_TOTAL);
  assert_true(r->has_base && r->has_value && r->has_diff);
  assert_true(fabs(r->base - 1000) < 1e-9 && fabs(r->value - 1100) < 1e-9);
  assert_true(fabs(r->diff_pct - 10.0) < 1e-9);
  assert_int_equal(r->test.verdict, IOSPD_CMP_REAL);
  assert_true(r->better);
  assert_int_equal(r->test.n_a, 20);
  r = row_of(&c, IOSPD_CMP_MIBS, IOSPD_CMP_TOTAL);
  assert_true(fabs(r->base - 1000 * 4096 / 1048576.0) < 1e-9);
  assert_int_equal(r->test.verdict, IOSPD_CMP_REAL);
  /* The same mean latency in every interval of both: within noise. */
  r = row_of(&c, IOSPD_CMP_LAT_MEAN, IOSPD_CMP_TOTAL);
  assert_true(r->has_diff && r->diff_pct == 0.0);
  assert_int_equal(r->test.verdict, IOSPD_CMP_NOISE);
  /* p99 +25 %, but no per-interval percentiles: unknown, never noise. */
  r = row_of(&c, IOSPD_CMP_LAT_P99, IOSPD_CMP_TOTAL);
  assert_true(fabs(r->diff_pct - 25.0) < 1e-9);
  assert_int_equal(r->test.verdict, IOSPD_CMP_UNKNOWN);
  assert_string_equal(r->test.why, "no per-interval percentiles (run with -L "
                                   "and --timeseries=FILE.jsonl, then give "
                                   "the .jsonl after its .json)");
  /* CPU per I/O: 50 % of 2 CPUs over 2 s / 2000 I/Os = 1000 us. */
  r = row_of(&c, IOSPD_CMP_CPU_PER_IO, IOSPD_CMP_TOTAL);
  assert_true(fabs(r->base - 1000.0) < 1e-6);
  assert_true(fabs(r->value - 1000.0 / 1.1) < 1e-6);
  assert_int_equal(r->test.verdict, IOSPD_CMP_UNKNOWN);
  iospd_compare_free(&c);
  cJSON_Delete(docs[0]);
  cJSON_Delete(docs[1]);
}

static void test_build_without_latency_or_intervals(void** state) {
  (void)state;
  double a[20], b[3];
  series(a, 20, 1000, 10);
  series(b, 3, 1000, 10);
  run_t ra = {"box", 4096, a, 20, 0, 0, true, 0};
  run_t rb = {"box", 4096, b, 3, 0, 0, true, 0};
  cJSON* docs[2] = {load(&ra, "a.json"), load(&rb, "b.json")};
  /* The durations differ: another profile... */
  const char* names[2] = {"a.json", "b.json"};
  iospd_compare_t c;
  iospd_err_t err;
  iospd_compare_opts_t opts = {true, false, "--compare"};
  assert_int_equal(iospd_compare_build((const cJSON* const*)docs, names, 2,
                                       &opts, &c, &err), 0);
  assert_true(c.forced && c.profiles_differ);
  /* Reads and writes: total, read and write rows (CPU only in total). */
  assert_int_equal(c.runs[1].spans[0].n_rows, 6 + 5 + 5);
  const iospd_cmp_row_t* r = row_of(&c, IOSPD_CMP_IOPS, IOSPD_CMP_WRITE);
  assert_true(fabs(r->base - 500) < 1e-9);
  assert_int_equal(r->test.verdict, IOSPD_CMP_UNKNOWN);
  assert_string_equal(r->test.why, "only 20 and 3 intervals (the test needs 5 "
                                   "in each: run longer or with a shorter -D)");
  r = row_of(&c, IOSPD_CMP_LAT_MEAN, IOSPD_CMP_READ);
  assert_false(r->has_base || r->has_value);
  assert_string_equal(r->test.why, "no latency (run with -L)");
  iospd_compare_free(&c);
  cJSON_Delete(docs[0]);
  cJSON_Delete(docs[1]);
}

static void test_profiles_and_fields(void** state) {
  (void)state;
  double a[10];
  series(a, 10, 1000, 10);
  run_t ra = {"box", 4096, a, 10, 0.5, 1, false, 0};
  run_t rb = {"srv", 8192, a, 10, 0.5, 1, false, 0};
  run_t rc_ = {"box", 4096, a, 10, 0.5, 1, false, 0};
  cJSON* docs[3] = {load(&ra, "a.json"), load(&rc_, "c.json"),
                    load(&rb, "b.json")};
  const char* names[3] = {"a.json", "c.json", "b.json"};
  iospd_compare_t c;
  iospd_err_t err;
  iospd_compare_opts_t opts = {false, false, "--compare"};
  assert_int_equal(iospd_compare_build((const cJSON* const*)docs, names, 3,
                                       &opts, &c, &err), IOSPD_EUSAGE);
  assert_string_equal(
      err.msg,
      "'b.json' (--compare) is a run of another profile than 'a.json': "
      "profile.timespans[0].targets[0].block_size is 8192 in 'b.json' and "
      "4096 in 'a.json'; compare them anyway with --force (then a changed "
      "setting may explain the differences)");
  assert_int_equal(c.n_runs, 0);
  iospd_compare_free(&c);

  opts.force = true;
  assert_int_equal(iospd_compare_build((const cJSON* const*)docs, names, 3,
                                       &opts, &c, &err), 0);
  assert_true(c.forced);
  /* Settings first, then host settings, then environment; the command
   * line and run time are left out. */
  static const struct {
    iospd_cmp_field_kind_t kind;
    const char* path;
    const char* v[3];
  } want[] = {
      {IOSPD_CMP_SETTING, "profile.timespans[0].targets[0].block_size",
       {"4096", "4096", "8192"}},
      {IOSPD_CMP_HOST_SETTING, "profile.timespans[0].targets[0].path",
       {"\"box.dat\"", "\"box.dat\"", "\"srv.dat\""}},
      {IOSPD_CMP_ENVIRONMENT, "system.computer_name",
       {"\"box\"", "\"box\"", "\"srv\""}},
  };
  assert_int_equal(c.n_fields, 3);
  for (size_t i = 0; i < 3; i++) {
    assert_int_equal(c.fields[i].kind, want[i].kind);
    assert_string_equal(c.fields[i].path, want[i].path);
    for (size_t r = 0; r < 3; r++)
      assert_string_equal(c.fields[i].values[r], want[i].v[r]);
  }
  iospd_compare_free(&c);
  for (int i = 0; i < 3; i++) cJSON_Delete(docs[i]);
}

/* A --timeseries .jsonl for run_t-like data: a warm-up row (left out), n
 * measuring rows of 100 ms with total p99 = p99[i], per target rows (left
 * out of the totals) and a cut-off last row of 20 ms (left out). */
static char* jsonl(const double* p99, size_t n) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_strbuf_append(&sb, "{\"timespan\":0,\"phase\":\"warm-up\",\"start_ms\":"
                      "-100,\"end_ms\":0,\"target\":\"total\",\"total\":"
                      "{\"iops\":1,\"lat_ms\":{\"p99\":99}}}\n\n");
  for (size_t i = 0; i <= n; i++) {
    size_t end = i < n ? (i + 1) * 100 : n * 100 + 20;
    for (int t = 0; t < 2; t++)
      iospd_strbuf_appendf(&sb, "{\"timespan\":0,\"phase\":\"measuring\","
                           "\"start_ms\":%zu,\"end_ms\":%zu,\"target\":%s,"
                           "\"total\":{\"iops\":5,\"lat_ms\":{\"mean\":0.1,"
                           "\"p99\":%.3f,\"p99_9\":null}}}\r\n", i * 100, end,
                           t == 0 ? "0" : "\"total\"",
                           t == 0 ? 50.0 : i < n ? p99[i] : 77.0);
  }
  size_t len = strlen(iospd_strbuf_cstr(&sb));
  char* s = malloc(len + 1);
  memcpy(s, iospd_strbuf_cstr(&sb), len + 1);
  iospd_strbuf_destroy(&sb);
  return s;
}

static void test_percentiles_from_a_time_series(void** state) {
  (void)state;
  double a[10], pa[10], pb[10];
  series(a, 10, 1000, 10);
  series(pa, 10, 2.0, 0.01);
  series(pb, 10, 2.5, 0.01);
  run_t ra = {"box", 4096, a, 10, 0.5, 2.0, false, 0};
  run_t rb = {"box", 4096, a, 10, 0.5, 2.5, false, 0};
  cJSON* docs[2] = {load(&ra, "a.json"), load(&rb, "b.json")};
  char* ja = jsonl(pa, 10);
  char* jb = jsonl(pb, 10);
  iospd_err_t err;
  assert_int_equal(iospd_results_doc_add_timeseries(docs[0], "a.jsonl", ja,
                                                    strlen(ja), "--compare",
                                                    &err), 0);
  assert_int_equal(iospd_results_doc_add_timeseries(docs[1], "b.jsonl", jb,
                                                    strlen(jb), "--compare",
                                                    &err), 0);
  /* warm-up + 11 * 2 measuring rows */
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(docs[0],
                                                          "timeseries")), 23);
  const char* names[2] = {"a.json", "b.json"};
  iospd_compare_t c;
  iospd_compare_opts_t opts = {false, false, "--compare"};
  assert_int_equal(iospd_compare_build((const cJSON* const*)docs, names, 2,
                                       &opts, &c, &err), 0);
  assert_int_equal(c.runs[0].ts_intervals, 10);
  assert_true(c.runs[0].ts_interval_ms == 100);
  assert_int_equal(c.runs[0].intervals, 10);
  const iospd_cmp_row_t* r = row_of(&c, IOSPD_CMP_LAT_P99, IOSPD_CMP_TOTAL);
  assert_int_equal(r->test.verdict, IOSPD_CMP_REAL);
  assert_false(r->better); /* a higher p99 is worse */
  assert_int_equal(r->test.n_a, 10);
  assert_true(fabs(r->test.mean_a - 2.0) < 1e-9);
  assert_true(fabs(r->test.mean_b - 2.5) < 1e-9);
  /* p99.9 is null in every row: no values, unknown. */
  r = row_of(&c, IOSPD_CMP_LAT_P999, IOSPD_CMP_TOTAL);
  assert_int_equal(r->test.verdict, IOSPD_CMP_UNKNOWN);
  /* IOPS still from the -D intervals (exact), the same in both. */
  r = row_of(&c, IOSPD_CMP_IOPS, IOSPD_CMP_TOTAL);
  assert_int_equal(r->test.verdict, IOSPD_CMP_NOISE);
  assert_true(fabs(r->test.mean_a - 1000) < 1e-9);
  iospd_compare_free(&c);

  /* Bad .jsonl files are named with the line. */
  const char* bad = "{\"timespan\":0,\"phase\":\"measuring\"}\n{\"timespan\":0,";
  assert_int_equal(iospd_results_doc_add_timeseries(docs[0], "x.jsonl", bad,
                                                    strlen(bad), "--compare",
                                                    &err), IOSPD_EUSAGE);
  assert_string_equal(err.msg, "'x.jsonl' (--compare): line 2 is not JSON (a "
                               "cut-off or damaged file?); expected the JSON "
                               "Lines that --timeseries=FILE.jsonl wrote");
  const char* other = "{\"a\": 1}\n";
  assert_int_equal(iospd_results_doc_add_timeseries(docs[0], "y.jsonl", other,
                                                    strlen(other), "--compare",
                                                    &err), IOSPD_EUSAGE);
  assert_string_equal(err.msg, "'y.jsonl' (--compare): line 1 is not a row of "
                               "an iospd time series (no \"timespan\" and "
                               "\"phase\"); expected the JSON Lines that "
                               "--timeseries=FILE.jsonl wrote");
  /* Unchanged by the refusals. */
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(docs[0],
                                                          "timeseries")), 23);
  free(ja);
  free(jb);
  cJSON_Delete(docs[0]);
  cJSON_Delete(docs[1]);
}

/* A -D series without its trailing empty intervals (no I/O completed in
 * them): the measured time says they were there, at 0 IOPS. */
static void test_trailing_empty_intervals(void** state) {
  (void)state;
  double a[10], b[10];
  series(a, 10, 1000, 0);
  series(b, 10, 1000, 0);
  b[8] = b[9] = 0;
  run_t ra = {"box", 4096, a, 10, 0.5, 1, false, 0};
  run_t rb = {"box", 4096, b, 10, 0.5, 1, false, 2};
  cJSON* docs[2] = {load(&ra, "a.json"), load(&rb, "b.json")};
  assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(
      cJSON_GetArrayItem(cJSON_GetObjectItem(docs[1], "timespans"), 0),
      "iops_series"), "buckets")), 8);
  const char* names[2] = {"a.json", "b.json"};
  iospd_compare_t c;
  iospd_err_t err;
  iospd_compare_opts_t opts = {false, false, "--compare"};
  assert_int_equal(iospd_compare_build((const cJSON* const*)docs, names, 2,
                                       &opts, &c, &err), 0);
  assert_int_equal(c.runs[1].intervals, 10);
  const iospd_cmp_row_t* r = row_of(&c, IOSPD_CMP_IOPS, IOSPD_CMP_TOTAL);
  assert_true(fabs(r->value - 800) < 1e-9);
  assert_int_equal(r->test.n_b, 10);
  assert_true(fabs(r->test.mean_b - 800) < 1e-9); /* = the headline IOPS */
  /* The mean latency has no value where there was no I/O. */
  r = row_of(&c, IOSPD_CMP_LAT_MEAN, IOSPD_CMP_TOTAL);
  assert_int_equal(r->test.n_b, 8);
  iospd_compare_free(&c);
  cJSON_Delete(docs[0]);
  cJSON_Delete(docs[1]);
}

/* Two targets, two threads: thread 0 does t0 and t1, thread 1 does t0.
 * ios per 100 ms bucket: (t0 by thread 0, t0 by thread 1, t1 by thread 0),
 * the same in all 5 buckets. */
static cJSON* two_targets(int t0a, int t0b, int t1) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_strbuf_append(&sb, "{\"format\": \"iospd-results\", \"format_version\": "
                      "1, \"system\": {}, \"environment\": {}, \"profile\": {},"
                      " \"timespans\": [{\"measured\": true, "
                      "\"test_time_seconds\": 0.5, \"iops_series\": "
                      "{\"interval_ms\": 100, \"buckets\": []}, ");
  int per[2] = {t0a + t0b, t1};
  iospd_strbuf_append(&sb, "\"targets\": [");
  for (int t = 0; t < 2; t++)
    iospd_strbuf_appendf(&sb, "%s{\"target_index\": %d, \"directions\": "
                         "{\"read\": {\"ios\": %d, \"iops\": %d}, \"write\": "
                         "{\"ios\": 0, \"iops\": 0}, \"total\": {\"ios\": %d, "
                         "\"iops\": %d, \"mib_per_s\": %.17g}}}", t ? ", " : "", t,
                         per[t] * 5, per[t] * 10, per[t] * 5, per[t] * 10,
                         per[t] * 10 * 512 / 1048576.0);
  iospd_strbuf_append(&sb, "], \"threads\": [");
  int ios[3] = {t0a, t1, t0b};
  for (int th = 0; th < 2; th++) {
    iospd_strbuf_appendf(&sb, "%s{\"targets\": [", th ? ", " : "");
    for (int t = 0; t < (th == 0 ? 2 : 1); t++) {
      iospd_strbuf_appendf(&sb, "%s{\"target_index\": %d, \"iops_series\": "
                           "{\"interval_ms\": 100, \"buckets\": [",
                           t ? ", " : "", t);
      for (int b = 0; b < 5; b++)
        iospd_strbuf_appendf(&sb, "%s{\"sample_ms\": %d, \"read_ios\": %d, "
                             "\"write_ios\": 0, \"read_bytes\": %d, "
                             "\"write_bytes\": 0}", b ? ", " : "",
                             (b + 1) * 100, ios[th * 2 + t], ios[th * 2 + t] * 512);
      iospd_strbuf_append(&sb, "]}}");
    }
    iospd_strbuf_append(&sb, "]}");
  }
  iospd_strbuf_append(&sb, "], \"total\": {}}]}");
  cJSON* d = NULL;
  iospd_err_t err;
  const char* text = iospd_strbuf_cstr(&sb);
  assert_int_equal(iospd_results_doc_parse("t.json", text, strlen(text),
                                           "--compare", &d, &err), 0);
  iospd_strbuf_destroy(&sb);
  return d;
}

static void test_rows_per_target(void** state) {
  (void)state;
  cJSON* docs[2] = {two_targets(10, 20, 5), two_targets(10, 20, 10)};
  const char* names[2] = {"a.json", "b.json"};
  iospd_compare_t c;
  iospd_err_t err;
  iospd_compare_opts_t opts = {false, true, "--compare"};
  assert_int_equal(iospd_compare_build((const cJSON* const*)docs, names, 2,
                                       &opts, &c, &err), 0);
  const iospd_cmp_span_t* s = &c.runs[1].spans[0];
  const iospd_cmp_row_t* t0 = NULL;
  const iospd_cmp_row_t* t1 = NULL;
  for (size_t i = 0; i < s->n_rows; i++) {
    const iospd_cmp_row_t* r = &s->rows[i];
    if (r->metric != IOSPD_CMP_IOPS || r->dir != IOSPD_CMP_TOTAL) continue;
    if (r->target == 0) t0 = r;
    if (r->target == 1) t1 = r;
  }
  assert_non_null(t0);
  assert_non_null(t1);
  /* Target 0: both threads' series added, 30 I/Os per 100 ms. */
  assert_true(t0->base == 300 && t0->value == 300);
  assert_int_equal(t0->test.n_a, 5);
  assert_true(t0->test.mean_a == 300 && t0->test.mean_b == 300);
  assert_int_equal(t0->test.verdict, IOSPD_CMP_NOISE);
  assert_true(t1->base == 50 && t1->value == 100 && t1->diff_pct == 100.0);
  assert_true(t1->test.mean_a == 50 && t1->test.mean_b == 100);
  assert_int_equal(t1->test.verdict, IOSPD_CMP_REAL);
  assert_true(t1->better);
  /* MiB/s per target from the threads' bytes: 10 * 512 B per 100 ms. */
  int mibs = 0;
  for (size_t i = 0; i < s->n_rows; i++)
    if (s->rows[i].metric == IOSPD_CMP_MIBS && s->rows[i].target == 1 &&
        s->rows[i].dir == IOSPD_CMP_TOTAL) {
      assert_true(fabs(s->rows[i].test.mean_b - 51200 / 1048576.0) < 1e-12);
      mibs++;
    }
  assert_int_equal(mibs, 1);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_compare_text(&c, &sb);
  assert_non_null(strstr(iospd_strbuf_cstr(&sb),
                         "\n* IOPS                t1 total           50.00"
                         "         100.00  +100.0%  REAL difference, better "
                         "(p<0.001)\n"));
  iospd_strbuf_destroy(&sb);
  iospd_compare_free(&c);
  cJSON_Delete(docs[0]);
  cJSON_Delete(docs[1]);
}

/* ---- the text ----------------------------------------------------------- */

static void test_text_table(void** state) {
  (void)state;
  double a[20], b[20];
  series(a, 20, 1000, 10);
  series(b, 20, 1100, 10);
  run_t ra = {"box", 4096, a, 20, 0.5, 2.0, false, 0};
  run_t rb = {"srv", 4096, b, 20, 0.5, 2.5, false, 0};
  cJSON* docs[2] = {load(&ra, "a.json"), load(&rb, "b.json")};
  const char* names[2] = {"a.json", "b.json"};
  iospd_compare_t c;
  iospd_err_t err;
  iospd_compare_opts_t opts = {false, false, "--compare"};
  assert_int_equal(iospd_compare_build((const cJSON* const*)docs, names, 2,
                                       &opts, &c, &err), 0);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_compare_text(&c, &sb);
  const char* want =
      "Comparison of 2 runs; run 1 is the baseline.\n"
      "  run 1: a.json (box, 2026-12-01T20:00:00Z; 20 intervals of 100 ms from -D)\n"
      "  run 2: b.json (srv, 2026-12-01T20:00:00Z; 20 intervals of 100 ms from -D)\n"
      "\n"
      "Settings and environment that differ (a changed setting explains more results\n"
      "than any disk):\n"
      "  ! host setting profile.timespans[0].targets[0].path: \"box.dat\" (run 1), \"srv.dat\" (run 2)\n"
      "  ! environment  system.computer_name: \"box\" (run 1), \"srv\" (run 2)\n"
      "\n"
      "Run 2 (b.json) against run 1 (a.json), timespan 0:\n"
      "  metric              direction          run 1          run 2     diff  verdict\n"
      "* IOPS                total            1000.00        1100.00   +10.0%  REAL difference, better (p<0.001)\n"
      "* MiB/s               total               3.91           4.30   +10.0%  REAL difference, better (p<0.001)\n"
      "  mean latency (ms)   total             0.5000         0.5000     0.0%  within noise (p=1.000)\n"
      "  p99 latency (ms)    total             2.0000         2.5000   +25.0%  unknown: no per-interval percentiles (run with -L and --timeseries=FILE.jsonl, then give the .jsonl after its .json)\n"
      "  p99.9 latency (ms)  total             4.0000         5.0000   +25.0%  unknown: no per-interval percentiles (run with -L and --timeseries=FILE.jsonl, then give the .jsonl after its .json)\n"
      "  CPU per I/O (us)    total           1000.000        909.091    -9.1%  unknown: no per-interval CPU values in the results\n"
      "\n"
      "* marks a real difference. Noise test: Welch's t-test on the two runs'\n"
      "per-interval values (the -D intervals, or a time series in the results),\n"
      "each run's sample size cut to n_eff = n(1-r1)/(1+r1) for its lag-1\n"
      "autocorrelation r1 (taken as 0 to 0.9); a difference is real when the\n"
      "two-sided p < 0.01, within noise otherwise; unknown without 5 intervals\n"
      "in each run. docs/compare.md says how to read it.\n";
  const char* got = iospd_strbuf_cstr(&sb);
  /* Line by line, so a failure shows the line. */
  while (*want != '\0' || *got != '\0') {
    const char* we = strchr(want, '\n');
    const char* ge = strchr(got, '\n');
    size_t wl = we ? (size_t)(we - want) : strlen(want);
    size_t gl = ge ? (size_t)(ge - got) : strlen(got);
    if (wl != gl || memcmp(want, got, wl) != 0) {
      print_error("want: %.*s\ngot:  %.*s\n", (int)wl, want, (int)gl, got);
      fail();
    }
    want += wl + (we != NULL);
    got += gl + (ge != NULL);
  }
  iospd_strbuf_destroy(&sb);
  iospd_compare_free(&c);
  cJSON_Delete(docs[0]);
  cJSON_Delete(docs[1]);
}

static void test_mode_arguments(void** state) {
  (void)state;
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  iospd_err_t err;
  const char* one[] = {"a.json", "--force"};
  assert_int_equal(iospd_compare_mode(2, one, NULL, &out, &err), IOSPD_EUSAGE);
  assert_string_equal(err.msg, "--compare needs two or more result files "
                               "(-Rjson or --output=json:FILE): iospd "
                               "--compare a.json [a.jsonl] b.json ... "
                               "[--force]; the first is the baseline");
  const char* bad[] = {"a.json", "--forse", "b.json"};
  assert_int_equal(iospd_compare_mode(3, bad, NULL, &out, &err), IOSPD_EUSAGE);
  assert_string_equal(err.msg, "'--forse': --compare takes result files "
                               "(each optionally followed by its .jsonl time "
                               "series) and --force: iospd --compare a.json "
                               "[a.jsonl] b.json ... [--force] (a file whose "
                               "name starts with '-': ./--forse)");
  const char* lone[] = {"a.JSONL", "a.json", "b.json"};
  assert_int_equal(iospd_compare_mode(3, lone, NULL, &out, &err), IOSPD_EUSAGE);
  assert_string_equal(err.msg, "'a.JSONL' (--compare): a .jsonl time series "
                               "goes right after the JSON results of its run: "
                               "iospd --compare a.json a.jsonl b.json b.jsonl");
  assert_int_equal(strlen(iospd_strbuf_cstr(&out)), 0);
  iospd_strbuf_destroy(&out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_t_pvalue),
      cmocka_unit_test(test_autocorrelation_correction),
      cmocka_unit_test(test_fixed_seed_series),
      cmocka_unit_test(test_too_few_or_flat),
      cmocka_unit_test(test_build_values_and_verdicts),
      cmocka_unit_test(test_build_without_latency_or_intervals),
      cmocka_unit_test(test_profiles_and_fields),
      cmocka_unit_test(test_percentiles_from_a_time_series),
      cmocka_unit_test(test_trailing_empty_intervals),
      cmocka_unit_test(test_rows_per_target),
      cmocka_unit_test(test_text_table),
      cmocka_unit_test(test_mode_arguments),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
