/* SPDX-License-Identifier: MIT */
/* Private to run*.c: the controller's helpers for target preparation (-c,
 * existence, safety, alignment, size) and thread/slot layout. */
#ifndef IOSPD_RUN_INTERNAL_H
#define IOSPD_RUN_INTERNAL_H

#include "iospd/engine.h"
#include "iospd/run.h"

/* Formats a message of kind k (without its prefix, iospd/message.h) and
 * hands it to hooks->message; nothing when there is no message hook. */
void iospd_run_sayf(const iospd_run_hooks_t* hooks, iospd_msg_kind_t k,
                    const char* fmt, ...) IOSPD_PRINTF(3, 4);

/* Before a timespan: creates -c files, then checks every target (exists,
 * not a device holding data when writing, unbuffered alignment, large
 * enough for every thread). */
int iospd_run_prepare_targets(const iospd_profile_t* p,
                              const iospd_timespan_t* ts,
                              const iospd_run_hooks_t* hooks,
                              iospd_timespan_result_t* tsr, iospd_err_t* err);

/* ---- warnings about misleading set-ups (run_warn.c) ----
 * Says the warning (IOSPD_MSG_DISKSPD_WARNING for the never-written one,
 * IOSPD_MSG_WARNING for the others) through hooks and keeps the warning in tsr (may be
 * NULL). */
void iospd_run_warn(const iospd_run_hooks_t* hooks,
                    iospd_timespan_result_t* tsr, iospd_warn_kind_t kind,
                    int32_t target, int32_t thread, const char* fmt, ...)
    IOSPD_PRINTF(6, 7);
/* Before the run, once per file: never-written ranges, all-zero samples
 * (reads), buffered reads that fit in free memory. */
void iospd_run_warn_target(const iospd_run_hooks_t* hooks,
                           iospd_timespan_result_t* tsr,
                           const iospd_timespan_t* ts, uint32_t ti,
                           const iospd_file_info_t* info);
/* Before the run: more worker threads than logical CPUs (cpus 0 = unknown). */
void iospd_run_warn_threads(const iospd_run_hooks_t* hooks,
                            iospd_timespan_result_t* tsr,
                            const iospd_timespan_t* ts, uint32_t cpus);
/* After the join: busy worker threads, and Little's law on the totals.
 * Kept in tsr only; main prints them after the report. */
void iospd_run_warn_bypass(const iospd_run_hooks_t* hooks,
                           iospd_timespan_result_t* tsr);
void iospd_run_warn_generator(iospd_timespan_result_t* tsr,
                              iospd_worker_t* const* workers, uint32_t n);

/* XML <PrecreateFiles> (DISKSPD's file creation): before the first timespan, creates each
 * path once by the profile's rule. Paths it creates are not created again
 * by the timespans. */
int iospd_run_precreate(const iospd_profile_t* p,
                        const iospd_run_hooks_t* hooks, iospd_err_t* err);
/* True if iospd_run_precreate created path during this run. */
bool iospd_run_precreated(const iospd_profile_t* p, const char* path);
void iospd_run_precreate_free(void);

/* -bs (bufsep.c): the boundary every worker's buffers start on for this
 * timespan (0: the allocator's placement), and the warning that -l
 * overrules an explicit -bsp. */
uint64_t iospd_run_bufsep(const iospd_profile_t* p, const iospd_timespan_t* ts,
                          const iospd_run_hooks_t* hooks,
                          const iospd_cpu_topology_t* topo,
                          uint32_t page_size);

/* Number of worker threads of a timespan (DISKSPD's threads and request slots). */
uint32_t iospd_run_thread_count(const iospd_timespan_t* ts);

/* Highest relative thread number that will use target t. */
uint32_t iospd_run_max_relative_thread(const iospd_timespan_t* ts,
                                       const iospd_target_t* t);

/* Checks an explicit -a list against the topology; names the bad CPU. */
int iospd_run_check_affinity(const iospd_timespan_t* ts,
                             const iospd_cpu_topology_t* topo,
                             iospd_err_t* err);

/* Affinity of global thread i at DISKSPD 2.2 (iospd_affinity_order). */
iospd_thread_opts_t iospd_run_affinity(const iospd_timespan_t* ts,
                                       const iospd_cpu_topology_t* topo,
                                       uint32_t i);
/* The same at a --diskspd level (src/run/affinity_run.c). */
iospd_thread_opts_t iospd_run_affinity_at(const iospd_timespan_t* ts,
                                          const iospd_cpu_topology_t* topo,
                                          iospd_diskspd_level_t level,
                                          uint32_t i);

#endif
