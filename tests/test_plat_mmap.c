/* SPDX-License-Identifier: MIT */
/* Memory-mapped I/O (-Sm) and named events (-y) through platform.h only, so
 * the same file runs natively on Linux and under wine against src/win:
 * mapped writes read back through an ordinary queue (plain, -Nv and -Smw
 * non-temporal copies), ordinary writes read back through the mapped queue,
 * mapped and ordinary files in one queue, the end of the file, refusals,
 * and manual-reset named events. */
#include <errno.h>

#include "iospd/ntcopy.h"
#include "iospd/platform.h"
#include "iospd/profile.h"
#include "plat_test_util.h"
#include "test_util.h"

#define BLOCK 4096u
#define NBLOCKS 16u
#define DEPTH 8u
#define TMP_MAP "iospd_test_mmap.tmp"
#define TMP_PLAIN "iospd_test_mmap_plain.tmp"

static iospd_sysinfo_t sysinfo;

static uint8_t pattern_byte(uint32_t block, uint32_t pass, uint32_t i) {
  return (uint8_t)(block * 29u + pass * 11u + i * 7u + (i >> 9));
}

static void create(const char* path, uint64_t size) {
  iospd_err_t err;
  if (iospd_plat_file_create(path, size, false, &err) != 0)
    fail_msg("file_create %s: %s", path, err.msg);
}

static iospd_plat_file_t* open_file(const char* path, unsigned flags) {
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_open_opts_t o = {path, IOSPD_OPEN_READ | IOSPD_OPEN_WRITE | flags};
  iospd_plat_file_t* f = NULL;
  if (iospd_plat_file_open(&f, &o, &err) != 0)
    fail_msg("open %s (flags 0x%x): %s", path, flags, err.msg);
  return f;
}

static iospd_plat_queue_t* new_queue(void) {
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  if (iospd_plat_queue_create(&q, DEPTH, 0, IOSPD_ENGINE_AUTO, &err) != 0)
    fail_msg("queue_create: %s", err.msg);
  return q;
}

static uint32_t attach(iospd_plat_queue_t* q, iospd_plat_file_t* f) {
  iospd_err_t err;
  uint32_t fi = 0;
  if (iospd_plat_queue_attach(q, f, &fi, &err) != 0)
    fail_msg("attach: %s", err.msg);
  return fi;
}

/* Runs n I/Os (tags = indexes) and returns each result in results[tag]. */
static void run_ios(iospd_plat_queue_t* q, const iospd_io_t* ios, uint32_t n,
                    int32_t* results) {
  plat_test_run_ios(q, ios, n, DEPTH, results);
}

/* NBLOCKS I/Os of one op on file index fi, blocks in reverse file order so
 * a mixed-up offset or buffer shows as a mismatch. */
static void make_ios(iospd_io_t* ios, uint8_t op, uint32_t fi, uint8_t* buf) {
  for (uint32_t b = 0; b < NBLOCKS; b++)
    ios[b] = (iospd_io_t){.tag = b,
                          .op = op,
                          .file_index = fi,
                          .offset = (uint64_t)(NBLOCKS - 1 - b) * BLOCK,
                          .length = BLOCK,
                          .buf = buf + (size_t)b * BLOCK};
}

static void fill_blocks(uint8_t* buf, uint32_t pass) {
  for (uint32_t b = 0; b < NBLOCKS; b++)
    for (uint32_t i = 0; i < BLOCK; i++)
      buf[b * BLOCK + i] = pattern_byte(b, pass, i);
}

static void check_blocks(const uint8_t* buf, uint32_t pass, const char* what) {
  for (uint32_t b = 0; b < NBLOCKS; b++)
    for (uint32_t i = 0; i < BLOCK; i++)
      if (buf[b * BLOCK + i] != pattern_byte(b, pass, i))
        fail_msg("%s: block %u byte %u is %u, expected %u", what, b, i,
                 buf[b * BLOCK + i], pattern_byte(b, pass, i));
}

static void check_all_full(const int32_t* res, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) assert_int_equal(res[i], (int32_t)BLOCK);
}

/* Writes through a mapped queue opened with mflags, then reads the file
 * back through an ordinary queue. */
static void mapped_write_plain_read(unsigned mflags, uint32_t pass,
                                    const char* what) {
  const size_t len = NBLOCKS * BLOCK;
  create(TMP_MAP, len);
  uint8_t* buf = iospd_plat_buf_alloc(len, BLOCK, 0);
  assert_non_null(buf);
  iospd_io_t ios[NBLOCKS];
  int32_t res[NBLOCKS];

  iospd_plat_file_t* f = open_file(TMP_MAP, IOSPD_OPEN_MAPPED | mflags);
  iospd_plat_queue_t* q = new_queue();
  fill_blocks(buf, pass);
  make_ios(ios, IOSPD_OP_WRITE, attach(q, f), buf);
  run_ios(q, ios, NBLOCKS, res);
  check_all_full(res, NBLOCKS);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);

  memset(buf, 0, len);
  f = open_file(TMP_MAP, IOSPD_OPEN_ASYNC);
  q = new_queue();
  make_ios(ios, IOSPD_OP_READ, attach(q, f), buf);
  run_ios(q, ios, NBLOCKS, res);
  check_all_full(res, NBLOCKS);
  check_blocks(buf, pass, what);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, len);
}

static void test_mapped_write_plain(void** state) {
  (void)state;
  mapped_write_plain_read(0, 1, "-Sm");
}

static void test_mapped_write_flush_view(void** state) {
  (void)state;
  mapped_write_plain_read(IOSPD_OPEN_FLUSH_VIEW, 2, "-Sm -Nv");
}

static void test_mapped_write_nontemporal(void** state) {
  (void)state;
  mapped_write_plain_read(IOSPD_OPEN_WRITE_THROUGH, 3, "-Smw");
}

/* Ordinary writes of a pattern, read back through the mapped queue. */
static void plain_write_mapped_read(unsigned mflags, uint32_t pass,
                                    const char* what) {
  const size_t len = NBLOCKS * BLOCK;
  create(TMP_MAP, len);
  uint8_t* buf = iospd_plat_buf_alloc(len, BLOCK, 0);
  assert_non_null(buf);
  iospd_io_t ios[NBLOCKS];
  int32_t res[NBLOCKS];

  iospd_plat_file_t* f = open_file(TMP_MAP, IOSPD_OPEN_ASYNC);
  iospd_plat_queue_t* q = new_queue();
  fill_blocks(buf, pass);
  make_ios(ios, IOSPD_OP_WRITE, attach(q, f), buf);
  run_ios(q, ios, NBLOCKS, res);
  check_all_full(res, NBLOCKS);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);

  memset(buf, 0, len);
  f = open_file(TMP_MAP, IOSPD_OPEN_MAPPED | mflags);
  q = new_queue();
  make_ios(ios, IOSPD_OP_READ, attach(q, f), buf);
  run_ios(q, ios, NBLOCKS, res);
  check_all_full(res, NBLOCKS);
  check_blocks(buf, pass, what);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, len);
}

static void test_mapped_read_plain(void** state) {
  (void)state;
  plain_write_mapped_read(0, 4, "-Sm read");
}

static void test_mapped_read_nontemporal(void** state) {
  (void)state;
  plain_write_mapped_read(IOSPD_OPEN_WRITE_THROUGH, 5, "-Smw read");
}

/* One queue, one mapped and one ordinary file, I/Os interleaved in each
 * submit: both land where they should. */
static void test_mixed_queue(void** state) {
  (void)state;
  const size_t len = NBLOCKS * BLOCK;
  create(TMP_MAP, len);
  create(TMP_PLAIN, len);
  uint8_t* buf = iospd_plat_buf_alloc(2 * len, BLOCK, 0);
  assert_non_null(buf);
  iospd_plat_file_t* fm = open_file(TMP_MAP, IOSPD_OPEN_MAPPED);
  iospd_plat_file_t* fp = open_file(TMP_PLAIN, IOSPD_OPEN_ASYNC);
  iospd_plat_queue_t* q = new_queue();
  uint32_t im = attach(q, fm), ip = attach(q, fp);
  assert_int_not_equal(im, ip);
  iospd_io_t ios[2 * NBLOCKS];
  int32_t res[2 * NBLOCKS];
  fill_blocks(buf, 6);
  fill_blocks(buf + len, 7);
  /* Even tags to the mapped file, odd to the ordinary one. */
  for (uint32_t b = 0; b < NBLOCKS; b++) {
    ios[2 * b] = (iospd_io_t){.tag = 2 * b,
                              .op = IOSPD_OP_WRITE,
                              .file_index = im,
                              .offset = (uint64_t)b * BLOCK,
                              .length = BLOCK,
                              .buf = buf + (size_t)b * BLOCK};
    ios[2 * b + 1] = (iospd_io_t){.tag = 2 * b + 1,
                                  .op = IOSPD_OP_WRITE,
                                  .file_index = ip,
                                  .offset = (uint64_t)b * BLOCK,
                                  .length = BLOCK,
                                  .buf = buf + len + (size_t)b * BLOCK};
  }
  run_ios(q, ios, 2 * NBLOCKS, res);
  for (uint32_t i = 0; i < 2 * NBLOCKS; i++)
    assert_int_equal(res[i], (int32_t)BLOCK);
  memset(buf, 0, 2 * len);
  for (uint32_t i = 0; i < 2 * NBLOCKS; i++) ios[i].op = IOSPD_OP_READ;
  run_ios(q, ios, 2 * NBLOCKS, res);
  for (uint32_t i = 0; i < 2 * NBLOCKS; i++)
    assert_int_equal(res[i], (int32_t)BLOCK);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(fm);
  iospd_plat_file_close(fp);
  /* Block b went to offset b in both files (not reversed here). */
  for (uint32_t b = 0; b < NBLOCKS; b++)
    for (uint32_t i = 0; i < BLOCK; i++) {
      assert_int_equal(buf[b * BLOCK + i], pattern_byte(b, 6, i));
      assert_int_equal(buf[len + b * BLOCK + i], pattern_byte(b, 7, i));
    }
  iospd_plat_buf_free(buf, 2 * len);
}

/* The end of the file: a read that starts there moves nothing, one that
 * straddles it is cut short, as pread would. */
static void test_mapped_end_of_file(void** state) {
  (void)state;
  create(TMP_MAP, 3 * BLOCK);
  uint8_t* buf = iospd_plat_buf_alloc(2 * BLOCK, BLOCK, 0);
  assert_non_null(buf);
  iospd_plat_file_t* f = open_file(TMP_MAP, IOSPD_OPEN_MAPPED);
  iospd_plat_queue_t* q = new_queue();
  uint32_t fi = attach(q, f);
  iospd_io_t ios[2] = {{.tag = 0,
                        .op = IOSPD_OP_READ,
                        .file_index = fi,
                        .offset = 3 * BLOCK,
                        .length = BLOCK,
                        .buf = buf},
                       {.tag = 1,
                        .op = IOSPD_OP_READ,
                        .file_index = fi,
                        .offset = 2 * BLOCK + 512,
                        .length = BLOCK,
                        .buf = buf + BLOCK}};
  int32_t res[2];
  run_ios(q, ios, 2, res);
  assert_int_equal(res[0], 0);
  assert_int_equal(res[1], (int32_t)(BLOCK - 512));
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, 2 * BLOCK);
}

/* Another process truncates the file under the mapping: a copy from or to
 * a page past the new end cannot be done (SIGBUS on Linux, an in-page error
 * on Windows). The I/O must complete with IOSPD_EMAPFAULT, not kill the
 * process. Windows itself refuses to truncate a file with a mapped view, so
 * there the truncation is skipped when it is refused. */
static void mapped_truncated(unsigned mflags) {
  create(TMP_MAP, 4 * BLOCK);
  uint8_t* buf = iospd_plat_buf_alloc(3 * BLOCK, BLOCK, 0);
  assert_non_null(buf);
  memset(buf, 0x5a, 3 * BLOCK);
  iospd_plat_file_t* f = open_file(TMP_MAP, IOSPD_OPEN_MAPPED | mflags);
  iospd_plat_queue_t* q = new_queue();
  uint32_t fi = attach(q, f);
  iospd_io_t ios[3] = {
      {.tag = 0, .op = IOSPD_OP_READ, .file_index = fi, .offset = BLOCK,
       .length = BLOCK, .buf = buf},
      {.tag = 1, .op = IOSPD_OP_WRITE, .file_index = fi, .offset = 2 * BLOCK,
       .length = BLOCK, .buf = buf + BLOCK},
      {.tag = 2, .op = IOSPD_OP_READ, .file_index = fi, .offset = 3 * BLOCK,
       .length = BLOCK, .buf = buf + 2 * BLOCK}};
  int32_t res[3];
  run_ios(q, ios, 3, res);
  check_all_full(res, 3);
  FILE* t = fopen(TMP_MAP, "wb"); /* truncates to 0 bytes, in place */
  if (t == NULL) {
    printf("note: the OS refused to truncate a mapped file (%s); the "
           "in-page fault case cannot arise here\n",
           strerror(errno));
  } else {
    fclose(t);
    run_ios(q, ios, 3, res);
    assert_int_equal(res[0], IOSPD_EMAPFAULT);
    assert_int_equal(res[1], IOSPD_EMAPFAULT);
    assert_int_equal(res[2], IOSPD_EMAPFAULT);
  }
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, 3 * BLOCK);
}

static void test_mapped_truncated(void** state) {
  (void)state;
  mapped_truncated(0);
  mapped_truncated(IOSPD_OPEN_WRITE_THROUGH); /* non-temporal copies */
}

/* An empty file has nothing to map: attach says so. */
static void test_mapped_empty_refused(void** state) {
  (void)state;
  create(TMP_MAP, 0);
  iospd_plat_file_t* f = open_file(TMP_MAP, IOSPD_OPEN_MAPPED);
  iospd_plat_queue_t* q = new_queue();
  iospd_err_t err;
  iospd_err_clear(&err);
  uint32_t fi = 0;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), IOSPD_EINVAL);
  assert_non_null(strstr(err.msg, "empty"));
  assert_non_null(strstr(err.msg, TMP_MAP));
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
}

/* -Nn/-Ni: Linux has no such flush, and Windows needs ntdll's persistent
 * memory calls and a DAX volume (not a temp file, nor wine): a clear
 * refusal at open, never a silent plain copy. */
static void test_nv_flush_refused_off_pmem(void** state) {
  (void)state;
  create(TMP_MAP, 4 * BLOCK);
  const unsigned modes[] = {IOSPD_OPEN_FLUSH_NV, IOSPD_OPEN_FLUSH_NV_NODRAIN};
  for (size_t m = 0; m < 2; m++) {
    iospd_err_t err;
    iospd_err_clear(&err);
    iospd_open_opts_t o = {TMP_MAP, IOSPD_OPEN_READ | IOSPD_OPEN_WRITE |
                                        IOSPD_OPEN_MAPPED | modes[m]};
    iospd_plat_file_t* f = NULL;
    int rc = iospd_plat_file_open(&f, &o, &err);
    if (rc == 0) {
      /* A real persistent-memory volume: then it must work. */
      printf("note: %s is on persistent memory; -Nn accepted\n", TMP_MAP);
      iospd_plat_file_close(f);
      continue;
    }
    assert_int_equal(rc, IOSPD_ENOTSUP);
    assert_null(f);
    assert_non_null(strstr(err.msg, "-Nn"));
    assert_non_null(strstr(err.msg, TMP_MAP));
  }
}

/* The copy itself, at every head misalignment and odd lengths. */
static void test_nontemporal_copy(void** state) {
  (void)state;
  uint8_t src[300], dst[340];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 7 + 3);
  const size_t lens[] = {0, 1, 15, 16, 17, 64, 255, 256, 300 - 16};
  for (size_t d = 0; d < 16; d++)
    for (size_t s = 0; s < 16; s += 5)
      for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        memset(dst, 0xee, sizeof dst);
        iospd_copy_nontemporal(dst + d, src + s, lens[l]);
        assert_memory_equal(dst + d, src + s, lens[l]);
        for (size_t i = 0; i < d; i++) assert_int_equal(dst[i], 0xee);
        for (size_t i = d + lens[l]; i < sizeof dst; i++)
          assert_int_equal(dst[i], 0xee);
      }
}

/* ---- named events -------------------------------------------------------- */

static void test_event_manual_reset(void** state) {
  (void)state;
  char name[64];
  snprintf(name, sizeof name, "iospd-test-%llu",
           (unsigned long long)(iospd_plat_ticks() % 1000000007ull));
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_plat_event_t* a = NULL;
  iospd_plat_event_t* b = NULL;
  /* Opening an absent event without create fails and names it. */
  assert_int_equal(iospd_plat_event_open(name, false, &b, &err), IOSPD_ENOENT);
  assert_null(b);
  assert_non_null(strstr(err.msg, name));

  assert_int_equal(iospd_plat_event_open(name, true, &a, &err), 0);
  assert_int_equal(iospd_plat_event_wait(a, 0), 0);
  uint64_t t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_event_wait(a, 60), 0);
  uint64_t waited_ms =
      (iospd_plat_ticks() - t0) * 1000u / sysinfo.ticks_per_second;
  assert_in_range(waited_ms, 40, 5000);

  /* A second opener (as -ye is) sets it; everyone sees it, repeatedly. */
  assert_int_equal(iospd_plat_event_open(name, false, &b, &err), 0);
  assert_int_equal(iospd_plat_event_set(b, &err), 0);
  assert_int_equal(iospd_plat_event_set(b, &err), 0);
  assert_int_equal(iospd_plat_event_wait(a, 0), 1);
  assert_int_equal(iospd_plat_event_wait(a, 0), 1);
  assert_int_equal(iospd_plat_event_wait(b, 100), 1);
  assert_int_equal(iospd_plat_event_wait(a, UINT32_MAX), 1);
  iospd_plat_event_close(b);
  iospd_plat_event_close(a);
  /* Gone with its last handle. */
  b = NULL;
  assert_int_equal(iospd_plat_event_open(name, false, &b, &err), IOSPD_ENOENT);
  iospd_plat_event_close(NULL);
}

/* An event, and its state, lives while any handle is open, not only its
 * creator's (as a Windows named event does); with the last handle it goes,
 * and the name starts afresh, not set. */
static void test_event_lives_with_any_handle(void** state) {
  (void)state;
  char name[64];
  snprintf(name, sizeof name, "iospd-test-any-%llu",
           (unsigned long long)(iospd_plat_ticks() % 1000000007ull));
  iospd_err_t err;
  iospd_err_clear(&err);
  iospd_plat_event_t* a = NULL;
  iospd_plat_event_t* b = NULL;
  iospd_plat_event_t* c = NULL;
  assert_int_equal(iospd_plat_event_open(name, true, &a, &err), 0);
  assert_false(iospd_plat_event_was_stale(a));
  assert_int_equal(iospd_plat_event_open(name, true, &b, &err), 0);
  assert_false(iospd_plat_event_was_stale(b));
  assert_int_equal(iospd_plat_event_set(a, &err), 0);
  iospd_plat_event_close(a); /* the creator goes; b keeps it */
  assert_int_equal(iospd_plat_event_open(name, false, &c, &err), 0);
  assert_int_equal(iospd_plat_event_wait(c, 0), 1);
  iospd_plat_event_close(c);
  assert_int_equal(iospd_plat_event_wait(b, 0), 1);
  iospd_plat_event_close(b);
  c = NULL;
  assert_int_equal(iospd_plat_event_open(name, false, &c, &err), IOSPD_ENOENT);
  assert_int_equal(iospd_plat_event_open(name, true, &c, &err), 0);
  assert_false(iospd_plat_event_was_stale(c));
  assert_int_equal(iospd_plat_event_wait(c, 0), 0);
  iospd_plat_event_close(c);
}

int main(void) {
  iospd_err_t err;
  if (iospd_plat_init(&sysinfo, &err) != 0) {
    fprintf(stderr, "platform init failed: %s\n", err.msg);
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mapped_write_plain),
      cmocka_unit_test(test_mapped_write_flush_view),
      cmocka_unit_test(test_mapped_write_nontemporal),
      cmocka_unit_test(test_mapped_read_plain),
      cmocka_unit_test(test_mapped_read_nontemporal),
      cmocka_unit_test(test_mixed_queue),
      cmocka_unit_test(test_mapped_end_of_file),
      cmocka_unit_test(test_mapped_truncated),
      cmocka_unit_test(test_mapped_empty_refused),
      cmocka_unit_test(test_nv_flush_refused_off_pmem),
      cmocka_unit_test(test_nontemporal_copy),
      cmocka_unit_test(test_event_manual_reset),
      cmocka_unit_test(test_event_lives_with_any_handle),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  remove(TMP_MAP);
  remove(TMP_PLAIN);
  iospd_plat_shutdown();
  return rc;
}
