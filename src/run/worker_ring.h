/* SPDX-License-Identifier: MIT */
/* DISKSPD 2.3's -u for the block worker (src/run/engine.c): which engine
 * a worker's queue uses, and how many I/Os go to the kernel per submit
 * call. Private to src/run. */
#ifndef IOSPD_RUN_WORKER_RING_H
#define IOSPD_RUN_WORKER_RING_H

#include "iospd/error.h"
#include "iospd/profile.h"

/* The engine index a worker's queue is created with: the profile's
 * (--engine=) without -u; with -u the platform's ring engine (the row with
 * IOSPD_ENGINE_CAP_RING: io_uring on Linux, IoRing on Windows), which an
 * --engine= naming another engine contradicts (IOSPD_EINVAL, naming both),
 * and which a platform without one cannot give (IOSPD_ENOTSUP). */
int iospd_ring_engine(const iospd_profile_t* p, const iospd_timespan_t* ts,
                      int* engine, iospd_err_t* err);

/* I/Os per submit call for a worker with slots request slots: 0 without -u;
 * the batch, or its percentage of slots (rounded down, at least 1; plain -u
 * is 25 %), never more than slots. */
uint32_t iospd_ring_batch(const iospd_timespan_t* ts, uint32_t slots);

#endif
