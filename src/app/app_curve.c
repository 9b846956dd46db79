/* SPDX-License-Identifier: MIT */
/* --curve (docs/curve.md; docs/design.md, "A mode that runs many
 * timespans"): the profile's one timespan run again and again, each point
 * a whole iospd_run_in call with its own results, the next point chosen
 * from the ones before (iospd_curve_next), until the curve is done or
 * Ctrl-C; then the table and verdict (or the curve document) and the
 * --output files. The profile is changed for each point and restored. */
#include <stdio.h>
#include <string.h>

#include "app_curve.h"
#include "iospd/agg.h"
#include "iospd/alloc.h"
#include "iospd/console.h"
#include "iospd/envinfo.h"
#include "iospd/formats.h"
#include "iospd/hist.h"
#include "iospd/html.h"
#include "iospd/options.h"
#include "iospd/report_curve.h"
#include "iospd/run.h"

/* What the points change, as the profile had it. */
typedef struct saved_s {
  uint32_t duration, warmup, ts_threads;
  bool latency;
  struct {
    uint32_t block, qd, threads, bpms, iops;
  } * t;
} saved_t;

typedef struct curve_ctx_s {
  const iospd_profile_t* p;
  iospd_strbuf_t warnings; /* the point's kept warnings, one a line */
} curve_ctx_t;

static void on_message(void* ctx, iospd_msg_kind_t kind, const char* text) {
  curve_ctx_t* cc = ctx;
  if (iospd_msg_def(kind)->flags & IOSPD_MSG_KEPT)
    iospd_msg_line(&cc->warnings, kind, text);
  iospd_app_message(cc->p, kind, text);
}

static void on_interrupted(void* ctx) {
  static const char line[] = "\n*** Ctrl-C: stopping I/O; the curve keeps "
                             "the points done so far. ***\n";
  notice_write(((const curve_ctx_t*)ctx)->p, line, sizeof line - 1);
}

static void on_progress_dot(void* ctx) {
  notice_write(((const curve_ctx_t*)ctx)->p, ".", 1);
}

static bool progress_wanted(const iospd_profile_t* p) {
  switch (p->ext.status_line) {
    case IOSPD_STATUS_ALWAYS: return true;
    case IOSPD_STATUS_NEVER: return false;
    default: return p->progress_dots == 0 && iospd_plat_err_is_terminal();
  }
}

static int save(iospd_profile_t* p, saved_t* s) {
  iospd_timespan_t* ts = &p->timespans[0];
  s->duration = ts->duration;
  s->warmup = ts->warmup;
  s->ts_threads = ts->thread_count;
  s->latency = ts->measure_latency;
  s->t = iospd_calloc(ts->target_count ? ts->target_count : 1, sizeof *s->t);
  if (s->t == NULL) return IOSPD_ENOMEM;
  for (uint32_t i = 0; i < ts->target_count; i++) {
    const iospd_target_t* t = &ts->targets[i];
    s->t[i].block = t->block_size;
    s->t[i].qd = t->request_count;
    s->t[i].threads = t->threads_per_file;
    s->t[i].bpms = t->throughput_bpms;
    s->t[i].iops = t->throughput_iops;
  }
  /* Short points unless -d / -W were given (a -X profile keeps its own). */
  if (p->xml_source == NULL && !iospd_opt_given(p, IOSPD_OID_d))
    ts->duration = 10;
  if (p->xml_source == NULL && !iospd_opt_given(p, IOSPD_OID_W))
    ts->warmup = 2;
  ts->measure_latency = true; /* the table and the bound need it */
  return 0;
}

static void restore(iospd_profile_t* p, saved_t* s) {
  iospd_timespan_t* ts = &p->timespans[0];
  ts->duration = s->duration;
  ts->warmup = s->warmup;
  ts->thread_count = s->ts_threads;
  ts->measure_latency = s->latency;
  for (uint32_t i = 0; i < ts->target_count; i++) {
    iospd_target_t* t = &ts->targets[i];
    t->block_size = s->t[i].block;
    t->request_count = s->t[i].qd;
    t->threads_per_file = s->t[i].threads;
    t->throughput_bpms = s->t[i].bpms;
    t->throughput_iops = s->t[i].iops;
  }
  iospd_free(s->t);
  s->t = NULL;
}

/* (thread, target) pairs: each runs -o I/Os and gets its share of -g. */
static uint64_t pairs(const iospd_timespan_t* ts) {
  uint64_t n = 0;
  for (uint32_t i = 0; i < ts->target_count; i++)
    n += ts->thread_count > 0 ? ts->thread_count
                              : ts->targets[i].threads_per_file;
  return n;
}

/* The point's shape into the profile; the I/Os asked in flight. */
static uint64_t apply(iospd_profile_t* p, const saved_t* s,
                      const iospd_curve_t* c, const iospd_curve_point_t* pt) {
  iospd_timespan_t* ts = &p->timespans[0];
  bool axis_t = c->opts.axis == IOSPD_CURVE_AXIS_T;
  if (axis_t && s->ts_threads > 0) ts->thread_count = pt->threads;
  bool blocks = c->opts.axis == IOSPD_CURVE_AXIS_B ||
                pt->phase == IOSPD_CURVE_PHASE_PROBE;
  for (uint32_t i = 0; i < ts->target_count; i++) {
    iospd_target_t* t = &ts->targets[i];
    t->block_size = blocks ? pt->block_size : s->t[i].block;
    t->request_count =
        c->opts.axis == IOSPD_CURVE_AXIS_O ? pt->outstanding : s->t[i].qd;
    if (axis_t && s->ts_threads == 0) t->threads_per_file = pt->threads;
    t->throughput_bpms = 0;
    t->throughput_iops = 0;
  }
  uint64_t n = pairs(ts);
  if (pt->rate_iops > 0 && n > 0)
    for (uint32_t i = 0; i < ts->target_count; i++) {
      iospd_target_t* t = &ts->targets[i];
      double each = pt->rate_iops / (double)n;
      double bpms = each * t->block_size / 1000.0;
      t->throughput_bpms = bpms < 1 ? 1u : (uint32_t)bpms;
      t->throughput_iops = each < 1 ? 1u : (uint32_t)(each + 0.5);
    }
  uint64_t flight = 0;
  for (uint32_t i = 0; i < ts->target_count; i++)
    flight += (ts->thread_count > 0 ? ts->thread_count
                                    : ts->targets[i].threads_per_file) *
              (uint64_t)(ts->request_count > 0 ? ts->request_count
                                               : ts->targets[i].request_count);
  return flight;
}

/* The measured figures of the point from its results. */
static void measure(const iospd_curve_t* c, const iospd_results_t* r,
                    iospd_curve_point_t* pt) {
  const iospd_timespan_result_t* tr = &r->timespans[0];
  pt->seconds = tr->seconds;
  if (tr->seconds <= 0) return;
  iospd_agg_t scratch;
  iospd_agg_t* tot = iospd_timespan_total(tr, &scratch);
  pt->iops = (double)tot->ios[2] / tr->seconds;
  pt->mib_per_s = (double)tot->bytes[2] / tr->seconds / 1048576.0;
  const iospd_hist_t* h = tot->lat[2];
  if (h != NULL && iospd_hist_count(h) > 0) {
    pt->has_latency = true;
    pt->mean_us = iospd_hist_mean_ns(h) / 1000.0;
    pt->p50_us = iospd_hist_percentile_ns(h, 50) / 1000.0;
    pt->p90_us = iospd_hist_percentile_ns(h, 90) / 1000.0;
    pt->p99_us = iospd_hist_percentile_ns(h, 99) / 1000.0;
    pt->p999_us = iospd_hist_percentile_ns(h, 99.9) / 1000.0;
    pt->max_us = (double)iospd_hist_max_ns(h) / 1000.0;
  }
  if (c->opts.limit_on) {
    int k = c->opts.limit_op == IOSPD_CURVE_OP_READ    ? 0
            : c->opts.limit_op == IOSPD_CURVE_OP_WRITE ? 1
                                                       : 2;
    const iospd_hist_t* lh = tot->lat[k];
    if (lh != NULL && iospd_hist_count(lh) > 0) {
      pt->limit_us = c->opts.limit_pct > 0
                         ? iospd_hist_percentile_ns(lh, c->opts.limit_pct) /
                               1000.0
                         : iospd_hist_mean_ns(lh) / 1000.0;
      pt->within = iospd_curve_within(&c->opts, pt->limit_us);
    } else {
      pt->within = 0; /* nothing of that kind measured: not within */
    }
  }
  iospd_agg_destroy(&scratch);
  if (!tr->cpu_unknown && r->topo.cpu_count > 0 && tr->cpu != NULL) {
    double sum = 0;
    for (uint32_t i = 0; i < r->topo.cpu_count; i++) sum += tr->cpu[i].usage;
    pt->cpu_percent = sum / r->topo.cpu_count;
  }
  for (uint32_t i = 0; i < tr->thread_count; i++) {
    const iospd_thread_result_t* th = &tr->threads[i];
    uint64_t cpu, wall;
    if (!iospd_thread_busy_ns(th, &cpu, &wall)) continue;
    double pct = 100.0 * (double)cpu / (double)wall;
    if (pct > 100.0) pct = 100.0;
    if (pct > pt->busiest_cpu_percent) {
      pt->busiest_cpu_percent = pct;
      pt->busiest_thread = th->id;
    }
  }
}

/* The JSON report's environment, once for every point. */
typedef struct env_s {
  iospd_env_t env;
  const char** paths;
  iospd_env_target_t* targets;
  uint32_t count;
} env_t;

static void env_fill(env_t* e, const iospd_profile_t* p) {
  memset(e, 0, sizeof *e);
  iospd_plat_env_query(&e->env);
  const iospd_timespan_t* ts = &p->timespans[0];
  uint32_t n = ts->target_count ? ts->target_count : 1;
  e->paths = iospd_calloc(n, sizeof *e->paths);
  e->targets = iospd_calloc(n, sizeof *e->targets);
  if (e->paths == NULL || e->targets == NULL) return;
  for (uint32_t t = 0; t < ts->target_count; t++) {
    const char* path = ts->targets[t].path;
    bool seen = path == NULL;
    for (uint32_t k = 0; k < e->count && !seen; k++)
      seen = strcmp(e->paths[k], path) == 0;
    if (seen) continue;
    e->paths[e->count] = path;
    iospd_plat_env_target(path, &e->targets[e->count]);
    e->count++;
  }
}

/* Point i's -Rjson document (its warnings cut into lines). */
static char* point_json(const iospd_results_t* r, const env_t* e,
                        const cmdline_args_t* args, iospd_strbuf_t* warn) {
  const char* lines[64];
  uint32_t nl = 0;
  char* s = warn->data;
  for (size_t i = 0; s != NULL && i < warn->len && nl < 64; i++)
    if (warn->data[i] == '\n') {
      warn->data[i] = '\0';
      lines[nl++] = s;
      s = warn->data + i + 1;
    }
  iospd_json_extra_t x = {.env = &e->env,
                          .target_paths = e->paths,
                          .targets = e->targets,
                          .target_count = e->count,
                          .argc = args->argc,
                          .argv = args->argv,
                          .warnings = lines,
                          .warning_count = nl};
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_report_json(&sb, r, &x);
  char* text = sb.failed ? NULL : iospd_strdup(iospd_strbuf_cstr(&sb));
  iospd_strbuf_destroy(&sb);
  return text;
}

static bool wants_json(const iospd_profile_t* p) {
  if (p->format == IOSPD_FORMAT_JSON) return true;
  for (uint32_t i = 0; i < p->ext.output_count; i++)
    if (p->ext.outputs[i].format == IOSPD_FORMAT_JSON ||
        p->ext.outputs[i].format == IOSPD_FORMAT_HTML)
      return true;
  return false;
}

/* Runs one point into pt (and its JSON into *json when asked). Returns
 * false when Ctrl-C cut the point short (it is not kept). */
static bool run_point(iospd_run_session_t* session, iospd_profile_t* p,
                      const saved_t* s, const iospd_curve_t* c,
                      iospd_curve_point_t* pt, const iospd_sysinfo_t* sys,
                      const env_t* env, const cmdline_args_t* args,
                      char** json) {
  pt->in_flight = apply(p, s, c, pt);
  pt->within = c->opts.limit_on ? 0 : -1;
  iospd_strbuf_t diag;
  iospd_strbuf_init(&diag);
  if (iospd_profile_validate(p, &diag) < 0) {
    iospd_strbuf_t m;
    iospd_strbuf_init(&m);
    iospd_strbuf_appendf(&m, "--curve: point %u (", c->count + 1);
    iospd_curve_axis_label(c->opts.axis, pt->axis_value, &m);
    iospd_strbuf_append(&m, ") cannot run: ");
    iospd_strbuf_append(&m, iospd_strbuf_cstr(&diag));
    while (m.len > 0 && m.data[m.len - 1] == '\n') m.data[--m.len] = '\0';
    err_line(iospd_strbuf_cstr(&m));
    iospd_strbuf_destroy(&m);
    iospd_strbuf_destroy(&diag);
    pt->failed = true;
    return true;
  }
  iospd_strbuf_destroy(&diag);
  iospd_results_t results;
  memset(&results, 0, sizeof results);
  results.sys = *sys;
  curve_ctx_t cc = {.p = p};
  iospd_strbuf_init(&cc.warnings);
  iospd_run_hooks_t hooks = {.message = on_message,
                             .progress_dot = on_progress_dot,
                             .interrupted = on_interrupted,
                             .ctx = &cc};
  iospd_err_t err;
  iospd_err_clear(&err);
  uint64_t cpu0 = iospd_plat_process_cpu_ns(), t0 = iospd_plat_ticks();
  int rc = iospd_run_in(session, p, &hooks, &results, &err);
  uint64_t cpu1 = iospd_plat_process_cpu_ns(), t1 = iospd_plat_ticks();
  if (p->progress_dots > 0) notice_write(p, "\n", 1);
  bool kept = !iospd_run_session_interrupted(session);
  if (rc < 0 || results.timespan_count == 0 ||
      results.timespans[0].error[0] != '\0') {
    const char* why = rc < 0 && err.msg[0]                  ? err.msg
                      : results.timespan_count > 0 &&
                              results.timespans[0].error[0] ? results.timespans[0].error
                      : rc < 0                              ? iospd_strerror(rc)
                                                            : NULL;
    if (why != NULL && kept) {
      iospd_strbuf_t m;
      iospd_strbuf_init(&m);
      iospd_strbuf_appendf(&m, "--curve: point %u failed: %s", c->count + 1,
                           why);
      err_line(iospd_strbuf_cstr(&m));
      iospd_strbuf_destroy(&m);
      pt->failed = true;
    }
  }
  if (kept && !pt->failed) {
    measure(c, &results, pt);
    /* A point that completed nothing would read as a fall or a broken
     * bound: it is a failure of the point, said as such. */
    if (pt->iops <= 0) {
      iospd_strbuf_t m;
      iospd_strbuf_init(&m);
      iospd_strbuf_appendf(&m, "--curve: point %u completed no I/O in its "
                               "%.1f s: the curve stops there",
                           c->count + 1, pt->seconds);
      err_line(iospd_strbuf_cstr(&m));
      iospd_strbuf_destroy(&m);
      pt->failed = true;
    }
  }
  if (cpu0 != 0 && cpu1 > cpu0 && t1 > t0 && sys->ticks_per_second > 0)
    pt->process_cpu_percent = 100.0 * (double)(cpu1 - cpu0) / 1e9 /
                              ((double)(t1 - t0) / sys->ticks_per_second);
  if (kept && json != NULL) *json = point_json(&results, env, args, &cc.warnings);
  iospd_results_destroy(&results);
  iospd_run_release(&results, p);
  iospd_plat_cpu_topology_free(&results.topo);
  iospd_strbuf_destroy(&cc.warnings);
  return kept;
}

static int write_file(const iospd_output_spec_t* o, const iospd_strbuf_t* sb) {
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_plat_outfile_t* f = NULL;
  int rc = iospd_plat_outfile_open(o->path, true, &f, &err);
  if (rc == 0) {
    rc = iospd_plat_outfile_write(f, iospd_strbuf_cstr(sb), sb->len, &err);
    if (rc == 0)
      rc = iospd_plat_outfile_publish(f, &err);
    else
      iospd_plat_outfile_abandon(f);
  }
  if (rc != 0) {
    iospd_strbuf_t m;
    iospd_strbuf_init(&m);
    iospd_strbuf_appendf(&m, "--output=%s:%s: the report was not written: %s",
                         iospd_format_word(o->format), o->path,
                         err.msg[0] ? err.msg : iospd_strerror(rc));
    err_line(iospd_strbuf_cstr(&m));
    iospd_strbuf_destroy(&m);
  }
  return rc;
}

/* The text or JSON report on stdout and in the --output files; false when
 * a file was not written. */
static bool emit(const iospd_profile_t* p, const iospd_curve_t* c,
                 const char* const* json) {
  iospd_curve_analysis_t a;
  iospd_curve_analyse(c, &a);
  iospd_strbuf_t text, doc;
  iospd_strbuf_init(&text);
  iospd_strbuf_init(&doc);
  iospd_report_curve_text(&text, c, &a);
  bool ok = true;
  if (wants_json(p) &&
      iospd_app_curve_json(&doc, c, &a, json, p->cmdline) != 0) {
    err_line("out of memory writing the curve's JSON document");
    ok = false;
  }
  /* --output=html: the curve page, drawn from the document. */
  iospd_strbuf_t html;
  iospd_strbuf_init(&html);
  if (ok && iospd_app_wants_format(p, IOSPD_FORMAT_HTML)) {
    iospd_err_t herr;
    iospd_err_clear(&herr);
    if (iospd_html_curve_text("the curve document", doc.data, doc.len, &html,
                              &herr) != 0) {
      err_line(herr.msg[0] ? herr.msg : "out of memory drawing the curve page");
      ok = false;
    }
  }
  out_sb(p->format == IOSPD_FORMAT_JSON ? &doc : &text);
  for (uint32_t i = 0; i < p->ext.output_count; i++) {
    const iospd_output_spec_t* o = &p->ext.outputs[i];
    const iospd_strbuf_t* sb = o->format == IOSPD_FORMAT_JSON   ? &doc
                               : o->format == IOSPD_FORMAT_HTML ? &html
                                                                : &text;
    if (write_file(o, sb) != 0) ok = false;
  }
  iospd_strbuf_destroy(&text);
  iospd_strbuf_destroy(&doc);
  iospd_strbuf_destroy(&html);
  return ok;
}

static void say_point(const iospd_profile_t* p, const iospd_curve_t* c,
                      const iospd_curve_point_t* pt) {
  iospd_strbuf_t m;
  iospd_strbuf_init(&m);
  if (pt->phase == IOSPD_CURVE_PHASE_CURVE)
    iospd_strbuf_appendf(&m, "curve: point %u of %u: ", c->count + 1,
                         c->opts.value_count);
  else
    iospd_strbuf_appendf(&m, "curve: point %u (%s): ", c->count + 1,
                         iospd_curve_phase_word(pt->phase));
  iospd_curve_axis_label(c->opts.axis, pt->axis_value, &m);
  if (pt->phase == IOSPD_CURVE_PHASE_PROBE)
    iospd_strbuf_appendf(&m, " at -b%u", pt->block_size);
  if (pt->rate_iops > 0)
    iospd_strbuf_appendf(&m, " at -g %.0f IOPS", pt->rate_iops);
  iospd_app_message(p, IOSPD_MSG_PROGRESS, iospd_strbuf_cstr(&m));
  iospd_strbuf_destroy(&m);
}

int iospd_app_curve(iospd_profile_t* p, const iospd_sysinfo_t* sys,
                    const cmdline_args_t* args, const char* warnings) {
  (void)warnings; /* printed by the validation already */
  iospd_strbuf_t msg;
  iospd_strbuf_init(&msg);
  if (iospd_curve_refusal(p, &msg) != 0) {
    err_line(iospd_strbuf_cstr(&msg));
    iospd_strbuf_destroy(&msg);
    return EXIT_BAD_INPUT;
  }
  iospd_strbuf_destroy(&msg);
  int code = iospd_app_check_output_paths(p, true);
  if (code != EXIT_OK) return code;
  saved_t s;
  if (save(p, &s) != 0) {
    err_line("out of memory starting the curve");
    return EXIT_RUN_FAILED;
  }
  const iospd_timespan_t* ts = &p->timespans[0];
  const iospd_target_t* t0 = &ts->targets[0];
  iospd_curve_t* c = iospd_calloc(1, sizeof *c);
  char** json = iospd_calloc(IOSPD_CURVE_MAX_POINTS, sizeof *json);
  if (c == NULL || json == NULL) {
    iospd_free(c);
    iospd_free(json);
    restore(p, &s);
    err_line("out of memory starting the curve");
    return EXIT_RUN_FAILED;
  }
  iospd_curve_init(c, &p->ext.curve, t0->block_size,
                   ts->thread_count > 0 ? ts->thread_count
                                        : t0->threads_per_file,
                   t0->request_count);
  env_t env;
  bool want_json = wants_json(p);
  if (want_json) env_fill(&env, p);
  bool progress = progress_wanted(p);
  iospd_run_session_t session;
  iospd_run_session_init(&session);
  iospd_curve_point_t pt;
  bool failed = false;
  while (!iospd_run_session_interrupted(&session) &&
         iospd_curve_next(c, &pt)) {
    if (progress) say_point(p, c, &pt);
    char* text = NULL;
    bool kept = run_point(&session, p, &s, c, &pt, sys, &env, args,
                          want_json ? &text : NULL);
    if (!kept) {
      iospd_free(text);
      break;
    }
    json[c->count] = text;
    c->points[c->count++] = pt;
    if (pt.failed) failed = true;
  }
  c->interrupted = iospd_run_session_interrupted(&session);
  restore(p, &s);
  bool ok = emit(p, c, (const char* const*)json);
  for (uint32_t i = 0; i < IOSPD_CURVE_MAX_POINTS; i++) iospd_free(json[i]);
  iospd_free(json);
  if (want_json) {
    iospd_free(env.paths);
    iospd_free(env.targets);
  }
  iospd_free(c);
  return failed || !ok ? EXIT_RUN_FAILED : EXIT_OK;
}
