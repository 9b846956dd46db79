/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's -u for the block worker (src/run/engine.c): how many I/Os
 * go to the kernel per submit call (the engine: iospd_ring_engine,
 * iospd/engine.h). Private to src/run. */
#ifndef IOSPD_RUN_WORKER_RING_H
#define IOSPD_RUN_WORKER_RING_H

#include "iospd/engine.h"

/* I/Os per submit call for a worker with slots request slots: 0 without -u;
 * the batch, or its percentage of slots (rounded down, at least 1; plain -u
 * is 25 %), never more than slots. */
uint32_t iospd_ring_batch(const iospd_timespan_t* ts, uint32_t slots);

#endif
