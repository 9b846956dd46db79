/* SPDX-License-Identifier: MIT */
/* What the files of src/app share and nobody else sees: the context the
 * run's hooks get, the command line as given, and the calls one file of the
 * application makes into another. The short printing names below are the
 * ones the code used when it lived in main.c; they forward to the one
 * printing module (iospd/app_print.h). */
#ifndef IOSPD_APP_INTERNAL_H
#define IOSPD_APP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "iospd/app_print.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "iospd/report.h"
#include "iospd/series_keep.h"
#include "iospd/series_out.h"
#include "iospd/status.h"
#include "iospd/status_drawer.h"
#include "iospd/strbuf.h"

enum {
  EXIT_OK = IOSPD_EXIT_OK,
  EXIT_RUN_FAILED = IOSPD_EXIT_RUN_FAILED,
  EXIT_BAD_INPUT = IOSPD_EXIT_BAD_INPUT
};

static inline void out_sb(const iospd_strbuf_t* sb) { iospd_app_out(sb); }

/* An "error: " line on stderr. */
static inline void err_line(const char* msg) {
  iospd_app_err_line(IOSPD_MSG_ERROR, msg);
}

static inline void err_sb(const iospd_strbuf_t* sb) { iospd_app_err_sb(sb); }

static inline void notice_write(const iospd_profile_t* p, const char* text,
                                size_t len) {
  iospd_app_notice(p, text, len);
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
  /* The live status line (--progress), NULL when off. Rendered on the
   * controller thread (interval and tick hooks) and posted to the drawer,
   * whose thread writes it (iospd/status_drawer.h): a console that blocks
   * never holds the controller. */
  iospd_status_t* status;
  iospd_status_drawer_t* drawer;
  char line[IOSPD_STATUS_LINE_MAX + 1];
} run_ctx_t;

/* The command line as given, for the JSON report. */
typedef struct cmdline_args_s {
  int argc;
  const char* const* argv;
} cmdline_args_t;

/* app_emit.c: the report of a finished run on stdout as -R asks, then
 * every --output file; false when an --output file was not written. */
bool iospd_app_emit_reports(const iospd_profile_t* p, const iospd_results_t* r,
                            run_ctx_t* ctx, const cmdline_args_t* args);
/* app_emit.c: does an --output of p use format f? */
bool iospd_app_wants_format(const iospd_profile_t* p, iospd_result_format_t f);

/* app_pts.c: --pts, the SNIA PTS mode (docs/pts.md); an exit code. */
int iospd_app_pts(const iospd_profile_t* p, const iospd_sysinfo_t* sys);
/* app_pts_resume.c: reads --pts-resume's document into out (its set-up
 * and finished rounds; out->path points into *path_owned, which the caller
 * frees). 0, or IOSPD_EUSAGE with err naming the file and the problem. */
struct iospd_pts_result_s;
int iospd_app_pts_read(const char* file, struct iospd_pts_result_s* out,
                       char** path_owned, iospd_err_t* err);

/* app_out_paths.c: the output-file safety checks before any I/O; an exit
 * code (EXIT_OK when the files may be written). */
int iospd_app_check_output_paths(const iospd_profile_t* p, bool outputs);

/* app_sysinfo.c: -Rs[text|xml], the system information alone. */
int iospd_app_system_info(const iospd_profile_t* p,
                          const iospd_sysinfo_t* sys);
/* app_profile_print.c: -Rp. */
int iospd_app_print_profile(const iospd_profile_t* p,
                            const iospd_sysinfo_t* sys);

/* app_run.c: the two ways a profile runs (a block run or a tree, both
 * through the controller, and --verify-only); each returns the exit code. */
int iospd_app_run_profile(const iospd_profile_t* p, const iospd_sysinfo_t* sys,
                          const cmdline_args_t* args, const char* warnings);
int iospd_app_verify_only(const iospd_profile_t* p,
                          const iospd_sysinfo_t* sys);

#endif
