/* SPDX-License-Identifier: MIT */
/* Two curve documents compared (iospd --compare a-curve.json b-curve.json,
 * iospd/compare.h): the points of the curve phase matched by axis value,
 * IOPS and p99 side by side with B's over A's, then both knees, answers,
 * caps and verdicts. Read from the documents only; nothing recomputed
 * but the ratios. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cJSON.h"
#include "iospd/compare.h"
#include "iospd/json_read.h"

int iospd_compare_curve_check(const cJSON* d, const char* name,
                              iospd_err_t* err) {
  const char* f = iospd_json_str(d, "format");
  if (!cJSON_IsObject(d) || f == NULL || strcmp(f, "iospd-curve") != 0)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' (--compare): not an iospd curve document; a "
                         "curve is compared with another curve (--curve "
                         "with --output=json:FILE)",
                         name);
  if (iospd_json_num(d, "format_version") != 1)
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' (--compare): a curve document of "
                         "format_version %g; this iospd reads 1",
                         name, iospd_json_num(d, "format_version"));
  if (!cJSON_IsArray(iospd_json_get(d, "points")))
    return iospd_err_set(err, IOSPD_EUSAGE,
                         "'%s' (--compare): a curve document without its "
                         "\"points\" (a damaged or hand-edited file?)",
                         name);
  return 0;
}

/* The curve-phase point of d at axis value v, or NULL. */
const cJSON* iospd_compare_curve_point(const cJSON* d, double v) {
  const cJSON* p;
  cJSON_ArrayForEach(p, iospd_json_get(d, "points")) {
    const char* ph = iospd_json_str(p, "phase");
    if ((ph == NULL || strcmp(ph, "curve") == 0) && iospd_json_num(p, "axis_value") == v)
      return p;
  }
  return NULL;
}

static void cell(iospd_strbuf_t* out, double v, int width, int dec) {
  if (isfinite(v))
    iospd_strbuf_appendf(out, " %*.*f", width, dec, v);
  else
    iospd_strbuf_appendf(out, " %*s", width, "-");
}

static double ratio(double b, double a) {
  return isfinite(a) && isfinite(b) && a > 0 ? b / a : NAN;
}

/* The axis values of both curves' curve points, in A's order then B's
 * new ones (at most cap). */
size_t iospd_compare_curve_values(const cJSON* a, const cJSON* b, double* v,
                                  size_t cap) {
  size_t n = 0;
  const cJSON* docs[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    const cJSON* p;
    cJSON_ArrayForEach(p, iospd_json_get(docs[k], "points")) {
      const char* ph = iospd_json_str(p, "phase");
      if (ph != NULL && strcmp(ph, "curve") != 0) continue;
      double x = iospd_json_num(p, "axis_value");
      bool seen = false;
      for (size_t i = 0; i < n; i++) seen |= v[i] == x;
      if (!seen && n < cap && isfinite(x)) v[n++] = x;
    }
  }
  return n;
}

static void finding(iospd_strbuf_t* out, const char* what, char run,
                    const cJSON* d) {
  const cJSON* k = iospd_json_get(d, what);
  iospd_strbuf_appendf(out, "  %c: ", run);
  if (!cJSON_IsObject(k)) {
    iospd_strbuf_append(out, "none\n");
    return;
  }
  if (strcmp(what, "cap") == 0) {
    const char* unit = iospd_json_str(k, "unit");
    iospd_strbuf_appendf(out, "%s at %.1f %s\n",
                         iospd_json_str(k, "kind") ? iospd_json_str(k, "kind") : "-", iospd_json_num(k, "value"),
                         unit ? unit : "");
    return;
  }
  double lat = strcmp(what, "knee") == 0 ? iospd_json_num(iospd_json_get(k, "latency_us"), "p99")
                                         : iospd_json_num(k, "latency_us");
  iospd_strbuf_appendf(out,
                       "point %.0f, axis value %.0f: %.1f IOPS, %s %.3f "
                       "ms\n",
                       iospd_json_num(k, "point"), iospd_json_num(k, "axis_value"), iospd_json_num(k, "iops"),
                       strcmp(what, "knee") == 0 ? "p99" : "latency",
                       lat / 1000.0);
}

int iospd_compare_curves(const cJSON* a, const cJSON* b, const char* name_a,
                         const char* name_b, iospd_strbuf_t* out,
                         iospd_err_t* err) {
  int rc = iospd_compare_curve_check(a, name_a, err);
  if (rc == 0) rc = iospd_compare_curve_check(b, name_b, err);
  if (rc < 0) return rc;
  const char* sa = iospd_json_str(iospd_json_get(a, "axis"), "switch");
  const char* sb = iospd_json_str(iospd_json_get(b, "axis"), "switch");
  iospd_strbuf_appendf(out,
                       "Curve comparison (B against A)\n  A: %s\n  B: "
                       "%s\n",
                       name_a, name_b);
  const char* na = iospd_json_str(iospd_json_get(a, "axis"), "name");
  iospd_strbuf_appendf(out, "axis: %s (-%s)\n", na ? na : "-", sa ? sa : "?");
  if (sa == NULL || sb == NULL || strcmp(sa, sb) != 0)
    iospd_strbuf_appendf(out,
                         "note: B's axis is -%s, not A's: the points "
                         "are matched by value only\n",
                         sb ? sb : "?");
  if (strcmp(iospd_json_str(a, "command_line") ? iospd_json_str(a, "command_line") : "",
             iospd_json_str(b, "command_line") ? iospd_json_str(b, "command_line") : "") != 0)
    iospd_strbuf_appendf(out, "command lines:\n  A: %s\n  B: %s\n",
                         iospd_json_str(a, "command_line") ? iospd_json_str(a, "command_line") : "-",
                         iospd_json_str(b, "command_line") ? iospd_json_str(b, "command_line") : "-");
  iospd_strbuf_append(out,
                      "\n     value |     IOPS A |     IOPS B |    B/A "
                      "| p99 A (ms) | p99 B (ms) |    B/A\n");
  iospd_strbuf_append(out,
                      "-----------+------------+------------+--------"
                      "+------------+------------+-------\n");
  double v[256];
  size_t n = iospd_compare_curve_values(a, b, v, 256);
  for (size_t i = 0; i < n; i++) {
    const cJSON* pa = iospd_compare_curve_point(a, v[i]);
    const cJSON* pb = iospd_compare_curve_point(b, v[i]);
    double ia = iospd_json_num(pa, "iops"), ib = iospd_json_num(pb, "iops");
    double la = iospd_json_num(iospd_json_get(pa, "latency_us"), "p99") / 1000.0;
    double lb = iospd_json_num(iospd_json_get(pb, "latency_us"), "p99") / 1000.0;
    iospd_strbuf_appendf(out, "%10.0f", v[i]);
    iospd_strbuf_append(out, " |");
    cell(out, ia, 10, 1);
    iospd_strbuf_append(out, " |");
    cell(out, ib, 10, 1);
    iospd_strbuf_append(out, " |");
    cell(out, ratio(ib, ia), 6, 3);
    iospd_strbuf_append(out, " |");
    cell(out, la, 10, 3);
    iospd_strbuf_append(out, " |");
    cell(out, lb, 10, 3);
    iospd_strbuf_append(out, " |");
    cell(out, ratio(lb, la), 6, 3);
    iospd_strbuf_append(out, "\n");
  }
  if (n == 0) iospd_strbuf_append(out, "(no point of the curve phase)\n");
  static const char* const what[] = {"knee", "answer", "cap"};
  for (int k = 0; k < 3; k++) {
    iospd_strbuf_appendf(out, "\n%c%s:\n", what[k][0] - 32, what[k] + 1);
    finding(out, what[k], 'A', a);
    finding(out, what[k], 'B', b);
  }
  const cJSON* docs[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    iospd_strbuf_appendf(out, "\nVerdict of %c%s:\n", 'A' + k,
                         cJSON_IsTrue(iospd_json_get(docs[k], "interrupted"))
                             ? " (the curve was cut short)"
                             : "");
    const cJSON* s;
    size_t m = 0;
    cJSON_ArrayForEach(s, iospd_json_get(docs[k], "verdict")) {
      if (!cJSON_IsString(s)) continue;
      iospd_strbuf_appendf(out, "  %s\n", s->valuestring);
      m++;
    }
    if (m == 0) iospd_strbuf_append(out, "  (none)\n");
  }
  return out->failed ? iospd_err_set(err, IOSPD_ENOMEM,
                                     "out of memory "
                                     "(--compare)")
                     : 0;
}
