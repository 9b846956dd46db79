/* SPDX-License-Identifier: MIT */
/* Issue #28's switches: --steady-state=<metric>:<pct>%[,slope:<pct>%]
 * [,window:<n>x<time>] (docs/pts.md). */
#include <stdlib.h>
#include <string.h>

#include "iospd/steady_state.h"
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
