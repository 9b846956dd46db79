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
 * there (kept in a plain array for the next reap: it never leaves the
 * thread); EAGAIN or a short count hands the whole I/O to a pool thread,
 * which redoes it from the start. Files where the kernel refuses
 * RWF_NOWAIT, O_DIRECT files and -I priorities (the pool threads set
 * them) always go to the pool.
 *
 * Batched handoff (queues of depth >= BATCH_MIN_DEPTH whose creating
 * thread may run on two or more CPUs): one copy on one thread caps a QD32
 * page-cache load at one CPU. So a fixed part of the queue's slots (by
 * tag: the worker reuses a tag for the next I/O of the same slot) goes to
 * one helper thread, which tries each with RWF_NOWAIT while the submitter
 * copies the other slots' I/Os inline. The split needs no tuning: each
 * side cycles its own slots as fast as it can (a closed loop per side, as
 * fio's jobs are), so both CPUs stay busy whatever their speeds; a slow or
 * descheduled helper only slows its own slots. A slot's buffer stays on
 * one CPU's cache that way too.
 *
 * The helper's traffic crosses CPUs once each way per I/O: the submitter
 * writes the request into a cache-line-sized entry of a single-producer
 * single-consumer ring and moves the tail every few entries and at each
 * reap; the helper writes the result into the same entry and moves its
 * done count. Inline completions never
 * leave the submitting thread (a plain array, no atomics). An item the
 * helper could not complete (EAGAIN, a short count, an error) comes back
 * marked and the reaper hands the whole I/O to a pool thread (it owns the
 * idle stack); a miss also pauses batching for a while, so device-bound
 * loads go straight to the pool as before.
 *
 * The pool's completion ring cannot overflow: at most nthreads I/Os (pool,
 * inline and helper items together: an item counts as inline, so it can
 * always fall back to a cell) are in flight, a thread gets new work only
 * after the reaper has taken its completion, and the ring holds >=
 * nthreads entries. The same bound keeps the helper ring (>= nthreads
 * entries) from overwriting an entry that is still in use. */
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
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

/* Batching needs I/Os to overlap: below this depth it stays off. */
#define BATCH_MIN_DEPTH 4u
/* I/Os without batching after a helper item missed the cache (or failed). */
#define MISS_PAUSE 4096u
/* Requests the submitter queues for the helper before it moves the tail
 * (the tail's cache line then crosses CPUs once per few requests, not per
 * request); every reap moves it too, so nothing waits past a pass. */
#define PUSH_BATCH 4u
/* How long the helper waits for the next request before it sleeps. */
#define SPIN_NS 50000u

enum { HS_RUN = 0, HS_SLEEP, HS_QUIT };

static bool inline_allowed = true; /* tests turn it off; read at attach */
/* Tests: -1 auto, 0 off, 1 forced on (every eligible I/O to the helper),
 * 2 as 1 with every helper try a miss (EAGAIN without a system call). */
static int batch_mode = -1;

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

/* A completion that never left the submitting thread. */
typedef struct th_local_s {
  uint32_t tag;
  int32_t result;
} th_local_t;

typedef struct th_file_s {
  int fd;
  uint16_t ioprio;
  bool direct;
  /* Try RWF_NOWAIT inline, [0] reads, [1] writes; each cleared when the
   * kernel refuses it (kernels before 5.x take it for buffered reads but
   * refuse buffered writes with EINVAL). */
  bool nowait[2];
} th_file_t;

/* One helper ring entry, a cache line of its own: the submitter writes
 * req and file, the helper writes result and redo. */
typedef struct th_item_s {
  _Alignas(IOSPD_CACHELINE) th_req_t req;
  uint32_t file;
  int32_t result; /* bytes, or what the kernel said when redo is set */
  bool redo;      /* the helper could not complete it: for the pool */
} th_item_t;

struct th_queue_s {
  iospd_plat_queue_t base; /* first: the front casts between the two */
  th_cell_t* cells;
  uint32_t nthreads;
  /* Submitter side. */
  uint32_t* idle; /* stack of idle cell indices */
  uint32_t nidle;
  uint64_t handoffs;       /* I/Os given to pool threads (for tests) */
  th_file_t* files;
  uint32_t nfiles;
  th_local_t* local; /* inline completions not yet reaped */
  uint32_t nlocal;
  /* Batched handoff (NULL items: off). The submitter owns helper_tags,
   * hnext, paused, the counters and hdone_head; the helper writes only
   * the entries' results and hdone. */
  uint32_t helper_tags; /* tags below this (mod nthreads) go to the helper */
  uint32_t hdone_head;  /* the reaper's next helper entry */
  uint32_t hnext;       /* the next entry to fill; htail lags behind it */
  uint32_t paused;      /* I/Os left before batching resumes after a miss */
  uint64_t batched;     /* I/Os given to the helper (for tests) */
  uint64_t redone;      /* helper items handed on to the pool (for tests) */
  bool helper_started;
  pthread_t helper;
  /* Set before the helper starts and only read after: a line of their
   * own, so the submitter's writes to the fields above do not pull it
   * away from the helper's CPU on every I/O. */
  _Alignas(IOSPD_CACHELINE) th_item_t* items; /* hmask + 1 entries */
  uint32_t hmask;
  bool misses_only; /* tests: batch mode 2 */
  _Alignas(IOSPD_CACHELINE) _Atomic uint32_t htail; /* submitter writes */
  _Alignas(IOSPD_CACHELINE) _Atomic uint32_t hdone; /* helper writes */
  _Alignas(IOSPD_CACHELINE) _Atomic uint32_t hstate;
  /* Pool completions. */
  _Alignas(IOSPD_CACHELINE) th_done_t* ring;
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

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* After a producer made a completion visible with a seq_cst store: either
 * the reaper sees it on its re-check, or this load sees reaper_waits set.
 * Only then the exchange (one waker among the producers). */
static void wake_reaper(th_queue_t* q) {
  if (atomic_load_explicit(&q->reaper_waits, memory_order_seq_cst) &&
      atomic_exchange_explicit(&q->reaper_waits, 0, memory_order_seq_cst))
    futex_wake(&q->reaper_waits, 1);
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
  atomic_store_explicit(&d->seq, pos + 1, memory_order_seq_cst);
  wake_reaper(q);
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

/* One RWF_NOWAIT try: the bytes moved or -errno. It never blocks on the
 * disk, a lock or writeback (a miss may start readahead and say EAGAIN). */
static ssize_t try_nowait(int fd, uint8_t op, void* buf, uint32_t length,
                          uint64_t offset) {
  struct iovec v = {buf, length};
  ssize_t n;
  do {
    n = op == IOSPD_OP_WRITE
            ? pwritev2(fd, &v, 1, (off_t)offset, RWF_NOWAIT)
            : preadv2(fd, &v, 1, (off_t)offset, RWF_NOWAIT);
  } while (n < 0 && errno == EINTR);
  return n < 0 ? -errno : n;
}

/* Whether a kernel or file system refused per-I/O NOWAIT itself (not a
 * miss): the try is turned off for that file and direction. */
static bool nowait_refused(ssize_t said) {
  return said == -EOPNOTSUPP || said == -EINVAL || said == -ENOSYS;
}

/* One try at a cached I/O on this thread: true when it moved every byte.
 * EAGAIN and short counts leave the I/O to the pool. */
static bool try_inline(th_file_t* f, const iospd_io_t* io) {
  ssize_t n = try_nowait(f->fd, io->op, io->buf, io->length, io->offset);
  if (IOSPD_LIKELY(n == (ssize_t)io->length)) return true;
  if (nowait_refused(n)) f->nowait[io->op == IOSPD_OP_WRITE] = false;
  return false;
}

/* Gives one request to an idle pool thread (there is one: the caller
 * keeps pool + inline <= nthreads). */
static void hand_to_pool(th_queue_t* q, const th_req_t* src) {
  th_cell_t* c = &q->cells[q->idle[--q->nidle]];
  c->req = *src;
  if (src->fd < 0) c->req.ioprio = c->cur_ioprio;
  q->handoffs++;
  if (atomic_exchange_explicit(&c->state, ST_WORK, memory_order_acq_rel) ==
      ST_SLEEP)
    futex_wake(&c->state, 1);
}

/* The helper's side of an entry: one RWF_NOWAIT try; the result (or what
 * the kernel said, with redo set) goes back in the entry itself. */
static void run_item(const th_queue_t* q, th_item_t* it) {
  const th_req_t* r = &it->req;
  ssize_t n = IOSPD_UNLIKELY(q->misses_only)
                  ? -EAGAIN
                  : try_nowait(r->fd, r->op, r->buf, r->length, r->offset);
  it->redo = n != (ssize_t)r->length;
  it->result = (int32_t)n;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#else
  atomic_signal_fence(memory_order_seq_cst);
#endif
}

/* The next request usually comes within a pass (a few microseconds): wait
 * that long before sleeping, yielding the CPU to any other runnable thread
 * (another worker at -t2) as we go. True when a request came; false when
 * it is time to sleep or to quit. */
static bool wait_for_push(th_queue_t* q, uint32_t h) {
  uint64_t until = 0;
  for (uint32_t i = 1;; i++) {
    if (atomic_load_explicit(&q->hstate, memory_order_relaxed) == HS_QUIT)
      return false;
    if (atomic_load_explicit(&q->htail, memory_order_acquire) != h)
      return true;
    if ((i & 15) == 0) {
      uint64_t now = mono_ns();
      if (until == 0) until = now + SPIN_NS;
      if (now >= until) return false;
      sched_yield();
    } else {
      cpu_relax();
    }
  }
}

/* The helper: runs entries in ring order and publishes each by moving
 * hdone; when none is left it spins a while, then sleeps on hstate until
 * the next push. */
static void* helper_main(void* arg) {
  th_queue_t* q = arg;
  uint32_t h = atomic_load_explicit(&q->hdone, memory_order_relaxed);
  for (;;) {
    if (h != atomic_load_explicit(&q->htail, memory_order_acquire)) {
      if (IOSPD_UNLIKELY(atomic_load_explicit(&q->hstate,
                                              memory_order_relaxed) ==
                         HS_QUIT))
        return NULL;
      run_item(q, &q->items[h & q->hmask]);
      /* seq_cst: pairs with the reaper's re-check before it sleeps. */
      atomic_store_explicit(&q->hdone, ++h, memory_order_seq_cst);
      wake_reaper(q);
      continue;
    }
    if (wait_for_push(q, h)) continue;
    uint32_t e = HS_RUN;
    if (!atomic_compare_exchange_strong_explicit(&q->hstate, &e, HS_SLEEP,
                                                 memory_order_seq_cst,
                                                 memory_order_acquire)) {
      if (e == HS_QUIT) return NULL;
      continue;
    }
    /* SLEEP is visible before this load: either a push that came meanwhile
     * is seen here, or its pusher sees SLEEP and wakes us. */
    if (atomic_load_explicit(&q->htail, memory_order_seq_cst) != h) {
      e = HS_SLEEP;
      (void)atomic_compare_exchange_strong_explicit(
          &q->hstate, &e, HS_RUN, memory_order_seq_cst, memory_order_relaxed);
      continue;
    }
    (void)futex_wait(&q->hstate, HS_SLEEP, NULL);
  }
}

/* Makes the queued requests visible to the helper and wakes it if it
 * sleeps. */
static void publish_items(th_queue_t* q) {
  if (atomic_load_explicit(&q->htail, memory_order_relaxed) == q->hnext)
    return;
  atomic_store_explicit(&q->htail, q->hnext, memory_order_seq_cst);
  if (atomic_load_explicit(&q->hstate, memory_order_seq_cst) == HS_SLEEP) {
    uint32_t e = HS_SLEEP;
    if (atomic_compare_exchange_strong_explicit(&q->hstate, &e, HS_RUN,
                                                memory_order_seq_cst,
                                                memory_order_relaxed))
      futex_wake(&q->hstate, 1);
  }
}

/* Queues one I/O for the helper: an entry, and every PUSH_BATCH entries
 * (or at the next reap) the tail moved. */
static void push_item(th_queue_t* q, const th_req_t* r, uint32_t file) {
  th_item_t* it = &q->items[q->hnext & q->hmask];
  it->req = *r;
  it->file = file;
  q->hnext++;
  q->batched++;
  if (q->hnext - atomic_load_explicit(&q->htail, memory_order_relaxed) >=
      PUSH_BATCH)
    publish_items(q);
}

/* Whether this I/O's slot is one of the helper's (see the top). */
static bool for_helper(const th_queue_t* q, uint32_t tag) {
  if (q->items == NULL || q->paused > 0) return false;
  return tag % q->nthreads < q->helper_tags;
}

/* I/Os in flight that hold no pool cell: inline completions not yet
 * reaped, and helper entries pushed but not yet taken back (a redone one
 * holds a cell from then on). */
static uint32_t without_cell(const th_queue_t* q) {
  return q->nlocal + (q->hnext - q->hdone_head);
}

/* Hot path: the helper's slots to the helper, inline for a page-cache hit,
 * else one idle thread per I/O and a futex wake only for a sleeper. */
static int th_submit(iospd_plat_queue_t* qb, const iospd_io_t* ios,
                     uint32_t n, uint32_t* accepted) {
  th_queue_t* q = (th_queue_t*)qb;
  /* Inline completions and helper items hold no cells: keep pool + inline
   * <= nthreads, so every accepted I/O still has a cell to fall back to
   * and no ring can overflow. */
  uint32_t room = q->nidle - without_cell(q);
  if (n > room) n = room;
  for (uint32_t i = 0; i < n; i++) {
    const iospd_io_t* io = &ios[i];
    th_file_t* f = IOSPD_LIKELY(io->file_index < q->nfiles)
                       ? &q->files[io->file_index]
                       : NULL;
    th_req_t r;
    if (f != NULL) {
      r.fd = f->fd;
      r.direct = f->direct;
      r.ioprio = f->ioprio;
    } else {
      r.fd = -1;
      r.direct = false;
      r.ioprio = 0;
    }
    r.op = io->op;
    r.tag = io->tag;
    r.length = io->length;
    r.offset = io->offset;
    r.buf = io->buf;
    if (f != NULL && f->nowait[io->op == IOSPD_OP_WRITE]) {
      if (for_helper(q, io->tag)) {
        push_item(q, &r, io->file_index);
        continue;
      }
      if (try_inline(f, io)) {
        q->local[q->nlocal].tag = io->tag;
        q->local[q->nlocal].result = (int32_t)io->length;
        q->nlocal++;
        if (q->paused > 0) q->paused--;
        continue;
      }
    }
    hand_to_pool(q, &r);
  }
  *accepted = n;
  return 0;
}

/* An item the helper could not complete: a kernel without per-I/O
 * RWF_NOWAIT for this file turns the try off for it; anything else (a
 * miss: EAGAIN, a short count; or an error) pauses batching, as the load
 * is going to the device. Then the whole I/O goes to a pool thread, which
 * says what a plain pread/pwrite says. */
static void redo_item(th_queue_t* q, th_item_t* it) {
  if (nowait_refused(it->result)) {
    if (it->file < q->nfiles)
      q->files[it->file].nowait[it->req.op == IOSPD_OP_WRITE] = false;
  } else {
    q->paused = MISS_PAUSE;
  }
  q->redone++;
  hand_to_pool(q, &it->req);
}

/* The helper's finished entries, in ring order; misses go on to the
 * pool here. */
static uint32_t take_helper(th_queue_t* q, iospd_cqe_t* out, uint32_t max) {
  uint32_t n = 0;
  uint32_t done = atomic_load_explicit(&q->hdone, memory_order_acquire);
  while (n < max && q->hdone_head != done) {
    th_item_t* it = &q->items[q->hdone_head++ & q->hmask];
    if (IOSPD_UNLIKELY(it->redo)) {
      /* Still in flight, now on a pool thread: no completion yet. The
       * entry stays intact: nothing pushes before this returns. */
      redo_item(q, it);
      continue;
    }
    if (q->paused > 0) q->paused--;
    out[n].tag = it->req.tag;
    out[n].result = it->result;
    n++;
  }
  return n;
}

/* Inline completions, oldest first. */
static uint32_t take_local(th_queue_t* q, iospd_cqe_t* out, uint32_t max) {
  uint32_t k = q->nlocal < max ? q->nlocal : max;
  for (uint32_t i = 0; i < k; i++) {
    out[i].tag = q->local[i].tag;
    out[i].result = q->local[i].result;
  }
  if (k > 0) {
    q->nlocal -= k;
    if (q->nlocal > 0)
      memmove(q->local, q->local + k, q->nlocal * sizeof *q->local);
  }
  return k;
}

static uint32_t take_pool(th_queue_t* q, iospd_cqe_t* out, uint32_t max) {
  uint32_t n = 0;
  while (n < max) {
    th_done_t* d = &q->ring[q->head & q->mask];
    if (atomic_load_explicit(&d->seq, memory_order_acquire) != q->head + 1)
      break;
    q->head++;
    q->idle[q->nidle++] = d->cell;
    if (q->paused > 0) q->paused--;
    out[n].tag = d->tag;
    out[n].result = d->result;
    n++;
  }
  return n;
}

/* The helper's completions first: its slots go back to it sooner, so it
 * does not run dry while the submitter copies (inline first measured a
 * few per cent slower at QD32, and much slower with a smaller helper
 * share). */
static uint32_t take(th_queue_t* q, iospd_cqe_t* out, uint32_t max) {
  uint32_t n = q->items != NULL ? take_helper(q, out, max) : 0;
  n += take_local(q, out + n, max - n);
  n += take_pool(q, out + n, max - n);
  return n;
}

/* Whether a completion is waiting in either ring (the re-check before the
 * reaper sleeps; inline ones never wait). */
static bool ready(th_queue_t* q) {
  if (q->items != NULL &&
      atomic_load_explicit(&q->hdone, memory_order_seq_cst) != q->hdone_head)
    return true;
  th_done_t* d = &q->ring[q->head & q->mask];
  return atomic_load_explicit(&d->seq, memory_order_seq_cst) == q->head + 1;
}

static int th_reap(iospd_plat_queue_t* qb, iospd_cqe_t* out, uint32_t max,
                   uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  th_queue_t* q = (th_queue_t*)qb;
  if (q->items != NULL) publish_items(q);
  uint32_t inflight = q->nthreads - q->nidle + without_cell(q);
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
    if (ready(q)) {
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

/* Stops the helper after its current item; items still queued are
 * dropped (nobody reaps after destroy). */
static void stop_helper(th_queue_t* q) {
  if (!q->helper_started) return;
  if (atomic_exchange_explicit(&q->hstate, HS_QUIT, memory_order_seq_cst) ==
      HS_SLEEP)
    futex_wake(&q->hstate, 1);
  pthread_join(q->helper, NULL);
  q->helper_started = false;
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
  free(q->items);
  iospd_free(q->local);
  iospd_free(q->idle);
  iospd_free(q->ring);
  iospd_free(q->files);
  free(q);
}

static int th_destroy(iospd_plat_queue_t* qb) {
  th_queue_t* q = (th_queue_t*)qb;
  stop_helper(q);
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

/* Whether batching pays here: enough depth for I/Os to overlap, and a CPU
 * set (the creating worker's: its -a pin, or all CPUs with -n) with room
 * for a second copier. */
static bool batching_fits(uint32_t nthreads) {
  if (batch_mode == 0) return false;
  if (batch_mode >= 1) return true;
  if (nthreads < BATCH_MIN_DEPTH) return false;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return false;
  return CPU_COUNT(&set) >= 2;
}

/* Cache-line aligned, zeroed memory (malloc only promises 16 bytes). */
static void* calloc_lines(size_t n, size_t size) {
  void* p = NULL;
  if (posix_memalign(&p, IOSPD_CACHELINE, n * size) != 0) return NULL;
  memset(p, 0, n * size);
  return p;
}

/* Sets up batching if it fits; without memory or a thread the queue
 * simply runs without it (inline and pool, as before). The helper gets
 * three quarters of the slots: it only copies, while the submitter also
 * does the bookkeeping of every I/O and copies for the rest; a deep
 * helper queue also keeps it from running dry between two reaps. */
static void start_helper(th_queue_t* q) {
  if (!batching_fits(q->nthreads)) return;
  q->items = calloc_lines((size_t)q->mask + 1, sizeof *q->items);
  int e = ENOMEM;
  if (q->items != NULL) {
    q->hmask = q->mask;
    q->misses_only = batch_mode == 2;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    (void)pthread_attr_setstacksize(&attr, POOL_STACK);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    /* Inherits the worker's CPU set, like the pool threads. */
    e = pthread_create(&q->helper, &attr, helper_main, q);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
  }
  if (e != 0) {
    free(q->items);
    q->items = NULL;
    return;
  }
  q->helper_started = true;
  q->helper_tags =
      batch_mode >= 1 ? q->nthreads : q->nthreads - q->nthreads / 4;
}

int iospd_posix_threads_create(iospd_plat_queue_t** out, uint32_t depth,
                               unsigned flags, iospd_err_t* err) {
  uint32_t size = 1;
  while (size < depth && size < (UINT32_C(1) << 31)) size <<= 1;
  /* Cache-line aligned: the queue's and the cells' atomic words are
   * written by two threads. */
  th_queue_t* q = calloc_lines(1, sizeof *q);
  if (q != NULL) {
    q->cells = calloc_lines(depth, sizeof *q->cells);
    q->idle = iospd_calloc(depth, sizeof *q->idle);
    q->local = iospd_calloc(depth, sizeof *q->local);
    q->ring = iospd_calloc(size, sizeof *q->ring);
  }
  if (q == NULL || q->cells == NULL || q->idle == NULL || q->local == NULL ||
      q->ring == NULL) {
    if (q != NULL) free_queue(q);
    return iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory creating a queue of depth %u", depth);
  }
  q->mask = size - 1;
  q->base.ops = &th_ops;
  if (flags & IOSPD_QUEUE_PLAN) {
    /* -Rp: the depth planned, no pool (nthreads 0: nothing to stop). */
    *out = &q->base;
    return 0;
  }

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
  start_helper(q);
  *out = &q->base;
  return 0;
}

uint64_t iospd_posix_threads_handoffs(const iospd_plat_queue_t* qb) {
  if (qb == NULL || qb->ops != &th_ops) return 0;
  return ((const th_queue_t*)qb)->handoffs;
}

void iospd_posix_threads_set_inline(bool on) { inline_allowed = on; }

void iospd_posix_threads_set_batch(int mode) { batch_mode = mode; }

void iospd_posix_threads_batch_counts(const iospd_plat_queue_t* qb,
                                      uint64_t* batched, uint64_t* redone) {
  const th_queue_t* q = qb != NULL && qb->ops == &th_ops
                            ? (const th_queue_t*)qb
                            : NULL;
  *batched = q != NULL ? q->batched : 0;
  *redone = q != NULL ? q->redone : 0;
}
