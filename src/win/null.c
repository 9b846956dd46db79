/* SPDX-License-Identifier: MIT */
/* The null engine (--engine=null): every I/O completes inside submit with
 * all its bytes, and nothing reaches the target (fio's null engine, t/io_uring
 * -N), so a run measures iospd's own cost per I/O. The completions wait in
 * a fixed ring (depth entries, allocated at create) until reap hands them
 * out. The same engine as src/posix/null.c, behind Windows's front. */
#include "iospd/alloc.h"
#include "win/internal.h"

typedef struct null_queue_s {
  iospd_plat_queue_t base; /* first: the front casts between the two */
  uint32_t depth;
  uint32_t head;  /* next completion to hand out */
  uint32_t count; /* completions waiting */
  uint32_t nfiles;
  iospd_cqe_t* ring;
} null_queue_t;

static int null_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                       uint32_t* file_index, iospd_err_t* err) {
  (void)f;
  (void)err;
  *file_index = ((null_queue_t*)q)->nfiles++;
  return 0;
}

static int null_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                       uint32_t n, uint32_t* accepted) {
  null_queue_t* p = (null_queue_t*)q;
  uint32_t i = 0;
  /* Only what the ring can hold; the core resubmits the rest. */
  for (; i < n && p->count < p->depth; i++) {
    uint32_t slot = p->head + p->count;
    if (slot >= p->depth) slot -= p->depth;
    p->ring[slot].tag = ios[i].tag;
    p->ring[slot].result = ios[i].file_index < p->nfiles
                               ? (int32_t)ios[i].length
                               : IOSPD_EINVAL;
    p->count++;
  }
  *accepted = i;
  return 0;
}

static int null_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                     uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  (void)min;        /* everything submitted has already completed */
  (void)timeout_ms; /* so there is never anything to wait for */
  null_queue_t* p = (null_queue_t*)q;
  uint32_t n = p->count < max ? p->count : max;
  for (uint32_t i = 0; i < n; i++) {
    out[i] = p->ring[p->head];
    if (++p->head == p->depth) p->head = 0;
  }
  p->count -= n;
  *got = n;
  return 0;
}

static int null_destroy(iospd_plat_queue_t* q) {
  null_queue_t* p = (null_queue_t*)q;
  iospd_free(p->ring);
  iospd_free(p);
  return 0; /* nothing is ever in flight in the OS */
}

static const iospd_win_queue_ops_t null_ops = {
    .name = "null",
    .submit_each = false,
    .attach = null_attach,
    .submit = null_submit,
    .reap = null_reap,
    .destroy = null_destroy,
};

int iospd_win_null_create(iospd_plat_queue_t** q, uint32_t depth,
                          unsigned flags, iospd_err_t* err) {
  (void)flags;
  *q = NULL;
  if (depth == 0)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "a queue needs room for at least one I/O");
  null_queue_t* p = iospd_calloc(1, sizeof *p);
  iospd_cqe_t* ring = iospd_calloc(depth, sizeof *ring);
  if (p == NULL || ring == NULL) {
    iospd_free(p);
    iospd_free(ring);
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory creating a queue of depth %u", depth);
  }
  p->base.ops = &null_ops;
  p->depth = depth;
  p->ring = ring;
  *q = &p->base;
  return 0;
}
