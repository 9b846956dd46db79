/* SPDX-License-Identifier: MIT */
/* Windows platform layer (src/win) under wine: UTF-16 paths, target name
 * mapping, IOCP and completion-routine round trips, immediate failures,
 * topology, CPU times, thread affinity, buffers and waits (the start
 * gates are tested by the portable test_plat).
 * Wine runs overlapped I/O synchronously: these tests check behaviour only. */
#include "test_util.h"

#include <wchar.h>

#include "iospd/alloc.h"
#include "iospd/device_sniff.h"
#include "iospd/profile.h"
#include "win/internal.h"

#include <winioctl.h> /* FSCTL_SET_SPARSE; after <windows.h> */

#define BLOCK 4096u
#define DEPTH 16u

static char tmpdir[MAX_PATH * 3];

/* A UTF-8 path in the temp directory. */
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
  assert_string_equal(si.os_name, "windows");
  assert_int_equal(si.ticks_per_second, iospd_win_qpc_freq);
  assert_true(si.ticks_per_second > 0);
  assert_int_equal(si.page_size, 4096);
  assert_true(strlen(si.computer_name) > 0);
  return 0;
}

/* ---- paths --------------------------------------------------------------- */

static void test_utf16_round_trip(void** state) {
  (void)state;
  const char* name = "t\xc3\xabst_\xc3\xbc_\xe6\x97\xa5\xe6\x9c\xac.dat";
  WCHAR* w = iospd_win_utf8_to_wide(name);
  assert_non_null(w);
  assert_int_equal(wcscmp(w, L"t\u00ebst_\u00fc_\u65e5\u672c.dat"), 0);
  char back[64];
  assert_int_equal(iospd_win_wide_to_utf8(w, back, sizeof back),
                   (int)strlen(name));
  assert_string_equal(back, name);
  /* Too small: a valid prefix, never half a character ("t" + 2-byte e). */
  char small[5];
  assert_int_equal(iospd_win_wide_to_utf8(w, small, sizeof small), -1);
  assert_string_equal(small,
                      "t\xc3\xab"
                      "s");
  iospd_free(w);
  /* Malformed UTF-8 is refused. */
  assert_null(iospd_win_utf8_to_wide("bad\xff"));

  /* A real file with that name: created, seen by Win32 under its UTF-16
   * name, and described by path_info. */
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, name);
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, 3 * BLOCK, false, &err), 0);
  WCHAR wdir[MAX_PATH], wfull[MAX_PATH * 2];
  GetTempPathW(MAX_PATH, wdir);
  swprintf(wfull, IOSPD_ARRAY_SIZE(wfull), L"%ls%ls", wdir,
           L"t\u00ebst_\u00fc_\u65e5\u672c.dat");
  WIN32_FILE_ATTRIBUTE_DATA a;
  assert_true(GetFileAttributesExW(wfull, GetFileExInfoStandard, &a));
  assert_int_equal(a.nFileSizeLow, 3 * BLOCK);
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info(path, &info, &err), 0);
  assert_int_equal(info.size, 3 * BLOCK);
  assert_false(info.is_device);
  assert_int_equal(info.logical_sector, 512);
  assert_true(DeleteFileW(wfull));
  assert_int_equal(iospd_plat_path_info(path, &info, &err), IOSPD_ENOENT);
  assert_non_null(strstr(err.msg, "does not exist"));
}

static void check_target(const char* in, const WCHAR* want, bool device) {
  WCHAR* w = NULL;
  bool dev = !device;
  iospd_err_t err;
  assert_int_equal(iospd_win_target_path(in, &w, &dev, &err), 0);
  assert_non_null(w);
  if (wcscmp(w, want) != 0) fail_msg("%s mapped to %ls, want %ls", in, w, want);
  assert_int_equal(dev, device);
  iospd_free(w);
}

static void test_target_mapping(void** state) {
  (void)state;
  check_target("#0", L"\\\\.\\PhysicalDrive0", true);
  check_target("#12", L"\\\\.\\PhysicalDrive12", true);
  check_target("E:", L"\\\\.\\E:", true);
  check_target("e:", L"\\\\.\\e:", true);
  check_target("\\\\.\\PhysicalDrive3", L"\\\\.\\PhysicalDrive3", true);
  check_target("E:\\data\\f.dat", L"E:\\data\\f.dat", false);
  /* Relative paths are resolved (tests/test_win_paths.c: long forms). */
  WCHAR cwd[MAX_PATH + 8];
  assert_true(GetCurrentDirectoryW(MAX_PATH, cwd) > 0);
  wcscat(cwd, L"\\f.dat");
  check_target("f.dat", cwd, false);
  /* Other spellings of the device namespace are devices too (the write
   * guard must see them); files behind \\?\ and \\.\ are not. */
  check_target("//./PhysicalDrive1", L"//./PhysicalDrive1", true);
  check_target("\\\\?\\PhysicalDrive2", L"\\\\?\\PhysicalDrive2", true);
  check_target("\\\\?\\GLOBALROOT\\Device\\Harddisk1\\Partition0",
               L"\\\\?\\GLOBALROOT\\Device\\Harddisk1\\Partition0", true);
  check_target("\\\\?\\Volume{0b1c2d3e-0000-0000-0000-100000000000}",
               L"\\\\?\\Volume{0b1c2d3e-0000-0000-0000-100000000000}", true);
  check_target("//?/E:", L"//?/E:", true);
  check_target("\\\\.\\E:", L"\\\\.\\E:", true);
  check_target("\\\\?\\E:\\data\\f.dat", L"\\\\?\\E:\\data\\f.dat", false);
  check_target("\\\\.\\E:\\f.dat", L"\\\\.\\E:\\f.dat", false);
  check_target("\\\\?\\UNC\\srv\\share\\f.dat",
               L"\\\\?\\UNC\\srv\\share\\f.dat", false);
  check_target("//srv/share/f.dat", L"\\\\srv\\share\\f.dat", false);

  WCHAR* w;
  bool dev;
  iospd_err_t err;
  assert_int_equal(iospd_win_target_path("#x", &w, &dev, &err), IOSPD_EINVAL);
  assert_non_null(strstr(err.msg, "#N"));
  assert_int_equal(iospd_win_target_path("#", &w, &dev, &err), IOSPD_EINVAL);
  assert_int_equal(iospd_win_target_path("", &w, &dev, &err), IOSPD_EINVAL);

  /* Beyond MAX_PATH: \\?\ prefix and backslashes only. */
  char longp[400] = "C:/";
  for (int i = 0; i < 30; i++) strcat(longp, "directory/");
  strcat(longp, "f.dat");
  assert_int_equal(iospd_win_target_path(longp, &w, &dev, &err), 0);
  assert_int_equal(wcsncmp(w, L"\\\\?\\C:\\directory\\", 17), 0);
  assert_null(wcschr(w, L'/'));
  assert_int_equal(wcslen(w), strlen(longp) + 4);
  iospd_free(w);
}

/* ---- queue round trips --------------------------------------------------- */

static uint8_t pattern(uint32_t blk, uint32_t i) {
  return (uint8_t)(blk * 31u + i * 7u + 1u);
}

/* Reaps until n completions arrived; checks each tag once with result len. */
static void reap_all(iospd_plat_queue_t* q, uint32_t n, int32_t want) {
  bool seen[DEPTH] = {false};
  uint32_t total = 0;
  for (int loops = 0; total < n && loops < 1000; loops++) {
    iospd_cqe_t cqe[DEPTH];
    uint32_t got = 99;
    assert_int_equal(iospd_plat_queue_reap(q, cqe, DEPTH, 1, 5000, &got), 0);
    assert_true(got <= DEPTH);
    for (uint32_t i = 0; i < got; i++) {
      assert_true(cqe[i].tag < DEPTH);
      assert_false(seen[cqe[i].tag]);
      seen[cqe[i].tag] = true;
      assert_int_equal(cqe[i].result, want);
    }
    total += got;
  }
  assert_int_equal(total, n);
}

static void round_trip(unsigned qflags, const char* engine) {
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, qflags ? "iospd_rt_x.dat" : "iospd_rt.dat");
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, DEPTH * BLOCK, true, &err), 0);

  iospd_plat_file_t* f;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_WRITE |
                                   IOSPD_OPEN_ASYNC | IOSPD_OPEN_NO_BUFFERING |
                                   IOSPD_OPEN_WRITE_THROUGH};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
  assert_int_equal(info.size, DEPTH * BLOCK);
  assert_false(info.is_device);
  assert_true(info.logical_sector >= 512);

  iospd_plat_queue_t* q;
  assert_int_equal(iospd_plat_queue_create(&q, DEPTH, qflags, 0, &err), 0);
  assert_string_equal(iospd_plat_queue_engine(q), engine);
  uint32_t fi = 99;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  assert_int_equal(fi, 0);

  uint8_t* buf = iospd_plat_buf_alloc(DEPTH * BLOCK, BLOCK, 0);
  assert_non_null(buf);
  iospd_io_t ios[DEPTH];
  /* Tags in reverse block order, so a tag/offset mix-up shows. */
  for (uint32_t t = 0; t < DEPTH; t++) {
    uint32_t blk = DEPTH - 1 - t;
    for (uint32_t i = 0; i < BLOCK; i++) buf[t * BLOCK + i] = pattern(blk, i);
    ios[t] = (iospd_io_t){.tag = t,
                          .op = IOSPD_OP_WRITE,
                          .file_index = fi,
                          .offset = (uint64_t)blk * BLOCK,
                          .length = BLOCK,
                          .buf = buf + t * BLOCK};
  }
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, DEPTH, &acc), 0);
  assert_int_equal(acc, DEPTH);
  reap_all(q, DEPTH, BLOCK);

  memset(buf, 0, DEPTH * BLOCK);
  for (uint32_t t = 0; t < DEPTH; t++) ios[t].op = IOSPD_OP_READ;
  assert_int_equal(iospd_plat_queue_submit(q, ios, DEPTH, &acc), 0);
  assert_int_equal(acc, DEPTH);
  reap_all(q, DEPTH, BLOCK);
  uint8_t want[BLOCK];
  for (uint32_t t = 0; t < DEPTH; t++) {
    uint32_t blk = DEPTH - 1 - t;
    for (uint32_t i = 0; i < BLOCK; i++) want[i] = pattern(blk, i);
    assert_memory_equal(buf + t * BLOCK, want, BLOCK);
  }

  /* io_uring is Linux only: not in this platform's table, so the command
   * line refuses it, and an index past the table is refused here. */
  assert_int_equal(iospd_engine_choice_parse("io_uring"), -1);
  uint32_t nengines = 0;
  (void)iospd_plat_engines(&nengines);
  iospd_plat_queue_t* q2 = NULL;
  assert_int_equal(iospd_plat_queue_create(&q2, DEPTH, qflags, (int)nengines,
                                           &err),
                   IOSPD_EINVAL);
  assert_null(q2);
  assert_non_null(strstr(err.msg, "unknown I/O engine"));

  /* Nothing in flight: a reap returns at once with nothing. */
  iospd_cqe_t c;
  uint32_t got = 7;
  assert_int_equal(iospd_plat_queue_reap(q, &c, 1, 0, 0, &got), 0);
  assert_int_equal(got, 0);

  /* In flight at destroy: destroy must wait for them, not free early. */
  assert_int_equal(iospd_plat_queue_submit(q, ios, 4, &acc), 0);
  iospd_plat_queue_destroy(q);
  iospd_plat_buf_free(buf, DEPTH * BLOCK);
  iospd_plat_file_close(f);

  /* The data really is in the file, block by block. */
  char* data = NULL;
  size_t n = 0;
  assert_int_equal(iospd_plat_read_file(path, SIZE_MAX, &data, &n, &err), 0);
  assert_int_equal(n, DEPTH * BLOCK);
  const uint8_t* all = (const uint8_t*)data;
  for (uint32_t i = 0; i < BLOCK; i++) want[i] = pattern(5, i);
  assert_memory_equal(all + 5 * BLOCK, want, BLOCK);
  iospd_free(data);
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DeleteFileW(w);
  iospd_free(w);
}

static void test_iocp_round_trip(void** state) {
  (void)state;
  round_trip(0, "I/O Completion Ports");
}

static void test_completion_routines_round_trip(void** state) {
  (void)state;
  round_trip(IOSPD_QUEUE_COMPLETION_ROUTINES,
             "completion routines (ReadFileEx/WriteFileEx)");
}

/* Offsets past 4 GiB go to Windows whole (OVERLAPPED Offset/OffsetHigh),
 * and a 6 GiB size comes back whole, on the 32-bit x86 build too. A sparse
 * 6 GiB file; a block written at 5 GiB + 4K reads back there, and the
 * place a 32-bit cut would send it to (1 GiB + 4K) stays zero. */
static void past_4gib(unsigned qflags) {
  const uint64_t GiB = 1024ull * 1024 * 1024;
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, qflags ? "iospd_4g_x.dat" : "iospd_4g.dat");
  WCHAR* w = iospd_win_utf8_to_wide(path);
  HANDLE h = CreateFileW(w, GENERIC_READ | GENERIC_WRITE, 0, NULL,
                         CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
  assert_true(h != INVALID_HANDLE_VALUE);
  DWORD ret = 0; /* sparse where the file system can (NTFS); wine is anyway */
  (void)DeviceIoControl(h, FSCTL_SET_SPARSE, NULL, 0, NULL, 0, &ret, NULL);
  LARGE_INTEGER end;
  end.QuadPart = (LONGLONG)(6 * GiB);
  assert_true(SetFilePointerEx(h, end, NULL, FILE_BEGIN) && SetEndOfFile(h));
  CloseHandle(h);

  iospd_err_t err;
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_WRITE |
                                   IOSPD_OPEN_ASYNC | IOSPD_OPEN_NO_BUFFERING};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
  assert_int_equal(info.size, 6 * GiB);
  iospd_plat_queue_t* q;
  assert_int_equal(iospd_plat_queue_create(&q, DEPTH, qflags, 0, &err), 0);
  uint32_t fi = 99;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(2 * BLOCK, BLOCK, 0);
  assert_non_null(buf);
  for (uint32_t i = 0; i < BLOCK; i++) buf[i] = pattern(77, i);
  iospd_io_t io = {.tag = 0, .op = IOSPD_OP_WRITE, .file_index = fi,
                   .offset = 5 * GiB + BLOCK, .length = BLOCK, .buf = buf};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, &io, 1, &acc), 0);
  assert_int_equal(acc, 1);
  reap_all(q, 1, BLOCK);
  iospd_io_t rd[2] = {
      {.tag = 0, .op = IOSPD_OP_READ, .file_index = fi,
       .offset = 5 * GiB + BLOCK, .length = BLOCK, .buf = buf},
      {.tag = 1, .op = IOSPD_OP_READ, .file_index = fi,
       .offset = 1 * GiB + BLOCK, .length = BLOCK, .buf = buf + BLOCK}};
  memset(buf, 0xee, 2 * BLOCK);
  assert_int_equal(iospd_plat_queue_submit(q, rd, 2, &acc), 0);
  assert_int_equal(acc, 2);
  reap_all(q, 2, BLOCK);
  uint8_t want[BLOCK];
  for (uint32_t i = 0; i < BLOCK; i++) want[i] = pattern(77, i);
  assert_memory_equal(buf, want, BLOCK);
  memset(want, 0, BLOCK);
  assert_memory_equal(buf + BLOCK, want, BLOCK);
  iospd_plat_queue_destroy(q);
  iospd_plat_buf_free(buf, 2 * BLOCK);
  iospd_plat_file_close(f);
  DeleteFileW(w);
  iospd_free(w);
}

static void test_offsets_past_4gib(void** state) {
  (void)state;
  past_4gib(0);
  past_4gib(IOSPD_QUEUE_COMPLETION_ROUTINES);
}

static void failing_submit(unsigned qflags) {
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_wo.dat");
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, 2 * BLOCK, false, &err), 0);
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {path, IOSPD_OPEN_WRITE | IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_plat_queue_t* q;
  assert_int_equal(iospd_plat_queue_create(&q, 4, qflags, 0, &err), 0);
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(2 * BLOCK, BLOCK, 0);
  /* A read on a write-only handle fails inside ReadFile; a write next to it
   * succeeds. Both come back through reap. */
  iospd_io_t ios[2] = {{.tag = 3,
                        .op = IOSPD_OP_READ,
                        .file_index = fi,
                        .offset = 0,
                        .length = BLOCK,
                        .buf = buf},
                       {.tag = 1,
                        .op = IOSPD_OP_WRITE,
                        .file_index = fi,
                        .offset = BLOCK,
                        .length = BLOCK,
                        .buf = buf + BLOCK}};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 2, &acc), 0);
  assert_int_equal(acc, 2);
  int32_t res[4] = {1, 1, 1, 1};
  uint32_t total = 0;
  for (int i = 0; i < 10 && total < 2; i++) {
    iospd_cqe_t c[4];
    uint32_t got = 0;
    assert_int_equal(iospd_plat_queue_reap(q, c, 4, 1, 2000, &got), 0);
    for (uint32_t k = 0; k < got; k++) res[c[k].tag] = c[k].result;
    total += got;
  }
  assert_int_equal(total, 2);
  assert_int_equal(res[3], IOSPD_EACCES);
  assert_int_equal(res[1], BLOCK);
  iospd_plat_queue_destroy(q);
  iospd_plat_buf_free(buf, 2 * BLOCK);
  iospd_plat_file_close(f);
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DeleteFileW(w);
  iospd_free(w);
}

static void test_failing_submit_reaped(void** state) {
  (void)state;
  failing_submit(0);
  failing_submit(IOSPD_QUEUE_COMPLETION_ROUTINES);
}

/* More I/Os than free slots: the queue takes what fits, the caller keeps
 * the rest; tags are the caller's, any value. */
static void short_submit(unsigned qflags) {
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_short.dat");
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, 8 * BLOCK, false, &err), 0);
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_plat_queue_t* q;
  assert_int_equal(iospd_plat_queue_create(&q, 4, qflags, 0, &err), 0);
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(6 * BLOCK, BLOCK, 0);
  iospd_io_t ios[6];
  for (uint32_t i = 0; i < 6; i++)
    ios[i] = (iospd_io_t){.tag = 1000000 + i,
                          .op = IOSPD_OP_READ,
                          .file_index = fi,
                          .offset = (uint64_t)i * BLOCK,
                          .length = BLOCK,
                          .buf = buf + i * BLOCK};
  uint32_t acc = 99;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 6, &acc), 0);
  assert_int_equal(acc, 4);
  /* Full: nothing more is taken until something is reaped. */
  assert_int_equal(iospd_plat_queue_submit(q, ios + 4, 2, &acc), 0);
  assert_int_equal(acc, 0);
  uint32_t mask = 0, total = 0;
  for (int loops = 0; loops < 20 && total < 4; loops++) {
    iospd_cqe_t c[8];
    uint32_t got = 0;
    assert_int_equal(iospd_plat_queue_reap(q, c, 8, 1, 2000, &got), 0);
    for (uint32_t k = 0; k < got; k++) {
      assert_in_range(c[k].tag, 1000000, 1000003);
      assert_int_equal(c[k].result, BLOCK);
      mask |= 1u << (c[k].tag - 1000000);
    }
    total += got;
  }
  assert_int_equal(total, 4);
  assert_int_equal(mask, 0xf);
  assert_int_equal(iospd_plat_queue_submit(q, ios + 4, 2, &acc), 0);
  assert_int_equal(acc, 2);
  iospd_plat_queue_destroy(q); /* two still in flight or unreaped */
  iospd_plat_buf_free(buf, 6 * BLOCK);
  iospd_plat_file_close(f);
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DeleteFileW(w);
  iospd_free(w);
}

static void test_short_submit(void** state) {
  (void)state;
  short_submit(0);
  short_submit(IOSPD_QUEUE_COMPLETION_ROUTINES);
}

/* A named pipe gives I/O that really pends (wine runs file I/O at once):
 * reap times out while nothing has arrived, completes when the other end
 * writes, and a cancelled read comes back as IOSPD_ECANCELED, decoded from
 * the completion's own status. */
static void pending_io(unsigned qflags) {
  WCHAR wname[64];
  char name[64];
  snprintf(name, sizeof name, "\\\\.\\pipe\\iospd_test_%lu_%u",
           (unsigned long)GetCurrentProcessId(), qflags);
  swprintf(wname, IOSPD_ARRAY_SIZE(wname), L"%hs", name);
  HANDLE server = CreateNamedPipeW(
      wname, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED,
      PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT, 1, 4096, 4096, 0, NULL);
  assert_true(server != INVALID_HANDLE_VALUE);
  iospd_err_t err;
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {name,
                         IOSPD_OPEN_READ | IOSPD_OPEN_WRITE | IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_plat_queue_t* q;
  assert_int_equal(iospd_plat_queue_create(&q, 2, qflags, 0, &err), 0);
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);

  char buf[2][16];
  memset(buf, 0, sizeof buf);
  iospd_io_t io = {.tag = 7,
                   .op = IOSPD_OP_READ,
                   .file_index = fi,
                   .offset = 0,
                   .length = 16,
                   .buf = buf[0]};
  uint32_t acc = 0, got = 9;
  iospd_cqe_t c[2];
  assert_int_equal(iospd_plat_queue_submit(q, &io, 1, &acc), 0);
  assert_int_equal(acc, 1);
  uint64_t t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_queue_reap(q, c, 2, 1, 100, &got), 0);
  assert_int_equal(got, 0);
  assert_true((iospd_plat_ticks() - t0) * 1000 / iospd_win_qpc_freq >= 80);

  DWORD wrote = 0;
  OVERLAPPED wov;
  memset(&wov, 0, sizeof wov);
  wov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (!WriteFile(server, "0123456789abcdef", 16, NULL, &wov))
    assert_int_equal(GetLastError(), ERROR_IO_PENDING);
  assert_true(GetOverlappedResult(server, &wov, &wrote, TRUE));
  assert_int_equal(wrote, 16);
  CloseHandle(wov.hEvent);
  assert_int_equal(iospd_plat_queue_reap(q, c, 2, 1, 5000, &got), 0);
  assert_int_equal(got, 1);
  assert_int_equal(c[0].tag, 7);
  assert_int_equal(c[0].result, 16);
  assert_memory_equal(buf[0], "0123456789abcdef", 16);

  io.tag = 8;
  io.buf = buf[1];
  assert_int_equal(iospd_plat_queue_submit(q, &io, 1, &acc), 0);
  assert_int_equal(acc, 1);
  assert_true(CancelIoEx(f->h, NULL));
  assert_int_equal(iospd_plat_queue_reap(q, c, 2, 1, 5000, &got), 0);
  assert_int_equal(got, 1);
  assert_int_equal(c[0].tag, 8);
  assert_int_equal(c[0].result, IOSPD_ECANCELED);

  /* Destroy with a read still pending: cancelled and drained first. */
  assert_int_equal(iospd_plat_queue_submit(q, &io, 1, &acc), 0);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  CloseHandle(server);
}

static void test_pending_io(void** state) {
  (void)state;
  pending_io(0);
  pending_io(IOSPD_QUEUE_COMPLETION_ROUTINES);
}

/* A handle opened without IOSPD_OPEN_ASYNC still works through the queue,
 * with blocking calls (IOSPD_QUEUE_SYNC). */
static void test_sync_handle(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  temp_path(path, sizeof path, "iospd_sync.dat");
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, 2 * BLOCK, false, &err), 0);
  iospd_plat_file_t* f;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_SEQ_HINT};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_plat_queue_t* q;
  assert_int_equal(iospd_plat_queue_create(&q, 1, IOSPD_QUEUE_SYNC, 0, &err),
                   0);
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(BLOCK, BLOCK, 0);
  /* Reading the last 100 bytes and beyond: a short read of 100. */
  iospd_io_t io = {.tag = 0,
                   .op = IOSPD_OP_READ,
                   .file_index = fi,
                   .offset = 2 * BLOCK - 100,
                   .length = BLOCK,
                   .buf = buf};
  uint32_t acc, got;
  assert_int_equal(iospd_plat_queue_submit(q, &io, 1, &acc), 0);
  iospd_cqe_t c;
  assert_int_equal(iospd_plat_queue_reap(q, &c, 1, 1, 1000, &got), 0);
  assert_int_equal(got, 1);
  assert_int_equal(c.tag, 0);
  assert_int_equal(c.result, 100);
  iospd_plat_queue_destroy(q);
  iospd_plat_buf_free(buf, BLOCK);
  iospd_plat_file_close(f);
  WCHAR* w = iospd_win_utf8_to_wide(path);
  DeleteFileW(w);
  iospd_free(w);
}

/* ---- files --------------------------------------------------------------- */

typedef struct {
  uint32_t calls;
  uint64_t last_done, last_total;
} progress_log_t;

static void log_progress(void* ctx, uint64_t done, uint64_t total) {
  progress_log_t* l = ctx;
  l->calls++;
  l->last_done = done;
  l->last_total = total;
}

static void test_file_errors_and_create(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  iospd_err_t err;
  iospd_plat_file_t* f = (iospd_plat_file_t*)1;
  temp_path(path, sizeof path, "iospd_no_such_file.dat");
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), IOSPD_ENOENT);
  assert_null(f);
  assert_non_null(strstr(err.msg, path));
  assert_non_null(strstr(err.msg, "no such file"));
  assert_int_equal(err.os_code, ERROR_FILE_NOT_FOUND);

  /* Missing parent directories of an absolute path are created; the
   * non-zero fill is the (i & 0xff) pattern unless the OS let us skip
   * writing (SetFileValidData). */
  temp_path(path, sizeof path, "iospd_dir_a\\b\\c\\made.dat");
  progress_log_t pl = {0, 0, 0};
  iospd_progress_t progress = {.fn = log_progress, .ctx = &pl};
  assert_int_equal(
      iospd_plat_file_create_ex(path, 3000000, false, &progress, &err), 0);
  /* Written in 1 MiB chunks: 3 reports, the last at the full size; none
   * when SetFileValidData let the OS skip writing. */
  assert_true(pl.calls == 0 || pl.calls == 3);
  if (pl.calls > 0) {
    assert_int_equal(pl.last_done, 3000000);
    assert_int_equal(pl.last_total, 3000000);
  }
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info(path, &info, &err), 0);
  assert_int_equal(info.size, 3000000);
  char* head = NULL;
  size_t n = 0;
  assert_int_equal(iospd_plat_read_file(path, 600, &head, &n, &err), 0);
  assert_int_equal(n, 600);
  assert_true((uint8_t)head[300] == 0 || (uint8_t)head[300] == 300 % 256);
  iospd_free(head);

  /* Every hint together (-fsrt -I1): advisory, so the open works. */
  o.flags = IOSPD_OPEN_READ | IOSPD_OPEN_WRITE | IOSPD_OPEN_ASYNC |
            IOSPD_OPEN_SEQ_HINT | IOSPD_OPEN_RANDOM_HINT |
            IOSPD_OPEN_TEMPORARY | IOSPD_OPEN_PRIORITY_VERY_LOW;
  o.path = path;
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  assert_int_equal(iospd_plat_file_info(f, &info, &err), 0);
  assert_int_equal(info.size, 3000000);
  iospd_plat_file_close(f);

  /* -Sr on a local file: a clear refusal naming the switch. */
  o.flags = IOSPD_OPEN_READ | IOSPD_OPEN_DISABLE_LOCAL_CACHE;
  o.path = path;
  int rc = iospd_plat_file_open(&f, &o, &err);
  if (rc == 0) {
    iospd_plat_file_close(f);
  } else {
    assert_non_null(strstr(err.msg, "-Sr"));
    assert_non_null(strstr(err.msg, "remote"));
  }
  /* A directory is not a target. */
  temp_path(path, sizeof path, "iospd_dir_a");
  assert_int_equal(iospd_plat_path_info(path, &info, &err), IOSPD_EINVAL);
  assert_non_null(strstr(err.msg, "directory"));
  /* Devices are never created. */
  assert_int_equal(iospd_plat_file_create("#0", 4096, false, &err),
                   IOSPD_EINVAL);

  WCHAR wdir[MAX_PATH], w[MAX_PATH * 2];
  GetTempPathW(MAX_PATH, wdir);
  swprintf(w, IOSPD_ARRAY_SIZE(w), L"%lsiospd_dir_a\\b\\c\\made.dat", wdir);
  assert_true(DeleteFileW(w));
  swprintf(w, IOSPD_ARRAY_SIZE(w), L"%lsiospd_dir_a\\b\\c", wdir);
  RemoveDirectoryW(w);
  swprintf(w, IOSPD_ARRAY_SIZE(w), L"%lsiospd_dir_a\\b", wdir);
  RemoveDirectoryW(w);
  swprintf(w, IOSPD_ARRAY_SIZE(w), L"%lsiospd_dir_a", wdir);
  RemoveDirectoryW(w);
}

/* The volume the temp directory lives on, read-only: size and sectors. */
static void test_volume_info(void** state) {
  (void)state;
  char vol[3] = {tmpdir[0], ':', 0};
  iospd_file_info_t info;
  iospd_err_t err;
  int rc = iospd_plat_path_info(vol, &info, &err);
  if (rc != 0) {
    print_message("volume %s not accessible here (%s); skipped\n", vol,
                  err.msg);
    skip();
  }
  assert_true(info.is_device);
  assert_true(info.logical_sector >= 512);
  assert_true(info.size > 0);
  /* The temp directory lives on it, so it holds a file system: the fact
   * that makes writing to it unsafe. */
  assert_true(info.has_filesystem);
  assert_non_null(strstr(info.content, "file system"));
}

static void sniff_case(const char* what, size_t off, const char* sig,
                       bool tables, bool fs, bool parts, const char* content) {
  static unsigned char b[8192];
  memset(b, 0, sizeof b);
  if (sig != NULL) memcpy(b + off, sig, strlen(sig));
  if (strcmp(what, "mbr") == 0) {
    b[510] = 0x55;
    b[511] = 0xAA;
    b[446 + 4] = 0x07; /* one entry, type NTFS/exFAT */
  }
  iospd_file_info_t info;
  memset(&info, 0, sizeof info);
  iospd_win_sniff(b, sizeof b, tables, &info);
  if (info.has_filesystem != fs || info.has_partitions != parts)
    fail_msg("%s: fs %d parts %d", what, info.has_filesystem,
             info.has_partitions);
  assert_string_equal(info.content, content);
}

/* What a raw device holds decides whether writing to it is safe. */
static void test_device_sniff(void** state) {
  (void)state;
  sniff_case("ntfs", 3, "NTFS    ", true, true, false, "an NTFS file system");
  sniff_case("refs", 3, "ReFS", false, true, false, "a ReFS file system");
  sniff_case("exfat", 3, "EXFAT   ", true, true, false, "an exFAT file system");
  sniff_case("bitlocker", 3, "-FVE-FS-", false, true, false,
             "a BitLocker-encrypted volume");
  sniff_case("fat32", 82, "FAT32   ", true, true, false, "a FAT32 file system");
  sniff_case("fat16", 54, "FAT16   ", true, true, false, "a FAT file system");
  sniff_case("gpt", 512, "EFI PART", true, false, true,
             "a GPT partition table");
  sniff_case("gpt4k", 4096, "EFI PART", true, false, true,
             "a GPT partition table");
  sniff_case("mbr", 0, NULL, true, false, true, "an MBR partition table");
  /* Volumes are not searched for partition tables. */
  sniff_case("mbr", 0, NULL, false, false, false, "");
  sniff_case("empty", 0, NULL, true, false, false, "");

  /* Bytes no signature explains are data; all zeros is empty; a found
   * signature keeps its own description. */
  static unsigned char b[1024 * 1024];
  iospd_file_info_t info;
  memset(b, 0, sizeof b);
  memset(&info, 0, sizeof info);
  iospd_win_unknown_data(b, sizeof b, &info);
  assert_false(info.has_filesystem);
  assert_string_equal(info.content, "");
  b[4096] = 0xfc; /* an md RAID 1.2 super block's first byte */
  iospd_win_unknown_data(b, sizeof b, &info);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content,
                      "data of an unknown kind (the first megabyte is not "
                      "all zeros)");
  memset(&info, 0, sizeof info);
  memcpy(b + 3, "NTFS    ", 8);
  iospd_win_sniff(b, 8192, true, &info);
  iospd_win_unknown_data(b, sizeof b, &info);
  assert_string_equal(info.content, "an NTFS file system");
}

/* The end of a device is read through a real handle: a file of 3 MiB and
 * 512 bytes stands in for a disk of 512-byte sectors whose size is not a
 * multiple of 4 KiB, so the read must reach the very last sector. */
static void test_device_tail_read(void** state) {
  (void)state;
  const uint64_t size = 3u * 1024u * 1024u + 512u;
  static unsigned char b[IOSPD_SNIFF_BYTES];
  static const struct {
    uint64_t at;
    const char* bytes;
    size_t n;
    const char* want;
    bool table;
  } cases[] = {
      {3u * 1024u * 1024u, "EFI PART", 8, "a GPT partition table", true},
      {2u * 1024u * 1024u + 4096u, "\x01", 1,
       "data of an unknown kind (the last megabyte is not all zeros)", false},
      {0, NULL, 0, "", false},
  };
  const char* name = "iospd_test_tail.tmp";
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(cases); i++) {
    FILE* f = fopen(name, "wb");
    assert_non_null(f);
    assert_int_equal(fseek(f, (long)size - 1, SEEK_SET), 0);
    assert_int_equal(fputc(0, f), 0);
    if (cases[i].bytes != NULL) {
      assert_int_equal(fseek(f, (long)cases[i].at, SEEK_SET), 0);
      assert_int_equal(fwrite(cases[i].bytes, 1, cases[i].n, f), cases[i].n);
    }
    assert_int_equal(fclose(f), 0);
    HANDLE h = CreateFileA(name, GENERIC_READ, FILE_SHARE_READ, NULL,
                           OPEN_EXISTING, 0, NULL);
    assert_true(h != INVALID_HANDLE_VALUE);
    iospd_file_info_t info;
    memset(&info, 0, sizeof info);
    info.size = size;
    iospd_win_sniff_tail(h, b, &info);
    CloseHandle(h);
    assert_string_equal(info.content, cases[i].want);
    assert_int_equal(info.has_partitions, cases[i].table);
    assert_int_equal(info.has_filesystem,
                     cases[i].bytes != NULL && !cases[i].table);
  }
  /* Content found at the start keeps the end from being read. */
  iospd_file_info_t info;
  memset(&info, 0, sizeof info);
  info.size = size;
  snprintf(info.content, sizeof info.content, "an NTFS file system");
  iospd_win_sniff_tail(INVALID_HANDLE_VALUE, b, &info);
  assert_string_equal(info.content, "an NTFS file system");
  DeleteFileA(name);
}

/* ---- CPUs ---------------------------------------------------------------- */

static void test_topology(void** state) {
  (void)state;
  iospd_cpu_topology_t t;
  iospd_err_t err;
  assert_int_equal(iospd_plat_cpu_topology(&t, &err), 0);
  assert_true(t.group_count >= 1);
  assert_int_equal(t.group_count, GetActiveProcessorGroupCount());
  assert_int_equal(t.cpu_count, GetActiveProcessorCount(ALL_PROCESSOR_GROUPS));
  assert_true(t.core_count >= 1 && t.core_count <= t.cpu_count);
  assert_true(t.node_count >= 1);
  assert_true(t.socket_count >= 1);
  assert_int_equal(t.core_mask_count, t.core_count);
  /* CPUs in (group, number) order; core masks cover each group exactly. */
  uint64_t cover = 0;
  for (uint32_t i = 0; i < t.core_mask_count; i++) {
    if (t.core_masks[i].group == 0) {
      assert_int_equal(cover & t.core_masks[i].mask, 0);
      cover |= t.core_masks[i].mask;
    }
  }
  assert_int_equal(cover, t.groups[0].active_mask);
  for (uint32_t i = 0; i < t.cpu_count; i++) {
    assert_true(t.cpus[i].active);
    if (i > 0)
      assert_true(t.cpus[i - 1].group < t.cpus[i].group ||
                  (t.cpus[i - 1].group == t.cpus[i].group &&
                   t.cpus[i - 1].number < t.cpus[i].number));
    /* The CPU's core mask contains the CPU. */
    bool found = false;
    for (uint32_t k = 0; k < t.core_mask_count; k++)
      if (t.core_masks[k].group == t.cpus[i].group &&
          t.core_masks[k].id == t.cpus[i].core)
        found = (t.core_masks[k].mask >> t.cpus[i].number) & 1;
    assert_true(found);
  }
  assert_true(t.node_mask_count >= 1);
  assert_int_equal(t.node_masks[0].mask & t.groups[0].active_mask,
                   t.node_masks[0].mask);
  iospd_plat_cpu_topology_free(&t);
  assert_null(t.cpus);
}

static uint64_t ft64(FILETIME f) {
  return ((uint64_t)f.dwHighDateTime << 32) | f.dwLowDateTime;
}

static void test_cpu_times(void** state) {
  (void)state;
  iospd_cpu_topology_t t;
  iospd_err_t err;
  assert_int_equal(iospd_plat_cpu_topology(&t, &err), 0);
  uint32_t n = t.cpu_count;
  iospd_plat_cpu_topology_free(&t);
  iospd_cpu_times_t* a = iospd_calloc(n, sizeof *a);
  iospd_cpu_times_t* b = iospd_calloc(n, sizeof *b);
  FILETIME si, sk, su;
  assert_int_equal(iospd_plat_cpu_times(a, n, &err), 0);
  assert_true(GetSystemTimes(&si, &sk, &su));
  /* Burn some CPU so user time moves. */
  volatile uint64_t x = 0;
  uint64_t t0 = GetTickCount64();
  while (GetTickCount64() - t0 < 200) x += 1;
  assert_int_equal(iospd_plat_cpu_times(b, n, &err), 0);
  uint64_t idle = 0, kern = 0, user = 0, d_total = 0;
  for (uint32_t i = 0; i < n; i++) {
    assert_true(b[i].idle >= a[i].idle);
    assert_true(b[i].kernel >= a[i].kernel);
    assert_true(b[i].user >= a[i].user);
    idle += a[i].idle;
    kern += a[i].kernel;
    user += a[i].user;
    d_total += (b[i].idle - a[i].idle) + (b[i].kernel - a[i].kernel) +
               (b[i].user - a[i].user);
  }
  /* GetSystemTimes' kernel time includes idle; ours must not: ours + idle
   * matches it (within 1 s of drift between the two reads per CPU). */
  uint64_t sys_kernel = ft64(sk);
  assert_true(kern <= sys_kernel);
  uint64_t diff = kern + idle > sys_kernel ? kern + idle - sys_kernel
                                           : sys_kernel - (kern + idle);
  if (diff > 10000000ull * n)
    fail_msg("kernel %llu + idle %llu vs system kernel %llu",
             (unsigned long long)kern, (unsigned long long)idle,
             (unsigned long long)sys_kernel);
  /* 200 ms of wall time on n CPUs: at least some of it was accounted. */
  assert_true(d_total > 0);
  (void)user;
  iospd_free(a);
  iospd_free(b);
  /* ncpu 0 is a no-op. */
  assert_int_equal(iospd_plat_cpu_times(NULL, 0, &err), 0);
}

/* ---- threads ------------------------------------------------------------- */

typedef struct {
  KAFFINITY mask;
  WORD group;
  volatile LONG ran;
} affinity_probe_t;

static void probe_fn(void* arg) {
  affinity_probe_t* p = arg;
  GROUP_AFFINITY ga;
  memset(&ga, 0, sizeof ga);
  GetThreadGroupAffinity(GetCurrentThread(), &ga);
  p->mask = ga.Mask;
  p->group = ga.Group;
  InterlockedIncrement(&p->ran);
}

static void test_thread_affinity(void** state) {
  (void)state;
  affinity_probe_t p = {0, 99, 0};
  iospd_plat_thread_t* t;
  iospd_err_t err;
  iospd_thread_opts_t o = {.pin = true, .group = 0, .cpu = 0};
  assert_int_equal(iospd_plat_thread_start(&t, &o, probe_fn, &p, &err), 0);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(p.ran, 1);
  assert_int_equal(p.mask, 1);
  assert_int_equal(p.group, 0);

  /* A CPU that does not exist: an error, and fn never runs. */
  DWORD ncpu = GetActiveProcessorCount(0);
  if (ncpu < 64) {
    affinity_probe_t q = {0, 0, 0};
    o.cpu = ncpu;
    t = (iospd_plat_thread_t*)1;
    assert_true(iospd_plat_thread_start(&t, &o, probe_fn, &q, &err) < 0);
    assert_null(t);
    assert_int_equal(q.ran, 0);
    assert_non_null(strstr(err.msg, "CPU"));
  }
  /* A whole group (-ag style): every active CPU of it. */
  affinity_probe_t g = {0, 99, 0};
  o.cpu = IOSPD_CPU_ANY;
  assert_int_equal(iospd_plat_thread_start(&t, &o, probe_fn, &g, &err), 0);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(g.ran, 1);
  assert_int_equal(g.group, 0);
  assert_int_equal(g.mask,
                   ncpu >= 64 ? ~(KAFFINITY)0 : (((KAFFINITY)1 << ncpu) - 1));
  o.group = 5;
  assert_true(iospd_plat_thread_start(&t, &o, probe_fn, &g, &err) < 0);
  assert_non_null(strstr(err.msg, "group 5 does not exist"));
  assert_int_equal(g.ran, 1);
  o.group = 0;

  /* Unpinned: runs, with the process affinity. */
  affinity_probe_t r = {0, 0, 0};
  o.pin = false;
  assert_int_equal(iospd_plat_thread_start(&t, &o, probe_fn, &r, &err), 0);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(r.ran, 1);
}

/* ---- memory -------------------------------------------------------------- */

static void test_buffers(void** state) {
  (void)state;
  uint8_t* p = iospd_plat_buf_alloc(10000, 4096, 0);
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % 4096, 0);
  for (int i = 0; i < 10000; i++)
    if (p[i] != 0) fail_msg("byte %d not zero", i);
  p[9999] = 1;
  iospd_plat_buf_free(p, 10000);
  p = iospd_plat_buf_alloc(3 << 20, 1 << 21, 0);
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % (1 << 21), 0);
  p[(3 << 20) - 1] = 1;
  iospd_plat_buf_free(p, 3 << 20);
  /* Large pages: wine (and Windows without "Lock pages in memory") refuse
   * them, and the allocation fails rather than quietly using small pages
   * (test_plat_win_run checks the run's message). */
  p = iospd_plat_buf_alloc(8192, 8192, IOSPD_BUF_LARGE_PAGES);
  assert_null(p);
}

/* ---- waiting ------------------------------------------------------------- */

static void interrupter(void* arg) {
  (void)arg;
  Sleep(50);
  iospd_plat_interrupt();
}

/* Last: interruption is sticky for the rest of the process. */
static void test_wait_interrupted(void** state) {
  (void)state;
  uint64_t t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_wait(30), 0);
  uint64_t el_ms = (iospd_plat_ticks() - t0) * 1000 / iospd_win_qpc_freq;
  assert_true(el_ms >= 20);
  iospd_err_t err;
  assert_int_equal(iospd_plat_on_interrupt(NULL, NULL, &err), 0);

  iospd_plat_thread_t* t;
  iospd_thread_opts_t o = {.pin = false};
  assert_int_equal(iospd_plat_thread_start(&t, &o, interrupter, NULL, &err), 0);
  t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_wait(20000), 1);
  el_ms = (iospd_plat_ticks() - t0) * 1000 / iospd_win_qpc_freq;
  assert_true(el_ms < 10000);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(iospd_plat_wait(UINT32_MAX), 1);
}

static void count_cb(void* arg) {
  InterlockedIncrement((volatile LONG*)arg);
}

/* The console handler: the first Ctrl-C or Ctrl-Break calls the callback
 * and is handled; the second is handled too (it only writes the notice:
 * the results measured so far are still written); a third is left to the
 * default handler, which ends the process, and so is closing the
 * console. */
static void test_ctrl_c(void** state) {
  (void)state;
  volatile LONG calls = 0;
  iospd_err_t err;
  assert_int_equal(iospd_plat_on_interrupt(count_cb, (void*)&calls, &err), 0);
  assert_int_equal(iospd_win_ctrl_handler(CTRL_CLOSE_EVENT), FALSE);
  assert_int_equal(calls, 0);
  assert_int_equal(iospd_win_ctrl_handler(CTRL_C_EVENT), TRUE);
  assert_int_equal(calls, 1);
  assert_int_equal(iospd_win_ctrl_handler(CTRL_BREAK_EVENT), TRUE);
  assert_int_equal(calls, 1);
  assert_int_equal(iospd_win_ctrl_handler(CTRL_C_EVENT), FALSE);
  assert_int_equal(calls, 1);
  assert_int_equal(iospd_plat_wait(20000), 1);
  assert_int_equal(iospd_plat_on_interrupt(NULL, NULL, &err), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_utf16_round_trip),
      cmocka_unit_test(test_target_mapping),
      cmocka_unit_test(test_iocp_round_trip),
      cmocka_unit_test(test_completion_routines_round_trip),
      cmocka_unit_test(test_offsets_past_4gib),
      cmocka_unit_test(test_failing_submit_reaped),
      cmocka_unit_test(test_short_submit),
      cmocka_unit_test(test_pending_io),
      cmocka_unit_test(test_sync_handle),
      cmocka_unit_test(test_file_errors_and_create),
      cmocka_unit_test(test_volume_info),
      cmocka_unit_test(test_device_sniff),
      cmocka_unit_test(test_device_tail_read),
      cmocka_unit_test(test_topology),
      cmocka_unit_test(test_cpu_times),
      cmocka_unit_test(test_thread_affinity),
      cmocka_unit_test(test_buffers),
      cmocka_unit_test(test_wait_interrupted),
      cmocka_unit_test(test_ctrl_c),
  };
  return cmocka_run_group_tests_name("plat_win", tests, setup, NULL);
}
