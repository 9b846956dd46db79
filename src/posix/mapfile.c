/* SPDX-License-Identifier: MIT */
/* Shared file mappings (iospd_plat_map_*, platform.h): the --verify state
 * file. mmap MAP_SHARED, so stores are plain memory stores that the page
 * cache keeps after a kill -9 and writes back; flock for one holder. */
#include <sys/file.h>
#include <sys/mman.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

struct iospd_plat_map_s {
  int fd;
  void* addr;
  uint64_t len;
};

int iospd_plat_map_open(const char* path, uint64_t size, unsigned flags,
                        iospd_plat_map_t** m, void** addr, uint64_t* len,
                        bool* created, iospd_err_t* err) {
  *m = NULL;
  *addr = NULL;
  *len = 0;
  *created = false;
  int oflags = O_RDWR | O_CLOEXEC;
  int fd = open(path, oflags);
  bool made = false;
  if (fd < 0 && errno == ENOENT && (flags & IOSPD_MAP_CREATE)) {
    fd = open(path, oflags | O_CREAT | O_EXCL, 0644);
    made = fd >= 0;
  }
  if (fd < 0) return iospd_posix_err(err, errno, "cannot open '%s'", path);
  if ((flags & IOSPD_MAP_LOCK) && flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    close(fd);
    if (e == EWOULDBLOCK)
      return iospd_err_set(err, IOSPD_EAGAIN,
                           "'%s' is in use by another iospd run", path);
    return iospd_posix_err(err, e, "cannot lock '%s'", path);
  }
  if (made || (flags & IOSPD_MAP_RESET)) {
    if (size == 0 || ftruncate(fd, 0) != 0 || ftruncate(fd, (off_t)size) != 0) {
      int e = size == 0 ? EINVAL : errno;
      close(fd);
      if (made) unlink(path);
      return iospd_posix_err(err, e, "cannot size '%s' to %llu bytes", path,
                             (unsigned long long)size);
    }
    made = true;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return iospd_posix_err(err, e, "cannot read the size of '%s'", path);
  }
  if (st.st_size <= 0) {
    close(fd);
    return iospd_err_set(err, IOSPD_ETOOSMALL, "'%s' is empty", path);
  }
  void* p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                 fd, 0);
  if (p == MAP_FAILED) {
    int e = errno;
    close(fd);
    return iospd_posix_err(err, e, "cannot map '%s'", path);
  }
  iospd_plat_map_t* h = iospd_calloc(1, sizeof(*h));
  if (h == NULL) {
    munmap(p, (size_t)st.st_size);
    close(fd);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  h->fd = fd;
  h->addr = p;
  h->len = (uint64_t)st.st_size;
  *m = h;
  *addr = p;
  *len = h->len;
  *created = made;
  return 0;
}

int iospd_plat_map_flush(iospd_plat_map_t* m, iospd_err_t* err) {
  if (m == NULL) return 0;
  if (msync(m->addr, (size_t)m->len, MS_SYNC) != 0 || fsync(m->fd) != 0)
    return iospd_posix_err(err, errno, "cannot write the state file back");
  return 0;
}

void iospd_plat_map_close(iospd_plat_map_t* m) {
  if (m == NULL) return;
  munmap(m->addr, (size_t)m->len);
  close(m->fd);
  iospd_free(m);
}

uint64_t iospd_plat_unix_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
