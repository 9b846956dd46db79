/* SPDX-License-Identifier: MIT */
/* Report files on POSIX (--output, --timeseries): is a path the same file as
 * a target, can a report be written there, and writing one whole
 * (<path>.tmp, fsync, rename). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"
#include "posix/internal.h"

/* "<resolved folder>/<name>" for a path whose file may not exist yet;
 * NULL when the folder cannot be resolved. Free with free(). */
static char* resolved_name(const char* path) {
  char* d = strdup(path);
  char* b = strdup(path);
  char* out = NULL;
  if (d != NULL && b != NULL) {
    char* dir = realpath(dirname(d), NULL);
    const char* base = basename(b);
    if (dir != NULL) {
      size_t n = strlen(dir) + strlen(base) + 2;
      out = malloc(n);
      if (out != NULL) snprintf(out, n, "%s/%s", dir, base);
      free(dir);
    }
  }
  free(d);
  free(b);
  return out;
}

bool iospd_plat_same_file(const char* a, const char* b) {
  if (iospd_plat_same_path(a, b)) return true;
  struct stat sa, sb;
  bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea != eb) return false; /* one exists, the other does not */
  char* ra = resolved_name(a);
  char* rb = resolved_name(b);
  bool same = ra != NULL && rb != NULL && strcmp(ra, rb) == 0;
  free(ra);
  free(rb);
  return same;
}

static char* tmp_name(const char* path) {
  size_t n = strlen(path) + 5;
  char* t = iospd_malloc(n);
  if (t != NULL) snprintf(t, n, "%s.tmp", path);
  return t;
}

int iospd_plat_output_probe(const char* path, iospd_err_t* err) {
  struct stat st;
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return iospd_err_set(err, IOSPD_EINVAL, "it is a folder, not a file");
    /* A report replaces the file by a rename: a device or a pipe would be
     * replaced by a regular file, so refuse them. */
    if (!S_ISREG(st.st_mode))
      return iospd_err_set(err, IOSPD_EINVAL,
                           "it is not a regular file (a device, a pipe or "
                           "a socket)");
    /* Opening for writing without O_TRUNC changes neither the contents nor
     * the modification time. */
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
      return iospd_posix_err(err, errno, "the file cannot be written");
    close(fd);
  } else if (errno != ENOENT) {
    return iospd_posix_err(err, errno, "the path cannot be used");
  }
  /* The report goes to <path>.tmp first: create it and remove it again,
   * which also proves the folder exists and may be written. */
  char* tmp = tmp_name(path);
  if (tmp == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  int rc = 0;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0644);
  if (fd >= 0) {
    close(fd);
    unlink(tmp);
  } else if (errno == EEXIST) {
    /* Left by an earlier run that died: it will be replaced; only check
     * that it can be (without truncating it now). */
    if (stat(tmp, &st) != 0 || !S_ISREG(st.st_mode))
      rc = iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' exists and is not a regular file", tmp);
    else if ((fd = open(tmp, O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0)
      rc = iospd_posix_err(err, errno, "'%s' cannot be written", tmp);
    else
      close(fd);
  } else if (errno == ENOENT) {
    rc = iospd_err_set(err, IOSPD_ENOENT, "its folder does not exist");
  } else {
    rc = iospd_posix_err(err, errno, "no file can be created in its folder");
  }
  iospd_free(tmp);
  return rc;
}

int iospd_plat_write_file_whole(const char* path, const void* data, size_t len,
                                iospd_err_t* err) {
  char* tmp = tmp_name(path);
  if (tmp == NULL) return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  int rc = 0;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0644);
  if (fd < 0) {
    rc = iospd_posix_err(err, errno, "'%s' cannot be created", tmp);
    iospd_free(tmp);
    return rc;
  }
  const char* p = data;
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(fd, p + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      rc = iospd_posix_err(err, errno, "'%s' cannot be written", tmp);
      break;
    }
    done += (size_t)w;
  }
  /* Durable before the rename, so a crash leaves the old file or the new
   * one, never an empty one under the final name. */
  if (rc == 0 && fsync(fd) != 0)
    rc = iospd_posix_err(err, errno, "'%s' cannot be flushed", tmp);
  if (close(fd) != 0 && rc == 0)
    rc = iospd_posix_err(err, errno, "'%s' cannot be closed", tmp);
  if (rc == 0 && rename(tmp, path) != 0)
    rc = iospd_posix_err(err, errno, "'%s' cannot be renamed to the report's "
                         "name", tmp);
  if (rc != 0) unlink(tmp);
  iospd_free(tmp);
  return rc;
}

/* Linux writes every report as bytes: the same as the text writer. */
int iospd_plat_write_file_whole_bytes(const char* path, const void* data,
                                      size_t len, iospd_err_t* err) {
  return iospd_plat_write_file_whole(path, data, len, err);
}
