/* SPDX-License-Identifier: MIT */
/* The text report of a curve run (src/report/report_curve.c,
 * docs/curve.md): the points as a table, then the verdict. */
#ifndef IOSPD_REPORT_CURVE_H
#define IOSPD_REPORT_CURVE_H

#include "iospd/curve.h"

/* The whole text report of curve c as analysed in a (iospd_curve_analyse):
 * a heading, one row per point, the verdict lines. */
void iospd_report_curve_text(iospd_strbuf_t* out, const iospd_curve_t* c,
                             const iospd_curve_analysis_t* a);

#endif
