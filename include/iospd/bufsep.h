/* SPDX-License-Identifier: MIT */
/* -bs<n|p> (DISKSPD 2.3): where each thread's I/O buffers start. */
#ifndef IOSPD_BUFSEP_H
#define IOSPD_BUFSEP_H

#include "iospd/platform.h"
#include "iospd/profile.h"

/* The separation boundary DISKSPD computes: (largest cache line / 8) x
 * (page size / 8) x page size bytes; 16 MiB for 64-byte lines and 4 KiB
 * pages. The line is the largest line_size of topo's caches, 64 when the
 * topology lists none; page_size 0 is taken as 4096. */
uint64_t iospd_bufsep_bytes(const iospd_cpu_topology_t* topo,
                            uint32_t page_size);

/* Whether the timespan separates its threads' buffers: an explicit -bsp at
 * any level; not stated, at --diskspd=2.3; never with -bsn, at 2.2 without
 * -bsp, or when a target uses large pages (-l), which decide the placement
 * themselves. */
bool iospd_bufsep_wanted(const iospd_profile_t* p, const iospd_timespan_t* ts);

/* -l with an explicit -bsp: large pages take priority (the warning's
 * case). */
bool iospd_bufsep_overruled(const iospd_timespan_t* ts);

#endif
