/* SPDX-License-Identifier: MIT */
/* Targets that are not storage: the pseudo-files of /proc, /sys and the
 * kernel interfaces mounted beside them. A benchmark has no reason to read
 * or write them, and a write can do harm: -c2M /proc/self/mem writes into
 * iospd's own memory, the files of /proc/sys and efivarfs change the
 * machine. Told by the file system's statfs magic, not by the spelling, so
 * a link to /proc/self/mem or another mount of sysfs is refused too. */
#include <string.h>
#include <sys/statfs.h>

#include "iospd/alloc.h"
#include "posix/internal.h"

/* From linux/magic.h (spelled out: older headers lack some of them). */
static const struct {
  unsigned long magic;
  const char* where;
} pseudo[] = {
    {0x9fa0ul, "/proc (procfs)"},
    {0x62656572ul, "/sys (sysfs)"},
    {0x64626720ul, "debugfs"},
    {0x74726163ul, "tracefs"},
    {0x73636673ul, "securityfs"},
    {0x27e0ebul, "a cgroup file system"},
    {0x63677270ul, "a cgroup2 file system"},
    {0xcafe4a11ul, "bpffs"},
    {0xde5e81e4ul, "efivarfs"},
    {0x6165676cul, "pstore"},
    {0x62656570ul, "configfs"},
};

/* statfs of path, or of its nearest existing parent when it does not exist
 * yet (-c of a new file): false when nothing could be looked at. */
static bool fs_magic(const char* path, unsigned long* magic) {
  struct statfs sf;
  if (statfs(path, &sf) == 0) {
    *magic = (unsigned long)sf.f_type;
    return true;
  }
  if (errno != ENOENT) return false;
  char* d = iospd_strdup(path);
  if (d == NULL) return false;
  bool ok = false;
  for (;;) {
    char* s = strrchr(d, '/');
    if (s == NULL) {
      ok = statfs(".", &sf) == 0;
      break;
    }
    if (s == d) s[1] = '\0';
    else *s = '\0';
    if (statfs(d, &sf) == 0) {
      ok = true;
      break;
    }
    if (errno != ENOENT || strcmp(d, "/") == 0) break;
  }
  iospd_free(d);
  if (ok) *magic = (unsigned long)sf.f_type;
  return ok;
}

int iospd_posix_refuse_pseudo(const char* path, iospd_err_t* err) {
  unsigned long magic;
  if (!fs_magic(path, &magic)) return 0; /* the open says what is wrong */
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(pseudo); i++)
    if (pseudo[i].magic == magic)
      return iospd_err_set(
          err, IOSPD_EUSAGE,
          "'%s' is on %s, a kernel pseudo file system, not storage: iospd "
          "does not read, write or create files there. Give a file on a "
          "real file system or a block device",
          path, pseudo[i].where);
  return 0;
}
