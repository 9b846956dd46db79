/* SPDX-License-Identifier: MIT */
/* Helpers shared by the text and XML reporters (not a public interface):
 * aligned size formatting, and aggregation of per (thread, target) stats into
 * read / write / total histograms and interval buckets for a report row. */
#ifndef IOSPD_REPORT_INTERNAL_H
#define IOSPD_REPORT_INTERNAL_H

#include "iospd/agg.h"
#include "iospd/report.h"

/* Index 0 read, 1 write, 2 total (read merged with write): the stats
 * layer's aggregate (iospd/agg.h). The timespan-wide rows read the total
 * computed once (iospd_timespan_total); a reporter merges only the rows
 * of one target or thread itself. */
typedef iospd_agg_t rpt_agg_t;

static inline void iospd_rpt_agg_init(rpt_agg_t* a) { iospd_agg_init(a); }
static inline void iospd_rpt_agg_add(rpt_agg_t* a,
                                     const iospd_target_stats_t* s) {
  iospd_agg_add(a, s);
}
static inline void iospd_rpt_agg_destroy(rpt_agg_t* a) { iospd_agg_destroy(a); }
/* Latency helpers in milliseconds; 0 when h is NULL or empty. */
bool iospd_rpt_has_lat(const iospd_hist_t* h);
double iospd_rpt_mean_ms(const iospd_hist_t* h);
double iospd_rpt_stddev_ms(const iospd_hist_t* h);
double iospd_rpt_pct_ms(const iospd_hist_t* h, double p);

/* A size right-aligned in 6 characters plus a 3-character unit slot, as in
 * DISKSPD's distribution lines: "     0   ", "  6.40MiB", "    64MiB". */
char* iospd_rpt_size_w6(uint64_t bytes, char* buf, size_t n);

/* The path shown for a (thread, target) result. */
const char* iospd_rpt_target_path(const iospd_timespan_result_t* tr,
                                  const iospd_thread_target_result_t* tt);

/* The read, write and total -D series of one (thread, target) stats, read
 * in place (at most two series each: no allocation). false when a sum
 * could not be set up (the report is then marked failed by the caller).
 * Destroy with iospd_rpt_iops_sums_destroy. */
bool iospd_rpt_iops_sums_init(iospd_buckets_sum_t sums[3],
                              const iospd_target_stats_t* s);
void iospd_rpt_iops_sums_destroy(iospd_buckets_sum_t sums[3]);

/* The --tree section (report_tree.c); nothing when r->tree is NULL. */
void iospd_report_tree_text(iospd_strbuf_t* out, const iospd_results_t* r);
void iospd_report_tree_xml(iospd_strbuf_t* out, const iospd_results_t* r);
struct iospd_jw_s;
void iospd_rpt_tree_json(struct iospd_jw_s* w, const iospd_results_t* r,
                         void (*latency)(struct iospd_jw_s*,
                                         const iospd_hist_t*, bool));
#endif
