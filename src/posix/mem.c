/* SPDX-License-Identifier: MIT */
/* Aligned, zeroed I/O buffers: posix_memalign normally (advised as
 * transparent huge pages from 2 MiB up), mmap(MAP_HUGETLB) when large pages
 * are asked for. Huge mappings are remembered in a small list so
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
  const size_t huge = IOSPD_POSIX_THP_SIZE;
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
  /* Buffers of 2 MiB and more, and -l without hugetlb pages: aligned to
   * 2 MiB and advised as transparent huge pages. Physically contiguous
   * buffers need fewer scatter-gather segments per request: a 1 MiB
   * O_DIRECT read into 4 KiB pages has 256, more than virtio-blk's 254, so
   * the block layer splits it in two requests, and 1M sequential reads at
   * QD8 ran at half the throughput they have in huge pages (measured on a
   * 2-CPU VM). Advisory: with THP off these are ordinary pages. */
  bool thp = len >= IOSPD_POSIX_THP_SIZE || (flags & IOSPD_BUF_LARGE_PAGES);
  if (thp && align < IOSPD_POSIX_THP_SIZE) align = IOSPD_POSIX_THP_SIZE;
  if (posix_memalign(&p, align, len) != 0) return NULL;
  if (thp) (void)madvise(p, len, MADV_HUGEPAGE);
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
