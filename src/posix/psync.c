/* SPDX-License-Identifier: MIT */
/* The fallback engine for hosts that refuse io_uring: each I/O runs with
 * pread/pwrite inside submit, and its completion waits in a fixed ring (depth
 * entries, allocated at create) until reap hands it out. */
#include <sys/syscall.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

typedef struct psync_file_s {
  int fd;
  uint16_t ioprio;
  bool direct; /* O_DIRECT: EINVAL means misaligned */
} psync_file_t;

typedef struct psync_queue_s {
  iospd_plat_queue_t base; /* first: the front casts between the two */
  uint32_t depth;
  uint32_t head;  /* next completion to hand out */
  uint32_t count; /* completions waiting */
  iospd_cqe_t* ring;
  psync_file_t* files;
  uint32_t nfiles;
} psync_queue_t;

static int psync_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                        uint32_t* file_index, iospd_err_t* err) {
  psync_queue_t* p = (psync_queue_t*)q;
  psync_file_t* grown =
      iospd_realloc(p->files, (p->nfiles + 1) * sizeof *p->files);
  if (grown == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory attaching '%s'",
                         f->path);
  p->files = grown;
  p->files[p->nfiles].fd = f->fd;
  p->files[p->nfiles].ioprio = f->ioprio;
  p->files[p->nfiles].direct = (f->flags & IOSPD_OPEN_NO_BUFFERING) != 0;
  /* Synchronous I/O runs on the attaching (worker) thread, so the thread's
   * I/O priority is the file's (-I1/-I2); refusal only costs the hint. */
  if (f->ioprio != 0) {
    long r =
        syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, (int)f->ioprio);
    (void)r;
  }
  *file_index = p->nfiles++;
  return 0;
}

static int psync_register_buffers(iospd_plat_queue_t* q, void* base, size_t len,
                                  iospd_err_t* err) {
  (void)q;
  (void)base;
  (void)len;
  (void)err;
  return 0; /* nothing to gain without a kernel ring */
}

static int psync_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                        uint32_t n, uint32_t* accepted) {
  psync_queue_t* p = (psync_queue_t*)q;
  uint32_t i = 0;
  /* Accept only what the completion ring can hold; the engine resubmits the
   * rest after its next reap. */
  for (; i < n && p->count < p->depth; i++) {
    const iospd_io_t* io = &ios[i];
    int32_t res;
    if (IOSPD_UNLIKELY(io->file_index >= p->nfiles)) {
      res = IOSPD_EINVAL;
    } else {
      const psync_file_t* f = &p->files[io->file_index];
      int fd = f->fd;
      ssize_t r;
      do {
        r = io->op == IOSPD_OP_WRITE
                ? pwrite(fd, io->buf, io->length, (off_t)io->offset)
                : pread(fd, io->buf, io->length, (off_t)io->offset);
      } while (r < 0 && errno == EINTR);
      res = r >= 0 ? (int32_t)r : iospd_posix_io_error(errno, f->direct);
    }
    uint32_t slot = p->head + p->count;
    if (slot >= p->depth) slot -= p->depth;
    p->ring[slot].tag = io->tag;
    p->ring[slot].result = res;
    p->count++;
  }
  *accepted = i;
  return 0;
}

static int psync_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                      uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  (void)min;        /* everything submitted has already completed */
  (void)timeout_ms; /* so there is never anything to wait for */
  psync_queue_t* p = (psync_queue_t*)q;
  uint32_t n = p->count < max ? p->count : max;
  for (uint32_t i = 0; i < n; i++) {
    out[i] = p->ring[p->head];
    if (++p->head == p->depth) p->head = 0;
  }
  p->count -= n;
  *got = n;
  return 0;
}

/* Both halves directly, without the front's two indirect calls. */
static int psync_submit_and_reap(iospd_plat_queue_t* q, const iospd_io_t* ios,
                                 uint32_t n, uint32_t* accepted,
                                 iospd_cqe_t* out, uint32_t max, uint32_t min,
                                 uint32_t timeout_ms, uint32_t* got) {
  (void)psync_submit(q, ios, n, accepted);
  return psync_reap(q, out, max, min, timeout_ms, got);
}

static int psync_destroy(iospd_plat_queue_t* q) {
  psync_queue_t* p = (psync_queue_t*)q;
  iospd_free(p->ring);
  iospd_free(p->files);
  iospd_free(p);
  return 0; /* synchronous: nothing is ever in flight */
}

static const iospd_posix_queue_ops_t psync_ops = {
    .name = "psync",
    .submit_each = true,
    .attach = psync_attach,
    .register_buffers = psync_register_buffers,
    .submit = psync_submit,
    .reap = psync_reap,
    .submit_and_reap = psync_submit_and_reap,
    .destroy = psync_destroy,
};

int iospd_posix_psync_create(iospd_plat_queue_t** q, uint32_t depth,
                             unsigned flags, iospd_err_t* err) {
  (void)flags;
  psync_queue_t* p = iospd_calloc(1, sizeof *p);
  iospd_cqe_t* ring = iospd_calloc(depth, sizeof *ring);
  if (p == NULL || ring == NULL) {
    iospd_free(p);
    iospd_free(ring);
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory creating a queue of depth %u", depth);
  }
  p->base.ops = &psync_ops;
  p->base.kept = 1; /* one I/O at a time, whatever the depth */
  p->depth = depth;
  p->ring = ring;
  *q = &p->base;
  return 0;
}
