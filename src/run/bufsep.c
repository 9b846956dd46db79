/* SPDX-License-Identifier: MIT */
/* -bs (DISKSPD 2.3) buffer separation: the boundary and when it applies
 * (iospd/bufsep.h). The worker allocates each target buffer aligned to it
 * (engine.c, setup_target), so no two threads' buffers share a boundary's
 * worth of address space. */
#include "iospd/bufsep.h"

#include "run_internal.h"

uint64_t iospd_bufsep_bytes(const iospd_cpu_topology_t* topo,
                            uint32_t page_size) {
  uint32_t line = 0;
  if (topo != NULL)
    for (uint32_t i = 0; i < topo->cache_count; i++)
      if (topo->caches[i].line_size > line) line = topo->caches[i].line_size;
  if (line < 8) line = 64;
  uint64_t page = page_size >= 8 ? page_size : 4096u;
  return (uint64_t)(line / 8) * (page / 8) * page;
}

static bool large_pages(const iospd_timespan_t* ts) {
  for (uint32_t i = 0; i < ts->target_count; i++)
    if (ts->targets[i].large_pages) return true;
  return false;
}

bool iospd_bufsep_wanted(const iospd_profile_t* p, const iospd_timespan_t* ts) {
  if (large_pages(ts)) return false;
  switch (ts->buffer_separation) {
    case IOSPD_BUFSEP_PDE_CACHE_LINE:
      return true;
    case IOSPD_BUFSEP_SYSTEM_DEFAULT:
      return false;
    default:
      return p->ext.diskspd >= IOSPD_DISKSPD_23;
  }
}

bool iospd_bufsep_overruled(const iospd_timespan_t* ts) {
  return ts->buffer_separation == IOSPD_BUFSEP_PDE_CACHE_LINE &&
         large_pages(ts);
}

uint64_t iospd_run_bufsep(const iospd_profile_t* p, const iospd_timespan_t* ts,
                          const iospd_run_hooks_t* hooks,
                          const iospd_cpu_topology_t* topo,
                          uint32_t page_size) {
  if (iospd_bufsep_overruled(ts))
    iospd_run_sayf(hooks,
                   "WARNING: large pages (-l) take priority over buffer "
                   "separation (-bsp): the I/O buffers are placed on large "
                   "pages, not separated");
  return iospd_bufsep_wanted(p, ts) ? iospd_bufsep_bytes(topo, page_size) : 0;
}
