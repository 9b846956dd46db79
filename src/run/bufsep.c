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
  if (!iospd_bufsep_wanted(p, ts)) return 0;
  uint64_t sep = iospd_bufsep_bytes(topo, page_size);
  /* Each separated buffer may reserve a boundary's worth of address space.
   * A 32-bit build (which DISKSPD 2.3 does not ship) runs out of it with
   * many threads (-t1000: 16 GB): there the buffers keep the system's
   * placement, and the run says so rather than failing or pretending. */
  uint64_t buffers = 0;
  for (uint32_t i = 0; i < ts->target_count; i++)
    buffers += ts->thread_count > 0 ? ts->thread_count
                                    : ts->targets[i].threads_per_file;
  if (buffers > 0 && sep > (uint64_t)(SIZE_MAX / 8) / buffers) {
    iospd_run_sayf(hooks, IOSPD_MSG_WARNING,
                   "buffer separation (-bs) is off for this run: %llu "
                   "thread buffers on %llu-byte boundaries exceed this "
                   "build's address space, so the buffers use the system's "
                   "placement (-bsn)",
                   (unsigned long long)buffers, (unsigned long long)sep);
    return 0;
  }
  return sep;
}
