/* SPDX-License-Identifier: MIT */
/* The IoRing engine (--engine=ioring, and what DISKSPD 2.3's -u selects):
 * a sibling of the completion-port engine behind the queue front
 * (queue.c). Each submit builds one ring entry per I/O and hands the whole
 * batch to the kernel with one SubmitIoRing, so the batch the core passes
 * is the batch the kernel sees; reap pops completions and, when it must
 * wait, waits inside SubmitIoRing. Files are registered with the ring
 * (BuildIoRingRegisterFileHandles) and referred to by index; the worker's
 * I/O buffer, when the core registers it (iospd_plat_queue_register_buffers,
 * which it skips for -un), by index and offset. Every in-flight I/O owns a
 * slot (a free stack of depth of them) whose index is the entry's user
 * data, so a completion leads straight back to the core's tag. The calls
 * come from the table in ioring_api.c (kernelbase.dll, or a test's fake).
 * The capabilities are checked before any I/O: at create (IoRing at all)
 * and when a file opened for writing is attached (version 3). */
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "win/internal.h"
#include "win/ioring_api.h"

/* User data of the entries that are not I/Os (registrations, cancels). */
#define CONTROL_DATA ((UINT_PTR)-1)
/* How long destroy waits for cancelled I/O before giving up (and leaking
 * the slots rather than freeing memory the kernel may still write). */
#define DRAIN_LIMIT_MS 60000u
/* How long a registration may take at set-up. */
#define CONTROL_WAIT_MS 10000u

typedef struct ring_slot_s {
  uint32_t tag;        /* the core's, returned in the cqe */
  uint32_t file_index; /* for the cancel at the end */
  uint8_t op;          /* IOSPD_OP_* */
  bool busy;           /* handed to the ring, completion not yet popped */
} ring_slot_t;

typedef struct ring_queue_s {
  iospd_plat_queue_t base; /* first: the front dispatches on it */
  const iospd_win_ioring_api_t* api;
  iospd_hioring_t ring; /* NULL for a plan-only queue (-Rp) */
  int version;          /* the IoRing version the ring was made with */
  uint32_t depth;
  uint32_t inflight; /* submitted, completion not yet popped */
  ring_slot_t* slots;
  uint32_t* free_slots;
  uint32_t nfree;
  HANDLE* handles; /* attached files, in index order */
  uint32_t nfiles, files_cap;
  bool files_registered; /* handles[] registered: refer by index */
  uint8_t* reg_base;     /* the registered buffer, or NULL */
  size_t reg_len;
  bool broken; /* a submit failed: entries may be left in the ring */
  /* The first failure, in the order the core receives them. */
  bool failed;
  DWORD first_error;   /* Win32 code, 0 if none could be derived */
  HRESULT first_hr;    /* the ring's own answer */
} ring_queue_t;

static const iospd_win_queue_ops_t ring_ops;

/* An IoRing HRESULT -> a Win32 error code (0 when it carries none). */
static DWORD hr_to_win32(HRESULT hr) {
  uint32_t u = (uint32_t)hr;
  if ((u & 0xFFFF0000u) == 0x80070000u) return (DWORD)(u & 0xFFFFu);
  if (u & 0x10000000u) /* HRESULT_FROM_NT */
    return iospd_win_ntstatus_to_win32((NTSTATUS)(u & ~0x10000000u));
  return 0;
}

static void note_failure(ring_queue_t* q, HRESULT hr) {
  if (IOSPD_LIKELY(q->failed)) return;
  q->failed = true;
  q->first_hr = hr;
  q->first_error = hr_to_win32(hr);
}

/* A completion's HRESULT and byte count -> cqe result. End of file reads
 * as 0 bytes, as on the completion-port engine. */
static int32_t cqe_result(ring_queue_t* q, const iospd_ior_cqe_t* c) {
  if (SUCCEEDED(c->result))
    return c->information > (ULONG_PTR)INT32_MAX ? INT32_MAX
                                                 : (int32_t)c->information;
  DWORD e = hr_to_win32(c->result);
  if (e == ERROR_HANDLE_EOF) return 0;
  note_failure(q, c->result);
  if (e == 0) return IOSPD_EIO;
  int r = iospd_win_translate(e);
  return r < 0 ? (int32_t)r : IOSPD_EIO;
}

static int ring_err(iospd_err_t* err, HRESULT hr, const char* what) {
  DWORD e = hr_to_win32(hr);
  if (e != 0) return iospd_win_err(err, e, "%s", what);
  return iospd_err_set_os(err, IOSPD_EOS, (int64_t)(uint32_t)hr,
                          "%s (HRESULT 0x%08lX)", what, (unsigned long)hr);
}

/* Submits what is built (one control entry) and waits for its completion,
 * returning its result; I/O completions popped meanwhile would be lost, so
 * this runs only at set-up, before any I/O. */
static HRESULT control_round_trip(ring_queue_t* q) {
  UINT32 done = 0;
  HRESULT hr = q->api->SubmitIoRing(q->ring, 1, CONTROL_WAIT_MS, &done);
  if (FAILED(hr) && hr != IOSPD_IOR_E_WAIT_TIMEOUT) return hr;
  iospd_ior_cqe_t c;
  ULONGLONG give_up = GetTickCount64() + CONTROL_WAIT_MS;
  for (;;) {
    memset(&c, 0, sizeof c);
    HRESULT p = q->api->PopIoRingCompletion(q->ring, &c);
    if (p == S_OK && c.user_data == CONTROL_DATA) return c.result;
    if (p != S_OK) {
      if (GetTickCount64() >= give_up)
        return HRESULT_FROM_WIN32(ERROR_TIMEOUT);
      (void)q->api->SubmitIoRing(q->ring, 1, 100, &done);
    }
  }
}

static int ring_destroy(iospd_plat_queue_t* bq);

int iospd_win_ioring_create(iospd_plat_queue_t** out, uint32_t depth,
                            unsigned flags, iospd_err_t* err) {
  *out = NULL;
  iospd_win_once();
  if (flags & IOSPD_QUEUE_COMPLETION_ROUTINES)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "-x asks for completion routines, which IoRing (-u, "
                         "--engine=ioring) does not use; leave out one");
  if (depth == 0)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "a queue needs room for at least one I/O");
  const iospd_win_ioring_api_t* api = iospd_win_ioring_api();
  int version = 0;
  if (!(flags & IOSPD_QUEUE_PLAN)) {
    int rc = iospd_win_ioring_check(api, false, &version, err);
    if (rc < 0) return rc;
  }
  ring_queue_t* q = iospd_calloc(1, sizeof *q);
  if (q == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  q->base.ops = &ring_ops;
  q->api = api;
  q->depth = depth;
  q->slots = iospd_calloc(depth, sizeof *q->slots);
  q->free_slots = iospd_calloc(depth, sizeof *q->free_slots);
  if (q->slots == NULL || q->free_slots == NULL) {
    (void)ring_destroy(&q->base);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  for (uint32_t i = 0; i < depth; i++) q->free_slots[i] = depth - 1 - i;
  q->nfree = depth;
  if (!(flags & IOSPD_QUEUE_PLAN)) {
    /* Room for every I/O plus the entries that are not I/Os; the ring
     * rounds the sizes up as it needs. Writes need version 3: ask for the
     * highest the system has. */
    uint32_t sq = depth + 1;
    iospd_ior_create_flags_t cf = {0, 0};
    q->version = version;
    HRESULT hr = api->CreateIoRing(version, cf, sq, sq * 2, &q->ring);
    if (FAILED(hr) || q->ring == NULL) {
      q->ring = NULL;
      int rc = ring_err(err, hr, "cannot create an IoRing (CreateIoRing)");
      (void)ring_destroy(&q->base);
      return rc;
    }
  }
  *out = &q->base;
  return 0;
}

static int64_t ring_os_error(const iospd_plat_queue_t* bq, char* text,
                             size_t size) {
  const ring_queue_t* q = (const ring_queue_t*)bq;
  if (text != NULL && size > 0) text[0] = '\0';
  if (q == NULL || !q->failed) return 0;
  if (q->first_error != 0) {
    if (text != NULL && size > 0)
      iospd_win_error_text(q->first_error, text, size);
    return (int64_t)q->first_error;
  }
  if (text != NULL && size > 0)
    snprintf(text, size, "IoRing completion HRESULT 0x%08lX",
             (unsigned long)q->first_hr);
  return (int64_t)(uint32_t)q->first_hr;
}

static int ring_attach(iospd_plat_queue_t* bq, iospd_plat_file_t* f,
                       uint32_t* file_index, iospd_err_t* err) {
  ring_queue_t* q = (ring_queue_t*)bq;
  if (f->flags & IOSPD_OPEN_MAPPED)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' is memory mapped (-Sm), which IoRing (-u) "
                         "cannot serve; leave out one",
                         f->path);
  if ((f->flags & IOSPD_OPEN_WRITE) && q->ring != NULL) {
    /* Checked here, before any I/O: writes came with IoRing version 3. */
    int version = 0;
    int rc = iospd_win_ioring_check(q->api, true, &version, err);
    if (rc < 0) return rc;
    if (!q->api->IsIoRingOpSupported(q->ring, IOSPD_IOR_OP_WRITE))
      return iospd_err_set(
          err, IOSPD_ENOTSUP,
          "IoRing (-u) cannot write to '%s': IsIoRingOpSupported says this "
          "ring has no write operation; IoRing writes need Windows 11 22H2 "
          "(build %u or later); use -w0, or leave out -u to use I/O "
          "completion ports",
          f->path, IOSPD_IOR_BUILD_WRITE);
  }
  if (q->nfiles == q->files_cap) {
    uint32_t cap = q->files_cap ? q->files_cap * 2 : 4;
    HANDLE* n = iospd_realloc(q->handles, cap * sizeof *n);
    if (n == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
    q->handles = n;
    q->files_cap = cap;
  }
  q->handles[q->nfiles] = f->h;
  *file_index = q->nfiles++;
  if (q->ring == NULL) return 0;
  /* Register every handle so far (a registration replaces the last). A
   * refusal leaves raw handles, which work the same, a little slower. */
  HRESULT hr = q->api->BuildIoRingRegisterFileHandles(q->ring, q->nfiles,
                                                      q->handles, CONTROL_DATA);
  if (SUCCEEDED(hr)) hr = control_round_trip(q);
  q->files_registered = SUCCEEDED(hr);
  return 0;
}

static int ring_register_buffers(iospd_plat_queue_t* bq, void* base,
                                 size_t len, iospd_err_t* err) {
  ring_queue_t* q = (ring_queue_t*)bq;
  if (q->ring == NULL) return 0;
  if (len == 0 || len > UINT32_MAX)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "an IoRing buffer holds at most 4 GiB (asked %zu "
                         "bytes)",
                         len);
  iospd_ior_buffer_info_t b = {base, (UINT32)len};
  HRESULT hr =
      q->api->BuildIoRingRegisterBuffers(q->ring, 1, &b, CONTROL_DATA);
  if (SUCCEEDED(hr)) hr = control_round_trip(q);
  if (FAILED(hr))
    return ring_err(err, hr,
                    "cannot register the I/O buffer with the IoRing");
  q->reg_base = base;
  q->reg_len = len;
  return 0;
}

/* Hot path: one entry per I/O, then one SubmitIoRing for all of them. */
static int ring_submit(iospd_plat_queue_t* bq, const iospd_io_t* ios,
                       uint32_t n, uint32_t* accepted) {
  ring_queue_t* q = (ring_queue_t*)bq;
  const iospd_win_ioring_api_t* a = q->api;
  uint32_t i = 0, built = 0;
  *accepted = 0;
  if (IOSPD_UNLIKELY(q->ring == NULL || q->broken)) return IOSPD_EINVAL;
  for (; i < n && q->nfree > 0; i++) {
    const iospd_io_t* io = &ios[i];
    if (IOSPD_UNLIKELY(io->file_index >= q->nfiles)) break;
    uint32_t si = q->free_slots[q->nfree - 1];
    iospd_ior_handle_ref_t fr;
    if (q->files_registered) {
      fr.kind = IOSPD_IOR_REF_REGISTERED;
      fr.u.index = io->file_index;
    } else {
      fr.kind = IOSPD_IOR_REF_RAW;
      fr.u.handle = q->handles[io->file_index];
    }
    iospd_ior_buffer_ref_t br;
    uint8_t* p = io->buf;
    if (q->reg_base != NULL && p >= q->reg_base &&
        (size_t)(p - q->reg_base) + io->length <= q->reg_len) {
      br.kind = IOSPD_IOR_REF_REGISTERED;
      br.u.reg.index = 0;
      br.u.reg.offset = (UINT32)(p - q->reg_base);
    } else {
      br.kind = IOSPD_IOR_REF_RAW;
      br.u.address = p;
    }
    HRESULT hr =
        io->op == IOSPD_OP_WRITE
            ? a->BuildIoRingWriteFile(q->ring, fr, br, io->length, io->offset,
                                      0, (UINT_PTR)si, 0)
            : a->BuildIoRingReadFile(q->ring, fr, br, io->length, io->offset,
                                     (UINT_PTR)si, 0);
    if (FAILED(hr)) break; /* ring full: the rest waits for the next pass */
    q->nfree--;
    ring_slot_t* s = &q->slots[si];
    s->tag = io->tag;
    s->op = io->op;
    s->file_index = io->file_index;
    s->busy = true;
    built++;
  }
  if (built == 0) return i < n && ios[i].file_index >= q->nfiles ? IOSPD_EINVAL
                                                                  : 0;
  UINT32 done = 0;
  HRESULT hr = a->SubmitIoRing(q->ring, 0, 0, &done);
  if (FAILED(hr) && hr != IOSPD_IOR_E_WAIT_TIMEOUT) {
    /* The entries stay in the ring's queue; nothing more goes in, and
     * destroy leaks the buffers rather than risk the kernel using them. */
    note_failure(q, hr);
    q->broken = true;
    DWORD e = hr_to_win32(hr);
    int r = e != 0 ? iospd_win_translate(e) : IOSPD_EIO;
    return r < 0 ? r : IOSPD_EIO;
  }
  q->inflight += built;
  *accepted = built;
  return 0;
}

/* Pops up to room completions of I/Os into out. */
static uint32_t pop_some(ring_queue_t* q, iospd_cqe_t* out, uint32_t room) {
  uint32_t n = 0;
  iospd_ior_cqe_t c;
  while (n < room) {
    if (q->api->PopIoRingCompletion(q->ring, &c) != S_OK) break;
    if (c.user_data >= q->depth) continue; /* a registration or cancel */
    ring_slot_t* s = &q->slots[c.user_data];
    if (IOSPD_UNLIKELY(!s->busy)) continue; /* not ours: ring bug */
    s->busy = false;
    q->free_slots[q->nfree++] = (uint32_t)c.user_data;
    if (q->inflight > 0) q->inflight--;
    out[n].tag = s->tag;
    out[n].result = cqe_result(q, &c);
    n++;
  }
  return n;
}

static int ring_reap(iospd_plat_queue_t* bq, iospd_cqe_t* out, uint32_t max,
                     uint32_t min, uint32_t timeout_ms, uint32_t* got) {
  ring_queue_t* q = (ring_queue_t*)bq;
  *got = 0;
  if (q->ring == NULL) return 0;
  ULONGLONG deadline =
      timeout_ms == UINT32_MAX ? 0 : GetTickCount64() + timeout_ms;
  uint32_t n = pop_some(q, out, max);
  while (n < min && q->inflight > 0) {
    DWORD wait = INFINITE;
    if (timeout_ms != UINT32_MAX) {
      ULONGLONG now = GetTickCount64();
      if (now >= deadline) break;
      wait = (DWORD)(deadline - now);
    }
    UINT32 done = 0;
    HRESULT hr = q->api->SubmitIoRing(q->ring, 1, wait, &done);
    uint32_t k = pop_some(q, out + n, max - n);
    n += k;
    if (hr == IOSPD_IOR_E_WAIT_TIMEOUT) break;
    if (FAILED(hr) && k == 0) {
      note_failure(q, hr);
      *got = n;
      DWORD e = hr_to_win32(hr);
      int r = e != 0 ? iospd_win_translate(e) : IOSPD_EIO;
      return r < 0 ? r : IOSPD_EIO;
    }
  }
  *got = n;
  return 0;
}

/* Cancels every I/O in flight (a cancel entry each, in as many submits as
 * the ring's room needs) and waits for all their completions. */
static void cancel_and_drain(ring_queue_t* q) {
  const iospd_win_ioring_api_t* a = q->api;
  iospd_cqe_t sink[64];
  for (uint32_t si = 0; si < q->depth; si++) {
    if (!q->slots[si].busy) continue;
    iospd_ior_handle_ref_t fr;
    if (q->files_registered) {
      fr.kind = IOSPD_IOR_REF_REGISTERED;
      fr.u.index = q->slots[si].file_index;
    } else {
      fr.kind = IOSPD_IOR_REF_RAW;
      fr.u.handle = q->handles[q->slots[si].file_index];
    }
    HRESULT hr = a->BuildIoRingCancelRequest(q->ring, fr, (UINT_PTR)si,
                                             CONTROL_DATA);
    if (FAILED(hr)) {
      /* Full: hand over what is built, make room, try this one again. */
      UINT32 done = 0;
      (void)a->SubmitIoRing(q->ring, 0, 0, &done);
      (void)pop_some(q, sink, IOSPD_ARRAY_SIZE(sink));
      if (SUCCEEDED(a->BuildIoRingCancelRequest(q->ring, fr, (UINT_PTR)si,
                                                CONTROL_DATA)))
        continue;
    }
  }
  ULONGLONG give_up = GetTickCount64() + DRAIN_LIMIT_MS;
  UINT32 done = 0;
  (void)a->SubmitIoRing(q->ring, 0, 0, &done);
  while (q->inflight > 0 && GetTickCount64() < give_up) {
    if (pop_some(q, sink, IOSPD_ARRAY_SIZE(sink)) > 0) continue;
    (void)a->SubmitIoRing(q->ring, 1, 1000, &done);
  }
}

static int ring_destroy(iospd_plat_queue_t* bq) {
  ring_queue_t* q = (ring_queue_t*)bq;
  if (q->ring != NULL) {
    if (q->broken) {
      /* Entries may sit in the ring unsubmitted or in flight. */
      (void)q->api->CloseIoRing(q->ring);
      return IOSPD_EIO;
    }
    if (q->inflight > 0) cancel_and_drain(q);
    if (q->inflight > 0) return IOSPD_EIO; /* leak rather than corrupt */
    (void)q->api->CloseIoRing(q->ring);
  }
  iospd_free(q->handles);
  iospd_free(q->free_slots);
  iospd_free(q->slots);
  iospd_free(q);
  return 0;
}

/* A batch goes to the kernel in one call: the core stamps the batch at
 * once (submit_each false). */
static const iospd_win_queue_ops_t ring_ops = {
    .name = "IoRing",
    .submit_each = false,
    .attach = ring_attach,
    .register_buffers = ring_register_buffers,
    .submit = ring_submit,
    .reap = ring_reap,
    .os_error = ring_os_error,
    .destroy = ring_destroy,
};
