/* SPDX-License-Identifier: MIT */
/* Reporters: format a profile or merged results into a strbuf, in DISKSPD
 * 2.2's text and XML layouts. They compute nothing but presentation. */
#ifndef IOSPD_REPORT_H
#define IOSPD_REPORT_H

#include "iospd/envinfo.h"
#include "iospd/json_write.h"
#include "iospd/profile.h"
#include "iospd/stats.h"
#include "iospd/strbuf.h"

/* -Rptext and the head of a text report: "Command Line", "Input parameters".
 * sys may be NULL (profile only: no System information). */
void iospd_report_profile_text(iospd_strbuf_t* out, const iospd_profile_t* p);
/* Same, naming the I/O engine in the per-target "using ..." line (printed
 * when a target runs without -F and with -o > 1, as DISKSPD does):
 * NULL or "I/O Completion Ports" -> DISKSPD's text ("using I/O Completion
 * Ports", or the completion-routines line with -x); "io_uring" -> "using
 * io_uring"; "psync" -> "using the psync fallback (io_uring unavailable)";
 * any other name X -> "using X". iospd_report_profile_text passes NULL;
 * iospd_report_text passes results->engine_name. */
void iospd_report_profile_text_ex(iospd_strbuf_t* out,
                                  const iospd_profile_t* p,
                                  const char* engine_name);
/* The engine a target's threads used and the I/Os in flight it kept. */
typedef struct iospd_engine_use_s {
  const char* name; /* NULL: unknown */
  uint32_t asked;   /* -o (or -O); 0: not known */
  uint32_t kept;    /* the most the engine really kept in flight */
} iospd_engine_use_t;
/* Fills use for target `target` of timespan `timespan`; false if unknown. */
typedef bool (*iospd_engine_use_fn)(void* ctx, uint32_t timespan,
                                    uint32_t target, iospd_engine_use_t* use);
/* iospd_report_profile_text_ex, with the engine line of each target from
 * fn (when it answers): "using <engine>, N I/Os in flight per thread", and
 * a WARNING line under it when the engine kept fewer than asked. */
void iospd_report_profile_text_uses(iospd_strbuf_t* out,
                                    const iospd_profile_t* p,
                                    const char* engine_name,
                                    iospd_engine_use_fn fn, void* ctx);
/* iospd_report_profile_text_uses, with the machine's caches and page size
 * for DISKSPD 2.3's "buffer separation: thread optimized (16MiB)" figure
 * (iospd_buffer_separation_bytes; NULL / 0: 64-byte lines, 4 KiB pages). */
void iospd_report_profile_text_sys(iospd_strbuf_t* out,
                                   const iospd_profile_t* p,
                                   const char* engine_name,
                                   iospd_engine_use_fn fn, void* ctx,
                                   const iospd_cpu_topology_t* topo,
                                   uint32_t page_size);
/* Full text report (-Rtext). */
void iospd_report_text(iospd_strbuf_t* out, const iospd_results_t* r);
/* The profile part of the text report alone (as -Rptext shows it, with the
 * engine each target used): the JSON's "profile_text". */
void iospd_report_text_profile(iospd_strbuf_t* out, const iospd_results_t* r);
/* Full XML report (-Rxml), no trailing newline after </Results>. */
void iospd_report_xml(iospd_strbuf_t* out, const iospd_results_t* r);

/* What the JSON report holds beyond the results: the environment (main asks
 * the platform for it) and the command line exactly as given. */
typedef struct iospd_json_extra_s {
  const iospd_env_t* env;                /* NULL: every field empty */
  const char* const* target_paths;       /* each distinct target path */
  const iospd_env_target_t* targets;     /* and its file system, device */
  uint32_t target_count;
  int argc;
  const char* const* argv;
  /* Every warning of the run, one line each ("warnings"; none: no key). */
  const char* const* warnings;
  uint32_t warning_count;
  /* The time series kept in memory (iospd/series_keep.h): .jsonl rows, one
   * per line, written as the "timeseries" array; NULL: no key. When
   * intervals were left out, timeseries_dropped says how many. */
  const char* timeseries_rows;
  size_t timeseries_len;
  uint64_t timeseries_dropped;
} iospd_json_extra_t;
/* Full JSON report (-Rjson): schema/iospd-results.schema.json, described in
 * docs/results-json.md; ends with a newline. extra may be NULL. */
void iospd_report_json(iospd_strbuf_t* out, const iospd_results_t* r,
                       const iospd_json_extra_t* extra);
/* The same document written through sink in pieces of about 64 KiB
 * (iospd/json_write.h), never held whole: the memory it takes is the
 * run's own data and one piece. Returns 0, the sink's first failure, or
 * IOSPD_ENOMEM. slim: without the per-interval lists (every non-empty
 * "buckets" list of an "iops_series" and the "timeseries" rows), the
 * document the HTML report embeds when the whole one is too large. */
int iospd_report_json_write(iospd_sink_t* sink, const iospd_results_t* r,
                            const iospd_json_extra_t* extra, bool slim);
/* fio's --output-format=json document of r (report_fio_json.c,
 * docs/fio-json.md); 0 or a negative IOSPD_E*. */
int iospd_report_fio_json_write(iospd_sink_t* sink, const iospd_results_t* r);

/* --verify: all failures of a run (the exit code is 1 when not 0), and the
 * first --verify-errors of them, one line each (for stderr). */
uint64_t iospd_results_verify_failures(const iospd_results_t* r);
void iospd_report_verify_failures(iospd_strbuf_t* out,
                                  const iospd_results_t* r);
/* --verify-only's summary (stdout): one line per target, counts by kind;
 * a target the pass could not check to the end says so on its line
 * ("incomplete: ..., not a pass"), whatever its counts. */
struct iospd_vonly_s;
void iospd_report_vonly_summary(iospd_strbuf_t* out,
                                const struct iospd_vonly_s* v);
/* --verify-only's failure lines (stderr), and the "in all" line when more
 * failed than were kept. Returns the number of failures in all. */
uint64_t iospd_report_vonly_failures(iospd_strbuf_t* out,
                                     const struct iospd_vonly_s* v);

/* -Rs, -Rstext, -Rsxml (DISKSPD 2.3): the system information alone, in
 * 2.3's layout: the text report's "System information:" section, or the
 * XML <System> element (no <Results> around it). r needs sys, topo and
 * run_time only. */
void iospd_report_system_text(iospd_strbuf_t* out, const iospd_results_t* r);
void iospd_report_system_xml(iospd_strbuf_t* out, const iospd_results_t* r);

#endif
