/* SPDX-License-Identifier: MIT */
/* -bs (DISKSPD 2.3) buffer separation: the boundary and when it applies
 * (iospd/bufsep.h). The worker allocates each target buffer aligned to it
 * (engine.c, setup_target), so no two threads' buffers share a boundary's
 * worth of address space. */
#include "iospd/bufsep.h"

#include "iospd/diskspd23.h"

#include "run_internal.h"

uint64_t iospd_bufsep_bytes(const iospd_cpu_topology_t* topo,
                            uint32_t page_size) {
  uint32_t line = 0;
  if (topo != NULL)
    for (uint32_t i = 0; i < topo->cache_count; i++)
      if (topo->caches[i].line_size > line) line = topo->caches[i].line_size;
  /* One formula for the run and the -Rp line (iospd/diskspd23.h). */
  return iospd_buffer_separation_bytes(line >= 8 ? line : 0,
                                       page_size >= 8 ? page_size : 0);
}

static bool large_pages(const iospd_timespan_t* ts) {
  for (uint32_t i = 0; i < ts->target_count; i++)
    if (ts->targets[i].large_pages) return true;
  return false;
}

bool iospd_bufsep_wanted(const iospd_profile_t* p, const iospd_timespan_t* ts) {
  return !large_pages(ts) &&
         iospd_buffer_separation_of(p, ts) == IOSPD_BUFSEP_PDE_CACHE_LINE;
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
    iospd_run_sayf(hooks, IOSPD_MSG_DISKSPD_WARNING,
                   "large pages (-l) take priority over buffer "
                   "separation (-bsp): the I/O buffers are placed on large "
                   "pages, not separated");
  return iospd_bufsep_wanted(p, ts) ? iospd_bufsep_bytes(topo, page_size) : 0;
}
