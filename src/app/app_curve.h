/* SPDX-License-Identifier: MIT */
/* The --curve mode (app_curve.c) and its JSON document (app_curve_json.c),
 * internal to src/app. */
#ifndef IOSPD_APP_CURVE_H
#define IOSPD_APP_CURVE_H

#include "app_internal.h"
#include "iospd/curve.h"

/* Whether the profile asks for a curve (or one of its companions, which
 * the mode then refuses without --curve). */
static inline bool iospd_app_curve_wanted(const iospd_profile_t* p) {
  const iospd_curve_opts_t* o = &p->ext.curve;
  return o->on || o->limit_on || o->expect_kind != 0;
}

/* Runs the curve: refusals (exit 3), the points one timespan each, the
 * text or JSON report and the --output files. p is changed point by
 * point and restored before it returns. The exit code. */
int iospd_app_curve(iospd_profile_t* p, const iospd_sysinfo_t* sys,
                    const cmdline_args_t* args, const char* warnings);

/* The curve document of c (analysed in a) into out; results[i] is point
 * i's -Rjson text or NULL. 0 or IOSPD_ENOMEM. */
int iospd_app_curve_json(iospd_strbuf_t* out, const iospd_curve_t* c,
                         const iospd_curve_analysis_t* a,
                         const char* const* results,
                         const char* command_line);

#endif
