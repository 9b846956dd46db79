/* SPDX-License-Identifier: MIT */
/* The kernel AIO engine (io_setup / io_submit / io_getevents), for hosts
 * that refuse io_uring but allow the older calls (Docker's and containerd's
 * default seccomp profiles, kernel.io_uring_disabled, kernels before 5.1).
 * Only unbuffered (O_DIRECT) files are truly asynchronous here: the kernel
 * runs a buffered request inside io_submit, so a queue with one attached
 * keeps a single I/O in flight and says so (iospd_plat_queue_depth).
 *
 * Raw system calls, not the libaio library: its io_submit/io_getevents are
 * one-line wrappers around the same calls, and this way the build needs no
 * extra package and the error is the kernel's own errno.
 *
 * Requests live in a fixed table of depth iocbs allocated at create; a free
 * stack hands them out, the completion's obj pointer gives them back. The
 * core's tag rides in aio_data (bit 32: the file is unbuffered, so -EINVAL
 * reads as a misaligned request, as in uring.c). -Sw/-Sh durability comes
 * from the O_DSYNC the file was opened with (file.c), the same for every
 * engine: each write completes only once its data is stable. */
#include <linux/aio_abi.h>
#include <string.h>
#include <sys/syscall.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* Linux 4.18 */
#endif

#define AIO_UDATA_DIRECT (UINT64_C(1) << 32)
/* Destroy stops waiting for in-flight requests after this long. */
#define AIO_DRAIN_MS 30000u

typedef struct aio_file_s {
  int fd;
  uint16_t ioprio;
  uint64_t udata; /* AIO_UDATA_DIRECT or 0 */
} aio_file_t;

typedef struct aio_queue_s {
  iospd_plat_queue_t base; /* first: the front casts between the two */
  aio_context_t ctx;
  uint32_t cap;      /* iocbs, the most I/Os in flight */
  uint32_t inflight; /* submitted to the kernel, not yet reaped */
  struct iocb* iocbs;
  struct iocb** batch; /* io_submit's pointer array */
  uint32_t* free_stack;
  uint32_t nfree;
  struct io_event* events;
  /* Requests io_submit refused one by one (a bad descriptor, a kernel
   * without per-request priorities): they complete with their error in the
   * next reap, as on io_uring. A ring of cap entries. */
  iospd_cqe_t* failed;
  uint32_t failed_head, failed_count;
  bool no_ioprio; /* the kernel refused IOCB_FLAG_IOPRIO once */
  aio_file_t* files;
  uint32_t nfiles;
} aio_queue_t;

static long sys_io_setup(unsigned nr, aio_context_t* ctx) {
  return syscall(SYS_io_setup, nr, ctx);
}
static long sys_io_destroy(aio_context_t ctx) {
  return syscall(SYS_io_destroy, ctx);
}
static long sys_io_submit(aio_context_t ctx, long n, struct iocb** iocbs) {
  return syscall(SYS_io_submit, ctx, n, iocbs);
}
static long sys_io_getevents(aio_context_t ctx, long min, long max,
                             struct io_event* ev, struct timespec* ts) {
  return syscall(SYS_io_getevents, ctx, min, max, ev, ts);
}

static int aio_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                      uint32_t* file_index, iospd_err_t* err) {
  aio_queue_t* a = (aio_queue_t*)q;
  aio_file_t* grown =
      iospd_realloc(a->files, (a->nfiles + 1) * sizeof *a->files);
  if (grown == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory attaching '%s'",
                         f->path);
  a->files = grown;
  aio_file_t* e = &a->files[a->nfiles];
  e->fd = f->fd;
  e->ioprio = f->ioprio;
  e->udata = (f->flags & IOSPD_OPEN_NO_BUFFERING) ? AIO_UDATA_DIRECT : 0;
  /* A buffered file makes io_submit synchronous: one I/O at a time. */
  if (e->udata == 0) a->base.kept = 1;
  *file_index = a->nfiles++;
  return 0;
}

static int aio_register_buffers(iospd_plat_queue_t* q, void* base, size_t len,
                                iospd_err_t* err) {
  (void)q;
  (void)base;
  (void)len;
  (void)err;
  return 0; /* kernel AIO has no registered buffers */
}

static void fail_one(aio_queue_t* a, uint32_t tag, int32_t result) {
  uint32_t at = a->failed_head + a->failed_count;
  if (at >= a->cap) at -= a->cap;
  a->failed[at].tag = tag;
  a->failed[at].result = result;
  a->failed_count++;
}

/* Hot path: fills one iocb per I/O and hands the batch to the kernel with
 * one io_submit. A request the kernel refuses on its own (io_submit fails
 * on the first of the batch) completes with its error; the rest go again. */
static int aio_submit(iospd_plat_queue_t* q, const iospd_io_t* ios, uint32_t n,
                      uint32_t* accepted) {
  aio_queue_t* a = (aio_queue_t*)q;
  /* Room for both the kernel's and the refused requests' completions. */
  uint32_t room = a->cap - a->inflight - a->failed_count;
  if (n > room) n = room;
  *accepted = 0;
  uint32_t done = 0;
  while (done < n) {
    uint32_t k = 0;
    for (uint32_t i = done; i < n; i++, k++) {
      const iospd_io_t* io = &ios[i];
      static const aio_file_t bad_file = {.fd = -1};
      const aio_file_t* f = IOSPD_LIKELY(io->file_index < a->nfiles)
                                ? &a->files[io->file_index]
                                : &bad_file;
      uint32_t slot = a->free_stack[--a->nfree];
      struct iocb* cb = &a->iocbs[slot];
      memset(cb, 0, sizeof *cb);
      cb->aio_data = io->tag | f->udata;
      cb->aio_lio_opcode =
          io->op == IOSPD_OP_WRITE ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
      cb->aio_fildes = (uint32_t)f->fd;
      cb->aio_buf = (uint64_t)(uintptr_t)io->buf;
      cb->aio_nbytes = io->length;
      cb->aio_offset = (int64_t)io->offset;
      if (f->ioprio != 0 && !a->no_ioprio) {
        cb->aio_flags = IOCB_FLAG_IOPRIO;
        cb->aio_reqprio = (int16_t)f->ioprio;
      }
      a->batch[k] = cb;
    }
    long r;
    do {
      r = sys_io_submit(a->ctx, (long)k, a->batch);
    } while (r < 0 && errno == EINTR);
    uint32_t took = r > 0 ? (uint32_t)r : 0;
    /* Give back the iocbs the kernel did not take (in reverse, so the
     * stack stays as it was). */
    for (uint32_t j = k; j > took; j--)
      a->free_stack[a->nfree++] =
          (uint32_t)(a->batch[j - 1] - a->iocbs);
    a->inflight += took;
    done += took;
    if (took == k) break;
    /* Part of the batch went: submit again from the first one left, which
     * then fails on its own if it was the reason. */
    if (r > 0) continue;
    if (errno == EAGAIN) break; /* kernel short: resubmit later */
    int e = errno;
    if (e == EINVAL && !a->no_ioprio &&
        (a->batch[0]->aio_flags & IOCB_FLAG_IOPRIO)) {
      a->no_ioprio = true; /* before 4.18: run without the hint */
      continue;
    }
    /* The first request itself is bad: it completes with the error. */
    const iospd_io_t* io = &ios[done];
    bool direct = io->file_index < a->nfiles &&
                  a->files[io->file_index].udata != 0;
    fail_one(a, io->tag, iospd_posix_io_error(e, direct));
    done++;
  }
  *accepted = done;
  return 0;
}

static uint32_t take_failed(aio_queue_t* a, iospd_cqe_t* out, uint32_t max) {
  uint32_t n = a->failed_count < max ? a->failed_count : max;
  for (uint32_t i = 0; i < n; i++) {
    out[i] = a->failed[a->failed_head];
    if (++a->failed_head == a->cap) a->failed_head = 0;
  }
  a->failed_count -= n;
  return n;
}

/* Hot path: one io_getevents for at least min completions (at most the
 * timeout), their iocbs back on the free stack. */
static int aio_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                    uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  aio_queue_t* a = (aio_queue_t*)q;
  *got = 0;
  if (max == 0) return 0;
  uint32_t n = take_failed(a, out, max);
  if (n >= min) min = 0;
  else min -= n;
  if (min > a->inflight) min = a->inflight;
  uint32_t want = max - n;
  if (want > a->inflight) want = a->inflight;
  if (want == 0) {
    *got = n;
    return 0;
  }
  struct timespec ts = {.tv_sec = timeout_ms / 1000u,
                        .tv_nsec = (long)(timeout_ms % 1000u) * 1000000L};
  if (min == 0) ts.tv_sec = ts.tv_nsec = 0;
  long r = sys_io_getevents(a->ctx, (long)min, (long)want, a->events,
                            timeout_ms == UINT32_MAX && min > 0 ? NULL : &ts);
  if (r < 0) {
    *got = n;
    if (errno == EINTR) return 0; /* a signal: hand out what is there */
    return iospd_posix_translate(errno);
  }
  for (long i = 0; i < r; i++) {
    const struct io_event* ev = &a->events[i];
    struct iocb* cb = (struct iocb*)(uintptr_t)ev->obj;
    a->free_stack[a->nfree++] = (uint32_t)(cb - a->iocbs);
    out[n].tag = (uint32_t)ev->data;
    out[n].result = (int32_t)ev->res;
    if (IOSPD_UNLIKELY(ev->res < 0))
      out[n].result = iospd_posix_io_error(
          (int)-ev->res, (ev->data & AIO_UDATA_DIRECT) != 0);
    n++;
  }
  a->inflight -= (uint32_t)r;
  *got = n;
  return 0;
}

/* Buffers must outlive the kernel's use of them: wait for every request
 * (kernel AIO cannot cancel file I/O), then free the context. */
/* Frees a queue and its arrays (any may be NULL; so may a). */
static void free_queue(aio_queue_t* a) {
  if (a == NULL) return;
  iospd_free(a->iocbs);
  iospd_free(a->batch);
  iospd_free(a->free_stack);
  iospd_free(a->events);
  iospd_free(a->failed);
  iospd_free(a->files);
  iospd_free(a);
}

static int aio_destroy(iospd_plat_queue_t* q) {
  aio_queue_t* a = (aio_queue_t*)q;
  uint32_t waited_ms = 0;
  while (a->inflight > 0 && waited_ms < AIO_DRAIN_MS) {
    struct timespec ts = {.tv_sec = 1, .tv_nsec = 0};
    long r = sys_io_getevents(a->ctx, 1, (long)a->cap, a->events, &ts);
    if (r < 0 && errno != EINTR) break;
    if (r > 0) a->inflight -= (uint32_t)r;
    if (r == 0) waited_ms += 1000;
  }
  int drained = a->inflight == 0 ? 0 : IOSPD_EIO;
  /* io_destroy itself also waits for what is still running. */
  (void)sys_io_destroy(a->ctx);
  free_queue(a);
  return drained;
}

static const iospd_posix_queue_ops_t aio_ops = {
    .name = "libaio",
    .attach = aio_attach,
    .register_buffers = aio_register_buffers,
    .submit = aio_submit,
    .reap = aio_reap,
    .submit_and_reap = NULL,
    .destroy = aio_destroy,
};

int iospd_posix_libaio_create(iospd_plat_queue_t** q, uint32_t depth,
                              unsigned flags, iospd_err_t* err) {
  aio_queue_t* a = iospd_calloc(1, sizeof *a);
  if (a != NULL) {
    a->iocbs = iospd_calloc(depth, sizeof *a->iocbs);
    a->batch = iospd_calloc(depth, sizeof *a->batch);
    a->free_stack = iospd_calloc(depth, sizeof *a->free_stack);
    a->events = iospd_calloc(depth, sizeof *a->events);
    a->failed = iospd_calloc(depth, sizeof *a->failed);
  }
  if (a == NULL || a->iocbs == NULL || a->batch == NULL ||
      a->free_stack == NULL || a->events == NULL || a->failed == NULL) {
    free_queue(a);
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory creating a queue of depth %u", depth);
  }
  if (sys_io_setup(depth, &a->ctx) < 0) {
    int e = errno;
    free_queue(a);
    char buf[128];
    const char* why = strerror_r(e, buf, sizeof buf);
    if (e == EAGAIN)
      return iospd_err_set_os(
          err, IOSPD_ENOTSUP, e,
          "kernel AIO is not available (io_setup(%u): %s): the system-wide "
          "limit fs.aio-max-nr is reached (see /proc/sys/fs/aio-nr)",
          depth, why);
    if (e == ENOSYS || e == EPERM || e == EACCES || e == EINVAL ||
        e == ENOMEM)
      return iospd_err_set_os(
          err, IOSPD_ENOTSUP, e,
          "kernel AIO is not available (io_setup: %s); it may be disabled by "
          "a seccomp policy or a kernel built without CONFIG_AIO",
          why);
    return iospd_posix_err(err, e, "io_setup(%u)", depth);
  }
  for (uint32_t i = 0; i < depth; i++) a->free_stack[i] = depth - 1 - i;
  a->nfree = depth;
  a->cap = depth;
  a->base.ops = &aio_ops;
  /* Without IOSPD_QUEUE_UNBUFFERED the files may be buffered, and io_submit
   * would run them one at a time. */
  if (!(flags & IOSPD_QUEUE_UNBUFFERED)) a->base.kept = 1;
  *q = &a->base;
  return 0;
}
