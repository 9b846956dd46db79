/* SPDX-License-Identifier: MIT */
/* -vs at --diskspd=2.3: DISKSPD 2.3's wait-statistics tables (text) and
 * <WaitStatistics> element (XML). Private to src/report. */
#ifndef IOSPD_REPORT_WAITSTATS_H
#define IOSPD_REPORT_WAITSTATS_H

#include "iospd/report.h"
#include "iospd/strbuf.h"

/* At 2.3: "Wait Statistics - Completion Wait" (with the throttle columns
 * when a target is throttled, -g or -i/-j) and, when any thread made
 * look-asides, "Wait Statistics - Lookaside"; returns true. At 2.2 writes
 * nothing and returns false (the caller prints 2.2's table). */
bool iospd_rpt_waitstats_text(iospd_strbuf_t* out, const iospd_results_t* r,
                              const iospd_timespan_result_t* tr);
/* At 2.3: a thread's <WaitStatistics> with 2.3's <WaitCompletion>, at
 * indentation level 3; returns true. At 2.2 nothing, false. */
bool iospd_rpt_waitstats_xml(iospd_strbuf_t* out, const iospd_results_t* r,
                             const iospd_wait_stats_t* w);

#endif
