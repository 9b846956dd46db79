/* SPDX-License-Identifier: MIT */
/* Raw writes on Windows (issue #26), under wine: the decision that refuses
 * a volume with a mounted file system and an online disk with partitions
 * (even with --allow-raw-write), by its table; and, through the ioctl
 * seam, that a handle opened for writing never gets
 * FSCTL_ALLOW_EXTENDED_DASD_IO and that iospd_plat_file_open refuses what
 * the device says is mounted or online before anything is written. Wine
 * has no disks or volumes: \\.\NUL stands for one, the seam answers for
 * it. What only a real host shows is in scripts/windows-selfcheck.ps1. */
#include "test_util.h"

#include <wchar.h>

#include "iospd/alloc.h"
#include "win/internal.h"

#include <winioctl.h> /* after <windows.h> */

#define IOCTL_DISK_GET_DISK_ATTRIBUTES_ \
  CTL_CODE(IOCTL_DISK_BASE, 0x003c, METHOD_BUFFERED, FILE_ANY_ACCESS)

static int setup(void** state) {
  (void)state;
  iospd_sysinfo_t si;
  iospd_err_t err;
  assert_int_equal(iospd_plat_init(&si, &err), 0);
  return 0;
}

static void test_decision_table(void** state) {
  (void)state;
  static const struct {
    iospd_win_dev_kind_t kind;
    int mounted, offline, partitions;
    iospd_win_raw_verdict_t want;
  } rows[] = {
      {IOSPD_WIN_DEV_VOLUME, 1, -1, -1, IOSPD_WIN_RAW_MOUNTED},
      {IOSPD_WIN_DEV_VOLUME, 0, -1, -1, IOSPD_WIN_RAW_OK},
      {IOSPD_WIN_DEV_VOLUME, -1, -1, -1, IOSPD_WIN_RAW_UNKNOWN},
      /* A volume's answers about disks do not matter. */
      {IOSPD_WIN_DEV_VOLUME, 1, 1, 0, IOSPD_WIN_RAW_MOUNTED},
      {IOSPD_WIN_DEV_DISK, -1, 1, 3, IOSPD_WIN_RAW_OK},     /* offline */
      {IOSPD_WIN_DEV_DISK, -1, 0, 0, IOSPD_WIN_RAW_OK},     /* no volume */
      {IOSPD_WIN_DEV_DISK, -1, -1, 0, IOSPD_WIN_RAW_OK},
      {IOSPD_WIN_DEV_DISK, -1, 0, 2, IOSPD_WIN_RAW_ONLINE},
      {IOSPD_WIN_DEV_DISK, -1, -1, 1, IOSPD_WIN_RAW_ONLINE},
      {IOSPD_WIN_DEV_DISK, -1, 0, -1, IOSPD_WIN_RAW_ONLINE},
      {IOSPD_WIN_DEV_DISK, -1, -1, -1, IOSPD_WIN_RAW_UNKNOWN},
      {IOSPD_WIN_DEV_OTHER, 1, 0, 4, IOSPD_WIN_RAW_OK},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    iospd_win_raw_facts_t f;
    memset(&f, 0, sizeof f);
    f.kind = rows[i].kind;
    f.mounted = rows[i].mounted;
    f.offline = rows[i].offline;
    f.partitions = rows[i].partitions;
    if (iospd_win_raw_write_decide(&f) != rows[i].want)
      fail_msg("row %u: got %d", (unsigned)i,
               (int)iospd_win_raw_write_decide(&f));
  }
}

/* ---- the seam --------------------------------------------------------- */

typedef NTSTATUS(NTAPI* nt_query_object_fn)(HANDLE, int, void*, ULONG,
                                            ULONG*);
static nt_query_object_fn nt_query_object;

/* What the fake device says. */
static struct {
  bool answer;    /* answer the kind/state ioctls at all */
  ULONG partition; /* STORAGE_DEVICE_NUMBER.PartitionNumber */
  bool mounted;
  bool offline;
  DWORD partitions;
} dev;
static unsigned dasd_calls, dasd_on_writer, calls;

static ACCESS_MASK granted(HANDLE h) {
  PUBLIC_OBJECT_BASIC_INFORMATION bi;
  ULONG ret = 0;
  memset(&bi, 0, sizeof bi);
  if (nt_query_object == NULL ||
      nt_query_object(h, 0 /* ObjectBasicInformation */, &bi, sizeof bi,
                      &ret) != 0)
    return (ACCESS_MASK)-1; /* unknown: counts as a writer */
  return bi.GrantedAccess;
}

static int hook(HANDLE h, DWORD code, void* out, DWORD out_len,
                DWORD* returned) {
  calls++;
  *returned = 0;
  if (code == FSCTL_ALLOW_EXTENDED_DASD_IO) {
    dasd_calls++;
    if (granted(h) & (FILE_WRITE_DATA | FILE_APPEND_DATA | GENERIC_WRITE))
      dasd_on_writer++;
    return 1;
  }
  if (!dev.answer) {
    /* Wine says \\.\NUL is a partition of disk 0 (and NTFS): here it is
     * what it is on Windows, neither disk nor volume. */
    if (code != IOCTL_STORAGE_GET_DEVICE_NUMBER) return -1;
    SetLastError(ERROR_INVALID_FUNCTION);
    return 0;
  }
  if (code == IOCTL_STORAGE_GET_DEVICE_NUMBER &&
      out_len >= sizeof(STORAGE_DEVICE_NUMBER)) {
    STORAGE_DEVICE_NUMBER* n = out;
    n->DeviceType = FILE_DEVICE_DISK;
    n->DeviceNumber = 3;
    n->PartitionNumber = dev.partition;
    *returned = sizeof *n;
    return 1;
  }
  if (code == FSCTL_IS_VOLUME_MOUNTED) {
    if (dev.mounted) return 1;
    SetLastError(ERROR_NOT_SUPPORTED);
    return 0;
  }
  if (code == IOCTL_DISK_GET_DISK_ATTRIBUTES_ && out_len >= 16) {
    memset(out, 0, 16);
    ((DWORDLONG*)out)[1] = dev.offline ? 1u : 0u;
    *returned = 16;
    return 1;
  }
  if (code == IOCTL_DISK_GET_DRIVE_LAYOUT_EX &&
      out_len >= sizeof(DRIVE_LAYOUT_INFORMATION_EX) +
                     4 * sizeof(PARTITION_INFORMATION_EX)) {
    DRIVE_LAYOUT_INFORMATION_EX* l = out;
    memset(l, 0, out_len);
    l->PartitionStyle = PARTITION_STYLE_GPT;
    l->PartitionCount = dev.partitions;
    for (DWORD i = 0; i < dev.partitions; i++) {
      l->PartitionEntry[i].PartitionStyle = PARTITION_STYLE_GPT;
      l->PartitionEntry[i].PartitionLength.QuadPart = 1 << 20;
    }
    *returned = (DWORD)(offsetof(DRIVE_LAYOUT_INFORMATION_EX, PartitionEntry) +
                        dev.partitions * sizeof(PARTITION_INFORMATION_EX));
    return 1;
  }
  return -1;
}

/* Opens \\.\NUL (a device by its spelling) as a worker would. */
static int open_dev(unsigned flags, iospd_plat_file_t** f, iospd_err_t* err) {
  iospd_open_opts_t o = {"\\\\.\\NUL", flags | IOSPD_OPEN_ASYNC};
  int rc = iospd_plat_file_open(f, &o, err);
  if (rc != 0) print_message("open: %s\n", err->msg);
  return rc;
}

static void test_no_extended_dasd_on_writers(void** state) {
  (void)state;
  nt_query_object = (nt_query_object_fn)(void (*)(void))GetProcAddress(
      GetModuleHandleW(L"ntdll.dll"), "NtQueryObject");
  iospd_win_ioctl_hook = hook;
  memset(&dev, 0, sizeof dev);
  iospd_err_t err;
  iospd_plat_file_t* f = NULL;

  /* Read-only: the FSCTL goes out (the seam sees it). */
  dasd_calls = dasd_on_writer = 0;
  assert_int_equal(open_dev(IOSPD_OPEN_READ, &f, &err), 0);
  assert_true(f->is_device);
  assert_int_equal(dasd_calls, 1);
  assert_int_equal(dasd_on_writer, 0);
  iospd_plat_file_close(f);

  /* Read and write, and write only: never to that handle; a device that
   * is neither a disk nor a volume is opened as before. */
  const unsigned writers[] = {IOSPD_OPEN_READ | IOSPD_OPEN_WRITE,
                              IOSPD_OPEN_WRITE};
  for (size_t i = 0; i < 2; i++) {
    dasd_calls = dasd_on_writer = 0;
    assert_int_equal(open_dev(writers[i], &f, &err), 0);
    assert_true(f->is_device);
    /* The worker asks for size and sectors: through a read handle of its
     * own, which may have the FSCTL. */
    iospd_file_info_t info;
    assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
    assert_int_equal(dasd_on_writer, 0);
    iospd_plat_file_close(f);
  }
  assert_true(nt_query_object != NULL); /* the access check really ran */
  iospd_win_ioctl_hook = NULL;
}

/* The device says it is a volume with a file system mounted, or an
 * online disk with partitions: the write open is refused, whatever the
 * switches; dismounted or offline, it opens. */
static void test_refused_before_any_write(void** state) {
  (void)state;
  iospd_win_ioctl_hook = hook;
  memset(&dev, 0, sizeof dev);
  dev.answer = true;
  iospd_err_t err;
  iospd_plat_file_t* f = NULL;

  dev.partition = 2; /* a volume */
  dev.mounted = true;
  dasd_calls = 0;
  assert_int_equal(open_dev(IOSPD_OPEN_WRITE, &f, &err), IOSPD_EACCES);
  assert_null(f);
  if (strstr(err.msg, "cannot write to '\\\\.\\NUL': a file system (NTFS) is mounted") == NULL ||
      strstr(err.msg, "is mounted on this volume") == NULL ||
      strstr(err.msg, "even with --allow-raw-write (nothing was written)") ==
          NULL)
    fail_msg("message: %s", err.msg);
  assert_int_equal(dasd_calls, 0);
  /* Reading a mounted volume is fine. */
  assert_int_equal(open_dev(IOSPD_OPEN_READ, &f, &err), 0);
  iospd_plat_file_close(f);
  dev.mounted = false;
  assert_int_equal(open_dev(IOSPD_OPEN_WRITE, &f, &err), 0);
  iospd_plat_file_close(f);

  dev.partition = 0; /* the whole disk */
  dev.offline = false;
  dev.partitions = 2;
  assert_int_equal(open_dev(IOSPD_OPEN_READ | IOSPD_OPEN_WRITE, &f, &err),
                   IOSPD_EACCES);
  if (strstr(err.msg, "the disk is online with 2 partitions") == NULL ||
      strstr(err.msg, "Set-Disk -IsOffline $true") == NULL)
    fail_msg("message: %s", err.msg);
  dev.partitions = 1;
  assert_int_equal(open_dev(IOSPD_OPEN_WRITE, &f, &err), IOSPD_EACCES);
  assert_non_null(strstr(err.msg, "online with 1 partition,"));
  dev.offline = true;
  assert_int_equal(open_dev(IOSPD_OPEN_WRITE, &f, &err), 0);
  iospd_plat_file_close(f);
  dev.offline = false;
  dev.partitions = 0; /* an empty disk: no volume to go around */
  assert_int_equal(open_dev(IOSPD_OPEN_WRITE, &f, &err), 0);
  iospd_plat_file_close(f);
  iospd_win_ioctl_hook = NULL;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decision_table),
      cmocka_unit_test(test_no_extended_dasd_on_writers),
      cmocka_unit_test(test_refused_before_any_write),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
