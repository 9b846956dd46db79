/* SPDX-License-Identifier: MIT */
/* --steady-state's rules (docs/pts.md), checked before anything runs
 * (exit 3): a round is whole intervals of the feed the time series uses,
 * the window fits in -d, a latency metric has -L. */
#include <inttypes.h>
#include <stdio.h>

#include "iospd/profile.h"
#include "iospd/strbuf.h"
#include "validate_diag.h"

/* --pts's companions mean nothing without it. */
static void pts_companions(const iospd_profile_t* p, iospd_strbuf_t* d,
                           int* n) {
  const iospd_pts_opts_t* o = &p->ext.pts;
  if (o->test != 0) return;
  const char* sw = o->cell_s           ? "--pts-cell"
                   : o->nbs || o->nmix ? "--pts-matrix"
                   : o->purge          ? "--pts-purge"
                   : o->resume_path    ? "--pts-resume"
                                       : NULL;
  if (sw != NULL)
    iospd_validate_bad(
        d, n,
        "%s is for --pts runs: add --pts=iops|throughput|latency or "
        "drop it",
        sw);
}

int iospd_profile_validate_steady(const iospd_profile_t* p,
                                  iospd_strbuf_t* diag) {
  const iospd_ss_opts_t* o = &p->ext.steady;
  int n = 0;
  pts_companions(p, diag, &n);
  if (p->ext.curve.on && p->ext.pts.test != 0)
    iospd_validate_bad(
        diag, &n,
        "--pts and --curve are two different modes of many runs: "
        "give one of them");
  if (p->ext.curve.on && o->on)
    iospd_validate_bad(diag, &n,
                       "--steady-state with --curve is not supported: drop one "
                       "of them");
  if (!o->on) return n;
  for (uint32_t i = 0; i < p->timespan_count; i++) {
    const iospd_timespan_t* ts = &p->timespans[i];
    /* The interval of the feed (iospd_series_interval_ms, src/run): -D
     * when given, else 1 s. */
    uint32_t iv =
        ts->calc_iops_stddev && ts->io_bucket_ms > 0 ? ts->io_bucket_ms : 1000u;
    const char* which = p->timespan_count > 1 ? " (timespan " : "";
    char num[24] = "";
    if (p->timespan_count > 1)
      (void)snprintf(num, sizeof num, "%" PRIu32 ")", i + 1);
    if (o->round_ms % iv != 0)
      iospd_validate_bad(diag, &n,
                         "--steady-state: a round of %" PRIu32
                         " ms is not a whole number "
                         "of the %" PRIu32
                         " ms intervals it is measured in (-D, else 1 s)"
                         "%s%s; make window:<n>x<time> a multiple of it",
                         o->round_ms, iv, which, num);
    uint64_t need = (uint64_t)o->window_rounds * o->round_ms;
    if (need > (uint64_t)ts->duration * 1000u)
      iospd_validate_bad(
          diag, &n,
          "--steady-state: the window of %" PRIu32 " rounds of %" PRIu32
          " ms (%.1f s) is longer than -d%" PRIu32
          "%s%s, so it could never "
          "be filled; give a longer -d or a shorter window:<n>x<time>",
          o->window_rounds, o->round_ms, (double)need / 1000.0, ts->duration,
          which, num);
    if (o->needs_latency && !ts->measure_latency)
      iospd_validate_bad(
          diag, &n, "--steady-state=latency needs the latencies: add -L%s%s",
          which, num);
  }
  return n;
}
