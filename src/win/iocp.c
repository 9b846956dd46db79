/* SPDX-License-Identifier: MIT */
/* Two engines behind the queue front (queue.c), sharing one queue: overlapped ReadFile/WriteFile reaped
 * from an I/O completion port in batches (cf. libuv uv__poll), or, for -x,
 * ReadFileEx/WriteFileEx whose completion routines run in alertable waits.
 * Each in-flight I/O owns the OVERLAPPED of a private slot (taken from a
 * free stack, depth of them) that remembers the core's tag, so a completion
 * leads straight back to the tag. Memory-mapped files (-Sm) are served by
 * a copy inside submit (mapped.c); their completions wait in the ring. */
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "win/internal.h"

#define REAP_BATCH 64
/* How long destroy waits for cancelled I/O before giving up (and leaking
 * the slots rather than freeing memory the kernel may still write). */
#define DRAIN_LIMIT_MS 60000

/* Who holds a slot. Only a slot the kernel holds may be completed by a
 * packet or a routine; anything else arriving for it (a second packet after
 * a synchronous warning status was already counted, a stray post) is
 * dropped and counted, never completed twice. */
enum { SLOT_FREE = 0, SLOT_KERNEL, SLOT_RING };

typedef struct slot_s {
  OVERLAPPED ov;                /* first: the kernel writes status here */
  struct ov_queue_s* q; /* completion routines find their queue */
  uint32_t tag;                 /* the core's, returned in the cqe */
  uint32_t index;               /* own position in slots[] */
  uint8_t op;                   /* IOSPD_OP_* in flight, for error notes */
  uint8_t owner;                /* SLOT_* */
  bool device;                  /* ... on a disk or volume */
} slot_t;

/* A completion waiting in the local ring: the slot is released when the
 * core reaps it, so taken slots bound the ring. */
typedef struct pending_s {
  uint32_t slot;
  int32_t result;
} pending_t;

typedef struct qfile_s {
  HANDLE h;
  bool sync; /* opened without FILE_FLAG_OVERLAPPED: plain blocking calls */
  bool device; /* a disk or volume */
  const iospd_plat_file_t* mapped; /* -Sm: served from the view, or NULL */
} qfile_t;

typedef struct ov_queue_s {
  iospd_plat_queue_t base; /* first: the front (queue.c) dispatches on it */
  HANDLE port; /* NULL in completion-routine mode */
  bool routines;
  uint32_t depth;
  uint32_t inflight;    /* handed to the OS and not yet completed */
  slot_t* slots;        /* depth entries */
  uint32_t* free_slots; /* stack of free slot indexes */
  uint32_t nfree;
  qfile_t* files;
  uint32_t nfiles, files_cap;
  /* Completions that did not come through the port: immediate failures,
   * synchronous handles and completion routines. At most one per taken
   * slot, so depth entries always suffice. */
  pending_t* ring;
  uint32_t ring_head, ring_count;
  /* The first failure, in the order the core receives them: its Win32
   * code (0 when it was not the OS's, e.g. a -Sm copy) and what it was. */
  bool failed;
  DWORD first_error;
  uint8_t first_op;
  bool first_device;
  NTSTATUS first_status; /* the raw status when it maps to no Win32 code */
  uint64_t dropped; /* completions for a slot the kernel did not hold */
} ov_queue_t;

static void push_pending(ov_queue_t* q, slot_t* s, int32_t result) {
  if (q->ring_count == q->depth || s->owner == SLOT_RING) {
    q->dropped++; /* impossible: one per taken slot */
    return;
  }
  uint32_t i = (q->ring_head + q->ring_count) % q->depth;
  q->ring[i].slot = s->index;
  q->ring[i].result = result;
  q->ring_count++;
  s->owner = SLOT_RING;
}

/* Back on the free stack, once: a slot already free (or a full stack)
 * is a bug elsewhere and must not write past free_slots[]. */
static void release(ov_queue_t* q, slot_t* s) {
  if (s->owner == SLOT_FREE || q->nfree >= q->depth) {
    q->dropped++;
    return;
  }
  s->owner = SLOT_FREE;
  q->free_slots[q->nfree++] = s->index;
}

/* NTSTATUS values the decision below reads (winternl.h names neither). */
#define IOSPD_STATUS_PENDING ((ULONG_PTR)0x00000103UL)
#define IOSPD_NT_ERROR(st) ((((ULONG)(st)) >> 30) == 3u)

bool iospd_win_io_packet_due(BOOL ok, DWORD e, ULONG_PTR internal) {
  if (ok || e == ERROR_IO_PENDING) return true;
  /* FALSE with a status the kernel wrote that is not an error (a warning
   * such as STATUS_VERIFY_REQUIRED, or an informational one): the I/O
   * manager completed the request and queues its packet all the same.
   * Still pending means the call failed before any request was made. */
  if ((ULONG)internal == (ULONG)IOSPD_STATUS_PENDING) return false;
  return !IOSPD_NT_ERROR(internal);
}

static uint32_t pop_pending(ov_queue_t* q, iospd_cqe_t* out,
                            uint32_t room) {
  uint32_t n = 0;
  while (q->ring_count > 0 && n < room) {
    const pending_t* p = &q->ring[q->ring_head];
    slot_t* s = &q->slots[p->slot];
    out[n].tag = s->tag;
    out[n].result = p->result;
    n++;
    release(q, s);
    q->ring_head = (q->ring_head + 1) % q->depth;
    q->ring_count--;
  }
  return n;
}

/* Win32 status + byte count -> cqe result. End of file reads as 0 bytes,
 * like pread, rather than as an error code; the engine then fails the run
 * with its short-transfer message (target truncated under the run). */
static int32_t io_result(DWORD e, DWORD bytes) {
  if (e == ERROR_SUCCESS)
    return bytes > (DWORD)INT32_MAX ? INT32_MAX : (int32_t)bytes;
  if (e == ERROR_HANDLE_EOF) return 0;
  return (int32_t)iospd_win_translate(e);
}

/* Keeps the first failure's raw code (e is 0 for a failure that did not
 * come from the OS). Called where a failed result is made, which is the
 * order reap hands results to the core. */
static void note_failure(ov_queue_t* q, DWORD e, const slot_t* s) {
  if (IOSPD_LIKELY(q->failed)) return;
  q->failed = true;
  q->first_error = e;
  q->first_op = s != NULL ? s->op : IOSPD_OP_READ;
  q->first_device = s != NULL && s->device;
}

/* io_result for slot s, noting a failure. */
static int32_t slot_result(ov_queue_t* q, const slot_t* s, DWORD e,
                           DWORD bytes) {
  int32_t r = io_result(e, bytes);
  if (IOSPD_UNLIKELY(r < 0)) note_failure(q, e, s);
  return r;
}

static int ov_destroy(iospd_plat_queue_t* bq);
static const iospd_win_queue_ops_t iocp_ops, routines_ops;

/* One queue for both engines: routines says which. */
static int queue_create(iospd_plat_queue_t** out, uint32_t depth,
                        bool routines, iospd_err_t* err) {
  *out = NULL;
  iospd_win_once();
  if (depth == 0)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "a queue needs room for at least one I/O");
  ov_queue_t* q = iospd_calloc(1, sizeof *q);
  if (q == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  q->depth = depth;
  q->base.ops = routines ? &routines_ops : &iocp_ops;
  q->routines = routines;
  q->slots = iospd_calloc(depth, sizeof *q->slots);
  q->ring = iospd_calloc(depth, sizeof *q->ring);
  q->free_slots = iospd_calloc(depth, sizeof *q->free_slots);
  if (q->slots == NULL || q->ring == NULL || q->free_slots == NULL) {
    (void)ov_destroy(&q->base);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  for (uint32_t i = 0; i < depth; i++) {
    q->slots[i].q = q;
    q->slots[i].index = i;
    q->free_slots[i] = depth - 1 - i;
  }
  q->nfree = depth;
  if (!q->routines) {
    /* One consumer thread per port. Failure is NULL, not
     * INVALID_HANDLE_VALUE (fio's windowsaio checks the wrong one). */
    q->port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
    if (q->port == NULL) {
      int rc = iospd_win_err(err, GetLastError(),
                             "cannot create an I/O completion port");
      (void)ov_destroy(&q->base);
      return rc;
    }
  }
  *out = &q->base;
  return 0;
}

int iospd_win_iocp_create(iospd_plat_queue_t** q, uint32_t depth,
                          unsigned flags, iospd_err_t* err) {
  if (flags & IOSPD_QUEUE_COMPLETION_ROUTINES) {
    *q = NULL;
    return iospd_err_set(err, IOSPD_EINVAL,
                         "-x asks for completion routines, but --engine "
                         "names the I/O completion port; leave out one");
  }
  return queue_create(q, depth, false, err);
}

int iospd_win_routines_create(iospd_plat_queue_t** q, uint32_t depth,
                              unsigned flags, iospd_err_t* err) {
  (void)flags;
  return queue_create(q, depth, true, err);
}

static int64_t ov_os_error(const iospd_plat_queue_t* bq, char* text,
                           size_t size) {
  const ov_queue_t* q = (const ov_queue_t*)bq;
  if (text != NULL && size > 0) text[0] = '\0';
  if (q == NULL || !q->failed || q->first_error == 0) return 0;
  if (text != NULL && size > 0) {
    if (q->first_status != 0)
      iospd_win_status_text(q->first_status, text, size);
    else
      iospd_win_error_text(q->first_error, text, size);
    /* Windows lets no one write inside a mounted file system through a
     * disk or volume handle (unless the volume is locked or dismounted by
     * the writer), elevated or not, --allow-raw-write or not; but writes
     * outside it land. raw_write.c refuses such targets before the run,
     * so this is a file system mounted under the run: say what may have
     * changed. */
    if (q->first_error == ERROR_ACCESS_DENIED &&
        q->first_op == IOSPD_OP_WRITE && q->first_device) {
      size_t n = strlen(text);
      snprintf(text + n, size - n,
               "; Windows refuses writes inside a mounted file system but "
               "lets earlier writes outside it land, so the boot sectors, "
               "partition tables or space outside the file system may "
               "already hold iospd's data: take the disk offline "
               "(Set-Disk -IsOffline $true) and target it as #N");
    }
  }
  return (int64_t)q->first_error;
}

static int ov_attach(iospd_plat_queue_t* bq, iospd_plat_file_t* f,
                     uint32_t* file_index, iospd_err_t* err) {
  ov_queue_t* q = (ov_queue_t*)bq;
  if (q->nfiles == q->files_cap) {
    uint32_t cap = q->files_cap ? q->files_cap * 2 : 4;
    qfile_t* n = iospd_realloc(q->files, cap * sizeof *n);
    if (n == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    q->files = n;
    q->files_cap = cap;
  }
  bool sync = (f->flags & IOSPD_OPEN_ASYNC) == 0;
  if (f->flags & IOSPD_OPEN_MAPPED) {
    if (f->view == NULL)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "'%s' is empty, so there is nothing to map (-Sm); "
                           "create it with -c<size>",
                           f->path);
    /* Mapped I/O never goes through the port (nor through routines). */
    q->files[q->nfiles].h = f->h;
    q->files[q->nfiles].sync = true;
    q->files[q->nfiles].device = false;
    q->files[q->nfiles].mapped = f;
    *file_index = q->nfiles++;
    return 0;
  }
  /* The completion key is the file index; reap does not need it, but it
   * makes port dumps readable. A handle binds to one port for good. */
  if (!sync && !q->routines &&
      CreateIoCompletionPort(f->h, q->port, (ULONG_PTR)q->nfiles, 0) == NULL)
    return iospd_win_err(err, GetLastError(),
                         "cannot bind '%s' to the I/O completion port "
                         "(each worker needs its own handle)",
                         f->path);
  q->files[q->nfiles].h = f->h;
  q->files[q->nfiles].sync = sync;
  q->files[q->nfiles].device = f->is_device;
  q->files[q->nfiles].mapped = NULL;
  *file_index = q->nfiles++;
  return 0;
}

static VOID CALLBACK routine_done(DWORD e, DWORD bytes, LPOVERLAPPED ov) {
  slot_t* s = CONTAINING_RECORD(ov, slot_t, ov);
  ov_queue_t* q = s->q;
  if (IOSPD_UNLIKELY(s->owner != SLOT_KERNEL)) {
    q->dropped++;
    return;
  }
  q->inflight--;
  s->owner = SLOT_FREE; /* between owners: push_pending takes it */
  push_pending(q, s, slot_result(q, s, e, bytes));
}

/* Blocking I/O on a handle opened without FILE_FLAG_OVERLAPPED; the
 * OVERLAPPED only carries the offset. */
static void submit_sync(ov_queue_t* q, const iospd_io_t* io, HANDLE h,
                        slot_t* s) {
  s->owner = SLOT_FREE; /* taken, not yet anyone's */
  DWORD n = 0;
  BOOL ok = io->op == IOSPD_OP_WRITE
                ? WriteFile(h, io->buf, io->length, &n, &s->ov)
                : ReadFile(h, io->buf, io->length, &n, &s->ov);
  push_pending(q, s, slot_result(q, s, ok ? ERROR_SUCCESS : GetLastError(), n));
}

/* Hot path. routines is a constant in each engine's wrapper below, so each
 * gets its own loop without a per-I/O test of the mode. */
static inline int ov_submit(ov_queue_t* q, const iospd_io_t* ios, uint32_t n,
                            uint32_t* accepted, bool routines) {
  uint32_t i;
  /* Only as many as there are free slots: the rest stay with the caller
   * for the next pass. */
  for (i = 0; i < n && q->nfree > 0; i++) {
    const iospd_io_t* io = &ios[i];
    slot_t* s = &q->slots[q->free_slots[--q->nfree]];
    s->owner = SLOT_FREE; /* taken: the ring or the kernel gets it below */
    s->tag = io->tag;
    s->op = io->op;
    s->device = false;
    if (IOSPD_UNLIKELY(io->file_index >= q->nfiles)) {
      note_failure(q, 0, s);
      push_pending(q, s, IOSPD_EINVAL); /* reported like any failed I/O */
      continue;
    }
    const qfile_t* f = &q->files[io->file_index];
    s->device = f->device;
    if (f->mapped != NULL) {
      /* -Sm: done now; the completion waits in the ring for reap. */
      int32_t r = iospd_win_mapped_io(f->mapped, io->op, io->offset,
                                      io->length, io->buf);
      /* A failed flush is the OS's (its code in GetLastError()); a fault
       * on the view is not. */
      if (IOSPD_UNLIKELY(r < 0))
        note_failure(q, r == IOSPD_EMAPFAULT ? 0 : GetLastError(), s);
      push_pending(q, s, r);
      continue;
    }
    memset(&s->ov, 0, sizeof s->ov);
    /* As kernel32 does: still pending afterwards means no request was
     * made (iospd_win_io_packet_due). */
    s->ov.Internal = IOSPD_STATUS_PENDING;
    s->ov.Offset = (DWORD)io->offset;
    s->ov.OffsetHigh = (DWORD)(io->offset >> 32);
    if (f->sync) {
      submit_sync(q, io, f->h, s);
      continue;
    }
    BOOL ok;
    if (routines) {
      ok = io->op == IOSPD_OP_WRITE
               ? WriteFileEx(f->h, io->buf, io->length, &s->ov, routine_done)
               : ReadFileEx(f->h, io->buf, io->length, &s->ov, routine_done);
    } else {
      ok = io->op == IOSPD_OP_WRITE
               ? WriteFile(f->h, io->buf, io->length, NULL, &s->ov)
               : ReadFile(f->h, io->buf, io->length, NULL, &s->ov);
    }
    /* TRUE (done at once) still queues a packet or routine, since
     * FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is never enabled; so does a
     * FALSE with a warning status (iospd_win_io_packet_due). ReadFileEx
     * returns TRUE for those and FALSE only when nothing was queued. */
    DWORD e = ok ? ERROR_SUCCESS : GetLastError();
    if (ok || (!routines && iospd_win_io_packet_due(ok, e, s->ov.Internal))) {
      s->owner = SLOT_KERNEL;
      q->inflight++;
    } else {
      push_pending(q, s, slot_result(q, s, e, 0));
    }
  }
  *accepted = i;
  return 0;
}

static DWORD remaining_ms(uint32_t timeout_ms, ULONGLONG deadline) {
  if (timeout_ms == UINT32_MAX) return INFINITE;
  ULONGLONG now = GetTickCount64();
  return now >= deadline ? 0 : (DWORD)(deadline - now);
}

iospd_win_gqcs_ex_fn iospd_win_gqcs_ex = GetQueuedCompletionStatusEx;

static int reap_port(ov_queue_t* q, iospd_cqe_t* out, uint32_t max,
                     uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  ULONGLONG deadline =
      timeout_ms == UINT32_MAX ? 0 : GetTickCount64() + timeout_ms;
  uint32_t n = pop_pending(q, out, max);
  while (n < max && q->inflight > 0) {
    DWORD wait = n >= min ? 0 : remaining_ms(timeout_ms, deadline);
    OVERLAPPED_ENTRY ents[REAP_BATCH];
    ULONG want = (ULONG)IOSPD_MIN((uint32_t)REAP_BATCH, max - n);
    ULONG cnt = 0;
    /* -g/-j: a throttled slot's short wait ends on a high-resolution
     * timer's APC, not a system tick (15.6 ms) late. */
    HANDLE fine = iospd_win_fine_wake_arm(wait);
    BOOL ok = iospd_win_gqcs_ex(q->port, ents, want, &cnt,
                                          fine ? wait + 20 : wait, fine != NULL);
    DWORD werr = ok ? ERROR_SUCCESS : GetLastError();
    if (fine != NULL) CancelWaitableTimer(fine);
    if (!ok) {
      if (werr == WAIT_TIMEOUT || werr == WAIT_IO_COMPLETION) break;
      note_failure(q, werr, NULL);
      *got = n;
      return iospd_win_translate(werr);
    }
    for (ULONG i = 0; i < cnt; i++) {
      if (ents[i].lpOverlapped == NULL) continue; /* a posted wake-up */
      /* Only a slot of this queue that the kernel holds completes. */
      ULONG_PTR at = (ULONG_PTR)ents[i].lpOverlapped;
      ULONG_PTR base = (ULONG_PTR)q->slots;
      if (IOSPD_UNLIKELY(at < base ||
                         at - base >= (ULONG_PTR)q->depth * sizeof(slot_t) ||
                         (at - base) % sizeof(slot_t) != 0)) {
        q->dropped++;
        continue;
      }
      slot_t* s = &q->slots[(at - base) / sizeof(slot_t)];
      if (IOSPD_UNLIKELY(s->owner != SLOT_KERNEL)) {
        q->dropped++;
        continue;
      }
      /* The status is the NTSTATUS the kernel left in Internal, never
       * GetLastError() (fio's windowsaio mistake). */
      NTSTATUS st = (NTSTATUS)s->ov.Internal;
      DWORD e = st >= 0 ? ERROR_SUCCESS : iospd_win_ntstatus_to_win32(st);
      if (IOSPD_UNLIKELY(e == ERROR_MR_MID_NOT_FOUND) && !q->failed)
        q->first_status = st;
      q->inflight--;
      release(q, s);
      out[n].tag = s->tag;
      out[n].result = slot_result(q, s, e, ents[i].dwNumberOfBytesTransferred);
      n++;
    }
    if (n >= min && wait != 0) break;  /* got what we waited for */
    if (n >= min && cnt < want) break; /* polled and the port is empty */
  }
  *got = n;
  return 0;
}

static int reap_routines(ov_queue_t* q, iospd_cqe_t* out, uint32_t max,
                         uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  ULONGLONG deadline =
      timeout_ms == UINT32_MAX ? 0 : GetTickCount64() + timeout_ms;
  uint32_t n = 0;
  bool polled = false;
  for (;;) {
    n += pop_pending(q, out + n, max - n);
    if (n >= max || (n >= min && polled) || q->inflight == 0) break;
    DWORD wait = n >= min ? 0 : remaining_ms(timeout_ms, deadline);
    /* Completion routines run only inside an alertable wait on the thread
     * that issued the I/O; they fill the ring. With -g/-j a short wait
     * ends on a high-resolution timer's APC, which leaves the timer
     * signalled. */
    HANDLE fine = iospd_win_fine_wake_arm(wait);
    DWORD r = SleepEx(fine ? wait + 20 : wait, TRUE);
    bool expired = fine != NULL && r == WAIT_IO_COMPLETION &&
                   WaitForSingleObject(fine, 0) == WAIT_OBJECT_0;
    if (fine != NULL) CancelWaitableTimer(fine);
    polled = true;
    if (r != WAIT_IO_COMPLETION || expired) {
      n += pop_pending(q, out + n, max - n);
      break; /* timed out */
    }
  }
  *got = n;
  return 0;
}

static int iocp_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                       uint32_t n, uint32_t* accepted) {
  return ov_submit((ov_queue_t*)q, ios, n, accepted, false);
}

static int routines_submit(iospd_plat_queue_t* q, const iospd_io_t* ios,
                           uint32_t n, uint32_t* accepted) {
  return ov_submit((ov_queue_t*)q, ios, n, accepted, true);
}

static int iocp_reap(iospd_plat_queue_t* q, iospd_cqe_t* out, uint32_t max,
                     uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  return reap_port((ov_queue_t*)q, out, max, min, timeout_ms, got);
}

static int routines_reap(iospd_plat_queue_t* q, iospd_cqe_t* out,
                         uint32_t max, uint32_t min, uint32_t timeout_ms,
                         uint32_t* got) {
  return reap_routines((ov_queue_t*)q, out, max, min, timeout_ms, got);
}

static int ov_destroy(iospd_plat_queue_t* bq) {
  ov_queue_t* q = (ov_queue_t*)bq;
  for (uint32_t i = 0; i < q->nfiles; i++)
    if (!q->files[i].sync) CancelIoEx(q->files[i].h, NULL);
  /* Every OVERLAPPED handed to the kernel must complete before its slot is
   * freed, or the kernel writes into freed memory. */
  ULONGLONG give_up = GetTickCount64() + DRAIN_LIMIT_MS;
  iospd_cqe_t sink[REAP_BATCH];
  while (q->inflight > 0 && GetTickCount64() < give_up) {
    uint32_t got;
    q->ring_count = 0; /* results are discarded */
    if (q->routines) {
      (void)reap_routines(q, sink, REAP_BATCH, 1, 1000, &got);
    } else if (reap_port(q, sink, REAP_BATCH, 1, 1000, &got) != 0) {
      /* The port itself failed (not a timeout): asking again would only
       * fail again, at full speed, for the whole drain limit. */
      break;
    }
  }
  if (q->inflight > 0) return IOSPD_EIO; /* leak rather than corrupt memory */
  if (q->port != NULL) CloseHandle(q->port);
  iospd_free(q->files);
  iospd_free(q->ring);
  iospd_free(q->free_slots);
  iospd_free(q->slots);
  iospd_free(q);
  return 0;
}

void iospd_win_iocp_probe(const iospd_plat_queue_t* bq,
                          iospd_win_iocp_probe_t* out) {
  const ov_queue_t* q = (const ov_queue_t*)bq;
  out->port = q->port;
  out->depth = q->depth;
  out->nfree = q->nfree;
  out->inflight = q->inflight;
  out->dropped = q->dropped;
}

OVERLAPPED* iospd_win_iocp_slot_ov(iospd_plat_queue_t* bq, uint32_t tag) {
  ov_queue_t* q = (ov_queue_t*)bq;
  for (uint32_t i = 0; i < q->depth; i++)
    if (q->slots[i].tag == tag) return &q->slots[i].ov;
  return NULL;
}

/* Every ReadFile/WriteFile (and every -Sm copy) is its own call, so the
 * core stamps each I/O at its own submit (submit_each). */
static const iospd_win_queue_ops_t iocp_ops = {
    .name = "I/O Completion Ports",
    .submit_each = true,
    .attach = ov_attach,
    .submit = iocp_submit,
    .reap = iocp_reap,
    .os_error = ov_os_error,
    .destroy = ov_destroy,
};

static const iospd_win_queue_ops_t routines_ops = {
    .name = "completion routines (ReadFileEx/WriteFileEx)",
    .submit_each = true,
    .attach = ov_attach,
    .submit = routines_submit,
    .reap = routines_reap,
    .os_error = ov_os_error,
    .destroy = ov_destroy,
};
