/* SPDX-License-Identifier: MIT */
/* --verify in the reports (additive only): a text paragraph after DISKSPD's
 * layout, a <Verify> element at the end of each <TimeSpan>, and a "verify"
 * member of each JSON timespan (docs/verify.md, docs/results-json.md). */
#ifndef IOSPD_REPORT_VERIFY_H
#define IOSPD_REPORT_VERIFY_H

#include "iospd/report.h"
#include "report_json_writer.h"

/* Sums of one target of a timespan over its threads. */
void iospd_rpt_verify_sum(const iospd_timespan_result_t* tr, uint32_t target,
                          iospd_vcounts_t* out);
void iospd_rpt_verify_text(iospd_strbuf_t* out, const iospd_results_t* r);
void iospd_rpt_verify_xml(iospd_strbuf_t* out, const iospd_results_t* r,
                          const iospd_timespan_result_t* tr);
void iospd_rpt_verify_json(iospd_jw_t* w, const iospd_results_t* r,
                           const iospd_timespan_result_t* tr);

#endif
