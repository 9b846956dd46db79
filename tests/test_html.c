/* SPDX-License-Identifier: MIT */
/* The HTML report renderer (src/html): bad input refused naming the file,
 * the same bytes for the same input, paths escaped (no "</script>" break-
 * out), the embedded document decoding to the input, notes instead of
 * latency charts without -L, thinning that keeps a spike, the slim
 * embedding of a long run with exact counts, and the comparison (banner
 * only with --force across profiles). */
#include <cJSON.h>
#include <zlib.h>

#include "html/html_chart.h"
#include "iospd/alloc.h"
#include "iospd/html.h"
#include "test_util.h"

static char* copy_str(const char* s) {
  size_t n = strlen(s) + 1;
  char* d = malloc(n);
  memcpy(d, s, n);
  return d;
}

static char* read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* s = malloc((size_t)n + 1);
  assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
  s[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return s;
}

static char* fixture(size_t* len) {
  return read_file(IOSPD_TEST_DATA_DIR "/html/run-si-L-D500.json", len);
}

static int render(const iospd_html_input_t* in, size_t n, bool force,
                  iospd_strbuf_t* out, iospd_err_t* err) {
  iospd_html_opts_t o = {.force = force};
  iospd_strbuf_init(out);
  iospd_err_clear(err);
  return iospd_html_report(in, n, &o, out, err);
}

static size_t count(const char* hay, const char* needle) {
  size_t n = 0;
  for (const char* p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

static void test_bad_input(void** state) {
  (void)state;
  size_t len;
  char* good = fixture(&len);
  char* newer = copy_str(good);
  char* v = strstr(newer, "\"format_version\": 1");
  assert_non_null(v);
  v[strlen("\"format_version\": ")] = '7';
  struct {
    const char* text;
    size_t len;
    const char* says;
  } cases[] = {{"hello", 5, "not JSON"},
               {good, len / 2, "truncated"},
               {"{\"a\": 1}", 8, "not iospd results"},
               {newer, len, "format_version 7"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    iospd_html_input_t in = {.name = "bad-input.json", .json = cases[i].text,
                             .json_len = cases[i].len};
    iospd_strbuf_t out;
    iospd_err_t err;
    assert_int_equal(render(&in, 1, false, &out, &err), IOSPD_EUSAGE);
    assert_non_null(strstr(err.msg, "bad-input.json"));
    if (strstr(err.msg, cases[i].says) == NULL)
      fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, cases[i].says);
    iospd_strbuf_destroy(&out);
  }
  /* a .jsonl that is not a time series, named by file */
  iospd_html_input_t in = {.name = "a.json", .json = good, .json_len = len,
                           .jsonl_name = "a.jsonl", .jsonl = "{\"x\":1}\n",
                           .jsonl_len = 8};
  iospd_strbuf_t out;
  iospd_err_t err;
  assert_int_equal(render(&in, 1, false, &out, &err), IOSPD_EUSAGE);
  assert_non_null(strstr(err.msg, "a.jsonl"));
  iospd_strbuf_destroy(&out);
  free(newer);
  free(good);
}

/* base64 -> zlib -> text (the test's own decoder). */
static char* unpack(const char* b64, size_t n, size_t want) {
  static const char k[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  unsigned char* z = malloc(n);
  size_t m = 0;
  unsigned acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n && b64[i] != '='; i++) {
    acc = (acc << 6) | (unsigned)(strchr(k, b64[i]) - k);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      z[m++] = (unsigned char)(acc >> bits);
    }
  }
  char* text = malloc(want + 1);
  uLongf out = want;
  assert_int_equal(uncompress((Bytef*)text, &out, z, m), Z_OK);
  assert_int_equal(out, want);
  text[want] = '\0';
  free(z);
  return text;
}

/* The text of the embedded element id (decoded). */
static char* embedded(const char* page, const char* id, const char* kind) {
  char key[96];
  snprintf(key, sizeof key, "id=\"%s\" data-kind=\"%s\"", id, kind);
  const char* p = strstr(page, key);
  if (p == NULL) fail_msg("no element %s of kind %s", id, kind);
  const char* b = strstr(p, "data-bytes=\"");
  size_t want = strtoul(b + 12, NULL, 10);
  const char* q = strstr(b, ">\"") + 2;
  const char* e = strchr(q, '"');
  return unpack(q, (size_t)(e - q), want);
}

static void test_same_bytes_escaped_embedded(void** state) {
  (void)state;
  size_t len;
  char* doc = fixture(&len);
  iospd_html_input_t in = {.name = "x.json", .json = doc, .json_len = len};
  iospd_strbuf_t a, b;
  iospd_err_t err;
  assert_int_equal(render(&in, 1, false, &a, &err), 0);
  in.name = "another name.json"; /* the name of one run is not shown */
  assert_int_equal(render(&in, 1, false, &b, &err), 0);
  assert_int_equal(a.len, b.len);
  assert_memory_equal(a.data, b.data, a.len);
  const char* page = iospd_strbuf_cstr(&a);
  /* the fixture's target is "x</script><b>y.dat" */
  assert_non_null(strstr(page, "x&lt;/script&gt;&lt;b&gt;y.dat"));
  assert_int_equal(count(page, "</script>"), 2); /* the data, the script */
  assert_int_equal(count(page, "<script"), 2);
  char* back = embedded(page, "iospd-results-0", "results");
  assert_string_equal(back, doc);
  /* every chart of one run with -L */
  const char* charts[] = {"iops-time", "mibs-time", "latency-time",
                          "percentiles", "histogram", "balance-threads",
                          "balance-targets", "cpu"};
  char key[64];
  for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
    snprintf(key, sizeof key, "data-chart=\"%s\"", charts[i]);
    if (strstr(page, key) == NULL) fail_msg("no chart %s", charts[i]);
  }
  /* the run's three warnings, escaped */
  assert_non_null(strstr(page, "<li>WARNING: single-threaded test, -si "
                               "ignored</li>"));
  assert_int_equal(count(page, "<li>"), 3);
  free(back);
  free(doc);
  iospd_strbuf_destroy(&a);
  iospd_strbuf_destroy(&b);
}

/* The fixture without latency: -L off, no lat_ms in the rows. */
static char* without_latency(const char* doc) {
  cJSON* d = cJSON_Parse(doc);
  cJSON* ts = cJSON_GetArrayItem(cJSON_GetObjectItem(d, "timespans"), 0);
  cJSON* tot = cJSON_GetObjectItem(ts, "total");
  const char* dirs[] = {"read", "write", "total"};
  for (int i = 0; i < 3; i++)
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(tot, dirs[i]), "latency",
                              cJSON_CreateNull());
  cJSON* row;
  cJSON_ArrayForEach(row, cJSON_GetObjectItem(d, "timeseries")) {
    for (int i = 0; i < 3; i++)
      cJSON_DeleteItemFromObject(cJSON_GetObjectItem(row, dirs[i]), "lat_ms");
  }
  char* s = cJSON_PrintUnformatted(d);
  cJSON_Delete(d);
  return s;
}

static void test_no_latency_notes(void** state) {
  (void)state;
  size_t len;
  char* doc = fixture(&len);
  char* nol = without_latency(doc);
  iospd_html_input_t in = {.name = "n.json", .json = nol,
                           .json_len = strlen(nol)};
  iospd_strbuf_t out;
  iospd_err_t err;
  assert_int_equal(render(&in, 1, false, &out, &err), 0);
  const char* page = iospd_strbuf_cstr(&out);
  assert_null(strstr(page, "data-chart=\"latency-time\""));
  assert_null(strstr(page, "data-chart=\"percentiles\""));
  assert_null(strstr(page, "data-chart=\"histogram\""));
  assert_non_null(strstr(page, "data-note=\"latency-time\""));
  assert_non_null(strstr(page, "data-note=\"percentiles\""));
  assert_non_null(strstr(page, "data-chart=\"iops-time\""));
  iospd_strbuf_destroy(&out);
  cJSON_free(nol);
  free(doc);
}

static void test_thinning_keeps_a_spike(void** state) {
  (void)state;
  enum { N = 5000 };
  double* x = malloc(N * sizeof *x);
  double* y = malloc(N * sizeof *y);
  for (int i = 0; i < N; i++) {
    x[i] = i;
    y[i] = 100 + (i % 7);
  }
  y[3001] = 1000; /* one interval's spike */
  y[4003] = 0;    /* and a dip */
  html_series_t s = {.label = "s", .n = N, .x = x, .y = y};
  html_chart_t c = {"t", "t", "x", "y", HTML_AXIS_LINEAR, HTML_AXIS_LINEAR,
                    &s, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0, false};
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  iospd_html_line_chart(&out, &c);
  const char* p = strstr(iospd_strbuf_cstr(&out), "data-points=\"");
  assert_non_null(p);
  long pts = strtol(p + 13, NULL, 10);
  assert_true(pts >= 2 && pts <= HTML_MAX_POINTS);
  /* the path visits the top of the plot (y = 1000 is the axis top) and
   * the bottom (0): walk the relative steps */
  const char* d = strstr(p, " d=\"M") + 5;
  long cx = strtol(d, (char**)&d, 10), cy = strtol(d, (char**)&d, 10);
  long ymin = cy, ymax = cy, steps = 1;
  if (*d == 'l') d++;
  while (*d != '"') {
    cx += strtol(d, (char**)&d, 10);
    cy += strtol(d, (char**)&d, 10);
    if (cy < ymin) ymin = cy;
    if (cy > ymax) ymax = cy;
    steps++;
    while (*d == ' ') d++;
  }
  (void)cx;
  assert_int_equal(steps, pts);
  assert_int_equal(ymin, 34);  /* PT: the spike at the axis top */
  assert_int_equal(ymax, 274); /* PB: the dip at zero */
  iospd_strbuf_destroy(&out);
  free(x);
  free(y);
}

/* What a crafted file could hold: x out of order (thinning must stay in
 * its room) and a row naming a huge target (left out, not allocated). */
static void test_crafted_input(void** state) {
  (void)state;
  enum { N = 6000 };
  double* x = malloc(N * sizeof *x);
  double* y = malloc(N * sizeof *y);
  for (int i = 0; i < N; i++) {
    x[i] = (i * 7919) % N; /* jumps back and forth */
    y[i] = i % 13;
  }
  html_series_t s = {.label = "s", .n = N, .x = x, .y = y};
  html_chart_t c = {"t", "t", "x", "y", HTML_AXIS_LINEAR, HTML_AXIS_LINEAR,
                    &s, 1, NULL, 0, NULL, 0, NULL, 0, NULL, 0, false};
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  iospd_html_line_chart(&out, &c);
  const char* p = strstr(iospd_strbuf_cstr(&out), "data-points=\"");
  long pts = strtol(p + 13, NULL, 10);
  assert_true(pts >= 2 && pts <= HTML_MAX_POINTS);
  iospd_strbuf_destroy(&out);
  free(x);
  free(y);

  size_t len;
  char* doc = fixture(&len);
  cJSON* d = cJSON_Parse(doc);
  cJSON* rows = cJSON_GetObjectItem(d, "timeseries");
  cJSON* odd = cJSON_Duplicate(cJSON_GetArrayItem(rows, 0), true);
  cJSON_ReplaceItemInObject(odd, "target", cJSON_CreateNumber(4e9));
  cJSON_AddItemToArray(rows, odd);
  char* text = cJSON_PrintUnformatted(d);
  iospd_html_input_t in = {.name = "odd.json", .json = text,
                           .json_len = strlen(text)};
  iospd_err_t err;
  assert_int_equal(render(&in, 1, false, &out, &err), 0);
  assert_null(strstr(iospd_strbuf_cstr(&out), "target 4000000000"));
  /* one target: its lines are the total's, listed once (issue #31) */
  const char* pg = iospd_strbuf_cstr(&out);
  assert_null(strstr(pg, "data-series=\"target 0 read\""));
  assert_int_equal(count(pg, "<path data-series=\"total read\""), 2);
  assert_int_equal(count(pg, "<path data-series=\"total write\""), 2);
  iospd_strbuf_destroy(&out);
  cJSON_free(text);
  cJSON_Delete(d);
  free(doc);
}

/* An hour's worth of rows: the page embeds the slim document and the
 * columns, whose counts add up to the rows'. */
static void test_long_run_embeds_columns(void** state) {
  (void)state;
  size_t len;
  char* doc = fixture(&len);
  cJSON* d = cJSON_Parse(doc);
  cJSON* rows = cJSON_CreateArray();
  uint32_t seed = 14;
  static const char* const tname[] = {"0", "1", "2", "3", "4", "5", "6", "7"};
  double sum_read = 0;
  enum { N = 3600 };
  for (int i = 0; i < N; i++)
    for (int t = 0; t < 9; t++) { /* 8 targets and the total */
      char row[512];
      seed = seed * 1103515245u + 12345u;
      unsigned ios = 20000 + (seed >> 16) % 3000;
      snprintf(row, sizeof row,
               "{\"timespan\":0,\"phase\":\"measuring\",\"start_ms\":%d,"
               "\"end_ms\":%d,\"target\":%s,\"read\":{\"ios\":%u,\"bytes\":%u,"
               "\"iops\":%u,\"mib_s\":1,\"lat_ms\":{\"p50\":0.%03u,"
               "\"p99\":1.%03u,\"p99_9\":2.5}},\"write\":{\"ios\":0,"
               "\"bytes\":0,\"iops\":0,\"mib_s\":0,\"lat_ms\":null},"
               "\"total\":{\"ios\":%u,\"bytes\":%u,\"iops\":%u,\"mib_s\":1,"
               "\"lat_ms\":{\"p50\":0.1,\"p99\":1,\"p99_9\":2}}}",
               i * 1000, i * 1000 + 1000, t == 8 ? "\"total\"" : tname[t],
               ios, ios * 4096, ios, ios % 1000, ios % 997, ios, ios * 4096,
               ios);
      cJSON_AddItemToArray(rows, cJSON_Parse(row));
      if (t < 8) sum_read += ios;
    }
  cJSON_ReplaceItemInObject(d, "timeseries", rows);
  char* big = cJSON_Print(d);
  iospd_html_input_t in = {.name = "long.json", .json = big,
                           .json_len = strlen(big)};
  iospd_strbuf_t out;
  iospd_err_t err;
  assert_int_equal(render(&in, 1, false, &out, &err), 0);
  const char* page = iospd_strbuf_cstr(&out);
  assert_true(out.len < 1024 * 1024);
  char* slim = embedded(page, "iospd-results-0", "results-slim");
  cJSON* s = cJSON_Parse(slim);
  assert_string_equal(cJSON_GetObjectItem(s, "format")->valuestring,
                      "iospd-results");
  assert_null(cJSON_GetObjectItem(s, "timeseries"));
  char* cols = embedded(page, "iospd-timeseries-0", "timeseries-columns");
  cJSON* c = cJSON_Parse(cols);
  assert_int_equal(cJSON_GetObjectItem(c, "intervals")->valueint, N);
  double sum = 0;
  cJSON* t;
  cJSON_ArrayForEach(t, cJSON_GetObjectItem(c, "targets")) {
    cJSON* v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItem(t, "read_ios")) sum += v->valuedouble;
  }
  assert_true(sum == sum_read);
  assert_non_null(strstr(page, "data-note=\"data\""));
  cJSON_Delete(c);
  cJSON_Delete(s);
  free(cols);
  free(slim);
  iospd_strbuf_destroy(&out);
  cJSON_free(big);
  cJSON_Delete(d);
  free(doc);
}

static void test_compare(void** state) {
  (void)state;
  size_t len;
  char* doc = fixture(&len);
  iospd_html_input_t in[2] = {{.name = "a.json", .json = doc, .json_len = len},
                              {.name = "b.json", .json = doc, .json_len = len}};
  iospd_strbuf_t out;
  iospd_err_t err;
  assert_int_equal(render(in, 2, false, &out, &err), 0);
  const char* page = iospd_strbuf_cstr(&out);
  assert_non_null(strstr(page, "data-table=\"comparison\""));
  assert_null(strstr(page, "data-banner"));
  assert_non_null(strstr(page, "<td>b.json</td>"));
  assert_non_null(strstr(page, "id=\"iospd-results-1\""));
  /* the environment as the text report names it, the JSON keys folded */
  assert_non_null(strstr(page, "<table data-table=\"system\" data-run=\"0\">"
                               "\n<tr><th>computer name</th><td>vm</td></tr>"
                               "\n<tr><th>processor name</th><td>AMD EPYC"));
  assert_non_null(strstr(page, "<tr><th>page size</th><td>4KiB</td></tr>"));
  assert_non_null(strstr(page, "<tr><th>cpu count</th><td>2</td></tr>"));
  assert_non_null(strstr(page, "<tr><th>memory</th><td>23.5 GiB</td></tr>"));
  assert_non_null(strstr(page, "<tr><th>operating system</th><td>Linux "
                               "6.18.44-fc-v1045</td></tr>"));
  assert_non_null(strstr(page, "<tr><td>x&lt;/script&gt;&lt;b&gt;y.dat</td>"
                               "<td>ext4</td><td>/dev/vda</td>"));
  assert_non_null(strstr(page, "<details><summary>every environment key as "
                               "the JSON holds it</summary>"));
  assert_non_null(strstr(page, "<h2>System information</h2>"));
  /* one precision rule per unit (issue #31): MiB/s to 2 decimals
   * (1030.6015625), ms to 3 (0.002188626: 2 us) */
  assert_non_null(strstr(page, "data-run=\"0\" data-timespan=\"0\" "
                               "data-dir=\"read\" data-metric=\"mib_per_s\">"
                               "1030.6<"));
  assert_non_null(strstr(page, "data-run=\"0\" data-timespan=\"0\" "
                               "data-dir=\"read\" data-metric=\"mean_ms\">"
                               "0.002<"));
  /* timespans numbered from 1, as DISKSPD does (issue #31) */
  assert_non_null(strstr(page, "<tr><td>A</td><td class=\"n\">1</td><td>"
                               "read</td>"));
  assert_non_null(strstr(page, "<td>B</td><td class=\"n\">1</td><td>IOPS"));
  assert_null(strstr(page, "<td class=\"n\">0</td><td>read</td>"));
  iospd_strbuf_destroy(&out);
  /* another block size (runs that differ on purpose, issue #31): overlaid
   * without --force, the differing setting shown, no noise verdicts (they
   * need one profile) and no banner; with --force the verdicts and a
   * banner */
  char* other = copy_str(doc);
  char* bs = strstr(other, "\"block_size\": 4096");
  assert_non_null(bs);
  memcpy(bs + strlen("\"block_size\": "), "8192", 4);
  in[1].json = other;
  assert_int_equal(render(in, 2, false, &out, &err), 0);
  page = iospd_strbuf_cstr(&out);
  assert_null(strstr(page, "data-banner"));
  assert_null(strstr(page, "data-table=\"comparison\""));
  assert_non_null(strstr(page, "data-note=\"comparison\">These runs have "
                               "different profiles"));
  assert_non_null(strstr(page, "data-table=\"differences\""));
  assert_non_null(strstr(page, "block_size</code></td><td>4096</td><td>8192"));
  /* both runs' lines overlaid */
  assert_non_null(strstr(page, "data-series=\"run A total\""));
  assert_non_null(strstr(page, "data-series=\"run B total\""));
  iospd_strbuf_destroy(&out);
  assert_int_equal(render(in, 2, true, &out, &err), 0);
  page = iospd_strbuf_cstr(&out);
  assert_non_null(strstr(page, "data-banner=\"forced\""));
  assert_non_null(strstr(page, "data-table=\"comparison\""));
  /* the banner is at the top, before the title */
  assert_true(strstr(page, "data-banner") < strstr(page, "<h1>"));
  assert_non_null(strstr(page, "block_size"));
  iospd_strbuf_destroy(&out);
  free(other);
  free(doc);
}

/* The latency histogram's log count axis (issue #31): ticks at 1, 10,
 * 100, 1000; a bar of 10 I/Os a third of the plot's 240 px, 1000 all of
 * it, 1 a 2-pixel stub; read and write side by side. */
static void test_histogram_log(void** state) {
  (void)state;
  html_bar_t bars[3] = {{"1 ms", {1, 10}}, {"2 ms", {1000, 0}},
                        {"5 ms", {100, 1}}};
  html_bars_t b = {"h", "h", "x", "y", {"read", "write"}, bars, 3, true, true};
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  iospd_html_bar_chart(&out, &b);
  const char* p = iospd_strbuf_cstr(&out);
  for (int i = 0; i < 4; i++) {
    static const char* const t[] = {">1</text>", ">10</text>", ">100</text>",
                                    ">1000</text>"};
    assert_non_null(strstr(p, t[i]));
  }
  assert_null(strstr(p, ">0</text>"));
  /* slot 880-24-72 = 784 / 3 = 261.33, bar 0.7 of it, halves of 91.47 */
  assert_non_null(strstr(p, "height=\"2.0\"><title>1 ms: 1</title>"));
  assert_non_null(strstr(p, "height=\"80.0\"><title>1 ms: 10</title>"));
  assert_non_null(strstr(p, "y=\"34.0\" width=\"91.5\" height=\"240.0\">"
                            "<title>2 ms: 1000</title>"));
  assert_non_null(strstr(p, "height=\"0.0\"><title>2 ms: 0</title>"));
  assert_non_null(strstr(p, "height=\"160.0\"><title>5 ms: 100</title>"));
  iospd_strbuf_destroy(&out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_input),
      cmocka_unit_test(test_same_bytes_escaped_embedded),
      cmocka_unit_test(test_no_latency_notes),
      cmocka_unit_test(test_thinning_keeps_a_spike),
      cmocka_unit_test(test_crafted_input),
      cmocka_unit_test(test_long_run_embeds_columns),
      cmocka_unit_test(test_compare),
      cmocka_unit_test(test_histogram_log),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
