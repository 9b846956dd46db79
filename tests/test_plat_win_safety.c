/* SPDX-License-Identifier: MIT */
/* Data safety of the Windows platform layer, under wine: what is a file
 * and what a disk or volume (spelling and a positive file test, never the
 * disk-length ioctl alone), the write guard's reading of a device failing
 * closed, and -c file creation (the SetFileValidData path's ACL, the
 * unbuffered fill with its flush, Ctrl-C during the fill). */
#include "test_util.h"

#include <wchar.h>

#include "iospd/alloc.h"
#include "iospd/device_sniff.h"
#include "win/internal.h"

#include <aclapi.h> /* after <windows.h> */
#include <sddl.h>

static char tmpdir[MAX_PATH * 3];

static void temp_path(char* out, size_t size, const char* name) {
  snprintf(out, size, "%s%s", tmpdir, name);
}

static int setup(void** state) {
  (void)state;
  WCHAR w[MAX_PATH];
  DWORD n = GetTempPathW(MAX_PATH, w);
  assert_true(n > 0 && n < MAX_PATH);
  assert_true(iospd_win_wide_to_utf8(w, tmpdir, sizeof tmpdir) > 0);
  iospd_sysinfo_t si;
  iospd_err_t err;
  assert_int_equal(iospd_plat_init(&si, &err), 0);
  return 0;
}

static void delete_utf8(const char* path) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DeleteFileW(w);
  iospd_free(w);
}

/* A file of size bytes, all zeros but for the bytes given at `at`. */
static void make_file(const char* path, uint64_t size, uint64_t at,
                      const char* bytes, size_t n) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE h = CreateFileW(w, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
  iospd_free(w);
  assert_true(h != INVALID_HANDLE_VALUE);
  LARGE_INTEGER li;
  li.QuadPart = (LONGLONG)size;
  assert_true(SetFilePointerEx(h, li, NULL, FILE_BEGIN));
  assert_true(SetEndOfFile(h));
  if (bytes != NULL) {
    li.QuadPart = (LONGLONG)at;
    DWORD wrote = 0;
    assert_true(SetFilePointerEx(h, li, NULL, FILE_BEGIN));
    assert_true(WriteFile(h, bytes, (DWORD)n, &wrote, NULL));
    assert_int_equal(wrote, n);
  }
  CloseHandle(h);
}

/* ---- file or device ------------------------------------------------------ */

static void spelled(const char* s, iospd_win_spelled_t want) {
  iospd_win_spelled_t got = iospd_win_spelled_kind(s);
  if (got != want) fail_msg("'%s' spelled as %d, want %d", s, got, want);
}

static void test_spelled_kind(void** state) {
  (void)state;
  const iospd_win_spelled_t F = IOSPD_WIN_SPELLED_FILE,
                            D = IOSPD_WIN_SPELLED_DEVICE,
                            U = IOSPD_WIN_SPELLED_UNSURE;
  /* DISKSPD's two device forms. */
  spelled("#0", D);
  spelled("#12", D);
  spelled("E:", D);
  spelled("e:", D);
  /* One name in the device namespace, either separator. */
  spelled("\\\\.\\PhysicalDrive3", D);
  spelled("//./PhysicalDrive1", D);
  spelled("\\\\?\\E:", D);
  spelled("\\\\.\\E:", D);
  spelled("\\\\?\\Volume{0b1c2d3e-0000-0000-0000-100000000000}", D);
  spelled("\\\\.\\HarddiskVolume4", D);
  spelled("\\\\.\\CdRom0", D);
  /* GLOBALROOT: a volume or partition device, or deeper (a file on a
   * volume so named, or some other object): the handle decides. */
  spelled("\\\\?\\GLOBALROOT\\Device\\HarddiskVolume3", D);
  spelled("\\\\?\\GLOBALROOT\\Device\\Harddisk1\\Partition0", D);
  spelled("\\\\?\\globalroot\\device\\harddisk1\\partition12", D);
  spelled("\\\\?\\GLOBALROOT\\Device\\Harddisk1\\DR1", D);
  spelled("\\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\t.dat", U);
  spelled("\\\\?\\GLOBALROOT\\Device\\Harddisk1\\Partition1x", U);
  spelled("\\\\?\\GLOBALROOT\\Device\\", U);
  spelled("\\\\.\\pipe\\name", U);
  /* Paths into a file system. */
  spelled("E:\\data\\f.dat", F);
  spelled("E:/data/f.dat", F);
  spelled("E:f.dat", F); /* relative to E:'s current directory */
  spelled("f.dat", F);
  spelled("..\\f.dat", F);
  spelled("\\\\srv\\share\\f.dat", F);
  spelled("//srv/share/f.dat", F);
  spelled("\\\\?\\E:\\data\\f.dat", F);
  spelled("\\\\.\\E:\\f.dat", F);
  spelled("\\\\?\\UNC\\srv\\share\\f.dat", F);
  spelled("\\\\?\\Volume{0b1c2d3e-0000-0000-0000-100000000000}\\d\\f.dat", F);
  spelled("\\\\?\\Volume{0b1c2d3e-0000-0000-0000-100000000000}\\", F);
}

/* The decision takes no disk-length answer at all: a data file whose
 * file system (CSVFS, SMB, ReFS) also answers IOCTL_DISK_GET_LENGTH_INFO
 * is a file because the file system says so. */
static void test_device_decision(void** state) {
  (void)state;
  const iospd_win_spelled_t F = IOSPD_WIN_SPELLED_FILE,
                            D = IOSPD_WIN_SPELLED_DEVICE,
                            U = IOSPD_WIN_SPELLED_UNSURE;
  const iospd_win_handle_kind_t hf = IOSPD_WIN_HANDLE_FILE,
                                hd = IOSPD_WIN_HANDLE_DEVICE,
                                hdir = IOSPD_WIN_HANDLE_DIRECTORY,
                                ho = IOSPD_WIN_HANDLE_OTHER;
  /* The spelling of a device wins over anything a handle says. */
  assert_true(iospd_win_is_device(D, true, hf));
  assert_true(iospd_win_is_device(D, false, ho));
  /* A file's spelling: a file when the file system answers for it, a
   * device when it does not (a link from a file name to a disk). */
  assert_false(iospd_win_is_device(F, true, hf));
  assert_false(iospd_win_is_device(F, true, hdir));
  assert_false(iospd_win_is_device(F, true, ho));
  assert_true(iospd_win_is_device(F, true, hd));
  assert_false(iospd_win_is_device(F, false, ho));
  /* Doubtful: the handle decides; not openable counts as a device. */
  assert_false(iospd_win_is_device(U, true, hf));
  assert_true(iospd_win_is_device(U, true, hd));
  assert_true(iospd_win_is_device(U, false, ho));
}

/* A real file is a file under each of its spellings, with its own size:
 * never a volume's length. */
static void test_file_is_file(void** state) {
  (void)state;
  char path[MAX_PATH * 3], longform[MAX_PATH * 3 + 8];
  temp_path(path, sizeof path, "iospd_kind.dat");
  make_file(path, 12288, 0, NULL, 0);
  snprintf(longform, sizeof longform, "\\\\?\\%s", path);
  const char* forms[] = {path, longform};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(forms); i++) {
    WCHAR* w = iospd_win_utf8_to_wide(forms[i]);
    HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL,
                           OPEN_EXISTING, 0, NULL);
    assert_true(h != INVALID_HANDLE_VALUE);
    assert_int_equal(iospd_win_handle_kind(h), IOSPD_WIN_HANDLE_FILE);
    CloseHandle(h);
    assert_false(iospd_win_path_is_device(forms[i], w));
    iospd_free(w);

    iospd_file_info_t info;
    iospd_err_t err;
    assert_int_equal(iospd_plat_path_info(forms[i], &info, &err), 0);
    assert_false(info.is_device);
    assert_int_equal(info.size, 12288);
    iospd_plat_file_t* f;
    iospd_open_opts_t o = {forms[i], IOSPD_OPEN_WRITE | IOSPD_OPEN_ASYNC};
    assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
    assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
    assert_false(info.is_device);
    assert_int_equal(info.size, 12288);
    iospd_plat_file_close(f);
  }
  /* The temp directory is a directory, whatever the spelling. */
  WCHAR* w = iospd_win_utf8_to_wide(tmpdir);
  HANDLE h = CreateFileW(w, FILE_READ_ATTRIBUTES, FILE_SHARE_READ, NULL,
                         OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
  assert_true(h != INVALID_HANDLE_VALUE);
  assert_int_equal(iospd_win_handle_kind(h), IOSPD_WIN_HANDLE_DIRECTORY);
  CloseHandle(h);
  iospd_free(w);
  delete_utf8(path);
}

/* ---- the write guard fails closed ---------------------------------------- */

/* A file stands in for a device of `size` bytes (what the size ioctls
 * would say), read through handle access `access`. */
static DWORD probe_file(const char* path, DWORD access, uint64_t size,
                        iospd_file_info_t* info, const char** part) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                         OPEN_EXISTING, 0, NULL);
  iospd_free(w);
  assert_true(h != INVALID_HANDLE_VALUE);
  memset(info, 0, sizeof *info);
  info->is_device = true;
  info->size = size;
  info->logical_sector = 512;
  DWORD e = iospd_win_probe_contents(h, true, info, part);
  CloseHandle(h);
  return e;
}

static void test_probe_fails_closed(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_probe.dat");
  const uint64_t mib = 1024 * 1024;
  iospd_file_info_t info;
  const char* part = NULL;

  /* All zeros, read whole at both ends: empty, the one case writing is
   * allowed without --allow-raw-write. */
  make_file(path, 3 * mib, 0, NULL, 0);
  assert_int_equal(probe_file(path, GENERIC_READ, 3 * mib, &info, &part), 0);
  assert_false(info.has_filesystem);
  assert_false(info.has_partitions);
  assert_string_equal(info.content, "");

  /* The device says 3 MiB but its first megabyte ends after 512 KiB (a
   * short read): not empty. */
  make_file(path, mib / 2, 0, NULL, 0);
  assert_int_equal(probe_file(path, GENERIC_READ, 3 * mib, &info, &part),
                   ERROR_HANDLE_EOF);
  assert_string_equal(part, "first megabyte");
  iospd_win_unreadable(&info, part, ERROR_HANDLE_EOF);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content,
                      "unknown content (its first megabyte could be read "
                      "only in part)");

  /* The first megabyte reads whole, the last does not exist. */
  make_file(path, 2 * mib, 0, NULL, 0);
  assert_int_equal(probe_file(path, GENERIC_READ, 5 * mib, &info, &part),
                   ERROR_HANDLE_EOF);
  assert_string_equal(part, "last megabyte");

  /* A read that fails (here: a handle without read access; on Windows
   * also bad sectors, ERROR_NOT_READY, a reservation conflict). */
  make_file(path, 3 * mib, 0, NULL, 0);
  assert_int_equal(
      probe_file(path, FILE_READ_ATTRIBUTES, 3 * mib, &info, &part),
      ERROR_ACCESS_DENIED);
  assert_string_equal(part, "first megabyte");
  iospd_win_unreadable(&info, part, ERROR_ACCESS_DENIED);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content,
                      "unknown content (reading its first megabyte failed: "
                      "Win32 error 5)");

  /* A signature in what did arrive names the content, even when the read
   * then fails. */
  make_file(path, mib / 2, 3, "NTFS    ", 8);
  assert_int_equal(probe_file(path, GENERIC_READ, 3 * mib, &info, &part),
                   ERROR_HANDLE_EOF);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content, "an NTFS file system");

  /* A device smaller than one sector cannot be read at all. */
  assert_int_equal(probe_file(path, GENERIC_READ, 100, &info, &part),
                   ERROR_HANDLE_EOF);
  delete_utf8(path);
}

/* The whole look at a device, with files standing in (the size ioctls
 * fail on them, so the size is unknown): held exclusively by another
 * handle (a sharing or reservation conflict), it cannot be opened for
 * reading, only for queries, and holds unknown content; readable and all
 * zeros, it is empty; ending before its first megabyte does, it is not. */
static void test_describe_device_fails_closed(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_desc.dat");
  make_file(path, 1048576, 0, NULL, 0);
  WCHAR* w = iospd_win_utf8_to_wide(path);
  iospd_file_info_t info;
  iospd_err_t err;

  HANDLE held = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, 0, NULL,
                            OPEN_EXISTING, 0, NULL);
  assert_true(held != INVALID_HANDLE_VALUE);
  memset(&info, 0, sizeof info);
  int rc = iospd_win_describe_device(w, path, true, &info, &err);
  CloseHandle(held);
  assert_int_equal(rc, 0);
  assert_true(info.is_device);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content,
                      "unknown content (it cannot be opened for reading: "
                      "Win32 error 32)");

  memset(&info, 0, sizeof info);
  assert_int_equal(iospd_win_describe_device(w, path, true, &info, &err), 0);
  assert_false(info.has_filesystem);
  assert_false(info.has_partitions);
  assert_string_equal(info.content, "no partition table or file system found");

  make_file(path, 65536, 0, NULL, 0);
  memset(&info, 0, sizeof info);
  assert_int_equal(iospd_win_describe_device(w, path, true, &info, &err), 0);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content,
                      "unknown content (its first megabyte could be read "
                      "only in part)");

  /* Without probe (a worker's look): no reading, no verdict. */
  memset(&info, 0, sizeof info);
  assert_int_equal(iospd_win_describe_device(w, path, false, &info, &err), 0);
  assert_true(info.is_device);
  assert_false(info.has_filesystem);
  assert_string_equal(info.content, "");
  iospd_free(w);
  delete_utf8(path);
}

/* The volume of the temp directory: the controller's look reads its
 * contents; a worker's look at its open handle takes size and sectors
 * only (probe once, in the controller). */
static void test_volume_probed_once(void** state) {
  (void)state;
  char vol[3] = {tmpdir[0], ':', 0};
  iospd_file_info_t info;
  iospd_err_t err;
  if (iospd_plat_path_info(vol, &info, &err) != 0) {
    print_message("volume %s not accessible here (%s); skipped\n", vol,
                  err.msg);
    skip();
  }
  assert_true(info.is_device);
  assert_true(info.has_filesystem);
  assert_true(info.content[0] != '\0');
  uint64_t size = info.size;
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {vol, IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  memset(&info, 0x55, sizeof info);
  assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
  iospd_plat_file_close(f);
  assert_true(info.is_device);
  assert_int_equal(info.size, size);
  assert_false(info.has_filesystem);
  assert_false(info.has_partitions);
  assert_string_equal(info.content, "");
}


/* ---- -c creation ---------------------------------------------------------- */

typedef struct {
  uint32_t calls;
  uint64_t last_done, last_total;
  uint64_t interrupt_at; /* iospd_plat_interrupt once done reaches it */
  char lines[8][512];
  uint32_t nlines;
} create_log_t;

static void log_progress(void* ctx, uint64_t done, uint64_t total) {
  create_log_t* l = ctx;
  l->calls++;
  l->last_done = done;
  l->last_total = total;
  if (l->interrupt_at != 0 && done >= l->interrupt_at) {
    l->interrupt_at = 0;
    iospd_plat_interrupt();
  }
}

static void log_line(void* ctx, iospd_msg_kind_t kind, const char* text) {
  create_log_t* l = ctx;
  if (l->nlines < IOSPD_ARRAY_SIZE(l->lines))
    snprintf(l->lines[l->nlines++], sizeof l->lines[0], "%s%s",
             iospd_msg_def(kind)->prefix, text);
}

static const char* logged(const create_log_t* l, const char* part) {
  for (uint32_t i = 0; i < l->nlines; i++)
    if (strstr(l->lines[i], part) != NULL) return l->lines[i];
  return NULL;
}

/* The file's DACL as SDDL, and whether it is protected. */
static void read_dacl(const char* path, char* sddl, size_t size,
                      bool* protected_dacl) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE h = CreateFileW(w, READ_CONTROL, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                         0, NULL);
  iospd_free(w);
  assert_true(h != INVALID_HANDLE_VALUE);
  PSECURITY_DESCRIPTOR sd = NULL;
  PACL dacl = NULL;
  assert_int_equal(GetSecurityInfo(h, SE_FILE_OBJECT,
                                   DACL_SECURITY_INFORMATION, NULL, NULL,
                                   &dacl, NULL, &sd),
                   ERROR_SUCCESS);
  CloseHandle(h);
  SECURITY_DESCRIPTOR_CONTROL ctl = 0;
  DWORD rev = 0;
  assert_true(GetSecurityDescriptorControl(sd, &ctl, &rev));
  *protected_dacl = (ctl & SE_DACL_PROTECTED) != 0;
  LPWSTR text = NULL;
  assert_true(ConvertSecurityDescriptorToStringSecurityDescriptorW(
      sd, SDDL_REVISION_1, DACL_SECURITY_INFORMATION, &text, NULL));
  assert_true(iospd_win_wide_to_utf8(text, sddl, size) > 0);
  LocalFree(text);
  LocalFree(sd);
}

static uint64_t file_size(const char* path) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  WIN32_FILE_ATTRIBUTE_DATA a;
  BOOL ok = GetFileAttributesExW(w, GetFileExInfoStandard, &a);
  iospd_free(w);
  if (!ok) return UINT64_MAX;
  return ((uint64_t)a.nFileSizeHigh << 32) | a.nFileSizeLow;
}

/* Bytes [at, at + n) of path, read back (assert they could be). */
static void read_back(const char* path, uint64_t at, char* out, size_t n) {
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                         0, NULL);
  iospd_free(w);
  assert_true(h != INVALID_HANDLE_VALUE);
  LARGE_INTEGER li;
  li.QuadPart = (LONGLONG)at;
  DWORD got = 0;
  assert_true(SetFilePointerEx(h, li, NULL, FILE_BEGIN));
  assert_true(ReadFile(h, out, (DWORD)n, &got, NULL));
  CloseHandle(h);
  assert_int_equal(got, n);
}

/* How many "<path>.iospd-creating-*" files exist. */
static int temp_copies(const char* path) {
  char pat[MAX_PATH * 3 + 32];
  snprintf(pat, sizeof pat, "%s.iospd-creating-*", path);
  WCHAR* w = iospd_win_utf8_to_wide(pat);
  WIN32_FIND_DATAW fd;
  HANDLE f = FindFirstFileW(w, &fd);
  iospd_free(w);
  int n = 0;
  if (f != INVALID_HANDLE_VALUE) {
    do n++;
    while (FindNextFileW(f, &fd));
    FindClose(f);
  }
  return n;
}

static bool under_wine(void) {
  HMODULE nt = GetModuleHandleW(L"ntdll.dll");
  return nt != NULL && GetProcAddress(nt, "wine_get_version") != NULL;
}

static bool sid_is(PSID sid, const char* want) {
  LPSTR text = NULL;
  assert_true(ConvertSidToStringSidA(sid, &text));
  bool same = strcmp(text, want) == 0;
  LocalFree(text);
  return same;
}

/* The DACL a SetFileValidData file gets, ACE by ACE: protected, two
 * allow-all entries, Administrators (S-1-5-32-544) and OWNER RIGHTS
 * (S-1-3-4: the file's owner at access time; CREATOR OWNER, S-1-3-0,
 * would grant no one anything outside an inheritable ACE). */
static void test_private_dacl(void** state) {
  (void)state;
  PSECURITY_DESCRIPTOR sd;
  PACL dacl;
  assert_int_equal(iospd_win_private_sd(&sd, &dacl), ERROR_SUCCESS);
  SECURITY_DESCRIPTOR_CONTROL ctl = 0;
  DWORD rev = 0;
  assert_true(GetSecurityDescriptorControl(sd, &ctl, &rev));
  assert_true(ctl & SE_DACL_PROTECTED);
  assert_int_equal(dacl->AceCount, 2);
  static const char* const sids[] = {"S-1-5-32-544", "S-1-3-4"};
  for (DWORD i = 0; i < 2; i++) {
    ACCESS_ALLOWED_ACE* ace = NULL;
    assert_true(GetAce(dacl, i, (void**)&ace));
    assert_int_equal(ace->Header.AceType, ACCESS_ALLOWED_ACE_TYPE);
    assert_int_equal(ace->Header.AceFlags, 0); /* not inherited, not
                                                  inheritable */
    assert_int_equal(ace->Mask, FILE_ALL_ACCESS);
    if (!sid_is((PSID)&ace->SidStart, sids[i]))
      fail_msg("ACE %lu is not for %s", (unsigned long)i, sids[i]);
  }
  LocalFree(sd);
}

/* SetFileValidData, where the privilege is granted (an elevated prompt on
 * Windows; wine grants it): no block written, and a protected DACL for
 * the owner and Administrators only, set before the valid data length and
 * read back, even over an existing file whose own DACL CreateFileW would
 * have kept. Where the DACL does not stay as set (wine keeps no file
 * ACLs: it makes one up from the unix mode bits), every block is written
 * instead, with a warning. */
static void test_create_valid_data_private(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_svd.dat");
  make_file(path, 4096, 0, NULL, 0); /* an existing file, inherited DACL */
  char sddl[512];
  bool prot = true;
  read_dacl(path, sddl, sizeof sddl, &prot);
  assert_false(prot);

  create_log_t log;
  memset(&log, 0, sizeof log);
  iospd_progress_t pr = {.fn = log_progress, .ctx = &log, .warn = log_line};
  iospd_win_create_report_t rep;
  iospd_err_t err;
  assert_int_equal(iospd_win_create(path, 3000000, false, 0, &pr, &rep, &err),
                   0);
  if (logged(&log, "Could not set privileges") != NULL) {
    print_message("no volume maintenance privilege here; skipped\n");
    delete_utf8(path);
    skip();
  }
  assert_int_equal(file_size(path), 3000000);
  if (under_wine()) assert_false(rep.valid_data_set);
  if (rep.valid_data_set) {
    assert_true(rep.acl_restricted);
    assert_true(rep.flushed);
    assert_int_equal(rep.written, 0);
    assert_int_equal(log.calls, 0);
    read_dacl(path, sddl, sizeof sddl, &prot);
    assert_true(prot);
    assert_string_equal(sddl, "D:P(A;;FA;;;BA)(A;;FA;;;OW)");
    /* Which path ran is said, and with what consequence. */
    const char* note = logged(&log, "SetFileValidData");
    assert_non_null(note);
    assert_non_null(strstr(note, "NOTE: '"));
    assert_non_null(strstr(note, "3000000 bytes were not written"));
    assert_non_null(strstr(note, "only its owner and Administrators"));
  } else {
    print_message("the DACL did not stay as set (%s): written in full\n",
                  under_wine() ? "wine keeps no file ACLs" : "no ACLs here");
    assert_false(rep.acl_restricted);
    assert_int_equal(rep.written, 3000000);
    assert_true(rep.flushed);
    assert_non_null(logged(&log, "NOTE: '"));
    assert_non_null(logged(&log, "cannot keep an owner- and "
                                 "Administrators-only ACL"));
    assert_null(logged(&log, "were not written"));
    assert_non_null(logged(&log, "was created by writing every block"));
  }
  /* The creator (an administrator) still opens it for the run. */
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info(path, &info, &err), 0);
  assert_int_equal(info.size, 3000000);
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_WRITE};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_plat_file_close(f);

  /* Open elsewhere: it cannot be replaced by a finished copy (a move over
   * an open file fails), so it is overwritten in place, every block
   * written (no SetFileValidData over old data), and the note says why
   * and what an interruption would leave. */
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE other = CreateFileW(
      w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
      NULL, OPEN_EXISTING, 0, NULL);
  iospd_free(w);
  assert_true(other != INVALID_HANDLE_VALUE);
  memset(&log, 0, sizeof log);
  int rc = iospd_win_create(path, 2 * 1048576, false, 0, &pr, &rep, &err);
  CloseHandle(other);
  assert_int_equal(rc, 0);
  assert_false(rep.valid_data_set);
  assert_int_equal(rep.written, 2 * 1048576);
  assert_non_null(logged(&log, "is open in another program, so it cannot "
                               "be replaced and is overwritten in place"));
  assert_int_equal(file_size(path), 2 * 1048576);
  assert_int_equal(temp_copies(path), 0);
  assert_null(logged(&log, "were not written"));
  assert_non_null(logged(&log, "was created by writing every block"));
  delete_utf8(path);
}

/* Without SetFileValidData: every block written, unbuffered, several
 * chunks in flight, the last one rounded up to whole sectors and the file
 * cut back to its size, then flushed before the close. */
static void test_create_fill(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_fill.dat");
  const uint64_t size = 5u * 1048576u + 100u;
  for (int zero = 0; zero < 2; zero++) {
    create_log_t log;
    memset(&log, 0, sizeof log);
    iospd_progress_t pr = {.fn = log_progress, .ctx = &log, .warn = log_line};
    iospd_win_create_report_t rep;
    iospd_err_t err;
    assert_int_equal(iospd_win_create(path, size, zero != 0,
                                      IOSPD_WIN_CREATE_WRITE_ALL, &pr, &rep,
                                      &err),
                     0);
    assert_false(rep.valid_data_set);
    assert_false(rep.acl_restricted);
    assert_true(rep.unbuffered);
    assert_true(rep.flushed);
    assert_int_equal(rep.max_in_flight, 4);
    assert_int_equal(rep.written, size);
    /* A progress call per 1 MiB chunk, the last at the full size. */
    assert_int_equal(log.calls, 6);
    assert_int_equal(log.last_done, size);
    assert_int_equal(log.last_total, size);
    /* One line: the closing NOTE naming the path that ran. */
    assert_int_equal(log.nlines, 1);
    char want[MAX_PATH * 4];
    snprintf(want, sizeof want,
             "NOTE: '%s' was created by writing every block (unbuffered, "
             "up to 4 MiB in flight, flushed)",
             path);
    assert_string_equal(log.lines[0], want);
    assert_int_equal(file_size(path), size);
    /* The pattern runs on across chunks (byte k = k & 0xff). */
    char* data = NULL;
    size_t n = 0;
    assert_int_equal(iospd_plat_read_file(path, SIZE_MAX, &data, &n, &err), 0);
    assert_int_equal(n, size);
    const uint8_t* all = (const uint8_t*)data;
    static const uint64_t at[] = {0, 1, 255, 256, 1048576 + 7, 4194303,
                                  5u * 1048576u, 5u * 1048576u + 99u};
    for (size_t i = 0; i < IOSPD_ARRAY_SIZE(at); i++)
      assert_int_equal(all[at[i]], zero ? 0 : (uint8_t)(at[i] & 0xff));
    iospd_free(data);
  }
  delete_utf8(path);
}

/* Ctrl-C during the fill: it stops after the chunk in hand, waits for the
 * writes in flight and removes what it made. A file that was there before
 * is as it was (the new one was being made beside it), byte for byte. */
static void test_create_interrupted(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_intr.dat");
  delete_utf8(path);
  for (int existed = 0; existed < 2; existed++) {
    if (existed) make_file(path, 8192, 4000, "old data", 8);
    create_log_t log;
    memset(&log, 0, sizeof log);
    log.interrupt_at = 2 * 1048576;
    iospd_progress_t pr = {.fn = log_progress, .ctx = &log, .warn = log_line};
    iospd_win_create_report_t rep;
    iospd_err_t err;
    int rc = iospd_win_create(path, 6 * 1048576, false,
                              IOSPD_WIN_CREATE_WRITE_ALL, &pr, &rep, &err);
    ResetEvent(iospd_win_interrupt_event); /* the event is sticky */
    assert_int_equal(rc, IOSPD_EINTR);
    assert_int_equal(log.calls, 2);
    assert_int_equal(rep.written, 2 * 1048576);
    assert_false(rep.flushed);
    assert_int_equal(temp_copies(path), 0);
    assert_null(logged(&log, "was created"));
    if (existed) {
      assert_int_equal(file_size(path), 8192);
      char back[8];
      read_back(path, 4000, back, sizeof back);
      assert_memory_equal(back, "old data", 8);
      assert_non_null(strstr(err.msg,
                             "interrupted after 2097152 of 6291456 bytes; "
                             "the unfinished copy was removed, and the "
                             "existing file is as it was"));
    } else {
      assert_int_equal(file_size(path), UINT64_MAX);
      assert_int_equal(GetLastError(), ERROR_FILE_NOT_FOUND);
      assert_non_null(strstr(err.msg,
                             "interrupted after 2097152 of 6291456 bytes; "
                             "the unfinished file was removed"));
    }
  }
  delete_utf8(path);
  assert_int_equal(iospd_plat_wait(1), 0);
}

/* -c over an existing file that completes: the finished copy takes its
 * place (new size, the pattern at every byte looked at, the old bytes
 * gone) and no temporary file is left. A temporary file of a process that
 * no longer runs, left by an earlier killed -c, is removed and named; one
 * whose name is not a pid is not ours and stays. */
static void test_create_replaces_existing(void** state) {
  (void)state;
  char path[MAX_PATH * 3], stale[MAX_PATH * 3 + 64], other[MAX_PATH * 3 + 64];
  temp_path(path, sizeof path, "iospd_repl.dat");
  make_file(path, 3 * 1048576, 1048576, "old data", 8);
  /* Process ids are multiples of 4 below 2^32: 4294967293 names none. */
  snprintf(stale, sizeof stale, "%s.iospd-creating-4294967293", path);
  snprintf(other, sizeof other, "%s.iospd-creating-x1", path);
  make_file(stale, 4096, 0, NULL, 0);
  make_file(other, 4096, 0, NULL, 0);
  create_log_t log;
  memset(&log, 0, sizeof log);
  iospd_progress_t pr = {.fn = log_progress, .ctx = &log, .warn = log_line};
  iospd_win_create_report_t rep;
  iospd_err_t err;
  assert_int_equal(iospd_win_create(path, 2 * 1048576 + 100, false,
                                    IOSPD_WIN_CREATE_WRITE_ALL, &pr, &rep,
                                    &err),
                   0);
  assert_int_equal(file_size(path), 2 * 1048576 + 100);
  char back[8];
  read_back(path, 1048576, back, sizeof back);
  /* The (k & 0xff) pattern: byte 1048576 is 0, then 1, 2, ... */
  const char want[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  assert_memory_equal(back, want, 8);
  read_back(path, 2 * 1048576 + 92, back, sizeof back);
  const char tail[8] = {92, 93, 94, 95, 96, 97, 98, 99};
  assert_memory_equal(back, tail, 8);
  assert_int_equal(file_size(stale), UINT64_MAX);
  assert_int_equal(file_size(other), 4096);
  const char* line = logged(&log, "left by an interrupted -c of process "
                                  "4294967293, which no longer runs");
  assert_non_null(line);
  assert_non_null(strstr(line, "iospd_repl.dat.iospd-creating-4294967293"));
  delete_utf8(other);
  assert_int_equal(temp_copies(path), 0);
  assert_non_null(logged(&log, "was created by writing every block"));
  delete_utf8(path);
}

/* Never-written ranges on Windows: a file whose every byte was written
 * has none; one extended by SetEndOfFile alone is unwritten past its valid
 * data length (NTFS reads zeros there without touching the disk); a
 * sparse file's holes are holes. Wine answers neither FSCTL, so there the
 * answer must be "unknown" (never a false "all written"). */
static void test_unwritten_ranges(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_unwr.dat");
  WCHAR* w = iospd_win_utf8_to_wide(path);
  static char block[65536];
  memset(block, 0x5a, sizeof block);
  /* 1. Written in full: 4 x 64 KiB. */
  HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, 0, NULL,
                         CREATE_ALWAYS, 0, NULL);
  assert_true(h != INVALID_HANDLE_VALUE);
  for (int i = 0; i < 4; i++) {
    DWORD wrote = 0;
    assert_true(WriteFile(h, block, sizeof block, &wrote, NULL));
  }
  assert_true(FlushFileBuffers(h));
  CloseHandle(h);
  iospd_unwritten_t u;
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_unwritten(path, &u, &err), 0);
  if (!u.known) {
    assert_true(under_wine());
    print_message("wine answers neither FSCTL_QUERY_FILE_REGIONS nor "
                  "FSCTL_QUERY_ALLOCATED_RANGES: never-written ranges are "
                  "unknown there (checked: not claimed)\n");
  } else {
    assert_int_equal(u.hole_bytes, 0);
    assert_int_equal(u.unwritten_bytes, 0);
  }
  bool vdl_known = u.known;
  /* 2. Extended to 1 MiB by SetEndOfFile, nothing written. */
  h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0,
                  NULL);
  assert_true(h != INVALID_HANDLE_VALUE);
  LARGE_INTEGER li;
  li.QuadPart = 1048576;
  assert_true(SetFilePointerEx(h, li, NULL, FILE_BEGIN));
  assert_true(SetEndOfFile(h));
  CloseHandle(h);
  assert_int_equal(iospd_plat_file_unwritten(path, &u, &err), 0);
  assert_int_equal(u.known, vdl_known);
  if (u.known) {
    assert_int_equal(u.hole_bytes, 0);
    assert_int_equal(u.unwritten_bytes, 1048576);
  }
  /* 3. Sparse, 1 MiB, its first 64 KiB written. */
  h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0,
                  NULL);
  assert_true(h != INVALID_HANDLE_VALUE);
  DWORD got = 0;
  bool sparse = DeviceIoControl(h, FSCTL_SET_SPARSE, NULL, 0, NULL, 0, &got,
                                NULL) != 0;
  assert_true(SetFilePointerEx(h, li, NULL, FILE_BEGIN));
  assert_true(SetEndOfFile(h));
  li.QuadPart = 0;
  assert_true(SetFilePointerEx(h, li, NULL, FILE_BEGIN));
  DWORD wrote = 0;
  assert_true(WriteFile(h, block, sizeof block, &wrote, NULL));
  assert_true(FlushFileBuffers(h));
  CloseHandle(h);
  assert_int_equal(iospd_plat_file_unwritten(path, &u, &err), 0);
  if (u.known && sparse) {
    /* NTFS allocates sparse files in 64 KiB units: the rest is a hole. */
    assert_int_equal(u.hole_bytes, 1048576 - 65536);
    assert_int_equal(u.unwritten_bytes, 0);
  } else if (!u.known) {
    assert_true(under_wine());
  }
  iospd_free(w);
  delete_utf8(path);
  /* A disk or volume spelling is never looked at as a file. */
  assert_int_equal(iospd_plat_file_unwritten("#0", &u, &err), 0);
  assert_false(u.known);
}

/* -c on win-paths' resolution: a drive-letter path beyond MAX_PATH (so
 * path.c hands create.c its \\?\ form) and one with ".." get their folders
 * made by iospd_win_make_parents and the file at its full size, with no
 * warning; the intermediate-directory warning is DISKSPD's, for paths the
 * user wrote as X:\..., never for UNC ones. */
static void test_create_long_and_parents(void** state) {
  (void)state;
  char root[MAX_PATH * 3], path[2048];
  temp_path(root, sizeof root, "iospd_long");
  int n = snprintf(path, sizeof path, "%s", root);
  for (int i = 0; i < 6; i++)
    n += snprintf(path + n, sizeof path - (size_t)n, "\\d%d%048d", i, 0);
  snprintf(path + n, sizeof path - (size_t)n, "\\up\\..\\f.dat");
  assert_true(strlen(path) > MAX_PATH);
  create_log_t log;
  memset(&log, 0, sizeof log);
  iospd_progress_t pr = {.fn = log_progress, .ctx = &log, .warn = log_line};
  iospd_win_create_report_t rep;
  iospd_err_t err;
  assert_int_equal(iospd_win_create(path, 65536, false,
                                    IOSPD_WIN_CREATE_WRITE_ALL, &pr, &rep,
                                    &err),
                   0);
  assert_null(logged(&log, "WARNING"));
  assert_int_equal(rep.written, 65536);
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info(path, &info, &err), 0);
  assert_false(info.is_device);
  assert_int_equal(info.size, 65536);
  /* "up\.." made no folder "up". */
  char up[2048];
  snprintf(up, sizeof up, "%.*s\\up", n, path);
  WCHAR* wup = NULL;
  bool dev = true;
  assert_int_equal(iospd_win_target_path(up, &wup, &dev, &err), 0);
  assert_int_equal(GetFileAttributesW(wup), INVALID_FILE_ATTRIBUTES);
  iospd_free(wup);
  delete_utf8(path);

  /* A missing drive: the first failure for X:\..., none otherwise. */
  WCHAR q[] = L"Q:\\iospd_nodir\\f.dat";
  /* 3 on Windows, 2 under wine: either way a failure, reported. */
  DWORD qe = iospd_win_make_parents(q, true);
  assert_true(qe == ERROR_PATH_NOT_FOUND || qe == ERROR_FILE_NOT_FOUND);
  assert_int_equal(iospd_win_make_parents(q, false), 0);
  assert_true(wcscmp(q, L"Q:\\iospd_nodir\\f.dat") == 0); /* restored */
  WCHAR unc[] = L"\\\\?\\UNC\\iospd-no-server\\share\\a\\f.dat";
  assert_int_equal(iospd_win_make_parents(unc, true), 0);
  assert_true(wcscmp(unc, L"\\\\?\\UNC\\iospd-no-server\\share\\a\\f.dat") == 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spelled_kind),
      cmocka_unit_test(test_device_decision),
      cmocka_unit_test(test_file_is_file),
      cmocka_unit_test(test_probe_fails_closed),
      cmocka_unit_test(test_describe_device_fails_closed),
      cmocka_unit_test(test_volume_probed_once),
      cmocka_unit_test(test_private_dacl),
      cmocka_unit_test(test_create_valid_data_private),
      cmocka_unit_test(test_create_fill),
      cmocka_unit_test(test_create_interrupted),
      cmocka_unit_test(test_create_replaces_existing),
      cmocka_unit_test(test_unwritten_ranges),
      cmocka_unit_test(test_create_long_and_parents),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
