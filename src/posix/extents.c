/* SPDX-License-Identifier: MIT */
/* How much of a regular file was never written, for the warning before a
 * run on a file that is sparse or full of unwritten extents (an interrupted
 * -c, fallocate, truncate): file systems answer reads there with zeros,
 * without touching the device, so such a run measures nothing real.
 *
 * One walk of the extent map (FIEMAP) before the run, never on the hot
 * path. FIEMAP_FLAG_SYNC flushes the file's dirty pages first, so ranges
 * written but not yet on disk are not mistaken for unwritten ones (cheap
 * when nothing is dirty; otherwise the run would pay for that flush
 * anyway). File systems without FIEMAP (tmpfs, NFS, FUSE) are asked with
 * SEEK_DATA/SEEK_HOLE, which cannot tell holes from unwritten extents:
 * what it finds is counted as holes. */
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

#define EXTENTS_PER_CALL 256u

/* Returns 0 with out filled, or -1 when the file system has no FIEMAP. */
static int walk_fiemap(int fd, uint64_t size, iospd_unwritten_t* out) {
  size_t len =
      sizeof(struct fiemap) + EXTENTS_PER_CALL * sizeof(struct fiemap_extent);
  struct fiemap* fm = iospd_malloc(len);
  if (fm == NULL) return -1;
  uint64_t pos = 0;  /* everything before pos is accounted for */
  uint64_t data = 0; /* bytes below size covered by written extents */
  bool last = false;
  while (!last && pos < size) {
    memset(fm, 0, len);
    fm->fm_start = pos;
    fm->fm_length = size - pos;
    fm->fm_flags = pos == 0 ? FIEMAP_FLAG_SYNC : 0;
    fm->fm_extent_count = EXTENTS_PER_CALL;
    if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0) {
      iospd_free(fm);
      return -1;
    }
    if (fm->fm_mapped_extents == 0) break;
    uint64_t before = pos;
    for (uint32_t i = 0; i < fm->fm_mapped_extents; i++) {
      const struct fiemap_extent* x = &fm->fm_extents[i];
      uint64_t a = x->fe_logical < pos ? pos : x->fe_logical;
      uint64_t b = x->fe_logical + x->fe_length;
      if (b > size) b = size;
      if (x->fe_flags & FIEMAP_EXTENT_LAST) last = true;
      if (b <= a) continue;
      /* Delayed allocation (dirty, not placed yet) and inline data are
       * data; only "unwritten" means blocks that were never written. */
      if (x->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
        out->unwritten_bytes += b - a;
      else
        data += b - a;
      pos = b;
    }
    if (pos == before) break; /* no progress: do not loop forever */
  }
  iospd_free(fm);
  /* Whatever no extent covers is a hole. */
  out->hole_bytes = size - data - out->unwritten_bytes;
  out->known = true;
  return 0;
}

static void walk_seek(int fd, uint64_t size, iospd_unwritten_t* out) {
  uint64_t off = 0, holes = 0;
  while (off < size) {
    off_t d = lseek(fd, (off_t)off, SEEK_DATA);
    if (d < 0) {
      if (errno != ENXIO) return; /* unknown */
      holes += size - off;        /* no data up to the end */
      break;
    }
    if ((uint64_t)d >= size) {
      holes += size - off;
      break;
    }
    holes += (uint64_t)d - off;
    off_t h = lseek(fd, d, SEEK_HOLE);
    if (h < 0) return;
    off = (uint64_t)h;
  }
  out->hole_bytes = holes;
  out->known = true;
}

int iospd_plat_file_unwritten(const char* path, iospd_unwritten_t* out,
                              iospd_err_t* err) {
  memset(out, 0, sizeof *out);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return iospd_posix_err(err, errno, "cannot open '%s'", path);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return iospd_posix_err(err, e, "cannot look at '%s'", path);
  }
  /* Devices have no holes to speak of here. */
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    uint64_t size = (uint64_t)st.st_size;
    if (walk_fiemap(fd, size, out) != 0) {
      memset(out, 0, sizeof *out);
      walk_seek(fd, size, out);
    }
  }
  close(fd);
  return 0;
}
