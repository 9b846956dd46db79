/* SPDX-License-Identifier: MIT */
/* UTF-8 <-> UTF-16 conversion and the mapping of DISKSPD target names to
 * Win32 paths: "#N" is physical drive N, "X:" is the volume X, everything
 * else is a file path (cf. libuv fs__capture_path for the conversion). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "iospd/alloc.h"
#include "win/internal.h"

WCHAR* iospd_win_utf8_to_wide(const char* s) {
  if (s == NULL) return NULL;
  /* MB_ERR_INVALID_CHARS: a malformed name must fail, not turn into U+FFFD
   * and silently open some other file. */
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
  if (n <= 0) return NULL;
  WCHAR* w = iospd_malloc((size_t)n * sizeof(WCHAR));
  if (w == NULL) return NULL;
  if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) != n) {
    iospd_free(w);
    return NULL;
  }
  return w;
}

int iospd_win_wide_to_utf8(const WCHAR* w, char* out, size_t size) {
  if (size == 0) return -1;
  out[0] = 0;
  if (w == NULL) return 0;
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, out, (int)size, NULL, NULL);
  if (n > 0) return n - 1;
  /* Did not fit: convert character by character so the prefix stays valid
   * UTF-8 (never cut a multi-byte sequence). */
  size_t used = 0;
  for (const WCHAR* p = w; *p; p++) {
    int units = (*p >= 0xD800 && *p <= 0xDBFF && p[1] != 0) ? 2 : 1;
    char tmp[8];
    int k = WideCharToMultiByte(CP_UTF8, 0, p, units, tmp, (int)sizeof tmp,
                                NULL, NULL);
    if (k <= 0 || used + (size_t)k + 1 > size) break;
    memcpy(out + used, tmp, (size_t)k);
    used += (size_t)k;
    p += units - 1;
  }
  out[used] = 0;
  return -1;
}

static bool is_drive_letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* "#N": N decimal digits, no sign, no trailing text. */
static bool parse_disk_number(const char* s, unsigned long* n) {
  if (s[0] != '#' || s[1] == 0) return false;
  unsigned long v = 0;
  for (const char* p = s + 1; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    v = v * 10 + (unsigned long)(*p - '0');
    if (v > 100000) return false;
  }
  *n = v;
  return true;
}

/* "\\?\..." (either separator): the user asked for the path as written. */
static bool prefixed(const WCHAR* w) {
  return (w[0] == L'\\' || w[0] == L'/') && (w[1] == L'\\' || w[1] == L'/') &&
         w[2] == L'?' && (w[3] == L'\\' || w[3] == L'/');
}

/* Below this, every Win32 call takes the plain form; CreateDirectoryW is the
 * strictest (MAX_PATH less room for an 8.3 name), and every parent of a
 * path is shorter than the path. */
#define PLAIN_PATH_MAX (MAX_PATH - 12)

WCHAR* iospd_win_full_path(const WCHAR* w) {
  /* GetFullPathNameW resolves relative paths, "." and "..", and turns '/'
   * into '\'; its Unicode form is not limited to MAX_PATH. The size it
   * asks for includes the terminator; a second call can still need more if
   * the current directory changed in between, hence the loop. */
  DWORD size = MAX_PATH;
  for (int attempt = 0; attempt < 4; attempt++) {
    WCHAR* full = iospd_malloc((size_t)size * sizeof(WCHAR));
    if (full == NULL) return NULL;
    DWORD n = GetFullPathNameW(w, size, full, NULL);
    if (n > 0 && n < size) return full;
    iospd_free(full);
    if (n == 0) return NULL;
    size = n + 1;
  }
  return NULL;
}

WCHAR* iospd_win_long_form(const WCHAR* w) {
  WCHAR* full = iospd_win_full_path(w);
  if (full == NULL) return NULL;
  size_t len = wcslen(full);
  if (len < PLAIN_PATH_MAX || prefixed(full) ||
      (full[0] == L'\\' && full[1] == L'\\' && full[2] == L'.' &&
       full[3] == L'\\'))
    return full; /* short, or a device name such as \\.\NUL */
  /* Beyond it, the extended-length form: \\?\C:\... or, for a UNC path,
   * \\?\UNC\server\share\... */
  bool unc = full[0] == L'\\' && full[1] == L'\\';
  const WCHAR* head = unc ? L"\\\\?\\UNC\\" : L"\\\\?\\";
  const WCHAR* rest = unc ? full + 2 : full;
  size_t hl = wcslen(head), rl = wcslen(rest);
  WCHAR* out = iospd_malloc((hl + rl + 1) * sizeof(WCHAR));
  if (out != NULL) {
    memcpy(out, head, hl * sizeof(WCHAR));
    memcpy(out + hl, rest, (rl + 1) * sizeof(WCHAR));
  }
  iospd_free(full);
  return out;
}

int iospd_win_path_into(const char* utf8, WCHAR* out, size_t cap,
                        iospd_err_t* err) {
  if (cap < 2 || cap > INT_MAX)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s': no room for the path",
                         utf8);
  out[0] = 0;
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, out,
                              (int)cap);
  if (n <= 0)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s' is not valid UTF-8, or longer than %zu "
                         "characters",
                         utf8, cap - 1);
  for (WCHAR* p = out; *p; p++)
    if (*p == L'/') *p = L'\\';
  size_t len = (size_t)n - 1;
  if (len < PLAIN_PATH_MAX || prefixed(out) ||
      (out[0] == L'\\' && out[1] == L'\\' && out[2] == L'.' &&
       out[3] == L'\\'))
    return 0; /* the plain form works, or the user chose the form */
  /* The extended-length form needs the resolved full path (nothing after
   * \\?\ is interpreted). It is built behind the converted name in the
   * same buffer, then moved to the front behind its prefix: source and
   * destination of GetFullPathNameW must not overlap, and no allocation
   * is made (the --tree workers call this between their I/Os). */
  WCHAR* full = out + n;
  size_t room = cap - (size_t)n;
  DWORD m = GetFullPathNameW(out, (DWORD)IOSPD_MIN(room, (size_t)MAXDWORD),
                             full, NULL);
  if (m == 0 || m >= room)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "'%s': the path is too long (more than %zu "
                         "characters once resolved)",
                         utf8, room - 1);
  bool unc = full[0] == L'\\' && full[1] == L'\\';
  const WCHAR* head = unc ? L"\\\\?\\UNC\\" : L"\\\\?\\";
  const WCHAR* rest = unc ? full + 2 : full;
  size_t hl = wcslen(head), rl = (size_t)m - (unc ? 2 : 0);
  if (hl + rl + 1 > cap)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s': the path is too long",
                         utf8);
  /* hl <= 8 < n, so the move goes towards the front over what was read. */
  memmove(out + hl, rest, (rl + 1) * sizeof(WCHAR));
  memcpy(out, head, hl * sizeof(WCHAR));
  return 0;
}

int iospd_win_path(const char* utf8, WCHAR** out, iospd_err_t* err) {
  *out = NULL;
  int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8, -1, NULL,
                              0);
  if (n <= 0)
    return iospd_err_set(err, IOSPD_EINVAL, "'%s' is not valid UTF-8", utf8);
  /* Room for the name, its resolved full form behind it (the current
   * folder in front, at most the longest path Windows takes) and the
   * prefix. */
  size_t cap = (size_t)n * 2 + IOSPD_WIN_PATH_ROOM;
  WCHAR* w = iospd_malloc(cap * sizeof(WCHAR));
  if (w == NULL)
    return iospd_err_set(err, IOSPD_ENOMEM, "out of memory for the path '%s'",
                         utf8);
  int rc = iospd_win_path_into(utf8, w, cap, err);
  if (rc != 0) {
    iospd_free(w);
    return rc;
  }
  *out = w;
  return 0;
}

int iospd_win_target_path(const char* utf8, WCHAR** out, bool* is_device,
                          iospd_err_t* err) {
  *out = NULL;
  *is_device = false;
  if (utf8 == NULL || utf8[0] == 0)
    return iospd_err_set(err, IOSPD_EINVAL, "empty target path");

  char mapped[64];
  const char* src = utf8;
  unsigned long disk;
  if (utf8[0] == '#') {
    if (!parse_disk_number(utf8, &disk))
      return iospd_err_set(err, IOSPD_EINVAL,
                           "bad target '%s': a physical drive is written #N "
                           "with N the disk number, e.g. #1",
                           utf8);
    snprintf(mapped, sizeof mapped, "\\\\.\\PhysicalDrive%lu", disk);
    src = mapped;
  } else if (is_drive_letter(utf8[0]) && utf8[1] == ':' && utf8[2] == 0) {
    snprintf(mapped, sizeof mapped, "\\\\.\\%c:", utf8[0]);
    src = mapped;
  }
  /* The one spelling classifier (target_kind.c): a device, or a doubtful
   * device-namespace path, is opened as written, never resolved. */
  *is_device = iospd_win_spelled_kind(utf8) != IOSPD_WIN_SPELLED_FILE;

  WCHAR* w = iospd_win_utf8_to_wide(src);
  if (w == NULL)
    return iospd_err_set(err, IOSPD_EINVAL,
                         "target path '%s' is not valid UTF-8", utf8);

  if (!*is_device && !prefixed(w)) {
    WCHAR* full = iospd_win_long_form(w);
    iospd_free(w);
    if (full == NULL)
      return iospd_err_set(err, IOSPD_EINVAL,
                           "cannot resolve target path '%s' to a full path "
                           "(too long, or out of memory)",
                           utf8);
    w = full;
  }
  *out = w;
  return 0;
}

/* w without its extended-length prefix, for comparing: \\?\C:\x becomes
 * C:\x and \\?\UNC\srv\x becomes \\srv\x (in place: w is ours). */
static void drop_prefix(WCHAR* w) {
  if (!prefixed(w)) return;
  size_t len = wcslen(w);
  if ((w[4] == L'U' || w[4] == L'u') && (w[5] == L'N' || w[5] == L'n') &&
      (w[6] == L'C' || w[6] == L'c') && (w[7] == L'\\' || w[7] == L'/')) {
    memmove(w + 2, w + 8, (len - 8 + 1) * sizeof(WCHAR));
    w[0] = w[1] = L'\\';
    return;
  }
  memmove(w, w + 4, (len - 4 + 1) * sizeof(WCHAR));
}

bool iospd_plat_same_path(const char* a, const char* b) {
  if (strcmp(a, b) == 0) return true;
  WCHAR *wa = NULL, *wb = NULL;
  bool da, db, same = false;
  if (iospd_win_target_path(a, &wa, &da, NULL) == 0 &&
      iospd_win_target_path(b, &wb, &db, NULL) == 0) {
    drop_prefix(wa);
    drop_prefix(wb);
    /* Ordinal, ignoring case: how NTFS and ReFS match names (by their
     * upcase table), never by the user's locale. */
    same = CompareStringOrdinal(wa, -1, wb, -1, TRUE) == CSTR_EQUAL;
  }
  iospd_free(wa);
  iospd_free(wb);
  return same;
}
