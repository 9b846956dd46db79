/* SPDX-License-Identifier: MIT */
/* The parts of the report page. Private to src/html. */
#ifndef IOSPD_HTML_SECTIONS_H
#define IOSPD_HTML_SECTIONS_H

#include "html_internal.h"

/* Every chart (html_charts.c). */
void iospd_html_charts(iospd_strbuf_t* out, const html_run_t* runs, size_t nr);
/* A note in place of a chart: <p class="note" data-note="chart">. */
void iospd_html_note(iospd_strbuf_t* out, const char* chart, const char* text);
/* The comparison (html_compare.c): the --force banner into banner (for the
 * top of the page), the table and the differing fields into out. Returns
 * 0, or IOSPD_EUSAGE / IOSPD_ENOMEM with err set when the runs cannot be
 * compared (different profiles without force). */
int iospd_html_compare(iospd_strbuf_t* banner, iospd_strbuf_t* out,
                       const html_run_t* runs, size_t nr, bool force,
                       iospd_err_t* err);

/* The "Tool cost" section (html_cost.c). */
void iospd_html_cost(iospd_strbuf_t* out, const html_run_t* runs, size_t nr);

/* The page's head (the report's style, title) and its end (the script
 * that saves embedded documents, data-ready on <html>): html_report.c. */
void iospd_html_page_begin(iospd_strbuf_t* out, const char* title);
void iospd_html_page_end(iospd_strbuf_t* out);

/* One precision rule per unit, for every table of every page (issue
 * #31): decimals shown (trailing zeros cut). Charts' axes use
 * iospd_html_num. */
#define HTML_DEC_IOPS 2  /* I/O per second */
#define HTML_DEC_MIBS 2  /* MiB/s */
#define HTML_DEC_MS 3    /* latency in ms: microseconds, as DISKSPD */
#define HTML_DEC_PCT 2   /* percentages: CPU, differences, excursions */
#define HTML_DEC_RATIO 3 /* B/A */

/* Table cells (html_table.c): text escaped (NULL: empty); a number with
 * at most `decimals` decimals, trailing zeros cut, "-" when not finite
 * (not measured); attrs is added inside the <td> (NULL: none). */
void iospd_html_td_text(iospd_strbuf_t* out, const char* s);
void iospd_html_td_num(iospd_strbuf_t* out, double v, int decimals,
                       const char* attrs);
/* A row <tr><th>name</th><td>value</td></tr> of a settings table. */
void iospd_html_kv(iospd_strbuf_t* out, const char* name, const char* value);

/* The pages of the other documents (iospd/html.h): html_curve.c and
 * html_pts.c check their own document. */

#endif
