/* SPDX-License-Identifier: MIT */
/* Targets on Linux: open flags (O_DIRECT for -Su, O_DSYNC for -Sw, fadvise
 * hints, I/O priority), sizes and sector sizes of files and block devices,
 * reading the ends of devices for the write guard (src/device_sniff.c
 * judges them). Creation (-c) is in create.c, the check for never-written
 * ranges in extents.c. */
#include <ctype.h>
#include <dirent.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "iospd/alloc.h"
#include "iospd/device_sniff.h"
#include "posix/internal.h"

/* From linux/ioprio.h, spelled out because older headers lack the macros. */
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_BE 2
#define IOPRIO_CLASS_IDLE 3
#define IOPRIO_WHO_PROCESS 1

/* ---- Windows-only target forms ------------------------------------------- */

static bool is_disk_number(const char* p) {
  if (p[0] != '#' || p[1] == '\0') return false;
  for (const char* c = p + 1; *c != '\0'; c++)
    if (!isdigit((unsigned char)*c)) return false;
  return true;
}

static bool is_drive_letter(const char* p) {
  return isalpha((unsigned char)p[0]) && p[1] == ':' && p[2] == '\0';
}

int iospd_posix_check_path(const char* path, iospd_err_t* err) {
  if (path == NULL || path[0] == '\0')
    return iospd_err_set(err, IOSPD_EINVAL, "empty target path");
  if (is_disk_number(path))
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "target '%s' names a physical disk by number, a "
                         "Windows form that does not exist on Linux; pass "
                         "the block device instead (for example /dev/sdb or "
                         "/dev/nvme0n1)",
                         path);
  if (strncmp(path, "\\\\.\\", 4) == 0 || strncmp(path, "\\\\?\\", 4) == 0)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "target '%s' is a Windows device path, which does "
                         "not exist on Linux; pass the block device instead "
                         "(for example /dev/sdb or /dev/nvme0n1)",
                         path);
  if (is_drive_letter(path))
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "target '%s' names a volume by drive letter, a "
                         "Windows form that does not exist on Linux; pass "
                         "the block device of the partition instead (for "
                         "example /dev/sdb1) or a file path",
                         path);
  return iospd_posix_refuse_pseudo(path, err);
}

static ssize_t pread_all(int fd, uint8_t* buf, size_t want, uint64_t off) {
  ssize_t got;
  do got = pread(fd, buf, want, (off_t)off);
  while (got < 0 && errno == EINTR);
  return got;
}

/* Reads the first and the last MiB of a device through a buffered
 * descriptor of its own (the target's may be O_DIRECT or write-only), or
 * through fd with an aligned buffer when the path cannot be reopened. */
static void probe_device(int fd, unsigned oflags, const char* path,
                         uint64_t size, iospd_file_info_t* info) {
  size_t want = IOSPD_SNIFF_BYTES;
  if (size < want) want = (size_t)size / 4096u * 4096u;
  if (want == 0) return;
  uint8_t* buf = iospd_plat_buf_alloc(IOSPD_SNIFF_BYTES, 4096, 0);
  if (buf == NULL) return;
  int own = path != NULL ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  int use = own;
  if (use < 0 && fd >= 0 && (oflags & O_ACCMODE) != O_WRONLY) use = fd;
  ssize_t got = use >= 0 ? pread_all(use, buf, want, 0) : -1;
  if (got > 0) {
    iospd_sniff_device_head(buf, (size_t)got, info);
    /* The end holds backup GPT headers and md 0.90/1.0 super blocks; the
     * (short) read from there reaches the very end. */
    uint64_t tail = iospd_sniff_tail_base(size);
    if (tail > 0) {
      got = pread_all(use, buf, want, tail);
      if (got > 0)
        iospd_sniff_device_tail(buf, (size_t)got, tail, size, info);
    }
  }
  if (own >= 0) close(own);
  if (got <= 0) {
    /* Unknown content must not look like an empty disk to the safety check
     * that refuses writes to disks holding data. */
    info->has_filesystem = true;
    snprintf(info->content, sizeof info->content,
             "unknown content (the device could not be read)");
  }
  iospd_plat_buf_free(buf, IOSPD_SNIFF_BYTES);
}

/* A device the kernel holds (mounted, an md/dm/LVM member, or opened
 * exclusively) refuses an O_EXCL open with EBUSY; one stacked under
 * another device lists it in sysfs holders/. Either way writes would
 * corrupt something live. */
static bool device_in_use(const char* path, dev_t dev) {
  if (path != NULL) {
    int x = open(path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
    if (x >= 0)
      close(x);
    else if (errno == EBUSY)
      return true;
  }
  char dir[96];
  snprintf(dir, sizeof dir, "/sys/dev/block/%u:%u/holders", major(dev),
           minor(dev));
  DIR* d = opendir(dir);
  if (d == NULL) return false;
  bool held = false;
  struct dirent* e;
  while (!held && (e = readdir(d)) != NULL)
    held = e->d_name[0] != '.';
  closedir(d);
  return held;
}

/* ---- sizes and sector sizes ------------------------------------------- */

static uint32_t sysfs_block_size(dev_t dev, const char* which) {
  char path[128];
  /* A partition has no queue/ of its own: its parent disk's applies. */
  static const char* const forms[] = {"/sys/dev/block/%u:%u/queue/%s",
                                      "/sys/dev/block/%u:%u/../queue/%s"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(forms); i++) {
    snprintf(path, sizeof path, forms[i], major(dev), minor(dev), which);
    FILE* f = fopen(path, "re");
    if (f == NULL) continue;
    unsigned v = 0;
    int ok = fscanf(f, "%u", &v);
    fclose(f);
    if (ok == 1 && v > 0) return v;
  }
  return 0;
}

/* Regular files: the direct-I/O alignment the file system asks for (statx
 * STATX_DIOALIGN, Linux 6.1+), else the underlying disk's logical block
 * size, else 512. Never st_blksize, which is a buffered-I/O preference. */
static void file_sectors(int dirfd, const char* path, const struct stat* st,
                         iospd_file_info_t* info) {
  uint32_t logical = 0;
#ifdef STATX_DIOALIGN
  struct statx stx;
  memset(&stx, 0, sizeof stx);
  int flags = path == NULL ? AT_EMPTY_PATH : 0;
  if (statx(dirfd, path == NULL ? "" : path, flags, STATX_DIOALIGN, &stx) ==
          0 &&
      (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align > 0)
    logical = stx.stx_dio_offset_align;
#else
  (void)dirfd;
  (void)path;
#endif
  uint32_t dev_logical = sysfs_block_size(st->st_dev, "logical_block_size");
  if (logical == 0) logical = dev_logical;
  if (logical == 0) logical = 512;
  uint32_t physical = sysfs_block_size(st->st_dev, "physical_block_size");
  if (physical < logical) physical = logical;
  info->logical_sector = logical;
  info->physical_sector = physical;
}

/* Fills info for an open descriptor (fd) or, when fd < 0, for a path. */
static int describe(int fd, unsigned oflags, const char* path,
                    iospd_file_info_t* info, iospd_err_t* err) {
  memset(info, 0, sizeof *info);
  struct stat st;
  int rc = fd >= 0 ? fstat(fd, &st) : stat(path, &st);
  if (rc != 0) {
    int e = errno;
    if (e == ENOENT)
      return iospd_posix_err(err, e, "'%s' does not exist", path);
    return iospd_posix_err(err, e, "cannot look at '%s'", path);
  }
  if (S_ISREG(st.st_mode)) {
    info->size = (uint64_t)st.st_size;
    if (fd >= 0)
      file_sectors(fd, NULL, &st, info);
    else
      file_sectors(AT_FDCWD, path, &st, info);
    return 0;
  }
  if (!S_ISBLK(st.st_mode))
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' is neither a regular file nor a block device",
                         path);

  info->is_device = true;
  int dfd = fd;
  if (dfd < 0) {
    dfd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (dfd < 0)
      return iospd_posix_err(err, errno, "cannot open block device '%s'", path);
  }
  uint64_t bytes = 0;
  int lsz = 0;
  unsigned int psz = 0;
  if (ioctl(dfd, BLKGETSIZE64, &bytes) != 0) {
    int e = errno;
    if (dfd != fd) close(dfd);
    return iospd_posix_err(err, e, "cannot get the size of '%s' (BLKGETSIZE64)",
                           path);
  }
  if (ioctl(dfd, BLKSSZGET, &lsz) != 0 || lsz <= 0) lsz = 512;
  if (ioctl(dfd, BLKPBSZGET, &psz) != 0 || psz < (unsigned)lsz)
    psz = (unsigned)lsz;
  info->size = bytes;
  info->logical_sector = (uint32_t)lsz;
  info->physical_sector = psz;
  probe_device(dfd, fd >= 0 ? oflags : O_RDONLY, path, bytes, info);
  if (dfd != fd) close(dfd);
  /* Only on the path check before a run: the targets' own descriptors (and
   * other threads' opens) must not be mistaken for a holder. */
  if (fd < 0 && device_in_use(path, st.st_rdev)) {
    info->has_filesystem = true;
    snprintf(info->content, sizeof info->content, "%s",
             "in use by the system (mounted or part of a RAID/LVM)");
  }
  return 0;
}

/* ---- open / info / close ---------------------------------------------- */

int iospd_plat_file_open(iospd_plat_file_t** out, const iospd_open_opts_t* o,
                         iospd_err_t* err) {
  int rc = iospd_posix_check_path(o->path, err);
  if (rc < 0) return rc;
  if (o->flags & IOSPD_OPEN_DISABLE_LOCAL_CACHE)
    return iospd_err_set(err, IOSPD_ENOTSUP,
                         "'%s': -Sr (disable the local cache of a remote file "
                         "system) has no Linux equivalent; use -Su for "
                         "unbuffered I/O instead",
                         o->path);

  bool rd = (o->flags & IOSPD_OPEN_READ) != 0;
  bool wr = (o->flags & IOSPD_OPEN_WRITE) != 0;
  int acc = rd && wr ? O_RDWR : wr ? O_WRONLY : O_RDONLY;
  int oflags = acc | O_CLOEXEC;
  if (o->flags & IOSPD_OPEN_NO_BUFFERING) oflags |= O_DIRECT;
  if (o->flags & IOSPD_OPEN_WRITE_THROUGH) oflags |= O_DSYNC;

  int fd = open(o->path, oflags);
  if (fd < 0) {
    int e = errno;
    if (e == EINVAL && (oflags & O_DIRECT)) {
      /* Find out whether O_DIRECT is what the file system refuses. Never
       * retry without it for real: an unbuffered benchmark that quietly
       * goes through the page cache measures the wrong thing. */
      int probe = open(o->path, acc | O_CLOEXEC);
      if (probe >= 0) {
        close(probe);
        return iospd_err_set_os(
            err, IOSPD_ENOTSUP, e,
            "'%s': the file system does not support unbuffered I/O "
            "(O_DIRECT), which -Su and -Sh ask for; put the target on "
            "another file system (for example ext4 or xfs) or "
            "run without -Su/-Sh",
            o->path);
      }
    }
    if (e == ENOENT)
      return iospd_posix_err(err, e,
                             "cannot open '%s': it does not exist (create it "
                             "with -c<size>)",
                             o->path);
    return iospd_posix_err(err, e, "cannot open '%s'", o->path);
  }

  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return iospd_posix_err(err, e, "cannot look at '%s'", o->path);
  }
  if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
    close(fd);
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' is neither a regular file nor a block device",
                         o->path);
  }

  iospd_plat_file_t* f = iospd_calloc(1, sizeof *f);
  char* path = iospd_strdup(o->path);
  if (f == NULL || path == NULL) {
    iospd_free(f);
    iospd_free(path);
    close(fd);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory opening '%s'",
                         o->path);
  }
  f->fd = fd;
  f->flags = o->flags;
  f->path = path;
  f->is_device = S_ISBLK(st.st_mode);

  /* Access-pattern hints (-fs, -fr); -ft has no Linux equivalent. Failure
   * only costs the hint. */
  if (o->flags & IOSPD_OPEN_SEQ_HINT)
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  if (o->flags & IOSPD_OPEN_RANDOM_HINT)
    posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);

  /* -I1/-I2: Linux priorities belong to threads (and, with io_uring, to each
   * request), not to descriptors. Set the opening thread's now; the queue
   * puts the value on every request. Refusal is not an error. */
  if (o->flags & IOSPD_OPEN_PRIORITY_VERY_LOW)
    f->ioprio = (uint16_t)(IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT);
  else if (o->flags & IOSPD_OPEN_PRIORITY_LOW)
    f->ioprio = (uint16_t)(IOPRIO_CLASS_BE << IOPRIO_CLASS_SHIFT | 7);
  if (f->ioprio != 0) {
    long r = syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, (int)f->ioprio);
    (void)r;
  }
  if (o->flags & IOSPD_OPEN_MAPPED) {
    rc = iospd_posix_map(f, err);
    if (rc < 0) {
      iospd_plat_file_close(f);
      return rc;
    }
  }
  *out = f;
  return 0;
}

int iospd_plat_file_info(iospd_plat_file_t* f, iospd_file_info_t* info,
                         iospd_err_t* err) {
  int oflags = fcntl(f->fd, F_GETFL);
  return describe(f->fd, oflags < 0 ? O_RDONLY : (unsigned)oflags, f->path,
                  info, err);
}

void iospd_plat_file_close(iospd_plat_file_t* f) {
  if (f == NULL) return;
  iospd_posix_unmap(f);
  close(f->fd);
  iospd_free(f->path);
  iospd_free(f);
}

int iospd_plat_path_info(const char* path, iospd_file_info_t* info,
                         iospd_err_t* err) {
  int rc = iospd_posix_check_path(path, err);
  if (rc < 0) return rc;
  return describe(-1, O_RDONLY, path, info, err);
}

/* ---- whole-file reads ------------------------------------------------- */

bool iospd_plat_same_path(const char* a, const char* b) {
  return strcmp(a, b) == 0; /* names are byte strings here */
}

int iospd_plat_read_file(const char* path, size_t limit, char** data,
                         size_t* len, iospd_err_t* err) {
  /* No size limit but the caller's: whatever iospd writes (a long -D1
   * run's -Rjson is hundreds of MB) it must read back. A regular file is
   * read into one buffer of its size; a pipe or device grows one. */
  *data = NULL;
  *len = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return iospd_posix_err(err, errno, "cannot open '%s'", path);
  struct stat st;
  size_t cap = 4096;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (limit == SIZE_MAX && (uint64_t)st.st_size >= (uint64_t)SIZE_MAX / 2) {
      close(fd);
      return iospd_err_set(err, IOSPD_ERANGE,
                           "'%s' (%llu bytes) is too large to read in a "
                           "32-bit iospd; use the 64-bit one",
                           path, (unsigned long long)st.st_size);
    }
    cap = (size_t)st.st_size + 1; /* +1: EOF is seen without growing */
  }
  if (cap > limit) cap = limit;
  size_t n = 0;
  char* buf = iospd_malloc(cap + 1);
  int rc = 0;
  while (n < limit) {
    if (buf == NULL) {
      rc = iospd_err_set(err, IOSPD_ENOMEM,
                         "out of memory reading '%s' (%zu bytes)", path, cap);
      break;
    }
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      rc = iospd_posix_err(err, errno, "error reading '%s'", path);
      break;
    }
    if (got == 0) break;
    n += (size_t)got;
    if (n == cap && n < limit) {
      size_t more = cap < SIZE_MAX / 4 ? cap * 2 + 1 : 0;
      if (more > limit) more = limit;
      char* bigger = more > cap ? iospd_realloc(buf, more + 1) : NULL;
      if (bigger == NULL) iospd_free(buf);
      buf = bigger;
      cap = more;
    }
  }
  close(fd);
  if (rc < 0) {
    iospd_free(buf);
    return rc;
  }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return 0;
}
