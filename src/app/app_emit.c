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

/* What the JSON report holds beyond the results (x lives as long as je). */
static void json_extra(iospd_json_extra_t* x, const json_env_t* je,
                       const cmdline_args_t* args) {
  *x = (iospd_json_extra_t){.env = &je->env,
                            .target_paths = je->paths,
                            .targets = je->targets,
                            .target_count = je->count,
                            .argc = args->argc,
                            .argv = args->argv,
                            .warnings = je->warnings,
                            .warning_count = je->warning_count};
  if (je->keep != NULL) {
    x->timeseries_rows = iospd_series_keep_text(je->keep, &x->timeseries_len);
    x->timeseries_dropped = iospd_series_keep_dropped(je->keep);
  }
}

/* The report in format f into sink: the JSON streamed in pieces (never
 * held whole), text and XML built first. 0 or a negative IOSPD_E*. */
static int render(iospd_sink_t* sink, iospd_result_format_t f,
                  const iospd_results_t* r, const json_env_t* je,
                  const cmdline_args_t* args) {
  if (f == IOSPD_FORMAT_JSON) {
    iospd_json_extra_t x;
    json_extra(&x, je, args);
    return iospd_report_json_write(sink, r, &x, false);
  }
  if (f == IOSPD_FORMAT_FIO_JSON) return iospd_report_fio_json_write(sink, r);
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  if (f == IOSPD_FORMAT_XML)
    iospd_report_xml(&out, r);
  else
    iospd_report_text(&out, r);
  /* Short of memory, stdout still gets what was made (a file is then
   * abandoned, never published). */
  int rc = iospd_sink_write(sink, iospd_strbuf_cstr(&out), out.len);
  if (rc == 0 && out.failed) rc = IOSPD_ENOMEM;
  iospd_strbuf_destroy(&out);
  return rc;
}

static int stdout_sink_write(void* ctx, const char* data, size_t len) {
  (void)ctx; /* a failure is remembered and told by iospd_plat_close_out */
  iospd_plat_write_out(data, len);
  return 0;
}

typedef struct {
  iospd_plat_outfile_t* f;
  iospd_err_t* err;
} outfile_sink_t;

static int outfile_sink_write(void* ctx, const char* data, size_t len) {
  outfile_sink_t* o = ctx;
  return iospd_plat_outfile_write(o->f, data, len, o->err);
}

typedef struct {
  const iospd_results_t* r;
  const json_env_t* je;
  const cmdline_args_t* args;
} html_doc_t;

static int html_doc(void* ctx, iospd_sink_t* sink, bool slim) {
  const html_doc_t* d = ctx;
  iospd_json_extra_t x;
  json_extra(&x, d->je, d->args);
  return iospd_report_json_write(sink, d->r, &x, slim);
}

/* The HTML report of this run: made from the JSON document it would write
 * (so that iospd --report of that JSON gives the same page), which the
 * page writes as it needs it rather than holding it. */
static int render_html(iospd_sink_t* sink, const iospd_results_t* r,
                       const json_env_t* je, const cmdline_args_t* args,
                       iospd_err_t* err) {
  html_doc_t d = {r, je, args};
  iospd_json_extra_t x;
  json_extra(&x, je, args);
  iospd_html_run_input_t in = {.name = "this run",
                               .doc = html_doc,
                               .ctx = &d,
                               .rows = x.timeseries_rows,
                               .rows_len = x.timeseries_len};
  iospd_strbuf_t page;
  iospd_strbuf_init(&page);
  int rc = iospd_html_report_run(&in, &page, err);
  if (rc == 0)
    rc = iospd_sink_write(sink, iospd_strbuf_cstr(&page), page.len);
  iospd_strbuf_destroy(&page);
  return rc;
}

/* The --output files, each written in pieces to a new file renamed over
 * its name at the end (iospd_plat_outfile_*): a failure publishes nothing.
 * Returns false if one could not be written (each failure is reported). */
static bool write_outputs(const iospd_profile_t* p, const iospd_results_t* r,
                          const json_env_t* je, const cmdline_args_t* args) {
  bool ok = true;
  for (uint32_t i = 0; i < p->ext.output_count; i++) {
    const iospd_output_spec_t* o = &p->ext.outputs[i];
    iospd_err_t err;
    iospd_err_clear(&err);
    /* The HTML report as bytes: the same file everywhere. */
    iospd_plat_outfile_t* f = NULL;
    int rc = iospd_plat_outfile_open(o->path, o->format != IOSPD_FORMAT_HTML,
                                     &f, &err);
    if (rc == 0) {
      outfile_sink_t os = {f, &err};
      iospd_sink_t sink = {.write = outfile_sink_write, .ctx = &os};
      if (o->format == IOSPD_FORMAT_HTML)
        rc = render_html(&sink, r, je, args, &err);
      else
        rc = render(&sink, o->format, r, je, args);
      if (rc == 0)
        rc = iospd_plat_outfile_publish(f, &err);
      else
        iospd_plat_outfile_abandon(f);
    }
    if (rc != 0) {
      iospd_strbuf_t msg;
      iospd_strbuf_init(&msg);
      iospd_strbuf_appendf(&msg, "--output=%s:%s: the report was not written: %s",
                           iospd_format_word(o->format), o->path,
                           err.msg[0] ? err.msg : iospd_strerror(rc));
      err_line(iospd_strbuf_cstr(&msg));
      iospd_strbuf_destroy(&msg);
      ok = false;
    }
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
  iospd_sink_t out = {.write = stdout_sink_write};
  (void)render(&out, p->format, r, &je, args);
  bool ok = write_outputs(p, r, &je, args);
  json_env_free(&je);
  return ok;
}

