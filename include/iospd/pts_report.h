/* SPDX-License-Identifier: MIT */
/* --pts's reports (docs/pts.md): the text report and the "iospd-pts" JSON
 * document (schema/iospd-pts.schema.json). sysr carries the system
 * (sys, topo, run_time, engine_name) for the document's "system". */
#ifndef IOSPD_PTS_REPORT_H
#define IOSPD_PTS_REPORT_H

#include "iospd/pts.h"
#include "iospd/report.h"

void iospd_report_pts_text(iospd_strbuf_t* out, const iospd_pts_result_t* r);
int iospd_report_pts_json(iospd_strbuf_t* out, const iospd_pts_result_t* r,
                          const iospd_results_t* sysr, const char* cmdline);

#endif
