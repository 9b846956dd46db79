/* SPDX-License-Identifier: MIT */
/* Whether a target is a regular file or a disk or volume. First by how the
 * user spelled it, as DISKSPD does ("#N", "X:", the device namespace), then,
 * where the spelling leaves room for doubt, by a positive file test on an
 * open handle: the file system's own standard information (what
 * GetFileSizeEx reads). Never by IOCTL_DISK_GET_LENGTH_INFO: whether a file
 * system or filter (CSVFS, SMB, ReFS) answers it on a data file's handle is
 * not part of its contract, and a file taken for a device would be sized as
 * the whole volume and could not be recreated with -c. */
#include <string.h>

#include "win/internal.h"

static bool sep(char c) { return c == '\\' || c == '/'; }

static bool letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Case-insensitive: does the component starting at p (ending at a
 * separator or the end) equal word? */
static bool comp_is(const char* p, const char* word) {
  size_t n = strlen(word);
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    char w = word[i];
    if (w >= 'a' && w <= 'z') w = (char)(w - 'a' + 'A');
    if (c != w) return false;
  }
  return p[n] == 0 || sep(p[n]);
}

/* Case-insensitive prefix of a component followed by digits only. */
static bool comp_is_numbered(const char* p, const char* word) {
  size_t n = strlen(word);
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    if (c != word[i]) return false;
  }
  const char* d = p + n;
  if (*d < '0' || *d > '9') return false;
  while (*d >= '0' && *d <= '9') d++;
  return *d == 0 || sep(*d);
}

/* "Volume{...}" as a whole component. */
static bool comp_is_volume_guid(const char* p) {
  static const char vol[] = "VOLUME{";
  for (size_t i = 0; i < sizeof vol - 1; i++) {
    char c = p[i];
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    if (c != vol[i]) return false;
  }
  const char* e = p + sizeof vol - 1;
  while (*e && !sep(*e) && *e != '}') e++;
  return *e == '}' && (e[1] == 0 || sep(e[1]));
}

/* The component after the one at p, or NULL at the end. A trailing
 * separator gives an empty component ("" : a directory). */
static const char* next_comp(const char* p) {
  while (*p && !sep(*p)) p++;
  return *p ? p + 1 : NULL;
}

iospd_win_spelled_t iospd_win_spelled_kind(const char* s) {
  if (s == NULL || s[0] == 0) return IOSPD_WIN_SPELLED_FILE;
  if (s[0] == '#') return IOSPD_WIN_SPELLED_DEVICE;
  if (letter(s[0]) && s[1] == ':' && s[2] == 0) return IOSPD_WIN_SPELLED_DEVICE;
  /* Outside the device namespace (\\.\ or \\?\, either separator): drive
   * paths, relative paths and \\server\share\... are files. */
  if (!sep(s[0]) || !sep(s[1]) || (s[2] != '.' && s[2] != '?') || !sep(s[3]))
    return IOSPD_WIN_SPELLED_FILE;
  const char* c0 = s + 4;
  const char* c1 = next_comp(c0);
  if (c0[0] == 0) return IOSPD_WIN_SPELLED_UNSURE;
  /* One component: PhysicalDriveN, X:, Volume{...}, HarddiskVolumeN,
   * CdRomN, Harddisk1Partition1 ...: a device name, never a file. */
  if (c1 == NULL) return IOSPD_WIN_SPELLED_DEVICE;
  /* \\?\X:\..., \\?\UNC\srv\share\..., \\?\Volume{...}\...: paths into a
   * file system (a trailing separator is the root directory). */
  if ((letter(c0[0]) && c0[1] == ':' && sep(c0[2])) || comp_is(c0, "UNC") ||
      comp_is_volume_guid(c0))
    return IOSPD_WIN_SPELLED_FILE;
  /* \\?\GLOBALROOT\Device\HarddiskVolume3, \Device\Harddisk1\Partition0,
   * \Device\Harddisk1\DR1: devices. Deeper paths may be files on a volume
   * named that way (\Device\HarddiskVolumeShadowCopy1\x.dat). */
  if (comp_is(c0, "GLOBALROOT") && comp_is(c1, "Device")) {
    const char* dev = next_comp(c1);
    if (dev == NULL || dev[0] == 0) return IOSPD_WIN_SPELLED_UNSURE;
    const char* sub = next_comp(dev);
    if (sub == NULL) return IOSPD_WIN_SPELLED_DEVICE;
    if (next_comp(sub) == NULL && (comp_is_numbered(sub, "PARTITION") ||
                                   comp_is_numbered(sub, "DR")))
      return IOSPD_WIN_SPELLED_DEVICE;
  }
  return IOSPD_WIN_SPELLED_UNSURE;
}

iospd_win_handle_kind_t iospd_win_handle_kind(HANDLE h) {
  /* Pipes, consoles, NUL: neither a file nor a disk. */
  if (GetFileType(h) != FILE_TYPE_DISK) return IOSPD_WIN_HANDLE_OTHER;
  /* Every file system answers FileStandardInformation for its files and
   * directories (GetFileSizeEx is built on it); a raw disk (whose RAW
   * file system knows only the position) and a volume open (FAT refuses
   * every query on it) do not. */
  FILE_STANDARD_INFO si;
  memset(&si, 0, sizeof si);
  if (!GetFileInformationByHandleEx(h, FileStandardInfo, &si, sizeof si))
    return IOSPD_WIN_HANDLE_DEVICE;
  if (si.Directory) return IOSPD_WIN_HANDLE_DIRECTORY;
  /* A file system marking an object as a device is not handing us a file. */
  FILE_BASIC_INFO bi;
  if (GetFileInformationByHandleEx(h, FileBasicInfo, &bi, sizeof bi) &&
      (bi.FileAttributes & FILE_ATTRIBUTE_DEVICE))
    return IOSPD_WIN_HANDLE_DEVICE;
  return IOSPD_WIN_HANDLE_FILE;
}

bool iospd_win_is_device(iospd_win_spelled_t spelled, bool opened,
                         iospd_win_handle_kind_t kind) {
  if (spelled == IOSPD_WIN_SPELLED_DEVICE) return true;
  /* Not opened: the spelling decides, a doubtful one on the side of the
   * write guard. */
  if (!opened) return spelled == IOSPD_WIN_SPELLED_UNSURE;
  /* Opened: only a positive file (or directory) answer makes it a file, so
   * a link from a file name to a disk is still seen as the disk. */
  return kind == IOSPD_WIN_HANDLE_DEVICE;
}

bool iospd_win_path_is_device(const char* utf8, const WCHAR* wpath) {
  iospd_win_spelled_t spelled = iospd_win_spelled_kind(utf8);
  if (spelled == IOSPD_WIN_SPELLED_DEVICE) return true;
  /* No data access asked, every sharing allowed: the open works while
   * others hold the target (backup semantics: directories too). */
  HANDLE h = CreateFileW(wpath, FILE_READ_ATTRIBUTES,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                         NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  if (h == INVALID_HANDLE_VALUE)
    return iospd_win_is_device(spelled, false, IOSPD_WIN_HANDLE_OTHER);
  iospd_win_handle_kind_t kind = iospd_win_handle_kind(h);
  CloseHandle(h);
  return iospd_win_is_device(spelled, true, kind);
}
