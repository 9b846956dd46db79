/* SPDX-License-Identifier: MIT */
/* Aligned, zeroed I/O buffers: posix_memalign normally, mmap(MAP_HUGETLB) when
 * large pages are asked for. Huge mappings are remembered in a small list so
 * iospd_plat_buf_free knows how to release a pointer (setup path only). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

typedef struct huge_map_s {
  void* p;
  size_t len;
  struct huge_map_s* next;
} huge_map_t;

static pthread_mutex_t huge_lock = PTHREAD_MUTEX_INITIALIZER;
static huge_map_t* huge_maps;

static size_t page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (size_t)p : 4096u;
}

/* Tries a hugetlb mapping; NULL when none are configured (the usual case:
 * vm.nr_hugepages is 0 by default) so the caller falls back. */
static void* huge_alloc(size_t size, size_t align) {
  const size_t huge = 2u * 1024u * 1024u;
  if (align > huge) return NULL;
  size_t len = (size + huge - 1) / huge * huge;
  huge_map_t* m = iospd_malloc(sizeof *m);
  if (m == NULL) return NULL;
  void* p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
  if (p == MAP_FAILED) {
    iospd_free(m);
    return NULL;
  }
  m->p = p;
  m->len = len;
  pthread_mutex_lock(&huge_lock);
  m->next = huge_maps;
  huge_maps = m;
  pthread_mutex_unlock(&huge_lock);
  return p; /* anonymous mappings are zeroed */
}

void* iospd_plat_buf_alloc(size_t size, size_t align, unsigned flags) {
  if (size == 0) size = 1;
  size_t page = page_size();
  if (align < page) align = page;
  if ((align & (align - 1)) != 0) return NULL;
  if (flags & IOSPD_BUF_LARGE_PAGES) {
    void* p = huge_alloc(size, align);
    if (p != NULL) return p;
  }
  void* p = NULL;
  size_t len = (size + page - 1) / page * page;
  if (posix_memalign(&p, align, len) != 0) return NULL;
  if (flags & IOSPD_BUF_LARGE_PAGES) {
    /* No hugetlb pages: ask for transparent huge pages instead (advisory). */
    madvise(p, len, MADV_HUGEPAGE);
  }
  memset(p, 0, len);
  return p;
}

void iospd_plat_buf_free(void* p, size_t size) {
  (void)size;
  if (p == NULL) return;
  pthread_mutex_lock(&huge_lock);
  for (huge_map_t** it = &huge_maps; *it != NULL; it = &(*it)->next) {
    if ((*it)->p == p) {
      huge_map_t* m = *it;
      *it = m->next;
      pthread_mutex_unlock(&huge_lock);
      munmap(m->p, m->len);
      iospd_free(m);
      return;
    }
  }
  pthread_mutex_unlock(&huge_lock);
  free(p);
}
