/* SPDX-License-Identifier: MIT */
/* -c on Linux: making a target file without ever costing data or space.
 *
 * The free space is checked before anything is touched. The new file is
 * written as a temporary sibling, "<name>.iospd-creating-<pid>" (O_EXCL),
 * and renamed over the target only once it is complete and flushed. So a
 * full disk, a limit (EFBIG, EDQUOT), an I/O error, Ctrl-C or SIGTERM leave
 * an existing target exactly as it was and take no space; a kill or a crash
 * leaves only a temporary file whose name says what it is, and the next -c
 * of the same target removes those of processes that are gone.
 *
 * Only when the file system cannot hold the old and the new file at once
 * (or the target has other hard links, which a rename would split off) is
 * an existing target overwritten in place, as DISKSPD always does: its
 * space is reserved first, and a failure to reserve still leaves it as it
 * was; an interruption after that leaves it partly overwritten, and says
 * so. */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "iospd/alloc.h"
#include "iospd/units.h"
#include "posix/internal.h"

#define CHUNK ((size_t)4u << 20)
/* Write-back is started for every 32 MiB written, and the 32 MiB before
 * that are waited for: never more than about 64 MiB dirty. */
#define BEHIND ((uint64_t)32u << 20)
#define TEMP_TAG ".iospd-creating-"
/* The part of the target's name kept in the temporary name, so that the
 * tag and a pid always fit in NAME_MAX. */
#define TEMP_BASE_MAX (NAME_MAX - 40)

static void note(const iospd_progress_t* progress, const char* fmt, ...)
    IOSPD_PRINTF(2, 3);
static void note(const iospd_progress_t* progress, const char* fmt, ...) {
  if (progress == NULL || progress->note == NULL) return;
  char text[IOSPD_ERR_MSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  progress->note(progress->ctx, text);
}

/* ---- the fill ----------------------------------------------------------- */

/* Hands [*started, off) to write-back and waits for the range before it,
 * so little is ever dirty: the final flush is short, and an interrupted
 * fill goes away quickly (closing a file waits for pages under write-back).
 * Errors are left for fdatasync to report. */
static void write_behind(int fd, uint64_t* waited, uint64_t* started,
                         uint64_t off) {
  if (off > *started)
    (void)sync_file_range(fd, (off_t)*started, (off_t)(off - *started),
                          SYNC_FILE_RANGE_WRITE);
  if (*started > *waited)
    (void)sync_file_range(fd, (off_t)*waited, (off_t)(*started - *waited),
                          SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                              SYNC_FILE_RANGE_WAIT_AFTER);
  *waited = *started;
  *started = off;
}

int iospd_posix_write_pattern(int fd, uint64_t size, bool zero_fill,
                              const iospd_progress_t* progress,
                              const char* path, uint64_t* written,
                              iospd_err_t* err) {
  if (written != NULL) *written = 0;
  uint8_t* buf = iospd_malloc(CHUNK);
  if (buf == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory creating '%s'",
                         path);
  for (size_t i = 0; i < CHUNK; i++)
    buf[i] = zero_fill ? 0 : (uint8_t)(i & 0xff);
  uint64_t off = 0, waited = 0, started = 0;
  int rc = 0;
  while (off < size) {
    /* Between chunks: Ctrl-C or SIGTERM stop the fill within one chunk. */
    if (iospd_posix_interrupt_pending()) {
      rc = iospd_err_set(err, IOSPD_EINTR, "interrupted");
      goto out;
    }
    size_t n = size - off < CHUNK ? (size_t)(size - off) : CHUNK;
    size_t done = 0;
    while (done < n) {
      ssize_t w = pwrite(fd, buf + done, n - done, (off_t)(off + done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        int e = w < 0 ? errno : ENOSPC;
        rc = iospd_posix_err(err, e,
                             "cannot write '%s' at offset %llu while "
                             "creating it",
                             path, (unsigned long long)(off + done));
        goto out;
      }
      done += (size_t)w;
      if (written != NULL) *written = off + done;
    }
    off += n;
    if (off - started >= BEHIND) write_behind(fd, &waited, &started, off);
    if (progress != NULL && progress->fn != NULL)
      progress->fn(progress->ctx, off, size);
  }
  /* Flush now so the run does not pay for write-back of the creation. */
  if (fdatasync(fd) != 0)
    rc = iospd_posix_err(err, errno, "cannot flush '%s' after creating it",
                         path);
out:
  iospd_free(buf);
  return rc;
}

/* Reserves size bytes for fd. Returns 0, or the errno of the failure;
 * EOPNOTSUPP means the file system cannot reserve (the writes will find
 * out). EINTR (tmpfs gives up a long reservation on any signal) is retried
 * unless the run was interrupted. */
static int reserve(int fd, uint64_t size) {
  if (size == 0) return 0;
  for (;;) {
    if (fallocate(fd, 0, 0, (off_t)size) == 0) return 0;
    int e = errno;
    if (e == EINTR && !iospd_posix_interrupt_pending()) continue;
    return e == ENOSYS ? EOPNOTSUPP : e;
  }
}

/* ---- the target and its directory --------------------------------------- */

typedef struct target_s {
  char* path;       /* the file to make, a symbolic link resolved */
  char* dir;        /* its directory */
  const char* base; /* its name in dir (points into path) */
  int old_fd;       /* the existing file, open read-write, or -1 */
  struct stat old;  /* the existing file, when old_fd >= 0 */
  uint64_t size;    /* asked for */
} target_t;

static void target_free(target_t* t) {
  if (t->old_fd >= 0) close(t->old_fd);
  iospd_free(t->path);
  iospd_free(t->dir);
}

static int oom(iospd_err_t* err, const char* path) {
  return iospd_err_set(err, IOSPD_ENOMEM, "out of memory creating '%s'", path);
}

/* Fills t for path: follows a symbolic link (so -c rewrites the file it
 * points to, as an O_TRUNC open would), opens an existing file. */
static int target_init(const char* path, uint64_t size, target_t* t,
                       iospd_err_t* err) {
  memset(t, 0, sizeof *t);
  t->old_fd = -1;
  t->size = size;
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
    char* real = realpath(path, NULL);
    if (real == NULL) {
      if (errno == ENOENT)
        return iospd_err_set(err, IOSPD_EINVAL,
                             "'%s' is a symbolic link to a file that does "
                             "not exist; give -c the path of the file itself",
                             path);
      return iospd_posix_err(err, errno, "cannot resolve '%s'", path);
    }
    t->path = iospd_strdup(real);
    free(real);
  } else {
    t->path = iospd_strdup(path);
  }
  if (t->path == NULL) return oom(err, path);
  if (stat(t->path, &st) == 0 && !S_ISREG(st.st_mode))
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' exists and is not a regular file; -c creates "
                         "only regular files",
                         path);
  const char* slash = strrchr(t->path, '/');
  if (slash == NULL) {
    t->dir = iospd_strdup(".");
    t->base = t->path;
  } else {
    t->dir = iospd_strndup(t->path,
                           slash == t->path ? 1 : (size_t)(slash - t->path));
    t->base = slash + 1;
  }
  if (t->dir == NULL) return oom(err, path);
  t->old_fd = open(t->path, O_RDWR | O_CLOEXEC);
  if (t->old_fd < 0) {
    /* Permission and the like fail here as the O_TRUNC open used to; only
     * a missing file is made. */
    if (errno != ENOENT)
      return iospd_posix_err(err, errno, "cannot create '%s'", path);
  } else if (fstat(t->old_fd, &t->old) != 0) {
    return iospd_posix_err(err, errno, "cannot look at '%s'", path);
  }
  return 0;
}

/* "<dir>/<base>.iospd-creating-" with base cut to TEMP_BASE_MAX bytes, or
 * with pid appended when pid > 0. */
static char* temp_name(const target_t* t, long pid) {
  size_t blen = strlen(t->base);
  if (blen > TEMP_BASE_MAX) blen = TEMP_BASE_MAX;
  size_t n = strlen(t->dir) + blen + sizeof TEMP_TAG + 24;
  char* s = iospd_malloc(n);
  if (s == NULL) return NULL;
  if (pid > 0)
    snprintf(s, n, "%s/%.*s" TEMP_TAG "%ld", t->dir, (int)blen, t->base, pid);
  else
    snprintf(s, n, "%.*s" TEMP_TAG, (int)blen, t->base);
  return s;
}

/* Removes the temporary files of earlier -c runs of this target whose
 * process is gone (killed, crashed, power lost). A live process's file, or
 * one whose process cannot be asked, is left alone. (A pid names a process
 * of this machine and pid namespace only: two hosts making the same file
 * on a network file system at once are not guarded against.) */
static void remove_stale(const target_t* t, const iospd_progress_t* progress) {
  char* prefix = temp_name(t, 0);
  DIR* d = prefix != NULL ? opendir(t->dir) : NULL;
  if (d == NULL) {
    iospd_free(prefix);
    return;
  }
  size_t plen = strlen(prefix);
  struct dirent* e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, prefix, plen) != 0) continue;
    const char* digits = e->d_name + plen;
    if (*digits < '0' || *digits > '9') continue;
    char* end = NULL;
    errno = 0;
    long pid = strtol(digits, &end, 10);
    if (errno != 0 || end == digits || *end != '\0' || pid <= 0 ||
        pid > INT_MAX)
      continue;
    /* This process has made none yet: one with its pid is from an earlier
     * process that had the same pid. */
    if (pid != (long)getpid() && (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
      continue;
    if (unlinkat(dirfd(d), e->d_name, 0) == 0)
      note(progress,
           "removed '%s/%s', left by an interrupted -c of process %ld, "
           "which no longer runs",
           t->dir, e->d_name, pid);
  }
  closedir(d);
  iospd_free(prefix);
}

/* Bytes an unprivileged writer can still allocate on the file system that
 * holds dir (or its nearest existing parent), or UINT64_MAX when the file
 * system does not say. f_bavail, not f_bfree: the blocks ext4 keeps for
 * root are not for benchmark files, even when iospd runs as root. Also
 * --ping's check before its temporary file (platform.h). */
uint64_t iospd_plat_free_bytes(const char* dir) {
  char* d = iospd_strdup(dir);
  if (d == NULL) return UINT64_MAX;
  struct statvfs v;
  uint64_t avail = UINT64_MAX;
  for (;;) {
    if (statvfs(d, &v) == 0) {
      uint64_t unit = v.f_frsize ? v.f_frsize : v.f_bsize;
      /* Pseudo file systems report no blocks at all. */
      if (v.f_blocks != 0 && unit != 0)
        avail = (uint64_t)v.f_bavail > UINT64_MAX / unit
                    ? UINT64_MAX
                    : (uint64_t)v.f_bavail * unit;
      break;
    }
    if (errno != ENOENT || strcmp(d, ".") == 0 || strcmp(d, "/") == 0) break;
    char* s = strrchr(d, '/');
    if (s == NULL)
      strcpy(d, "."); /* d holds at least one character and its NUL */
    else if (s == d)
      d[1] = '\0';
    else
      *s = '\0';
  }
  iospd_free(d);
  return avail;
}

/* Creates the missing directories above path, as DISKSPD does for the
 * targets it creates. Returns the length of the path of the first one it
 * made (0: none), for remove_parents. */
static size_t make_parents(const char* path) {
  char* dir = iospd_strdup(path);
  if (dir == NULL) return 0;
  size_t first = 0;
  for (char* p = dir + 1; *p != '\0'; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(dir, 0755) == 0 && first == 0) first = (size_t)(p - dir);
    *p = '/';
  }
  iospd_free(dir);
  return first;
}

/* Removes, deepest first, the directories make_parents made (those that
 * are still empty). */
static void remove_parents(const char* path, size_t first) {
  if (first == 0) return;
  char* dir = iospd_strdup(path);
  if (dir == NULL) return;
  for (;;) {
    char* s = strrchr(dir, '/');
    if (s == NULL || (size_t)(s - dir) < first) break;
    *s = '\0';
    if (rmdir(dir) != 0) break;
  }
  iospd_free(dir);
}

static void sync_dir(const char* dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)fsync(fd);
  close(fd);
}

/* ---- messages ------------------------------------------------------------ */

static int no_space(iospd_err_t* err, const target_t* t, uint64_t avail) {
  char a[32], o[32];
  iospd_format_size(avail, a, sizeof a);
  if (t->old_fd < 0)
    return iospd_err_set(err, IOSPD_ENOSPC,
                         "not enough free space: its file system has %llu "
                         "bytes (%s) available; nothing was created. Free "
                         "some space there or give -c a smaller size",
                         (unsigned long long)avail, a);
  uint64_t held = (uint64_t)t->old.st_blocks * 512u;
  iospd_format_size(held, o, sizeof o);
  return iospd_err_set(err, IOSPD_ENOSPC,
                       "not enough free space: its file system has %llu "
                       "bytes (%s) available, plus %llu bytes (%s) that the "
                       "existing file holds; the existing file was left as "
                       "it was. Free some space there or give -c a smaller "
                       "size",
                       (unsigned long long)avail, a, (unsigned long long)held,
                       o);
}

/* A reservation (fallocate) the file system refused; nothing was written. */
static int not_reserved(iospd_err_t* err, int e, const target_t* t) {
  char os[128];
  const char* text = strerror_r(e, os, sizeof os);
  const char* why = e == EFBIG    ? ": the file system, or this process's file "
                                    "size limit (ulimit -f), does not allow a "
                                    "file that large"
                    : e == EDQUOT ? ": the disk quota does not allow it"
                                  : "";
  const char* left = t->old_fd >= 0 ? "the existing file was left as it was"
                                    : "nothing was left behind";
  const char* todo = e == EFBIG ? "Give -c a smaller size or put the target "
                                  "on another file system"
                                : "Free some space there or give -c a "
                                  "smaller size";
  return iospd_err_set_os(err, iospd_posix_translate(e), e,
                          "the space could not be reserved (%s)%s; %s. %s",
                          text, why, left, todo);
}

static int interrupted(iospd_err_t* err, uint64_t written, uint64_t size,
                       const char* left) {
  char w[32], s[32];
  return iospd_err_set(
      err, IOSPD_EINTR, "interrupted after %s of %s were written; %s",
      iospd_format_size(written, w, sizeof w),
      iospd_format_size(size, s, sizeof s), left);
}

/* ---- the two ways -------------------------------------------------------- */

/* Writes the file as a temporary sibling and renames it over the target.
 * Returns 1 without touching anything when the temporary file cannot be
 * made and an existing target may be overwritten in place instead. */
static int create_beside(target_t* t, bool zero_fill,
                         const iospd_progress_t* progress, bool may_fall_back,
                         iospd_err_t* err) {
  size_t made = t->old_fd < 0 ? make_parents(t->path) : 0;
  char* tmp = temp_name(t, (long)getpid());
  if (tmp == NULL) {
    remove_parents(t->path, made);
    return oom(err, t->path);
  }
  int fd = open(tmp, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0) {
    int e = errno;
    remove_parents(t->path, made);
    if (may_fall_back) {
      note(progress,
           "cannot make the temporary file '%s' (%s); overwriting '%s' in "
           "place instead",
           tmp, strerror(e), t->path);
      iospd_free(tmp);
      return 1;
    }
    int rc = iospd_posix_err(err, e, "cannot create a file in '%s'", t->dir);
    iospd_free(tmp);
    return rc;
  }
  if (t->old_fd >= 0) {
    /* The new file replaces the old one: keep its owner and mode. */
    if (geteuid() == 0) (void)fchown(fd, t->old.st_uid, t->old.st_gid);
    (void)fchmod(fd, t->old.st_mode & 07777);
  }
  uint64_t written = 0;
  int rc = 0;
  int e = reserve(fd, t->size);
  if (e == EINTR)
    rc = IOSPD_EINTR;
  else if (e != 0 && e != EOPNOTSUPP)
    rc = not_reserved(err, e, t);
  if (rc == 0 && t->size > 0)
    rc = iospd_posix_write_pattern(fd, t->size, zero_fill, progress, t->path,
                                   &written, err);
  if (rc == 0) {
    int c = close(fd);
    fd = -1;
    if (c != 0)
      rc = iospd_posix_err(err, errno, "cannot close '%s' after writing it",
                           tmp);
  }
  if (rc == 0 && rename(tmp, t->path) != 0)
    rc = iospd_posix_err(err, errno, "cannot rename the finished '%s' to '%s'",
                         tmp, t->path);
  if (rc == 0) {
    sync_dir(t->dir);
  } else {
    /* Unlink first: closing may wait for pages under write-back. */
    unlink(tmp);
    if (fd >= 0) close(fd);
    remove_parents(t->path, made);
    if (rc == IOSPD_EINTR)
      rc = interrupted(err, written, t->size,
                       t->old_fd >= 0
                           ? "the unfinished copy was removed, and the "
                             "existing file is as it was"
                           : "the unfinished file was removed");
  }
  iospd_free(tmp);
  return rc;
}

/* Overwrites the existing target: reserve (undone on failure, so the file
 * keeps its size and content), then write. */
static int create_in_place(target_t* t, bool zero_fill,
                           const iospd_progress_t* progress, iospd_err_t* err) {
  int fd = t->old_fd;
  int e = reserve(fd, t->size);
  if (e != 0 && e != EOPNOTSUPP) {
    /* A failed reservation may have grown the file; fallocate never
     * changes data, so cutting it back restores it exactly. */
    (void)ftruncate(fd, t->old.st_size);
    if (e == EINTR)
      return interrupted(err, 0, t->size,
                         "nothing was written, and the existing file is as "
                         "it was");
    return not_reserved(err, e, t);
  }
  if ((uint64_t)t->old.st_size > t->size && ftruncate(fd, (off_t)t->size) != 0)
    return iospd_posix_err(err, errno, "cannot shorten '%s'", t->path);
  uint64_t written = 0;
  int rc = t->size > 0
               ? iospd_posix_write_pattern(fd, t->size, zero_fill, progress,
                                           t->path, &written, err)
               : 0;
  const char* lost =
      "the file was being overwritten in place, so the rest of it holds "
      "old data or was never written: re-create it with -c before "
      "measuring it";
  if (rc == IOSPD_EINTR) return interrupted(err, written, t->size, lost);
  if (rc < 0 && written > 0 && err != NULL) {
    iospd_err_t first = *err;
    rc = iospd_err_set_os(err, rc, first.os_code, "%s; %s", first.msg, lost);
  }
  return rc;
}

int iospd_plat_file_create_ex(const char* path, uint64_t size, bool zero_fill,
                              const iospd_progress_t* progress,
                              iospd_err_t* err) {
  int rc = iospd_posix_check_path(path, err);
  if (rc < 0) return rc;
  if (size > (uint64_t)INT64_MAX)
    return iospd_err_set(err, IOSPD_ERANGE,
                         "%llu bytes is more than any Linux file can hold; "
                         "give -c a smaller size",
                         (unsigned long long)size);
  target_t t;
  rc = target_init(path, size, &t, err);
  if (rc < 0) {
    target_free(&t);
    return rc;
  }
  remove_stale(&t, progress);
  uint64_t avail = iospd_plat_free_bytes(t.dir);
  uint64_t held = t.old_fd >= 0 ? (uint64_t)t.old.st_blocks * 512u : 0;
  bool linked = t.old_fd >= 0 && t.old.st_nlink > 1;
  bool beside = size <= avail && !linked;
  bool in_place = t.old_fd >= 0 && (size <= held || size - held <= avail);
  if (!beside && !in_place) {
    rc = no_space(err, &t, avail);
  } else {
    rc = 1;
    if (beside) rc = create_beside(&t, zero_fill, progress, in_place, err);
    /* When create_beside falls back, it has said why. */
    if (rc == 1 && !beside)
      note(progress,
           linked ? "'%s' has other hard links, so it is overwritten in "
                    "place; an interruption would leave it partly overwritten"
                  : "not enough free space for a side copy of '%s', so it "
                    "is overwritten in place; an interruption would leave it "
                    "partly overwritten",
           t.path);
    if (rc == 1) rc = create_in_place(&t, zero_fill, progress, err);
  }
  target_free(&t);
  return rc;
}
