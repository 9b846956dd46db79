/* SPDX-License-Identifier: MIT */
/* Issue #28's switches: --steady-state=<metric>:<pct>%[,slope:<pct>%]
 * [,window:<n>x<time>] (docs/pts.md). */
#include <stdlib.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/pts.h"
#include "iospd/steady_state.h"
#include "iospd/units.h"
#include "opt_handlers.h"

/* A percentage "<number>[%]", 0 < value <= 1000. */
static int get_pct(ctx_t* c, const char* s, size_t n, const char* what,
                   double* out) {
  char buf[32];
  if (n > 0 && s[n - 1] == '%') n--;
  if (n == 0 || n >= sizeof buf)
    return fail(c, "'%s': %s needs a percentage such as 20%%", c->arg, what);
  memcpy(buf, s, n);
  buf[n] = '\0';
  char* end = NULL;
  double v = strtod(buf, &end);
  if (end == buf || *end != '\0' || !(v > 0) || v > 1000)
    return fail(c, "'%s': %s '%s' is not a percentage above 0 (such as 20%%)",
                c->arg, what, buf);
  *out = v;
  return 0;
}

/* A time "<n>[ms|s|m|h]" (seconds without a unit), 1 ms .. 1 day. */
static int get_time_ms(ctx_t* c, const char* s, size_t n, const char* what,
                          uint32_t* out) {
  size_t d = 0;
  while (d < n && is_digit(s[d])) d++;
  uint64_t mult = 0;
  size_t u = n - d;
  if (u == 0 || (u == 1 && s[d] == 's')) mult = 1000;
  else if (u == 2 && s[d] == 'm' && s[d + 1] == 's') mult = 1;
  else if (u == 1 && s[d] == 'm') mult = 60000;
  else if (u == 1 && s[d] == 'h') mult = 3600000;
  uint64_t v = 0;
  for (size_t i = 0; i < d && v < UINT32_MAX; i++) v = v * 10 + (uint64_t)(s[i] - '0');
  if (d == 0 || mult == 0 || v == 0 || v > 86400000u / mult)
    return fail(c, "'%s': %s '%.*s' is not a time such as 60s, 500ms, 2m "
                   "(at most a day)", c->arg, what, (int)n, s);
  *out = (uint32_t)(v * mult);
  return 0;
}

int sw_steady_state(ctx_t* c) {
  iospd_ss_opts_t o = {.on = true,
                       .slope_pct = IOSPD_SS_SLOPE_PCT_PTS,
                       .window_rounds = IOSPD_SS_WINDOW_PTS,
                       .round_ms = 60000};
  const char* v = c->val;
  if (*v == '=') v++;
  const char* colon = strchr(v, ':');
  size_t first = strcspn(v, ",");
  if (colon == NULL || (size_t)(colon - v) > first) {
    iospd_strbuf_t w;
    iospd_strbuf_init(&w);
    iospd_ss_metric_list(&w);
    int rc = fail(c, "'%s': use --steady-state=<metric>:<pct>%%[,slope:<pct>%%]"
                     "[,window:<n>x<time>] with a metric of %s "
                     "(e.g. --steady-state=iops:20%%,slope:10%%,window:5x60s)",
                  c->arg, iospd_strbuf_cstr(&w));
    iospd_strbuf_destroy(&w);
    return rc;
  }
  int m = iospd_ss_metric_find(v, (size_t)(colon - v));
  if (m < 0) {
    iospd_strbuf_t w;
    iospd_strbuf_init(&w);
    iospd_ss_metric_list(&w);
    int rc = fail(c, "'%s': unknown metric '%.*s': use %s", c->arg,
                  (int)(colon - v), v, iospd_strbuf_cstr(&w));
    iospd_strbuf_destroy(&w);
    return rc;
  }
  o.metric = m;
  o.needs_latency = m == IOSPD_SS_METRIC_LATENCY;
  const char* p = colon + 1;
  size_t n = strcspn(p, ",");
  if (get_pct(c, p, n, "the data excursion", &o.data_pct) < 0)
    return IOSPD_EUSAGE;
  p += n;
  bool slope = false, window = false;
  while (*p == ',') {
    p++;
    n = strcspn(p, ",");
    if (n > 6 && strncmp(p, "slope:", 6) == 0 && !slope) {
      slope = true;
      if (get_pct(c, p + 6, n - 6, "slope", &o.slope_pct) < 0)
        return IOSPD_EUSAGE;
    } else if (n > 7 && strncmp(p, "window:", 7) == 0 && !window) {
      window = true;
      const char* q = p + 7;
      size_t qn = n - 7;
      size_t d = 0;
      uint32_t rounds = 0;
      while (d < qn && is_digit(q[d]) && rounds <= IOSPD_SS_WINDOW_MAX)
        rounds = rounds * 10u + (uint32_t)(q[d++] - '0');
      if (d == 0 || d >= qn || q[d] != 'x' || rounds < 2 ||
          rounds > IOSPD_SS_WINDOW_MAX)
        return fail(c, "'%s': window:<n>x<time> needs n from 2 to %u rounds "
                       "and the time of one (e.g. window:5x60s)",
                    c->arg, IOSPD_SS_WINDOW_MAX);
      o.window_rounds = rounds;
      if (get_time_ms(c, q + d + 1, qn - d - 1, "the window's round",
                                &o.round_ms) < 0)
        return IOSPD_EUSAGE;
    } else {
      return fail(c, "'%s': '%.*s' is not slope:<pct>%% or window:<n>x<time> "
                     "(each at most once)", c->arg, (int)n, p);
    }
    p += n;
  }
  c->pp.ext.steady = o;
  return 0;
}

/* --pts=iops|throughput|latency: the words are the steady-state metric
 * table's (iospd/steady_state.h), the test the metric's index + 1. */
int sw_pts(ctx_t* c) {
  const char* v = c->val;
  if (*v == '=') v++;
  int m = iospd_ss_metric_find(v, strlen(v));
  if (m < 0) {
    iospd_strbuf_t w;
    iospd_strbuf_init(&w);
    iospd_ss_metric_list(&w);
    int rc = fail(c, "'%s': use --pts=<test> with a test of %s", c->arg,
                  iospd_strbuf_cstr(&w));
    iospd_strbuf_destroy(&w);
    return rc;
  }
  c->pp.ext.pts.test = m + 1;
  return 0;
}

/* --pts-purge=trim|secure: the words are iospd_pts_purge_word's. */
int sw_pts_purge(ctx_t* c) {
  const char* v = c->val;
  if (*v == '=') v++;
  for (int i = IOSPD_PTS_PURGE_TRIM; i < IOSPD_PTS_PURGE_COUNT; i++)
    if (strcmp(v, iospd_pts_purge_word(i)) == 0) {
      c->pp.ext.pts.purge = i;
      return 0;
    }
  return fail(c, "'%s': use --pts-purge=%s or --pts-purge=%s", c->arg,
              iospd_pts_purge_word(IOSPD_PTS_PURGE_TRIM),
              iospd_pts_purge_word(IOSPD_PTS_PURGE_SECURE));
}

/* --pts-resume=FILE: the PTS document of an interrupted run. */
int sw_pts_resume(ctx_t* c) {
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0')
    return fail(c, "'%s': use --pts-resume=FILE with the PTS JSON document "
                   "of the interrupted run", c->arg);
  char* path = iospd_strdup(v + 1);
  if (path == NULL) return nomem(c);
  iospd_free(c->pp.ext.pts.resume_path);
  c->pp.ext.pts.resume_path = path;
  return 0;
}

/* --pts-cell=<time>: whole seconds, 1 s .. 1 h. */
int sw_pts_cell(ctx_t* c) {
  const char* v = c->val;
  if (*v == '=') v++;
  uint32_t ms = 0;
  if (get_time_ms(c, v, strlen(v), "--pts-cell", &ms) < 0) return IOSPD_EUSAGE;
  if (ms % 1000 != 0 || ms > 3600000u)
    return fail(c, "'%s': a cell lasts whole seconds, 1s to 1h (PTS: 60s)",
                c->arg);
  c->pp.ext.pts.cell_s = ms / 1000u;
  return 0;
}

/* --pts-matrix=bs:<size>,...;read:<pct>,... (either part may be left out;
 * '/' separates them as ';' does, for shells where ';' ends a command). */
int sw_pts_matrix(ctx_t* c) {
  const char* v = c->val;
  if (*v == '=') v++;
  iospd_pts_opts_t* o = &c->pp.ext.pts;
  o->nbs = o->nmix = 0;
  while (*v != '\0') {
    size_t n = strcspn(v, ";/");
    bool bs = n > 3 && strncmp(v, "bs:", 3) == 0;
    bool rd = n > 5 && strncmp(v, "read:", 5) == 0;
    if ((!bs && !rd) || (bs && o->nbs) || (rd && o->nmix))
      return fail(c, "'%s': use --pts-matrix=bs:<size>,...;read:<pct>,... "
                     "(e.g. 'bs:4K,64K;read:0,100'), each part once",
                  c->arg);
    const char* p = v + (bs ? 3 : 5);
    const char* end = v + n;
    while (p < end) {
      size_t k = strcspn(p, ",;/");
      char buf[32];
      if (k == 0 || k >= sizeof buf)
        return fail(c, "'%s': an empty or overlong value in --pts-matrix",
                    c->arg);
      memcpy(buf, p, k);
      buf[k] = '\0';
      uint64_t x = 0;
      if (bs) {
        if (o->nbs == IOSPD_PTS_MAX_BS)
          return fail(c, "'%s': at most %u block sizes", c->arg,
                      IOSPD_PTS_MAX_BS);
        if (iospd_parse_size(buf, 0, &x, NULL) != 0 || x < 512 ||
            x > (64u << 20) || x % 512 != 0)
          return fail(c, "'%s': block size '%s' is not a multiple of 512 "
                         "bytes from 512 to 64M (e.g. 4K)", c->arg, buf);
        o->bs[o->nbs++] = (uint32_t)x;
      } else {
        if (o->nmix == IOSPD_PTS_MAX_MIX)
          return fail(c, "'%s': at most %u read percentages", c->arg,
                      IOSPD_PTS_MAX_MIX);
        if (iospd_parse_uint(buf, 100, &x) != 0)
          return fail(c, "'%s': read percentage '%s' is not 0 to 100",
                      c->arg, buf);
        o->read_pct[o->nmix++] = (uint32_t)x;
      }
      p += k;
      if (p < end && *p == ',') p++;
    }
    v = *end ? end + 1 : end;
  }
  if (o->nbs == 0 && o->nmix == 0)
    return fail(c, "'%s': use --pts-matrix=bs:<size>,...;read:<pct>,...",
                c->arg);
  return 0;
}
