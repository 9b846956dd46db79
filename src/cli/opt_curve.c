/* SPDX-License-Identifier: MIT */
/* Handlers of --curve, --latency-limit and --expect (docs/curve.md): the
 * axis and its values, the latency bound, the data-sheet figure. What
 * they cannot be combined with is refused by the mode before any I/O
 * (iospd_curve_refusal, src/run/curve_check.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_handlers.h"

#define CURVE_USE                                                        \
  "use --curve, --curve=o|t|b, --curve=o:1..256 (doubling) or "          \
  "--curve=b:4K,8K,64K (a list)"

/* One value of the axis: a count for o and t, a size for b. */
static int curve_value(ctx_t* c, iospd_curve_axis_t axis, const char* s,
                       uint64_t* v) {
  if (axis == IOSPD_CURVE_AXIS_B)
    return get_size(c, s, 512, UINT32_MAX - 1, "--curve block size", v);
  return get_uint(c, s, 1, axis == IOSPD_CURVE_AXIS_T ? 1024 : 65536,
                  axis == IOSPD_CURVE_AXIS_T ? "--curve thread count"
                                             : "--curve outstanding I/O count",
                  v);
}

/* "a..b": a, 2a, 4a ... up to b, and b itself when the doubling misses
 * it. */
static int curve_range(ctx_t* c, iospd_curve_opts_t* o, const char* from,
                       const char* to) {
  uint64_t a = 0, b = 0;
  int rc = curve_value(c, o->axis, from, &a);
  if (rc == 0) rc = curve_value(c, o->axis, to, &b);
  if (rc != 0) return rc;
  if (b <= a)
    return fail(c, "'%s': the range %s..%s must rise (the second value above "
                   "the first)", c->arg, from, to);
  o->value_count = 0;
  for (uint64_t v = a; v <= b; v *= 2) {
    if (o->value_count == IOSPD_CURVE_MAX_VALUES)
      return fail(c, "'%s': a curve has at most %u points", c->arg,
                  IOSPD_CURVE_MAX_VALUES);
    o->values[o->value_count++] = v;
  }
  if (o->values[o->value_count - 1] != b) {
    if (o->value_count == IOSPD_CURVE_MAX_VALUES)
      return fail(c, "'%s': a curve has at most %u points", c->arg,
                  IOSPD_CURVE_MAX_VALUES);
    o->values[o->value_count++] = b;
  }
  return 0;
}

static int curve_list(ctx_t* c, iospd_curve_opts_t* o, char* list) {
  o->value_count = 0;
  for (char* s = list; s != NULL;) {
    char* comma = strchr(s, ',');
    if (comma != NULL) *comma = '\0';
    if (o->value_count == IOSPD_CURVE_MAX_VALUES)
      return fail(c, "'%s': a curve has at most %u points", c->arg,
                  IOSPD_CURVE_MAX_VALUES);
    uint64_t v = 0;
    int rc = curve_value(c, o->axis, s, &v);
    if (rc != 0) return rc;
    if (o->value_count > 0 && v <= o->values[o->value_count - 1])
      return fail(c, "'%s': the values of a curve must rise, and '%s' does "
                     "not", c->arg, s);
    o->values[o->value_count++] = v;
    s = comma != NULL ? comma + 1 : NULL;
  }
  return 0;
}

int sw_curve(ctx_t* c) {
  iospd_curve_opts_t* o = &c->pp.ext.curve;
  o->on = true;
  o->axis = IOSPD_CURVE_AXIS_O;
  o->value_count = 0;
  const char* v = c->val;
  if (*v == '\0') return 0;
  if (*v != '=' || v[1] == '\0') return fail(c, "'%s': " CURVE_USE, c->arg);
  v++;
  if (v[0] == 'o' || v[0] == 't' || v[0] == 'b')
    o->axis = v[0] == 't'   ? IOSPD_CURVE_AXIS_T
              : v[0] == 'b' ? IOSPD_CURVE_AXIS_B
                            : IOSPD_CURVE_AXIS_O;
  else
    return fail(c, "'%s': the axis must be o (outstanding I/Os), t (threads) "
                   "or b (block size), not '%c'; " CURVE_USE,
                c->arg, v[0]);
  if (v[1] == '\0') return 0;
  if (v[1] != ':' || v[2] == '\0')
    return fail(c, "'%s': " CURVE_USE, c->arg);
  char buf[512];
  if (strlen(v + 2) >= sizeof buf)
    return fail(c, "'%s': the list of values is too long", c->arg);
  snprintf(buf, sizeof buf, "%s", v + 2);
  char* dots = strstr(buf, "..");
  if (dots != NULL) {
    *dots = '\0';
    if (strchr(dots + 2, ',') != NULL || strchr(buf, ',') != NULL)
      return fail(c, "'%s': give a range (1..256) or a list (1,2,8), not "
                     "both", c->arg);
    return curve_range(c, o, buf, dots + 2);
  }
  return curve_list(c, o, buf);
}

/* "1ms", "500us", "0.5ms", "2s": microseconds, or a negative value. */
static double parse_time_us(const char* s) {
  char* end = NULL;
  double v = strtod(s, &end);
  if (end == s || !(v > 0) || v > 1e9) return -1;
  if (strcmp(end, "us") == 0) return v;
  if (strcmp(end, "ms") == 0) return v * 1e3;
  if (strcmp(end, "s") == 0) return v * 1e6;
  return -1;
}

#define LIMIT_USE                                                          \
  "use --latency-limit=[r:|w:]<stat><=<time>, with <stat> mean or a "      \
  "percentile (p50, p99, p99.9 ...) and <time> with us, ms or s "          \
  "(quote it in a shell: '--latency-limit=p99<=1ms')"

int sw_latency_limit(ctx_t* c) {
  iospd_curve_opts_t* o = &c->pp.ext.curve;
  const char* v = c->val;
  if (*v != '=' || v[1] == '\0') return fail(c, "'%s': " LIMIT_USE, c->arg);
  v++;
  o->limit_op = IOSPD_CURVE_OP_TOTAL;
  if ((v[0] == 'r' || v[0] == 'w') && v[1] == ':') {
    o->limit_op = v[0] == 'r' ? IOSPD_CURVE_OP_READ : IOSPD_CURVE_OP_WRITE;
    v += 2;
  }
  const char* le = strstr(v, "<=");
  if (le == NULL) return fail(c, "'%s': " LIMIT_USE, c->arg);
  size_t n = (size_t)(le - v);
  if (n == 0 || n >= sizeof o->limit_stat)
    return fail(c, "'%s': " LIMIT_USE, c->arg);
  memcpy(o->limit_stat, v, n);
  o->limit_stat[n] = '\0';
  if (strcmp(o->limit_stat, "mean") == 0) {
    o->limit_pct = 0;
  } else {
    char* end = NULL;
    double p = o->limit_stat[0] == 'p' ? strtod(o->limit_stat + 1, &end) : -1;
    if (end == NULL || end == o->limit_stat + 1 || *end != '\0' || !(p > 0) ||
        !(p < 100))
      return fail(c, "'%s': the statistic must be mean or a percentile "
                     "above 0 and below 100 (p50, p99, p99.9), not '%s'",
                  c->arg, o->limit_stat);
    o->limit_pct = p;
  }
  o->limit_us = parse_time_us(le + 2);
  if (o->limit_us < 0)
    return fail(c, "'%s': the bound must be a time above 0 with us, ms or s "
                   "(500us, 1ms, 0.5s), not '%s'", c->arg, le + 2);
  o->limit_on = true;
  return 0;
}

int sw_expect(ctx_t* c) {
  iospd_curve_opts_t* o = &c->pp.ext.curve;
  const char* v = c->val;
  int kind = 0;
  if (strncmp(v, "=iops:", 6) == 0) kind = 1;
  if (strncmp(v, "=mibs:", 6) == 0) kind = 2;
  if (kind == 0)
    return fail(c, "'%s': use --expect=iops:<n> or --expect=mibs:<n> (the "
                   "figure the device or the cloud disk promises)", c->arg);
  char* end = NULL;
  double x = strtod(v + 6, &end);
  if (end == v + 6 || *end != '\0' || !(x > 0) || x > 1e12)
    return fail(c, "'%s': the expected %s must be a number above 0, not "
                   "'%s'", c->arg, kind == 1 ? "IOPS" : "MiB/s", v + 6);
  o->expect_kind = kind;
  o->expect_value = x;
  return 0;
}
