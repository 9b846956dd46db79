/* SPDX-License-Identifier: MIT */
/* Text parsing for the Linux environment fingerprint (envinfo.c): the CPU
 * name in /proc/cpuinfo, a value of /etc/os-release, the active I/O
 * scheduler, the statfs magic table and /proc/self/mountinfo. Pure
 * functions over text, unit-tested with samples (tests/test_env_posix.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "posix/internal.h"

void iospd_posix_trim(char* s) {
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) n--;
  s[n] = '\0';
  size_t i = 0;
  while (isspace((unsigned char)s[i])) i++;
  if (i > 0) memmove(s, s + i, n - i + 1);
}

/* Copies [b, e) trimmed into out (always terminated, cut to fit). */
static void copy_span(const char* b, const char* e, char* out, size_t size) {
  while (b < e && isspace((unsigned char)*b)) b++;
  size_t n = (size_t)(e - b);
  if (n >= size) n = size - 1;
  memcpy(out, b, n);
  out[n] = '\0';
  iospd_posix_trim(out);
}

/* The value of the first "key : value" line whose key is exactly key
 * (cpuinfo pads keys with tabs). */
static bool cpuinfo_value(const char* text, const char* key, char* out,
                          size_t size) {
  size_t klen = strlen(key);
  for (const char* line = text; line != NULL && *line != '\0';) {
    const char* end = strchr(line, '\n');
    const char* stop = end != NULL ? end : line + strlen(line);
    const char* colon = memchr(line, ':', (size_t)(stop - line));
    if (colon != NULL) {
      const char* k = colon;
      while (k > line && isspace((unsigned char)k[-1])) k--;
      if ((size_t)(k - line) == klen && strncmp(line, key, klen) == 0) {
        copy_span(colon + 1, stop, out, size);
        if (out[0] != '\0') return true;
      }
    }
    line = end != NULL ? end + 1 : NULL;
  }
  out[0] = '\0';
  return false;
}

/* Arm's implementer codes (MIDR_EL1 bits 31:24), the few whose name is
 * certain; others are printed as the number. */
static const char* arm_implementer(unsigned long code) {
  switch (code) {
    case 0x41: return "ARM";
    case 0x42: return "Broadcom";
    case 0x43: return "Cavium";
    case 0x46: return "Fujitsu";
    case 0x48: return "HiSilicon";
    case 0x4e: return "NVIDIA";
    case 0x50: return "APM";
    case 0x51: return "Qualcomm";
    case 0x53: return "Samsung";
    case 0x61: return "Apple";
    case 0x69: return "Intel";
    case 0x6d: return "Microsoft";
    case 0xc0: return "Ampere";
    default: return NULL;
  }
}

bool iospd_posix_cpuinfo_model(const char* text, char* out, size_t size) {
  if (size == 0) return false;
  out[0] = '\0';
  /* x86 and most others: "model name"; MIPS: "cpu model"; POWER: "cpu". */
  static const char* const keys[] = {"model name", "cpu model", "cpu"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(keys); i++)
    if (cpuinfo_value(text, keys[i], out, size)) return true;
  /* arm64 names no model: its identification registers are listed
   * instead. Named by implementer, part number and revision (as in Arm's
   * "r2p1"); a part number's marketing name is not in the kernel, and a
   * table of them would always be out of date. */
  char impl[32], part[32], var[32], rev[32];
  if (cpuinfo_value(text, "CPU implementer", impl, sizeof impl) &&
      cpuinfo_value(text, "CPU part", part, sizeof part)) {
    unsigned long code = strtoul(impl, NULL, 0);
    const char* name = arm_implementer(code);
    bool has_rev = cpuinfo_value(text, "CPU variant", var, sizeof var) &&
                   cpuinfo_value(text, "CPU revision", rev, sizeof rev);
    char who[40];
    if (name != NULL)
      snprintf(who, sizeof who, "%s", name);
    else
      snprintf(who, sizeof who, "implementer %.20s", impl);
    if (has_rev)
      snprintf(out, size, "%s part %s r%lup%lu", who, part,
               strtoul(var, NULL, 0), strtoul(rev, NULL, 0));
    else
      snprintf(out, size, "%s part %s", who, part);
    return true;
  }
  /* 32-bit Arm boards: the SoC. */
  return cpuinfo_value(text, "Hardware", out, size);
}

bool iospd_posix_os_release_value(const char* text, const char* key,
                                  char* out, size_t size) {
  if (size == 0) return false;
  out[0] = '\0';
  size_t klen = strlen(key);
  for (const char* line = text; line != NULL && *line != '\0';) {
    const char* end = strchr(line, '\n');
    const char* stop = end != NULL ? end : line + strlen(line);
    if ((size_t)(stop - line) > klen && strncmp(line, key, klen) == 0 &&
        line[klen] == '=') {
      /* Shell-style: optionally quoted with " or ', backslash escapes
       * inside double quotes (os-release(5)). */
      const char* p = line + klen + 1;
      char quote = (*p == '"' || *p == '\'') ? *p++ : 0;
      size_t n = 0;
      while (p < stop && n + 1 < size) {
        if (quote != 0 && *p == quote) break;
        if (quote == '"' && *p == '\\' && p + 1 < stop) p++;
        out[n++] = *p++;
      }
      out[n] = '\0';
      iospd_posix_trim(out);
      return out[0] != '\0';
    }
    line = end != NULL ? end + 1 : NULL;
  }
  return false;
}

bool iospd_posix_active_scheduler(const char* text, char* out, size_t size) {
  if (size == 0) return false;
  out[0] = '\0';
  const char* open = strchr(text, '[');
  if (open != NULL) {
    const char* close = strchr(open + 1, ']');
    if (close == NULL) return false;
    copy_span(open + 1, close, out, size);
  } else {
    /* Only one choice and nothing to select: the kernel prints it bare
     * ("none" on devices without an elevator). */
    const char* b = text;
    while (isspace((unsigned char)*b)) b++;
    const char* e = b;
    while (*e != '\0' && !isspace((unsigned char)*e)) e++;
    if (*e != '\0') {
      const char* more = e;
      while (isspace((unsigned char)*more)) more++;
      if (*more != '\0') return false; /* several, none marked: unknown */
    }
    copy_span(b, e, out, size);
  }
  return out[0] != '\0';
}

/* statfs f_type values (linux/magic.h and the file systems' own
 * headers). ext2, ext3 and ext4 share one magic: mountinfo tells them
 * apart, this table cannot. */
static const struct {
  unsigned long magic;
  const char* name;
} fs_magics[] = {
    {0xEF53, "ext2/ext3/ext4"},
    {0x58465342, "xfs"},
    {0x9123683E, "btrfs"},
    {0x01021994, "tmpfs"},
    {0x858458F6, "ramfs"},
    {0x6969, "nfs"},
    {0xFE534D42, "smb2"},
    {0xFF534D42, "cifs"},
    {0x794C7630, "overlay"},
    {0x2FC12FC1, "zfs"},
    {0xF2F52010, "f2fs"},
    {0x4D44, "vfat"},
    {0x2011BAB0, "exfat"},
    {0x5346544E, "ntfs"}, /* ntfs3 and the old ntfs driver alike */
    {0x65735546, "fuse"},
    {0xCA451A4E, "bcachefs"},
    {0x3434, "nilfs2"},
    {0x3153464A, "jfs"},
    {0x52654973, "reiserfs"},
    {0x482B, "hfsplus"},
    {0x9660, "iso9660"},
    {0x15013346, "udf"},
    {0x73717368, "squashfs"},
    {0xE0F5E1E2, "erofs"},
    {0x24051905, "ubifs"},
    {0x00C36400, "ceph"},
    {0x0BD00BD0, "lustre"},
    {0x47504653, "gpfs"},
    {0x01161970, "gfs2"},
    {0x7461636F, "ocfs2"},
    {0x01021997, "9p"},
    {0x5346414F, "afs"},
    {0x62656572, "sysfs"},
    {0x9FA0, "proc"},
    {0x64626720, "debugfs"},
    {0x63677270, "cgroup2"},
};

const char* iospd_posix_fs_name(unsigned long magic) {
  magic &= 0xFFFFFFFFul; /* f_type is signed on some architectures */
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(fs_magics); i++)
    if (fs_magics[i].magic == magic) return fs_magics[i].name;
  return NULL;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char* s) {
  char* w = s;
  for (char* r = s; *r != '\0';) {
    if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' &&
        r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
      *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
      r += 4;
    } else {
      *w++ = *r++;
    }
  }
  *w = '\0';
}

/* The length of mount point mnt if it contains path ("/" contains all,
 * "/a" contains "/a" and "/a/b", not "/ab"); 0 if not. */
static size_t covers(const char* mnt, const char* path) {
  size_t n = strlen(mnt);
  if (n == 1 && mnt[0] == '/') return path[0] == '/' ? 1 : 0;
  if (strncmp(mnt, path, n) != 0) return 0;
  return path[n] == '\0' || path[n] == '/' ? n : 0;
}

/* One mount found: its type and source. */
typedef struct mount_pick_s {
  bool found;
  size_t len; /* mount point length (path matches) */
  char type[64];
  char source[256];
} mount_pick_t;

static void pick(mount_pick_t* m, size_t len, const char* type,
                 const char* src) {
  m->found = true;
  m->len = len;
  snprintf(m->type, sizeof m->type, "%s", type);
  snprintf(m->source, sizeof m->source, "%s", src != NULL ? src : "");
}

bool iospd_posix_mountinfo_find(FILE* f, unsigned maj, unsigned min,
                                const char* path, char* fstype,
                                size_t fstype_size, char* source,
                                size_t source_size) {
  /* 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,...
   * (proc(5)): the optional fields end at "-", then type and source. The
   * mount of the target's device wins (the last one listed: bind mounts
   * of one device share type and source); failing that, the longest mount
   * point holding path, the last one listed on a tie, as it is the one on
   * top (btrfs subvolumes have device numbers of their own). */
  char line[4096];
  mount_pick_t by_dev = {0}, by_path = {0};
  while (fgets(line, sizeof line, f) != NULL) {
    char* save = NULL;
    char* fields[5] = {0};
    int nf = 0;
    char* tok = strtok_r(line, " \n", &save);
    while (tok != NULL && nf < 5) {
      fields[nf++] = tok;
      tok = strtok_r(NULL, " \n", &save);
    }
    if (nf < 5) continue;
    while (tok != NULL && strcmp(tok, "-") != 0)
      tok = strtok_r(NULL, " \n", &save);
    if (tok == NULL) continue;
    char* type = strtok_r(NULL, " \n", &save);
    char* src = strtok_r(NULL, " \n", &save);
    if (type == NULL) continue;
    if (src != NULL) unescape(src);
    char* mnt = fields[4];
    unescape(mnt);
    unsigned a, b;
    if (sscanf(fields[2], "%u:%u", &a, &b) == 2 && a == maj && b == min)
      pick(&by_dev, 0, type, src);
    size_t len = path != NULL ? covers(mnt, path) : 0;
    if (len > 0 && len >= by_path.len) pick(&by_path, len, type, src);
  }
  const mount_pick_t* m = by_dev.found ? &by_dev : &by_path;
  snprintf(fstype, fstype_size, "%s", m->found ? m->type : "");
  snprintf(source, source_size, "%s", m->found ? m->source : "");
  return m->found;
}
