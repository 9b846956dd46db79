/* SPDX-License-Identifier: MIT */
/* Memory-mapped I/O (-Sm) on Windows, as DISKSPD does it: the whole file is
 * mapped read+write when it is opened; a read copies from the view into the
 * slot's buffer, a write copies into the view and then flushes as -N asks
 * (FlushViewOfFile, or RtlFlushNonVolatileMemory for persistent memory);
 * with -Sw both copies are non-temporal and nothing is flushed. The I/O
 * completes inside submit (iocp.c queues its completion for reap). */
#include <string.h>

#include "iospd/ntcopy.h"
#include "win/internal.h"

enum { MM_PLAIN = 0, MM_FLUSH_VIEW, MM_FLUSH_NV, MM_NONTEMPORAL };

/* ntdll's persistent-memory calls (Windows 10 1809 / Server 2019 and
 * later), looked up at run time so iospd still starts where they are
 * missing. */
typedef NTSTATUS(NTAPI* nv_token_fn)(PVOID buf, SIZE_T size, PVOID* token);
typedef NTSTATUS(NTAPI* nv_free_fn)(PVOID token);
typedef NTSTATUS(NTAPI* nv_flush_fn)(PVOID token, PVOID buf, SIZE_T size,
                                     ULONG flags);
#define NV_FLUSH_NO_DRAIN 0x00000001u /* FLUSH_NV_MEMORY_IN_FLAG_NO_DRAIN */

static nv_flush_fn g_nv_flush;
static nv_free_fn g_nv_free;
static nv_token_fn g_nv_token;
static INIT_ONCE g_nv_once = INIT_ONCE_STATIC_INIT;

static BOOL CALLBACK resolve_nv(PINIT_ONCE once, PVOID param, PVOID* ctx) {
  (void)once;
  (void)param;
  (void)ctx;
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  if (ntdll != NULL) {
    g_nv_token = (nv_token_fn)(void (*)(void))GetProcAddress(
        ntdll, "RtlGetNonVolatileToken");
    g_nv_free = (nv_free_fn)(void (*)(void))GetProcAddress(
        ntdll, "RtlFreeNonVolatileToken");
    g_nv_flush = (nv_flush_fn)(void (*)(void))GetProcAddress(
        ntdll, "RtlFlushNonVolatileMemory");
  }
  return TRUE;
}

static int nv_setup(iospd_plat_file_t* f, iospd_err_t* err) {
  InitOnceExecuteOnce(&g_nv_once, resolve_nv, NULL, NULL);
  if (g_nv_token == NULL || g_nv_free == NULL || g_nv_flush == NULL)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "'%s': -Nn/-Ni flush persistent memory with "
                         "RtlFlushNonVolatileMemory, which this Windows does "
                         "not have (it needs Windows 10 1809 or Server 2019 "
                         "and later); use -Nv or leave out -N",
                         f->path);
  PVOID token = NULL;
  NTSTATUS st = g_nv_token(f->view, (SIZE_T)f->view_len, &token);
  if (st < 0 || token == NULL)
    return iospd_err_set_os(err, IOSPD_ENOTSUP, (int64_t)st,
                            "'%s': -Nn/-Ni need the file on persistent "
                            "memory (a DAX volume), but Windows refused a "
                            "non-volatile token for it (NTSTATUS 0x%08lx); "
                            "use -Nv or leave out -N",
                            f->path, (unsigned long)st);
  f->nv_token = token;
  return 0;
}

/* ---- in-page error guard ------------------------------------------------
 * A page of a view whose storage fails (a network share gone, a disk pulled;
 * under wine also a file truncated from outside) raises
 * EXCEPTION_IN_PAGE_ERROR on access, which would end the process with no
 * message and no results. mingw's gcc has no __try/__except, so each copy
 * to or from a view runs with a recovery point in the thread's TLS slot,
 * and a vectored handler that sees a fault on that copy's view range jumps
 * back to it (__builtin_setjmp/__builtin_longjmp: GCC's own register
 * save/restore, no unwinding); the I/O then completes with
 * IOSPD_EMAPFAULT. Any other exception goes on to the usual handlers. */
typedef struct mm_guard_s {
  void* jb[5];       /* __builtin_setjmp buffer */
  uintptr_t lo, hi;  /* the view bytes this copy touches */
#if defined(__i386__)
  void* seh;         /* SEH chain head when armed, restored after the jump */
#endif
} mm_guard_t;

#if defined(__i386__)
/* NT_TIB.ExceptionList, the head of the thread's SEH chain, is at fs:0
 * (read directly: NtCurrentTeb's intrinsic trips -Warray-bounds). */
static inline void* seh_head(void) {
  void* p;
  __asm__ volatile("movl %%fs:0, %0" : "=r"(p));
  return p;
}
static inline void set_seh_head(void* p) {
  __asm__ volatile("movl %0, %%fs:0" : : "r"(p) : "memory");
}
#endif

static DWORD g_guard_tls = TLS_OUT_OF_INDEXES;
static INIT_ONCE g_guard_once = INIT_ONCE_STATIC_INIT;

static LONG CALLBACK on_view_fault(EXCEPTION_POINTERS* ep) {
  const EXCEPTION_RECORD* r = ep->ExceptionRecord;
  if (r->ExceptionCode != EXCEPTION_IN_PAGE_ERROR &&
      r->ExceptionCode != EXCEPTION_ACCESS_VIOLATION)
    return EXCEPTION_CONTINUE_SEARCH;
  DWORD saved = GetLastError();
  mm_guard_t* g = (mm_guard_t*)TlsGetValue(g_guard_tls);
  SetLastError(saved);
  if (g == NULL || r->NumberParameters < 2) return EXCEPTION_CONTINUE_SEARCH;
  uintptr_t a = (uintptr_t)r->ExceptionInformation[1];
  if (a < g->lo || a >= g->hi) return EXCEPTION_CONTINUE_SEARCH;
  __builtin_longjmp(g->jb, 1);
}

static BOOL CALLBACK install_guard(PINIT_ONCE once, PVOID param, PVOID* ctx) {
  (void)once;
  (void)param;
  (void)ctx;
  g_guard_tls = TlsAlloc();
  if (g_guard_tls == TLS_OUT_OF_INDEXES) return FALSE;
  return AddVectoredExceptionHandler(1, on_view_fault) != NULL;
}

/* Copies n bytes between a buffer and the view bytes at view (dst or src),
 * non-temporally if asked. IOSPD_EMAPFAULT if the view faulted, else 0.
 * Not inlined: the recovery point needs a frame of its own. */
static __attribute__((noinline)) int guarded_copy(void* dst, const void* src,
                                                 size_t n, bool nontemporal,
                                                 const uint8_t* view) {
  mm_guard_t g;
  g.lo = (uintptr_t)view;
  g.hi = g.lo + n;
#if defined(__i386__)
  g.seh = seh_head();
#endif
  if (__builtin_setjmp(g.jb) != 0) {
#if defined(__i386__)
    /* The dispatcher's frames were left behind: drop any SEH records they
     * registered. */
    set_seh_head(g.seh);
#endif
    TlsSetValue(g_guard_tls, NULL);
    return IOSPD_EMAPFAULT;
  }
  TlsSetValue(g_guard_tls, &g);
  if (nontemporal)
    iospd_copy_nontemporal(dst, src, n);
  else
    memcpy(dst, src, n);
  TlsSetValue(g_guard_tls, NULL);
  return 0;
}

int iospd_win_map(iospd_plat_file_t* f, iospd_err_t* err) {
  if (f->is_device)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "'%s' is a disk or volume; memory-mapped I/O (-Sm) "
                         "works only on files",
                         f->path);
  LARGE_INTEGER sz;
  if (!GetFileSizeEx(f->h, &sz))
    return iospd_win_err(err, GetLastError(), "cannot get the size of '%s'",
                         f->path);
  if (sz.QuadPart <= 0) return 0; /* nothing to map: reported as empty */
  if (!InitOnceExecuteOnce(&g_guard_once, install_guard, NULL, NULL))
    return iospd_win_err(err, GetLastError(),
                         "cannot install the handler that guards "
                         "memory-mapped I/O (-Sm) on '%s'",
                         f->path);
  uint64_t len = (uint64_t)sz.QuadPart;
  if (len > (uint64_t)SIZE_MAX)
    return iospd_err_set(err, IOSPD_ERANGE,
                         "'%s' is too large to map into memory", f->path);
  HANDLE m = CreateFileMappingW(f->h, NULL, PAGE_READWRITE, 0, 0, NULL);
  if (m == NULL)
    return iospd_win_err(err, GetLastError(),
                         "cannot create a file mapping of '%s' (-Sm)", f->path);
  void* v = MapViewOfFile(m, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0);
  DWORD e = v == NULL ? GetLastError() : ERROR_SUCCESS;
  CloseHandle(m); /* the view keeps the mapping alive */
  if (v == NULL)
    return iospd_win_err(err, e,
                         "cannot map '%s' into memory (-Sm, %llu "
                         "bytes)",
                         f->path, (unsigned long long)len);
  f->view = v;
  f->view_len = len;
  if (f->flags & IOSPD_OPEN_WRITE_THROUGH) {
    f->mm_mode = MM_NONTEMPORAL;
  } else if (f->flags & (IOSPD_OPEN_FLUSH_NV | IOSPD_OPEN_FLUSH_NV_NODRAIN)) {
    f->mm_mode = MM_FLUSH_NV;
    int rc = nv_setup(f, err);
    if (rc < 0) {
      iospd_win_unmap(f);
      return rc;
    }
  } else if (f->flags & IOSPD_OPEN_FLUSH_VIEW) {
    f->mm_mode = MM_FLUSH_VIEW;
  } else {
    f->mm_mode = MM_PLAIN;
  }
  return 0;
}

void iospd_win_unmap(iospd_plat_file_t* f) {
  if (f->nv_token != NULL && g_nv_free != NULL) g_nv_free(f->nv_token);
  f->nv_token = NULL;
  if (f->view != NULL) UnmapViewOfFile(f->view);
  f->view = NULL;
  f->view_len = 0;
}

int32_t iospd_win_mapped_io(const iospd_plat_file_t* f, uint8_t op,
                            uint64_t offset, uint32_t length, void* buf) {
  /* Past the end reads as end of file; a straddling I/O is cut short. */
  if (IOSPD_UNLIKELY(offset >= f->view_len)) return 0;
  uint64_t left = f->view_len - offset;
  size_t n = length <= left ? length : (size_t)left;
  uint8_t* view = f->view + offset;
  bool nt = f->mm_mode == MM_NONTEMPORAL;
  if (op != IOSPD_OP_WRITE) {
    if (IOSPD_UNLIKELY(guarded_copy(buf, view, n, nt, view) != 0))
      return IOSPD_EMAPFAULT;
    return (int32_t)n;
  }
  if (IOSPD_UNLIKELY(guarded_copy(view, buf, n, nt, view) != 0))
    return IOSPD_EMAPFAULT;
  switch (f->mm_mode) {
    case MM_FLUSH_VIEW:
      if (!FlushViewOfFile(view, n))
        return (int32_t)iospd_win_translate(GetLastError());
      break;
    case MM_FLUSH_NV: {
      ULONG fl =
          (f->flags & IOSPD_OPEN_FLUSH_NV_NODRAIN) ? NV_FLUSH_NO_DRAIN : 0;
      NTSTATUS st = g_nv_flush(f->nv_token, view, n, fl);
      if (st < 0) {
        DWORD e = iospd_win_ntstatus_to_win32(st);
        SetLastError(e); /* for the queue's first-failure note */
        return (int32_t)iospd_win_translate(e);
      }
      break;
    }
    default: /* MM_PLAIN, MM_NONTEMPORAL: nothing to flush */
      break;
  }
  return (int32_t)n;
}
