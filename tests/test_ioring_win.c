/* SPDX-License-Identifier: MIT */
/* The IoRing engine (src/win/ioring.c) under wine, which has no IoRing:
 * a fake ring put in place of kernelbase.dll's calls
 * (iospd_win_ioring_api_inject) drives the real engine code through the
 * queue front. The fake queues the entries it is given, performs them
 * with ReadFile/WriteFile on the real file at SubmitIoRing (so the bytes
 * are real), completes them in a scripted order, fails chosen ones with
 * chosen codes, holds them in flight on request (for the cancel), refuses
 * writes as IoRing version 1 does, and counts every call. The last test
 * runs on wine's own kernelbase.dll: no IoRing, and the message says so. */
#include "test_util.h"

#include "iospd/alloc.h"
#include "iospd/run.h"
#include "win/internal.h"
#include "win/ioring_api.h"

#define BLOCK 4096u
#define DEPTH 8u
#define MAXQ 64u

/* ---- the fake ring --------------------------------------------------------- */

typedef struct fake_entry_s {
  int op; /* IOSPD_IOR_OP_* */
  iospd_ior_handle_ref_t file;
  iospd_ior_buffer_ref_t buf;
  UINT32 bytes;
  UINT64 offset;
  UINT_PTR user_data;
  UINT_PTR target; /* a cancel's op_to_cancel */
} fake_entry_t;

static struct {
  /* What the fake system offers. */
  int max_version;
  bool write_op; /* IsIoRingOpSupported(WRITE) */
  bool hold;     /* submitted I/Os stay in flight until cancelled */
  bool reverse;  /* each submit's completions come in reverse order */
  /* Chosen failures: the n-th I/O built (1-based) completes with hr. */
  uint32_t fail_nth[4];
  HRESULT fail_hr[4];
  /* State. */
  bool open;
  fake_entry_t built[MAXQ];
  uint32_t nbuilt;
  fake_entry_t flight[MAXQ]; /* held I/Os */
  uint32_t nflight;
  iospd_ior_cqe_t cq[MAXQ * 2];
  uint32_t cq_head, cq_count;
  HANDLE files[8];
  uint32_t nfiles;
  iospd_ior_buffer_info_t regbuf;
  bool has_regbuf;
  /* Counts. */
  uint32_t io_built;            /* reads and writes built */
  uint32_t submits;             /* SubmitIoRing calls that carried I/O */
  uint32_t submit_sizes[MAXQ];  /* I/Os each of them carried */
  uint32_t cancels;
  uint32_t registered_file_refs, raw_file_refs;
  uint32_t registered_buf_refs, raw_buf_refs;
  uint32_t closes;
  UINT32 last_sq, last_cq;
  int created_version;
} fk;

static void fake_reset(void) {
  memset(&fk, 0, sizeof fk);
  fk.max_version = IOSPD_IOR_VERSION_3;
  fk.write_op = true;
}

static void cq_push(UINT_PTR ud, HRESULT hr, ULONG_PTR info) {
  assert_true(fk.cq_count < MAXQ * 2);
  uint32_t i = (fk.cq_head + fk.cq_count) % (MAXQ * 2);
  fk.cq[i].user_data = ud;
  fk.cq[i].result = hr;
  fk.cq[i].information = info;
  fk.cq_count++;
}

static HRESULT WINAPI f_query(iospd_ior_caps_t* c) {
  c->max_version = fk.max_version;
  c->max_sq_size = 4096;
  c->max_cq_size = 8192;
  c->feature_flags = 0;
  return S_OK;
}

static BOOL WINAPI f_supported(iospd_hioring_t r, int op) {
  (void)r;
  if (op == IOSPD_IOR_OP_WRITE) return fk.write_op;
  return op <= IOSPD_IOR_OP_CANCEL;
}

static HRESULT WINAPI f_create(int version, iospd_ior_create_flags_t flags,
                               UINT32 sq, UINT32 cq, iospd_hioring_t* ring) {
  (void)flags;
  fk.created_version = version;
  fk.last_sq = sq;
  fk.last_cq = cq;
  fk.open = true;
  *ring = (iospd_hioring_t)&fk;
  return S_OK;
}

static HRESULT WINAPI f_close(iospd_hioring_t r) {
  assert_ptr_equal(r, &fk);
  fk.open = false;
  fk.closes++;
  return S_OK;
}

static HRESULT add_entry(const fake_entry_t* e) {
  if (fk.nbuilt == MAXQ) return (HRESULT)0x80460002L; /* queue full */
  fk.built[fk.nbuilt++] = *e;
  return S_OK;
}

static HRESULT WINAPI f_reg_files(iospd_hioring_t r, UINT32 n,
                                  const HANDLE* h, UINT_PTR ud) {
  (void)r;
  assert_true(n <= 8);
  memcpy(fk.files, h, n * sizeof *h);
  fk.nfiles = n;
  fake_entry_t e = {.op = IOSPD_IOR_OP_REGISTER_FILES, .user_data = ud};
  return add_entry(&e);
}

static HRESULT WINAPI f_reg_bufs(iospd_hioring_t r, UINT32 n,
                                 const iospd_ior_buffer_info_t* b,
                                 UINT_PTR ud) {
  (void)r;
  assert_int_equal(n, 1);
  fk.regbuf = b[0];
  fk.has_regbuf = true;
  fake_entry_t e = {.op = IOSPD_IOR_OP_REGISTER_BUFFERS, .user_data = ud};
  return add_entry(&e);
}

static HRESULT build_io(int op, iospd_ior_handle_ref_t f,
                        iospd_ior_buffer_ref_t b, UINT32 bytes, UINT64 off,
                        UINT_PTR ud) {
  fake_entry_t e = {.op = op, .file = f, .buf = b, .bytes = bytes,
                    .offset = off, .user_data = ud};
  if (f.kind == IOSPD_IOR_REF_REGISTERED) fk.registered_file_refs++;
  else fk.raw_file_refs++;
  if (b.kind == IOSPD_IOR_REF_REGISTERED) fk.registered_buf_refs++;
  else fk.raw_buf_refs++;
  HRESULT hr = add_entry(&e);
  if (SUCCEEDED(hr)) fk.io_built++;
  return hr;
}

static HRESULT WINAPI f_read(iospd_hioring_t r, iospd_ior_handle_ref_t f,
                             iospd_ior_buffer_ref_t b, UINT32 bytes,
                             UINT64 off, UINT_PTR ud, int sqe) {
  (void)r;
  (void)sqe;
  return build_io(IOSPD_IOR_OP_READ, f, b, bytes, off, ud);
}

static HRESULT WINAPI f_write(iospd_hioring_t r, iospd_ior_handle_ref_t f,
                              iospd_ior_buffer_ref_t b, UINT32 bytes,
                              UINT64 off, int wflags, UINT_PTR ud, int sqe) {
  (void)r;
  (void)wflags;
  (void)sqe;
  if (fk.max_version < IOSPD_IOR_VERSION_3)
    return HRESULT_FROM_WIN32(ERROR_NOT_SUPPORTED); /* version 1 */
  return build_io(IOSPD_IOR_OP_WRITE, f, b, bytes, off, ud);
}

static HRESULT WINAPI f_cancel(iospd_hioring_t r, iospd_ior_handle_ref_t f,
                               UINT_PTR target, UINT_PTR ud) {
  (void)r;
  fake_entry_t e = {.op = IOSPD_IOR_OP_CANCEL, .file = f, .target = target,
                    .user_data = ud};
  return add_entry(&e);
}

/* Performs one I/O for real on its file. */
static void perform(const fake_entry_t* e, uint32_t nth) {
  for (uint32_t k = 0; k < 4; k++)
    if (fk.fail_nth[k] == nth && nth != 0) {
      cq_push(e->user_data, fk.fail_hr[k], 0);
      return;
    }
  HANDLE h = e->file.kind == IOSPD_IOR_REF_REGISTERED
                 ? fk.files[e->file.u.index]
                 : e->file.u.handle;
  uint8_t* p = e->buf.kind == IOSPD_IOR_REF_REGISTERED
                   ? (uint8_t*)fk.regbuf.address + e->buf.u.reg.offset
                   : e->buf.u.address;
  OVERLAPPED ov;
  memset(&ov, 0, sizeof ov);
  ov.Offset = (DWORD)e->offset;
  ov.OffsetHigh = (DWORD)(e->offset >> 32);
  ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
  DWORD n = 0;
  BOOL ok = e->op == IOSPD_IOR_OP_WRITE
                ? WriteFile(h, p, e->bytes, NULL, &ov)
                : ReadFile(h, p, e->bytes, NULL, &ov);
  DWORD le = ok ? 0 : GetLastError();
  if (ok || le == ERROR_IO_PENDING) {
    ok = GetOverlappedResult(h, &ov, &n, TRUE);
    le = ok ? 0 : GetLastError();
  }
  CloseHandle(ov.hEvent);
  cq_push(e->user_data, ok ? S_OK : HRESULT_FROM_WIN32(le), n);
}

static HRESULT WINAPI f_submit(iospd_hioring_t r, UINT32 wait, UINT32 ms,
                               UINT32* submitted) {
  (void)r;
  (void)ms;
  uint32_t ios = 0, order[MAXQ], nth[MAXQ];
  for (uint32_t i = 0; i < fk.nbuilt; i++) {
    const fake_entry_t* e = &fk.built[i];
    if (e->op == IOSPD_IOR_OP_READ || e->op == IOSPD_IOR_OP_WRITE) {
      order[ios++] = i;
    }
  }
  /* The n-th I/O built, ring-wide (1-based): this submit's are the last
   * ios of them. */
  uint32_t first_nth = fk.io_built - ios + 1;
  for (uint32_t k = 0; k < ios; k++) nth[k] = first_nth + k;
  if (ios > 0) {
    if (fk.submits < MAXQ) fk.submit_sizes[fk.submits] = ios;
    fk.submits++;
  }
  for (uint32_t i = 0; i < fk.nbuilt; i++) {
    const fake_entry_t* e = &fk.built[i];
    if (e->op == IOSPD_IOR_OP_REGISTER_FILES ||
        e->op == IOSPD_IOR_OP_REGISTER_BUFFERS) {
      cq_push(e->user_data, S_OK, 0);
    } else if (e->op == IOSPD_IOR_OP_CANCEL) {
      fk.cancels++;
      for (uint32_t j = 0; j < fk.nflight; j++)
        if (fk.flight[j].user_data == e->target) {
          cq_push(e->target, HRESULT_FROM_WIN32(ERROR_OPERATION_ABORTED), 0);
          fk.flight[j] = fk.flight[--fk.nflight];
          break;
        }
      cq_push(e->user_data, S_OK, 0);
    }
  }
  for (uint32_t k = 0; k < ios; k++) {
    uint32_t idx = fk.reverse ? ios - 1 - k : k;
    const fake_entry_t* e = &fk.built[order[idx]];
    if (fk.hold) fk.flight[fk.nflight++] = *e;
    else perform(e, nth[idx]);
  }
  if (submitted != NULL) *submitted = fk.nbuilt;
  fk.nbuilt = 0;
  if (wait > 0 && fk.cq_count == 0) return IOSPD_IOR_E_WAIT_TIMEOUT;
  return S_OK;
}

static HRESULT WINAPI f_pop(iospd_hioring_t r, iospd_ior_cqe_t* c) {
  (void)r;
  if (fk.cq_count == 0) return S_FALSE;
  *c = fk.cq[fk.cq_head];
  fk.cq_head = (fk.cq_head + 1) % (MAXQ * 2);
  fk.cq_count--;
  return S_OK;
}

static const iospd_win_ioring_api_t fake_api = {
    .QueryIoRingCapabilities = f_query,
    .IsIoRingOpSupported = f_supported,
    .CreateIoRing = f_create,
    .CloseIoRing = f_close,
    .SubmitIoRing = f_submit,
    .PopIoRingCompletion = f_pop,
    .BuildIoRingRegisterFileHandles = f_reg_files,
    .BuildIoRingRegisterBuffers = f_reg_bufs,
    .BuildIoRingReadFile = f_read,
    .BuildIoRingWriteFile = f_write,
    .BuildIoRingCancelRequest = f_cancel,
};

/* ---- helpers ------------------------------------------------------------------ */

static char tmpdir[MAX_PATH * 3];
static iospd_sysinfo_t g_sys;

static int setup(void** state) {
  (void)state;
  WCHAR w[MAX_PATH];
  DWORD n = GetTempPathW(MAX_PATH, w);
  assert_true(n > 0 && n < MAX_PATH);
  assert_true(iospd_win_wide_to_utf8(w, tmpdir, sizeof tmpdir) > 0);
  iospd_err_t err;
  assert_int_equal(iospd_plat_init(&g_sys, &err), 0);
  return 0;
}

static int before(void** state) {
  (void)state;
  fake_reset();
  iospd_win_ioring_api_inject(&fake_api);
  return 0;
}

static int after(void** state) {
  (void)state;
  iospd_win_ioring_api_inject(NULL);
  return 0;
}

static int ioring_engine(void) {
  uint32_t n = 0;
  const iospd_engine_def_t* t = iospd_plat_engines(&n);
  for (uint32_t i = 0; i < n; i++)
    if (strcmp(t[i].name, "ioring") == 0) return (int)i;
  fail_msg("no ioring row in the engine table");
  return -1;
}

static uint8_t pattern(uint32_t blk, uint32_t i) {
  return (uint8_t)(blk * 31u + i * 7u + 1u);
}

/* A file of nblocks zero blocks, opened for reading and writing. */
static iospd_plat_file_t* make_file(const char* name, uint32_t nblocks,
                                    unsigned flags, char* path,
                                    size_t size) {
  snprintf(path, size, "%s%s", tmpdir, name);
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, (uint64_t)nblocks * BLOCK,
                                          true, &err),
                   0);
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {path, flags};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  return f;
}

static void remove_file(const char* path) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DeleteFileW(w);
  iospd_free(w);
}

/* Reaps until n completions came; results by tag, order of tags kept. */
static void reap_n(iospd_plat_queue_t* q, uint32_t n, int32_t* results,
                   uint32_t* order) {
  uint32_t done = 0;
  while (done < n) {
    iospd_cqe_t c[DEPTH];
    uint32_t got = 0;
    assert_int_equal(iospd_plat_queue_reap(q, c, DEPTH, 1, 5000, &got), 0);
    assert_true(got > 0);
    for (uint32_t i = 0; i < got; i++) {
      assert_true(c[i].tag < 64);
      results[c[i].tag] = c[i].result;
      if (order != NULL) order[done] = c[i].tag;
      done++;
    }
  }
}

/* ---- tests -------------------------------------------------------------------- */

/* Writes then reads of DEPTH blocks, tags in reverse block order: the bytes
 * in the file and in the buffer are the ones written, through registered
 * files and the registered buffer. */
static void test_round_trip_registered(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  iospd_plat_file_t* f =
      make_file("iospd_ioring_rt.dat", DEPTH,
                IOSPD_OPEN_READ | IOSPD_OPEN_WRITE | IOSPD_OPEN_ASYNC, path,
                sizeof path);
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(
      iospd_plat_queue_create(&q, DEPTH, 0, ioring_engine(), &err), 0);
  assert_string_equal(iospd_plat_queue_engine(q), "IoRing");
  assert_int_equal(fk.created_version, IOSPD_IOR_VERSION_3);
  assert_true(fk.last_sq >= DEPTH);
  iospd_queue_traits_t tr;
  iospd_plat_queue_traits(q, &tr);
  assert_false(tr.submit_each); /* a batch is one kernel call */
  uint32_t fi = 99;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  assert_int_equal(fi, 0);
  assert_int_equal(fk.nfiles, 1);
  uint8_t* buf = iospd_plat_buf_alloc(DEPTH * BLOCK, BLOCK, 0);
  assert_non_null(buf);
  assert_int_equal(
      iospd_plat_queue_register_buffers(q, buf, DEPTH * BLOCK, &err), 0);
  assert_true(fk.has_regbuf);
  assert_ptr_equal(fk.regbuf.address, buf);
  assert_int_equal(fk.regbuf.length, DEPTH * BLOCK);

  iospd_io_t ios[DEPTH];
  for (uint32_t t = 0; t < DEPTH; t++) {
    uint32_t blk = DEPTH - 1 - t;
    for (uint32_t i = 0; i < BLOCK; i++) buf[t * BLOCK + i] = pattern(blk, i);
    ios[t] = (iospd_io_t){.tag = t, .op = IOSPD_OP_WRITE, .file_index = fi,
                          .offset = (uint64_t)blk * BLOCK, .length = BLOCK,
                          .buf = buf + t * BLOCK};
  }
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, DEPTH, &acc), 0);
  assert_int_equal(acc, DEPTH);
  int32_t res[DEPTH];
  reap_n(q, DEPTH, res, NULL);
  for (uint32_t t = 0; t < DEPTH; t++) assert_int_equal(res[t], BLOCK);
  assert_int_equal(fk.registered_file_refs, DEPTH);
  assert_int_equal(fk.registered_buf_refs, DEPTH);
  assert_int_equal(fk.raw_buf_refs, 0);

  memset(buf, 0, DEPTH * BLOCK);
  for (uint32_t t = 0; t < DEPTH; t++) ios[t].op = IOSPD_OP_READ;
  assert_int_equal(iospd_plat_queue_submit(q, ios, DEPTH, &acc), 0);
  assert_int_equal(acc, DEPTH);
  reap_n(q, DEPTH, res, NULL);
  uint8_t want[BLOCK];
  for (uint32_t t = 0; t < DEPTH; t++) {
    assert_int_equal(res[t], BLOCK);
    for (uint32_t i = 0; i < BLOCK; i++) want[i] = pattern(DEPTH - 1 - t, i);
    assert_memory_equal(buf + t * BLOCK, want, BLOCK);
  }
  assert_int_equal(fk.submits, 2);
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  assert_int_equal(fk.closes, 1);
  assert_int_equal(fk.cancels, 0); /* nothing was in flight */
  iospd_plat_file_close(f);

  /* The file itself holds what was written, block by block. */
  char* data = NULL;
  size_t n = 0;
  assert_int_equal(iospd_plat_read_file(path, SIZE_MAX, &data, &n, &err), 0);
  uint8_t* all = (uint8_t*)data;
  assert_int_equal(n, DEPTH * BLOCK);
  for (uint32_t blk = 0; blk < DEPTH; blk++) {
    for (uint32_t i = 0; i < BLOCK; i++) want[i] = pattern(blk, i);
    assert_memory_equal(all + blk * BLOCK, want, BLOCK);
  }
  iospd_free(all);
  iospd_plat_buf_free(buf, DEPTH * BLOCK);
  remove_file(path);
}

/* -un: no buffer registered, so every entry carries its address. A buffer
 * outside the registered one is passed by address too. */
static void test_unregistered_buffers(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  iospd_plat_file_t* f = make_file("iospd_ioring_un.dat", 4,
                                   IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC, path,
                                   sizeof path);
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(iospd_plat_queue_create(&q, 4, 0, ioring_engine(), &err),
                   0);
  uint32_t fi = 0;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(4 * BLOCK, BLOCK, 0);
  iospd_io_t ios[4];
  for (uint32_t t = 0; t < 4; t++)
    ios[t] = (iospd_io_t){.tag = t, .op = IOSPD_OP_READ, .file_index = fi,
                          .offset = (uint64_t)t * BLOCK, .length = BLOCK,
                          .buf = buf + t * BLOCK};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 4, &acc), 0);
  assert_int_equal(acc, 4);
  int32_t res[4];
  reap_n(q, 4, res, NULL);
  for (uint32_t t = 0; t < 4; t++) assert_int_equal(res[t], BLOCK);
  assert_int_equal(fk.raw_buf_refs, 4);
  assert_int_equal(fk.registered_buf_refs, 0);
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_plat_buf_free(buf, 4 * BLOCK);
  iospd_plat_file_close(f);
  remove_file(path);
}

/* Every submit is one SubmitIoRing carrying exactly the I/Os handed over:
 * batches of 3, 1 and 4, then a batch larger than the free slots is cut
 * to what fits and the rest waits. */
static void test_batches_as_submitted(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  iospd_plat_file_t* f = make_file("iospd_ioring_b.dat", DEPTH,
                                   IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC, path,
                                   sizeof path);
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(
      iospd_plat_queue_create(&q, DEPTH, 0, ioring_engine(), &err), 0);
  uint32_t fi = 0;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(DEPTH * BLOCK, BLOCK, 0);
  iospd_io_t ios[DEPTH + 4];
  for (uint32_t t = 0; t < DEPTH + 4; t++)
    ios[t] = (iospd_io_t){.tag = t, .op = IOSPD_OP_READ, .file_index = fi,
                          .offset = (uint64_t)(t % DEPTH) * BLOCK,
                          .length = BLOCK,
                          .buf = buf + (t % DEPTH) * BLOCK};
  uint32_t acc = 0;
  int32_t res[DEPTH + 4];
  static const uint32_t sizes[] = {3, 1, 4};
  uint32_t off = 0;
  for (uint32_t k = 0; k < 3; k++) {
    assert_int_equal(iospd_plat_queue_submit(q, ios + off, sizes[k], &acc), 0);
    assert_int_equal(acc, sizes[k]);
    off += sizes[k];
  }
  assert_int_equal(fk.submits, 3);
  assert_int_equal(fk.submit_sizes[0], 3);
  assert_int_equal(fk.submit_sizes[1], 1);
  assert_int_equal(fk.submit_sizes[2], 4);
  /* All DEPTH slots busy until reaped: a further submit takes nothing and
   * makes no call. */
  assert_int_equal(iospd_plat_queue_submit(q, ios + off, 4, &acc), 0);
  assert_int_equal(acc, 0);
  assert_int_equal(fk.submits, 3);
  reap_n(q, DEPTH, res, NULL);
  /* Two free after reaping 2? Reap took all 8; now 12 asked, 8 taken. */
  assert_int_equal(iospd_plat_queue_submit(q, ios, DEPTH + 4, &acc), 0);
  assert_int_equal(acc, DEPTH);
  assert_int_equal(fk.submits, 4);
  assert_int_equal(fk.submit_sizes[3], DEPTH);
  reap_n(q, DEPTH, res, NULL);
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_plat_buf_free(buf, DEPTH * BLOCK);
  iospd_plat_file_close(f);
  remove_file(path);
}

/* Completions come back in the ring's order (here each batch reversed),
 * and failures carry their own codes: a CRC error is an I/O error with the
 * Win32 code kept for the report, end of file reads as 0 bytes, an
 * NTSTATUS-shaped HRESULT is mapped through ntdll. */
static void test_order_and_errors(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  iospd_plat_file_t* f = make_file("iospd_ioring_e.dat", DEPTH,
                                   IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC, path,
                                   sizeof path);
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(
      iospd_plat_queue_create(&q, DEPTH, 0, ioring_engine(), &err), 0);
  uint32_t fi = 0;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(DEPTH * BLOCK, BLOCK, 0);
  fk.reverse = true;
  fk.fail_nth[0] = 2;
  fk.fail_hr[0] = HRESULT_FROM_WIN32(ERROR_CRC);
  fk.fail_nth[1] = 3;
  fk.fail_hr[1] = HRESULT_FROM_WIN32(ERROR_HANDLE_EOF);
  fk.fail_nth[2] = 5;
  fk.fail_hr[2] = (HRESULT)(0xC0000185L | 0x10000000L); /* IO_DEVICE_ERROR */
  iospd_io_t ios[6];
  for (uint32_t t = 0; t < 6; t++)
    ios[t] = (iospd_io_t){.tag = 10 + t, .op = IOSPD_OP_READ,
                          .file_index = fi, .offset = (uint64_t)t * BLOCK,
                          .length = BLOCK, .buf = buf + t * BLOCK};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 6, &acc), 0);
  assert_int_equal(acc, 6);
  int32_t res[64];
  uint32_t order[6];
  reap_n(q, 6, res, order);
  for (uint32_t k = 0; k < 6; k++) assert_int_equal(order[k], 15 - k);
  assert_int_equal(res[10], BLOCK);
  assert_int_equal(res[11], IOSPD_EIO);
  assert_int_equal(res[12], 0);
  assert_int_equal(res[13], BLOCK);
  assert_int_equal(res[14], IOSPD_EIO);
  assert_int_equal(res[15], BLOCK);
  /* The first failure the core received is the one reported: the ring
   * completed tag 14 (the 5th I/O) before tag 11 (the 2nd). */
  char text[256];
  int64_t code = iospd_plat_queue_os_error(q, text, sizeof text);
  assert_int_equal(code, ERROR_IO_DEVICE);
  assert_non_null(strstr(text, "(error 1117)"));
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_plat_buf_free(buf, DEPTH * BLOCK);
  iospd_plat_file_close(f);
  remove_file(path);
}

/* I/Os still in flight at the end of a timespan: destroy builds a cancel
 * for each, waits for all of them and only then closes the ring. */
static void test_cancel_drains(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  iospd_plat_file_t* f = make_file("iospd_ioring_c.dat", DEPTH,
                                   IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC, path,
                                   sizeof path);
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(
      iospd_plat_queue_create(&q, DEPTH, 0, ioring_engine(), &err), 0);
  uint32_t fi = 0;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(DEPTH * BLOCK, BLOCK, 0);
  fk.hold = true;
  iospd_io_t ios[6];
  for (uint32_t t = 0; t < 6; t++)
    ios[t] = (iospd_io_t){.tag = t, .op = IOSPD_OP_READ, .file_index = fi,
                          .offset = (uint64_t)t * BLOCK, .length = BLOCK,
                          .buf = buf + t * BLOCK};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 6, &acc), 0);
  assert_int_equal(acc, 6);
  assert_int_equal(fk.nflight, 6);
  /* Nothing completes: a reap with a short timeout returns none. */
  iospd_cqe_t c[DEPTH];
  uint32_t got = 9;
  assert_int_equal(iospd_plat_queue_reap(q, c, DEPTH, 1, 10, &got), 0);
  assert_int_equal(got, 0);
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  assert_int_equal(fk.cancels, 6);
  assert_int_equal(fk.nflight, 0);
  assert_int_equal(fk.cq_count, 0); /* every completion was taken */
  assert_int_equal(fk.closes, 1);
  iospd_plat_buf_free(buf, DEPTH * BLOCK);
  iospd_plat_file_close(f);
  remove_file(path);
}

/* IoRing version 1 (Windows 11 21H2) reads but cannot write: a file opened
 * for writing is refused at attach, before any I/O, with the build that
 * writes; a version-3 ring whose IsIoRingOpSupported says no is refused
 * too. Reads still work on version 1. */
static void test_write_refusal(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  iospd_plat_file_t* f =
      make_file("iospd_ioring_w.dat", 2,
                IOSPD_OPEN_READ | IOSPD_OPEN_WRITE | IOSPD_OPEN_ASYNC, path,
                sizeof path);
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  fk.max_version = IOSPD_IOR_VERSION_1;
  fk.write_op = false;
  assert_int_equal(iospd_plat_queue_create(&q, 2, 0, ioring_engine(), &err),
                   0);
  assert_int_equal(fk.created_version, IOSPD_IOR_VERSION_1);
  uint32_t fi = 0;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), IOSPD_ENOTSUP);
  assert_string_equal(
      err.msg,
      "IoRing (-u) cannot write here: this Windows offers IoRing version 1, "
      "which only reads; IoRing writes need version 3, Windows 11 22H2 "
      "(build 22621 or later); use -w0, or leave out -u to use I/O "
      "completion ports");
  assert_int_equal(fk.io_built, 0);
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_plat_file_close(f);

  fk.max_version = IOSPD_IOR_VERSION_3;
  fk.write_op = false;
  assert_int_equal(iospd_plat_queue_create(&q, 2, 0, ioring_engine(), &err),
                   0);
  iospd_open_opts_t o = {path, IOSPD_OPEN_WRITE | IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), IOSPD_ENOTSUP);
  assert_non_null(strstr(err.msg, "IsIoRingOpSupported says this ring has "
                                  "no write operation"));
  assert_non_null(strstr(err.msg, path));
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_plat_file_close(f);

  /* Reads on version 1: fine. */
  fk.max_version = IOSPD_IOR_VERSION_1;
  assert_int_equal(iospd_plat_queue_create(&q, 2, 0, ioring_engine(), &err),
                   0);
  o.flags = IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC;
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_plat_file_close(f);
  remove_file(path);
}

/* The check before the run: each missing piece named, with the build. */
static void test_capability_check(void** state) {
  (void)state;
  iospd_err_t err;
  int version = -1;
  iospd_win_ioring_api_t none;
  memset(&none, 0, sizeof none);
  assert_int_equal(iospd_win_ioring_check(&none, false, &version, &err),
                   IOSPD_ENOTSUP);
  assert_int_equal(version, 0);
  assert_string_equal(
      err.msg,
      "IoRing (-u) is not available: this Windows has no "
      "QueryIoRingCapabilities in kernelbase.dll; IoRing needs Windows 11 "
      "(build 22000 or later); leave out -u to use I/O completion ports");
  /* A 21H2 kernelbase: everything but the write call. */
  iospd_win_ioring_api_t v1 = fake_api;
  v1.BuildIoRingWriteFile = NULL;
  assert_int_equal(iospd_win_ioring_check(&v1, false, &version, &err), 0);
  assert_int_equal(iospd_win_ioring_check(&v1, true, &version, &err),
                   IOSPD_ENOTSUP);
  assert_string_equal(
      err.msg,
      "IoRing (-u) is not available: this Windows has no "
      "BuildIoRingWriteFile in kernelbase.dll; IoRing needs Windows 11 "
      "(build 22621 or later, Windows 11 22H2, for writes); leave out -u to "
      "use I/O completion ports");
  /* The create refuses before making anything. */
  iospd_win_ioring_api_inject(&none);
  iospd_plat_queue_t* q = (iospd_plat_queue_t*)&version;
  assert_int_equal(iospd_plat_queue_create(&q, 4, 0, ioring_engine(), &err),
                   IOSPD_ENOTSUP);
  assert_null(q);
  /* A plan (-Rp) makes no ring and checks nothing. */
  assert_int_equal(iospd_plat_queue_create(&q, 4, IOSPD_QUEUE_PLAN,
                                           ioring_engine(), &err),
                   0);
  assert_string_equal(iospd_plat_queue_engine(q), "IoRing");
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  /* -x with the ring: refused. */
  iospd_win_ioring_api_inject(&fake_api);
  assert_int_equal(iospd_plat_queue_create(&q, 4,
                                           IOSPD_QUEUE_COMPLETION_ROUTINES,
                                           ioring_engine(), &err),
                   IOSPD_EINVAL);
  assert_non_null(strstr(err.msg, "-x asks for completion routines"));
}

/* Wine's own kernelbase.dll: no IoRing, so the queue is refused with the
 * missing piece named (a future wine with IoRing would make this check
 * meaningless: it says so and skips that part). */
static void test_real_kernelbase(void** state) {
  (void)state;
  iospd_win_ioring_api_inject(NULL);
  const iospd_win_ioring_api_t* a = iospd_win_ioring_api();
  if (a->CreateIoRing != NULL && a->QueryIoRingCapabilities != NULL) {
    print_message("this kernelbase.dll has CreateIoRing: skipping the "
                  "missing-IoRing check\n");
    return;
  }
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(iospd_plat_queue_create(&q, 4, 0, ioring_engine(), &err),
                   IOSPD_ENOTSUP);
  assert_null(q);
  assert_non_null(strstr(err.msg, "IoRing (-u) is not available: this "
                                  "Windows has no "));
  assert_non_null(strstr(err.msg, "build 22000 or later"));
}

/* A whole run through the real worker (src/run/engine.c) on the fake
 * ring: -w100 -o4 sequential on a 256 KiB file leaves DISKSPD's write
 * pattern in every byte, the counts add up, the thread's engine is IoRing
 * with 4 I/Os kept, the registered buffer and files were used, and every
 * I/O went in a SubmitIoRing. Then a failure the ring reports fails the
 * run with its Win32 code in the message. */
static void run_profile(const char* path, uint32_t write_ratio,
                        iospd_results_t* res, iospd_profile_t* p,
                        iospd_err_t* err, int* rc) {
  iospd_profile_init(p);
  p->ext.engine = ioring_engine();
  iospd_timespan_t* ts = iospd_profile_add_timespan(p);
  ts->warmup = 0;
  ts->duration = 1;
  ts->cooldown = 0;
  iospd_target_t* t = iospd_timespan_add_target(ts);
  iospd_target_set_path(t, path);
  t->block_size = BLOCK;
  t->write_ratio = write_ratio;
  t->request_count = 4;
  memset(res, 0, sizeof *res);
  res->sys = g_sys;
  iospd_err_clear(err);
  *rc = iospd_run(p, NULL, res, err);
}

static void test_whole_run(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  iospd_plat_file_t* f = make_file("iospd_ioring_run.dat", 64,
                                   IOSPD_OPEN_READ, path, sizeof path);
  iospd_plat_file_close(f);
  iospd_profile_t p;
  iospd_results_t res;
  iospd_err_t err;
  int rc;
  run_profile(path, 100, &res, &p, &err, &rc);
  if (rc != 0) print_error("iospd_run: %s\n", err.msg);
  assert_int_equal(rc, 0);
  const iospd_timespan_result_t* tsr = &res.timespans[0];
  assert_int_equal(tsr->error[0], '\0');
  assert_int_equal(tsr->thread_count, 1);
  assert_string_equal(tsr->threads[0].engine, "IoRing");
  assert_int_equal(tsr->threads[0].depth_kept, 4);
  const iospd_target_stats_t* st = &tsr->threads[0].targets[0].stats;
  assert_true(st->ios[IOSPD_OP_WRITE] > 64); /* the 64 blocks, many times */
  assert_int_equal(st->bytes[IOSPD_OP_WRITE],
                   st->ios[IOSPD_OP_WRITE] * BLOCK);
  assert_int_equal(st->errors[IOSPD_OP_WRITE], 0);
  assert_int_equal(st->ios[IOSPD_OP_READ], 0);
  assert_true(fk.submits > 0);
  assert_true(fk.io_built >= st->ios[IOSPD_OP_WRITE]);
  assert_true(fk.has_regbuf);
  assert_int_equal(fk.raw_buf_refs, 0);
  assert_int_equal(fk.raw_file_refs, 0);
  assert_int_equal(fk.closes, 1);
  assert_false(fk.open);
  iospd_results_destroy(&res);
  iospd_plat_cpu_topology_free(&res.topo);
  iospd_profile_destroy(&p);
  char* data = NULL;
  size_t n = 0;
  assert_int_equal(iospd_plat_read_file(path, SIZE_MAX, &data, &n, &err), 0);
  uint8_t* all = (uint8_t*)data;
  assert_int_equal(n, 64 * BLOCK);
  for (size_t i = 0; i < n; i++)
    if (all[i] != (uint8_t)(i & 0xff)) fail_msg("byte %lu is %u", (unsigned long)i, all[i]);
  iospd_free(all);

  /* The 10th I/O fails with a CRC error: the run fails and says so. */
  fake_reset();
  fk.fail_nth[0] = 10;
  fk.fail_hr[0] = HRESULT_FROM_WIN32(ERROR_CRC);
  run_profile(path, 0, &res, &p, &err, &rc);
  tsr = &res.timespans[0];
  const char* why = tsr->error[0] ? tsr->error : err.msg;
  print_message("failed run: rc %d, %s\n", rc, why);
  assert_true(rc != 0 || tsr->error[0] != '\0');
  /* The 10th sequential 4 KiB read: offset 9 x 4096. */
  assert_non_null(strstr(why, "read at offset 36864 of target '"));
  assert_non_null(strstr(why, "(error 23)"));
  assert_int_equal(fk.closes, 1);
  iospd_results_destroy(&res);
  iospd_plat_cpu_topology_free(&res.topo);
  iospd_profile_destroy(&p);
  remove_file(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_round_trip_registered, before,
                                      after),
      cmocka_unit_test_setup_teardown(test_unregistered_buffers, before,
                                      after),
      cmocka_unit_test_setup_teardown(test_batches_as_submitted, before,
                                      after),
      cmocka_unit_test_setup_teardown(test_order_and_errors, before, after),
      cmocka_unit_test_setup_teardown(test_cancel_drains, before, after),
      cmocka_unit_test_setup_teardown(test_write_refusal, before, after),
      cmocka_unit_test_setup_teardown(test_capability_check, before, after),
      cmocka_unit_test_setup_teardown(test_whole_run, before, after),
      cmocka_unit_test_setup_teardown(test_real_kernelbase, before, after),
  };
  return cmocka_run_group_tests_name("ioring_win", tests, setup, NULL);
}
