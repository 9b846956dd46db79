/* SPDX-License-Identifier: MIT */
/* The tool's own cost (iospd/cost.h) in the reports: the "tool_cost"
 * JSON objects, the -vs text table and the XML's <IospdToolCost>.
 * Private to src/report. */
#ifndef IOSPD_REPORT_COST_H
#define IOSPD_REPORT_COST_H

#include "iospd/cost.h"
#include "iospd/report.h"
#include "iospd/strbuf.h"
#include "report_json_writer.h"

/* A thread's figures (its I/Os over every target, read and write). */
void iospd_rpt_cost_thread(const iospd_thread_result_t* th, iospd_cost_t* c);
/* The timespan's: every thread's counts added. */
void iospd_rpt_cost_total(const iospd_timespan_result_t* tr, iospd_cost_t* c);
/* "tool_cost": {...} for one thread or the total. */
void iospd_rpt_cost_json(iospd_jw_t* w, const iospd_cost_t* c,
                         const iospd_cost_raw_t* raw,
                         const uint64_t wait_hist[8]);
void iospd_rpt_cost_total_json(iospd_jw_t* w,
                               const iospd_timespan_result_t* tr);
/* -vs: "Tool cost" table, one row per thread and a total. */
void iospd_rpt_cost_text(iospd_strbuf_t* out,
                         const iospd_timespan_result_t* tr);
/* -vs: <IospdToolCost> at indentation level 2 (a child of <TimeSpan>,
 * beside iospd's <Warnings>, outside DISKSPD's elements). */
void iospd_rpt_cost_xml(iospd_strbuf_t* out,
                        const iospd_timespan_result_t* tr);

#endif
