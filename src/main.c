/* SPDX-License-Identifier: MIT */
/* iospd entry point: parse -> validate -> (print profile | run -> report).
 * The only file that prints and that chooses the exit code:
 *   0 success (also after Ctrl-C), 1 run failure, 3 bad input (DISKSPD's). */
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "iospd/cmdline.h"
#include "iospd/console.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/report.h"
#include "iospd/run.h"
#include "iospd/series_out.h"
#include "iospd/status.h"
#include "iospd/strbuf.h"
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
 * with -Rxml they would come before <Results> and stdout would not parse,
 * so there they go to stderr. */
static void notice_write(const iospd_profile_t* p, const char* text,
                         size_t len) {
  if (p != NULL && p->format == IOSPD_FORMAT_XML)
    iospd_plat_write_err(text, len);
  else
    iospd_plat_write_out(text, len);
}

/* What the run's hooks get as ctx. */
typedef struct run_ctx_s {
  const iospd_profile_t* p;
  /* --timeseries: the file the intervals are written to, or NULL. */
  iospd_series_out_t* series;
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
  const run_ctx_t* rc = ctx;
  iospd_strbuf_t sb;
  iospd_strbuf_init(&sb);
  if (strncmp(text, "WARNING", 7) == 0 || strncmp(text, "NOTE:", 5) == 0) {
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

/* The --engine= value as the user wrote it. */
static const char* engine_name(int engine) {
  switch (engine) {
    case IOSPD_ENGINE_PSYNC: return "psync";
    case IOSPD_ENGINE_LIBAIO: return "libaio";
    case IOSPD_ENGINE_THREADS: return "threads";
    default: return "io_uring";
  }
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
  unsigned flags = depth == 1 ? IOSPD_QUEUE_SYNC : 0;
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

static int run_profile(const iospd_profile_t* p, const iospd_sysinfo_t* sys) {
  iospd_results_t results;
  memset(&results, 0, sizeof results);
  results.sys = *sys;
  iospd_err_t err;
  iospd_err_clear(&err);
  run_ctx_t ctx = {.p = p};
  iospd_run_hooks_t hooks = {.message = on_message,
                             .progress_dot = on_progress_dot,
                             .interrupted = on_interrupted,
                             .ctx = &ctx};
  if (p->ext.timeseries_path != NULL) {
    if (iospd_series_out_open(&ctx.series, p->ext.timeseries_path, p, &err) <
        0) {
      err_line("error: ", err.msg);
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
  if (results.timespan_count > 0) {
    iospd_strbuf_t out;
    iospd_strbuf_init(&out);
    if (p->format == IOSPD_FORMAT_XML)
      iospd_report_xml(&out, &results);
    else
      iospd_report_text(&out, &results);
    out_sb(&out);
    iospd_strbuf_destroy(&out);
  }
  iospd_results_destroy(&results);
  iospd_plat_cpu_topology_free(&results.topo);
  if (rc < 0) {
    err_line("error: ", err.msg[0] ? err.msg : iospd_strerror(rc));
    return EXIT_RUN_FAILED;
  }
  if (src < 0) {
    err_line("error: ", serr.msg);
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
  if (action == IOSPD_ACTION_SET_EVENT) {
    exit_code = set_event(profile.events.set_name);
    goto done;
  }

  rc = iospd_profile_validate(&profile, &diag);
  err_sb(&diag);
  if (rc < 0) {
    exit_code = EXIT_BAD_INPUT;
    goto done;
  }
  exit_code = profile.profile_only ? print_profile(&profile, &sys)
                                   : run_profile(&profile, &sys);

done:
  /* Results that did not reach their file or pipe are a failed run, not a
   * success with a truncated report. */
  if (iospd_plat_close_out(&err) < 0) {
    err_line("error: ", err.msg);
    err_line("", "What iospd printed on standard output is incomplete.");
    if (exit_code == EXIT_OK) exit_code = EXIT_RUN_FAILED;
  }
  iospd_strbuf_destroy(&diag);
  iospd_profile_destroy(&profile);
  iospd_plat_shutdown();
  return exit_code;
}
