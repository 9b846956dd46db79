/* SPDX-License-Identifier: MIT */
/* The switch handlers the option table (options.c) points at, one per
 * entry with its own syntax, grouped by topic in src/cli/opt_*.c. Each
 * reads c->arg, c->val and c->opt and stores into the parse state
 * (opt_ctx.h). Internal to src/cli. */
#ifndef IOSPD_CLI_OPT_HANDLERS_H
#define IOSPD_CLI_OPT_HANDLERS_H

#include "opt_ctx.h"

/* opt_util.c: the entries without a handler, by kind (the field at off). */
int sw_flag(ctx_t* c);
int sw_uint(ctx_t* c);
int sw_size(ctx_t* c);

/* opt_sizes.c */
int sw_block(ctx_t* c);
int sw_base(ctx_t* c);
int sw_create(ctx_t* c);
int sw_f(ctx_t* c);

/* opt_pattern.c */
int sw_random(ctx_t* c);
int sw_mixed(ctx_t* c);
int sw_dist(ctx_t* c);
int sw_seq(ctx_t* c);
int sw_writebuf(ctx_t* c);
int sw_seed(ctx_t* c);

/* opt_cache.c */
int sw_cache(ctx_t* c);
int sw_h(ctx_t* c);
int sw_flush(ctx_t* c);

/* opt_sched.c */
int sw_affinity(ctx_t* c);
int sw_throughput(ctx_t* c);

/* opt_output.c */
int sw_duration(ctx_t* c);
int sw_bucket(ctx_t* c);
int sw_format(ctx_t* c);
int sw_verbose(ctx_t* c);
int sw_progress(ctx_t* c);
int sw_help(ctx_t* c);
int sw_output(ctx_t* c);
int sw_status(ctx_t* c);
int sw_timeseries(ctx_t* c);
/* src/cli/opt_pts.c */
int sw_steady_state(ctx_t* c);
int sw_pts(ctx_t* c);
int sw_pts_cell(ctx_t* c);
int sw_pts_matrix(ctx_t* c);
int sw_pts_purge(ctx_t* c);
int sw_pts_resume(ctx_t* c);

/* opt_windows.c */
int sw_etw(ctx_t* c);
int sw_event(ctx_t* c);

/* opt_iospd.c */
int sw_xml(ctx_t* c);
int sw_allow_raw_write(ctx_t* c);
int sw_engine(ctx_t* c);
int sw_compress(ctx_t* c);
int sw_dedupe(ctx_t* c);
int sw_merge(ctx_t* c);
int sw_report(ctx_t* c);
int sw_compare(ctx_t* c);
int sw_ping(ctx_t* c);
int sw_version(ctx_t* c);

/* opt_diskspd23.c: --diskspd and the DISKSPD 2.3 switches */
int sw_diskspd(ctx_t* c);
int sw_ioring(ctx_t* c);
int sw_completion_depth(ctx_t* c);
int sw_bufsep(ctx_t* c);
/* The refusal of a 2.3 switch or letter at --diskspd=2.2 (what names it). */
int iospd_opt_needs_23(ctx_t* c, const char* what);
/* -Rs[...] (p->system_only) is the only switch but --diskspd, and no
 * target: 0 or the refusal naming the other switch or the target. */
int iospd_opt_system_only(ctx_t* c, const char* const* sw, int nsw);
/* After the last switch at 2.3: the -l/-bsp warning, the CPU list in its
 * per-group form (iospd_affinity_canonical). */
int iospd_opt_finish_23(ctx_t* c);
/* opt_sched.c: -a at 2.3 (letters, ranges, whole groups). */
int iospd_opt_affinity_23(ctx_t* c);
static inline bool is_23(const ctx_t* c) {
  return c->pp.ext.diskspd >= IOSPD_DISKSPD_23;
}

/* opt_verify.c */
int sw_verify(ctx_t* c);
int sw_verify_only(ctx_t* c);
int sw_verify_errors(ctx_t* c);
int sw_verify_state(ctx_t* c);

/* opt_tree.c */
int sw_tree_dirs(ctx_t* c);
int sw_tree_files(ctx_t* c);
int sw_tree_file_size(ctx_t* c);
int sw_tree_skew(ctx_t* c);
int sw_tree_assign(ctx_t* c);
int sw_tree_relocate(ctx_t* c);
int sw_tree_depth(ctx_t* c);
int sw_tree_width(ctx_t* c);
int sw_tree_append(ctx_t* c);
int sw_tree_cleanup(ctx_t* c);

/* opt_curve.c */
int sw_curve(ctx_t* c);
int sw_latency_limit(ctx_t* c);
int sw_expect(ctx_t* c);

#endif
