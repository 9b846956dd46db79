/* SPDX-License-Identifier: MIT */
/* The queue front on Windows, as src/posix/queue.c on Linux: starts the
 * engine the profile names from the table in engines.c, then forwards
 * every call through the engine's private ops table (one indirect call,
 * which replaces the test of the mode the single IOCP queue made per
 * I/O). */
#include "win/internal.h"

int iospd_win_auto_create(iospd_plat_queue_t** q, uint32_t depth,
                          unsigned flags, iospd_err_t* err) {
  /* -x asks for completion routines, else the port (handles opened for
   * synchronous I/O use blocking calls inside either). */
  return (flags & IOSPD_QUEUE_COMPLETION_ROUTINES)
             ? iospd_win_routines_create(q, depth, flags, err)
             : iospd_win_iocp_create(q, depth, flags, err);
}

int iospd_plat_queue_create(iospd_plat_queue_t** q, uint32_t depth,
                            unsigned flags, int engine, iospd_err_t* err) {
  uint32_t count = 0;
  const iospd_engine_def_t* table = iospd_plat_engines(&count);
  *q = NULL;
  if (engine < 0 || (uint32_t)engine >= count)
    return iospd_err_set(err, IOSPD_EINVAL, "unknown I/O engine %d", engine);
  int rc = table[engine].create(q, depth, flags, err);
  if (rc == 0) (*q)->depth = depth;
  return rc;
}

const char* iospd_plat_queue_engine(const iospd_plat_queue_t* q) {
  return q->ops->name;
}

uint32_t iospd_plat_queue_depth(const iospd_plat_queue_t* q) {
  return q->depth;
}

/* Completions come up to 16 per reap, as DISKSPD 2.2 takes them from
 * GetQueuedCompletionStatusEx, whatever the caching: submitting costs a
 * call per I/O anyway, so smaller batches would only add calls. */
void iospd_plat_queue_traits(const iospd_plat_queue_t* q,
                             iospd_queue_traits_t* out) {
  out->submit_each = q->ops->submit_each;
  out->reap_batch = 16;
  out->reap_batch_unbuffered = 16;
}

int64_t iospd_plat_queue_os_error(const iospd_plat_queue_t* q, char* text,
                                  size_t size) {
  if (q != NULL && q->ops->os_error != NULL)
    return q->ops->os_error(q, text, size);
  if (text != NULL && size > 0) text[0] = '\0';
  return 0;
}

int iospd_plat_queue_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                            uint32_t* file_index, iospd_err_t* err) {
  return q->ops->attach(q, f, file_index, err);
}

int iospd_plat_queue_register_buffers(iospd_plat_queue_t* q, void* base,
                                      size_t len, iospd_err_t* err) {
  /* Optional by contract (IOCP has no fixed buffers). */
  return q->ops->register_buffers != NULL
             ? q->ops->register_buffers(q, base, len, err)
             : 0;
}

int iospd_plat_queue_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                            uint32_t n, uint32_t* accepted) {
  return q->ops->submit(q, ios, n, accepted);
}

int iospd_plat_queue_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                          uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  *got = 0;
  if (max == 0) return 0;
  if (min > max) min = max;
  return q->ops->reap(q, out, max, min, timeout_ms, got);
}

/* No Windows engine has a combined call yet: submit, then reap. */
int iospd_plat_queue_submit_and_reap(iospd_plat_queue_t* q,
                                     const iospd_io_t* ios, uint32_t n,
                                     uint32_t* accepted, iospd_cqe_t* out,
                                     uint32_t max, uint32_t min,
                                     uint32_t timeout_ms, uint32_t* got) {
  *got = 0;
  int rc = q->ops->submit(q, ios, n, accepted);
  if (rc < 0) return rc;
  return iospd_plat_queue_reap(q, out, max, min, timeout_ms, got);
}

int iospd_plat_queue_destroy(iospd_plat_queue_t* q) {
  return q == NULL ? 0 : q->ops->destroy(q);
}
