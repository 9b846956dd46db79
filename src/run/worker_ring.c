/* SPDX-License-Identifier: MIT */
/* -u[n][<batch>[p]] (DISKSPD 2.3) for the block worker: the ring engine and
 * the submit batch (worker_ring.h). The batching itself is in engine.c's
 * submit_and_reap: whole batches, one submit call each, the last together
 * with the wait; a partial batch waits for more completions unless nothing
 * is in flight. */
#include "worker_ring.h"

#include "iospd/platform.h"

int iospd_ring_engine(const iospd_profile_t* p, const iospd_timespan_t* ts,
                      int* engine, iospd_err_t* err) {
  *engine = p->ext.engine;
  if (!ts->ioring.enabled) return 0;
  uint32_t n = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  int ring = -1;
  for (uint32_t i = 0; i < n; i++)
    if (e[i].caps & IOSPD_ENGINE_CAP_RING) {
      ring = (int)i;
      break;
    }
  if (ring < 0)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "-u submits through a ring engine, and this "
                         "platform has none; drop -u");
  bool policy = p->ext.engine >= 0 && (uint32_t)p->ext.engine < n &&
                (e[p->ext.engine].caps & IOSPD_ENGINE_CAP_POLICY);
  if (!policy && p->ext.engine != ring)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "-u submits through %s, but --engine=%s names "
                         "another engine; drop -u or the --engine= switch",
                         e[ring].name,
                         p->ext.engine >= 0 && (uint32_t)p->ext.engine < n
                             ? e[p->ext.engine].name
                             : "?");
  *engine = ring;
  return 0;
}

uint32_t iospd_ring_batch(const iospd_timespan_t* ts, uint32_t slots) {
  if (!ts->ioring.enabled || slots == 0) return 0;
  const iospd_ioring_t* r = &ts->ioring;
  uint64_t b;
  if (r->batch == 0 || r->batch_percent) {
    uint32_t pct = r->batch ? r->batch : IOSPD_IORING_DEFAULT_BATCH_PCT;
    b = (uint64_t)slots * pct / 100u;
  } else {
    b = r->batch;
  }
  if (b == 0) b = 1;
  return b > slots ? slots : (uint32_t)b;
}
