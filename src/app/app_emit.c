/* SPDX-License-Identifier: MIT */
/* The reports of a finished run: the one on stdout as -R asks and the
 * --output files, with what the JSON report adds to the results (the
 * environment, the command line, the warnings, the kept time series). */
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "iospd/alloc.h"
#include "iospd/console.h"
#include "iospd/envinfo.h"
#include "iospd/formats.h"
#include "iospd/html.h"

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
                           iospd_format_word(o->format), o->path,
                           err.msg[0] ? err.msg : iospd_strerror(rc));
      err_line("error: ", iospd_strbuf_cstr(&msg));
      iospd_strbuf_destroy(&msg);
      ok = false;
    }
    iospd_strbuf_destroy(&sb);
  }
  return ok;
}

bool iospd_app_wants_format(const iospd_profile_t* p,
                            iospd_result_format_t f) {
  for (uint32_t i = 0; i < p->ext.output_count; i++)
    if (p->ext.outputs[i].format == f) return true;
  return false;
}

static bool wants_json(const iospd_profile_t* p) {
  return p->format == IOSPD_FORMAT_JSON ||
         iospd_app_wants_format(p, IOSPD_FORMAT_JSON) ||
         iospd_app_wants_format(p, IOSPD_FORMAT_HTML);
}

/* The report of a finished run (normal or --tree) on stdout as -R asks
 * (ctx->warnings is cut into lines for the JSON: call it once),
 * then every --output file; false when an --output file was not written. */
bool iospd_app_emit_reports(const iospd_profile_t* p, const iospd_results_t* r,
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

