/* SPDX-License-Identifier: MIT */
/* The queue front: starts the engine the profile names, from the table in
 * engines.c (whose "auto" entry is the policy below: psync for depth 1,
 * else io_uring when the kernel allows it, else kernel AIO for unbuffered
 * files, else a thread pool), then forwards every call through the
 * engine's private ops table (one indirect call per batch). Memory-mapped
 * files (-Sm) are attached to a side table instead, and a queue that has
 * any goes through mapped.c, which serves those itself. */
#include "posix/internal.h"

int iospd_posix_uring_start(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, iospd_err_t* err) {
#ifdef IOSPD_HAVE_URING
  return iospd_posix_uring_create(q, depth, flags, err);
#else
  (void)q;
  (void)depth;
  (void)flags;
  return iospd_err_set(err, IOSPD_ENOTSUP,
                       "this iospd was built without io_uring support "
                       "(liburing was not found at build time)");
#endif
}

/* The table entry that starts a queue with create, for its word. */
static const char* engine_word(int (*create)(iospd_plat_queue_t**, uint32_t,
                                             unsigned, iospd_err_t*)) {
  uint32_t n = 0;
  const iospd_engine_def_t* e = iospd_plat_engines(&n);
  for (uint32_t i = 0; i < n; i++)
    if (e[i].create == create) return e[i].name;
  return "auto";
}

/* A forced engine that cannot start: the kernel's reason, then the engine
 * that would work, found by making (and dropping) one: kernel AIO for
 * unbuffered files, else the thread pool. The run then exits 1. */
static int forced_failed(int rc, const iospd_engine_def_t* engine,
                         uint32_t depth, unsigned flags, iospd_err_t* err) {
  if (rc != IOSPD_ENOTSUP || err == NULL) return rc;
  iospd_err_t why = *err;
  const char* works = engine_word(iospd_posix_threads_create);
  iospd_plat_queue_t* probe = NULL;
  if (engine->create != iospd_posix_libaio_create &&
      (flags & IOSPD_QUEUE_UNBUFFERED) &&
      iospd_posix_libaio_create(&probe, depth, flags, NULL) == 0) {
    works = engine_word(iospd_posix_libaio_create);
    (void)probe->ops->destroy(probe);
  }
  return iospd_err_set_os(err, rc, why.os_code,
                          "%s; --engine=%s would work (--engine=%s picks it)",
                          why.msg, works, engine_word(iospd_posix_auto_create));
}

int iospd_posix_auto_create(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, iospd_err_t* err) {
  /* Depth 1: a plain pread/pwrite is one system call per I/O with nothing
   * to set up or reap, the cheapest way to run one I/O at a time (fio's
   * fastest engine at QD1 too). */
  if (flags & IOSPD_QUEUE_SYNC) {
    int rc = iospd_posix_psync_create(q, depth, flags, err);
    if (rc == 0) (*q)->name = IOSPD_POSIX_PSYNC_QD1_NAME;
    return rc;
  }
  /* Refused by the kernel (seccomp, kernel.io_uring_disabled, too old,
   * fs.aio-max-nr): fall back; the report names the engine that ran.
   * Kernel AIO only for unbuffered files: on the page cache it runs each
   * I/O inside io_submit, one at a time. */
  int rc = iospd_posix_uring_start(q, depth, flags, err);
  if (rc != IOSPD_ENOTSUP) return rc;
  if (flags & IOSPD_QUEUE_UNBUFFERED) {
    iospd_err_clear(err);
    rc = iospd_posix_libaio_create(q, depth, flags, err);
    if (rc != IOSPD_ENOTSUP) return rc;
  }
  iospd_err_clear(err);
  return iospd_posix_threads_create(q, depth, flags, err);
}

int iospd_plat_queue_create(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, int engine, iospd_err_t* err) {
  uint32_t count = 0;
  const iospd_engine_def_t* table = iospd_plat_engines(&count);
  if (engine < 0 || (uint32_t)engine >= count)
    return iospd_err_set(err, IOSPD_EINVAL, "unknown I/O engine %d", engine);
  if (depth == 0)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "a queue needs a depth of at least 1");
  const iospd_engine_def_t* e = &table[engine];
  int rc = e->create(q, depth, flags, err);
  if (rc != 0 && !(e->caps & IOSPD_ENGINE_CAP_POLICY) &&
      e->create != iospd_posix_threads_create)
    rc = forced_failed(rc, e, depth, flags, err);
  if (rc == 0) {
    (*q)->depth = depth;
    (*q)->mm = NULL;
    if ((*q)->name == NULL) (*q)->name = (*q)->ops->name;
  }
  return rc;
}

const char* iospd_plat_queue_engine(const iospd_plat_queue_t* q) {
  return q->name;
}

/* How many completions a pass takes before it issues their replacements.
 * With a device behind the queue (any unbuffered target) it is two: each
 * pair of completions starts the next two I/Os at once, so the device sees
 * a near-steady stream. Measured on a 2-CPU VM (virtio-blk, 4K random
 * reads at QD32, against fio): batches of 16 cost 10-15 % of the IOPS (fio
 * loses the same with iodepth_batch_submit=32), 4 a few percent, while 1
 * and 2 match fio; 2 needs half the kernel entries of 1, about 15 % less
 * CPU per I/O. Buffered I/O mostly completes inside the submit call (page
 * cache), so there batching only saves kernel entries and changes nothing
 * the target sees. Mapped files (-Sm) copy inside submit, one I/O at a
 * time, like psync. */
void iospd_plat_queue_traits(const iospd_plat_queue_t* q,
                             iospd_queue_traits_t* out) {
  out->submit_each = q->ops->submit_each || q->mm != NULL;
  out->reap_batch = 16;
  out->reap_batch_unbuffered = 2;
}

int64_t iospd_plat_queue_os_error(const iospd_plat_queue_t* q, char* text,
                                  size_t size) {
  /* errno values map one to one onto IOSPD_E* here; nothing is lost. */
  (void)q;
  if (text != NULL && size > 0) text[0] = '\0';
  return 0;
}

uint32_t iospd_plat_queue_depth(const iospd_plat_queue_t* q) {
  return q->kept != 0 && q->kept < q->depth ? q->kept : q->depth;
}

int iospd_plat_queue_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                            uint32_t* file_index, iospd_err_t* err) {
  /* -Sm files never reach the engine: mapped.c serves them. */
  if (f->flags & IOSPD_OPEN_MAPPED)
    return iospd_posix_mm_attach(q, f, file_index, err);
  return q->ops->attach(q, f, file_index, err);
}

int iospd_plat_queue_register_buffers(iospd_plat_queue_t* q, void* base,
                                      size_t len, iospd_err_t* err) {
  return q->ops->register_buffers(q, base, len, err);
}

int iospd_plat_queue_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                            uint32_t n, uint32_t* accepted) {
  if (IOSPD_UNLIKELY(q->mm != NULL))
    return iospd_posix_mm_submit(q, ios, n, accepted);
  return q->ops->submit(q, ios, n, accepted);
}

int iospd_plat_queue_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                          uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  if (IOSPD_UNLIKELY(q->mm != NULL))
    return iospd_posix_mm_reap(q, out, max, min, timeout_ms, got);
  return q->ops->reap(q, out, max, min, timeout_ms, got);
}

int iospd_plat_queue_submit_and_reap(iospd_plat_queue_t* q,
                                     const iospd_io_t* ios, uint32_t n,
                                     uint32_t* accepted, iospd_cqe_t* out,
                                     uint32_t max, uint32_t min,
                                     uint32_t timeout_ms, uint32_t* got) {
  if (IOSPD_LIKELY(q->mm == NULL && q->ops->submit_and_reap != NULL))
    return q->ops->submit_and_reap(q, ios, n, accepted, out, max, min,
                                   timeout_ms, got);
  *got = 0;
  int rc = iospd_plat_queue_submit(q, ios, n, accepted);
  if (rc < 0) return rc;
  return iospd_plat_queue_reap(q, out, max, min, timeout_ms, got);
}

int iospd_plat_queue_destroy(iospd_plat_queue_t* q) {
  if (q == NULL) return 0;
  /* Mapped I/O is never in flight: its completions are simply dropped. */
  iospd_posix_mm_free(q->mm);
  q->mm = NULL;
  return q->ops->destroy(q);
}
