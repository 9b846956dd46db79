/* SPDX-License-Identifier: MIT */
/* iospd entry point: parse -> validate -> (print profile | run -> report).
 * The only file that prints and that chooses the exit code:
 *   0 success (also after Ctrl-C), 1 run failure, 3 bad input (DISKSPD's). */
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/cmdline.h"
#include "iospd/compare.h"
#include "iospd/console.h"
#include "iospd/envinfo.h"
#include "iospd/html.h"
#include "iospd/merge.h"
#include "iospd/output_paths.h"
#include "iospd/ping.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/report.h"
#include "iospd/run.h"
#include "iospd/series_keep.h"
#include "iospd/series_out.h"
#include "iospd/status.h"
#include "iospd/strbuf.h"
#include "iospd/tree.h"
#include "iospd/verify.h"
#include "iospd/xml_profile.h"

enum { EXIT_OK = 0, EXIT_RUN_FAILED = 1, EXIT_BAD_INPUT = 3 };

static void out_sb(const iospd_strbuf_t* sb) {
  iospd_plat_write_out(iospd_strbuf_cstr(sb), sb->len);
}

static void err_line(const char* prefix, const char* msg) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_strbuf_appendf(&sb, "%s%s\n", prefix, msg);
  iospd_plat_write_err(iospd_strbuf_cstr(&sb), sb.len);
  iospd_strbuf_destroy(&sb);
}

/* Prints diagnostics collected one per line ("warning: ...", "error: ..."). */
static void err_sb(const iospd_strbuf_t* sb) {
  if (sb->len > 0) iospd_plat_write_err(iospd_strbuf_cstr(sb), sb->len);
}

/* Where run-time notices go. DISKSPD prints -v lines, -P dots and the
 * Ctrl-C line on stdout ahead of the results, and so do we for text output;
 * with -Rxml or -Rjson they would come before the document and stdout would
 * not parse, so there they go to stderr. */
static void notice_write(const iospd_profile_t* p, const char* text,
                         size_t len) {
  if (p != NULL && p->format != IOSPD_FORMAT_TEXT)
    iospd_plat_write_err(text, len);
  else
    iospd_plat_write_out(text, len);
}

/* What the run's hooks get as ctx. */
typedef struct run_ctx_s {
  const iospd_profile_t* p;
  /* --timeseries: the file the intervals are written to, or NULL. */
  iospd_series_out_t* series;
  /* With an HTML output: the intervals kept for its charts, or NULL. */
  iospd_series_keep_t* keep;
  /* Every warning of the run, for the JSON "warnings" and the HTML
   * report: one line per warning, '\n'-terminated. */
  iospd_strbuf_t warnings;
  /* The live status line (--progress), NULL when off. Drawn and redrawn
   * from the controller thread only (interval, tick and message hooks). */
  iospd_status_t* status;
  char line[IOSPD_STATUS_LINE_MAX + 1];
  size_t line_len; /* the line on screen; 0: none */
} run_ctx_t;

/* --progress: auto shows the line when stderr is a terminal, unless -P
 * prints its dots (they would share the line). */
static bool status_wanted(const iospd_profile_t* p) {
  switch (p->ext.status_line) {
    case IOSPD_STATUS_ALWAYS: return true;
    case IOSPD_STATUS_NEVER: return false;
    default: return p->progress == 0 && iospd_plat_err_is_terminal();
  }
}

/* Redraws the status line: as wide as the terminal less one column, so the
 * cursor never wraps to the next row (80 columns when the width is not
 * known: not a terminal, --progress=always). */
static void status_draw(run_ctx_t* rc) {
  uint32_t cols = iospd_plat_err_columns();
  if (cols == 0) cols = 80;
  rc->line_len = iospd_status_render(rc->status, rc->line, sizeof rc->line,
                                     cols - 1);
  iospd_plat_status_show(rc->line, rc->line_len);
}

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

/* After a message (which erased the status line), the line again. */
static void status_restore(const run_ctx_t* rc) {
  if (rc->line_len > 0) iospd_plat_status_show(rc->line, rc->line_len);
}

/* Run messages: warnings and notes go to stderr as they are; -v lines
 * behind a UTC timestamp (diagnostics, not a stable interface) go where
 * notice_write says. */
static void on_message(void* ctx, const char* text) {
  run_ctx_t* rc = ctx;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  /* "warning: ": iospd's warnings about misleading set-ups (warnings.h). */
  if (strncmp(text, "WARNING", 7) == 0 || strncmp(text, "warning: ", 9) == 0)
    iospd_strbuf_appendf(&rc->warnings, "%s\n", text);
  if (strncmp(text, "WARNING", 7) == 0 || strncmp(text, "NOTE:", 5) == 0 ||
      strncmp(text, "warning: ", 9) == 0) {
    iospd_strbuf_appendf(&sb, "%s\n", text);
    iospd_plat_write_err(iospd_strbuf_cstr(&sb), sb.len);
  } else {
    iospd_utc_time_t t;
    iospd_plat_utc_now(&t);
    iospd_strbuf_appendf(&sb, "%04u-%02u-%02uT%02u:%02u:%02uZ: %s\n", t.year,
                         t.month, t.day, t.hour, t.minute, t.second, text);
    notice_write(rc->p, iospd_strbuf_cstr(&sb), sb.len);
  }
  iospd_strbuf_destroy(&sb);
  status_restore(rc);
}

static void on_interrupted(void* ctx) {
  static const char line[] =
      "\n*** Ctrl-C: stopping I/O; the results measured so far follow. ***\n";
  const run_ctx_t* rc = ctx;
  notice_write(rc->p, line, sizeof line - 1);
  status_restore(rc);
}

static void on_progress_dot(void* ctx) {
  notice_write(((const run_ctx_t*)ctx)->p, ".", 1);
}

/* The engine the profile asks for; auto is named by the first engine of
 * the platform's table after it (io_uring), as the -Rp text always did. */
static const char* engine_name(int engine) {
  const char* name = iospd_engine_choice_name(
      engine == IOSPD_ENGINE_AUTO ? IOSPD_ENGINE_AUTO + 1 : engine);
  return name != NULL ? name : iospd_engine_choice_name(IOSPD_ENGINE_AUTO);
}

/* -Rp on Linux: the engine each target's threads would use and the I/Os it
 * would keep in flight, from a queue made (and dropped) the way a worker
 * makes it. */
static bool profile_engine(void* ctx, uint32_t timespan, uint32_t target,
                           iospd_engine_use_t* use) {
  const iospd_profile_t* p = ctx;
  if (timespan >= p->timespan_count) return false;
  const iospd_timespan_t* ts = &p->timespans[timespan];
  if (target >= ts->target_count) return false;
  const iospd_target_t* t = &ts->targets[target];
  uint32_t depth = t->request_count ? t->request_count : 1;
  unsigned flags = IOSPD_QUEUE_PLAN | (depth == 1 ? IOSPD_QUEUE_SYNC : 0);
  if (t->cache_mode == IOSPD_CACHE_DISABLE_OS) flags |= IOSPD_QUEUE_UNBUFFERED;
  iospd_plat_queue_t* q = NULL;
  iospd_err_t err;
  iospd_err_clear(&err);
  if (iospd_plat_queue_create(&q, depth, flags, p->ext.engine, &err) != 0) {
    /* A forced engine the kernel refuses: say so, as the run would. */
    static char refused[IOSPD_ERR_MSG_MAX + 64];
    snprintf(refused, sizeof refused, "%s, which cannot start here: %s",
             engine_name(p->ext.engine), err.msg);
    use->name = refused;
    use->asked = use->kept = 0;
    return true;
  }
  use->name = iospd_plat_queue_engine(q); /* static storage */
  use->asked = depth;
  use->kept = iospd_plat_queue_depth(q);
  (void)iospd_plat_queue_destroy(q);
  return true;
}

static int print_profile(const iospd_profile_t* p, const iospd_sysinfo_t* sys) {
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  bool on_linux = strcmp(sys->os_name, "windows") != 0;
  /* Where the platform cannot say (no queue can be made), the engine the
   * profile asks for. */
  const char* engine = NULL;
  if (on_linux)
    engine = engine_name(p->ext.engine);
  if (p->format == IOSPD_FORMAT_XML)
    iospd_xml_profile_write(&out, p, 0);
  else
    iospd_report_profile_text_uses(&out, p, engine,
                                   on_linux ? profile_engine : NULL,
                                   (void*)p);
  out_sb(&out);
  iospd_strbuf_destroy(&out);
  return EXIT_OK;
}

/* The command line as given, for the JSON report. */
typedef struct cmdline_args_s {
  int argc;
  const char* const* argv;
} cmdline_args_t;

/* What the JSON report adds to the results: the environment of the machine
 * and of each distinct target path; the run's warnings and the time series
 * kept for an HTML report. */
typedef struct json_env_s {
  iospd_env_t env;
  const char** paths;
  iospd_env_target_t* targets;
  uint32_t count;
  const char** warnings; /* lines of run_ctx_t.warnings, NUL-split */
  uint32_t warning_count;
  const iospd_series_keep_t* keep;
} json_env_t;

static void json_env_fill(json_env_t* je, const iospd_profile_t* p) {
  memset(je, 0, sizeof *je);
  iospd_plat_env_query(&je->env);
  uint32_t n = 0;
  for (uint32_t s = 0; s < p->timespan_count; s++)
    n += p->timespans[s].target_count;
  je->paths = iospd_calloc(n ? n : 1, sizeof *je->paths);
  je->targets = iospd_calloc(n ? n : 1, sizeof *je->targets);
  if (je->paths == NULL || je->targets == NULL) return; /* count stays 0 */
  for (uint32_t s = 0; s < p->timespan_count; s++)
    for (uint32_t t = 0; t < p->timespans[s].target_count; t++) {
      const char* path = p->timespans[s].targets[t].path;
      bool seen = path == NULL;
      for (uint32_t k = 0; k < je->count && !seen; k++)
        seen = strcmp(je->paths[k], path) == 0;
      if (seen) continue;
      je->paths[je->count] = path;
      iospd_plat_env_target(path, &je->targets[je->count]);
      je->count++;
    }
}

static void json_env_free(json_env_t* je) {
  iospd_free(je->paths);
  iospd_free(je->targets);
  iospd_free(je->warnings);
}

/* Points je->warnings at the lines of text (which it cuts at each '\n'). */
static void json_env_warnings(json_env_t* je, iospd_strbuf_t* text) {
  uint32_t n = 0;
  for (size_t i = 0; i < text->len; i++) n += text->data[i] == '\n';
  if (n == 0 || (je->warnings = iospd_calloc(n, sizeof *je->warnings)) == NULL)
    return;
  char* s = text->data;
  for (size_t i = 0; i < text->len; i++)
    if (text->data[i] == '\n') {
      text->data[i] = '\0';
      je->warnings[je->warning_count++] = s;
      s = text->data + i + 1;
    }
}

static void render(iospd_strbuf_t* out, iospd_result_format_t f,
                   const iospd_results_t* r, const json_env_t* je,
                   const cmdline_args_t* args) {
  if (f == IOSPD_FORMAT_XML) {
    iospd_report_xml(out, r);
  } else if (f == IOSPD_FORMAT_JSON) {
    iospd_json_extra_t x = {.env = &je->env,
                            .target_paths = je->paths,
                            .targets = je->targets,
                            .target_count = je->count,
                            .argc = args->argc,
                            .argv = args->argv,
                            .warnings = je->warnings,
                            .warning_count = je->warning_count};
    if (je->keep != NULL) {
      x.timeseries_rows = iospd_series_keep_text(je->keep, &x.timeseries_len);
      x.timeseries_dropped = iospd_series_keep_dropped(je->keep);
    }
    iospd_report_json(out, r, &x);
  } else {
    iospd_report_text(out, r);
  }
}

static const char* format_word(iospd_result_format_t f) {
  return f == IOSPD_FORMAT_XML    ? "xml"
         : f == IOSPD_FORMAT_JSON ? "json"
         : f == IOSPD_FORMAT_HTML ? "html"
                                  : "text";
}

/* The HTML report of this run: made from the JSON document it would write
 * (so that iospd --report of that JSON gives the same page). */
static int render_html(iospd_strbuf_t* out, const iospd_results_t* r,
                       const json_env_t* je, const cmdline_args_t* args,
                       iospd_err_t* err) {
  iospd_strbuf_t json;
  iospd_strbuf_init(&json);
  render(&json, IOSPD_FORMAT_JSON, r, je, args);
  int rc = IOSPD_ENOMEM;
  if (!json.failed) {
    iospd_html_input_t in = {.name = "this run",
                             .json = iospd_strbuf_cstr(&json),
                             .json_len = json.len};
    iospd_html_opts_t opts = {.force = false};
    rc = iospd_html_report(&in, 1, &opts, out, err);
  }
  iospd_strbuf_destroy(&json);
  return rc;
}

/* The --output files, each written whole (iospd_plat_write_file_whole).
 * Returns false if one could not be written (each failure is reported). */
static bool write_outputs(const iospd_profile_t* p, const iospd_results_t* r,
                          const json_env_t* je, const cmdline_args_t* args) {
  bool ok = true;
  for (uint32_t i = 0; i < p->ext.output_count; i++) {
    const iospd_output_spec_t* o = &p->ext.outputs[i];
    iospd_strbuf_t sb;
    iospd_strbuf_init(&sb);
    iospd_err_t err;
    iospd_err_clear(&err);
    int rc = 0;
    if (o->format == IOSPD_FORMAT_HTML)
      rc = render_html(&sb, r, je, args, &err);
    else
      render(&sb, o->format, r, je, args);
    if (rc == 0 && sb.failed) rc = IOSPD_ENOMEM;
    if (rc == 0 && o->format == IOSPD_FORMAT_HTML) /* same bytes everywhere */
      rc = iospd_plat_write_file_whole_bytes(o->path, iospd_strbuf_cstr(&sb),
                                             sb.len, &err);
    else if (rc == 0)
      rc = iospd_plat_write_file_whole(o->path, iospd_strbuf_cstr(&sb), sb.len,
                                       &err);
    if (rc != 0) {
      iospd_strbuf_t msg;
      iospd_strbuf_init(&msg);
      iospd_strbuf_appendf(&msg, "--output=%s:%s: the report was not written: %s",
                           format_word(o->format), o->path,
                           err.msg[0] ? err.msg : iospd_strerror(rc));
      err_line("error: ", iospd_strbuf_cstr(&msg));
      iospd_strbuf_destroy(&msg);
      ok = false;
    }
    iospd_strbuf_destroy(&sb);
  }
  return ok;
}

static bool wants_format(const iospd_profile_t* p, iospd_result_format_t f) {
  for (uint32_t i = 0; i < p->ext.output_count; i++)
    if (p->ext.outputs[i].format == f) return true;
  return false;
}

static bool wants_json(const iospd_profile_t* p) {
  return p->format == IOSPD_FORMAT_JSON ||
         wants_format(p, IOSPD_FORMAT_JSON) ||
         wants_format(p, IOSPD_FORMAT_HTML);
}

/* list[n] = (the switch as written, "<opt><path>", path); false on ENOMEM. */
static bool push_path(iospd_out_path_t* list, int n, const char* opt,
                      const char* path) {
  size_t len = strlen(opt) + strlen(path) + 1;
  char* text = iospd_malloc(len);
  if (text == NULL) return false;
  snprintf(text, len, "%s%s", opt, path);
  list[n].option = text;
  list[n].path = path;
  return true;
}

/* Every file the run will write, as (switch as written, path), for the
 * safety checks: the --output files and the --timeseries file (the caller
 * leaves room for it). Returns the count, or -1 on ENOMEM; free each
 * option with iospd_free. */
static int output_paths(const iospd_profile_t* p, iospd_out_path_t* list) {
  int n = 0;
  for (uint32_t i = 0; i < p->ext.output_count; i++) {
    const iospd_output_spec_t* o = &p->ext.outputs[i];
    const char* opt = o->format == IOSPD_FORMAT_XML    ? "--output=xml:"
                      : o->format == IOSPD_FORMAT_JSON ? "--output=json:"
                      : o->format == IOSPD_FORMAT_HTML ? "--output=html:"
                                                       : "--output=text:";
    if (!push_path(list, n++, opt, o->path)) return -1;
  }
  if (p->ext.timeseries_path != NULL &&
      !push_path(list, n++, "--timeseries=", p->ext.timeseries_path))
    return -1;
  return n;
}

/* Before any I/O: refuses report files that cannot be written, that are a
 * target or another file the run reads, or that two outputs share, and
 * --verify state files that are a target, an input or an output (exit 3).
 * outputs: false for --verify-only, which writes no report but keeps state
 * files. */
static int check_output_paths(const iospd_profile_t* p, bool outputs) {
  size_t cap = (size_t)p->ext.output_count + 1;
  iospd_out_path_t* list = iospd_calloc(cap, sizeof *list);
  int n = list == NULL ? -1 : outputs ? output_paths(p, list) : 0;
  int rc = 0;
  iospd_err_t err;
  iospd_err_clear(&err);
  if (n < 0) {
    err_line("error: ", "out of memory checking the output files");
    rc = EXIT_RUN_FAILED;
  } else if (iospd_output_paths_check(list, (size_t)n, p, &err) != 0) {
    err_line("error: ", err.msg);
    rc = err.code == IOSPD_ENOMEM ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
  }
  for (size_t i = 0; list != NULL && i < cap; i++)
    iospd_free((char*)list[i].option);
  iospd_free(list);
  return rc;
}

/* The report of a finished run (normal or --tree) on stdout as -R asks
 * (ctx->warnings is cut into lines for the JSON: call it once),
 * then every --output file; false when an --output file was not written. */
static bool emit_reports(const iospd_profile_t* p, const iospd_results_t* r,
                         run_ctx_t* ctx, const cmdline_args_t* args) {
  json_env_t je;
  memset(&je, 0, sizeof je);
  if (wants_json(p)) json_env_fill(&je, p);
  je.keep = ctx->keep;
  json_env_warnings(&je, &ctx->warnings);
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  render(&out, p->format, r, &je, args);
  out_sb(&out);
  iospd_strbuf_destroy(&out);
  bool ok = write_outputs(p, r, &je, args);
  json_env_free(&je);
  return ok;
}

/* warnings: the validation's warnings ("warning: ..." lines), kept with
 * the run's own for the JSON and HTML reports. */
static int run_profile(const iospd_profile_t* p, const iospd_sysinfo_t* sys,
                       const cmdline_args_t* args, const char* warnings) {
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
  if (wants_format(p, IOSPD_FORMAT_HTML)) {
    ctx.keep = iospd_series_keep_create(p, IOSPD_SERIES_KEEP_CAP);
    if (ctx.keep == NULL) {
      iospd_strbuf_destroy(&ctx.warnings);
      err_line("error: ", "out of memory (the HTML report's time series)");
      return EXIT_RUN_FAILED;
    }
    hooks.interval = on_interval;
  }
  if (p->ext.timeseries_path != NULL) {
    if (iospd_series_out_open(&ctx.series, p->ext.timeseries_path, p, &err) <
        0) {
      err_line("error: ", err.msg);
      iospd_series_keep_destroy(ctx.keep);
      iospd_strbuf_destroy(&ctx.warnings);
      return EXIT_BAD_INPUT;
    }
    hooks.interval = on_interval;
  }
  /* Without memory for it, the run goes on without a status line. */
  if (status_wanted(p)) ctx.status = iospd_status_create(p);
  if (ctx.status != NULL) {
    hooks.interval = on_interval;
    hooks.tick = on_tick;
  }
  int rc = iospd_run(p, &hooks, &results, &err);
  /* Erased before anything else is printed (the writes erase it too). */
  ctx.line_len = 0;
  iospd_plat_status_clear();
  iospd_status_destroy(ctx.status);
  iospd_err_t serr;
  iospd_err_clear(&serr);
  int src = iospd_series_out_close(ctx.series, &serr);
  if (p->progress > 0) notice_write(p, "\n", 1);
  /* DISKSPD prints whatever was measured even when the run failed. */
  bool outputs_ok = true;
  if (results.timespan_count > 0) {
    outputs_ok = emit_reports(p, &results, &ctx, args);
    /* The warnings only the run could tell (iospd/warnings.h), after the
     * report so that the DISKSPD layout before it is untouched. */
    for (uint32_t i = 0; i < results.timespan_count; i++)
      for (uint32_t k = 0; k < results.timespans[i].warning_count; k++)
        if (iospd_warn_after_run(results.timespans[i].warnings[k].kind))
          err_line("warning: ", results.timespans[i].warnings[k].text);
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
  iospd_plat_cpu_topology_free(&results.topo);
  iospd_series_keep_destroy(ctx.keep);
  iospd_strbuf_destroy(&ctx.warnings);
  if (rc < 0) {
    err_line("error: ", err.msg[0] ? err.msg : iospd_strerror(rc));
    /* A state file that does not fit the profile is bad input. */
    return rc == IOSPD_EUSAGE ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
  }
  if (vfailed > 0) {
    char line[160];
    snprintf(line, sizeof line,
             "--verify: %llu blocks read back were not what was written "
             "(see the verify lines above and the report)",
             (unsigned long long)vfailed);
    err_line("error: ", line);
    return EXIT_RUN_FAILED;
  }
  if (src < 0) {
    err_line("error: ", serr.msg);
    return EXIT_RUN_FAILED;
  }
  return outputs_ok ? EXIT_OK : EXIT_RUN_FAILED;
}

/* --tree: notes and creation progress go to stderr (stdout holds only the
 * report, whatever -R says). */
static void tree_note(void* ctx, const char* text) {
  (void)ctx;
  err_line("iospd: ", text);
}

static void tree_progress(void* ctx, uint64_t done, uint64_t total) {
  (void)ctx;
  char line[96];
  int n = snprintf(line, sizeof line, "iospd: created %llu of %llu files%s",
                   (unsigned long long)done, (unsigned long long)total,
                   done == total ? ": done\n" : "\n");
  if (n > 0) iospd_plat_write_err(line, (size_t)n);
}

/* The file-tree mode (docs/tree.md): the tree run, then the usual report
 * with its tree sections. A tree that exists with another layout is bad
 * input (exit 3); nothing was touched then. */
static int run_tree(const iospd_profile_t* p, const iospd_sysinfo_t* sys,
                    const cmdline_args_t* args, const char* warnings) {
  iospd_results_t results;
  memset(&results, 0, sizeof results);
  results.sys = *sys;
  iospd_tree_results_t tree;
  iospd_err_t err;
  iospd_err_clear(&err);
  run_ctx_t ctx = {.p = p};
  iospd_strbuf_init(&ctx.warnings);
  iospd_strbuf_append(&ctx.warnings, warnings);
  iospd_tree_hooks_t hooks = {.note = tree_note,
                              .progress = tree_progress,
                              .interrupted = on_interrupted,
                              .ctx = &ctx};
  int rc = iospd_tree_run(p, &hooks, &results, &tree, &err);
  bool outputs_ok = true;
  if (results.timespan_count > 0 && results.profile != NULL) {
    outputs_ok = emit_reports(p, &results, &ctx, args);
  }
  iospd_strbuf_destroy(&ctx.warnings);
  iospd_tree_report_profile_free(results.profile);
  iospd_results_destroy(&results);
  iospd_plat_cpu_topology_free(&results.topo);
  iospd_tree_results_free(&tree);
  if (rc < 0) {
    err_line("error: ", err.msg[0] ? err.msg : iospd_strerror(rc));
    return rc == IOSPD_EUSAGE ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
  }
  return outputs_ok ? EXIT_OK : EXIT_RUN_FAILED;
}

/* --verify-only: one checking pass over every target; a text summary on
 * stdout, progress and failures on stderr; exit 1 on any failure. */
static void vonly_message(void* ctx, const char* text) {
  (void)ctx;
  err_line("", text);
}

static int verify_only(const iospd_profile_t* p, const iospd_sysinfo_t* sys) {
  iospd_run_hooks_t hooks = {.message = vonly_message};
  iospd_vonly_t v;
  iospd_err_t err;
  iospd_err_clear(&err);
  int rc = iospd_verify_only(p, &hooks, sys->ticks_per_second, &v, &err);
  iospd_strbuf_t out, fl;
  iospd_strbuf_init(&out);
  iospd_strbuf_init(&fl);
  iospd_report_vonly_summary(&out, &v);
  uint64_t failed = iospd_report_vonly_failures(&fl, &v);
  err_sb(&fl);
  out_sb(&out);
  iospd_strbuf_destroy(&out);
  iospd_strbuf_destroy(&fl);
  iospd_vonly_free(&v);
  if (rc < 0) {
    err_line("error: ", err.msg[0] ? err.msg : iospd_strerror(rc));
    return rc == IOSPD_EUSAGE ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
  }
  if (failed > 0) {
    err_line("error: ", "--verify-only: some blocks were not what the last "
                        "verified write put there (see above)");
    return EXIT_RUN_FAILED;
  }
  return EXIT_OK;
}

/* -ye<name>: set an existing event (another iospd waits on it) and exit.
 * DISKSPD exits with 1 even on success, and scripts key on that; the two
 * lines are our own wording. */
static int set_event(const char* name) {
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_plat_event_t* ev = NULL;
  int rc = iospd_plat_event_open(name, false, &ev, &err);
  if (rc == 0) rc = iospd_plat_event_set(ev, &err);
  iospd_plat_event_close(ev);
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  if (rc < 0) {
    iospd_strbuf_appendf(&sb, "cannot set the event '%s' (-ye): %s", name,
                         err.msg[0] ? err.msg : iospd_strerror(rc));
    err_line("error: ", iospd_strbuf_cstr(&sb));
  } else {
    iospd_strbuf_appendf(&sb,
                         "Set event '%s'.\nExiting without running a test "
                         "(exit code 1, as with -ye in DISKSPD).\n",
                         name);
    out_sb(&sb);
  }
  iospd_strbuf_destroy(&sb);
  return EXIT_RUN_FAILED;
}

/* --merge a.json b.json ...: reads every file, merges, prints the merged
 * JSON on stdout. Anything wrong with an input is bad input (exit 3),
 * named with the file. */
static int merge_files(int nfiles, const char* const* files) {
  iospd_merge_input_t* in =
      iospd_calloc(nfiles > 0 ? (size_t)nfiles : 1, sizeof *in);
  if (in == NULL) {
    err_line("error: ", "out of memory (--merge)");
    return EXIT_RUN_FAILED;
  }
  int exit_code = EXIT_OK;
  iospd_err_t err;
  iospd_err_clear(&err);
  for (int i = 0; i < nfiles; i++) {
    char* data = NULL;
    size_t len = 0;
    in[i].name = files[i];
    if (iospd_plat_read_whole_file(files[i], &data, &len, &err) < 0) {
      iospd_strbuf_t sb;
      iospd_strbuf_init(&sb);
      iospd_strbuf_appendf(&sb, "cannot read '%s' (--merge): %s", files[i],
                           err.msg[0] ? err.msg : iospd_strerror(err.code));
      err_line("error: ", iospd_strbuf_cstr(&sb));
      iospd_strbuf_destroy(&sb);
      exit_code = EXIT_BAD_INPUT;
      break;
    }
    in[i].text = data;
    in[i].len = len;
  }
  if (exit_code == EXIT_OK) {
    iospd_strbuf_t out;
    iospd_strbuf_init(&out);
    int rc = iospd_merge(in, (size_t)nfiles, &out, &err);
    if (rc < 0) {
      err_line("error: ", err.msg[0] ? err.msg : iospd_strerror(rc));
      exit_code = rc == IOSPD_ENOMEM ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
    } else {
      out_sb(&out);
    }
    iospd_strbuf_destroy(&out);
  }
  for (int i = 0; i < nfiles; i++) iospd_free((char*)in[i].text);
  iospd_free(in);
  return exit_code;
}

static bool ends_with(const char* s, const char* tail) {
  size_t n = strlen(s), m = strlen(tail);
  if (n < m) return false;
  for (size_t i = 0; i < m; i++) {
    char c = s[n - m + i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != tail[i]) return false;
  }
  return true;
}

static int report_fail(const char* msg) {
  err_line("error: ", msg);
  return EXIT_BAD_INPUT;
}

/* Reads a whole input file of --report; false (with the message printed)
 * when it cannot be read. */
static bool report_read(const char* name, char** data, size_t* len) {
  iospd_err_t err;
  iospd_err_clear(&err);
  if (iospd_plat_read_whole_file(name, data, len, &err) == 0) return true;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_strbuf_appendf(&sb, "cannot read '%s' (--report): %s", name,
                       err.msg[0] ? err.msg : iospd_strerror(err.code));
  err_line("error: ", iospd_strbuf_cstr(&sb));
  iospd_strbuf_destroy(&sb);
  return false;
}

/* iospd --report a.json [a.jsonl] [b.json ...] --output=html:FILE [--force]:
 * the HTML report of saved results, written whole; a .jsonl after a JSON
 * file is that run's time series. Bad input: exit 3, nothing written. */
static int report_files(int nargs, const char* const* args) {
  size_t cap = nargs > 0 ? (size_t)nargs : 1;
  iospd_html_input_t* in = iospd_calloc(cap, sizeof *in);
  char** owned = iospd_calloc(cap, sizeof *owned); /* the files' bytes */
  size_t n_owned = 0;
  if (in == NULL || owned == NULL) {
    iospd_free(in);
    iospd_free(owned);
    err_line("error: ", "out of memory (--report)");
    return EXIT_RUN_FAILED;
  }
  size_t n = 0;
  const char* out_path = NULL;
  iospd_html_opts_t opts = {.force = false};
  int exit_code = EXIT_OK;
  iospd_strbuf_t msg;
  iospd_strbuf_init(&msg);
  for (int i = 0; i < nargs && exit_code == EXIT_OK; i++) {
    const char* a = args[i];
    iospd_strbuf_reset(&msg);
    if (strcmp(a, "--force") == 0) {
      opts.force = true;
    } else if (strncmp(a, "--output=", 9) == 0) {
      if (strncmp(a + 9, "html:", 5) != 0 || a[14] == '\0') {
        iospd_strbuf_appendf(&msg, "'%s': --report writes only "
                             "--output=html:FILE", a);
        exit_code = report_fail(iospd_strbuf_cstr(&msg));
      } else if (out_path != NULL) {
        iospd_strbuf_appendf(&msg, "'%s': --report writes one HTML file; "
                             "--output is given twice", a);
        exit_code = report_fail(iospd_strbuf_cstr(&msg));
      } else {
        out_path = a + 14;
      }
    } else if (a[0] == '-' && a[1] == '-') {
      iospd_strbuf_appendf(&msg, "'%s': --report takes result files, "
                           "--output=html:FILE and --force", a);
      exit_code = report_fail(iospd_strbuf_cstr(&msg));
    } else if (ends_with(a, ".jsonl")) {
      if (n == 0 || in[n - 1].jsonl != NULL) {
        iospd_strbuf_appendf(&msg, "'%s' (--report): a .jsonl time series "
                             "goes right after the JSON results of its run",
                             a);
        exit_code = report_fail(iospd_strbuf_cstr(&msg));
      } else {
        in[n - 1].jsonl_name = a;
        char* data = NULL;
        size_t len = 0;
        if (!report_read(a, &data, &len)) exit_code = EXIT_BAD_INPUT;
        owned[n_owned++] = data;
        in[n - 1].jsonl = data != NULL ? data : "";
        in[n - 1].jsonl_len = len;
      }
    } else {
      char* data = NULL;
      size_t len = 0;
      in[n].name = a;
      if (!report_read(a, &data, &len)) exit_code = EXIT_BAD_INPUT;
      owned[n_owned++] = data;
      in[n].json = data != NULL ? data : "";
      in[n].json_len = len;
      n++;
    }
  }
  if (exit_code == EXIT_OK && out_path == NULL)
    exit_code = report_fail("--report needs the file to write: "
                            "--output=html:FILE");
  if (exit_code == EXIT_OK && n == 0)
    exit_code = report_fail("--report needs at least one -Rjson results file");
  /* The report never replaces one of its inputs. */
  for (size_t i = 0; exit_code == EXIT_OK && i < n; i++) {
    const char* names[2] = {in[i].name, in[i].jsonl_name};
    for (int k = 0; k < 2 && exit_code == EXIT_OK; k++)
      if (names[k] != NULL && iospd_plat_same_file(out_path, names[k])) {
        iospd_strbuf_reset(&msg);
        iospd_strbuf_appendf(&msg, "--output=html:%s is the input '%s'; "
                             "choose another file", out_path, names[k]);
        exit_code = report_fail(iospd_strbuf_cstr(&msg));
      }
  }
  iospd_err_t err;
  iospd_err_clear(&err);
  if (exit_code == EXIT_OK) {
    iospd_out_path_t o = {"--output=html:", out_path};
    if (iospd_output_paths_check(&o, 1, NULL, &err) != 0)
      exit_code = report_fail(err.msg);
  }
  if (exit_code == EXIT_OK) {
    iospd_strbuf_t page;
    iospd_strbuf_init(&page);
    int rc = iospd_html_report(in, n, &opts, &page, &err);
    if (rc == 0 && page.failed) rc = IOSPD_ENOMEM;
    if (rc == 0)
      rc = iospd_plat_write_file_whole_bytes(
          out_path, iospd_strbuf_cstr(&page), page.len, &err);
    else if (rc != IOSPD_ENOMEM)
      exit_code = EXIT_BAD_INPUT;
    if (rc < 0) {
      iospd_strbuf_reset(&msg);
      iospd_strbuf_appendf(&msg, "%s%s",
                           err.msg[0] ? err.msg : iospd_strerror(rc),
                           exit_code == EXIT_OK ? "; the report was not "
                                                  "written"
                                                : "");
      err_line("error: ", iospd_strbuf_cstr(&msg));
      if (exit_code == EXIT_OK) exit_code = EXIT_RUN_FAILED;
    }
    iospd_strbuf_destroy(&page);
  }
  for (size_t i = 0; i < n_owned; i++) iospd_free(owned[i]);
  iospd_free(owned);
  iospd_free(in);
  iospd_strbuf_destroy(&msg);
  return exit_code;
}

int main(int argc, char** argv) {
  iospd_plat_console_init();
  int uargc = 0;
  const char* const* uargv = NULL;
  if (iospd_plat_utf8_args(argc, argv, &uargc, &uargv) < 0) {
    err_line("error: ", "out of memory reading the command line");
    return EXIT_RUN_FAILED;
  }

  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_sysinfo_t sys;
  if (iospd_plat_init(&sys, &err) < 0) {
    err_line("error: ", err.msg);
    return EXIT_RUN_FAILED;
  }
  /* The first Ctrl-C stops the I/O; the second must not lose what was
   * measured (only a third, or a kill, abandons it). */
  iospd_plat_set_interrupt_notice(
      "\n*** Ctrl-C again: the results measured so far are being written; "
      "a third Ctrl-C abandons them. ***\n");
  bool windows = strcmp(sys.os_name, "windows") == 0;
  iospd_cmdline_env_t env = {
      .slash_switches = windows,
      .windows = windows,
      .read_file = iospd_plat_read_whole_file,
      .uptime_ms = iospd_plat_uptime_ms,
  };

  iospd_profile_t profile;
  iospd_profile_init(&profile);
  iospd_strbuf_t diag;
  iospd_strbuf_init(&diag);
  iospd_cmdline_action_t action = IOSPD_ACTION_RUN;
  int exit_code = EXIT_OK;

  int rc = iospd_cmdline_parse(uargc, uargv, &env, &profile, &action, &diag,
                               &err);
  err_sb(&diag);
  /* Warnings of the command line and of the validation, for the reports. */
  iospd_strbuf_t warned;
  iospd_strbuf_init(&warned);
  iospd_strbuf_append(&warned, iospd_strbuf_cstr(&diag));
  iospd_strbuf_reset(&diag);
  if (rc < 0) {
    err_line("error: ", err.msg[0] ? err.msg : iospd_strerror(rc));
    err_line("", "Run 'iospd -?' for the list of switches.");
    exit_code = EXIT_BAD_INPUT;
    goto done;
  }
  if (action == IOSPD_ACTION_USAGE || action == IOSPD_ACTION_USAGE_ERROR) {
    iospd_strbuf_t usage;
    iospd_strbuf_init(&usage);
    iospd_cmdline_usage(&usage, uargv[0], &env);
    out_sb(&usage);
    iospd_strbuf_destroy(&usage);
    exit_code = action == IOSPD_ACTION_USAGE ? EXIT_OK : EXIT_BAD_INPUT;
    goto done;
  }
  if (action == IOSPD_ACTION_MERGE) {
    exit_code = merge_files(uargc - 2, uargv + 2);
    goto done;
  }
  if (action == IOSPD_ACTION_REPORT) {
    exit_code = report_files(uargc - 2, uargv + 2);
    goto done;
  }
  if (action == IOSPD_ACTION_COMPARE) {
    iospd_strbuf_t out;
    iospd_strbuf_init(&out);
    rc = iospd_compare_mode(uargc - 2, uargv + 2, iospd_plat_read_whole_file,
                            &out, &err);
    if (rc < 0) err_line("error: ", err.msg[0] ? err.msg : iospd_strerror(rc));
    else out_sb(&out);
    exit_code = rc == 0 ? EXIT_OK : rc == IOSPD_EUSAGE ? EXIT_BAD_INPUT
                                                       : EXIT_RUN_FAILED;
    iospd_strbuf_destroy(&out);
    goto done;
  }
  if (action == IOSPD_ACTION_PING) {
    static const iospd_ping_print_t pr = {iospd_plat_write_out,
                                          iospd_plat_write_err};
    exit_code = iospd_ping_main(uargc, uargv, windows, sys.ticks_per_second,
                                &pr);
    goto done;
  }
  if (action == IOSPD_ACTION_VERSION) {
    iospd_plat_build_t build;
    iospd_plat_build(&build);
    iospd_strbuf_t text;
    iospd_strbuf_init(&text);
    iospd_cmdline_version(&text, &build);
    out_sb(&text);
    iospd_strbuf_destroy(&text);
    goto done;
  }
  if (action == IOSPD_ACTION_SET_EVENT) {
    exit_code = set_event(profile.events.set_name);
    goto done;
  }

  rc = iospd_profile_validate(&profile, &diag);
  err_sb(&diag);
  iospd_strbuf_append(&warned, iospd_strbuf_cstr(&diag));
  if (rc < 0) {
    exit_code = EXIT_BAD_INPUT;
    goto done;
  }
  if (profile.profile_only) {
    if (profile.ext.output_count > 0)
      err_line("warning: ", "-Rp prints the profile and runs nothing, so the "
                            "--output files are not written");
    exit_code = print_profile(&profile, &sys);
  } else if (profile.ext.verify_only) {
    if ((exit_code = check_output_paths(&profile, false)) == EXIT_OK)
      exit_code = verify_only(&profile, &sys);
  } else if ((exit_code = check_output_paths(&profile, true)) == EXIT_OK) {
    cmdline_args_t args = {uargc, uargv};
    exit_code = profile.ext.tree.dirs != NULL
                    ? run_tree(&profile, &sys, &args, iospd_strbuf_cstr(&warned))
                    : run_profile(&profile, &sys, &args,
                                  iospd_strbuf_cstr(&warned));
  }

done:
  /* Results that did not reach their file or pipe are a failed run, not a
   * success with a truncated report. */
  if (iospd_plat_close_out(&err) < 0) {
    err_line("error: ", err.msg);
    err_line("", "What iospd printed on standard output is incomplete.");
    if (exit_code == EXIT_OK) exit_code = EXIT_RUN_FAILED;
  }
  iospd_strbuf_destroy(&warned);
  iospd_strbuf_destroy(&diag);
  iospd_profile_destroy(&profile);
  iospd_plat_shutdown();
  return exit_code;
}
