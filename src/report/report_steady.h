/* SPDX-License-Identifier: MIT */
/* --steady-state in the reports (additive only, docs/pts.md): a paragraph
 * after DISKSPD's text layout, a <SteadyState> element at the end of each
 * <TimeSpan>, and a "steady_state" member of each JSON timespan (absent
 * without --steady-state). */
#ifndef IOSPD_REPORT_STEADY_H
#define IOSPD_REPORT_STEADY_H

#include "iospd/report.h"
#include "iospd/steady_state.h"
#include "report_json_writer.h"

void iospd_rpt_steady_text(iospd_strbuf_t* out, const iospd_results_t* r);
void iospd_rpt_steady_xml(iospd_strbuf_t* out,
                          const iospd_timespan_result_t* tr);
void iospd_rpt_steady_json(iospd_jw_t* w, const iospd_timespan_result_t* tr);
/* The "window" object of the steady-state test (null before a window):
 * the same keys in the results' "steady_state" and the PTS document. */
void iospd_rpt_ss_window_json(iospd_jw_t* w, const char* key,
                              const iospd_ss_window_t* win);

#endif
