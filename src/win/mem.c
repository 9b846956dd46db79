/* SPDX-License-Identifier: MIT */
/* I/O buffers from VirtualAlloc: page aligned (what unbuffered I/O needs)
 * and zeroed. Large pages need SeLockMemoryPrivilege (iospd_plat_run_begin
 * has checked it) and enough contiguous free memory; without either the
 * allocation fails, as in DISKSPD, rather than quietly measuring with small
 * pages while the profile says UseLargePages. */
#include "win/internal.h"

static size_t round_up(size_t v, size_t to) {
  return (v + to - 1) / to * to;
}

static void* alloc_large(size_t size) {
  SIZE_T lp = GetLargePageMinimum();
  if (lp == 0) return NULL;
  /* Enabling the privilege only works if the account holds "Lock pages in
   * memory"; otherwise ERROR_NOT_ALL_ASSIGNED and VirtualAlloc fails too. */
  if (iospd_win_enable_privilege(L"SeLockMemoryPrivilege") != ERROR_SUCCESS)
    return NULL;
  return VirtualAlloc(NULL, round_up(size, lp),
                      MEM_RESERVE | MEM_COMMIT | MEM_LARGE_PAGES,
                      PAGE_READWRITE);
}

void* iospd_plat_buf_alloc(size_t size, size_t align, unsigned flags) {
  if (size == 0) size = 1;
  if (flags & IOSPD_BUF_LARGE_PAGES) {
    /* Large pages are aligned to their own (2 MiB) size. */
    SIZE_T lp = GetLargePageMinimum();
    return lp != 0 && align <= lp ? alloc_large(size) : NULL;
  }
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  /* VirtualAlloc already aligns to the allocation granularity (64 KiB). */
  if (align <= si.dwAllocationGranularity)
    return VirtualAlloc(NULL, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
  if (align & (align - 1)) return NULL;
  /* Larger alignment: find an aligned address inside an oversized
   * reservation, release it and claim that address; another thread may
   * take it in between, so retry a few times. */
  for (int attempt = 0; attempt < 8; attempt++) {
    char* probe = VirtualAlloc(NULL, size + align, MEM_RESERVE, PAGE_NOACCESS);
    if (probe == NULL) return NULL;
    uintptr_t a = ((uintptr_t)probe + align - 1) & ~(uintptr_t)(align - 1);
    VirtualFree(probe, 0, MEM_RELEASE);
    void* p =
        VirtualAlloc((void*)a, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (p != NULL) return p;
  }
  return NULL;
}

void iospd_plat_buf_free(void* p, size_t size) {
  (void)size; /* MEM_RELEASE frees the whole reservation by address */
  if (p != NULL) VirtualFree(p, 0, MEM_RELEASE);
}
