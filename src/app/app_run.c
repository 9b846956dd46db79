/* SPDX-License-Identifier: MIT */
/* The two ways a profile runs, as the application drives them: a normal
 * run (iospd_run: block I/O or the file tree) and --verify-only,
 * with the hooks that turn the run's messages, dots, intervals and ticks
 * into output (the status line, the time-series file, the kept series of
 * the HTML report). */
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "iospd/console.h"
#include "iospd/run.h"
#include "iospd/tree.h"
#include "iospd/verify.h"
#include "iospd/warnings.h"

/* --progress: auto shows the line when stderr is a terminal, unless -P
 * prints its dots (they would share the line). */
static bool status_wanted(const iospd_profile_t* p) {
  switch (p->ext.status_line) {
    case IOSPD_STATUS_ALWAYS: return true;
    case IOSPD_STATUS_NEVER: return false;
    default: return p->progress_dots == 0 && iospd_plat_err_is_terminal();
  }
}

/* Renders the status line and hands it to the drawer's thread: as wide as
 * the terminal less one column, so the cursor never wraps to the next row
 * (80 columns when the width is not known: not a terminal,
 * --progress=always). */
static void status_draw(run_ctx_t* rc) {
  uint32_t cols = iospd_plat_err_columns();
  if (cols == 0) cols = 80;
  size_t len = iospd_status_render(rc->status, rc->line, sizeof rc->line,
                                   cols - 1);
  iospd_status_drawer_post(rc->drawer, rc->line, len);
}

/* The drawer's writer. */
static void status_show(void* ctx, const char* line, size_t len) {
  (void)ctx;
  iospd_plat_status_show(line, len);
}

/* How often the drawer looks for a new line: the line changes once an
 * interval or a second at most, so 20 ms is late by nothing one sees. */
#define STATUS_POLL_MS 20u

/* hooks->interval, on the controller thread as each interval ends: the
 * time-series row first, then the status line. */
static void on_interval(void* ctx, const iospd_interval_t* iv) {
  run_ctx_t* rc = ctx;
  if (rc->series != NULL) iospd_series_out_interval(rc->series, iv);
  iospd_series_keep_interval(rc->keep, iv);
  if (rc->status != NULL && iospd_status_on_interval(rc->status, iv))
    status_draw(rc);
}

static void on_tick(void* ctx, const iospd_run_tick_t* t) {
  run_ctx_t* rc = ctx;
  if (rc->status != NULL && iospd_status_on_tick(rc->status, t))
    status_draw(rc);
}

/* Run messages: the printer puts each where its kind goes
 * (iospd_app_message), between the drawer's quiet calls (the write erases
 * the status line, the drawer shows it again after); the warnings are also
 * kept, with their prefix, for the JSON and HTML reports. */
static void on_message(void* ctx, iospd_msg_kind_t kind, const char* text) {
  run_ctx_t* rc = ctx;
  if (iospd_msg_def(kind)->flags & IOSPD_MSG_KEPT)
    iospd_msg_line(&rc->warnings, kind, text);
  iospd_status_drawer_quiet_begin(rc->drawer);
  iospd_app_message(rc->p, kind, text);
  iospd_status_drawer_quiet_end(rc->drawer, true);
}

static void on_interrupted(void* ctx) {
  static const char line[] =
      "\n*** Ctrl-C: stopping I/O; the results measured so far follow. ***\n";
  const run_ctx_t* rc = ctx;
  iospd_status_drawer_quiet_begin(rc->drawer);
  notice_write(rc->p, line, sizeof line - 1);
  iospd_status_drawer_quiet_end(rc->drawer, true);
}

static void on_progress_dot(void* ctx) {
  const run_ctx_t* rc = ctx;
  iospd_status_drawer_quiet_begin(rc->drawer);
  notice_write(rc->p, ".", 1);
  iospd_status_drawer_quiet_end(rc->drawer, false);
}

/* warnings: the validation's warnings ("warning: ..." lines), kept with
 * the run's own for the JSON and HTML reports. */
int iospd_app_run_profile(const iospd_profile_t* p, const iospd_sysinfo_t* sys,
                          const cmdline_args_t* args, const char* warnings) {
  if (p->ext.pts.test != 0) return iospd_app_pts(p, sys);
  iospd_results_t results;
  memset(&results, 0, sizeof results);
  results.sys = *sys;
  iospd_err_t err;
  iospd_err_clear(&err);
  run_ctx_t ctx = {.p = p};
  iospd_strbuf_init(&ctx.warnings);
  iospd_strbuf_append(&ctx.warnings, warnings);
  iospd_run_hooks_t hooks = {.message = on_message,
                             .progress_dot = on_progress_dot,
                             .interrupted = on_interrupted,
                             .ctx = &ctx};
  if (iospd_app_wants_format(p, IOSPD_FORMAT_HTML)) {
    ctx.keep = iospd_series_keep_create(p, IOSPD_SERIES_KEEP_CAP);
    if (ctx.keep == NULL) {
      iospd_strbuf_destroy(&ctx.warnings);
      err_line("out of memory (the HTML report's time series)");
      return EXIT_RUN_FAILED;
    }
    hooks.interval = on_interval;
  }
  if (p->ext.timeseries_path != NULL) {
    if (iospd_series_out_open(&ctx.series, p->ext.timeseries_path, p, &err) <
        0) {
      err_line(err.msg);
      iospd_series_keep_destroy(ctx.keep);
      iospd_strbuf_destroy(&ctx.warnings);
      return EXIT_BAD_INPUT;
    }
    hooks.interval = on_interval;
  }
  /* Without memory or a thread for it, the run goes on without a status
   * line. */
  if (status_wanted(p)) ctx.status = iospd_status_create(p);
  if (ctx.status != NULL &&
      iospd_status_drawer_start(&ctx.drawer, status_show, NULL,
                                STATUS_POLL_MS, &err) < 0) {
    iospd_err_clear(&err);
    iospd_status_destroy(ctx.status);
    ctx.status = NULL;
  }
  if (ctx.status != NULL) {
    hooks.interval = on_interval;
    hooks.tick = on_tick;
  }
  int rc = iospd_run(p, &hooks, &results, &err);
  /* Erased before anything else is printed (the writes erase it too), once
   * the drawer's last write has returned. */
  iospd_status_drawer_stop(ctx.drawer);
  ctx.drawer = NULL;
  iospd_plat_status_clear();
  iospd_status_destroy(ctx.status);
  iospd_err_t serr;
  iospd_err_clear(&serr);
  int src = iospd_series_out_close(ctx.series, &serr);
  if (p->progress_dots > 0) notice_write(p, "\n", 1);
  /* DISKSPD prints whatever was measured even when the run failed. */
  bool outputs_ok = true;
  if (results.timespan_count > 0) {
    outputs_ok = iospd_app_emit_reports(p, &results, &ctx, args);
    /* The warnings only the run could tell (iospd/warnings.h), after the
     * report so that the DISKSPD layout before it is untouched. */
    for (uint32_t i = 0; i < results.timespan_count; i++)
      for (uint32_t k = 0; k < results.timespans[i].warning_count; k++)
        if (iospd_warn_after_run(results.timespans[i].warnings[k].kind))
          iospd_app_message(p, IOSPD_MSG_WARNING,
                            results.timespans[i].warnings[k].text);
  }
  /* --verify: the first failures one by one on stderr; any failure is a
   * failed run. */
  uint64_t vfailed = iospd_results_verify_failures(&results);
  if (vfailed > 0) {
    iospd_strbuf_t vf;
    iospd_strbuf_init(&vf);
    iospd_report_verify_failures(&vf, &results);
    err_sb(&vf);
    iospd_strbuf_destroy(&vf);
  }
  iospd_results_destroy(&results);
  iospd_run_release(&results, p);
  iospd_plat_cpu_topology_free(&results.topo);
  iospd_series_keep_destroy(ctx.keep);
  iospd_strbuf_destroy(&ctx.warnings);
  if (rc < 0) {
    err_line(err.msg[0] ? err.msg : iospd_strerror(rc));
    /* A state file that does not fit the profile is bad input. */
    return rc == IOSPD_EUSAGE ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
  }
  if (vfailed > 0) {
    char line[160];
    snprintf(line, sizeof line,
             "--verify: %llu blocks read back were not what was written "
             "(see the verify lines above and the report)",
             (unsigned long long)vfailed);
    err_line(line);
    return EXIT_RUN_FAILED;
  }
  if (src < 0) {
    err_line(serr.msg);
    return EXIT_RUN_FAILED;
  }
  return outputs_ok ? EXIT_OK : EXIT_RUN_FAILED;
}

/* --verify-only: one checking pass over every target; a text summary on
 * stdout, progress and failures on stderr; exit 1 on any failure. */
static void vonly_message(void* ctx, iospd_msg_kind_t kind,
                          const char* text) {
  iospd_app_message(ctx, kind, text);
}

static void vonly_interrupted(void* ctx) {
  iospd_app_message(ctx, IOSPD_MSG_NOTE,
                    "Ctrl-C: stopping the check; a target not read to the "
                    "end is reported incomplete");
}

static void vonly_dot(void* ctx) { notice_write(ctx, ".", 1); }

int iospd_app_verify_only(const iospd_profile_t* p,
                          const iospd_sysinfo_t* sys) {
  iospd_run_hooks_t hooks = {.message = vonly_message,
                             .interrupted = vonly_interrupted,
                             .progress_dot = vonly_dot,
                             .ctx = (void*)p};
  iospd_vonly_t v;
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_results_t res;
  memset(&res, 0, sizeof res);
  res.sys = *sys;
  int rc = iospd_verify_only(p, &hooks, &res, &v, &err);
  iospd_results_destroy(&res);
  iospd_run_release(&res, p);
  iospd_plat_cpu_topology_free(&res.topo);
  if (p->progress_dots > 0) notice_write(p, "\n", 1);
  iospd_strbuf_t out, fl;
  iospd_strbuf_init(&out);
  iospd_strbuf_init(&fl);
  iospd_report_vonly_summary(&out, &v);
  uint64_t failed = iospd_report_vonly_failures(&fl, &v);
  err_sb(&fl);
  out_sb(&out);
  iospd_strbuf_destroy(&out);
  iospd_strbuf_destroy(&fl);
  int code = EXIT_OK;
  if (rc < 0) {
    err_line(err.msg[0] ? err.msg : iospd_strerror(rc));
    code = rc == IOSPD_EUSAGE ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
  } else if (failed > 0) {
    err_line("--verify-only: some blocks were not what the last "
             "verified write put there (see above)");
    code = EXIT_RUN_FAILED;
  } else {
    /* Stopped by Ctrl-C or -yp: what was not read is not a pass. */
    for (uint32_t i = 0; i < v.target_count && code == EXIT_OK; i++) {
      if (v.targets[i].complete) continue;
      char line[IOSPD_ERR_MSG_MAX];
      snprintf(line, sizeof line,
               "--verify-only: the check of '%s' was stopped (Ctrl-C or "
               "-yp) after %llu blocks, before the end: not a pass",
               v.targets[i].path, (unsigned long long)v.targets[i].blocks);
      err_line(line);
      code = EXIT_RUN_FAILED;
    }
  }
  iospd_vonly_free(&v);
  return code;
}

