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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spelled_kind),
      cmocka_unit_test(test_device_decision),
      cmocka_unit_test(test_file_is_file),
      cmocka_unit_test(test_probe_fails_closed),
      cmocka_unit_test(test_volume_probed_once),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
