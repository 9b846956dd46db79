/* SPDX-License-Identifier: MIT */
/* iospd --ping as a mode: parse its command line, run the probe, print the
 * lines and the summary with the console layer's writers main.c hands
 * over, pick the exit code:
 * 0 when every request succeeded (also after Ctrl-C or -d), 1 when a
 * request or the set-up failed (the summary of what was measured is still
 * printed), 3 for bad input (a bad switch or value, a missing path, a
 * write to a device without --allow-raw-write). */
#include <string.h>

#include "iospd/message.h"
#include "iospd/ping.h"

enum { PING_OK = 0, PING_FAILED = 1, PING_BAD_INPUT = 3 };

/* The request lines' sink context. */
typedef struct ping_ctx_s {
  const iospd_ping_opts_t* o;
  const iospd_ping_print_t* pr;
} ping_ctx_t;

static void err_line(const iospd_ping_print_t* pr, iospd_msg_kind_t k,
                     const char* msg) {
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  iospd_msg_line(&sb, k, msg);
  pr->err(iospd_strbuf_cstr(&sb), sb.len);
  iospd_strbuf_destroy(&sb);
}

/* Request lines: on stdout with the text summary; on stderr when stdout
 * carries a -Rjson or -Rxml document, which must parse on its own. */
static void on_line(void* ctx, const char* text, size_t len) {
  const ping_ctx_t* m = ctx;
  if (m->o->format == IOSPD_FORMAT_TEXT)
    m->pr->out(text, len);
  else
    m->pr->err(text, len);
}

static void print_results(const iospd_ping_print_t* pr,
                          const iospd_ping_opts_t* o, iospd_ping_result_t* r,
                          const iospd_ping_stats_t* s) {
  r->report.opts = o;
  r->report.target = &r->target;
  r->report.kind = r->kind;
  r->report.file = r->file;
  r->report.fs_type = r->fs_type;
  r->report.device = r->device;
  r->report.error = r->error[0] ? r->error : NULL;
  r->report.interrupted = r->interrupted;
  iospd_strbuf_t out;
  iospd_strbuf_init(&out);
  if (o->batch)
    iospd_ping_batch_line(&out, s, o->size);
  else if (o->format == IOSPD_FORMAT_JSON)
    iospd_ping_json(&out, &r->report, s);
  else if (o->format == IOSPD_FORMAT_XML)
    iospd_ping_xml(&out, &r->report, s);
  else
    iospd_ping_summary_text(&out, &r->target, s, o->percentiles);
  pr->out(iospd_strbuf_cstr(&out), out.len);
  iospd_strbuf_destroy(&out);
}

int iospd_ping_main(int argc, const char* const* argv, bool windows,
                    uint64_t ticks_per_second, const iospd_ping_print_t* pr) {
  iospd_ping_opts_t o;
  iospd_err_t err;
  iospd_err_clear(&err);
  if (iospd_ping_parse(argc - 1, argv + 1, windows, &o, &err) < 0) {
    err_line(pr, IOSPD_MSG_ERROR, err.msg);
    err_line(pr, IOSPD_MSG_HINT, "Run 'iospd -?' for the list of switches (--ping: "
                 "docs/ping.md).");
    return PING_BAD_INPUT;
  }
  iospd_ping_stats_t stats;
  if (iospd_ping_stats_init(&stats) < 0) {
    err_line(pr, IOSPD_MSG_ERROR, "out of memory (--ping)");
    return PING_FAILED;
  }
  static iospd_ping_result_t r; /* large; one per process */
  ping_ctx_t m = {.o = &o, .pr = pr};
  iospd_ping_sink_t sink = {.line = on_line, .ctx = &m};
  int rc = iospd_ping_run(&o, ticks_per_second, &sink, &stats, &r, &err);
  int code = PING_OK;
  if (rc == IOSPD_EUSAGE || rc == IOSPD_EUNSAFE) {
    err_line(pr, IOSPD_MSG_ERROR, err.msg);
    code = PING_BAD_INPUT;
  } else {
    if (r.started || r.interrupted) print_results(pr, &o, &r, &stats);
    if (rc < 0) {
      err_line(pr, IOSPD_MSG_ERROR, err.msg[0] ? err.msg : iospd_strerror(rc));
      code = PING_FAILED;
    }
  }
  iospd_ping_stats_destroy(&stats);
  return code;
}
