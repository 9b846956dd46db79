/* SPDX-License-Identifier: MIT */
/* --pts (docs/pts.md): the mode's entry. The procedure is src/run/pts.c;
 * here: what --pts cannot be combined with (exit 3), the status line, and
 * the text report or PTS JSON document on stdout and in --output files. */
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "iospd/alloc.h"
#include "iospd/console.h"
#include "iospd/html.h"
#include "iospd/options.h"
#include "iospd/pts.h"
#include "iospd/pts_report.h"

typedef struct pts_ctx_s {
  const iospd_profile_t* p;
  bool show;
  /* The status line's own thread (iospd/status_drawer.h): a console that
   * blocks never holds a round's cells. */
  iospd_status_drawer_t* drawer;
} pts_ctx_t;

static void status_show(void* ctx, const char* line, size_t len) {
  (void)ctx;
  iospd_plat_status_show(line, len);
}

static void on_status(void* ctx, const char* text) {
  pts_ctx_t* c = ctx;
  if (c->drawer == NULL) return;
  uint32_t cols = iospd_plat_err_columns();
  if (cols == 0) cols = 80;
  size_t n = strlen(text);
  if (n > cols - 1) n = cols - 1;
  iospd_status_drawer_post(c->drawer, text, n);
}

static void on_message(void* ctx, iospd_msg_kind_t kind, const char* text) {
  pts_ctx_t* c = ctx;
  iospd_status_drawer_quiet_begin(c->drawer);
  iospd_app_message(c->p, kind, text);
  iospd_status_drawer_quiet_end(c->drawer, true);
}

/* What --pts cannot do: one message naming the switch, exit 3. */
static const char* refused(const iospd_profile_t* p) {
  if (iospd_app_wants_format(p, IOSPD_FORMAT_XML) ||
      p->format == IOSPD_FORMAT_XML)
    return "--pts writes a text report or the JSON PTS document, not XML: "
           "use -Rtext, -Rjson or --output=text|json:FILE";
  if (p->ext.steady.on)
    return "--pts runs its own steady-state test (5 rounds, 20 %, 10 %): "
           "drop --steady-state";
  if (p->ext.timeseries_path != NULL)
    return "--pts runs many short runs: --timeseries is not supported with "
           "it; drop it";
  if (p->ext.verify)
    return "--pts with --verify: preconditioning overwrites every block; "
           "drop --verify";
  if (p->ext.tree.dirs != NULL) return "--pts measures one target, not --tree";
  return NULL;
}

static bool emit(const iospd_profile_t* p, const iospd_pts_result_t* r,
                 const iospd_results_t* sysr) {
  iospd_strbuf_t text, json;
  iospd_strbuf_init(&text);
  iospd_strbuf_init(&json);
  iospd_report_pts_text(&text, r);
  bool ok = iospd_report_pts_json(&json, r, sysr, p->cmdline) == 0 &&
            !text.failed;
  /* --output=html: the PTS page, drawn from the document just written. */
  iospd_strbuf_t html;
  iospd_strbuf_init(&html);
  if (ok && iospd_app_wants_format(p, IOSPD_FORMAT_HTML)) {
    iospd_err_t herr;
    iospd_err_clear(&herr);
    if (iospd_html_pts_text("the PTS document", json.data, json.len, &html,
                            &herr) != 0) {
      err_line(herr.msg[0] ? herr.msg : "out of memory drawing the PTS page");
      ok = false;
    }
  }
  out_sb(p->format == IOSPD_FORMAT_JSON ? &json : &text);
  for (uint32_t i = 0; i < p->ext.output_count; i++) {
    const iospd_output_spec_t* o = &p->ext.outputs[i];
    const iospd_strbuf_t* sb = o->format == IOSPD_FORMAT_JSON   ? &json
                               : o->format == IOSPD_FORMAT_HTML ? &html
                                                                : &text;
    iospd_err_t err;
    iospd_err_clear(&err);
    iospd_plat_outfile_t* f = NULL;
    int rc = iospd_plat_outfile_open(o->path, true, &f, &err);
    if (rc == 0) rc = iospd_plat_outfile_write(f, sb->data, sb->len, &err);
    if (rc == 0)
      rc = iospd_plat_outfile_publish(f, &err);
    else if (f != NULL)
      iospd_plat_outfile_abandon(f);
    if (rc != 0) {
      iospd_strbuf_t msg;
      iospd_strbuf_init(&msg);
      iospd_strbuf_appendf(&msg, "--output=%s:%s: the report was not written: "
                                 "%s", iospd_format_word(o->format), o->path,
                           err.msg[0] ? err.msg : iospd_strerror(rc));
      err_line(iospd_strbuf_cstr(&msg));
      iospd_strbuf_destroy(&msg);
      ok = false;
    }
  }
  iospd_strbuf_destroy(&text);
  iospd_strbuf_destroy(&json);
  iospd_strbuf_destroy(&html);
  return ok;
}

/* The switches each cell's own values replace: said, not ignored. */
static void replaced(const iospd_profile_t* p) {
  static const struct {
    iospd_opt_id_t id;
    const char* name;
  } sw[] = {{IOSPD_OID_b, "-b"},  {IOSPD_OID_w, "-w"},  {IOSPD_OID_r, "-r"},
            {IOSPD_OID_rs, "-rs"}, {IOSPD_OID_s, "-s"},  {IOSPD_OID_d, "-d"},
            {IOSPD_OID_W, "-W"},  {IOSPD_OID_C, "-C"},  {IOSPD_OID_L, "-L"},
            {IOSPD_OID_D, "-D"}};
  char list[64] = "";
  size_t len = 0;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(sw); i++)
    if (iospd_opt_given(p, sw[i].id))
      len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                              len ? " " : "", sw[i].name);
  if (p->ext.pts.test == IOSPD_PTS_LATENCY &&
      (iospd_opt_given(p, IOSPD_OID_t) || iospd_opt_given(p, IOSPD_OID_o) ||
       iospd_opt_given(p, IOSPD_OID_F) || iospd_opt_given(p, IOSPD_OID_O)))
    iospd_app_message(p, IOSPD_MSG_WARNING,
                      "--pts=latency runs one thread with one I/O in flight, "
                      "as PTS asks: -t, -o, -F and -O are not used");
  if (len == 0) return;
  char line[256];
  snprintf(line, sizeof line,
           "--pts sets each cell's block size, mix, access and time (no "
           "warm-up or cool-down, latencies on): %s %s not used",
           list, strchr(list, ' ') ? "are" : "is");
  iospd_app_message(p, IOSPD_MSG_WARNING, line);
}

int iospd_app_pts(const iospd_profile_t* p, const iospd_sysinfo_t* sys) {
  const char* why = refused(p);
  if (why != NULL) {
    err_line(why);
    return EXIT_BAD_INPUT;
  }
  replaced(p);
  pts_ctx_t ctx = {.p = p};
  ctx.show = p->ext.status_line == IOSPD_STATUS_ALWAYS ||
             (p->ext.status_line == IOSPD_STATUS_AUTO &&
              p->progress_dots == 0 && iospd_plat_err_is_terminal());
  iospd_pts_hooks_t hooks = {.status = on_status,
                             .message = on_message,
                             .ctx = &ctx};
  iospd_pts_result_t r;
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_pts_result_t saved;
  memset(&saved, 0, sizeof saved);
  iospd_strbuf_init(&saved.reasons);
  iospd_strbuf_init(&saved.seen);
  char* saved_path = NULL; /* saved.path points into it */
  if (p->ext.pts.resume_path != NULL &&
      iospd_app_pts_read(p->ext.pts.resume_path, &saved, &saved_path, &err) <
          0) {
    err_line(err.msg);
    iospd_pts_result_free(&saved);
    iospd_free(saved_path);
    return EXIT_BAD_INPUT;
  }
  /* Without a thread for it, the run goes on without a status line. */
  iospd_err_t derr;
  iospd_err_clear(&derr);
  if (ctx.show &&
      iospd_status_drawer_start(&ctx.drawer, status_show, NULL, 20, &derr) < 0)
    ctx.drawer = NULL;
  int rc = iospd_pts_run(p, sys, &hooks,
                         p->ext.pts.resume_path != NULL ? &saved : NULL, &r,
                         &err);
  iospd_pts_result_free(&saved);
  iospd_free(saved_path);
  iospd_status_drawer_stop(ctx.drawer);
  ctx.drawer = NULL;
  iospd_plat_status_clear();
  if (rc < 0) {
    err_line(err.msg[0] ? err.msg : iospd_strerror(rc));
    iospd_pts_result_free(&r);
    return rc == IOSPD_EUSAGE ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
  }
  if (r.interrupted) {
    static const char line[] =
        "\n*** Ctrl-C: the PTS run stopped; the finished rounds follow. ***\n";
    notice_write(p, line, sizeof line - 1);
  }
  iospd_results_t sysr;
  memset(&sysr, 0, sizeof sysr);
  sysr.sys = *sys;
  iospd_err_t terr;
  if (iospd_plat_cpu_topology(&sysr.topo, &terr) < 0)
    memset(&sysr.topo, 0, sizeof sysr.topo);
  iospd_plat_utc_now(&sysr.run_time);
  sysr.engine_name = r.engine;
  bool ok = emit(p, &r, &sysr);
  iospd_plat_cpu_topology_free(&sysr.topo);
  bool failed = r.stopped == IOSPD_PTS_STOP_FAILED;
  if (failed) err_line(r.error);
  iospd_pts_result_free(&r);
  return failed || !ok ? EXIT_RUN_FAILED : EXIT_OK;
}
