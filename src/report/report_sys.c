/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's system section and per-timespan affinity facts for the
 * reporters (report_sys.h): the layout of the real 2.3 text results
 * (the reference's diskspd-2.3-samples), space-indented, with the processor
 * name, page size, counts and the cache table. */
#include "report_sys.h"

#include <stdio.h>
#include <string.h>

#include "iospd/affinity.h"
#include "iospd/alloc.h"
#include "iospd/units.h"
#include "iospd/version.h"

#define ap iospd_strbuf_appendf

iospd_diskspd_level_t iospd_rpt_level(const iospd_results_t* r) {
  return r->profile != NULL ? r->profile->ext.diskspd : IOSPD_DISKSPD_22;
}

const char* iospd_rpt_diskspd_version(iospd_diskspd_level_t level) {
  return level >= IOSPD_DISKSPD_23 ? IOSPD_DISKSPD23_VERSION
                                   : IOSPD_DISKSPD_VERSION;
}

const char* iospd_rpt_diskspd_version_date(iospd_diskspd_level_t level) {
  return level >= IOSPD_DISKSPD_23 ? IOSPD_DISKSPD23_VERSION_DATE
                                   : IOSPD_DISKSPD_VERSION_DATE;
}

const char* iospd_rpt_cache_type(uint8_t type) {
  static const char* const names[] = {"Unified", "Instruction", "Data",
                                      "Trace"};
  return type < 4 ? names[type] : "Unified";
}

void iospd_rpt_cpu_ranges(iospd_strbuf_t* out, uint64_t mask) {
  bool first = true;
  for (unsigned c = 0; c < 64;) {
    if (!((mask >> c) & 1u)) {
      c++;
      continue;
    }
    unsigned e = c;
    while (e + 1 < 64 && ((mask >> (e + 1)) & 1u)) e++;
    ap(out, first ? "" : ",");
    if (e > c)
      ap(out, "%u-%u", c, e);
    else
      ap(out, "%u", c);
    first = false;
    c = e + 1;
  }
}

void iospd_rpt_affinity_masks(iospd_strbuf_t* out, const uint64_t* masks,
                              uint32_t groups) {
  if (groups <= 1) {
    ap(out, "(cpu): ");
    iospd_rpt_cpu_ranges(out, groups ? masks[0] : 0);
    return;
  }
  ap(out, "(group/cpu):");
  for (uint32_t g = 0; g < groups; g++) {
    if (masks[g] == 0) continue;
    ap(out, " %u/", g);
    iospd_rpt_cpu_ranges(out, masks[g]);
  }
}

/* ---- the cache table ------------------------------------------------------ */

static bool same_kind(const iospd_cache_info_t* a, const iospd_cache_info_t* b) {
  return a->level == b->level && a->type == b->type && a->size == b->size &&
         a->line_size == b->line_size && a->associativity == b->associativity;
}

static unsigned popcount64(uint64_t m) {
  unsigned n = 0;
  for (; m; m &= m - 1) n++;
  return n;
}

/* Does every cache of this kind share exactly one entry of list? */
static bool each_is(const iospd_cpu_topology_t* t, const iospd_cache_info_t* k,
                    const struct iospd_topo_mask_s* list, uint32_t n) {
  for (uint32_t i = 0; i < t->cache_count; i++) {
    const iospd_cache_info_t* c = &t->caches[i];
    if (!same_kind(c, k)) continue;
    bool found = false;
    for (uint32_t j = 0; j < n && !found; j++)
      found = list[j].group == c->group && list[j].mask == c->mask;
    if (!found) return false;
  }
  return true;
}

/* " (per cpu)", " (per core)", " (per socket)", " (per node)", " (per N
 * cpus)" for a kind the machine has several of; "" for one. */
static void fold_note(iospd_strbuf_t* out, const iospd_cpu_topology_t* t,
                      const iospd_cache_info_t* k, uint32_t count) {
  if (count < 2) return;
  unsigned size = 0;
  bool equal = true;
  for (uint32_t i = 0; i < t->cache_count; i++) {
    if (!same_kind(&t->caches[i], k)) continue;
    unsigned p = popcount64(t->caches[i].mask);
    if (size == 0) size = p;
    equal = equal && p == size;
  }
  if (equal && size == 1)
    ap(out, " (per cpu)");
  else if (each_is(t, k, t->core_masks, t->core_mask_count))
    ap(out, " (per core)");
  else if (each_is(t, k, t->socket_masks, t->socket_mask_count))
    ap(out, " (per socket)");
  else if (each_is(t, k, t->node_masks, t->node_mask_count))
    ap(out, " (per node)");
  else if (equal)
    ap(out, " (per %u cpus)", size);
  else
    ap(out, " (%u sets)", count);
}

static void cache_table(iospd_strbuf_t* out, const iospd_cpu_topology_t* t) {
  if (t->cache_count == 0 || t->caches == NULL) return;
  uint32_t groups = t->group_count ? t->group_count : 1;
  uint64_t* masks = iospd_calloc(groups, sizeof *masks);
  if (masks == NULL) {
    out->failed = true;
    return;
  }
  ap(out, "\n  cache information:\n\n");
  ap(out, "    Cache |   Size   | Line  | Assoc  | CPU\n");
  ap(out, "    -------------------------------------------------------\n");
  static const char* const suffix[] = {"", "i", "d", "t"};
  for (uint32_t i = 0; i < t->cache_count; i++) {
    const iospd_cache_info_t* k = &t->caches[i];
    bool seen = false;
    for (uint32_t j = 0; j < i && !seen; j++) seen = same_kind(&t->caches[j], k);
    if (seen) continue;
    memset(masks, 0, groups * sizeof *masks);
    uint32_t count = 0;
    for (uint32_t j = i; j < t->cache_count; j++) {
      if (!same_kind(&t->caches[j], k)) continue;
      if (t->caches[j].group < groups) masks[t->caches[j].group] |= t->caches[j].mask;
      count++;
    }
    char name[16], size[32], line[16], assoc[16];
    snprintf(name, sizeof name, "L%u%s", k->level,
             k->type < 4 ? suffix[k->type] : "");
    iospd_format_size(k->size, size, sizeof size);
    snprintf(line, sizeof line, "%uB", k->line_size);
    if (k->associativity == 0xFF)
      snprintf(assoc, sizeof assoc, "full");
    else if (k->associativity == 0)
      snprintf(assoc, sizeof assoc, "-");
    else
      snprintf(assoc, sizeof assoc, "%u-way", k->associativity);
    ap(out, "    %-5s | %8s | %5s | %6s | ", name, size, line, assoc);
    if (groups > 1) {
      bool first = true;
      for (uint32_t g = 0; g < groups; g++) {
        if (masks[g] == 0) continue;
        ap(out, first ? "%u/" : " %u/", g);
        iospd_rpt_cpu_ranges(out, masks[g]);
        first = false;
      }
    } else {
      iospd_rpt_cpu_ranges(out, masks[0]);
    }
    fold_note(out, t, k, count);
    ap(out, "\n");
  }
  iospd_free(masks);
}

void iospd_rpt_system_text_23(iospd_strbuf_t* out, const iospd_results_t* r) {
  const iospd_cpu_topology_t* t = &r->topo;
  const iospd_utc_time_t* rt = &r->run_time;
  char page[32];
  ap(out, "System information:\n\n");
  ap(out, "  %-22s%s\n", "computer name:", r->sys.computer_name);
  ap(out, "  %-22s%s\n", "processor name:", t->processor_name);
  ap(out, "  %-22s%u/%02u/%02u %02u:%02u:%02u UTC\n", "start time:", rt->year,
     rt->month, rt->day, rt->hour, rt->minute, rt->second);
  const char* name = r->sys.power_scheme_name;
  ap(out, "  %-22s%s", "active power scheme:", name[0] ? name : "<unknown>");
  if (r->sys.power_scheme_guid[0]) ap(out, " (%s)", r->sys.power_scheme_guid);
  ap(out, "\n");
  ap(out, "  %-22s%s\n\n", "page size:",
     iospd_format_size(r->sys.page_size, page, sizeof page));
  ap(out, "  %-22s%u\n", "cpu count:", t->cpu_count);
  ap(out, "  %-22s%u\n", "core count:", t->core_count);
  ap(out, "  %-22s%u\n", "group count:", t->group_count);
  ap(out, "  %-22s%u\n", "node count:", t->node_count);
  ap(out, "  %-22s%u\n", "socket count:", t->socket_count);
  ap(out, "  %-22s%c\n", "heterogeneous cores:", t->heterogeneous ? 'y' : 'n');
  cache_table(out, t);
}

bool iospd_rpt_effective_affinity(const iospd_results_t* r,
                                  const iospd_timespan_result_t* tr,
                                  uint64_t* masks) {
  if (tr->ts == NULL || r->topo.group_count == 0) return false;
  return iospd_affinity_effective(tr->ts, &r->topo, iospd_rpt_level(r),
                                  tr->thread_count, masks);
}

void iospd_rpt_effective_affinity_text(iospd_strbuf_t* out,
                                       const iospd_results_t* r,
                                       const iospd_timespan_result_t* tr) {
  uint32_t groups = r->topo.group_count;
  if (groups == 0) return;
  uint64_t* masks = iospd_calloc(groups, sizeof *masks);
  if (masks == NULL) {
    out->failed = true;
    return;
  }
  if (iospd_rpt_effective_affinity(r, tr, masks)) {
    ap(out, "\neffective affinity ");
    iospd_rpt_affinity_masks(out, masks, groups);
    ap(out, "\n");
  }
  iospd_free(masks);
}

uint64_t iospd_rpt_buffer_separation(const iospd_results_t* r,
                                     const iospd_timespan_t* ts) {
  if (ts->buffer_separation == IOSPD_BUFSEP_SYSTEM_DEFAULT) return 0;
  uint64_t line = 0;
  for (uint32_t i = 0; i < r->topo.cache_count; i++)
    if (r->topo.caches[i].line_size > line) line = r->topo.caches[i].line_size;
  if (line == 0) line = 64;
  uint64_t page = r->sys.page_size ? r->sys.page_size : 4096;
  return (line / 8) * (page / 8) * page;
}
