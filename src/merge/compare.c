/* SPDX-License-Identifier: MIT */
/* The comparison of runs as data (include/iospd/compare.h): headline
 * values from each timespan's results, the noise test on per-interval
 * values (compare_series.c, compare_stats.c) and the differing fields
 * (compare_fields.c). */
#include "iospd/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_internal.h"
#include "iospd/alloc.h"

static const cJSON* get(const cJSON* o, const char* key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

static char* dup_str(const char* s) {
  if (s == NULL) return NULL;
  size_t n = strlen(s) + 1;
  char* d = iospd_malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

/* ---- names -------------------------------------------------------------- */

const char* iospd_cmp_metric_name(iospd_cmp_metric_t m) {
  static const char* const names[] = {"IOPS",        "MiB/s",
                                      "mean latency", "p99 latency",
                                      "p99.9 latency", "CPU per I/O"};
  return (unsigned)m < IOSPD_CMP_METRIC_COUNT ? names[m] : "?";
}

const char* iospd_cmp_metric_unit(iospd_cmp_metric_t m) {
  static const char* const units[] = {"", "MiB/s", "ms", "ms", "ms", "us"};
  return (unsigned)m < IOSPD_CMP_METRIC_COUNT ? units[m] : "";
}

bool iospd_cmp_metric_higher_is_better(iospd_cmp_metric_t m) {
  return m == IOSPD_CMP_IOPS || m == IOSPD_CMP_MIBS;
}

const char* iospd_cmp_dir_name(iospd_cmp_dir_t d) {
  return d == IOSPD_CMP_READ ? "read" : d == IOSPD_CMP_WRITE ? "write"
                                                             : "total";
}

const char* iospd_cmp_verdict_name(iospd_cmp_verdict_t v) {
  return v == IOSPD_CMP_NOISE  ? "within noise"
         : v == IOSPD_CMP_REAL ? "real difference"
                               : "unknown";
}

const char* iospd_cmp_field_kind_name(iospd_cmp_field_kind_t k) {
  return k == IOSPD_CMP_SETTING        ? "setting"
         : k == IOSPD_CMP_HOST_SETTING ? "host setting"
                                       : "environment";
}

/* ---- headline values ---------------------------------------------------- */

/* The direction object {ios, bytes, iops, mib_per_s, latency}. */
static const cJSON* direction(const cJSON* span, int target,
                              iospd_cmp_dir_t d) {
  const cJSON* owner = NULL;
  if (target < 0) {
    owner = get(span, "total");
  } else {
    const cJSON* tgs = get(span, "targets");
    for (const cJSON* t = tgs ? tgs->child : NULL; t; t = t->next) {
      const cJSON* ti = get(t, "target_index");
      if (cJSON_IsNumber(ti) && ti->valuedouble == target)
        owner = get(t, "directions");
    }
  }
  return get(owner, iospd_cmp_dir_name(d));
}

static bool percentile(const cJSON* lat, const char* label, double* v) {
  const cJSON* ps = get(lat, "percentiles");
  for (const cJSON* p = ps ? ps->child : NULL; p; p = p->next) {
    const cJSON* l = get(p, "percentile");
    const cJSON* ms = get(p, "ms");
    if (cJSON_IsString(l) && strcmp(l->valuestring, label) == 0 &&
        cJSON_IsNumber(ms)) {
      *v = ms->valuedouble;
      return true;
    }
  }
  return false;
}

/* The value of metric m; false with why when the run does not have it. */
static bool headline(const cJSON* span, int target, iospd_cmp_metric_t m,
                     iospd_cmp_dir_t d, double* v, char* why, size_t wsz) {
  if (span == NULL || !cJSON_IsTrue(get(span, "measured"))) {
    snprintf(why, wsz, "the timespan was not measured");
    return false;
  }
  const cJSON* o = direction(span, target, d);
  const cJSON* lat = get(o, "latency");
  const cJSON* x = NULL;
  switch (m) {
    case IOSPD_CMP_IOPS: x = get(o, "iops"); break;
    case IOSPD_CMP_MIBS: x = get(o, "mib_per_s"); break;
    case IOSPD_CMP_LAT_MEAN:
    case IOSPD_CMP_LAT_P99:
    case IOSPD_CMP_LAT_P999:
      if (!cJSON_IsObject(lat)) {
        snprintf(why, wsz, "no latency (run with -L)");
        return false;
      }
      if (m == IOSPD_CMP_LAT_MEAN) {
        x = get(lat, "mean_ms");
        break;
      }
      if (percentile(lat, m == IOSPD_CMP_LAT_P99 ? "99" : "99.9", v))
        return true;
      snprintf(why, wsz, "no I/O to take a percentile of");
      return false;
    case IOSPD_CMP_CPU_PER_IO: {
      const cJSON* avg = get(get(get(span, "cpu"), "average"), "usage_percent");
      const cJSON* secs = get(span, "test_time_seconds");
      const cJSON* ios = get(get(get(span, "total"), "total"), "ios");
      int cpus = cJSON_GetArraySize(get(get(span, "cpu"), "cpus"));
      if (!cJSON_IsNumber(avg) || !cJSON_IsNumber(secs) ||
          !cJSON_IsNumber(ios) || cpus <= 0) {
        snprintf(why, wsz, "no CPU figures in the results");
        return false;
      }
      if (!(ios->valuedouble > 0.0)) {
        snprintf(why, wsz, "no I/O");
        return false;
      }
      /* CPU-seconds of all CPUs over the I/Os, in microseconds. */
      *v = avg->valuedouble / 100.0 * cpus * secs->valuedouble /
           ios->valuedouble * 1e6;
      return true;
    }
    default: break;
  }
  if (!cJSON_IsNumber(x)) {
    snprintf(why, wsz, "not in the results");
    return false;
  }
  *v = x->valuedouble;
  return true;
}

/* Did the timespan (or the target) both read and write? */
static bool mixed(const cJSON* span, int target) {
  const cJSON* r = get(direction(span, target, IOSPD_CMP_READ), "ios");
  const cJSON* w = get(direction(span, target, IOSPD_CMP_WRITE), "ios");
  return cJSON_IsNumber(r) && r->valuedouble > 0 && cJSON_IsNumber(w) &&
         w->valuedouble > 0;
}

/* ---- rows --------------------------------------------------------------- */

typedef struct row_ctx_s {
  const cJSON* base_doc;
  const cJSON* doc;
  size_t run;  /* index of doc, from 0 */
  int ts;
} row_ctx_t;

static int fill_row(const row_ctx_t* x, iospd_cmp_row_t* row) {
  char wa[160] = "", wb[160] = "";
  const cJSON* sa = cJSON_GetArrayItem(get(x->base_doc, "timespans"), x->ts);
  const cJSON* sb = cJSON_GetArrayItem(get(x->doc, "timespans"), x->ts);
  row->has_base = headline(sa, row->target, row->metric, row->dir, &row->base,
                           wa, sizeof wa);
  row->has_value = headline(sb, row->target, row->metric, row->dir,
                            &row->value, wb, sizeof wb);
  /* A number that is not finite (1e999 in a file parses as infinity)
   * has no difference or test: said, not printed as nan. */
  if (row->has_base && !isfinite(row->base)) {
    row->has_base = false;
    snprintf(wa, sizeof wa, "not a finite number");
  }
  if (row->has_value && !isfinite(row->value)) {
    row->has_value = false;
    snprintf(wb, sizeof wb, "not a finite number");
  }
  row->has_diff = row->has_base && row->has_value && row->base != 0.0;
  if (row->has_diff) row->diff_pct = (row->value - row->base) / row->base * 100.0;
  iospd_cmp_test_t* t = &row->test;
  memset(t, 0, sizeof *t);
  t->verdict = IOSPD_CMP_UNKNOWN;
  t->p = 1.0;
  if (!row->has_base || !row->has_value) {
    if (!row->has_base && !row->has_value && strcmp(wa, wb) == 0)
      snprintf(t->why, sizeof t->why, "%s", wa);
    else if (!row->has_base)
      snprintf(t->why, sizeof t->why, "run 1: %s", wa);
    else
      snprintf(t->why, sizeof t->why, "run %zu: %s", x->run + 1, wb);
    return 0;
  }
  double *va = NULL, *vb = NULL;
  const char *src_a, *src_b;
  long na = iospd_cmp_series(x->base_doc, x->ts, row->target, row->metric,
                             row->dir, &va, &src_a, wa, sizeof wa);
  long nb = iospd_cmp_series(x->doc, x->ts, row->target, row->metric,
                             row->dir, &vb, &src_b, wb, sizeof wb);
  int rc = 0;
  if (na < 0 || nb < 0) {
    rc = IOSPD_ENOMEM;
  } else if (na == 0 || nb == 0) {
    if (na == 0 && nb == 0 && strcmp(wa, wb) == 0)
      snprintf(t->why, sizeof t->why, "%s", wa);
    else if (na == 0)
      snprintf(t->why, sizeof t->why, "run 1: %s", wa);
    else
      snprintf(t->why, sizeof t->why, "run %zu: %s", x->run + 1, wb);
  } else {
    iospd_cmp_noise_test(va, (size_t)na, vb, (size_t)nb, t);
    if (t->verdict == IOSPD_CMP_REAL)
      row->better = iospd_cmp_metric_higher_is_better(row->metric)
                        ? row->value > row->base
                        : row->value < row->base;
  }
  iospd_free(va);
  iospd_free(vb);
  return rc;
}

static int span_rows(const row_ctx_t* x, bool per_target, iospd_cmp_span_t* s) {
  const cJSON* sa = cJSON_GetArrayItem(get(x->base_doc, "timespans"), x->ts);
  const cJSON* sb = cJSON_GetArrayItem(get(x->doc, "timespans"), x->ts);
  int targets = 0;
  if (per_target) {
    int ta = cJSON_GetArraySize(get(sa, "targets"));
    int tb = cJSON_GetArraySize(get(sb, "targets"));
    targets = ta < tb ? ta : tb;
    if (targets < 2) targets = 0; /* one target: its rows are the total's */
  }
  size_t cap = (size_t)(targets + 1) * 3 * IOSPD_CMP_METRIC_COUNT;
  s->rows = iospd_calloc(cap, sizeof *s->rows);
  if (s->rows == NULL) return IOSPD_ENOMEM;
  s->timespan = x->ts;
  for (int target = -1; target < targets; target++) {
    bool rw = mixed(sa, target) || mixed(sb, target);
    for (int d = IOSPD_CMP_TOTAL; d <= (rw ? IOSPD_CMP_WRITE : IOSPD_CMP_TOTAL);
         d++)
      for (int m = 0; m < IOSPD_CMP_METRIC_COUNT; m++) {
        /* CPU is one figure for the whole run. */
        if (m == IOSPD_CMP_CPU_PER_IO && (d != IOSPD_CMP_TOTAL || target >= 0))
          continue;
        iospd_cmp_row_t* row = &s->rows[s->n_rows++];
        row->metric = (iospd_cmp_metric_t)m;
        row->dir = (iospd_cmp_dir_t)d;
        row->target = target;
        int rc = fill_row(x, row);
        if (rc) return rc;
      }
  }
  return 0;
}

/* ---- build -------------------------------------------------------------- */

static const char* str_at(const cJSON* doc, const char* a, const char* b) {
  const cJSON* v = get(get(doc, a), b);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int refuse_profiles(const iospd_compare_t* c, const char* const* names,
                           const char* mode, iospd_err_t* err) {
  for (size_t r = 1; r < c->n_runs; r++)
    for (size_t i = 0; i < c->n_fields; i++) {
      const iospd_cmp_field_t* f = &c->fields[i];
      if (f->kind != IOSPD_CMP_SETTING ||
          strcmp(f->values[r], f->values[0]) == 0)
        continue;
      return iospd_err_set(
          err, IOSPD_EUSAGE,
          "'%s' (%s) is a run of another profile than '%s': %s is %s in "
          "'%s' and %s in '%s'; compare them anyway with --force (then a "
          "changed setting may explain the differences)",
          names[r], mode, names[0], f->path, f->values[r], names[r],
          f->values[0], names[0]);
    }
  return 0;
}

int iospd_compare_build(const cJSON* const* docs, const char* const* names,
                        size_t n, const iospd_compare_opts_t* opts,
                        iospd_compare_t* out, iospd_err_t* err) {
  const char* mode = opts && opts->mode ? opts->mode : "--compare";
  memset(out, 0, sizeof *out);
  if (n < 2)
    return iospd_err_set(err, IOSPD_EUSAGE, "%s needs two or more result "
                         "files: iospd --compare a.json b.json ...", mode);
  iospd_compare_t c;
  memset(&c, 0, sizeof c);
  c.runs = iospd_calloc(n, sizeof *c.runs);
  int rc = c.runs == NULL ? IOSPD_ENOMEM : 0;
  if (rc == 0) {
    c.n_runs = n;
    rc = iospd_cmp_fields(&c, docs, n);
  }
  if (rc == 0 && c.profiles_differ) {
    if (opts == NULL || !opts->force) {
      rc = refuse_profiles(&c, names, mode, err);
      iospd_compare_free(&c);
      return rc;
    }
    c.forced = true;
  }
  for (size_t r = 0; r < n && rc == 0; r++) {
    iospd_cmp_run_t* run = &c.runs[r];
    run->name = dup_str(names[r]);
    const char* rt = str_at(docs[r], "system", "run_time");
    const char* cn = str_at(docs[r], "system", "computer_name");
    run->run_time = dup_str(rt);
    run->computer_name = dup_str(cn);
    if (run->name == NULL || (rt && !run->run_time) ||
        (cn && !run->computer_name)) {
      rc = IOSPD_ENOMEM;
      break;
    }
    run->intervals = iospd_cmp_intervals(docs[r], 0, &run->interval_ms);
    run->ts_intervals =
        iospd_cmp_ts_intervals(docs[r], 0, &run->ts_interval_ms);
    if (r == 0) continue;
    int ta = cJSON_GetArraySize(get(docs[0], "timespans"));
    int tb = cJSON_GetArraySize(get(docs[r], "timespans"));
    int spans = ta < tb ? ta : tb;
    run->spans = iospd_calloc(spans > 0 ? (size_t)spans : 1, sizeof *run->spans);
    if (run->spans == NULL) {
      rc = IOSPD_ENOMEM;
      break;
    }
    for (int ts = 0; ts < spans && rc == 0; ts++) {
      row_ctx_t x = {docs[0], docs[r], r, ts};
      run->n_spans++;
      rc = span_rows(&x, opts && opts->per_target, &run->spans[ts]);
    }
  }
  if (rc) {
    iospd_compare_free(&c);
    return iospd_err_set(err, rc, "out of memory (%s)", mode);
  }
  *out = c;
  return 0;
}

void iospd_compare_free(iospd_compare_t* c) {
  if (c == NULL) return;
  for (size_t r = 0; r < c->n_runs && c->runs; r++) {
    iospd_cmp_run_t* run = &c->runs[r];
    iospd_free(run->name);
    iospd_free(run->run_time);
    iospd_free(run->computer_name);
    for (size_t s = 0; s < run->n_spans; s++) iospd_free(run->spans[s].rows);
    iospd_free(run->spans);
  }
  iospd_free(c->runs);
  for (size_t i = 0; i < c->n_fields; i++) {
    for (size_t r = 0; r < c->n_runs && c->fields[i].values; r++)
      iospd_free(c->fields[i].values[r]);
    iospd_free(c->fields[i].values);
    iospd_free(c->fields[i].path);
  }
  iospd_free(c->fields);
  memset(c, 0, sizeof *c);
}
