/* SPDX-License-Identifier: MIT */
/* Report files on POSIX (--output, --timeseries): is a path the same file as
 * a target, can a report be written there, and writing one, whole or in
 * pieces (a new <path>.XXXXXX.tmp, fsync, rename), or in place where the
 * path is a stream, a character device or a FIFO (posix/out_kind.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iospd/alloc.h"
#include "iospd/platform.h"
#include "posix/internal.h"
#include "posix/out_kind.h"

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

/* Creates a new file beside path, "<path>.XXXXXX.tmp" with a name no
 * other file has (O_CREAT|O_EXCL|O_NOFOLLOW: a name planted in the folder,
 * a link above all, is never opened, only skipped). Returns the descriptor
 * and puts the name (free with iospd_free) in *name, or -1 with errno. */
static int tmp_create(const char* path, char** name) {
  static const char letters[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  size_t n = strlen(path) + 12;
  char* t = iospd_malloc(n);
  if (t == NULL) {
    errno = ENOMEM;
    return -1;
  }
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^
               (uint64_t)ts.tv_sec << 20 ^ (uint64_t)getpid();
  for (int attempt = 0; attempt < 100; attempt++) {
    char suffix[7];
    for (int i = 0; i < 6; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      suffix[i] = letters[(x >> 33) % (sizeof letters - 1)];
    }
    suffix[6] = '\0';
    snprintf(t, n, "%s.%s.tmp", path, suffix);
    int fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY |
                         O_CLOEXEC, 0644);
    if (fd >= 0) {
      *name = t;
      return fd;
    }
    if (errno != EEXIST) break;
  }
  int e = errno;
  iospd_free(t);
  errno = e;
  return -1;
}

int iospd_plat_output_probe(const char* path, iospd_err_t* err) {
  iospd_out_kind_t kind;
  int own;
  int rc = iospd_posix_out_kind(path, &kind, &own, err);
  if (rc != 0 || kind == IOSPD_OUT_OWN_FD) return rc;
  if (kind == IOSPD_OUT_IN_PLACE) {
    /* A FIFO without a reader yet would block an open: its permission is
     * all that can be checked now. */
    if (access(path, W_OK) != 0)
      return iospd_posix_err(err, errno, "the file cannot be written");
    return 0;
  }
  struct stat st;
  if (lstat(path, &st) == 0) {
    /* Opening for writing without O_TRUNC changes neither the contents nor
     * the modification time. */
    int fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC |
                            O_NONBLOCK);
    if (fd < 0)
      return iospd_posix_err(err, errno, "the file cannot be written");
    close(fd);
  }
  /* The report goes to a new file beside it first: create one and remove
   * it again, which also proves the folder exists and may be written. */
  char* tmp = NULL;
  int fd = tmp_create(path, &tmp);
  if (fd >= 0) {
    close(fd);
    unlink(tmp);
  } else if (errno == ENOMEM) {
    rc = iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  } else if (errno == ENOENT) {
    rc = iospd_err_set(err, IOSPD_ENOENT, "its folder does not exist");
  } else {
    rc = iospd_posix_err(err, errno, "no file can be created in its folder");
  }
  iospd_free(tmp);
  return rc;
}

/* All len bytes to fd; 0 or errno. */
static int write_all(int fd, const void* data, size_t len) {
  const char* p = data;
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(fd, p + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return errno;
    done += (size_t)w;
  }
  return 0;
}

/* A report being written in pieces (iospd/platform.h): to a new temporary
 * file (tmp != NULL) renamed over the path at the end, or in place where
 * the path is a process stream, a character device or a FIFO. */
struct iospd_plat_outfile_s {
  char* path;
  char* tmp;  /* the temporary file's name; NULL when written in place */
  int fd;
  bool own;   /* fd is the process's own stream: never closed */
  int failed; /* the first write's failure, repeated by publish */
};

static void outfile_free(iospd_plat_outfile_t* f) {
  iospd_free(f->tmp);
  iospd_free(f->path);
  iospd_free(f);
}

/* A process stream, a character device or a FIFO: written where it is,
 * never created, truncated or renamed over. */
static int open_in_place(iospd_plat_outfile_t* f, iospd_out_kind_t kind,
                         int own, iospd_err_t* err) {
  if (kind == IOSPD_OUT_OWN_FD) {
    /* What -R printed there comes first (stdio's buffers). */
    fflush(own == 2 ? stderr : stdout);
    f->fd = own;
    f->own = true;
    return 0;
  }
  int fd = open(f->path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return iospd_posix_err(err, errno, "it cannot be opened");
  struct stat st;
  int rc = fstat(fd, &st) != 0 ? iospd_posix_err(err, errno, "fstat failed")
                               : iospd_posix_out_mode_ok(st.st_mode, err);
  /* Swapped for a regular file since the check: written over, from byte 0,
   * would leave its old tail; refused instead. */
  if (rc == 0 && S_ISREG(st.st_mode))
    rc = iospd_err_set(err, IOSPD_EINVAL, "it was replaced during the run");
  if (rc != 0) {
    close(fd);
    return rc;
  }
  f->fd = fd;
  return 0;
}

int iospd_plat_outfile_open(const char* path, bool text,
                            iospd_plat_outfile_t** out, iospd_err_t* err) {
  (void)text; /* Linux writes every report as bytes */
  *out = NULL;
  /* Decided again now: a link planted since the probe is refused too. */
  iospd_out_kind_t kind;
  int own;
  int rc = iospd_posix_out_kind(path, &kind, &own, err);
  if (rc != 0) return rc;
  iospd_plat_outfile_t* f = iospd_calloc(1, sizeof *f);
  if (f == NULL || (f->path = iospd_strdup(path)) == NULL) {
    iospd_free(f);
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory");
  }
  f->fd = -1;
  if (kind != IOSPD_OUT_REPLACE) {
    rc = open_in_place(f, kind, own, err);
  } else if ((f->fd = tmp_create(path, &f->tmp)) < 0) {
    rc = errno == ENOMEM ? iospd_err_set(err, IOSPD_ENOMEM, "out of memory")
                         : iospd_posix_err(err, errno, "no file beside it "
                                           "cannot be created");
  }
  if (rc != 0) {
    outfile_free(f);
    return rc;
  }
  if (f->tmp != NULL) iospd_posix_doomed_tmp(f->tmp);
  *out = f;
  return 0;
}

int iospd_plat_outfile_write(iospd_plat_outfile_t* f, const void* data,
                             size_t len, iospd_err_t* err) {
  if (f->failed != 0) return f->failed;
  int e = write_all(f->fd, data, len);
  if (e == 0) return 0;
  if (f->own)
    f->failed = iospd_posix_err(err, e, "descriptor %d cannot be written",
                                f->fd);
  else if (f->tmp == NULL)
    f->failed = iospd_posix_err(err, e, "it cannot be written");
  else
    f->failed = iospd_posix_err(err, e, "'%s' cannot be written", f->tmp);
  return f->failed;
}

void iospd_plat_outfile_abandon(iospd_plat_outfile_t* f) {
  if (f == NULL) return;
  if (!f->own && f->fd >= 0) close(f->fd);
  if (f->tmp != NULL) unlink(f->tmp);
  iospd_posix_doomed_tmp(NULL);
  outfile_free(f);
}

int iospd_plat_outfile_publish(iospd_plat_outfile_t* f, iospd_err_t* err) {
  int rc = f->failed;
  if (f->tmp == NULL) { /* in place */
    if (!f->own && close(f->fd) != 0 && rc == 0)
      rc = iospd_posix_err(err, errno, "it cannot be closed");
    outfile_free(f);
    return rc;
  }
  /* Durable before the rename, so a crash leaves the old file or the new
   * one, never an empty one under the final name. */
  if (rc == 0 && fsync(f->fd) != 0)
    rc = iospd_posix_err(err, errno, "'%s' cannot be flushed", f->tmp);
  if (close(f->fd) != 0 && rc == 0)
    rc = iospd_posix_err(err, errno, "'%s' cannot be closed", f->tmp);
  f->fd = -1;
  /* Last look before the rename; rename(2) itself never follows a link, so
   * one planted after this replaces only that link. */
  iospd_out_kind_t kind;
  int own;
  if (rc == 0 &&
      (rc = iospd_posix_out_kind(f->path, &kind, &own, err)) == 0 &&
      kind != IOSPD_OUT_REPLACE)
    rc = iospd_err_set(err, IOSPD_EINVAL, "it was replaced during the run "
                       "by something that is not a regular file");
  if (rc == 0 && rename(f->tmp, f->path) != 0)
    rc = iospd_posix_err(err, errno, "'%s' cannot be renamed to the report's "
                         "name", f->tmp);
  if (rc != 0) unlink(f->tmp);
  /* Cleared only now: a signal in between removes a name the rename has
   * already moved away (nothing), never the published report. */
  iospd_posix_doomed_tmp(NULL);
  outfile_free(f);
  return rc;
}

int iospd_plat_write_file_whole(const char* path, const void* data, size_t len,
                                iospd_err_t* err) {
  iospd_plat_outfile_t* f;
  int rc = iospd_plat_outfile_open(path, true, &f, err);
  if (rc != 0) return rc;
  if ((rc = iospd_plat_outfile_write(f, data, len, err)) != 0) {
    iospd_plat_outfile_abandon(f);
    return rc;
  }
  return iospd_plat_outfile_publish(f, err);
}

/* Linux writes every report as bytes: the same as the text writer. */
int iospd_plat_write_file_whole_bytes(const char* path, const void* data,
                                      size_t len, iospd_err_t* err) {
  return iospd_plat_write_file_whole(path, data, len, err);
}
