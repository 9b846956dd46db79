/* SPDX-License-Identifier: MIT */
/* The completion port's bookkeeping under wine (issue #26): a completion
 * for a slot the kernel does not hold (the packet a synchronous warning
 * status still queues, or any stray post) is dropped and counted, never
 * completed twice; a port that fails stops teardown at once; system
 * messages arrive whole however long they are, and a status with no Win32
 * code keeps its NTSTATUS. */
#include "test_util.h"

#include <wchar.h>

#include "iospd/alloc.h"
#include "win/internal.h"

#define KB 1024u

static char tmpdir[MAX_PATH * 3];

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

/* The table: which returns of an overlapped ReadFile/WriteFile leave a
 * completion packet due. */
static void test_packet_due_table(void** state) {
  (void)state;
  static const struct {
    BOOL ok;
    DWORD e;
    ULONG_PTR internal;
    bool due;
  } rows[] = {
      {TRUE, ERROR_SUCCESS, 0, true},            /* done at once */
      {FALSE, ERROR_IO_PENDING, 0x103, true},    /* pending */
      {FALSE, ERROR_ACCESS_DENIED, 0x103, false}, /* failed before any IRP */
      {FALSE, ERROR_HANDLE_EOF, 0xC0000011, false}, /* STATUS_END_OF_FILE */
      {FALSE, ERROR_INVALID_PARAMETER, 0xC000000D, false},
      /* STATUS_VERIFY_REQUIRED, a warning: the packet still comes. */
      {FALSE, ERROR_MEDIA_CHANGED, 0x80000016, true},
      /* STATUS_BUFFER_OVERFLOW, a warning too. */
      {FALSE, ERROR_MORE_DATA, 0x80000005, true},
      /* An informational status. */
      {FALSE, ERROR_MR_MID_NOT_FOUND, 0x40000000, true},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (iospd_win_io_packet_due(rows[i].ok, rows[i].e, rows[i].internal) !=
        rows[i].due)
      fail_msg("row %u: status 0x%08lx", (unsigned)i,
               (unsigned long)rows[i].internal);
}

/* A real read (tag 0) and a write that fails at once on a read-only handle
 * (tag 1), then a completion packet posted for the failed slot, as the I/O
 * manager queues one after a synchronous warning status: every tag comes
 * back exactly once, the post is dropped and counted, the free count never
 * exceeds the depth, nothing is in flight at the end. Before the owner
 * state the post completed tag 1 a second time, in-flight wrapped to
 * 4294967295 and the free count reached depth + 1. */
static void test_stray_packet_dropped(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  snprintf(path, sizeof path, "%siospd_stray.dat", tmpdir);
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, 64 * KB, true, &err), 0);
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_plat_queue_t* q = NULL;
  const uint32_t depth = 2;
  assert_int_equal(iospd_win_iocp_create(&q, depth, 0, &err), 0);
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(8 * KB, 4096, 0);
  assert_non_null(buf);
  iospd_io_t ios[2] = {
      {.tag = 0, .op = IOSPD_OP_READ, .file_index = fi, .offset = 4096,
       .length = 4096, .buf = buf},
      {.tag = 1, .op = IOSPD_OP_WRITE, .file_index = fi, .offset = 0,
       .length = 4096, .buf = buf + 4096}};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 2, &acc), 0);
  assert_int_equal(acc, 2);
  iospd_win_iocp_probe_t p;
  iospd_win_iocp_probe(q, &p);
  assert_int_equal(p.nfree, 0);
  assert_int_equal(p.inflight, 1); /* the read; the write failed at once */

  /* The packet for the failed slot. */
  OVERLAPPED* failed = iospd_win_iocp_slot_ov(q, 1);
  assert_non_null(failed);
  assert_true(PostQueuedCompletionStatus(p.port, 4096, 0, failed));
  /* And one for an address that is no slot at all. */
  static OVERLAPPED foreign;
  assert_true(PostQueuedCompletionStatus(p.port, 4096, 0, &foreign));

  unsigned seen[2] = {0, 0};
  int32_t result[2] = {0, 0};
  for (int loops = 0; loops < 20; loops++) {
    iospd_cqe_t c[8];
    uint32_t got = 0;
    assert_int_equal(iospd_plat_queue_reap(q, c, 8, 0, 100, &got), 0);
    for (uint32_t i = 0; i < got; i++) {
      assert_true(c[i].tag < 2);
      seen[c[i].tag]++;
      result[c[i].tag] = c[i].result;
    }
    iospd_win_iocp_probe(q, &p);
    assert_true(p.nfree <= depth);
    assert_true(p.inflight <= depth);
    if (seen[0] && seen[1] && p.dropped >= 2) break;
  }
  assert_int_equal(seen[0], 1);
  assert_int_equal(seen[1], 1);
  assert_int_equal(result[0], 4096);
  assert_int_equal(result[1], IOSPD_EACCES);
  /* Poll once more: nothing else may come back. */
  iospd_cqe_t c[8];
  uint32_t got = 7;
  assert_int_equal(iospd_plat_queue_reap(q, c, 8, 0, 0, &got), 0);
  assert_int_equal(got, 0);
  iospd_win_iocp_probe(q, &p);
  assert_int_equal(p.dropped, 2);
  assert_int_equal(p.nfree, depth);
  assert_int_equal(p.inflight, 0);
  /* Both slots can be used again, each once. */
  ios[1].op = IOSPD_OP_READ;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 2, &acc), 0);
  assert_int_equal(acc, 2);
  seen[0] = seen[1] = 0;
  for (int loops = 0; loops < 20 && seen[0] + seen[1] < 2; loops++) {
    assert_int_equal(iospd_plat_queue_reap(q, c, 8, 1, 1000, &got), 0);
    for (uint32_t i = 0; i < got; i++) seen[c[i].tag]++;
  }
  assert_int_equal(seen[0], 1);
  assert_int_equal(seen[1], 1);
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_plat_buf_free(buf, 8 * KB);
  iospd_plat_file_close(f);
  delete_utf8(path);
}

/* A port that fails (not a timeout). */
static unsigned fake_calls;
static BOOL WINAPI failing_gqcs(HANDLE port, LPOVERLAPPED_ENTRY ents,
                                ULONG count, PULONG removed, DWORD ms,
                                BOOL alertable) {
  (void)port;
  (void)ents;
  (void)count;
  (void)ms;
  (void)alertable;
  fake_calls++;
  *removed = 0;
  SetLastError(ERROR_INVALID_HANDLE);
  return FALSE;
}

/* Teardown with an I/O in flight and a port that fails: destroy stops after
 * the first failure and leaks the slots (the kernel may still own them)
 * rather than asking again for 60 s at full speed (before: about a million
 * calls, and the test's 60 s timeout). */
static void test_teardown_stops_on_port_failure(void** state) {
  (void)state;
  char path[MAX_PATH * 3];
  snprintf(path, sizeof path, "%siospd_gqcs.dat", tmpdir);
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create(path, 64 * KB, true, &err), 0);
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_ASYNC};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), 0);
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(iospd_win_iocp_create(&q, 2, 0, &err), 0);
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(4 * KB, 4096, 0);
  iospd_io_t io = {.tag = 0, .op = IOSPD_OP_READ, .file_index = fi,
                   .offset = 0, .length = 4096, .buf = buf};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, &io, 1, &acc), 0);
  assert_int_equal(acc, 1);
  iospd_win_iocp_probe_t p;
  iospd_win_iocp_probe(q, &p);
  assert_int_equal(p.inflight, 1);
  HANDLE port = p.port;

  fake_calls = 0;
  iospd_win_gqcs_ex = failing_gqcs;
  ULONGLONG t0 = GetTickCount64();
  int rc = iospd_plat_queue_destroy(q);
  ULONGLONG took = GetTickCount64() - t0;
  iospd_win_gqcs_ex = GetQueuedCompletionStatusEx;
  assert_int_equal(rc, IOSPD_EIO); /* leaked, not freed under the kernel */
  assert_int_equal(fake_calls, 1);
  assert_true(took < 5000);
  /* The read's packet is still there: take it before the buffer goes. */
  DWORD bytes;
  ULONG_PTR key;
  OVERLAPPED* ov = NULL;
  assert_true(GetQueuedCompletionStatus(port, &bytes, &key, &ov, 5000));
  assert_int_equal(bytes, 4096);
  iospd_plat_buf_free(buf, 4 * KB);
  iospd_plat_file_close(f);
  delete_utf8(path);
}

/* A message longer than the old 160-character buffer arrives whole, in
 * UTF-8, on one line. FORMAT_MESSAGE_FROM_STRING stands for a long
 * localized system message. */
static void test_long_message(void** state) {
  (void)state;
  WCHAR src[1300];
  size_t n = 0;
  for (int i = 0; i < 60; i++) {
    /* "Gerät nicht bereit " (19 characters, one of them not ASCII) */
    const WCHAR* part = L"Ger\x00e4t nicht bereit ";
    wcscpy(src + n, part);
    n += wcslen(part);
  }
  wcscpy(src + n, L"Ende.\r\n");
  char out[2048];
  size_t len = iospd_win_format_message(FORMAT_MESSAGE_FROM_STRING, src, 0,
                                        out, sizeof out);
  /* 60 parts of 19 characters (20 bytes in UTF-8) and "Ende". */
  assert_int_equal(len, 60 * 20 + 4);
  assert_int_equal(strlen(out), len);
  assert_memory_equal(out, "Ger\xc3\xa4t nicht bereit ", 20);
  assert_string_equal(out + len - 4, "Ende");
  assert_null(strchr(out, '\n'));

  /* The system table: every message comes back as long as the system
   * made it (the longest one wine has is over 160 characters or not;
   * either way none is cut). */
  size_t longest = 0;
  DWORD longest_code = 0;
  for (DWORD code = 1; code < 16000; code++) {
    WCHAR* w = NULL;
    DWORD k = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM |
                                 FORMAT_MESSAGE_ALLOCATE_BUFFER |
                                 FORMAT_MESSAGE_IGNORE_INSERTS,
                             NULL, code, 0, (LPWSTR)&w, 0, NULL);
    if (k > longest) {
      longest = k;
      longest_code = code;
    }
    if (w != NULL) LocalFree(w);
  }
  if (longest > 0) {
    char text[IOSPD_ERR_MSG_MAX];
    iospd_win_error_text(longest_code, text, sizeof text);
    char tail[32];
    snprintf(tail, sizeof tail, "(error %lu)", (unsigned long)longest_code);
    assert_non_null(strstr(text, tail));
    /* At most the trailing ".\r\n" and blanks were dropped. */
    assert_true(strlen(text) + 4 >= longest + strlen(tail) + 1);
    print_message("longest system message: error %lu, %u characters\n",
                  (unsigned long)longest_code, (unsigned)longest);
  }
}

/* A status that maps to no Win32 code keeps its NTSTATUS in the text; a
 * mapped one carries both numbers. */
static void test_status_text(void** state) {
  (void)state;
  char text[IOSPD_ERR_MSG_MAX];
  /* An error status of a facility no table knows: no Win32 code. */
  NTSTATUS unmapped = (NTSTATUS)0xC0EE0001UL;
  assert_int_equal(iospd_win_ntstatus_to_win32(unmapped),
                   ERROR_MR_MID_NOT_FOUND);
  iospd_win_status_text(unmapped, text, sizeof text);
  if (strstr(text, "(NTSTATUS 0xC0EE0001)") == NULL)
    fail_msg("text: %s", text);
  NTSTATUS not_ready = (NTSTATUS)0xC00000A3UL; /* STATUS_DEVICE_NOT_READY */
  iospd_win_status_text(not_ready, text, sizeof text);
  if (strstr(text, "(error 21, NTSTATUS 0xC00000A3)") == NULL)
    fail_msg("text: %s", text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_packet_due_table),
      cmocka_unit_test(test_stray_packet_dropped),
      cmocka_unit_test(test_teardown_stops_on_port_failure),
      cmocka_unit_test(test_long_message),
      cmocka_unit_test(test_status_text),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
