/* SPDX-License-Identifier: MIT */
/* Where each thread of a timespan runs: DISKSPD's affinity orders as a pure
 * function of the timespan, the topology and the --diskspd level. Thread i
 * runs on entry i % n of the order. The controller pins by it; the reports
 * print the CPUs it uses ("effective affinity"). */
#ifndef IOSPD_AFFINITY_H
#define IOSPD_AFFINITY_H

#include "iospd/platform.h"
#include "iospd/profile.h"

/* The room iospd_affinity_order needs. */
uint32_t iospd_affinity_order_max(const iospd_timespan_t* ts,
                                  const iospd_cpu_topology_t* topo);

/* Fills out[0..n) (room for iospd_affinity_order_max entries) with the
 * CPUs threads take in turn and returns n; 0 when threads are not pinned
 * (-n, no active CPU) or out of memory.
 * - 2.2: the -a list as given (repeats kept), else every active CPU in
 *   (group, number) order: exactly iospd before 2.3.
 * - 2.3: the CPUs allowed (an -a list: its groups in the order given,
 *   each group's CPUs ascending, a whole-group item all of its active
 *   CPUs; else every active CPU), laid out per group in passes (-ac: pass k
 *   holds the k-th CPU of every core, so every core gets a thread before
 *   an SMT sibling does; else one pass), ordered by efficiency class
 *   (-ap, the default: highest class first within each pass; -ae lowest
 *   first; -aP / -aE: all passes over the highest / lowest class before
 *   the next class; -aup: CPU order), then the groups one after another
 *   (fill) or taking one CPU of each group in turn (-as). */
uint32_t iospd_affinity_order(const iospd_timespan_t* ts,
                              const iospd_cpu_topology_t* topo,
                              iospd_diskspd_level_t level,
                              iospd_thread_opts_t* out);

/* The CPUs threads 0..threads-1 use, as one mask per group (masks has
 * room for topo->group_count entries, zeroed here). Returns false when
 * nothing is pinned. */
bool iospd_affinity_effective(const iospd_timespan_t* ts,
                              const iospd_cpu_topology_t* topo,
                              iospd_diskspd_level_t level, uint32_t threads,
                              uint64_t* masks);

#endif
