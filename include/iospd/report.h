/* SPDX-License-Identifier: MIT */
/* Reporters: format a profile or merged results into a strbuf, in DISKSPD
 * 2.2's text and XML layouts. They compute nothing but presentation. */
#ifndef IOSPD_REPORT_H
#define IOSPD_REPORT_H

#include "iospd/profile.h"
#include "iospd/stats.h"
#include "iospd/strbuf.h"

/* -Rptext and the head of a text report: "Command Line", "Input parameters".
 * sys may be NULL (profile only: no System information). */
void iospd_report_profile_text(iospd_strbuf_t* out, const iospd_profile_t* p);
/* Full text report (-Rtext). */
void iospd_report_text(iospd_strbuf_t* out, const iospd_results_t* r);
/* Full XML report (-Rxml), no trailing newline after </Results>. */
void iospd_report_xml(iospd_strbuf_t* out, const iospd_results_t* r);

#endif
