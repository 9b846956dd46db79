/* SPDX-License-Identifier: MIT */
/* The curve document (schema/iospd-curve.schema.json, docs/curve.md):
 * what was asked, every point with its full results document, the knee,
 * the bound's answer, the cap, Little's law and the verdict. Built as a
 * cJSON tree from the curve, its analysis and each point's -Rjson text. */
#include <string.h>

#include "app_curve.h"
#include "cJSON.h"

static cJSON* num_or_null(bool have, double v) {
  return have ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON* latency_obj(const iospd_curve_point_t* p) {
  if (!p->has_latency) return cJSON_CreateNull();
  cJSON* l = cJSON_CreateObject();
  cJSON_AddNumberToObject(l, "mean", p->mean_us);
  cJSON_AddNumberToObject(l, "p50", p->p50_us);
  cJSON_AddNumberToObject(l, "p90", p->p90_us);
  cJSON_AddNumberToObject(l, "p99", p->p99_us);
  cJSON_AddNumberToObject(l, "p99.9", p->p999_us);
  cJSON_AddNumberToObject(l, "max", p->max_us);
  return l;
}

static cJSON* point_obj(const iospd_curve_t* c, uint32_t i,
                        const char* results) {
  const iospd_curve_point_t* p = &c->points[i];
  cJSON* o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "n", i + 1);
  cJSON_AddStringToObject(o, "phase", iospd_curve_phase_word(p->phase));
  cJSON_AddNumberToObject(o, "axis_value", (double)p->axis_value);
  cJSON_AddNumberToObject(o, "block_size", p->block_size);
  cJSON_AddNumberToObject(o, "threads", p->threads);
  cJSON_AddNumberToObject(o, "outstanding", p->outstanding);
  cJSON_AddItemToObject(o, "rate_limit_bps",
                        num_or_null(p->rate_iops > 0,
                                    p->rate_iops * p->block_size));
  cJSON_AddItemToObject(o, "rate_limit_iops",
                        num_or_null(p->rate_iops > 0, p->rate_iops));
  cJSON_AddNumberToObject(o, "outstanding_total", (double)p->in_flight);
  cJSON_AddBoolToObject(o, "failed", p->failed);
  cJSON_AddNumberToObject(o, "seconds", p->seconds);
  cJSON_AddNumberToObject(o, "iops", p->iops);
  cJSON_AddNumberToObject(o, "mib_per_s", p->mib_per_s);
  cJSON_AddItemToObject(o, "latency_us", latency_obj(p));
  cJSON_AddItemToObject(o, "limit_stat_us",
                        num_or_null(c->opts.limit_on && p->has_latency,
                                    p->limit_us));
  cJSON_AddNumberToObject(o, "cpu_percent", p->cpu_percent);
  cJSON_AddNumberToObject(o, "busiest_thread_cpu_percent",
                          p->busiest_cpu_percent);
  cJSON_AddNumberToObject(o, "process_cpu_percent", p->process_cpu_percent);
  cJSON_AddItemToObject(o, "within_limit",
                        p->within < 0 ? cJSON_CreateNull()
                                      : cJSON_CreateBool(p->within == 1));
  cJSON* r = results != NULL ? cJSON_Parse(results) : NULL;
  cJSON_AddItemToObject(o, "results", r != NULL ? r : cJSON_CreateNull());
  return o;
}

static const char* op_word(iospd_curve_op_t op) {
  return op == IOSPD_CURVE_OP_READ    ? "read"
         : op == IOSPD_CURVE_OP_WRITE ? "write"
                                      : "total";
}

static void add_asked(cJSON* d, const iospd_curve_t* c) {
  cJSON* axis = cJSON_AddObjectToObject(d, "axis");
  cJSON_AddStringToObject(axis, "switch",
                          iospd_curve_axis_switch(c->opts.axis));
  cJSON_AddStringToObject(axis, "name", iospd_curve_axis_name(c->opts.axis));
  cJSON* planned = cJSON_AddArrayToObject(axis, "planned");
  for (uint32_t i = 0; i < c->opts.value_count; i++)
    cJSON_AddItemToArray(planned,
                         cJSON_CreateNumber((double)c->opts.values[i]));
  if (c->opts.limit_on) {
    cJSON* l = cJSON_AddObjectToObject(d, "latency_limit");
    cJSON_AddStringToObject(l, "stat", c->opts.limit_stat);
    cJSON_AddItemToObject(l, "percentile",
                          num_or_null(c->opts.limit_pct > 0,
                                      c->opts.limit_pct));
    cJSON_AddStringToObject(l, "op", op_word(c->opts.limit_op));
    cJSON_AddNumberToObject(l, "limit_us", c->opts.limit_us);
  } else {
    cJSON_AddNullToObject(d, "latency_limit");
  }
  if (c->opts.expect_kind != 0) {
    cJSON* e = cJSON_AddObjectToObject(d, "expect");
    cJSON_AddStringToObject(e, "kind", c->opts.expect_kind == 1 ? "iops"
                                                                : "mibs");
    cJSON_AddNumberToObject(e, "value", c->opts.expect_value);
  } else {
    cJSON_AddNullToObject(d, "expect");
  }
}

static void add_found(cJSON* d, const iospd_curve_t* c,
                      const iospd_curve_analysis_t* a) {
  const char* stop = iospd_curve_stop_word(a->stopped);
  cJSON_AddStringToObject(d, "stopped", stop ? stop : "end_of_axis");
  if (a->knee >= 0) {
    const iospd_curve_point_t* k = &c->points[a->knee];
    cJSON* o = cJSON_AddObjectToObject(d, "knee");
    cJSON_AddNumberToObject(o, "point", a->knee + 1);
    cJSON_AddNumberToObject(o, "axis_value", (double)k->axis_value);
    cJSON_AddNumberToObject(o, "iops", k->iops);
    cJSON_AddNumberToObject(o, "mib_per_s", k->mib_per_s);
    cJSON* l = cJSON_AddObjectToObject(o, "latency_us");
    cJSON_AddItemToObject(l, "mean", num_or_null(k->has_latency, k->mean_us));
    cJSON_AddItemToObject(l, "p99", num_or_null(k->has_latency, k->p99_us));
  } else {
    cJSON_AddNullToObject(d, "knee");
  }
  if (a->answer >= 0) {
    const iospd_curve_point_t* p = &c->points[a->answer];
    cJSON* o = cJSON_AddObjectToObject(d, "answer");
    cJSON_AddNumberToObject(o, "point", a->answer + 1);
    cJSON_AddNumberToObject(o, "axis_value", (double)p->axis_value);
    cJSON_AddNumberToObject(o, "iops", p->iops);
    cJSON_AddNumberToObject(o, "mib_per_s", p->mib_per_s);
    cJSON_AddNumberToObject(o, "latency_us", p->limit_us);
    cJSON_AddItemToObject(o, "rate_limit_iops",
                          num_or_null(p->rate_iops > 0, p->rate_iops));
    cJSON* b = cJSON_AddObjectToObject(o, "bracket");
    cJSON_AddItemToObject(b, "good_axis_value",
                          num_or_null(a->have_good, (double)a->good_axis));
    cJSON_AddItemToObject(b, "bad_axis_value",
                          num_or_null(a->have_bad, (double)a->bad_axis));
  } else {
    cJSON_AddNullToObject(d, "answer");
  }
  const char* cap = iospd_curve_cap_word(a->cap);
  if (cap != NULL) {
    cJSON* o = cJSON_AddObjectToObject(d, "cap");
    cJSON_AddStringToObject(o, "kind", cap);
    cJSON_AddItemToObject(o, "value", num_or_null(a->cap != IOSPD_CURVE_CAP_NONE,
                                                  a->cap_value));
    cJSON_AddStringToObject(o, "unit", a->cap == IOSPD_CURVE_CAP_BANDWIDTH
                                           ? "MiB/s"
                                           : "IOPS");
    cJSON_AddStringToObject(o, "evidence", a->evidence);
  } else {
    cJSON_AddNullToObject(d, "cap");
  }
  cJSON* ll = cJSON_AddArrayToObject(d, "littles_law");
  for (uint32_t i = 0; i < a->little_count; i++) {
    const iospd_curve_point_t* p = &c->points[a->little[i].point];
    cJSON* o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "point", a->little[i].point + 1);
    cJSON_AddNumberToObject(o, "outstanding_total", (double)p->in_flight);
    cJSON_AddNumberToObject(o, "iops", p->iops);
    cJSON_AddNumberToObject(o, "expected_latency_us", a->little[i].expected_us);
    cJSON_AddNumberToObject(o, "measured_latency_us", a->little[i].measured_us);
    cJSON_AddItemToArray(ll, o);
  }
  iospd_strbuf_t v;
  iospd_strbuf_init(&v);
  iospd_curve_verdict(c, a, &v);
  cJSON* arr = cJSON_AddArrayToObject(d, "verdict");
  char* s = v.data;
  for (size_t i = 0; s != NULL && i < v.len; i++)
    if (v.data[i] == '\n') {
      v.data[i] = '\0';
      cJSON_AddItemToArray(arr, cJSON_CreateString(s));
      s = v.data + i + 1;
    }
  iospd_strbuf_destroy(&v);
  cJSON_AddBoolToObject(d, "interrupted", c->interrupted);
}

int iospd_app_curve_json(iospd_strbuf_t* out, const iospd_curve_t* c,
                         const iospd_curve_analysis_t* a,
                         const char* const* results,
                         const char* command_line) {
  cJSON* d = cJSON_CreateObject();
  if (d == NULL) return IOSPD_ENOMEM;
  cJSON_AddStringToObject(d, "format", "iospd-curve");
  cJSON_AddNumberToObject(d, "format_version", 1);
  cJSON* sys = NULL;
  for (uint32_t i = 0; i < c->count && sys == NULL; i++) {
    cJSON* r = results[i] != NULL ? cJSON_Parse(results[i]) : NULL;
    cJSON* s = cJSON_GetObjectItemCaseSensitive(r, "system");
    if (s != NULL) sys = cJSON_Duplicate(s, true);
    cJSON_Delete(r);
  }
  cJSON_AddItemToObject(d, "system", sys != NULL ? sys : cJSON_CreateNull());
  cJSON_AddStringToObject(d, "command_line",
                          command_line != NULL ? command_line : "");
  add_asked(d, c);
  cJSON* pts = cJSON_AddArrayToObject(d, "points");
  for (uint32_t i = 0; i < c->count; i++)
    cJSON_AddItemToArray(pts, point_obj(c, i, results[i]));
  add_found(d, c, a);
  char* text = cJSON_Print(d);
  cJSON_Delete(d);
  if (text == NULL) return IOSPD_ENOMEM;
  iospd_strbuf_append(out, text);
  iospd_strbuf_putc(out, '\n');
  cJSON_free(text);
  return out->failed ? IOSPD_ENOMEM : 0;
}
