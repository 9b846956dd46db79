/* SPDX-License-Identifier: MIT */
/* Memory-mapped I/O (-Sm) on Linux: the whole file is mapped read+write at
 * open; the queue front routes a mapped file's I/O here, where submit copies
 * between the view and the slot's buffer (then msyncs the written range for
 * -Nv) and parks the completion in a ring of depth entries until reap, as
 * the psync engine does. Non-mapped files of the same queue still go to the
 * engine (io_uring or psync). */
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>

#include "iospd/alloc.h"
#include "iospd/ntcopy.h"
#include "posix/internal.h"

enum { MM_PLAIN = 0, MM_MSYNC, MM_NONTEMPORAL };

typedef struct mm_file_s {
  uint8_t* base;
  uint64_t len;
  uint8_t mode; /* MM_* */
} mm_file_t;

struct iospd_posix_mm_s {
  mm_file_t* files;
  uint32_t nfiles;
  uint32_t depth;
  uint32_t head, count;
  iospd_cqe_t* ring; /* depth entries: one per slot at most */
  uintptr_t page_mask;
};

/* ---- SIGBUS guard ------------------------------------------------------
 * A page of a shared file mapping that lies past the file's end (another
 * process truncated it) or whose storage fails raises SIGBUS on access.
 * Each copy to or from a view runs with a recovery point set in the
 * thread's t_guard; the handler jumps back to it, and the I/O completes
 * with IOSPD_EMAPFAULT, which fails the run with a message naming the
 * target. A SIGBUS anywhere else is not ours: the handler puts the previous
 * action back, so the fault repeats and ends the process as before.
 * Cheap: sigsetjmp without the signal mask is a register save, no system
 * call; SA_NODEFER keeps SIGBUS unblocked after the jump, so the mask never
 * needs restoring. Only TLS reads, sigaction and siglongjmp run in the
 * handler, all async-signal-safe (t_guard is initial-exec TLS of the
 * executable). */
static _Thread_local sigjmp_buf* volatile t_guard;
static struct sigaction g_old_bus;
static pthread_mutex_t g_bus_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_sigbus(int sig, siginfo_t* si, void* uc) {
  (void)uc;
  sigjmp_buf* g = t_guard;
  if (g != NULL) {
    t_guard = NULL;
    siglongjmp(*g, 1);
  }
  (void)sigaction(SIGBUS, &g_old_bus, NULL);
  /* A fault repeats when the handler returns; a SIGBUS sent by kill does
   * not, so send it again to the previous action. */
  if (si == NULL || si->si_code <= 0) (void)raise(sig);
}

/* At every map, not once: whoever replaced the handler since (a test
 * harness does between tests) gets it back as the previous action. Returns
 * 0 or an errno. */
static int install_sigbus(void) {
  int rc = 0;
  pthread_mutex_lock(&g_bus_lock);
  struct sigaction cur;
  if (sigaction(SIGBUS, NULL, &cur) != 0) {
    rc = errno;
  } else if (!(cur.sa_flags & SA_SIGINFO) || cur.sa_sigaction != on_sigbus) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    g_old_bus = cur;
    if (sigaction(SIGBUS, &sa, NULL) != 0) rc = errno;
  }
  pthread_mutex_unlock(&g_bus_lock);
  return rc;
}

/* Copies n bytes, non-temporally if asked; IOSPD_EMAPFAULT if a page of
 * the view could not be reached, else 0. Not inlined: the recovery point
 * must belong to a frame that is live for exactly the copy. */
static __attribute__((noinline)) int guarded_copy(void* dst, const void* src,
                                                 size_t n, bool nontemporal) {
  sigjmp_buf env;
  if (sigsetjmp(env, 0) != 0) return IOSPD_EMAPFAULT;
  t_guard = &env;
  atomic_signal_fence(memory_order_seq_cst);
  if (nontemporal)
    iospd_copy_nontemporal(dst, src, n);
  else
    memcpy(dst, src, n);
  atomic_signal_fence(memory_order_seq_cst);
  t_guard = NULL;
  return 0;
}

int iospd_posix_map(iospd_plat_file_t* f, iospd_err_t* err) {
  if (f->is_device)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "'%s' is a block device; memory-mapped I/O (-Sm) "
                         "works only on regular files",
                         f->path);
  if (f->flags & (IOSPD_OPEN_FLUSH_NV | IOSPD_OPEN_FLUSH_NV_NODRAIN))
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "'%s': the non-volatile memory flushes -Nn and -Ni "
                         "exist only on Windows; use -Nv (msync) or leave "
                         "out -N",
                         f->path);
  struct stat st;
  if (fstat(f->fd, &st) != 0)
    return iospd_posix_err(err, errno, "cannot look at '%s'", f->path);
  if (st.st_size <= 0) return 0; /* nothing to map: reported as empty */
  uint64_t len = (uint64_t)st.st_size;
  if (len > SIZE_MAX)
    return iospd_err_set(err, IOSPD_ERANGE,
                         "'%s' is too large to map into memory", f->path);
  int brc = install_sigbus();
  if (brc != 0)
    return iospd_posix_err(err, brc,
                           "cannot install the SIGBUS handler that guards "
                           "memory-mapped I/O (-Sm) on '%s'",
                           f->path);
  void* p =
      mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
  if (p == MAP_FAILED)
    return iospd_posix_err(err, errno,
                           "cannot map '%s' into memory (-Sm, %llu bytes)",
                           f->path, (unsigned long long)len);
  /* The access-pattern hints apply to the mapping too; advisory. */
  if (f->flags & IOSPD_OPEN_SEQ_HINT)
    (void)madvise(p, (size_t)len, MADV_SEQUENTIAL);
  if (f->flags & IOSPD_OPEN_RANDOM_HINT)
    (void)madvise(p, (size_t)len, MADV_RANDOM);
  f->map = p;
  f->map_len = len;
  return 0;
}

void iospd_posix_unmap(iospd_plat_file_t* f) {
  if (f->map != NULL) munmap(f->map, (size_t)f->map_len);
  f->map = NULL;
  f->map_len = 0;
}

int iospd_posix_mm_attach(iospd_plat_queue_t* q, iospd_plat_file_t* f,
                          uint32_t* file_index, iospd_err_t* err) {
  if (f->map == NULL)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' is empty, so there is nothing to map (-Sm); "
                         "create it with -c<size>",
                         f->path);
  iospd_posix_mm_t* mm = q->mm;
  if (mm == NULL) {
    mm = iospd_calloc(1, sizeof *mm);
    uint32_t depth = q->depth ? q->depth : 1;
    iospd_cqe_t* ring = iospd_calloc(depth, sizeof *ring);
    if (mm == NULL || ring == NULL) {
      iospd_free(mm);
      iospd_free(ring);
      return iospd_err_set(err, IOSPD_ENOMEM, "out of memory attaching '%s'",
                           f->path);
    }
    long page = sysconf(_SC_PAGESIZE);
    mm->page_mask = (uintptr_t)(page > 0 ? page : 4096) - 1u;
    mm->depth = depth;
    mm->ring = ring;
    q->mm = mm;
  }
  mm_file_t* grown =
      iospd_realloc(mm->files, (mm->nfiles + 1) * sizeof *mm->files);
  if (grown == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory attaching '%s'",
                         f->path);
  mm->files = grown;
  mm_file_t* m = &mm->files[mm->nfiles];
  m->base = f->map;
  m->len = f->map_len;
  if (f->flags & IOSPD_OPEN_WRITE_THROUGH)
    m->mode = MM_NONTEMPORAL; /* -Smw: streaming stores, no flush */
  else if (f->flags & IOSPD_OPEN_FLUSH_VIEW)
    m->mode = MM_MSYNC;
  else
    m->mode = MM_PLAIN;
  *file_index = IOSPD_POSIX_MM_INDEX | mm->nfiles++;
  return 0;
}

/* One mapped I/O, start to finish. Hot path: a copy, and an msync for -Nv. */
static int32_t mm_io(const iospd_posix_mm_t* mm, const iospd_io_t* io) {
  uint32_t idx = io->file_index & ~IOSPD_POSIX_MM_INDEX;
  if (IOSPD_UNLIKELY(idx >= mm->nfiles)) return IOSPD_EINVAL;
  const mm_file_t* m = &mm->files[idx];
  /* Past the end reads as end of file, like pread; a straddling I/O is
   * cut short there (the engine reports the short transfer). */
  if (IOSPD_UNLIKELY(io->offset >= m->len)) return 0;
  uint64_t left = m->len - io->offset;
  size_t n = io->length <= left ? io->length : (size_t)left;
  uint8_t* view = m->base + io->offset;
  bool nt = m->mode == MM_NONTEMPORAL;
  if (io->op == IOSPD_OP_WRITE) {
    if (IOSPD_UNLIKELY(guarded_copy(view, io->buf, n, nt) != 0))
      return IOSPD_EMAPFAULT;
    if (m->mode == MM_MSYNC) {
      /* msync wants a page-aligned start: widen the range down to it. */
      uintptr_t start = (uintptr_t)view & ~mm->page_mask;
      size_t span = n + (size_t)((uintptr_t)view - start);
      if (msync((void*)start, span, MS_SYNC) != 0)
        return iospd_posix_translate(errno);
    }
  } else if (IOSPD_UNLIKELY(guarded_copy(io->buf, view, n, nt) != 0)) {
    return IOSPD_EMAPFAULT;
  }
  return (int32_t)n;
}

/* Submit for a queue with mapped files: mapped I/Os complete here, runs of
 * the others go to the engine in one call each. Stops at the first I/O that
 * cannot be taken (ring full, or the engine's short submit). */
int iospd_posix_mm_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                          uint32_t n, uint32_t* accepted) {
  iospd_posix_mm_t* mm = q->mm;
  uint32_t i = 0;
  int rc = 0;
  while (i < n) {
    if (!(ios[i].file_index & IOSPD_POSIX_MM_INDEX)) {
      uint32_t j = i + 1;
      while (j < n && !(ios[j].file_index & IOSPD_POSIX_MM_INDEX)) j++;
      uint32_t want = j - i, acc = 0;
      rc = q->ops->submit(q, ios + i, want, &acc);
      if (acc > want) acc = want;
      i += acc;
      if (rc < 0 || acc < want) break;
      continue;
    }
    if (mm->count == mm->depth) break; /* the engine comes back later */
    uint32_t slot = mm->head + mm->count;
    if (slot >= mm->depth) slot -= mm->depth;
    mm->ring[slot].tag = ios[i].tag;
    mm->ring[slot].result = mm_io(mm, &ios[i]);
    mm->count++;
    i++;
  }
  *accepted = i;
  return rc;
}

int iospd_posix_mm_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                        uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  iospd_posix_mm_t* mm = q->mm;
  uint32_t n = mm->count < max ? mm->count : max;
  for (uint32_t i = 0; i < n; i++) {
    out[i] = mm->ring[mm->head];
    if (++mm->head == mm->depth) mm->head = 0;
  }
  mm->count -= n;
  *got = n;
  if (n == max) return 0;
  /* With mapped completions in hand, only poll the engine; without, wait
   * for it as asked. */
  uint32_t more = 0;
  int rc = q->ops->reap(q, out + n, max - n, n > 0 ? 0 : min,
                        n > 0 ? 0 : timeout_ms, &more);
  *got = n + more;
  return rc;
}

void iospd_posix_mm_free(iospd_posix_mm_t* mm) {
  if (mm == NULL) return;
  iospd_free(mm->files);
  iospd_free(mm->ring);
  iospd_free(mm);
}
