/* SPDX-License-Identifier: MIT */
/* The file-tree mode's file-system calls (platform.h, "the file-tree
 * mode"): plain descriptors, pread/pwrite, mkdir, a rename that never
 * replaces, removal and a stat. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "posix/internal.h"

int iospd_plat_tree_open(const char* path, unsigned flags,
                         iospd_tree_fh_t* fh, iospd_err_t* err) {
  /* O_NOFOLLOW: a symbolic link planted as a tree file must not turn the
   * run's writes into writes to whatever it points at. */
  int oflags = O_CLOEXEC | O_NOFOLLOW;
  oflags |= (flags & IOSPD_TREE_OPEN_WRITE) ? O_RDWR : O_RDONLY;
  if (flags & IOSPD_TREE_OPEN_CREATE) oflags |= O_CREAT | O_EXCL;
  if (flags & IOSPD_TREE_OPEN_UNBUFFERED) oflags |= O_DIRECT;
  if (flags & IOSPD_TREE_OPEN_WRITE_THROUGH) oflags |= O_DSYNC;
  int fd;
  do {
    fd = open(path, oflags, 0644);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0 && errno == ELOOP)
    return iospd_err_set_os(err, IOSPD_EUNSAFE, ELOOP,
                            "'%s' is a symbolic link where a file of the "
                            "tree belongs: iospd does not follow links in a "
                            "tree (it would read or write the link's "
                            "target); the link and its target were left as "
                            "they are. Remove the link",
                            path);
  if (fd < 0)
    return iospd_posix_err(err, errno, "cannot %s '%s'",
                           (flags & IOSPD_TREE_OPEN_CREATE) ? "create"
                                                            : "open",
                           path);
  fh->h = fd;
  return 0;
}

int64_t iospd_plat_tree_read(iospd_tree_fh_t fh, void* buf, uint32_t len,
                             uint64_t offset) {
  ssize_t n;
  do {
    n = pread((int)fh.h, buf, len, (off_t)offset);
  } while (n < 0 && errno == EINTR);
  return n < 0 ? iospd_posix_translate(errno) : (int64_t)n;
}

int64_t iospd_plat_tree_write(iospd_tree_fh_t fh, const void* buf,
                              uint32_t len, uint64_t offset) {
  ssize_t n;
  do {
    n = pwrite((int)fh.h, buf, len, (off_t)offset);
  } while (n < 0 && errno == EINTR);
  return n < 0 ? iospd_posix_translate(errno) : (int64_t)n;
}

int iospd_plat_tree_close(iospd_tree_fh_t fh) {
  /* Linux closes the descriptor even when close reports an error; never
   * retry (another thread may have the number already). */
  return close((int)fh.h) == 0 ? 0 : iospd_posix_translate(errno);
}

int iospd_plat_mkdir(const char* path, iospd_err_t* err) {
  if (mkdir(path, 0755) == 0) return 0;
  int e = errno;
  if (e == EEXIST) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return IOSPD_EEXIST;
    return iospd_err_set(err, IOSPD_EEXIST,
                         "'%s' exists and is not a directory", path);
  }
  return iospd_posix_err(err, e, "cannot create the directory '%s'", path);
}

int iospd_plat_rename_noreplace(const char* from, const char* to,
                                iospd_err_t* err) {
  if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
    return 0;
  int e = errno;
  if (e == EINVAL || e == ENOSYS) {
    /* File systems without RENAME_NOREPLACE: a hard link cannot replace
     * either (EEXIST), and the old name goes only once the new one is
     * there. */
    if (link(from, to) == 0) {
      if (unlink(from) == 0) return 0;
      e = errno;
      (void)unlink(to);
    } else {
      e = errno;
    }
  }
  return iospd_posix_err(err, e, "cannot rename '%s' to '%s'", from, to);
}

int iospd_plat_remove_file(const char* path, iospd_err_t* err) {
  if (unlink(path) == 0) return 0;
  return iospd_posix_err(err, errno, "cannot remove '%s'", path);
}

int iospd_plat_remove_dir(const char* path, iospd_err_t* err) {
  if (rmdir(path) == 0) return 0;
  return iospd_posix_err(err, errno, "cannot remove the directory '%s'",
                         path);
}

int iospd_plat_path_kind(const char* path, int* kind, uint64_t* size,
                         iospd_err_t* err) {
  struct stat st;
  *kind = IOSPD_PATH_NONE;
  *size = 0;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return 0;
    return iospd_posix_err(err, errno, "cannot look at '%s'", path);
  }
  if (S_ISLNK(st.st_mode)) {
    /* A link to a directory is the directory (a --tree DIR may be one);
     * any other link is reported as a link, never as its target. */
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      *kind = IOSPD_PATH_DIR;
    } else {
      *kind = IOSPD_PATH_LINK;
    }
    return 0;
  }
  if (S_ISREG(st.st_mode)) {
    *kind = IOSPD_PATH_FILE;
    *size = (uint64_t)st.st_size;
  } else if (S_ISDIR(st.st_mode)) {
    *kind = IOSPD_PATH_DIR;
  } else {
    *kind = IOSPD_PATH_OTHER;
  }
  return 0;
}
