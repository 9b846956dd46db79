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

#endif
