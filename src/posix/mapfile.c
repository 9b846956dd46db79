/* SPDX-License-Identifier: MIT */
/* Shared file mappings (iospd_plat_map_*, platform.h): the --verify state
 * file. mmap MAP_SHARED, so stores are plain memory stores that the page
 * cache keeps after a kill -9 and writes back; flock for one holder.
 *
 * Nothing here ever truncates or resizes a file it did not make: an
 * existing file is opened as it is (O_NOFOLLOW: a planted symbolic link is
 * refused, not followed), and a new one is made under a unique temporary
 * name, its blocks reserved, and given its final name with link(), which
 * never replaces a file, so a file under the final name is always complete.
 *
 * A page of the view past the file's end (another process truncated it)
 * raises SIGBUS. The handler below recognises a fault inside a registered
 * view, puts anonymous zero pages over the whole view (so the faulting
 * store or load completes) and marks it lost; the run goes on and
 * iospd_plat_map_flush then fails it with a message. */
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

struct iospd_plat_map_s {
  int fd;
  void* addr;
  uint64_t len;
  char* tmp;  /* the temporary name until published, else NULL */
  int slot;   /* in g_views, or -1 */
};

/* ---- views the SIGBUS handler knows ------------------------------------
 * A fixed table (no allocation, no lock in the handler): a slot is taken
 * with a compare-and-swap of its start. More views than slots (more than
 * 256 distinct targets with --verify) go unguarded: a truncation of those
 * ends the process with SIGBUS as before. */
#define MAP_SLOTS 256
typedef struct {
  _Atomic uintptr_t start; /* 0: free */
  _Atomic size_t len;
  _Atomic int lost;
} view_slot_t;
static view_slot_t g_views[MAP_SLOTS];
static struct sigaction g_old_bus;
static pthread_mutex_t g_bus_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_sigbus(int sig, siginfo_t* si, void* uc) {
  uintptr_t a = si != NULL ? (uintptr_t)si->si_addr : 0;
  for (int i = 0; si != NULL && si->si_code > 0 && i < MAP_SLOTS; i++) {
    uintptr_t s = atomic_load(&g_views[i].start);
    size_t n = atomic_load(&g_views[i].len);
    if (s == 0 || a < s || a - s >= n) continue;
    /* mmap is a plain system call on Linux (not on POSIX's list of
     * async-signal-safe functions, but it takes no user-space lock). */
    if (mmap((void*)s, n, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
      break;
    atomic_store(&g_views[i].lost, 1);
    return; /* the access is made again, on a zero page */
  }
  /* Not ours: the previous action (another handler, or the default that
   * ends the process) gets the fault, which repeats when we return. */
  (void)sigaction(SIGBUS, &g_old_bus, NULL);
  if (si == NULL || si->si_code <= 0) (void)raise(sig);
  (void)uc;
}

/* At every map (as src/posix/mapped.c does): whoever replaced the handler
 * since gets it back as the previous action. */
static void install_sigbus(void) {
  pthread_mutex_lock(&g_bus_lock);
  struct sigaction cur;
  if (sigaction(SIGBUS, NULL, &cur) == 0 &&
      (!(cur.sa_flags & SA_SIGINFO) || cur.sa_sigaction != on_sigbus)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    g_old_bus = cur;
    (void)sigaction(SIGBUS, &sa, NULL);
  }
  pthread_mutex_unlock(&g_bus_lock);
}

static int register_view(void* addr, uint64_t len) {
  install_sigbus();
  for (int i = 0; i < MAP_SLOTS; i++) {
    uintptr_t zero = 0;
    /* Taken first, then sized: until then the handler sees length 0. */
    if (atomic_compare_exchange_strong(&g_views[i].start, &zero,
                                       (uintptr_t)addr)) {
      atomic_store(&g_views[i].lost, 0);
      atomic_store(&g_views[i].len, (size_t)len);
      return i;
    }
  }
  return -1;
}

/* Wraps an open, locked descriptor and its view. */
static int wrap(int fd, uint64_t len, char* tmp, const char* path,
                iospd_plat_map_t** m, void** addr, iospd_err_t* err) {
  void* p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    return iospd_posix_err(err, errno, "cannot map '%s'", path);
  iospd_plat_map_t* h = iospd_calloc(1, sizeof(*h));
  if (h == NULL) {
    munmap(p, (size_t)len);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  h->fd = fd;
  h->addr = p;
  h->len = len;
  h->tmp = tmp;
  h->slot = register_view(p, len);
  *m = h;
  *addr = p;
  return 0;
}

static int lock_fd(int fd, const char* path, iospd_err_t* err) {
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) return 0;
  if (errno == EWOULDBLOCK)
    return iospd_err_set(err, IOSPD_EAGAIN,
                         "'%s' is in use by another iospd run", path);
  return iospd_posix_err(err, errno, "cannot lock '%s'", path);
}

int iospd_plat_map_open(const char* path, unsigned flags,
                        iospd_plat_map_t** m, void** addr, uint64_t* len,
                        iospd_err_t* err) {
  *m = NULL;
  *addr = NULL;
  *len = 0;
  int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0 && errno == ELOOP)
    return iospd_err_set(err, IOSPD_EUNSAFE,
                         "'%s' is a symbolic link: iospd does not follow one "
                         "to a state file (name the file itself)", path);
  if (fd < 0) return iospd_posix_err(err, errno, "cannot open '%s'", path);
  struct stat st;
  int rc = 0;
  if (fstat(fd, &st) != 0)
    rc = iospd_posix_err(err, errno, "cannot read the size of '%s'", path);
  else if (!S_ISREG(st.st_mode))
    rc = iospd_err_set(err, IOSPD_EUNSAFE, "'%s' is not a regular file",
                       path);
  else if ((flags & IOSPD_MAP_LOCK) && (rc = lock_fd(fd, path, err)) < 0)
    ;
  else if (st.st_size <= 0)
    rc = iospd_err_set(err, IOSPD_ETOOSMALL, "'%s' is empty", path);
  else
    rc = wrap(fd, (uint64_t)st.st_size, NULL, path, m, addr, err);
  if (rc < 0) {
    close(fd);
    return rc;
  }
  *len = (uint64_t)st.st_size;
  return 0;
}

int iospd_plat_map_create(const char* path, uint64_t size,
                          iospd_plat_map_t** m, void** addr,
                          iospd_err_t* err) {
  *m = NULL;
  *addr = NULL;
  if (size == 0 || size > (uint64_t)SIZE_MAX / 2)
    return iospd_err_set(err, IOSPD_EINVAL, "cannot size '%s' to %llu bytes",
                         path, (unsigned long long)size);
  static const char k_tail[] = ".tmp-XXXXXX";
  size_t n = strlen(path);
  char* tmp = iospd_malloc(n + sizeof k_tail);
  if (tmp == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  memcpy(tmp, path, n);
  memcpy(tmp + n, k_tail, sizeof k_tail);
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    iospd_free(tmp);
    return iospd_posix_err(err, e, "cannot create a file beside '%s'", path);
  }
  (void)fchmod(fd, 0644);
  int rc = lock_fd(fd, tmp, err);
  if (rc == 0) {
    /* Reserve every block now: a state page the file system cannot place
     * later would raise SIGBUS in the middle of the run. */
    int e = posix_fallocate(fd, 0, (off_t)size);
    if (e == ENOSPC || e == EDQUOT)
      rc = iospd_err_set(err, IOSPD_ENOSPC,
                         "the file system of '%s' has no room for its "
                         "%llu bytes", path, (unsigned long long)size);
    else if (e == EOPNOTSUPP || e == EINVAL)
      rc = ftruncate(fd, (off_t)size) == 0
               ? 0
               : iospd_posix_err(err, errno, "cannot size '%s' to %llu bytes",
                                 path, (unsigned long long)size);
    else if (e != 0)
      rc = iospd_posix_err(err, e, "cannot reserve %llu bytes for '%s'",
                           (unsigned long long)size, path);
  }
  if (rc == 0) rc = wrap(fd, size, tmp, path, m, addr, err);
  if (rc < 0) {
    close(fd);
    unlink(tmp);
    iospd_free(tmp);
  }
  return rc;
}

int iospd_plat_map_publish(iospd_plat_map_t* m, const char* path,
                           bool replace_empty, iospd_err_t* err) {
  if (m == NULL || m->tmp == NULL)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s': nothing to publish", path);
  if (link(m->tmp, path) != 0) {
    int e = errno;
    struct stat st;
    if (e == EEXIST && replace_empty && lstat(path, &st) == 0 &&
        S_ISREG(st.st_mode) && st.st_size == 0) {
      /* Replaces only the empty file seen just now: no history in it. */
      if (rename(m->tmp, path) != 0)
        return iospd_posix_err(err, errno, "cannot create '%s'", path);
    } else if (e == EEXIST) {
      return iospd_err_set(err, IOSPD_EEXIST, "'%s' exists", path);
    } else {
      return iospd_posix_err(err, e, "cannot create '%s'", path);
    }
  } else {
    (void)unlink(m->tmp);
  }
  iospd_free(m->tmp);
  m->tmp = NULL;
  return 0;
}

bool iospd_plat_map_lost(const iospd_plat_map_t* m) {
  return m != NULL && m->slot >= 0 && atomic_load(&g_views[m->slot].lost);
}

int iospd_plat_map_flush(iospd_plat_map_t* m, iospd_err_t* err) {
  if (m == NULL) return 0;
  if (iospd_plat_map_lost(m))
    return iospd_err_set(err, IOSPD_EIO,
                         "part of it could not be reached during the run "
                         "(another process truncated it, or its storage "
                         "failed)");
  if (msync(m->addr, (size_t)m->len, MS_SYNC) != 0 || fsync(m->fd) != 0)
    return iospd_posix_err(err, errno, "cannot write the state file back");
  return 0;
}

void iospd_plat_map_close(iospd_plat_map_t* m) {
  if (m == NULL) return;
  munmap(m->addr, (size_t)m->len);
  if (m->slot >= 0) {
    atomic_store(&g_views[m->slot].len, (size_t)0);
    atomic_store(&g_views[m->slot].start, (uintptr_t)0);
  }
  if (m->tmp != NULL) (void)unlink(m->tmp);
  close(m->fd);
  iospd_free(m->tmp);
  iospd_free(m);
}

uint64_t iospd_plat_unix_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
