/* SPDX-License-Identifier: MIT */
/* The curve and PTS pages (iospd_html_curve, iospd_html_pts) from the
 * hand-made documents of tests/data (curve-*.json, pts-*.json, valid
 * against the producers' schemas): the values the page shows and marks
 * are the document's, the limit line and the bands sit at their values,
 * and anything that is not the document is refused with what is wrong. */
#include <cJSON.h>

#include "iospd/compare.h"
#include "iospd/html.h"
#include "test_util.h"

static cJSON* load(const char* name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", IOSPD_TEST_DATA_DIR, name);
  FILE* f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* s = malloc((size_t)n + 1);
  assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
  s[n] = '\0';
  fclose(f);
  cJSON* d = cJSON_Parse(s);
  free(s);
  assert_non_null(d);
  return d;
}

/* The page of a document, rendered twice: the same bytes. */
static char* page_of(cJSON* d, bool pts) {
  iospd_strbuf_t a, b;
  iospd_err_t err;
  iospd_strbuf_init(&a);
  iospd_strbuf_init(&b);
  iospd_err_clear(&err);
  assert_int_equal(
      pts ? iospd_html_pts(d, &a, &err) : iospd_html_curve(d, &a, &err), 0);
  assert_int_equal(
      pts ? iospd_html_pts(d, &b, &err) : iospd_html_curve(d, &b, &err), 0);
  assert_int_equal(a.len, b.len);
  assert_memory_equal(iospd_strbuf_cstr(&a), iospd_strbuf_cstr(&b), a.len);
  size_t n = a.len;
  char* s = malloc(n + 1);
  memcpy(s, iospd_strbuf_cstr(&a), n + 1);
  iospd_strbuf_destroy(&a);
  iospd_strbuf_destroy(&b);
  return s;
}

/* The markup of chart `id`, up to its </figure>, as a new string. */
static char* figure(const char* page, const char* id) {
  char key[96];
  snprintf(key, sizeof key, "data-chart=\"%s\"", id);
  const char* a = strstr(page, key);
  assert_non_null(a);
  const char* z = strstr(a, "</figure>");
  assert_non_null(z);
  char* s = malloc((size_t)(z - a) + 1);
  memcpy(s, a, (size_t)(z - a));
  s[z - a] = '\0';
  return s;
}

static size_t count(const char* hay, const char* needle) {
  size_t n = 0;
  for (const char* p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

static void test_curve_knee(void** state) {
  (void)state;
  cJSON* d = load("curve-knee.json");
  char* p = page_of(d, false);
  char* hs = figure(p, "curve-latency");
  /* the six curve points, the three bisection points, the 64K probe */
  assert_int_equal(count(hs, "<circle data-x="), 6 + 3 + 1);
  assert_non_null(
      strstr(hs, "<circle data-x=\"4950\" data-y=\"0.41999999999999998\""));
  assert_non_null(
      strstr(hs, "<circle data-x=\"20010\" data-y=\"2.6000000000000001\""));
  assert_non_null(strstr(hs, "<g data-dots=\"bisection and rate points\""));
  assert_non_null(strstr(hs, "<circle data-x=\"19990\" data-y=\"1.01\""));
  /* the limit line at 1 ms, the knee at point 4, the answer */
  assert_non_null(strstr(hs, "<line data-hline=\"limit\" data-value=\"1\""));
  assert_non_null(strstr(hs, "limit: p99 &lt;= 1 ms</text>"));
  assert_non_null(strstr(hs,
                         "<g data-mark=\"knee\" data-x=\"19900\" "
                         "data-y=\"0.69999999999999996\">"));
  assert_non_null(strstr(hs,
                         "<g data-mark=\"answer\" data-x=\"19980\" "
                         "data-y=\"0.93500000000000005\">"));
  assert_non_null(strstr(hs, "answer: 19980 IOPS</text>"));
  assert_non_null(strstr(hs, "data-plot=\"1\""));
  free(hs);
  /* IOPS against -o on a log axis from 1 to 100, the knee at -o8 */
  char* tp = figure(p, "curve-throughput");
  assert_non_null(strstr(tp,
                         "data-x-axis=\"log\" data-x-lo=\"1\" "
                         "data-x-hi=\"100\""));
  assert_int_equal(count(tp, "<circle data-x="), 6);
  assert_non_null(strstr(tp, "<circle data-x=\"32\" data-y=\"20010\""));
  assert_non_null(strstr(tp,
                         "<g data-mark=\"knee\" data-x=\"8\" "
                         "data-y=\"19900\">"));
  free(tp);
  char* pc = figure(p, "curve-p99");
  assert_non_null(
      strstr(pc, "<circle data-x=\"16\" data-y=\"1.3500000000000001\""));
  assert_non_null(strstr(pc, "<line data-hline=\"limit\" data-value=\"1\""));
  free(pc);
  /* the point table, the findings, the verdict in order */
  assert_non_null(strstr(p, "data-point=\"10\" data-metric=\"iops\">19980<"));
  assert_non_null(strstr(p, "data-point=\"5\" data-metric=\"mean_ms\">0.798<"));
  assert_non_null(
      strstr(p, "data-point=\"7\" data-metric=\"block_size\">65536<"));
  assert_non_null(strstr(p,
                         "<th>knee</th><td>point 4, axis value 8: 19900 "
                         "IOPS, 77.73 MiB/s, p99 0.7 ms</td>"));
  assert_non_null(strstr(p,
                         "<th>answer</th><td>point 10, axis value 11: "
                         "19980 IOPS at p99 0.935 ms (bracketed between "
                         "11, within the limit, and 12, over it)</td>"));
  assert_non_null(strstr(p,
                         "<th>cap</th><td>an IOPS cap at 19900 IOPS: 4K "
                         "and 64K points"));
  assert_non_null(strstr(p,
                         "<th>latency limit</th><td>p99 of total I/O &lt;= "
                         "1 ms</td>"));
  assert_non_null(strstr(p, "<th>expected (--expect)</th><td>50000 IOPS</td>"));
  const char* v1 = strstr(p, "<li>The run plateaus at 19,900 IOPS from QD 8");
  const char* v5 = strstr(p, "<li>The run got 19,980 of the 50,000 IOPS");
  assert_non_null(v1);
  assert_non_null(v5);
  assert_true(v1 < v5);
  assert_int_equal(count(p, "data-table=\"littles-law\""), 1);
  assert_null(strstr(p, "data-banner"));
  free(p);
  cJSON_Delete(d);
}

static void test_curve_nolimit_interrupted(void** state) {
  (void)state;
  cJSON* d = load("curve-nolimit.json");
  char* p = page_of(d, false);
  assert_null(strstr(p, "data-hline"));
  assert_null(strstr(p, "data-mark"));
  assert_non_null(strstr(p, "data-note=\"curve-latency-limit\""));
  assert_non_null(strstr(p,
                         "<th>latency limit</th><td>none (no "
                         "--latency-limit)</td>"));
  assert_non_null(strstr(p,
                         "<th>cap</th><td>iospd itself (add threads) at "
                         "1340000 IOPS"));
  assert_non_null(strstr(p,
                         "<th>axis</th><td>threads per target (-t): 1, 2, "
                         "4, 8</td>"));
  /* no limit: p99 on y, "within the limit" is "-" */
  char* hs = figure(p, "curve-latency");
  assert_int_equal(count(hs, "<circle data-x="), 4);
  free(hs);
  assert_non_null(strstr(p, "<td>-</td></tr>"));
  free(p);
  cJSON_Delete(d);
  d = load("curve-interrupted.json");
  p = page_of(d, false);
  assert_non_null(strstr(p,
                         "data-banner=\"interrupted\">The curve was cut "
                         "short (Ctrl-C): 3 points done"));
  assert_non_null(strstr(p, "<th>stopped</th><td>interrupted (Ctrl-C)"));
  assert_non_null(strstr(p, "<th>knee</th><td>none found"));
  free(p);
  cJSON_Delete(d);
}

static void test_curve_refused(void** state) {
  (void)state;
  iospd_strbuf_t out;
  iospd_err_t err;
  iospd_strbuf_init(&out);
  cJSON* d = load("pts-converged.json");
  iospd_err_clear(&err);
  assert_int_equal(iospd_html_curve(d, &out, &err), IOSPD_EUSAGE);
  assert_string_equal(err.msg,
                      "not an iospd curve document: it has no "
                      "\"format\": \"iospd-curve\" (write one with "
                      "--curve and --output=json:FILE)");
  cJSON_Delete(d);
  d = load("curve-knee.json");
  cJSON_ReplaceItemInObject(d, "format_version", cJSON_CreateNumber(2));
  iospd_err_clear(&err);
  assert_int_equal(iospd_html_curve(d, &out, &err), IOSPD_EUSAGE);
  assert_non_null(strstr(err.msg, "newer iospd (format_version 2)"));
  cJSON_ReplaceItemInObject(d, "format_version", cJSON_CreateNumber(1));
  cJSON_DeleteItemFromObject(d, "points");
  iospd_err_clear(&err);
  assert_int_equal(iospd_html_curve(d, &out, &err), IOSPD_EUSAGE);
  assert_non_null(strstr(err.msg, "no \"points\" array"));
  cJSON_Delete(d);
  iospd_err_clear(&err);
  assert_int_equal(iospd_html_curve_text("x.json", "{\"a\":", 5, &out, &err),
                   IOSPD_EUSAGE);
  assert_string_equal(err.msg, "'x.json': not JSON");
  iospd_strbuf_destroy(&out);
}

static void test_pts_converged(void** state) {
  (void)state;
  cJSON* d = load("pts-converged.json");
  char* p = page_of(d, true);
  assert_non_null(strstr(p, "<th>model</th><td>ExampleCorp NV3 1TB</td>"));
  assert_non_null(strstr(p, "<th>firmware</th><td>3B2QGXA7</td>"));
  assert_non_null(strstr(p, "<th>serial</th><td>unknown</td>"));
  assert_non_null(strstr(p,
                         "<th>device</th><td>/dev/nvme1n1 (disk, "
                         "1000190509056 bytes)</td>"));
  assert_non_null(strstr(p, "<th>purge</th><td>trim (1.2 s)</td>"));
  assert_non_null(strstr(p,
                         "<th>preconditioning (WIPC)</th><td>15261696 "
                         "writes of 128 KiB sequential, 2000381018112 "
                         "bytes in 1000.2 s</td>"));
  assert_non_null(strstr(p,
                         "<th>threads and depth</th><td>1 thread, 8 "
                         "outstanding I/Os each</td>"));
  assert_non_null(strstr(p, "<th>rounds</th><td>7 of at most 25</td>"));
  assert_non_null(strstr(p, "<th>platform</th><td>vm, linux, iospd 0.1.0"));
  assert_non_null(strstr(p, "data-conformant=\"yes\">yes</td>"));
  assert_non_null(strstr(p,
                         "<th>steady state</th><td>yes: steady state was "
                         "reached (stopped: steady)</td>"));
  /* convergence: the tracked value and the 8 block sizes at 0/100 */
  char* cv = figure(p, "pts-convergence");
  assert_int_equal(count(cv, "<path data-series="), 1 + 8);
  assert_non_null(strstr(cv, "<g data-dots=\"tracked: 4 KiB 0/100\""));
  assert_non_null(strstr(cv, "<circle data-x=\"1\" data-y=\"60500\""));
  assert_non_null(strstr(cv, "<circle data-x=\"7\" data-y=\"40010\""));
  assert_non_null(
      strstr(cv, "data-series=\"1024 KiB 0/100\" data-points=\"7\""));
  free(cv);
  /* the window: rounds 3..7, the mean and the bands of the document's
   * mean, the fitted line from its intercept and slope */
  char* w = figure(p, "pts-window");
  char key[160];
  assert_non_null(strstr(w, "<line data-hline=\"mean\" data-value=\"40022\""));
  snprintf(key, sizeof key,
           "data-band=\"20\" data-y0=\"%.17g\" "
           "data-y1=\"%.17g\"",
           40022.0 * 0.8, 40022.0 * 1.2);
  assert_non_null(strstr(w, key));
  snprintf(key, sizeof key,
           "data-band=\"10\" data-y0=\"%.17g\" "
           "data-y1=\"%.17g\"",
           40022.0 * 0.9, 40022.0 * 1.1);
  assert_non_null(strstr(w, key));
  assert_int_equal(count(w, "<circle data-x="), 5);
  assert_non_null(strstr(w, "<circle data-x=\"3\" data-y=\"40000\""));
  assert_non_null(strstr(w, "<circle data-x=\"7\" data-y=\"40010\""));
  assert_non_null(strstr(w,
                         "data-series=\"fitted line (least squares)\" "
                         "data-points=\"2\""));
  free(w);
  assert_non_null(strstr(p, "data-round=\"3\">40000<"));
  assert_non_null(strstr(p, "data-w=\"mean\">40022<"));
  assert_non_null(strstr(p, "data-w=\"data_excursion\">150<"));
  assert_non_null(strstr(p, "data-w=\"data_excursion_pct\">0.38<"));
  assert_non_null(strstr(p, "data-w=\"slope_excursion\">12<"));
  assert_non_null(strstr(p, "y = 40028 - 3 &#215; (round - 3)"));
  /* the last round's matrix: 8 block sizes x 7 mixes */
  assert_int_equal(count(p, " data-bs=\""), 8 * 7);
  assert_non_null(strstr(p, "data-bs=\"4096\" data-read=\"0\">40010<"));
  assert_non_null(strstr(p, "<th>65/35 R/W</th>"));
  char* mp = figure(p, "pts-matrix-plot");
  assert_int_equal(count(mp, "<path data-series="), 7);
  assert_non_null(strstr(mp, "data-series=\"100/0 R/W\" data-points=\"8\""));
  assert_non_null(strstr(mp, "<circle data-x=\"4\" data-y=\"40010\""));
  free(mp);
  free(p);
  cJSON_Delete(d);
}

static void test_pts_max_rounds(void** state) {
  (void)state;
  cJSON* d = load("pts-maxrounds.json");
  char* p = page_of(d, true);
  assert_non_null(strstr(p,
                         "data-conformant=\"no\">no: cells of 1 s (PTS: "
                         "60 s); a reduced matrix (--pts-matrix)</td>"));
  assert_non_null(strstr(p,
                         "<th>rounds</th><td>25 of at most 25 (12 read "
                         "back by --pts-resume)</td>"));
  assert_non_null(strstr(p,
                         "<th>steady state</th><td>no: steady state was "
                         "not reached (stopped: after the 25-round "
                         "cap)</td>"));
  assert_non_null(strstr(p, "<th>model</th><td>unknown</td>"));
  assert_non_null(strstr(p, "<th>purge</th><td>none</td>"));
  assert_non_null(strstr(p,
                         "data-w=\"data_excursion_pct\">44.46</td><td "
                         "class=\"n\">20</td><td>no</td>"));
  char* w = figure(p, "pts-window");
  assert_non_null(strstr(w, "<circle data-x=\"21\" data-y=\"34000\""));
  assert_non_null(strstr(w, "<circle data-x=\"25\" data-y=\"34600\""));
  free(w);
  assert_int_equal(count(p, " data-bs=\""), 3 * 3);
  free(p);
  /* before the fifth round there is no window: a note instead */
  cJSON_ReplaceItemInObject(d, "window", cJSON_CreateNull());
  p = page_of(d, true);
  assert_non_null(strstr(p,
                         "data-note=\"pts-window\">No measurement window "
                         "yet"));
  assert_null(strstr(p, "data-chart=\"pts-window\""));
  free(p);
  cJSON_Delete(d);
}

static void test_pts_refused(void** state) {
  (void)state;
  iospd_strbuf_t out;
  iospd_err_t err;
  iospd_strbuf_init(&out);
  cJSON* d = load("curve-knee.json");
  iospd_err_clear(&err);
  assert_int_equal(iospd_html_pts(d, &out, &err), IOSPD_EUSAGE);
  assert_string_equal(err.msg,
                      "not an iospd PTS document: it has no "
                      "\"format\": \"iospd-pts\" (write one with "
                      "--pts and --output=json:FILE)");
  cJSON_Delete(d);
  d = load("pts-converged.json");
  cJSON_DeleteItemFromObject(d, "rounds");
  iospd_err_clear(&err);
  assert_int_equal(iospd_html_pts(d, &out, &err), IOSPD_EUSAGE);
  assert_non_null(strstr(err.msg, "no \"rounds\" array"));
  cJSON_Delete(d);
  /* from the bytes: the file named, the same page as from the tree */
  iospd_err_clear(&err);
  assert_int_equal(iospd_html_pts_text("p.json", "[1]", 3, &out, &err),
                   IOSPD_EUSAGE);
  assert_string_equal(err.msg, "'p.json': not an iospd PTS document: it has "
                               "no \"format\": \"iospd-pts\" (write one "
                               "with --pts and --output=json:FILE)");
  d = load("pts-maxrounds.json");
  char* text = cJSON_PrintUnformatted(d);
  char* want = page_of(d, true);
  iospd_strbuf_t got;
  iospd_strbuf_init(&got);
  assert_int_equal(iospd_html_pts_text("p.json", text, strlen(text), &got,
                                       &err), 0);
  assert_string_equal(iospd_strbuf_cstr(&got), want);
  iospd_strbuf_destroy(&got);
  free(want);
  cJSON_free(text);
  cJSON_Delete(d);
  d = load("curve-nolimit.json");
  text = cJSON_PrintUnformatted(d);
  want = page_of(d, false);
  iospd_strbuf_init(&got);
  assert_int_equal(iospd_html_curve_text("c.json", text, strlen(text), &got,
                                         &err), 0);
  assert_string_equal(iospd_strbuf_cstr(&got), want);
  iospd_strbuf_destroy(&got);
  free(want);
  cJSON_free(text);
  cJSON_Delete(d);
  iospd_strbuf_destroy(&out);
}

static void test_curve_compare(void** state) {
  (void)state;
  cJSON* a = load("curve-knee.json");
  cJSON* b = load("curve-knee-b.json");
  iospd_strbuf_t out;
  iospd_err_t err;
  iospd_strbuf_init(&out);
  iospd_err_clear(&err);
  assert_int_equal(iospd_compare_curves(a, b, "a.json", "b.json", &out, &err),
                   0);
  const char* t = iospd_strbuf_cstr(&out);
  assert_non_null(strstr(t, "Curve comparison (B against A)\n  A: a.json\n  "
                            "B: b.json\naxis: outstanding I/Os per thread "
                            "(-o)\n"));
  /* B is 1.5 times the IOPS and 0.8 times the p99 of A at every value */
  assert_non_null(strstr(t, "\n         8 |    19900.0 |    29850.0 |  1.500 "
                            "|      0.700 |      0.560 |  0.800\n"));
  assert_non_null(strstr(t, "\n        32 |    20010.0 |    30015.0 |  1.500 "
                            "|      2.600 |      2.080 |  0.800\n"));
  assert_int_equal(count(t, "|  1.500 |"), 6);
  assert_non_null(strstr(t, "Answer:\n  A: point 10, axis value 11: 19980.0 "
                            "IOPS, latency 0.935 ms\n  B: point 8, axis value "
                            "12: 29985.0 IOPS, latency 0.808 ms\n"));
  assert_non_null(strstr(t, "Verdict of B:\n  The run plateaus at 29,850 IOPS"));
  iospd_strbuf_destroy(&out);
  /* an interrupted B: its missing points are "-" */
  cJSON* c = load("curve-interrupted.json");
  iospd_strbuf_init(&out);
  assert_int_equal(iospd_compare_curves(a, c, "a.json", "c.json", &out, &err),
                   0);
  t = iospd_strbuf_cstr(&out);
  assert_non_null(strstr(t, "\n        16 |    20050.0 |          - |      - "
                            "|      1.350 |          - |      -\n"));
  assert_non_null(strstr(t, "Verdict of B (the curve was cut short):\n"));
  iospd_strbuf_destroy(&out);
  /* the HTML overlay: both curves' dots, both knees, the ratios */
  iospd_strbuf_init(&out);
  assert_int_equal(
      iospd_html_curve_compare(a, b, "a.json", "b.json", &out, &err), 0);
  char* hs = figure(iospd_strbuf_cstr(&out), "curve-latency");
  assert_non_null(strstr(hs, "<circle data-x=\"19900\" data-y=\"0.69999999999999996\""));
  assert_non_null(strstr(hs, "<circle data-x=\"29850\" data-y=\"0.56000000000000005\""));
  assert_non_null(strstr(hs, "<g data-mark=\"knee-A\" data-x=\"19900\""));
  assert_non_null(strstr(hs, "<g data-mark=\"knee-B\" data-x=\"29850\""));
  /* the same limit in both: one line */
  assert_int_equal(count(hs, "data-hline="), 1);
  free(hs);
  const char* h = iospd_strbuf_cstr(&out);
  assert_non_null(strstr(h, "data-axis=\"8\" data-ratio=\"iops\">1.5<"));
  assert_non_null(strstr(h, "data-axis=\"8\" data-ratio=\"p99\">0.8<"));
  assert_non_null(strstr(h, "<ul data-list=\"verdict-B\">"));
  iospd_strbuf_destroy(&out);
  /* a results document is not a curve */
  cJSON* r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "format", "iospd-results");
  iospd_strbuf_init(&out);
  assert_int_equal(iospd_compare_curves(a, r, "a.json", "r.json", &out, &err),
                   IOSPD_EUSAGE);
  assert_string_equal(err.msg, "'r.json' (--compare): not an iospd curve "
                               "document; a curve is compared with another "
                               "curve (--curve with --output=json:FILE)");
  iospd_strbuf_destroy(&out);
  cJSON_Delete(r);
  cJSON_Delete(c);
  cJSON_Delete(a);
  cJSON_Delete(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_curve_knee),
      cmocka_unit_test(test_curve_nolimit_interrupted),
      cmocka_unit_test(test_curve_refused),
      cmocka_unit_test(test_pts_converged),
      cmocka_unit_test(test_pts_max_rounds),
      cmocka_unit_test(test_pts_refused),
      cmocka_unit_test(test_curve_compare),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
