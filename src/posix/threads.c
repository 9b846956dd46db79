/* SPDX-License-Identifier: MIT */
/* The thread-pool engine: depth blocking threads per queue, each running
 * one pread/pwrite at a time, so depth I/Os are in flight on any file and
 * any kernel (buffered targets, and anything io_uring and kernel AIO cannot
 * serve). fio's equivalent is psync with numjobs = iodepth.
 *
 * Nothing is allocated or locked per I/O. Every pool thread owns one
 * request cell; the submitter keeps a stack of idle threads (only it
 * touches the stack), writes a request into an idle thread's cell and flips
 * the cell's state word to WORK, waking the thread with a futex only if it
 * went to sleep. Completions go through a bounded multi-producer ring
 * (depth entries, a sequence number per entry, fetch-add on the tail); the
 * reaper sleeps on a futex word the producers wake only when it is set.
 *
 * Cached buffered I/O first runs inline on the submitting thread with
 * preadv2/pwritev2(RWF_NOWAIT): a page-cache hit costs one copy instead of
 * two thread wake-ups. Only an I/O that moved all its bytes completes
 * there (it is published into the same ring, with no cell); EAGAIN or a
 * short count hands the whole I/O to a pool thread, which redoes it from
 * the start. Files where the kernel refuses RWF_NOWAIT, O_DIRECT files and
 * -I priorities (the pool threads set them) always go to the pool.
 *
 * The ring cannot overflow: at most nthreads I/Os (pool and inline
 * together) are in flight, a thread gets new work only after the reaper
 * has taken its completion, and the ring holds >= nthreads entries. */
#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

/* Pool threads need little stack: a system call and a few locals. */
#define POOL_STACK ((size_t)128 * 1024)

enum { ST_IDLE = 0, ST_SLEEP, ST_WORK, ST_QUIT };
/* The cell index of a completion that ran inline (it holds no cell). */
#define CELL_INLINE UINT32_MAX

static bool inline_allowed = true; /* tests turn it off; read at attach */

typedef struct th_req_s {
  int fd;
  uint8_t op;
  bool direct;
  uint16_t ioprio;
  uint32_t tag;
  uint32_t length;
  uint64_t offset;
  void* buf;
} th_req_t;

typedef struct th_cell_s th_cell_t;
typedef struct th_queue_s th_queue_t;

struct th_cell_s {
  _Alignas(IOSPD_CACHELINE) _Atomic uint32_t state;
  th_req_t req; /* written by the submitter before state becomes WORK */
  th_queue_t* q;
  uint32_t index;
  uint16_t cur_ioprio; /* the priority this thread last set */
  pthread_t tid;
};

typedef struct th_done_s {
  _Atomic uint32_t seq; /* position + 1 once the entry is written */
  uint32_t tag;
  int32_t result;
  uint32_t cell;
} th_done_t;

typedef struct th_file_s {
  int fd;
  uint16_t ioprio;
  bool direct;
  /* Try RWF_NOWAIT inline, [0] reads, [1] writes; each cleared when the
   * kernel refuses it (kernels before 5.x take it for buffered reads but
   * refuse buffered writes with EINVAL). */
  bool nowait[2];
} th_file_t;

struct th_queue_s {
  iospd_plat_queue_t base; /* first: the front casts between the two */
  th_cell_t* cells;
  uint32_t nthreads;
  /* Submitter side. */
  uint32_t* idle; /* stack of idle cell indices */
  uint32_t nidle;
  uint32_t inline_pending; /* inline completions the reaper has not taken */
  uint64_t handoffs;       /* I/Os given to pool threads (for tests) */
  th_file_t* files;
  uint32_t nfiles;
  /* Completions. */
  th_done_t* ring;
  uint32_t mask; /* ring size - 1 (a power of two >= nthreads) */
  uint32_t head; /* the reaper's next position */
  _Alignas(IOSPD_CACHELINE) _Atomic uint32_t tail;
  _Alignas(IOSPD_CACHELINE) _Atomic uint32_t reaper_waits;
};

static long futex_wait(_Atomic uint32_t* addr, uint32_t val,
                       const struct timespec* ts) {
  return syscall(SYS_futex, (uint32_t*)addr, FUTEX_WAIT_PRIVATE, val, ts,
                 NULL, 0);
}
static void futex_wake(_Atomic uint32_t* addr, int n) {
  (void)syscall(SYS_futex, (uint32_t*)addr, FUTEX_WAKE_PRIVATE, n, NULL,
                NULL, 0);
}

static void publish(th_queue_t* q, uint32_t tag, uint32_t cell,
                    int32_t result) {
  /* acq_rel: the reaper read this entry (position pos - size) before it
   * handed some thread the work whose fetch-add came earlier in this chain;
   * the chain of acq_rel fetch-adds orders that read before the writes
   * below (ThreadSanitizer agrees; free on x86, a lock xadd either way). */
  uint32_t pos = atomic_fetch_add_explicit(&q->tail, 1, memory_order_acq_rel);
  th_done_t* d = &q->ring[pos & q->mask];
  d->tag = tag;
  d->result = result;
  d->cell = cell;
  /* seq_cst store, then a seq_cst load: either the reaper sees the entry
   * on its re-check, or this thread sees reaper_waits set. Only then the
   * exchange (one waker among the producers): a locked RMW per I/O saved
   * when nobody waits, always the case for inline completions, which run
   * on the reaper's own thread. */
  atomic_store_explicit(&d->seq, pos + 1, memory_order_seq_cst);
  if (atomic_load_explicit(&q->reaper_waits, memory_order_seq_cst) &&
      atomic_exchange_explicit(&q->reaper_waits, 0, memory_order_seq_cst))
    futex_wake(&q->reaper_waits, 1);
}

static int32_t run_one(th_cell_t* c) {
  const th_req_t* r = &c->req;
  if (IOSPD_UNLIKELY(r->ioprio != c->cur_ioprio)) {
    /* -I1/-I2: a blocking call runs at its thread's I/O priority. */
    (void)syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0,
                  (int)r->ioprio);
    c->cur_ioprio = r->ioprio;
  }
  if (IOSPD_UNLIKELY(r->fd < 0)) return iospd_posix_translate(EBADF);
  ssize_t n;
  do {
    n = r->op == IOSPD_OP_WRITE
            ? pwrite(r->fd, r->buf, r->length, (off_t)r->offset)
            : pread(r->fd, r->buf, r->length, (off_t)r->offset);
  } while (n < 0 && errno == EINTR);
  return n >= 0 ? (int32_t)n : iospd_posix_io_error(errno, r->direct);
}

static void* pool_main(void* arg) {
  th_cell_t* c = arg;
  th_queue_t* q = c->q;
  for (;;) {
    uint32_t s = atomic_load_explicit(&c->state, memory_order_acquire);
    if (s == ST_WORK) {
      int32_t res = run_one(c);
      /* Idle before the completion is visible: once the reaper has it, the
       * submitter may hand this cell new work. A failed exchange means
       * QUIT arrived meanwhile. */
      uint32_t expect = ST_WORK;
      bool quit = !atomic_compare_exchange_strong_explicit(
          &c->state, &expect, ST_IDLE, memory_order_acq_rel,
          memory_order_acquire);
      publish(q, c->req.tag, c->index, res);
      if (quit) return NULL;
      continue;
    }
    if (s == ST_QUIT) return NULL;
    if (s == ST_IDLE) {
      uint32_t expect = ST_IDLE;
      if (!atomic_compare_exchange_strong_explicit(
              &c->state, &expect, ST_SLEEP, memory_order_acq_rel,
              memory_order_acquire))
        continue;
    }
    (void)futex_wait(&c->state, ST_SLEEP, NULL);
  }
}

static int th_attach(iospd_plat_queue_t* qb, iospd_plat_file_t* f,
                     uint32_t* file_index, iospd_err_t* err) {
  th_queue_t* q = (th_queue_t*)qb;
  th_file_t* grown =
      iospd_realloc(q->files, (q->nfiles + 1) * sizeof *q->files);
  if (grown == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory attaching '%s'",
                         f->path);
  q->files = grown;
  q->files[q->nfiles].fd = f->fd;
  q->files[q->nfiles].ioprio = f->ioprio;
  q->files[q->nfiles].direct = (f->flags & IOSPD_OPEN_NO_BUFFERING) != 0;
  bool nowait =
      inline_allowed && !q->files[q->nfiles].direct && f->ioprio == 0;
  q->files[q->nfiles].nowait[0] = nowait;
  q->files[q->nfiles].nowait[1] = nowait;
  *file_index = q->nfiles++;
  return 0;
}

static int th_register_buffers(iospd_plat_queue_t* q, void* base, size_t len,
                               iospd_err_t* err) {
  (void)q;
  (void)base;
  (void)len;
  (void)err;
  return 0;
}

/* One try at a cached I/O on this thread: true when it moved every byte.
 * RWF_NOWAIT never blocks on the disk, a lock or writeback; EAGAIN and
 * short counts leave the I/O to the pool, EOPNOTSUPP/EINVAL (a kernel or
 * file system without per-I/O NOWAIT) turn the inline path off for the
 * file and direction. */
static bool try_inline(th_file_t* f, const iospd_io_t* io) {
  struct iovec v = {io->buf, io->length};
  ssize_t n;
  do {
    n = io->op == IOSPD_OP_WRITE
            ? pwritev2(f->fd, &v, 1, (off_t)io->offset, RWF_NOWAIT)
            : preadv2(f->fd, &v, 1, (off_t)io->offset, RWF_NOWAIT);
  } while (n < 0 && errno == EINTR);
  if (IOSPD_LIKELY(n == (ssize_t)io->length)) return true;
  if (n < 0 && (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS))
    f->nowait[io->op == IOSPD_OP_WRITE] = false;
  return false;
}

/* Hot path: inline for a page-cache hit, else one idle thread per I/O and
 * a futex wake only for a sleeper. */
static int th_submit(iospd_plat_queue_t* qb, const iospd_io_t* ios,
                     uint32_t n, uint32_t* accepted) {
  th_queue_t* q = (th_queue_t*)qb;
  /* Inline completions hold ring entries but no cells: keep
   * pool + inline <= nthreads, so every accepted I/O still has a cell to
   * fall back to and the ring cannot overflow. */
  uint32_t room = q->nidle - q->inline_pending;
  if (n > room) n = room;
  for (uint32_t i = 0; i < n; i++) {
    const iospd_io_t* io = &ios[i];
    th_file_t* f = IOSPD_LIKELY(io->file_index < q->nfiles)
                       ? &q->files[io->file_index]
                       : NULL;
    if (f != NULL && f->nowait[io->op == IOSPD_OP_WRITE] &&
        try_inline(f, io)) {
      q->inline_pending++;
      publish(q, io->tag, CELL_INLINE, (int32_t)io->length);
      continue;
    }
    th_cell_t* c = &q->cells[q->idle[--q->nidle]];
    th_req_t* r = &c->req;
    if (f != NULL) {
      r->fd = f->fd;
      r->direct = f->direct;
      r->ioprio = f->ioprio;
    } else {
      r->fd = -1;
      r->direct = false;
      r->ioprio = c->cur_ioprio;
    }
    r->op = io->op;
    r->tag = io->tag;
    r->length = io->length;
    r->offset = io->offset;
    r->buf = io->buf;
    q->handoffs++;
    if (atomic_exchange_explicit(&c->state, ST_WORK, memory_order_acq_rel) ==
        ST_SLEEP)
      futex_wake(&c->state, 1);
  }
  *accepted = n;
  return 0;
}

static uint32_t take(th_queue_t* q, iospd_cqe_t* out, uint32_t max) {
  uint32_t n = 0;
  while (n < max) {
    th_done_t* d = &q->ring[q->head & q->mask];
    if (atomic_load_explicit(&d->seq, memory_order_acquire) != q->head + 1)
      break;
    out[n].tag = d->tag;
    out[n].result = d->result;
    if (d->cell == CELL_INLINE)
      q->inline_pending--;
    else
      q->idle[q->nidle++] = d->cell;
    q->head++;
    n++;
  }
  return n;
}

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int th_reap(iospd_plat_queue_t* qb, iospd_cqe_t* out, uint32_t max,
                   uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  th_queue_t* q = (th_queue_t*)qb;
  uint32_t inflight = q->nthreads - q->nidle + q->inline_pending;
  if (min > inflight) min = inflight;
  if (min > max) min = max;
  uint32_t n = take(q, out, max);
  if (n >= min || timeout_ms == 0) {
    *got = n;
    return 0;
  }
  uint64_t deadline = timeout_ms == UINT32_MAX
                          ? UINT64_MAX
                          : mono_ns() + (uint64_t)timeout_ms * 1000000u;
  while (n < min) {
    atomic_store_explicit(&q->reaper_waits, 1, memory_order_seq_cst);
    th_done_t* d = &q->ring[q->head & q->mask];
    if (atomic_load_explicit(&d->seq, memory_order_seq_cst) == q->head + 1) {
      atomic_store_explicit(&q->reaper_waits, 0, memory_order_relaxed);
    } else {
      struct timespec ts, *tp = NULL;
      if (deadline != UINT64_MAX) {
        uint64_t now = mono_ns();
        if (now >= deadline) {
          atomic_store_explicit(&q->reaper_waits, 0, memory_order_relaxed);
          break;
        }
        uint64_t left = deadline - now;
        ts.tv_sec = (time_t)(left / 1000000000u);
        ts.tv_nsec = (long)(left % 1000000000u);
        tp = &ts;
      }
      (void)futex_wait(&q->reaper_waits, 1, tp);
    }
    n += take(q, out + n, max - n);
  }
  *got = n;
  return 0;
}

/* Stops every thread after its current I/O (a blocking call cannot be
 * cancelled) and joins it, so buffers outlive their last use. */
static void stop_pool(th_queue_t* q, uint32_t started) {
  for (uint32_t i = 0; i < started; i++) {
    th_cell_t* c = &q->cells[i];
    if (atomic_exchange_explicit(&c->state, ST_QUIT, memory_order_acq_rel) ==
        ST_SLEEP)
      futex_wake(&c->state, 1);
  }
  for (uint32_t i = 0; i < started; i++) pthread_join(q->cells[i].tid, NULL);
}

static void free_queue(th_queue_t* q) {
  free(q->cells);
  iospd_free(q->idle);
  iospd_free(q->ring);
  iospd_free(q->files);
  iospd_free(q);
}

static int th_destroy(iospd_plat_queue_t* qb) {
  th_queue_t* q = (th_queue_t*)qb;
  stop_pool(q, q->nthreads);
  free_queue(q);
  return 0;
}

static const iospd_posix_queue_ops_t th_ops = {
    .name = "threads",
    /* A page-cache hit copies inside submit (RWF_NOWAIT): stamp each I/O
     * right before its own call, so the k-th of a batch is not charged
     * for the k-1 copies before it. Costs nothing else here: submit is
     * per-I/O work either way (no system call per batch). */
    .submit_each = true,
    .attach = th_attach,
    .register_buffers = th_register_buffers,
    .submit = th_submit,
    .reap = th_reap,
    .submit_and_reap = NULL,
    .destroy = th_destroy,
};

int iospd_posix_threads_create(iospd_plat_queue_t** out, uint32_t depth,
                               unsigned flags, iospd_err_t* err) {
  (void)flags;
  uint32_t size = 1;
  while (size < depth && size < (UINT32_C(1) << 31)) size <<= 1;
  th_queue_t* q = iospd_calloc(1, sizeof *q);
  if (q != NULL) {
    /* Cache-line aligned cells (their state words are written by two
     * threads); posix_memalign, as malloc only promises 16 bytes. */
    void* cells = NULL;
    size_t bytes = depth * sizeof *q->cells;
    if (posix_memalign(&cells, IOSPD_CACHELINE, bytes) == 0) {
      memset(cells, 0, bytes);
      q->cells = cells;
    }
    q->idle = iospd_calloc(depth, sizeof *q->idle);
    q->ring = iospd_calloc(size, sizeof *q->ring);
  }
  if (q == NULL || q->cells == NULL || q->idle == NULL || q->ring == NULL) {
    if (q != NULL) free_queue(q);
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory creating a queue of depth %u", depth);
  }
  q->mask = size - 1;
  q->base.ops = &th_ops;

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  (void)pthread_attr_setstacksize(&attr, POOL_STACK);
  /* Pool threads take no signals (Ctrl-C has its own watcher) and inherit
   * the creating worker's CPU affinity. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  uint32_t started = 0;
  int e = 0;
  for (; started < depth; started++) {
    th_cell_t* c = &q->cells[started];
    c->q = q;
    c->index = started;
    atomic_init(&c->state, ST_IDLE);
    e = pthread_create(&c->tid, &attr, pool_main, c);
    if (e != 0) break;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
  if (started == 0) {
    free_queue(q);
    return iospd_posix_err(err, e, "cannot start an I/O thread");
  }
  /* Fewer threads than asked (a thread or memory limit): run with what
   * started; iospd_plat_queue_depth reports it and the run warns. */
  q->nthreads = started;
  if (started < depth) q->base.kept = started;
  for (uint32_t i = 0; i < started; i++) q->idle[i] = started - 1 - i;
  q->nidle = started;
  *out = &q->base;
  return 0;
}

uint64_t iospd_posix_threads_handoffs(const iospd_plat_queue_t* qb) {
  if (qb == NULL || qb->ops != &th_ops) return 0;
  return ((const th_queue_t*)qb)->handoffs;
}

void iospd_posix_threads_set_inline(bool on) { inline_allowed = on; }
