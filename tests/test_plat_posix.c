/* SPDX-License-Identifier: MIT */
/* Linux-only checks of src/posix: every engine explicitly (run with argument
 * "uring" for io_uring, which exits 77 when the kernel refuses it, "libaio"
 * or "threads"; psync without an argument), short
 * submits, I/O errors in completions, device signature detection on crafted
 * images, refused Windows target forms, affinity, the Ctrl-C and SIGTERM
 * path, -c that never costs data (src/posix/create.c) and the count of
 * never-written bytes (src/posix/extents.c). */
#include <dirent.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "iospd/device_sniff.h"
#include "iospd/profile.h"
#include "posix/internal.h"
#include "test_util.h"

#define BLOCK 4096u
#define NBLOCKS 8u
/* One file per engine run: ctest -j runs the psync and io_uring
 * invocations of this test at the same time in the same folder. */
static const char* TMP_NAME = "iospd_test_plat_posix.tmp";

/* Engines are indexes into the platform's table, found by their word. */
#define ENGINE(word) iospd_engine_choice_parse(word)
static int engine = -1; /* psync unless main says otherwise */
static const char* engine_name = "psync";

static void create_tmp(uint64_t size) {
  iospd_err_t err;
  if (iospd_plat_file_create(TMP_NAME, size, false, &err) != 0)
    fail_msg("file_create: %s", err.msg);
}

static iospd_plat_file_t* open_tmp(unsigned flags) {
  iospd_err_t err;
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {TMP_NAME, flags};
  if (iospd_plat_file_open(&f, &o, &err) != 0) fail_msg("open: %s", err.msg);
  return f;
}

/* Unbuffered opens skip the test where the file system refuses O_DIRECT. */
static iospd_plat_file_t* open_tmp_direct(unsigned flags) {
  iospd_err_t err;
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {TMP_NAME, flags | IOSPD_OPEN_NO_BUFFERING};
  int rc = iospd_plat_file_open(&f, &o, &err);
  if (rc == IOSPD_ENOTSUP) {
    printf("skipped: %s\n", err.msg);
    skip();
  }
  if (rc != 0) fail_msg("open: %s", err.msg);
  return f;
}

static iospd_plat_queue_t* make_queue(uint32_t depth) {
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  if (iospd_plat_queue_create(&q, depth, 0, engine, &err) != 0)
    fail_msg("queue_create: %s", err.msg);
  assert_string_equal(iospd_plat_queue_engine(q), engine_name);
  return q;
}

static uint32_t reap_all(iospd_plat_queue_t* q, iospd_cqe_t* out,
                         uint32_t want) {
  uint32_t have = 0;
  while (have < want) {
    uint32_t got = 0;
    assert_int_equal(
        iospd_plat_queue_reap(q, out + have, want - have, 1, 10000, &got), 0);
    assert_in_range(got, 1, want - have);
    have += got;
  }
  return have;
}

/* ---- both engines ----------------------------------------------------- */

static void test_roundtrip_fixed_and_plain_buffers(void** state) {
  (void)state;
  create_tmp(NBLOCKS * BLOCK);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ | IOSPD_OPEN_WRITE);
  iospd_plat_queue_t* q = make_queue(NBLOCKS);
  uint32_t fi = 99;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  assert_int_equal(fi, 0);
  /* Registered region covers the first half only, so both the fixed and the
   * plain buffer paths run. */
  uint8_t* buf = iospd_plat_buf_alloc(NBLOCKS * BLOCK, BLOCK, 0);
  assert_non_null(buf);
  assert_int_equal(
      iospd_plat_queue_register_buffers(q, buf, NBLOCKS / 2 * BLOCK, &err), 0);
  iospd_io_t ios[NBLOCKS];
  for (uint32_t b = 0; b < NBLOCKS; b++) {
    memset(buf + b * BLOCK, 0x40 + (int)b, BLOCK);
    ios[b] = (iospd_io_t){b + 100, IOSPD_OP_WRITE, fi, (uint64_t)b * BLOCK,
                          BLOCK,   buf + b * BLOCK};
  }
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, NBLOCKS, &acc), 0);
  assert_int_equal(acc, NBLOCKS);
  iospd_cqe_t cqe[NBLOCKS];
  reap_all(q, cqe, NBLOCKS);
  uint32_t tags = 0;
  for (uint32_t i = 0; i < NBLOCKS; i++) {
    assert_int_equal(cqe[i].result, BLOCK);
    assert_in_range(cqe[i].tag, 100, 100 + NBLOCKS - 1);
    tags |= 1u << (cqe[i].tag - 100);
  }
  assert_int_equal(tags, (1u << NBLOCKS) - 1);

  memset(buf, 0, NBLOCKS * BLOCK);
  for (uint32_t b = 0; b < NBLOCKS; b++) ios[b].op = IOSPD_OP_READ;
  assert_int_equal(iospd_plat_queue_submit(q, ios, NBLOCKS, &acc), 0);
  assert_int_equal(acc, NBLOCKS);
  reap_all(q, cqe, NBLOCKS);
  for (uint32_t b = 0; b < NBLOCKS; b++) {
    assert_int_equal(buf[b * BLOCK], 0x40 + b);
    assert_int_equal(buf[b * BLOCK + BLOCK - 1], 0x40 + b);
  }
  /* Nothing in flight: reap returns at once with nothing, even with min 1. */
  uint32_t got = 7;
  assert_int_equal(iospd_plat_queue_reap(q, cqe, NBLOCKS, 1, 10000, &got), 0);
  assert_int_equal(got, 0);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, NBLOCKS * BLOCK);
}

static void test_short_submit_keeps_the_rest(void** state) {
  (void)state;
  create_tmp(NBLOCKS * BLOCK);
  /* -I1: idle I/O priority on every request (io_uring) or on the thread
   * (psync); it must not change what the I/Os do. */
  iospd_plat_file_t* f = open_tmp(
      IOSPD_OPEN_READ | IOSPD_OPEN_PRIORITY_VERY_LOW | IOSPD_OPEN_SEQ_HINT);
  iospd_plat_queue_t* q = make_queue(4);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(NBLOCKS * BLOCK, BLOCK, 0);
  iospd_io_t ios[NBLOCKS];
  for (uint32_t b = 0; b < NBLOCKS; b++)
    ios[b] = (iospd_io_t){b,     IOSPD_OP_READ,  fi, (uint64_t)b * BLOCK,
                          BLOCK, buf + b * BLOCK};
  /* Depth 4: only 4 of 8 are taken; the rest go after a reap. */
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, NBLOCKS, &acc), 0);
  assert_int_equal(acc, 4);
  uint32_t acc2 = 9;
  assert_int_equal(iospd_plat_queue_submit(q, ios + acc, NBLOCKS - acc, &acc2),
                   0);
  assert_int_equal(acc2, 0);
  iospd_cqe_t cqe[NBLOCKS];
  reap_all(q, cqe, 4);
  for (uint32_t i = 0; i < 4; i++) assert_in_range(cqe[i].tag, 0, 3);
  assert_int_equal(iospd_plat_queue_submit(q, ios + 4, 4, &acc), 0);
  assert_int_equal(acc, 4);
  reap_all(q, cqe, 4);
  for (uint32_t i = 0; i < 4; i++) {
    assert_in_range(cqe[i].tag, 4, 7);
    assert_int_equal(cqe[i].result, BLOCK);
  }
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, NBLOCKS * BLOCK);
}

/* The combined call: each pass hands over what fits, waits for at least
 * one completion and returns what is there, as submit then reap would. */
static void test_submit_and_reap_combined(void** state) {
  (void)state;
  create_tmp(NBLOCKS * BLOCK);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ | IOSPD_OPEN_WRITE);
  iospd_plat_queue_t* q = make_queue(4);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(NBLOCKS * BLOCK, BLOCK, 0);
  assert_int_equal(
      iospd_plat_queue_register_buffers(q, buf, NBLOCKS * BLOCK, &err), 0);
  iospd_io_t ios[NBLOCKS];
  for (int pass = 0; pass < 2; pass++) {
    uint8_t op = pass == 0 ? IOSPD_OP_WRITE : IOSPD_OP_READ;
    for (uint32_t b = 0; b < NBLOCKS; b++) {
      memset(buf + b * BLOCK, pass == 0 ? 0x60 + (int)b : 0, BLOCK);
      ios[b] = (iospd_io_t){b + 10, op,    fi, (uint64_t)b * BLOCK,
                            BLOCK,  buf + b * BLOCK};
    }
    uint32_t sent = 0, done = 0, inflight = 0, tags = 0, calls = 0;
    while (done < NBLOCKS) {
      uint32_t acc = 99, got = 99;
      iospd_cqe_t cqe[NBLOCKS];
      assert_int_equal(
          iospd_plat_queue_submit_and_reap(q, ios + sent, NBLOCKS - sent, &acc,
                                           cqe, NBLOCKS, 1, 10000, &got),
          0);
      /* Depth 4: never more than 4 in flight. */
      assert_in_range(acc, 0, 4 - inflight);
      sent += acc;
      inflight += acc;
      assert_in_range(got, 1, inflight);
      for (uint32_t i = 0; i < got; i++) {
        assert_int_equal(cqe[i].result, BLOCK);
        assert_in_range(cqe[i].tag, 10, 10 + NBLOCKS - 1);
        tags |= 1u << (cqe[i].tag - 10);
      }
      inflight -= got;
      done += got;
      assert_in_range(++calls, 1, 2 * NBLOCKS);
    }
    assert_int_equal(sent, NBLOCKS);
    assert_int_equal(tags, (1u << NBLOCKS) - 1);
  }
  for (uint32_t b = 0; b < NBLOCKS; b++) {
    assert_int_equal(buf[b * BLOCK], 0x60 + b);
    assert_int_equal(buf[b * BLOCK + BLOCK - 1], 0x60 + b);
  }
  /* Nothing to send and nothing in flight: back at once, empty. */
  uint32_t acc = 5, got = 5;
  uint64_t t0 = iospd_plat_ticks();
  iospd_cqe_t one;
  assert_int_equal(iospd_plat_queue_submit_and_reap(q, ios, 0, &acc, &one, 1,
                                                    1, 10000, &got),
                   0);
  assert_int_equal(acc, 0);
  assert_int_equal(got, 0);
  assert_true(iospd_plat_ticks() - t0 < UINT64_C(5000000000));
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, NBLOCKS * BLOCK);
}

/* --engine=auto runs a depth-1 queue (IOSPD_QUEUE_SYNC) with psync and says
 * so; an explicit engine is kept whatever the depth. */
static void test_auto_depth1_is_psync(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(
      iospd_plat_queue_create(&q, 1, IOSPD_QUEUE_SYNC, IOSPD_ENGINE_AUTO, &err),
      0);
  assert_string_equal(iospd_plat_queue_engine(q),
                      "psync (synchronous, queue depth 1)");
  iospd_plat_queue_destroy(q);
  assert_int_equal(iospd_plat_queue_create(&q, 1, IOSPD_QUEUE_SYNC, engine,
                                           &err),
                   0);
  assert_string_equal(iospd_plat_queue_engine(q), engine_name);
  iospd_plat_queue_destroy(q);
}

static void test_errors_come_back_in_reap(void** state) {
  (void)state;
  create_tmp(2 * BLOCK);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ | IOSPD_OPEN_PRIORITY_LOW |
                                  IOSPD_OPEN_RANDOM_HINT); /* read-only */
  iospd_plat_queue_t* q = make_queue(4);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(BLOCK, BLOCK, 0);
  iospd_io_t ios[3] = {
      /* A write on a read-only descriptor fails with EBADF... */
      {7, IOSPD_OP_WRITE, fi, 0, BLOCK, buf},
      /* ...a read at the end of the file transfers 0 bytes... */
      {8, IOSPD_OP_READ, fi, 2 * BLOCK, BLOCK, buf},
      /* ...and a read straddling it transfers what is there. */
      {9, IOSPD_OP_READ, fi, BLOCK + BLOCK / 2, BLOCK, buf},
  };
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 3, &acc), 0);
  assert_int_equal(acc, 3);
  iospd_cqe_t cqe[3];
  reap_all(q, cqe, 3);
  int checked = 0;
  for (int i = 0; i < 3; i++) {
    if (cqe[i].tag == 7) {
      assert_int_equal(cqe[i].result, iospd_posix_translate(EBADF));
      assert_true(cqe[i].result < 0);
    } else if (cqe[i].tag == 8) {
      assert_int_equal(cqe[i].result, 0);
    } else {
      assert_int_equal(cqe[i].tag, 9);
      assert_int_equal(cqe[i].result, BLOCK / 2);
    }
    checked++;
  }
  assert_int_equal(checked, 3);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, BLOCK);
}

/* Unbuffered I/O that breaks the alignment rules comes back as EALIGN, so
 * the run can say what is wrong rather than "invalid argument". */
static void test_misaligned_unbuffered_is_ealign(void** state) {
  (void)state;
  /* Written data, not fallocated space: reads of unwritten extents never
   * reach the disk, so the kernel does not check their alignment. */
  iospd_err_t werr;
  int wfd = open(TMP_NAME, O_CREAT | O_TRUNC | O_RDWR, 0644);
  assert_true(wfd >= 0);
  assert_int_equal(iospd_posix_write_pattern(wfd, 4 * BLOCK, false, NULL,
                                             TMP_NAME, NULL, &werr),
                   0);
  close(wfd);
  iospd_plat_file_t* f = open_tmp_direct(IOSPD_OPEN_READ);
  iospd_plat_queue_t* q = make_queue(4);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(2 * BLOCK, BLOCK, 0);
  iospd_io_t ios[3] = {
      {0, IOSPD_OP_READ, fi, 1, BLOCK, buf},     /* offset */
      {1, IOSPD_OP_READ, fi, 0, BLOCK, buf + 1}, /* buffer */
      {2, IOSPD_OP_READ, fi, BLOCK, BLOCK, buf}, /* all fine */
  };
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 3, &acc), 0);
  assert_int_equal(acc, 3);
  iospd_cqe_t cqe[3];
  reap_all(q, cqe, 3);
  int enforced = 0;
  for (int i = 0; i < 3; i++) {
    if (cqe[i].tag == 2) {
      assert_int_equal(cqe[i].result, BLOCK);
    } else if (cqe[i].result < 0) {
      assert_int_equal(cqe[i].result, IOSPD_EALIGN);
      enforced++;
    } else {
      /* tmpfs and some others accept any alignment. */
      assert_int_equal(cqe[i].result, BLOCK);
    }
  }
  if (enforced == 0)
    printf("note: this file system does not enforce O_DIRECT alignment\n");
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, 2 * BLOCK);
}

/* Destroy with I/O still in flight must wait for it (ASan would flag the
 * kernel writing into a freed buffer as a use-after-free only by luck, so the
 * check is that destroy returns and the buffer can then be freed). */
static void test_destroy_with_inflight_io(void** state) {
  (void)state;
  create_tmp(64 * BLOCK);
  iospd_plat_file_t* f = open_tmp_direct(IOSPD_OPEN_READ);
  iospd_plat_queue_t* q = make_queue(16);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(16 * BLOCK, BLOCK, 0);
  iospd_io_t ios[16];
  for (uint32_t b = 0; b < 16; b++)
    ios[b] = (iospd_io_t){b,     IOSPD_OP_READ,  fi, (uint64_t)b * 4 * BLOCK,
                          BLOCK, buf + b * BLOCK};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, 16, &acc), 0);
  assert_int_equal(acc, 16);
  iospd_plat_queue_destroy(q);
  iospd_plat_buf_free(buf, 16 * BLOCK);
  iospd_plat_file_close(f);
}

/* Polling (min 0) must make progress on its own: with DEFER_TASKRUN the
 * kernel posts completions only when the ring's thread enters it. */
static void test_polling_reap_completes(void** state) {
  (void)state;
  create_tmp(NBLOCKS * BLOCK);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ);
  iospd_plat_queue_t* q = make_queue(NBLOCKS);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  uint8_t* buf = iospd_plat_buf_alloc(NBLOCKS * BLOCK, BLOCK, 0);
  iospd_io_t ios[NBLOCKS];
  for (uint32_t b = 0; b < NBLOCKS; b++)
    ios[b] = (iospd_io_t){b,     IOSPD_OP_READ,  fi, (uint64_t)b * BLOCK,
                          BLOCK, buf + b * BLOCK};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, NBLOCKS, &acc), 0);
  assert_int_equal(acc, NBLOCKS);
  uint32_t have = 0;
  uint64_t deadline = iospd_plat_ticks() + 10000000000u;
  while (have < NBLOCKS && iospd_plat_ticks() < deadline) {
    iospd_cqe_t cqe[NBLOCKS];
    uint32_t got = 0;
    assert_int_equal(iospd_plat_queue_reap(q, cqe, NBLOCKS, 0, 0, &got), 0);
    for (uint32_t i = 0; i < got; i++) assert_int_equal(cqe[i].result, BLOCK);
    have += got;
  }
  assert_int_equal(have, NBLOCKS);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(buf, NBLOCKS * BLOCK);
}

typedef struct worker_ctx_s {
  iospd_plat_queue_t* q;
  uint32_t fi;
  uint8_t* buf;
  int results[4];
  uint32_t tags;
} worker_ctx_t;

static void worker_io(void* arg) {
  worker_ctx_t* c = arg;
  iospd_io_t ios[4];
  for (uint32_t b = 0; b < 4; b++)
    ios[b] = (iospd_io_t){
        b,     IOSPD_OP_READ,     b == 3 ? 77 : c->fi, (uint64_t)b * BLOCK,
        BLOCK, c->buf + b * BLOCK};
  uint32_t acc = 0;
  if (iospd_plat_queue_submit(c->q, ios, 4, &acc) != 0 || acc != 4) return;
  uint32_t have = 0;
  while (have < 4) {
    iospd_cqe_t cqe[4];
    uint32_t got = 0;
    if (iospd_plat_queue_reap(c->q, cqe, 4, 1, 10000, &got) != 0 || got == 0)
      return;
    for (uint32_t i = 0; i < got; i++) {
      c->results[cqe[i].tag] = cqe[i].result;
      c->tags |= 1u << cqe[i].tag;
    }
    have += got;
  }
}

/* The controller may create and attach a queue that a worker then drives;
 * an unknown file index fails that I/O alone, through reap. */
static void test_queue_created_elsewhere(void** state) {
  (void)state;
  create_tmp(4 * BLOCK);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ);
  worker_ctx_t c = {.q = make_queue(4)};
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(c.q, f, &c.fi, &err), 0);
  c.buf = iospd_plat_buf_alloc(4 * BLOCK, BLOCK, 0);
  assert_int_equal(
      iospd_plat_queue_register_buffers(c.q, c.buf, 4 * BLOCK, &err), 0);
  iospd_thread_opts_t o = {.pin = false};
  iospd_plat_thread_t* t;
  assert_int_equal(iospd_plat_thread_start(&t, &o, worker_io, &c, &err), 0);
  assert_int_equal(iospd_plat_thread_join(t), 0);
  assert_int_equal(c.tags, 0xf);
  for (int i = 0; i < 3; i++) assert_int_equal(c.results[i], BLOCK);
  assert_true(c.results[3] < 0);
  iospd_plat_queue_destroy(c.q);
  iospd_plat_file_close(f);
  iospd_plat_buf_free(c.buf, 4 * BLOCK);
}

/* Write then read back through the engine in every cache mode: buffered,
 * write-through (-Sw, O_DSYNC), unbuffered (-Su, O_DIRECT) and both (-Sh). */
static void test_roundtrip_every_cache_mode(void** state) {
  (void)state;
  static const unsigned modes[] = {
      0, IOSPD_OPEN_WRITE_THROUGH, IOSPD_OPEN_NO_BUFFERING,
      IOSPD_OPEN_NO_BUFFERING | IOSPD_OPEN_WRITE_THROUGH};
  uint8_t* buf = iospd_plat_buf_alloc(NBLOCKS * BLOCK, BLOCK, 0);
  for (size_t m = 0; m < IOSPD_ARRAY_SIZE(modes); m++) {
    create_tmp(NBLOCKS * BLOCK);
    unsigned fl = IOSPD_OPEN_READ | IOSPD_OPEN_WRITE | modes[m];
    iospd_plat_file_t* f = (modes[m] & IOSPD_OPEN_NO_BUFFERING)
                               ? open_tmp_direct(fl)
                               : open_tmp(fl);
    iospd_err_t err;
    iospd_plat_queue_t* q = NULL;
    unsigned qf = (modes[m] & IOSPD_OPEN_NO_BUFFERING) ? IOSPD_QUEUE_UNBUFFERED
                                                        : 0;
    assert_int_equal(iospd_plat_queue_create(&q, NBLOCKS, qf, engine, &err),
                     0);
    uint32_t fi;
    assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
    iospd_io_t ios[NBLOCKS];
    for (uint32_t b = 0; b < NBLOCKS; b++) {
      memset(buf + b * BLOCK, (int)(0x11 * (m + 1) + b), BLOCK);
      ios[b] = (iospd_io_t){b,     IOSPD_OP_WRITE, fi, (uint64_t)b * BLOCK,
                            BLOCK, buf + b * BLOCK};
    }
    uint32_t acc = 0;
    iospd_cqe_t cqe[NBLOCKS];
    assert_int_equal(iospd_plat_queue_submit(q, ios, NBLOCKS, &acc), 0);
    assert_int_equal(acc, NBLOCKS);
    reap_all(q, cqe, NBLOCKS);
    for (uint32_t i = 0; i < NBLOCKS; i++)
      assert_int_equal(cqe[i].result, BLOCK);
    memset(buf, 0, NBLOCKS * BLOCK);
    for (uint32_t b = 0; b < NBLOCKS; b++) ios[b].op = IOSPD_OP_READ;
    assert_int_equal(iospd_plat_queue_submit(q, ios, NBLOCKS, &acc), 0);
    assert_int_equal(acc, NBLOCKS);
    reap_all(q, cqe, NBLOCKS);
    for (uint32_t i = 0; i < NBLOCKS; i++)
      assert_int_equal(cqe[i].result, BLOCK);
    for (uint32_t b = 0; b < NBLOCKS; b++) {
      assert_int_equal(buf[b * BLOCK], 0x11 * (m + 1) + b);
      assert_int_equal(buf[b * BLOCK + BLOCK - 1], 0x11 * (m + 1) + b);
    }
    iospd_plat_queue_destroy(q);
    iospd_plat_file_close(f);
  }
  iospd_plat_buf_free(buf, NBLOCKS * BLOCK);
}

/* The depth each engine reports as really kept: io_uring, and the thread
 * pool, all of it; psync one; kernel AIO all of it only when the queue is
 * told every file is unbuffered, and one once a buffered file joins (the
 * kernel runs buffered AIO inside io_submit). */
static void test_depth_kept(void** state) {
  (void)state;
  create_tmp(NBLOCKS * BLOCK);
  iospd_err_t err;
  iospd_plat_queue_t* q = NULL;
  assert_int_equal(iospd_plat_queue_create(&q, 8, IOSPD_QUEUE_UNBUFFERED,
                                           engine, &err),
                   0);
  uint32_t want = engine == ENGINE("psync") ? 1 : 8;
  assert_int_equal(iospd_plat_queue_depth(q), want);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ); /* buffered */
  uint32_t fi;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  if (engine == ENGINE("libaio")) want = 1;
  assert_int_equal(iospd_plat_queue_depth(q), want);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
}

/* The whole temporary file, read with plain pread (which also puts it in
 * the page cache). */
static void read_tmp(uint8_t* out, size_t len) {
  int fd = open(TMP_NAME, O_RDONLY);
  assert_true(fd >= 0);
  assert_int_equal(pread(fd, out, len, 0), (ssize_t)len);
  close(fd);
}

/* npages fresh pages that userfaultfd holds back: a thread that touches
 * one blocks until release_pages. Skips the test where userfaultfd is not
 * allowed. Returns the descriptor that reports the faults. */
static int held_back_pages(uint32_t npages, uint8_t** region) {
  int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
  if (uffd < 0) {
    printf("skipped: userfaultfd: %s (needs vm.unprivileged_userfaultfd=1 "
           "or CAP_SYS_PTRACE)\n", strerror(errno));
    skip();
  }
  struct uffdio_api api = {.api = UFFD_API};
  assert_int_equal(ioctl(uffd, UFFDIO_API, &api), 0);
  uint8_t* r = mmap(NULL, (size_t)npages * BLOCK, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(r != MAP_FAILED);
  struct uffdio_register reg = {
      .range = {.start = (uintptr_t)r, .len = (size_t)npages * BLOCK},
      .mode = UFFDIO_REGISTER_MODE_MISSING};
  assert_int_equal(ioctl(uffd, UFFDIO_REGISTER, &reg), 0);
  *region = r;
  return uffd;
}

/* Lets every blocked thread go on: each page is filled with zeros. */
static void release_pages(int uffd, uint8_t* region, uint32_t npages) {
  static uint8_t zero[BLOCK];
  struct uffdio_copy cp = {.src = (uintptr_t)zero, .len = BLOCK};
  for (uint32_t p = 0; p < npages; p++) {
    cp.dst = (uintptr_t)region + (size_t)p * BLOCK;
    assert_int_equal(ioctl(uffd, UFFDIO_COPY, &cp), 0);
  }
}

/* The thread pool really keeps depth I/Os in flight: each read lands in a
 * page that userfaultfd holds back, so every pool thread blocks inside its
 * pread until the test releases the page. All depth faults arrive while
 * nothing has completed; then every read finishes with the file's data. */
static int task_count(void) {
  DIR* d = opendir("/proc/self/task");
  assert_non_null(d);
  int n = 0;
  for (struct dirent* e; (e = readdir(d)) != NULL;)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

/* -Rp makes a queue only to ask its engine and depth (IOSPD_QUEUE_PLAN):
 * it starts no thread (-Rp --engine=threads -o65536 started 65536), and
 * says the depth asked. */
static void test_plan_queue_starts_no_thread(void** state) {
  (void)state;
  enum { D = 64 };
  int before = task_count();
  /* What a real queue keeps (psync and buffered libaio: 1); the threads
   * engine's real queue starts its pool. */
  iospd_plat_queue_t* q = make_queue(D);
  uint32_t kept = iospd_plat_queue_depth(q);
  if (engine == ENGINE("threads")) {
    assert_int_equal(kept, D);
    assert_true(task_count() >= before + D);
  }
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  iospd_err_t err;
  q = NULL;
  assert_int_equal(
      iospd_plat_queue_create(&q, D, IOSPD_QUEUE_PLAN, engine, &err), 0);
  assert_string_equal(iospd_plat_queue_engine(q), engine_name);
  assert_int_equal(iospd_plat_queue_depth(q), kept);
  assert_int_equal(task_count(), before);
  assert_int_equal(iospd_plat_queue_destroy(q), 0);
  assert_int_equal(task_count(), before);
}

static void test_threads_keep_depth_in_flight(void** state) {
  (void)state;
  enum { D = 6 };
  long pg = sysconf(_SC_PAGESIZE);
  if (engine != ENGINE("threads") || pg != (long)BLOCK) {
    printf("skipped: only the threads engine blocks per I/O in a thread\n");
    skip();
  }
  uint8_t* region = NULL;
  int uffd = held_back_pages(D, &region);

  create_tmp(D * BLOCK);
  uint8_t expect[D * BLOCK];
  read_tmp(expect, sizeof expect);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ);
  iospd_plat_queue_t* q = make_queue(D);
  uint32_t fi;
  iospd_err_t err;
  /* The file is cached: without this its reads would complete inline and
   * fault on the watched pages in this very thread. */
  iospd_posix_threads_set_inline(false);
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  iospd_posix_threads_set_inline(true);
  assert_int_equal(iospd_plat_queue_depth(q), D);
  iospd_io_t ios[D];
  /* Read block b into page D-1-b, so a page matches one request only. */
  for (uint32_t b = 0; b < D; b++)
    ios[b] = (iospd_io_t){b,     IOSPD_OP_READ, fi, (uint64_t)b * BLOCK,
                          BLOCK, region + (D - 1 - b) * BLOCK};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, D, &acc), 0);
  assert_int_equal(acc, D);

  uint32_t pages = 0; /* bit p: page p faulted */
  uint64_t deadline = iospd_plat_ticks() + UINT64_C(20000000000);
  while (pages != (1u << D) - 1 && iospd_plat_ticks() < deadline) {
    struct pollfd pfd = {.fd = uffd, .events = POLLIN};
    if (poll(&pfd, 1, 100) <= 0) continue;
    struct uffd_msg msg;
    while (read(uffd, &msg, sizeof msg) == (ssize_t)sizeof msg) {
      assert_int_equal(msg.event, UFFD_EVENT_PAGEFAULT);
      uint64_t page = (msg.arg.pagefault.address - (uintptr_t)region) / BLOCK;
      assert_in_range(page, 0, D - 1);
      pages |= 1u << page;
    }
  }
  /* Every request is blocked in its own thread at once; none completed. */
  assert_int_equal(pages, (1u << D) - 1);
  iospd_cqe_t cqe[D];
  uint32_t got = 9;
  assert_int_equal(iospd_plat_queue_reap(q, cqe, D, 0, 0, &got), 0);
  assert_int_equal(got, 0);

  release_pages(uffd, region, D);
  reap_all(q, cqe, D);
  for (uint32_t i = 0; i < D; i++) assert_int_equal(cqe[i].result, BLOCK);
  for (uint32_t b = 0; b < D; b++)
    assert_memory_equal(region + (D - 1 - b) * BLOCK, expect + b * BLOCK,
                        BLOCK);
  assert_int_equal(iospd_posix_threads_handoffs(q), D);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  munmap(region, D * BLOCK);
  close(uffd);
}

/* Cached buffered reads complete inline on the submitting thread (no
 * pool handoff) with the right bytes; with the inline path refused they
 * all go to the pool threads and read the same bytes. */
static void test_threads_cached_reads_inline(void** state) {
  (void)state;
  enum { D = 4, ROUNDS = 3 };
  if (engine != ENGINE("threads")) {
    printf("skipped: only the threads engine has an inline path\n");
    skip();
  }
  create_tmp(NBLOCKS * BLOCK);
  static uint8_t expect[NBLOCKS * BLOCK];
  read_tmp(expect, sizeof expect); /* every page now in the cache */
  for (int refuse = 0; refuse < 2; refuse++) {
    iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ);
    /* No helper thread: on two or more CPUs it would take 3 of the 4. */
    iospd_posix_threads_set_batch(0);
    iospd_plat_queue_t* q = make_queue(D);
    iospd_posix_threads_set_batch(-1);
    uint32_t fi;
    iospd_err_t err;
    iospd_posix_threads_set_inline(!refuse);
    assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
    iospd_posix_threads_set_inline(true);
    static uint8_t buf[D][BLOCK];
    for (uint32_t r = 0; r < ROUNDS; r++) {
      iospd_io_t ios[D];
      memset(buf, 0xEE, sizeof buf);
      for (uint32_t i = 0; i < D; i++) {
        uint32_t b = (r * D + i) % NBLOCKS;
        ios[i] = (iospd_io_t){b, IOSPD_OP_READ, fi, (uint64_t)b * BLOCK,
                              BLOCK, buf[i]};
      }
      uint32_t acc = 0;
      assert_int_equal(iospd_plat_queue_submit(q, ios, D, &acc), 0);
      assert_int_equal(acc, D);
      iospd_cqe_t cqe[D];
      reap_all(q, cqe, D);
      uint32_t seen = 0;
      for (uint32_t i = 0; i < D; i++) {
        assert_int_equal(cqe[i].result, BLOCK);
        uint32_t b = cqe[i].tag;
        uint32_t slot = (b + NBLOCKS - (r * D) % NBLOCKS) % NBLOCKS;
        assert_in_range(slot, 0, D - 1);
        seen |= 1u << slot;
        assert_memory_equal(buf[slot], expect + (size_t)b * BLOCK, BLOCK);
      }
      assert_int_equal(seen, (1u << D) - 1);
    }
    /* Full depth again after the inline completions were reaped: no cell
     * or ring entry leaked. */
    assert_int_equal(iospd_posix_threads_handoffs(q),
                     refuse ? (uint64_t)D * ROUNDS : 0);
    iospd_plat_queue_destroy(q);
    iospd_plat_file_close(f);
  }
}

/* Submits n I/Os, reaps all n and returns them in tag order (tags are
 * 0..n-1). */
static void run_tagged(iospd_plat_queue_t* q, iospd_io_t* ios, uint32_t n,
                       iospd_cqe_t* by_tag) {
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, n, &acc), 0);
  assert_int_equal(acc, n);
  iospd_cqe_t cqe[16];
  assert_in_range(n, 1, 16);
  reap_all(q, cqe, n);
  uint32_t seen = 0;
  for (uint32_t i = 0; i < n; i++) {
    assert_in_range(cqe[i].tag, 0, n - 1);
    seen |= 1u << cqe[i].tag;
    by_tag[cqe[i].tag] = cqe[i];
  }
  assert_int_equal(seen, (1u << n) - 1);
}

static uint64_t batched_of(const iospd_plat_queue_t* q, uint64_t* redone) {
  uint64_t b = 0, r = 0;
  iospd_posix_threads_batch_counts(q, &b, &r);
  if (redone != NULL) *redone = r;
  return b;
}

/* Batched handoff, forced on: cached reads done by the helper thread read
 * the file's bytes; what the helper cannot complete (an error, end of
 * file, a short count) goes on to a pool thread, which reports what a
 * plain pread/pwrite says; then batching pauses (no helper items) and
 * resumes after MISS_PAUSE I/Os; an offset the kernel refuses (EINVAL)
 * turns the RWF_NOWAIT try off for the file: straight to the pool. */
static void test_threads_batch_to_helper(void** state) {
  (void)state;
  enum { D = 4 };
  if (engine != ENGINE("threads")) {
    printf("skipped: only the threads engine has a helper thread\n");
    skip();
  }
  create_tmp(NBLOCKS * BLOCK);
  static uint8_t expect[NBLOCKS * BLOCK];
  read_tmp(expect, sizeof expect);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ); /* read-only */
  iospd_posix_threads_set_batch(1);
  iospd_plat_queue_t* q = make_queue(D);
  iospd_posix_threads_set_batch(-1);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  static uint8_t buf[D][BLOCK];
  iospd_io_t ios[D];
  iospd_cqe_t res[D];
  uint64_t redone = 0;

  /* 1. Cached reads, all through the helper, three rounds. */
  for (uint32_t r = 0; r < 3; r++) {
    memset(buf, 0xEE, sizeof buf);
    for (uint32_t i = 0; i < D; i++) {
      uint32_t b = (r * D + i) % NBLOCKS;
      ios[i] = (iospd_io_t){i, IOSPD_OP_READ, fi, (uint64_t)b * BLOCK, BLOCK,
                            buf[i]};
    }
    run_tagged(q, ios, D, res);
    for (uint32_t i = 0; i < D; i++) {
      uint32_t b = (r * D + i) % NBLOCKS;
      assert_int_equal(res[i].result, BLOCK);
      assert_memory_equal(buf[i], expect + (size_t)b * BLOCK, BLOCK);
    }
  }
  assert_int_equal(batched_of(q, &redone), 3 * D);
  assert_int_equal(redone, 0);
  assert_int_equal(iospd_posix_threads_handoffs(q), 0);

  /* 2. An error, end of file and a short read in one batch: each comes
   * back from the pool with pread's answer; the good read stays the
   * helper's. */
  memset(buf, 0xEE, sizeof buf);
  ios[0] = (iospd_io_t){0, IOSPD_OP_WRITE, fi, 0, BLOCK, buf[0]}; /* EBADF */
  ios[1] = (iospd_io_t){1, IOSPD_OP_READ, fi, NBLOCKS * BLOCK, BLOCK, buf[1]};
  ios[2] = (iospd_io_t){2, IOSPD_OP_READ, fi,
                        (NBLOCKS - 1) * BLOCK + BLOCK / 2, BLOCK, buf[2]};
  ios[3] = (iospd_io_t){3, IOSPD_OP_READ, fi, 2 * BLOCK, BLOCK, buf[3]};
  run_tagged(q, ios, D, res);
  assert_int_equal(res[0].result, iospd_posix_translate(EBADF));
  assert_true(res[0].result < 0);
  assert_int_equal(res[1].result, 0);
  assert_int_equal(res[2].result, BLOCK / 2);
  assert_memory_equal(buf[2], expect + (NBLOCKS - 1) * BLOCK + BLOCK / 2,
                      BLOCK / 2);
  assert_int_equal(res[3].result, BLOCK);
  assert_memory_equal(buf[3], expect + 2 * BLOCK, BLOCK);
  assert_int_equal(batched_of(q, &redone), 4 * D);
  assert_int_equal(redone, 3);
  assert_int_equal(iospd_posix_threads_handoffs(q), 3);

  /* 3. Batching is paused after those misses: cached reads run inline,
   * then go to the helper again once MISS_PAUSE I/Os have passed. */
  uint32_t rounds = 0;
  uint64_t before = batched_of(q, NULL);
  while (batched_of(q, NULL) == before) {
    assert_in_range(rounds, 0, 3 * 4096 / D);
    for (uint32_t i = 0; i < D; i++)
      ios[i] = (iospd_io_t){i, IOSPD_OP_READ, fi, (uint64_t)i * BLOCK, BLOCK,
                            buf[i]};
    run_tagged(q, ios, D, res);
    for (uint32_t i = 0; i < D; i++) assert_int_equal(res[i].result, BLOCK);
    rounds++;
  }
  /* 4096 I/Os inline (reaped before the budget is set), then the helper. */
  assert_in_range(rounds, 4096 / D, 4096 / D + 2);
  assert_int_equal(iospd_posix_threads_handoffs(q), 3);

  /* 4. An offset the kernel refuses (EINVAL, beyond off_t) turns the
   * RWF_NOWAIT try off for this file: the next reads go to the pool. */
  uint64_t handed = iospd_posix_threads_handoffs(q);
  for (uint32_t i = 0; i < D; i++)
    ios[i] = (iospd_io_t){i, IOSPD_OP_READ, fi, (uint64_t)i * BLOCK, BLOCK,
                          buf[i]};
  ios[0].offset = UINT64_C(1) << 63;
  /* Let the pause from step 3's helper items lapse first: none missed. */
  run_tagged(q, ios, 1, res);
  assert_int_equal(res[0].result, iospd_posix_translate(EINVAL));
  assert_true(res[0].result < 0);
  assert_int_equal(iospd_posix_threads_handoffs(q), handed + 1);
  before = batched_of(q, NULL);
  ios[0].offset = 0;
  run_tagged(q, ios, D, res);
  for (uint32_t i = 0; i < D; i++) {
    assert_int_equal(res[i].result, BLOCK);
    assert_memory_equal(buf[i], expect + (size_t)i * BLOCK, BLOCK);
  }
  assert_int_equal(batched_of(q, NULL), before);
  assert_int_equal(iospd_posix_threads_handoffs(q), handed + 1 + D);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
}

/* Batching as a run gets it (-n on two or more CPUs, depth 32): the
 * helper takes the I/Os of three quarters of the slots, by tag (24 of
 * every 32), the submitter copies the rest inline, nothing reaches the
 * pool, and every buffer holds its block's bytes. */
static void test_threads_batch_by_slot(void** state) {
  (void)state;
  enum { D = 32, ROUNDS = 20 };
  cpu_set_t set;
  if (engine != ENGINE("threads")) {
    printf("skipped: only the threads engine has a helper thread\n");
    skip();
  }
  if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < 2) {
    printf("skipped: batching needs two CPUs and this test may run on "
           "one\n");
    skip();
  }
  create_tmp(NBLOCKS * BLOCK);
  static uint8_t expect[NBLOCKS * BLOCK];
  read_tmp(expect, sizeof expect);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ);
  iospd_plat_queue_t* q = make_queue(D);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  static uint8_t buf[D][BLOCK];
  iospd_io_t ios[D];
  iospd_cqe_t cqe[D];
  for (uint32_t r = 0; r < ROUNDS; r++) {
    /* Now and then a pause longer than the helper's spin: it goes to
     * sleep and the next round's requests must wake it. */
    if (r % 5 == 4) usleep(2000);
    memset(buf, 0xEE, sizeof buf);
    for (uint32_t i = 0; i < D; i++)
      ios[i] = (iospd_io_t){i, IOSPD_OP_READ, fi,
                            (uint64_t)((i + r) % NBLOCKS) * BLOCK, BLOCK,
                            buf[i]};
    uint32_t acc = 0;
    assert_int_equal(iospd_plat_queue_submit(q, ios, D, &acc), 0);
    assert_int_equal(acc, D);
    assert_int_equal(reap_all(q, cqe, D), D);
    uint64_t seen = 0;
    for (uint32_t i = 0; i < D; i++) {
      uint32_t t = cqe[i].tag;
      assert_in_range(t, 0, D - 1);
      assert_int_equal(cqe[i].result, BLOCK);
      seen |= UINT64_C(1) << t;
      assert_memory_equal(buf[t], expect + (size_t)((t + r) % NBLOCKS) * BLOCK,
                          BLOCK);
    }
    assert_int_equal(seen, (UINT64_C(1) << D) - 1);
  }
  uint64_t redone = 0;
  assert_int_equal(batched_of(q, &redone), (uint64_t)ROUNDS * (D - D / 4));
  assert_int_equal(redone, 0);
  assert_int_equal(iospd_posix_threads_handoffs(q), 0);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);

  /* Writes the same way: block b gets byte 0x40 + b at each of its 32
   * writes (the file has 8 blocks, so 4 writes per block, same bytes);
   * whoever wrote it (helper, inline, or the pool after a NOWAIT miss,
   * which buffered writes may get), the file holds them afterwards. */
  f = open_tmp(IOSPD_OPEN_READ | IOSPD_OPEN_WRITE);
  q = make_queue(D);
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  for (uint32_t i = 0; i < D; i++) {
    memset(buf[i], 0x40 + (int)(i % NBLOCKS), BLOCK);
    ios[i] = (iospd_io_t){i, IOSPD_OP_WRITE, fi,
                          (uint64_t)(i % NBLOCKS) * BLOCK, BLOCK, buf[i]};
  }
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, D, &acc), 0);
  assert_int_equal(acc, D);
  assert_int_equal(reap_all(q, cqe, D), D);
  for (uint32_t i = 0; i < D; i++) assert_int_equal(cqe[i].result, BLOCK);
  assert_true(batched_of(q, NULL) > 0);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  read_tmp(expect, sizeof expect);
  for (uint32_t b = 0; b < NBLOCKS; b++)
    for (uint32_t k = 0; k < BLOCK; k++)
      assert_int_equal(expect[(size_t)b * BLOCK + k], 0x40 + b);
}

/* Destroying a queue whose helper still holds queued items (and items
 * not yet published to it): it stops after its current item and is
 * joined; nothing touches freed memory (ASan). */
static void test_threads_destroy_with_batch_queued(void** state) {
  (void)state;
  enum { D = 63 }; /* not a multiple of 4: the last 3 are never published */
  if (engine != ENGINE("threads")) {
    printf("skipped: only the threads engine has a helper thread\n");
    skip();
  }
  create_tmp(NBLOCKS * BLOCK);
  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ);
  for (int round = 0; round < 20; round++) {
    iospd_posix_threads_set_batch(1);
    iospd_plat_queue_t* q = make_queue(D);
    iospd_posix_threads_set_batch(-1);
    uint32_t fi;
    iospd_err_t err;
    assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
    uint8_t* buf = iospd_plat_buf_alloc((size_t)D * BLOCK, BLOCK, 0);
    assert_non_null(buf);
    iospd_io_t ios[D];
    for (uint32_t i = 0; i < D; i++)
      ios[i] = (iospd_io_t){i, IOSPD_OP_READ, fi,
                            (uint64_t)(i % NBLOCKS) * BLOCK, BLOCK,
                            buf + (size_t)i * BLOCK};
    uint32_t acc = 0;
    assert_int_equal(iospd_plat_queue_submit(q, ios, D, &acc), 0);
    assert_int_equal(acc, D);
    assert_int_equal(batched_of(q, NULL), D);
    assert_int_equal(iospd_plat_queue_destroy(q), 0);
    iospd_plat_buf_free(buf, (size_t)D * BLOCK);
  }
  iospd_plat_file_close(f);
}

/* Batched items the helper cannot complete still keep the depth: every
 * item goes on to a pool thread, and all D of them block at once in their
 * pread (the buffer pages are held back by userfaultfd) before any
 * completes. The helper's misses are simulated (batch mode 2): a real
 * RWF_NOWAIT miss starts readahead, and when that finishes before the
 * try gives up the helper itself copies into a held-back page and blocks
 * there, with the items behind it waiting (seen under ASan on a loaded
 * machine). The file is evicted all the same, so the pool's reads are
 * real misses. */
static void test_threads_batch_misses_keep_depth(void** state) {
  (void)state;
  enum { D = 6 };
  long pg = sysconf(_SC_PAGESIZE);
  if (engine != ENGINE("threads") || pg != (long)BLOCK) {
    printf("skipped: only the threads engine has a helper thread\n");
    skip();
  }
  create_tmp(D * BLOCK);
  uint8_t expect[D * BLOCK];
  int fd = open(TMP_NAME, O_RDONLY);
  assert_true(fd >= 0);
  assert_int_equal(pread(fd, expect, sizeof expect, 0), (ssize_t)sizeof expect);
  /* Clean pages: DONTNEED drops them; check that it did. */
  assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  void* map = mmap(NULL, D * BLOCK, PROT_READ, MAP_SHARED, fd, 0);
  assert_true(map != MAP_FAILED);
  unsigned char vec[D];
  assert_int_equal(mincore(map, D * BLOCK, vec), 0);
  munmap(map, D * BLOCK);
  close(fd);
  for (uint32_t p = 0; p < D; p++)
    if (vec[p] & 1) {
      printf("skipped: the file system kept the file in the page cache "
             "after POSIX_FADV_DONTNEED (tmpfs?)\n");
      skip();
    }
  uint8_t* region = NULL;
  int uffd = held_back_pages(D, &region);

  iospd_plat_file_t* f = open_tmp(IOSPD_OPEN_READ);
  iospd_posix_threads_set_batch(2);
  iospd_plat_queue_t* q = make_queue(D);
  iospd_posix_threads_set_batch(-1);
  uint32_t fi;
  iospd_err_t err;
  assert_int_equal(iospd_plat_queue_attach(q, f, &fi, &err), 0);
  assert_int_equal(iospd_plat_queue_depth(q), D);
  iospd_io_t ios[D];
  for (uint32_t b = 0; b < D; b++)
    ios[b] = (iospd_io_t){b,     IOSPD_OP_READ, fi, (uint64_t)b * BLOCK,
                          BLOCK, region + (D - 1 - b) * BLOCK};
  uint32_t acc = 0;
  assert_int_equal(iospd_plat_queue_submit(q, ios, D, &acc), 0);
  assert_int_equal(acc, D);
  assert_int_equal(batched_of(q, NULL), D);

  /* The misses come back through the ring: polling reaps hand them on. */
  uint32_t pages = 0;
  uint64_t deadline = iospd_plat_ticks() + UINT64_C(20000000000);
  iospd_cqe_t cqe[D];
  while (pages != (1u << D) - 1 && iospd_plat_ticks() < deadline) {
    uint32_t got = 9;
    assert_int_equal(iospd_plat_queue_reap(q, cqe, D, 0, 0, &got), 0);
    assert_int_equal(got, 0); /* nothing completes before the release */
    struct pollfd pfd = {.fd = uffd, .events = POLLIN};
    if (poll(&pfd, 1, 10) <= 0) continue;
    struct uffd_msg msg;
    while (read(uffd, &msg, sizeof msg) == (ssize_t)sizeof msg) {
      assert_int_equal(msg.event, UFFD_EVENT_PAGEFAULT);
      uint64_t page = (msg.arg.pagefault.address - (uintptr_t)region) / BLOCK;
      assert_in_range(page, 0, D - 1);
      pages |= 1u << page;
    }
  }
  assert_int_equal(pages, (1u << D) - 1);
  uint64_t redone = 0;
  (void)batched_of(q, &redone);
  assert_int_equal(redone, D);
  assert_int_equal(iospd_posix_threads_handoffs(q), D);

  release_pages(uffd, region, D);
  reap_all(q, cqe, D);
  for (uint32_t i = 0; i < D; i++) assert_int_equal(cqe[i].result, BLOCK);
  for (uint32_t b = 0; b < D; b++)
    assert_memory_equal(region + (D - 1 - b) * BLOCK, expect + b * BLOCK,
                        BLOCK);
  iospd_plat_queue_destroy(q);
  iospd_plat_file_close(f);
  munmap(region, D * BLOCK);
  close(uffd);
}

/* ---- engine-independent Linux checks ---------------------------------- */

static void test_windows_targets_refused(void** state) {
  (void)state;
  const char* forms[] = {"#1", "#0", "E:", "c:", "\\\\.\\PhysicalDrive1"};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(forms); i++) {
    iospd_err_t err;
    iospd_plat_file_t* f = NULL;
    iospd_open_opts_t o = {forms[i], IOSPD_OPEN_READ};
    assert_int_equal(iospd_plat_file_open(&f, &o, &err), IOSPD_ENOTSUP);
    assert_non_null(strstr(err.msg, forms[i]));
    assert_non_null(strstr(err.msg, "does not exist on Linux"));
    assert_non_null(strstr(err.msg, "/dev/"));
    iospd_file_info_t info;
    assert_int_equal(iospd_plat_path_info(forms[i], &info, &err),
                     IOSPD_ENOTSUP);
    assert_non_null(strstr(err.msg, "/dev/"));
    assert_int_equal(iospd_plat_file_create(forms[i], 4096, false, &err),
                     IOSPD_ENOTSUP);
  }
  /* Look-alikes are ordinary relative paths. */
  iospd_err_t err;
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info("#1x", &info, &err), IOSPD_ENOENT);
  assert_int_equal(iospd_plat_path_info("EE:", &info, &err), IOSPD_ENOENT);
}

static void test_not_a_file_or_device(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info("/dev/null", &info, &err),
                   IOSPD_EINVAL);
  assert_non_null(strstr(err.msg, "neither a regular file nor a block"));
  assert_int_equal(iospd_plat_file_create("/dev/null", 4096, false, &err),
                   IOSPD_EINVAL);
  iospd_plat_file_t* f = NULL;
  iospd_open_opts_t o = {".", IOSPD_OPEN_READ};
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), IOSPD_EINVAL);
  o.path = TMP_NAME;
  o.flags = IOSPD_OPEN_READ | IOSPD_OPEN_DISABLE_LOCAL_CACHE;
  assert_int_equal(iospd_plat_file_open(&f, &o, &err), IOSPD_ENOTSUP);
  assert_non_null(strstr(err.msg, "-Sr"));
}

static uint8_t image[IOSPD_SNIFF_BYTES];

/* Reads the first MiB of a regular file (as the probe of a device does)
 * and runs the detection on it. */
static void detect_file(const char* path, iospd_file_info_t* info) {
  memset(image, 0, sizeof image);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  assert_true(fd >= 0);
  ssize_t got = read(fd, image, sizeof image);
  close(fd);
  assert_true(got > 0);
  memset(info, 0, sizeof *info);
  iospd_sniff_device_head(image, (size_t)got, info);
}

/* No list of signatures is complete: any non-zero byte in the first MiB
 * that no known signature explains is data; only all zeros is empty. */
static void test_detect_unknown_data(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_file_info_t info;
  /* A name of its own: the io_uring build of this file runs in parallel. */
  char name[64];
  snprintf(name, sizeof name, "iospd_test_detect_%ld.tmp", (long)getpid());
  assert_int_equal(iospd_plat_file_create(name, 2u << 20, true, &err), 0);
  detect_file(name, &info);
  assert_false(info.has_filesystem);
  assert_false(info.has_partitions);
  assert_string_equal(info.content, "");

  int fd = open(name, O_WRONLY | O_CLOEXEC);
  assert_true(fd >= 0);
  uint8_t junk[64];
  uint32_t x = 12345;
  for (size_t i = 0; i < sizeof junk; i++) {
    x = x * 1103515245u + 12345u;
    junk[i] = (uint8_t)((x >> 16) | 1u); /* never zero */
  }
  assert_int_equal(pwrite(fd, junk, sizeof junk, 4096 + 100), sizeof junk);
  close(fd);
  detect_file(name, &info);
  assert_true(info.has_filesystem);
  assert_string_equal(info.content,
                      "data of an unknown kind (the first megabyte is not "
                      "all zeros)");
  unlink(name);
}

static void test_create_slow_path_pattern(void** state) {
  (void)state;
  iospd_err_t err;
  const uint64_t size = 3u * 1024u * 1024u / 2u + 100u; /* 1.5 MiB + 100 */
  for (int zero = 0; zero <= 1; zero++) {
    int fd = open(TMP_NAME, O_CREAT | O_TRUNC | O_RDWR, 0644);
    assert_true(fd >= 0);
    assert_int_equal(iospd_posix_write_pattern(fd, size, zero != 0, NULL,
                                               TMP_NAME, NULL, &err),
                     0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    assert_int_equal(st.st_size, size);
    /* i & 0xff counted from each 1 MiB chunk's start. */
    const uint64_t offs[] = {0,       1,       255,     256,
                             1048575, 1048576, 1048577, size - 1};
    for (size_t i = 0; i < IOSPD_ARRAY_SIZE(offs); i++) {
      uint8_t b = 0xee;
      assert_int_equal(pread(fd, &b, 1, (off_t)offs[i]), 1);
      uint8_t want = zero ? 0 : (uint8_t)((offs[i] % 1048576u) & 0xff);
      assert_int_equal(b, want);
    }
    close(fd);
  }
  /* iospd_plat_file_create writes every block (never just fallocate: reads
   * of unwritten extents would not reach the device), so the pattern is on
   * disk, not zeros. */
  assert_int_equal(iospd_plat_file_create(TMP_NAME, size, false, &err), 0);
  struct stat st;
  assert_int_equal(stat(TMP_NAME, &st), 0);
  assert_int_equal(st.st_size, size);
  int fd = open(TMP_NAME, O_RDONLY);
  assert_true(fd >= 0);
  const uint64_t probe[] = {1000, 1048576 + 77, size - 1};
  for (size_t i = 0; i < IOSPD_ARRAY_SIZE(probe); i++) {
    uint8_t b = 0;
    assert_int_equal(pread(fd, &b, 1, (off_t)probe[i]), 1);
    assert_int_equal(b, (uint8_t)(probe[i] & 0xff));
  }
  close(fd);
}

typedef struct {
  uint64_t done[8], total[8];
  uint32_t n;
} progress_log_t;

static void log_progress(void* ctx, uint64_t done, uint64_t total) {
  progress_log_t* l = ctx;
  if (l->n < 8) {
    l->done[l->n] = done;
    l->total[l->n] = total;
  }
  l->n++;
}

/* Creation reports its progress after each 4 MiB chunk, the last at the
 * full size. */
static void test_create_reports_progress(void** state) {
  (void)state;
  iospd_err_t err;
  progress_log_t l = {{0}, {0}, 0};
  iospd_progress_t p = {.fn = log_progress, .ctx = &l};
  const uint64_t size = 10u << 20;
  assert_int_equal(iospd_plat_file_create_ex(TMP_NAME, size, false, &p, &err),
                   0);
  assert_int_equal(l.n, 3);
  assert_int_equal(l.done[0], 4u << 20);
  assert_int_equal(l.done[1], 8u << 20);
  assert_int_equal(l.done[2], size);
  for (uint32_t i = 0; i < 3; i++) assert_int_equal(l.total[i], size);
}

static void test_create_makes_parent_directories(void** state) {
  (void)state;
  iospd_err_t err;
  const char* path = "iospd_test_dir/sub/target.dat";
  assert_int_equal(iospd_plat_file_create(path, 3 * BLOCK, true, &err), 0);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_size, 3 * BLOCK);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(rmdir("iospd_test_dir/sub"), 0);
  assert_int_equal(rmdir("iospd_test_dir"), 0);
}

/* ---- -c that never costs data (src/posix/create.c) ---------------------- */

/* Fills path with size bytes of a known non-pattern content. */
static void write_old(const char* path, size_t size, uint8_t seed) {
  int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
  assert_true(fd >= 0);
  uint8_t* b = malloc(size);
  assert_non_null(b);
  for (size_t i = 0; i < size; i++) b[i] = (uint8_t)(i * 7 + seed);
  assert_int_equal(write(fd, b, size), (ssize_t)size);
  free(b);
  close(fd);
}

static void assert_old(const char* path, size_t size, uint8_t seed) {
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_size, size);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  assert_true(fd >= 0);
  uint8_t* b = malloc(size);
  assert_non_null(b);
  assert_int_equal(read(fd, b, size), (ssize_t)size);
  close(fd);
  for (size_t i = 0; i < size; i++)
    if (b[i] != (uint8_t)(i * 7 + seed)) fail_msg("byte %zu changed", i);
  free(b);
}

/* Temporary files of -c ("<name>.iospd-creating-<pid>") in dir. */
static int temp_files(const char* dir) {
  DIR* d = opendir(dir);
  assert_non_null(d);
  int n = 0;
  struct dirent* e;
  while ((e = readdir(d)) != NULL)
    if (strstr(e->d_name, ".iospd-creating-") != NULL) n++;
  closedir(d);
  return n;
}

/* EFBIG from the reservation (here this process's file size limit, as
 * `ulimit -f` sets it; a file system's own limit gives the same error):
 * an existing file keeps its size and content, a new one is not left
 * behind, nor are the directories made for it. */
static void test_create_efbig_leaves_nothing(void** state) {
  (void)state;
  const char* old = "iospd_test_efbig_old.tmp";
  const char* fresh = "iospd_test_efbig_dir/sub/new.tmp";
  write_old(old, 100000, 3);
  struct rlimit was;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
  struct rlimit lim = {1u << 20, was.rlim_max};
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
  iospd_err_t err;
  int rc_old = iospd_plat_file_create(old, 4u << 20, false, &err);
  iospd_err_t err_new;
  int rc_new = iospd_plat_file_create(fresh, 4u << 20, false, &err_new);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
  signal(SIGXFSZ, prev);

  assert_int_equal(rc_old, IOSPD_ENOSPC);
  assert_int_equal(err.os_code, EFBIG);
  assert_string_equal(err.msg,
                      "the space could not be reserved (File too large): "
                      "the file system, or this process's file size limit "
                      "(ulimit -f), does not allow a file that large; the "
                      "existing file was left as it was. Give -c a smaller "
                      "size or put the target on another file system");
  assert_old(old, 100000, 3);
  struct stat st;
  assert_int_equal(stat(old, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
  assert_int_equal(rc_new, IOSPD_ENOSPC);
  assert_non_null(strstr(err_new.msg, "; nothing was left behind."));
  assert_int_equal(stat(fresh, &st), -1);
  assert_int_equal(stat("iospd_test_efbig_dir", &st), -1);
  assert_int_equal(temp_files("."), 0);
  unlink(old);
}

/* A successful -c over an existing file gives what DISKSPD's overwrite
 * gives (size, pattern), through a new file that keeps the old one's
 * mode; a file with other hard links is overwritten in place instead, so
 * every link sees the new content. */
static void test_create_replaces_existing(void** state) {
  (void)state;
  const char* path = "iospd_test_replace.tmp";
  const char* link2 = "iospd_test_replace_link.tmp";
  iospd_err_t err;
  write_old(path, 300000, 9);
  struct stat before, after;
  assert_int_equal(stat(path, &before), 0);
  assert_int_equal(iospd_plat_file_create(path, 8192, false, &err), 0);
  assert_int_equal(stat(path, &after), 0);
  assert_int_equal(after.st_size, 8192);
  assert_int_equal(after.st_mode & 0777, 0600);
  assert_true(after.st_ino != before.st_ino); /* renamed into place */
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  uint8_t b[8192];
  assert_int_equal(read(fd, b, sizeof b), (ssize_t)sizeof b);
  close(fd);
  for (size_t i = 0; i < sizeof b; i++) assert_int_equal(b[i], i & 0xff);

  unlink(link2);
  assert_int_equal(link(path, link2), 0);
  assert_int_equal(stat(path, &before), 0);
  assert_int_equal(iospd_plat_file_create(path, 4096, true, &err), 0);
  assert_int_equal(stat(link2, &after), 0);
  assert_int_equal(after.st_ino, before.st_ino);
  assert_int_equal(after.st_size, 4096);
  assert_int_equal(temp_files("."), 0);
  unlink(link2);
  unlink(path);
}

/* -c through a symbolic link rewrites the file it points to, as an
 * O_TRUNC open did, and keeps the link. */
static void test_create_through_symlink(void** state) {
  (void)state;
  const char* file = "iospd_test_symlink_target.tmp";
  const char* lnk = "iospd_test_symlink.tmp";
  iospd_err_t err;
  write_old(file, 5000, 1);
  unlink(lnk);
  assert_int_equal(symlink(file, lnk), 0);
  assert_int_equal(iospd_plat_file_create(lnk, 12288, false, &err), 0);
  struct stat st;
  assert_int_equal(lstat(lnk, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_int_equal(stat(file, &st), 0);
  assert_int_equal(st.st_size, 12288);
  unlink(lnk);
  unlink(file);
}

static char noted[1024];
static void note_to_buf(void* ctx, const char* text) {
  (void)ctx;
  size_t n = strlen(noted);
  snprintf(noted + n, sizeof noted - n, "%s\n", text);
}

/* The temporary file a killed -c left is removed by the next -c of the
 * same target when its process is gone; a live process's is kept. */
static void test_create_removes_stale_temp(void** state) {
  (void)state;
  const char* path = "iospd_test_stale.tmp";
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) _exit(0);
  assert_int_equal(waitpid(child, NULL, 0), child);
  char dead[128], live[128], mine[128];
  snprintf(dead, sizeof dead, "%s.iospd-creating-%ld", path, (long)child);
  snprintf(live, sizeof live, "%s.iospd-creating-%ld", path, (long)getppid());
  /* One with this process's pid is from an earlier holder of the pid. */
  snprintf(mine, sizeof mine, "%s.iospd-creating-%ld", path, (long)getpid());
  write_old(dead, 4096, 0);
  write_old(live, 4096, 0);
  write_old(mine, 4096, 0);
  noted[0] = '\0';
  iospd_progress_t p = {.note = note_to_buf};
  iospd_err_t err;
  assert_int_equal(iospd_plat_file_create_ex(path, 4096, false, &p, &err), 0);
  struct stat st;
  assert_int_equal(stat(dead, &st), -1);
  assert_int_equal(stat(mine, &st), -1);
  assert_int_equal(stat(live, &st), 0);
  char want[512], want2[512];
  snprintf(want, sizeof want,
           "removed './%s', left by an interrupted -c of process %ld, which "
           "no longer runs\n",
           dead, (long)child);
  snprintf(want2, sizeof want2,
           "removed './%s', left by an interrupted -c of process %ld, which "
           "no longer runs\n",
           mine, (long)getpid());
  /* Two notes, in directory order. */
  assert_int_equal(strlen(noted), strlen(want) + strlen(want2));
  assert_non_null(strstr(noted, want));
  assert_non_null(strstr(noted, want2));
  unlink(live);
  unlink(path);
}

/* ---- never-written ranges (src/posix/extents.c) -------------------------- */

static void test_unwritten_ranges(void** state) {
  (void)state;
  const char* path = "iospd_test_unwritten.tmp";
  const uint64_t size = 4u << 20;
  iospd_err_t err;
  iospd_unwritten_t u;
  /* A sparse file (truncate): all holes. */
  int fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, (off_t)size), 0);
  assert_int_equal(iospd_plat_file_unwritten(path, &u, &err), 0);
  if (!u.known) {
    close(fd);
    unlink(path);
    printf("skipped: the file system here reports neither FIEMAP nor "
           "SEEK_HOLE\n");
    skip();
  }
  assert_int_equal(u.hole_bytes, size);
  assert_int_equal(u.unwritten_bytes, 0);
  /* The first MiB written (and flushed by the walk): 3 MiB of holes. */
  uint8_t* b = calloc(1, 1u << 20);
  assert_non_null(b);
  memset(b, 0x5a, 1u << 20);
  assert_int_equal(pwrite(fd, b, 1u << 20, 0), 1 << 20);
  assert_int_equal(iospd_plat_file_unwritten(path, &u, &err), 0);
  assert_int_equal(u.hole_bytes, size - (1u << 20));
  assert_int_equal(u.unwritten_bytes, 0);
  /* Fully written: nothing. */
  for (uint64_t off = 1u << 20; off < size; off += 1u << 20)
    assert_int_equal(pwrite(fd, b, 1u << 20, (off_t)off), 1 << 20);
  assert_int_equal(iospd_plat_file_unwritten(path, &u, &err), 0);
  assert_int_equal(u.hole_bytes + u.unwritten_bytes, 0);
  /* Reserved but never written (fallocate), where FIEMAP can say so. */
  assert_int_equal(ftruncate(fd, 0), 0);
  if (fallocate(fd, 0, 0, (off_t)size) != 0) {
    printf("note: no fallocate here (%s); unwritten extents not checked\n",
           strerror(errno));
  } else {
    struct {
      struct fiemap fm;
      struct fiemap_extent x[1];
    } probe;
    memset(&probe, 0, sizeof probe);
    probe.fm.fm_length = size;
    probe.fm.fm_extent_count = 1;
    assert_int_equal(iospd_plat_file_unwritten(path, &u, &err), 0);
    if (ioctl(fd, FS_IOC_FIEMAP, &probe) != 0) {
      printf("note: no FIEMAP here (%s); fallocate gave %llu bytes of "
             "holes (SEEK_HOLE)\n",
             strerror(errno), (unsigned long long)u.hole_bytes);
    } else {
      assert_int_equal(u.unwritten_bytes, size);
      assert_int_equal(u.hole_bytes, 0);
    }
  }
  free(b);
  close(fd);
  unlink(path);
}

static void test_file_info_regular(void** state) {
  (void)state;
  iospd_err_t err;
  create_tmp(5 * BLOCK);
  iospd_file_info_t info;
  assert_int_equal(iospd_plat_path_info(TMP_NAME, &info, &err), 0);
  assert_int_equal(info.size, 5 * BLOCK);
  assert_false(info.is_device);
  assert_in_range(info.logical_sector, 512, 65536);
  assert_in_range(info.physical_sector, info.logical_sector, 65536);
  assert_string_equal(info.content, "");
}

/* The block device holding the current directory, when it can be read: a
 * real device is a device with a size and sector sizes. */
static void test_block_device_info(void** state) {
  (void)state;
  struct stat st;
  assert_int_equal(stat(".", &st), 0);
  char link[128], target[512], dev[600];
  snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(st.st_dev),
           minor(st.st_dev));
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) {
    printf("skipped: no block device behind '.' (%s)\n", link);
    skip();
  }
  target[n] = '\0';
  const char* name = strrchr(target, '/');
  snprintf(dev, sizeof dev, "/dev/%s", name ? name + 1 : target);
  if (access(dev, R_OK) != 0) {
    printf("skipped: %s is not readable\n", dev);
    skip();
  }
  iospd_err_t err;
  iospd_file_info_t info;
  int rc = iospd_plat_path_info(dev, &info, &err);
  if (rc == IOSPD_EACCES) {
    /* Containers and VMs often deny device access even to root. */
    printf("skipped: %s\n", err.msg);
    skip();
  }
  if (rc != 0) fail_msg("%s", err.msg);
  assert_true(info.is_device);
  assert_true(info.size > 0);
  assert_in_range(info.logical_sector, 512, 65536);
  assert_in_range(info.physical_sector, info.logical_sector, 65536);
  /* It holds the file system we are running on. */
  assert_true(info.has_filesystem || info.has_partitions);
  printf("%s: %llu bytes, sectors %u/%u, holds %s\n", dev,
         (unsigned long long)info.size, info.logical_sector,
         info.physical_sector, info.content);
}

static void record_cpu(void* arg) { *(int*)arg = sched_getcpu(); }

/* The VmFlags line of the /proc/self/smaps mapping that holds addr. */
static void vmflags_of(const void* addr, char* out, size_t cap) {
  FILE* f = fopen("/proc/self/smaps", "r");
  assert_non_null(f);
  char line[512];
  bool inside = false;
  out[0] = '\0';
  uintptr_t a = (uintptr_t)addr;
  while (fgets(line, sizeof line, f) != NULL) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) /* a mapping's first line */
      inside = a >= lo && a < hi;
    else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
      snprintf(out, cap, "%s", line + 8);
      break;
    }
  }
  fclose(f);
}

/* Buffers from 2 MiB up are 2 MiB-aligned and advised as transparent huge
 * pages ("hg" in smaps); small ones are not. Both are zeroed. */
static void test_large_buffers_ask_for_huge_pages(void** state) {
  (void)state;
  const size_t mib = 1024u * 1024u;
  uint8_t* big = iospd_plat_buf_alloc(4 * mib, 4096, 0);
  uint8_t* small = iospd_plat_buf_alloc(64 * 1024, 4096, 0);
  assert_non_null(big);
  assert_non_null(small);
  assert_int_equal((uintptr_t)big % (2 * mib), 0);
  assert_int_equal((uintptr_t)small % 4096, 0);
  for (size_t i = 0; i < 4 * mib; i += 4099) assert_int_equal(big[i], 0);
  assert_int_equal(small[64 * 1024 - 1], 0);
  char flags[512];
  vmflags_of(big, flags, sizeof flags);
  if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) != 0)
    printf("not checking the THP advice: this kernel has no THP\n");
  else
    assert_non_null(strstr(flags, " hg"));
  iospd_plat_buf_free(big, 4 * mib);
  iospd_plat_buf_free(small, 64 * 1024);
}

static void test_thread_runs_on_pinned_cpu(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_cpu_topology_t topo;
  assert_int_equal(iospd_plat_cpu_topology(&topo, &err), 0);
  cpu_set_t allowed;
  assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  for (uint32_t i = 0; i < topo.cpu_count; i++) {
    /* Active means "this process may run there" (taskset, cpusets). */
    int linux_cpu = topo.cpus[i].group * 64 + topo.cpus[i].number;
    assert_int_equal(topo.cpus[i].active, CPU_ISSET(linux_cpu, &allowed) != 0);
    if (!topo.cpus[i].active) continue;
    int cpu = -1;
    iospd_thread_opts_t o = {true, topo.cpus[i].group, topo.cpus[i].number};
    iospd_plat_thread_t* t;
    assert_int_equal(iospd_plat_thread_start(&t, &o, record_cpu, &cpu, &err),
                     0);
    assert_int_equal(iospd_plat_thread_join(t), 0);
    assert_int_equal(cpu, topo.cpus[i].group * 64 + topo.cpus[i].number);
  }
  /* An impossible CPU is refused with a message naming it. */
  iospd_thread_opts_t bad = {true, 0, 63};
  iospd_plat_thread_t* t;
  int cpu = -1;
  if (topo.cpu_count < 64) {
    assert_true(iospd_plat_thread_start(&t, &bad, record_cpu, &cpu, &err) < 0);
    assert_non_null(strstr(err.msg, "63"));
  }
  iospd_plat_cpu_topology_free(&topo);
}

static void test_topology_matches_sysconf(void** state) {
  (void)state;
  iospd_err_t err;
  iospd_cpu_topology_t topo;
  assert_int_equal(iospd_plat_cpu_topology(&topo, &err), 0);
  assert_int_equal(topo.cpu_count, sysconf(_SC_NPROCESSORS_ONLN));
  iospd_cpu_times_t* t = calloc(topo.cpu_count, sizeof *t);
  assert_int_equal(iospd_plat_cpu_times(t, topo.cpu_count, &err), 0);
  for (uint32_t i = 0; i < topo.cpu_count; i++)
    assert_true(t[i].idle + t[i].kernel + t[i].user > 0);
  free(t);
  iospd_plat_cpu_topology_free(&topo);
}

static void test_parse_cpulist(void** state) {
  (void)state;
  uint64_t w[IOSPD_MAX_CPUS / 64];
  assert_true(iospd_posix_parse_cpulist("0-3,8,10-11,64,127-128\n", w));
  assert_int_equal(w[0], 0xf | 1u << 8 | 1u << 10 | 1u << 11);
  assert_int_equal(w[1], UINT64_C(1) | UINT64_C(1) << 63);
  assert_int_equal(w[2], 1);
  assert_int_equal(w[3], 0);
  assert_true(iospd_posix_parse_cpulist("5", w));
  assert_int_equal(w[0], 1u << 5);
  assert_false(iospd_posix_parse_cpulist("\n", w));
  assert_false(iospd_posix_parse_cpulist("x", w));
  assert_false(iospd_posix_parse_cpulist("1-", w));
}

static void test_parse_cpu_stat(void** state) {
  (void)state;
  /* CPU 1 is offline, so /proc/stat has no line for it. */
  static const char text[] =
      "cpu  100 100 100 100 100 100 100 100 0 0\n"
      "cpu0 10 1 20 300 4 5 6 7 8 9\n"
      "cpu2 1 2 3 4 5 6 7 8 0 0\n"
      "intr 12345 1 2 3\n";
  FILE* f = fmemopen((void*)text, sizeof text - 1, "r");
  assert_non_null(f);
  iospd_cpu_times_t t[3];
  const uint32_t ids[] = {0, 1, 2}; /* topology taken while CPU 1 was up */
  assert_int_equal(iospd_posix_parse_cpu_stat(f, ids, 3, 100, t, 3), 2);
  fclose(f);
  /* USER_HZ 100: one tick is 100000 units of 100 ns. User = user + nice,
   * Kernel = system + irq + softirq + steal, Idle = idle + iowait; guest
   * time is already inside user. */
  assert_int_equal(t[0].user, (10 + 1) * 100000u);
  assert_int_equal(t[0].kernel, (20 + 5 + 6 + 7) * 100000u);
  assert_int_equal(t[0].idle, (300 + 4) * 100000u);
  assert_int_equal(t[1].user + t[1].kernel + t[1].idle, 0);
  assert_int_equal(t[2].user, 3 * 100000u);
  assert_int_equal(t[2].kernel, (3 + 6 + 7 + 8) * 100000u);
  assert_int_equal(t[2].idle, (4 + 5) * 100000u);

  /* Without ids, lines fill entries in order; extra lines are dropped. */
  f = fmemopen((void*)text, sizeof text - 1, "r");
  assert_int_equal(iospd_posix_parse_cpu_stat(f, NULL, 0, 1000, t, 1), 1);
  fclose(f);
  assert_int_equal(t[0].user, 11 * 10000u);
}

static atomic_int ctrl_c_calls;

static void on_ctrl_c(void* arg) {
  assert_ptr_equal(arg, &ctrl_c_calls);
  atomic_fetch_add(&ctrl_c_calls, 1);
}

/* Last: SIGINT calls the callback once and wakes (latches) the waits. */
static void test_sigint_calls_back_and_wakes(void** state) {
  (void)state;
  iospd_err_t err;
  assert_int_equal(iospd_plat_wait(10), 0);
  assert_int_equal(iospd_plat_on_interrupt(on_ctrl_c, &ctrl_c_calls, &err), 0);
  assert_int_equal(raise(SIGINT), 0);
  assert_int_equal(iospd_plat_wait(10000), 1);
  assert_int_equal(atomic_load(&ctrl_c_calls), 1);
  /* Latched: later waits return at once. */
  uint64_t t0 = iospd_plat_ticks();
  assert_int_equal(iospd_plat_wait(5000), 1);
  assert_true(iospd_plat_ticks() - t0 < 1000000000u);
  iospd_plat_shutdown();
}

/* After the SIGINT test (the wake-up is latched by now): SIGTERM is handled
 * as Ctrl-C is (the callback runs; the process is not killed). */
static void test_sigterm_calls_back(void** state) {
  (void)state;
  iospd_err_t err;
  int before = atomic_load(&ctrl_c_calls);
  assert_int_equal(iospd_plat_on_interrupt(on_ctrl_c, &ctrl_c_calls, &err), 0);
  assert_int_equal(raise(SIGTERM), 0);
  for (int i = 0; i < 500 && atomic_load(&ctrl_c_calls) == before; i++)
    usleep(10000);
  assert_int_equal(atomic_load(&ctrl_c_calls), before + 1);
  assert_int_equal(iospd_plat_wait(5000), 1);
  iospd_plat_shutdown();
}

/* After the interrupt is latched: -c stops before writing, removes what it
 * made, leaves an existing file as it was, and says so. */
static void test_create_interrupted(void** state) {
  (void)state;
  const char* fresh = "iospd_test_int_new.tmp";
  const char* old = "iospd_test_int_old.tmp";
  iospd_err_t err;
  assert_int_equal(iospd_plat_wait(0), 1);
  assert_int_equal(iospd_plat_file_create(fresh, 64u << 20, false, &err),
                   IOSPD_EINTR);
  assert_string_equal(err.msg,
                      "interrupted after 0 of 64MiB were written; the "
                      "unfinished file was removed");
  struct stat st;
  assert_int_equal(stat(fresh, &st), -1);
  write_old(old, 70000, 5);
  assert_int_equal(iospd_plat_file_create(old, 64u << 20, false, &err),
                   IOSPD_EINTR);
  assert_string_equal(err.msg,
                      "interrupted after 0 of 64MiB were written; the "
                      "unfinished copy was removed, and the existing file is "
                      "as it was");
  assert_old(old, 70000, 5);
  assert_int_equal(temp_files("."), 0);
  unlink(old);
}

int main(int argc, char** argv) {
  iospd_err_t err;
  iospd_sysinfo_t si;
  if (iospd_plat_init(&si, &err) != 0) {
    printf("iospd_plat_init failed: %s\n", err.msg);
    return 1;
  }
  engine = ENGINE("psync");
  const struct CMUnitTest engine_tests[] = {
      cmocka_unit_test(test_roundtrip_fixed_and_plain_buffers),
      cmocka_unit_test(test_short_submit_keeps_the_rest),
      cmocka_unit_test(test_submit_and_reap_combined),
      cmocka_unit_test(test_auto_depth1_is_psync),
      cmocka_unit_test(test_errors_come_back_in_reap),
      cmocka_unit_test(test_misaligned_unbuffered_is_ealign),
      cmocka_unit_test(test_destroy_with_inflight_io),
      cmocka_unit_test(test_polling_reap_completes),
      cmocka_unit_test(test_queue_created_elsewhere),
      cmocka_unit_test(test_roundtrip_every_cache_mode),
      cmocka_unit_test(test_depth_kept),
      cmocka_unit_test(test_plan_queue_starts_no_thread),
      cmocka_unit_test(test_threads_keep_depth_in_flight),
      cmocka_unit_test(test_threads_cached_reads_inline),
      cmocka_unit_test(test_threads_batch_to_helper),
      cmocka_unit_test(test_threads_destroy_with_batch_queued),
      cmocka_unit_test(test_threads_batch_misses_keep_depth),
      cmocka_unit_test(test_threads_batch_by_slot),
  };
  int failed;
  if (argc > 1 && strcmp(argv[1], "uring") == 0) {
    iospd_plat_queue_t* q = NULL;
    int rc = iospd_plat_queue_create(&q, 4, 0, ENGINE("io_uring"), &err);
    if (rc == IOSPD_ENOTSUP) {
      printf("skipped: io_uring unavailable: %s\n", err.msg);
      return IOSPD_TEST_SKIP;
    }
    if (rc != 0) {
      printf("io_uring queue_create failed: %s\n", err.msg);
      return 1;
    }
    iospd_plat_queue_destroy(q);
    /* AUTO picks io_uring when the kernel allows it. */
    rc = iospd_plat_queue_create(&q, 4, 0, IOSPD_ENGINE_AUTO, &err);
    if (rc != 0 || strcmp(iospd_plat_queue_engine(q), "io_uring") != 0) {
      printf("AUTO did not pick io_uring\n");
      return 1;
    }
    iospd_plat_queue_destroy(q);
    engine = ENGINE("io_uring");
    engine_name = "io_uring";
    TMP_NAME = "iospd_test_plat_posix_uring.tmp";
    failed = cmocka_run_group_tests_name("io_uring", engine_tests, NULL, NULL);
  } else if (argc > 1 && (strcmp(argv[1], "libaio") == 0 ||
                          strcmp(argv[1], "threads") == 0)) {
    bool aio = strcmp(argv[1], "libaio") == 0;
    engine = aio ? ENGINE("libaio") : ENGINE("threads");
    engine_name = aio ? "libaio" : "threads";
    TMP_NAME = aio ? "iospd_test_plat_posix_libaio.tmp"
                   : "iospd_test_plat_posix_threads.tmp";
    iospd_plat_queue_t* q = NULL;
    int rc = iospd_plat_queue_create(&q, 4, 0, engine, &err);
    if (rc == IOSPD_ENOTSUP) {
      printf("skipped: %s unavailable: %s\n", engine_name, err.msg);
      return IOSPD_TEST_SKIP;
    }
    if (rc != 0) {
      printf("%s queue_create failed: %s\n", engine_name, err.msg);
      return 1;
    }
    iospd_plat_queue_destroy(q);
    failed = cmocka_run_group_tests_name(engine_name, engine_tests, NULL, NULL);
  } else {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_windows_targets_refused),
        cmocka_unit_test(test_not_a_file_or_device),
        cmocka_unit_test(test_detect_unknown_data),
        cmocka_unit_test(test_create_slow_path_pattern),
        cmocka_unit_test(test_create_reports_progress),
        cmocka_unit_test(test_create_makes_parent_directories),
        cmocka_unit_test(test_create_efbig_leaves_nothing),
        cmocka_unit_test(test_create_replaces_existing),
        cmocka_unit_test(test_create_through_symlink),
        cmocka_unit_test(test_create_removes_stale_temp),
        cmocka_unit_test(test_unwritten_ranges),
        cmocka_unit_test(test_file_info_regular),
        cmocka_unit_test(test_block_device_info),
        cmocka_unit_test(test_large_buffers_ask_for_huge_pages),
        cmocka_unit_test(test_thread_runs_on_pinned_cpu),
        cmocka_unit_test(test_topology_matches_sysconf),
        cmocka_unit_test(test_parse_cpulist),
        cmocka_unit_test(test_parse_cpu_stat),
        cmocka_unit_test(test_sigint_calls_back_and_wakes),
        /* These two need the latched interrupt: keep them last. */
        cmocka_unit_test(test_sigterm_calls_back),
        cmocka_unit_test(test_create_interrupted),
    };
    failed = cmocka_run_group_tests_name("psync", engine_tests, NULL, NULL);
    /* The -c tests count the temporary files in their folder: give them a
     * folder of their own, so the engine variants of this program (other
     * ctest entries, run in parallel in the same build folder) cannot put
     * theirs beside them. */
    char dir[] = "iospd_test_posix_XXXXXX";
    if (mkdtemp(dir) == NULL || chdir(dir) != 0) {
      printf("cannot make a private test folder: %s\n", strerror(errno));
      return 1;
    }
    failed += cmocka_run_group_tests_name("posix", tests, NULL, NULL);
    remove(TMP_NAME); /* some posix tests use it too */
    if (chdir("..") != 0 || rmdir(dir) != 0)
      printf("note: test folder %s left behind: %s\n", dir, strerror(errno));
  }
  remove(TMP_NAME);
  return failed;
}
