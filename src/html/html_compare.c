/* SPDX-License-Identifier: MIT */
/* The comparison part of a report of several runs: the table of
 * per-metric differences with the noise decision and the fields that
 * differ, both from the comparison core (iospd/compare.h), so the page and
 * iospd --compare always agree. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html_sections.h"
#include "iospd/alloc.h"
#include "iospd/compare.h"

/* dec < 0: 4 significant digits (a p value); else the unit's decimals. */
static void cell_num(iospd_strbuf_t* out, bool has, double v, int dec,
                     const char* attrs) {
  char buf[48];
  if (!has || !isfinite(v)) {
    snprintf(buf, sizeof buf, "-");
  } else if (dec >= 0) {
    iospd_html_td_num(out, v, dec, attrs);
    return;
  } else {
    iospd_html_num(buf, sizeof buf, v);
  }
  iospd_strbuf_appendf(out, "<td class=\"n\"%s>%s</td>", attrs, buf);
}

/* The decimals of a metric's unit (HTML_DEC_*). */
static int metric_dec(iospd_cmp_metric_t m) {
  switch (m) {
    case IOSPD_CMP_IOPS: return HTML_DEC_IOPS;
    case IOSPD_CMP_MIBS: return HTML_DEC_MIBS;
    default: return HTML_DEC_MS; /* ms, and us per I/O: to the ns */
  }
}

static void rows_table(iospd_strbuf_t* out, const iospd_compare_t* c) {
  iospd_strbuf_appendf(
      out,
      "<p>Each run against run A, per metric. <b>Within noise</b>: Welch's "
      "t-test on the two runs' per-interval values, each sample size "
      "corrected for lag-1 autocorrelation, finds no difference at "
      "p &lt; %g; <b>real difference</b> when p &lt; %g; <b>unknown</b> "
      "with fewer than %d intervals in a run (docs/compare.md).</p>\n"
      "<table data-table=\"comparison\"><tr><th>run</th><th>timespan</th>"
      "<th>metric</th><th>direction</th><th>target</th><th>run A</th>"
      "<th>this run</th><th>difference (%%)</th><th>verdict</th>"
      "<th>p</th></tr>\n",
      IOSPD_CMP_ALPHA, IOSPD_CMP_ALPHA, IOSPD_CMP_MIN_INTERVALS);
  char attrs[96];
  for (size_t r = 1; r < c->n_runs; r++) {
    const iospd_cmp_run_t* run = &c->runs[r];
    for (size_t s = 0; s < run->n_spans; s++)
      for (size_t k = 0; k < run->spans[s].n_rows; k++) {
        const iospd_cmp_row_t* row = &run->spans[s].rows[k];
        const char* verdict = iospd_cmp_verdict_name(row->test.verdict);
        iospd_strbuf_appendf(out, "<tr data-verdict=\"%s\"><td>%c</td>"
                             "<td class=\"n\">%d</td><td>",
                             row->test.verdict == IOSPD_CMP_REAL    ? "real"
                             : row->test.verdict == IOSPD_CMP_NOISE ? "noise"
                                                                    : "unknown",
                             (char)('A' + r % 26),
                             run->spans[s].timespan + 1);
        iospd_html_text(out, iospd_cmp_metric_name(row->metric));
        const char* unit = iospd_cmp_metric_unit(row->metric);
        if (unit[0] != '\0' &&
            strcmp(unit, iospd_cmp_metric_name(row->metric)) != 0) {
          iospd_strbuf_append(out, " (");
          iospd_html_text(out, unit);
          iospd_strbuf_append(out, ")");
        }
        iospd_strbuf_append(out, "</td><td>");
        iospd_html_text(out, iospd_cmp_dir_name(row->dir));
        if (row->target < 0)
          iospd_strbuf_append(out, "</td><td>all</td>");
        else
          iospd_strbuf_appendf(out, "</td><td class=\"n\">%d</td>", row->target);
        snprintf(attrs, sizeof attrs, " data-cmp=\"base\"");
        cell_num(out, row->has_base, row->base, metric_dec(row->metric), attrs);
        snprintf(attrs, sizeof attrs, " data-cmp=\"value\"");
        cell_num(out, row->has_value, row->value, metric_dec(row->metric),
                 attrs);
        cell_num(out, row->has_diff, row->diff_pct, HTML_DEC_PCT,
                 " data-cmp=\"diff\"");
        iospd_strbuf_appendf(out, "<td class=\"%s\">",
                             row->test.verdict == IOSPD_CMP_REAL ? "real" : "");
        iospd_html_text(out, verdict);
        if (row->test.verdict == IOSPD_CMP_REAL)
          iospd_strbuf_append(out, row->better ? " (better)" : " (worse)");
        if (row->test.verdict == IOSPD_CMP_UNKNOWN && row->test.why[0]) {
          iospd_strbuf_append(out, ": ");
          iospd_html_text(out, row->test.why);
        }
        iospd_strbuf_append(out, "</td>");
        cell_num(out, row->test.verdict != IOSPD_CMP_UNKNOWN, row->test.p, -1,
                 "");
        iospd_strbuf_append(out, "</tr>\n");
      }
  }
  iospd_strbuf_append(out, "</table>\n");
}

static void fields_table(iospd_strbuf_t* out, const iospd_compare_t* c) {
  iospd_strbuf_append(out, "<h3>Settings and environment that differ</h3>\n");
  if (c->n_fields == 0) {
    iospd_strbuf_append(out, "<p data-note=\"differences\">None: every "
                             "setting and environment field is the same.</p>\n");
    return;
  }
  iospd_strbuf_append(out, "<table data-table=\"differences\"><tr><th>kind"
                           "</th><th>field</th>");
  for (size_t r = 0; r < c->n_runs; r++)
    iospd_strbuf_appendf(out, "<th>run %c</th>", (char)('A' + r % 26));
  iospd_strbuf_append(out, "</tr>\n");
  for (size_t f = 0; f < c->n_fields; f++) {
    const iospd_cmp_field_t* fd = &c->fields[f];
    /* A changed setting explains more than any disk: marked. */
    iospd_strbuf_appendf(out, "<tr class=\"differs\" data-kind=\"%s\"><td>",
                         fd->kind == IOSPD_CMP_SETTING        ? "setting"
                         : fd->kind == IOSPD_CMP_HOST_SETTING ? "host-setting"
                                                              : "environment");
    iospd_html_text(out, iospd_cmp_field_kind_name(fd->kind));
    iospd_strbuf_append(out, "</td><td><code>");
    iospd_html_text(out, fd->path);
    iospd_strbuf_append(out, "</code></td>");
    for (size_t r = 0; r < c->n_runs; r++) {
      iospd_strbuf_append(out, "<td>");
      iospd_html_text(out, fd->values[r] != NULL ? fd->values[r] : "");
      iospd_strbuf_append(out, "</td>");
    }
    iospd_strbuf_append(out, "</tr>\n");
  }
  iospd_strbuf_append(out, "</table>\n");
}

int iospd_html_compare(iospd_strbuf_t* banner, iospd_strbuf_t* out,
                       const html_run_t* runs, size_t nr, bool force,
                       iospd_err_t* err) {
  const cJSON** docs = iospd_calloc(nr, sizeof *docs);
  const char** names = iospd_calloc(nr, sizeof *names);
  if (docs == NULL || names == NULL) {
    iospd_free(docs);
    iospd_free(names);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < nr; i++) {
    docs[i] = runs[i].doc;
    names[i] = runs[i].name;
  }
  iospd_compare_t c;
  memset(&c, 0, sizeof c);
  /* Runs that differ on purpose (two queue depths) are overlaid without
   * --force: the page shows what differs; the noise verdicts, which need
   * one profile, only with --force (as iospd --compare). */
  iospd_compare_opts_t opts = {.force = true, .per_target = false,
                               .mode = "--report"};
  int rc = iospd_compare_build((const struct cJSON* const*)docs, names, nr,
                               &opts, &c, err);
  if (rc == 0) {
    bool verdicts = force || !c.profiles_differ;
    if (force && c.profiles_differ)
      iospd_strbuf_append(
          banner, "<div class=\"banner\" data-banner=\"forced\">These runs have "
               "different profiles and are compared only because --force "
               "was given: a difference below may come from a changed "
               "setting, not from the storage (see the settings that "
               "differ).</div>\n");
    iospd_strbuf_append(out, "<section id=\"comparison\"><h2>Comparison"
                             "</h2>\n");
    if (verdicts)
      rows_table(out, &c);
    else
      iospd_strbuf_append(
          out, "<p class=\"note\" data-note=\"comparison\">These runs have "
               "different profiles (the settings that differ are below): the "
               "page overlays them, and gives no within-noise verdicts, which "
               "compare runs of one profile (give --force to see them "
               "anyway, as iospd --compare --force).</p>\n");
    fields_table(out, &c);
    iospd_strbuf_append(out, "</section>\n");
  }
  iospd_compare_free(&c);
  iospd_free(docs);
  iospd_free(names);
  return rc;
}
