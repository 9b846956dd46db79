/* SPDX-License-Identifier: MIT */
/* The io_uring engine (liburing >= 2.3). One ring per worker queue; it may be
 * created and set up on any thread, and belongs (SINGLE_ISSUER) to the thread
 * that first submits to it, which must also reap from it. Files are
 * registered as fixed files, buffers optionally as fixed buffers; submit is
 * one io_uring_submit per batch, reap consumes CQEs without a system call
 * when enough are already posted. */
#include <liburing.h>
#include <string.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

/* Sparse fixed-file table size. Workers rarely have more targets; files past
 * this run with plain descriptors. */
#define URING_FIXED_FILES 64u
/* user_data layout: bits 0-31 the core's tag, bit 32 set when the file is
 * unbuffered (so -EINVAL can be reported as an alignment error). Anything
 * with higher bits set is ours, not the core's: the cancel request at
 * destroy, and liburing's internal timeout entry (LIBURING_UDATA_TIMEOUT,
 * all ones) on kernels without EXT_ARG. */
#define URING_UDATA_DIRECT (UINT64_C(1) << 32)
#define URING_UDATA_CANCEL (UINT64_C(1) << 40)

typedef struct uring_file_s {
  int fd; /* fixed-table index when fixed, else the descriptor */
  bool fixed;
  uint16_t ioprio;
  uint64_t udata; /* URING_UDATA_DIRECT or 0, or'ed into user_data */
} uring_file_t;

typedef struct uring_queue_s {
  iospd_plat_queue_t base; /* first: the front casts between the two */
  struct io_uring ring;
  uint32_t cap;      /* most I/Os in flight: depth, bounded by the CQ size */
  uint32_t inflight; /* accepted and not yet reaped */
  bool sparse_tried, sparse_ok;
  bool needs_enable; /* created R_DISABLED: the first submitter enables it */
  uint32_t fixed_used;
  uint8_t* buf_base; /* registered buffer region, or NULL */
  size_t buf_len;
  uring_file_t* files;
  uint32_t nfiles;
} uring_queue_t;

static int uring_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                        uint32_t* file_index, iospd_err_t* err) {
  uring_queue_t* u = (uring_queue_t*)q;
  uring_file_t* grown =
      iospd_realloc(u->files, (u->nfiles + 1) * sizeof *u->files);
  if (grown == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory attaching '%s'",
                         f->path);
  u->files = grown;
  uring_file_t* e = &u->files[u->nfiles];
  e->fd = f->fd;
  e->fixed = false;
  e->udata = (f->flags & IOSPD_OPEN_NO_BUFFERING) ? URING_UDATA_DIRECT : 0;
  e->ioprio = f->ioprio;

  /* Fixed files save the kernel an fd lookup and refcount per I/O. A sparse
   * table (5.19+) lets files be added one by one; without it, plain
   * descriptors work the same, just slightly slower. */
  if (!u->sparse_tried) {
    u->sparse_tried = true;
    u->sparse_ok =
        io_uring_register_files_sparse(&u->ring, URING_FIXED_FILES) == 0;
  }
  if (u->sparse_ok && u->fixed_used < URING_FIXED_FILES) {
    int fd = f->fd;
    if (io_uring_register_files_update(&u->ring, u->fixed_used, &fd, 1) == 1) {
      e->fd = (int)u->fixed_used++;
      e->fixed = true;
    }
  }
  *file_index = u->nfiles++;
  return 0;
}

static int uring_register_buffers(iospd_plat_queue_t* q, void* base, size_t len,
                                  iospd_err_t* err) {
  uring_queue_t* u = (uring_queue_t*)q;
  if (u->buf_base != NULL)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "buffers are already registered with this queue");
  struct iovec iov = {.iov_base = base, .iov_len = len};
  int rc = io_uring_register_buffers(&u->ring, &iov, 1);
  if (rc == 0) {
    u->buf_base = base;
    u->buf_len = len;
    return 0;
  }
  /* Fixed buffers are an optimisation. ENOMEM (RLIMIT_MEMLOCK), EOVERFLOW or
   * EINVAL (a region over 1 GiB), EFAULT (huge or odd mappings): keep using
   * ordinary buffers. */
  if (rc == -ENOMEM || rc == -EOVERFLOW || rc == -EINVAL || rc == -EFAULT ||
      rc == -EOPNOTSUPP)
    return 0;
  return iospd_posix_err(err, -rc, "io_uring_register_buffers");
}

/* liburing 2.3 declares io_uring_enable_rings but does not export it (fixed
 * in 2.4), so issue the registration directly. */
static int enable_rings(struct io_uring* ring) {
  return io_uring_register((unsigned)ring->ring_fd,
                           IORING_REGISTER_ENABLE_RINGS, NULL, 0);
}

/* Hot path: one SQE per I/O into the SQ, not yet handed to the kernel. */
static int prep(uring_queue_t* u, const iospd_io_t* ios, uint32_t n,
                uint32_t* accepted) {
  if (IOSPD_UNLIKELY(u->needs_enable)) {
    /* The ring was created disabled, so its single issuer is whichever
     * thread submits first: the worker, even if the controller created the
     * queue. Happens once per queue. */
    int rc = enable_rings(&u->ring);
    if (rc < 0) {
      *accepted = 0;
      return iospd_posix_translate(-rc);
    }
    u->needs_enable = false;
  }
  uint32_t room = u->cap - u->inflight;
  if (n > room) n = room;
  uint32_t i = 0;
  for (; i < n; i++) {
    const iospd_io_t* io = &ios[i];
    struct io_uring_sqe* sqe = io_uring_get_sqe(&u->ring);
    if (IOSPD_UNLIKELY(sqe == NULL)) break; /* SQ full: short submit */
    static const uring_file_t bad_file = {.fd = -1};
    /* An unknown file index becomes a request on fd -1, which completes
     * with -EBADF like any other failed I/O. */
    const uring_file_t* f = IOSPD_LIKELY(io->file_index < u->nfiles)
                                ? &u->files[io->file_index]
                                : &bad_file;
    uint8_t* b = io->buf;
    uintptr_t rel = (uintptr_t)b - (uintptr_t)u->buf_base;
    bool fixed_buf = u->buf_base != NULL &&
                     (uintptr_t)b >= (uintptr_t)u->buf_base &&
                     rel + io->length <= u->buf_len;
    if (io->op == IOSPD_OP_WRITE) {
      if (fixed_buf)
        io_uring_prep_write_fixed(sqe, f->fd, b, io->length, io->offset, 0);
      else
        io_uring_prep_write(sqe, f->fd, b, io->length, io->offset);
    } else {
      if (fixed_buf)
        io_uring_prep_read_fixed(sqe, f->fd, b, io->length, io->offset, 0);
      else
        io_uring_prep_read(sqe, f->fd, b, io->length, io->offset);
    }
    if (f->fixed) sqe->flags |= IOSQE_FIXED_FILE;
    sqe->ioprio = f->ioprio;
    io_uring_sqe_set_data64(sqe, io->tag | f->udata);
  }
  *accepted = i;
  u->inflight += i;
  return 0;
}

/* Hot path: the batch's SQEs, then one io_uring_submit. */
static int uring_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                        uint32_t n, uint32_t* accepted) {
  uring_queue_t* u = (uring_queue_t*)q;
  int prc = prep(u, ios, n, accepted);
  if (prc < 0 || *accepted == 0) return prc;
  /* The SQEs are in the ring whatever io_uring_submit says: EAGAIN/EBUSY
   * (kernel short of resources) or EINTR leave them there for the next
   * submit or reap, which always enters the kernel with them. */
  int rc = io_uring_submit(&u->ring);
  if (rc < 0 && rc != -EAGAIN && rc != -EBUSY && rc != -EINTR)
    return iospd_posix_translate(-rc);
  return 0;
}

/* Copies up to max posted CQEs out and releases their slots with one
 * io_uring_cq_advance (a store-release of the CQ head: the kernel may reuse
 * the entries only after we have read them). Skips our internal entries. */
static uint32_t consume(uring_queue_t* u, iospd_cqe_t* out, uint32_t max) {
  struct io_uring_cqe* cqe;
  unsigned head, seen = 0;
  uint32_t n = 0;
  io_uring_for_each_cqe(&u->ring, head, cqe) {
    uint64_t data = io_uring_cqe_get_data64(cqe);
    if (IOSPD_LIKELY(data <= (URING_UDATA_DIRECT | UINT32_MAX))) {
      if (n == max) break;
      out[n].tag = (uint32_t)data;
      out[n].result = cqe->res;
      if (IOSPD_UNLIKELY(cqe->res < 0))
        out[n].result =
            iospd_posix_io_error(-cqe->res, (data & URING_UDATA_DIRECT) != 0);
      n++;
    }
    seen++;
  }
  if (seen > 0) io_uring_cq_advance(&u->ring, seen);
  u->inflight -= n;
  return n;
}

static int uring_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                      uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  uring_queue_t* u = (uring_queue_t*)q;
  *got = 0;
  if (max == 0) return 0;
  /* Never wait for more than can come back. */
  if (min > u->inflight) min = u->inflight;
  if (min > max) min = max;
  bool pending_sqes = io_uring_sq_ready(&u->ring) > 0;
  unsigned ready = io_uring_cq_ready(&u->ring);
  int rc = 0;
  if (min == 0) {
    /* Polling. Completions may wait for task work that runs only when this
     * thread enters the kernel, so an empty CQ is worth one cheap enter. */
    if (pending_sqes || (ready == 0 && u->inflight > 0))
      rc = io_uring_submit_and_get_events(&u->ring);
  } else if (ready < min || pending_sqes) {
    struct io_uring_cqe* cqe;
    struct __kernel_timespec ts = {
        .tv_sec = timeout_ms / 1000u,
        .tv_nsec = (long long)(timeout_ms % 1000u) * 1000000};
    rc = io_uring_submit_and_wait_timeout(
        &u->ring, &cqe, min, timeout_ms == UINT32_MAX ? NULL : &ts, NULL);
  }
  /* A timeout or a signal is not an error: hand out what is there. */
  if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
    return iospd_posix_translate(-rc);
  *got = consume(u, out, max);
  return 0;
}

/* Hot path: the batch's SQEs, then reap, whose io_uring_enter hands them
 * to the kernel and waits in the same system call (fio's
 * io_uring_submit_and_wait). */
static int uring_submit_and_reap(iospd_plat_queue_t* q, const iospd_io_t* ios,
                                 uint32_t n, uint32_t* accepted,
                                 iospd_cqe_t* out, uint32_t max, uint32_t min,
                                 uint32_t timeout_ms, uint32_t* got) {
  uring_queue_t* u = (uring_queue_t*)q;
  *got = 0;
  int rc = prep(u, ios, n, accepted);
  if (rc < 0) return rc;
  return uring_reap(q, out, max, min, timeout_ms, got);
}

/* Buffers must outlive the kernel's use of them (docs/design.md, 'Memory'): ask
 * the kernel to cancel everything, then wait until every accepted I/O has
 * posted its completion, and only then tear the ring down. */
static int uring_destroy(iospd_plat_queue_t* q) {
  uring_queue_t* u = (uring_queue_t*)q;
  if (u->inflight > 0) {
    struct io_uring_sqe* sqe = io_uring_get_sqe(&u->ring);
    if (sqe != NULL) {
      /* ASYNC_CANCEL_ANY (5.19+); older kernels answer -EINVAL and we just
       * wait. Block I/O already at the device cannot be cancelled anyway. */
      io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
      io_uring_sqe_set_data64(sqe, URING_UDATA_CANCEL);
    }
    iospd_cqe_t sink[64];
    while (u->inflight > 0) {
      struct io_uring_cqe* cqe;
      struct __kernel_timespec ts = {.tv_sec = 1, .tv_nsec = 0};
      int rc = io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts, NULL);
      while (consume(u, sink, IOSPD_ARRAY_SIZE(sink)) > 0) {
      }
      if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN &&
          rc != -EBUSY)
        break; /* the ring is unusable (wrong thread?): nothing more to do */
    }
  }
  int drained = u->inflight == 0 ? 0 : IOSPD_EIO;
  io_uring_queue_exit(&u->ring);
  iospd_free(u->files);
  iospd_free(u);
  return drained;
}

static const iospd_posix_queue_ops_t uring_ops = {
    .name = "io_uring",
    .attach = uring_attach,
    .register_buffers = uring_register_buffers,
    .submit = uring_submit,
    .reap = uring_reap,
    .submit_and_reap = uring_submit_and_reap,
    .destroy = uring_destroy,
};

/* Why the kernel refused io_uring_setup with errno e, in words: the
 * sysctl when it is set, else the usual cause of that errno. */
static const char* refusal_cause(int e) {
  if (e == ENOSYS)
    return "this kernel has no io_uring (before Linux 5.1, or built without "
           "CONFIG_IO_URING)";
  int disabled = 0;
  FILE* f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
  if (f != NULL) {
    if (fscanf(f, "%d", &disabled) != 1) disabled = 0;
    fclose(f);
  }
  if (disabled == 2)
    return "kernel.io_uring_disabled is 2: io_uring is off for every process";
  if (disabled == 1 && (e == EPERM || e == EACCES))
    return "kernel.io_uring_disabled is 1: only root and members of "
           "kernel.io_uring_group may use it";
  if (e == EPERM || e == EACCES)
    return "a seccomp policy refuses it (the default profiles of Docker, "
           "containerd and Kubernetes' RuntimeDefault do)";
  if (e == ENOMEM)
    return "the locked-memory limit (ulimit -l) is too small for the ring";
  return "the kernel refused the ring's parameters";
}

int iospd_posix_uring_create(iospd_plat_queue_t** q, uint32_t depth,
                             unsigned flags, iospd_err_t* err) {
  (void)flags;
  uring_queue_t* u = iospd_calloc(1, sizeof *u);
  if (u == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory creating a queue of depth %u", depth);
  /* Optional set-up flags, the least essential last: each is dropped in
   * turn when an older kernel rejects it with EINVAL (fio does the same).
   * SUBMIT_ALL keeps one bad request from stopping the rest of a batch;
   * SINGLE_ISSUER/COOP_TASKRUN spare the kernel cross-thread work, because
   * only the worker's thread ever submits and reaps; with R_DISABLED the
   * issuer is fixed at the first submit, not here. Not DEFER_TASKRUN:
   * measured on 6.18 with 4K O_DIRECT random reads at QD32 it cost 5-20 %
   * more CPU per I/O and up to 7 % of the IOPS on a 2-CPU VM, and it
   * changes nothing for page-cache reads, which complete inside the
   * submit. */
  static const unsigned optional[] = {
      IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED,
      IORING_SETUP_COOP_TASKRUN, IORING_SETUP_SUBMIT_ALL, IORING_SETUP_CLAMP};
  unsigned setup = 0;
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(optional); i++) setup |= optional[i];
  int rc;
  size_t dropped = 0;
  struct io_uring_params p;
  for (;;) {
    memset(&p, 0, sizeof p);
    p.flags = setup;
    rc = io_uring_queue_init_params(depth, &u->ring, &p);
    if (rc != -EINVAL || dropped == IOSPD_ARRAY_SIZE(optional)) break;
    setup &= ~optional[dropped++];
  }
  if (rc < 0) {
    iospd_free(u);
    char buf[128];
    const char* why = strerror_r(-rc, buf, sizeof buf);
    if (rc == -ENOSYS || rc == -EPERM || rc == -EACCES || rc == -ENOMEM ||
        rc == -EINVAL)
      return iospd_err_set_os(err, IOSPD_ENOTSUP, -rc,
                              "io_uring is not available (io_uring_setup: "
                              "%s): %s",
                              why, refusal_cause(-rc));
    return iospd_posix_err(err, -rc, "io_uring_queue_init_params(%u)", depth);
  }
  u->base.ops = &uring_ops;
  u->needs_enable = (setup & IORING_SETUP_R_DISABLED) != 0;
  u->cap = depth < u->ring.cq.ring_entries ? depth : u->ring.cq.ring_entries;
  *q = &u->base;
  return 0;
}
