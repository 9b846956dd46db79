/* SPDX-License-Identifier: MIT */
/* DISKSPD's affinity orders (include/iospd/affinity.h): which CPU each
 * thread gets, at 2.2 and at 2.3, from the topology alone, so the run and
 * the tests and the reports agree. */
#include "iospd/affinity.h"

#include <stdlib.h>
#include <string.h>

#include "iospd/alloc.h"

uint32_t iospd_affinity_order_max(const iospd_timespan_t* ts,
                                  const iospd_cpu_topology_t* topo) {
  return topo->cpu_count + ts->affinity_count + 1;
}

static uint32_t order_22(const iospd_timespan_t* ts,
                         const iospd_cpu_topology_t* topo,
                         iospd_thread_opts_t* out) {
  uint32_t n = 0;
  if (ts->affinity_count > 0) {
    for (uint32_t i = 0; i < ts->affinity_count; i++) {
      const iospd_affinity_t* a = &ts->affinity[i];
      out[n++] = (iospd_thread_opts_t){
          true, a->group,
          a->cpu == IOSPD_AFFINITY_WHOLE_GROUP ? IOSPD_CPU_ANY : a->cpu};
    }
    return n;
  }
  for (uint32_t c = 0; c < topo->cpu_count; c++)
    if (topo->cpus[c].active)
      out[n++] = (iospd_thread_opts_t){true, topo->cpus[c].group,
                                       topo->cpus[c].number};
  return n;
}

/* Is CPU c (an index into topo->cpus) allowed by the explicit list? */
static bool listed(const iospd_timespan_t* ts, const iospd_cpu_info_t* c) {
  for (uint32_t i = 0; i < ts->affinity_count; i++) {
    const iospd_affinity_t* a = &ts->affinity[i];
    if (a->group == c->group &&
        (a->cpu == IOSPD_AFFINITY_WHOLE_GROUP || a->cpu == c->number))
      return true;
  }
  return false;
}

/* Sort keys: a CPU's place is decided by up to three numbers, then by
 * its position in the group's ascending list (so the sort is stable). */
typedef struct aff_key_s {
  uint32_t k[3];
  uint32_t pos;
  uint32_t cpu; /* index into topo->cpus */
} aff_key_t;

static int cmp_key(const void* a, const void* b) {
  const aff_key_t *x = a, *y = b;
  for (int i = 0; i < 3; i++)
    if (x->k[i] != y->k[i]) return x->k[i] < y->k[i] ? -1 : 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Lays the allowed CPUs of one group (cpus[0..n), ascending numbers) into
 * seq in the 2.3 order; keys has room for n. O(n log n): the controller
 * asks once per thread. */
static void order_group(const iospd_timespan_t* ts,
                        const iospd_cpu_topology_t* topo, const uint32_t* cpus,
                        uint32_t n, aff_key_t* keys, uint32_t* seq) {
  /* -ac: a CPU's pass is how many CPUs of its core come before it. */
  for (uint32_t i = 0; i < n; i++) {
    const iospd_cpu_info_t* c = &topo->cpus[cpus[i]];
    keys[i] = (aff_key_t){{c->socket, c->core, 0}, i, cpus[i]};
  }
  qsort(keys, n, sizeof *keys, cmp_key);
  uint32_t* pass = seq; /* seq is free until the end: pass per position */
  for (uint32_t i = 0; i < n; i++) {
    bool same = i > 0 && keys[i].k[0] == keys[i - 1].k[0] &&
                keys[i].k[1] == keys[i - 1].k[1];
    keys[i].k[2] = same ? keys[i - 1].k[2] + 1 : 0;
    pass[keys[i].pos] = ts->affinity_core_aware ? keys[i].k[2] : 0;
  }
  iospd_aff_efficiency_t e = ts->affinity_efficiency;
  bool by_class = e != IOSPD_AFF_UNORDERED;
  bool high_first = e == IOSPD_AFF_P_FIRST || e == IOSPD_AFF_FILL_P_FIRST;
  bool fill = e == IOSPD_AFF_FILL_P_FIRST || e == IOSPD_AFF_FILL_E_FIRST;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t cls = topo->cpus[cpus[i]].efficiency_class;
    uint32_t rank = !by_class ? 0 : high_first ? 255u - cls : cls;
    /* Fill orders visit a class's every pass before the next class; the
     * others each pass's classes in turn. */
    keys[i] = (aff_key_t){{fill ? rank : pass[i], fill ? pass[i] : rank, 0},
                          i, cpus[i]};
  }
  qsort(keys, n, sizeof *keys, cmp_key);
  for (uint32_t i = 0; i < n; i++) seq[i] = keys[i].cpu;
}

static uint32_t order_23(const iospd_timespan_t* ts,
                         const iospd_cpu_topology_t* topo,
                         iospd_thread_opts_t* out) {
  uint32_t ncpu = topo->cpu_count;
  if (ncpu == 0) return 0;
  /* The groups in the order they are visited: as the -a list names them,
   * else ascending. */
  uint32_t ng = 0;
  uint16_t* groups = iospd_calloc(ncpu + ts->affinity_count, sizeof *groups);
  uint32_t* cpus = iospd_calloc(ncpu, sizeof *cpus);
  aff_key_t* keys = iospd_calloc(ncpu, sizeof *keys);
  uint32_t* seq = iospd_calloc(ncpu, sizeof *seq);
  uint32_t* start = iospd_calloc(ncpu + ts->affinity_count + 1, sizeof *start);
  uint32_t n = 0;
  if (!groups || !cpus || !keys || !seq || !start) goto out;
  if (ts->affinity_count > 0) {
    for (uint32_t i = 0; i < ts->affinity_count; i++) {
      bool seen = false;
      for (uint32_t g = 0; g < ng && !seen; g++)
        seen = groups[g] == ts->affinity[i].group;
      if (!seen) groups[ng++] = ts->affinity[i].group;
    }
  } else {
    for (uint32_t c = 0; c < ncpu; c++) {
      bool seen = false;
      for (uint32_t g = 0; g < ng && !seen; g++)
        seen = groups[g] == topo->cpus[c].group;
      if (!seen) groups[ng++] = topo->cpus[c].group;
    }
  }
  /* Each group's sequence, one after another in seq. */
  uint32_t total = 0;
  for (uint32_t g = 0; g < ng; g++) {
    uint32_t m = 0;
    for (uint32_t c = 0; c < ncpu; c++) {
      const iospd_cpu_info_t* ci = &topo->cpus[c];
      if (ci->group != groups[g] || !ci->active) continue;
      if (ts->affinity_count > 0 && !listed(ts, ci)) continue;
      cpus[m++] = c;
    }
    start[g] = total;
    order_group(ts, topo, cpus, m, keys, seq + total);
    total += m;
  }
  start[ng] = total;
  if (!ts->affinity_span_groups) {
    for (uint32_t i = 0; i < total; i++) {
      const iospd_cpu_info_t* ci = &topo->cpus[seq[i]];
      out[n++] = (iospd_thread_opts_t){true, ci->group, ci->number};
    }
  } else {
    /* One CPU of each group in turn, until every group is used up. */
    for (uint32_t round = 0; n < total; round++)
      for (uint32_t g = 0; g < ng; g++) {
        if (start[g] + round >= start[g + 1]) continue;
        const iospd_cpu_info_t* ci = &topo->cpus[seq[start[g] + round]];
        out[n++] = (iospd_thread_opts_t){true, ci->group, ci->number};
      }
  }
out:
  iospd_free(groups);
  iospd_free(cpus);
  iospd_free(keys);
  iospd_free(seq);
  iospd_free(start);
  return n;
}

uint32_t iospd_affinity_order(const iospd_timespan_t* ts,
                              const iospd_cpu_topology_t* topo,
                              iospd_diskspd_level_t level,
                              iospd_thread_opts_t* out) {
  if (ts->disable_affinity) return 0;
  if (level < IOSPD_DISKSPD_23) return order_22(ts, topo, out);
  return order_23(ts, topo, out);
}

bool iospd_affinity_effective(const iospd_timespan_t* ts,
                              const iospd_cpu_topology_t* topo,
                              iospd_diskspd_level_t level, uint32_t threads,
                              uint64_t* masks) {
  memset(masks, 0, topo->group_count * sizeof *masks);
  iospd_thread_opts_t* o =
      iospd_calloc(iospd_affinity_order_max(ts, topo), sizeof *o);
  if (o == NULL) return false;
  uint32_t n = iospd_affinity_order(ts, topo, level, o);
  for (uint32_t i = 0; i < threads && n > 0 && i < n; i++) {
    if (o[i].group >= topo->group_count) continue;
    if (o[i].cpu == IOSPD_CPU_ANY)
      masks[o[i].group] |= topo->groups[o[i].group].active_mask;
    else if (o[i].cpu < 64)
      masks[o[i].group] |= UINT64_C(1) << o[i].cpu;
  }
  iospd_free(o);
  return n > 0;
}
