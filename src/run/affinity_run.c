/* SPDX-License-Identifier: MIT */
/* The run's side of affinity: an explicit -a list checked against the
 * machine before any thread starts, and each thread's CPU from the order
 * of src/run/affinity.c. */
#include "iospd/affinity.h"
#include "iospd/alloc.h"
#include "run_internal.h"

int iospd_run_check_affinity(const iospd_timespan_t* ts,
                             const iospd_cpu_topology_t* topo,
                             iospd_err_t* err) {
  for (uint32_t i = 0; i < ts->affinity_count; i++) {
    const iospd_affinity_t* a = &ts->affinity[i];
    bool whole = a->cpu == IOSPD_AFFINITY_WHOLE_GROUP;
    if (a->group >= topo->group_count) {
      if (whole)
        return iospd_err_set(err, IOSPD_EINVAL,
                             "affinity (-ag%u): group %u does not exist: "
                             "this system has %u processor group(s)",
                             a->group, a->group, topo->group_count);
      return iospd_err_set(err, IOSPD_EINVAL,
                           "affinity (-a): CPU %u of group %u does not exist: "
                           "this system has %u processor group(s)",
                           a->cpu, a->group, topo->group_count);
    }
    const iospd_group_info_t* g = &topo->groups[a->group];
    if (!whole && a->cpu >= g->max_processors)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "affinity (-a): CPU %u of group %u does not exist: "
                           "the group has %u CPUs (0-%u)",
                           a->cpu, a->group, g->max_processors,
                           g->max_processors ? g->max_processors - 1 : 0);
    bool active = false;
    for (uint32_t c = 0; c < topo->cpu_count; c++)
      if (topo->cpus[c].group == a->group && topo->cpus[c].active &&
          (whole || topo->cpus[c].number == a->cpu))
        active = true;
    if (!active && whole)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "affinity (-ag%u): no CPU of group %u is active "
                           "(offline or outside this process's CPU set)",
                           a->group, a->group);
    if (!active)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "affinity (-a): CPU %u of group %u is not active "
                           "(offline or outside this process's CPU set)",
                           a->cpu, a->group);
  }
  return 0;
}

iospd_thread_opts_t iospd_run_affinity_at(const iospd_timespan_t* ts,
                                          const iospd_cpu_topology_t* topo,
                                          iospd_diskspd_level_t level,
                                          uint32_t i) {
  iospd_thread_opts_t none = {false, 0, IOSPD_CPU_ANY};
  if (ts->disable_affinity) return none;
  /* Before the start gate: the controller lays threads out one by one. */
  iospd_thread_opts_t* o =
      iospd_calloc(iospd_affinity_order_max(ts, topo), sizeof *o);
  if (o == NULL) return none;
  uint32_t n = iospd_affinity_order(ts, topo, level, o);
  iospd_thread_opts_t r = n > 0 ? o[i % n] : none;
  iospd_free(o);
  return r;
}

iospd_thread_opts_t iospd_run_affinity(const iospd_timespan_t* ts,
                                       const iospd_cpu_topology_t* topo,
                                       uint32_t i) {
  return iospd_run_affinity_at(ts, topo, IOSPD_DISKSPD_22, i);
}
