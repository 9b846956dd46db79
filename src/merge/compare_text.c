/* SPDX-License-Identifier: MIT */
/* iospd --compare's text: who is compared, what differs in the settings
 * and environment (first, because a changed setting explains more results
 * than any disk), then per run and timespan one line per metric, and the
 * test stated in a footer. Fixed formats only, so every build prints the
 * same bytes for the same documents. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iospd/compare.h"

static void value(char* buf, size_t size, iospd_cmp_metric_t m, bool has,
                  double v) {
  if (!has || !isfinite(v)) {
    snprintf(buf, size, "-");
    return;
  }
  switch (m) {
    case IOSPD_CMP_IOPS:
    case IOSPD_CMP_MIBS: snprintf(buf, size, "%.2f", v); break;
    case IOSPD_CMP_CPU_PER_IO: snprintf(buf, size, "%.3f", v); break;
    default: snprintf(buf, size, "%.4f", v); break;
  }
}

static void metric_label(char* buf, size_t size, iospd_cmp_metric_t m) {
  const char* unit = iospd_cmp_metric_unit(m);
  if (m == IOSPD_CMP_MIBS || unit[0] == '\0')
    snprintf(buf, size, "%s", iospd_cmp_metric_name(m));
  else
    snprintf(buf, size, "%s (%s)", iospd_cmp_metric_name(m), unit);
}

static void p_text(char* buf, size_t size, double p) {
  if (p < 0.001)
    snprintf(buf, size, "p<0.001");
  else
    snprintf(buf, size, "p=%.3f", p);
}

static void verdict(char* buf, size_t size, const iospd_cmp_row_t* r) {
  char p[16];
  p_text(p, sizeof p, r->test.p);
  switch (r->test.verdict) {
    case IOSPD_CMP_NOISE: snprintf(buf, size, "within noise (%s)", p); break;
    case IOSPD_CMP_REAL:
      snprintf(buf, size, "REAL difference, %s (%s)",
               r->better ? "better" : "worse", p);
      break;
    default: snprintf(buf, size, "unknown: %s", r->test.why); break;
  }
}

static void runs_header(const iospd_compare_t* c, iospd_strbuf_t* sb) {
  iospd_strbuf_appendf(sb, "Comparison of %zu runs; run 1 is the baseline.\n",
                       c->n_runs);
  for (size_t r = 0; r < c->n_runs; r++) {
    const iospd_cmp_run_t* run = &c->runs[r];
    /* Names and times come from the files: printable only. */
    iospd_strbuf_appendf(sb, "  run %zu: ", r + 1);
    iospd_strbuf_append_printable(sb, run->name);
    iospd_strbuf_append(sb, " (");
    iospd_strbuf_append_printable(sb, run->computer_name ? run->computer_name
                                                         : "?");
    iospd_strbuf_append(sb, ", ");
    iospd_strbuf_append_printable(sb, run->run_time ? run->run_time : "?");
    iospd_strbuf_append(sb, "; ");
    if (run->intervals > 0)
      iospd_strbuf_appendf(sb, "%zu intervals of %.0f ms from -D%s",
                           run->intervals, run->interval_ms,
                           run->ts_intervals > 0 ? ", " : ")\n");
    if (run->ts_intervals > 0)
      iospd_strbuf_appendf(sb, "a time series of %zu intervals of %.0f ms)\n",
                           run->ts_intervals, run->ts_interval_ms);
    if (run->intervals == 0 && run->ts_intervals == 0)
      iospd_strbuf_append(sb, "no per-interval values)\n");
  }
}

static void fields(const iospd_compare_t* c, iospd_strbuf_t* sb) {
  if (c->n_fields == 0) {
    iospd_strbuf_append(sb, "\nSettings and environment: the same in every "
                            "run.\n");
    return;
  }
  iospd_strbuf_append(sb, "\nSettings and environment that differ (a changed "
                          "setting explains more results\nthan any disk):\n");
  for (size_t i = 0; i < c->n_fields; i++) {
    const iospd_cmp_field_t* f = &c->fields[i];
    iospd_strbuf_appendf(sb, "  ! %-12s ", iospd_cmp_field_kind_name(f->kind));
    iospd_strbuf_append_printable(sb, f->path);
    iospd_strbuf_putc(sb, ':');
    for (size_t r = 0; r < c->n_runs; r++) {
      iospd_strbuf_append(sb, r ? ", " : " ");
      iospd_strbuf_append_printable(sb, f->values[r]);
      iospd_strbuf_appendf(sb, " (run %zu)", r + 1);
    }
    iospd_strbuf_putc(sb, '\n');
  }
}

static void span_table(const iospd_compare_t* c, size_t r,
                       const iospd_cmp_span_t* s, iospd_strbuf_t* sb) {
  iospd_strbuf_appendf(sb, "\nRun %zu (", r + 1);
  iospd_strbuf_append_printable(sb, c->runs[r].name);
  iospd_strbuf_append(sb, ") against run 1 (");
  iospd_strbuf_append_printable(sb, c->runs[0].name);
  iospd_strbuf_appendf(sb, "), timespan %d:\n", s->timespan);
  char run_r[24];
  snprintf(run_r, sizeof run_r, "run %zu", r + 1);
  iospd_strbuf_appendf(sb, "  %-19s %-9s %14s %14s %8s  %s\n", "metric",
                       "direction", "run 1", run_r, "diff", "verdict");
  for (size_t i = 0; i < s->n_rows; i++) {
    const iospd_cmp_row_t* row = &s->rows[i];
    char label[32], dir[24], a[32], b[32], diff[24], v[224];
    metric_label(label, sizeof label, row->metric);
    if (row->target < 0)
      snprintf(dir, sizeof dir, "%s", iospd_cmp_dir_name(row->dir));
    else
      snprintf(dir, sizeof dir, "t%d %s", row->target,
               iospd_cmp_dir_name(row->dir));
    value(a, sizeof a, row->metric, row->has_base, row->base);
    value(b, sizeof b, row->metric, row->has_value, row->value);
    if (!row->has_diff || !isfinite(row->diff_pct))
      snprintf(diff, sizeof diff, "-");
    else if (row->diff_pct == 0.0)
      snprintf(diff, sizeof diff, "0.0%%");
    else
      snprintf(diff, sizeof diff, "%+.1f%%", row->diff_pct);
    verdict(v, sizeof v, row);
    iospd_strbuf_appendf(sb, "%c %-19s %-9s %14s %14s %8s  %s\n",
                         row->test.verdict == IOSPD_CMP_REAL ? '*' : ' ',
                         label, dir, a, b, diff, v);
  }
}

void iospd_compare_text(const iospd_compare_t* c, iospd_strbuf_t* sb) {
  if (c->forced)
    iospd_strbuf_append(sb, "NOTE: these runs are of different profiles (the "
                            "settings listed below);\ncompared because of "
                            "--force: a difference may come from a setting, "
                            "not the system.\n\n");
  if (c->levels_differ)
    iospd_strbuf_append(sb, "NOTE: these runs follow different DISKSPD "
                            "releases (system.tool.diskspd_version below):\n"
                            "2.3 changed defaults (P-cores first, separated "
                            "thread buffers), and its\nnotes say results "
                            "need rebaselining; compare runs of one "
                            "--diskspd= level.\n\n");
  runs_header(c, sb);
  fields(c, sb);
  for (size_t r = 1; r < c->n_runs; r++)
    for (size_t s = 0; s < c->runs[r].n_spans; s++)
      span_table(c, r, &c->runs[r].spans[s], sb);
  iospd_strbuf_appendf(
      sb,
      "\n* marks a real difference. Noise test: Welch's t-test on the two "
      "runs'\nper-interval values (the -D intervals, or a time series in the "
      "results),\neach run's sample size cut to n_eff = n(1-r1)/(1+r1) for "
      "its lag-1\nautocorrelation r1 (taken as 0 to %.1f); a difference is "
      "real when the\ntwo-sided p < %.2f, within noise otherwise; unknown "
      "without %d intervals\nin each run. docs/compare.md says how to read "
      "it.\n",
      IOSPD_CMP_R1_MAX, IOSPD_CMP_ALPHA, IOSPD_CMP_MIN_INTERVALS);
}
