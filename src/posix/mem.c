/* SPDX-License-Identifier: MIT */
/* Aligned, zeroed I/O buffers: posix_memalign for page alignment, an
 * anonymous mapping trimmed to the alignment above it (2 MiB for
 * transparent huge pages, 16 MiB for -bs buffer separation), and
 * mmap(MAP_HUGETLB) when large pages are asked for. Mappings are remembered
 * in a small list so iospd_plat_buf_free knows how to release a pointer
 * (setup path only). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

typedef struct map_s {
  void* p;
  size_t len;
  struct map_s* next;
} map_t;

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static map_t* maps;

static size_t page_size(void) {
  long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? (size_t)p : 4096u;
}

static void remember(map_t* m, void* p, size_t len) {
  m->p = p;
  m->len = len;
  pthread_mutex_lock(&maps_lock);
  m->next = maps;
  maps = m;
  pthread_mutex_unlock(&maps_lock);
}

/* Tries a hugetlb mapping; NULL when none are configured (the usual case:
 * vm.nr_hugepages is 0 by default) so the caller falls back. */
static void* huge_alloc(size_t size, size_t align) {
  const size_t huge = IOSPD_POSIX_THP_SIZE;
  if (align > huge) return NULL;
  size_t len = (size + huge - 1) / huge * huge;
  map_t* m = iospd_malloc(sizeof *m);
  if (m == NULL) return NULL;
  void* p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
  if (p == MAP_FAILED) {
    iospd_free(m);
    return NULL;
  }
  remember(m, p, len);
  return p; /* anonymous mappings are zeroed */
}

/* An anonymous mapping with align - page bytes of slack, the unaligned head
 * and the tail unmapped. The heap would do the same for 16 MiB alignment
 * but reserve (and, under AddressSanitizer, shadow) each slack too: 1000
 * threads with -bs cost 4 GiB of resident memory in an ASan build. */
static void* aligned_map(size_t len, size_t align, size_t page) {
  if (len > SIZE_MAX - align) return NULL;
  map_t* m = iospd_malloc(sizeof *m);
  if (m == NULL) return NULL;
  size_t span = len + align - page;
  uint8_t* base = mmap(NULL, span, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) {
    iospd_free(m);
    return NULL;
  }
  uintptr_t at = ((uintptr_t)base + align - 1) & ~(uintptr_t)(align - 1);
  uint8_t* p = (uint8_t*)at;
  size_t head = (size_t)(p - base);
  size_t tail = span - head - len;
  if (head > 0) munmap(base, head);
  if (tail > 0) munmap(p + len, tail);
  remember(m, p, len);
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
  if (align > page) {
    p = aligned_map(len, align, page);
    if (p != NULL && thp) (void)madvise(p, len, MADV_HUGEPAGE);
    return p;
  }
  if (posix_memalign(&p, align, len) != 0) return NULL;
  memset(p, 0, len);
  return p;
}

void iospd_plat_buf_free(void* p, size_t size) {
  (void)size;
  if (p == NULL) return;
  pthread_mutex_lock(&maps_lock);
  for (map_t** it = &maps; *it != NULL; it = &(*it)->next) {
    if ((*it)->p == p) {
      map_t* m = *it;
      *it = m->next;
      pthread_mutex_unlock(&maps_lock);
      munmap(m->p, m->len);
      iospd_free(m);
      return;
    }
  }
  pthread_mutex_unlock(&maps_lock);
  free(p);
}
